//! Messages and answers as rows: the columns the store queries (ids, order,
//! role, time, text, indices) are columns; an answer's cards (tools,
//! approvals, usage, error, the reasoning clock, the stop mark) are one JSON
//! column, read and written whole with the answer's row.

use super::super::model::{Answer, AnswerState, ApprovalCard, ChatMessage, ErrorCard, Role, ToolCard, UsageLine};
use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::{Deserialize, Serialize};

/// The columns of a message row, in the order [`read_message`] reads them.
pub const MESSAGE_COLUMNS: &str = "seq, id, role, at_ms, text, files, active, server_index";

/// The stored name of a role.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
    }
}

fn role_of(name: &str) -> Option<Role> {
    match name {
        "user" => Some(Role::User),
        "assistant" => Some(Role::Assistant),
        _ => None,
    }
}

fn state_name(state: AnswerState) -> &'static str {
    match state {
        AnswerState::Streaming => "streaming",
        AnswerState::Done => "done",
        AnswerState::Stopped => "stopped",
        AnswerState::Failed => "failed",
    }
}

fn state_of(name: &str) -> Option<AnswerState> {
    match name {
        "streaming" => Some(AnswerState::Streaming),
        "done" => Some(AnswerState::Done),
        "stopped" => Some(AnswerState::Stopped),
        "failed" => Some(AnswerState::Failed),
        _ => None,
    }
}

/// An answer's cards, as written.
#[derive(Serialize)]
struct CardsRef<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    reasoning_ms: Option<u64>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    tools: &'a [ToolCard],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    approvals: &'a [ApprovalCard],
    #[serde(skip_serializing_if = "Option::is_none")]
    usage: Option<&'a UsageLine>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a ErrorCard>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stop_confirmed: Option<bool>,
}

/// An answer's cards, as read.
#[derive(Deserialize, Default)]
struct Cards {
    #[serde(default)]
    reasoning_ms: Option<u64>,
    #[serde(default)]
    tools: Vec<ToolCard>,
    #[serde(default)]
    approvals: Vec<ApprovalCard>,
    #[serde(default)]
    usage: Option<UsageLine>,
    #[serde(default)]
    error: Option<ErrorCard>,
    #[serde(default)]
    stop_confirmed: Option<bool>,
}

/// The JSON column of `a`'s cards.
pub fn cards_json(a: &Answer) -> String {
    let cards = CardsRef {
        reasoning_ms: a.reasoning_ms,
        tools: &a.tools,
        approvals: &a.approvals,
        usage: a.usage.as_ref(),
        error: a.error.as_ref(),
        stop_confirmed: a.stop_confirmed,
    };
    serde_json::to_string(&cards).unwrap_or_else(|_| "{}".into())
}

/// The `files` column: `NULL` for none.
pub fn files_json(files: &[String]) -> Option<String> {
    (!files.is_empty()).then(|| serde_json::to_string(files).unwrap_or_default())
}

/// A message row read with [`MESSAGE_COLUMNS`] (its answers still empty),
/// and its `seq`. `None` (logged) for a row this build cannot read.
pub fn read_message(r: &Row) -> rusqlite::Result<Option<(i64, ChatMessage)>> {
    let seq: i64 = r.get(0)?;
    let id: String = r.get(1)?;
    let role: String = r.get(2)?;
    let Some(role) = role_of(&role) else {
        tracing::warn!(record = "chat_unreadable", message = %id, role = %role, "unknown role; the message is skipped");
        return Ok(None);
    };
    let files: Option<String> = r.get(5)?;
    let files = files.map(|f| serde_json::from_str(&f).unwrap_or_else(|_| vec![f])).unwrap_or_default();
    let server_index: Option<i64> = r.get(7)?;
    let message = ChatMessage {
        id,
        role,
        at_ms: r.get(3)?,
        text: r.get(4)?,
        files,
        answers: Vec::new(),
        active: r.get(6)?,
        server_index: server_index.map(|i| i.max(0) as u64),
    };
    Ok(Some((seq, message)))
}

/// The answers of message row `seq`, oldest first.
pub fn read_answers(conn: &Connection, seq: i64) -> rusqlite::Result<Vec<Answer>> {
    let mut stmt = conn.prepare_cached("SELECT run_id, state, started_ms, text, reasoning, cards FROM answers WHERE message_seq = ?1 ORDER BY n")?;
    let rows = stmt.query_map([seq], |r| {
        let state: String = r.get(1)?;
        let cards: String = r.get(5)?;
        Ok((r.get::<_, String>(0)?, state, r.get::<_, i64>(2)?, r.get::<_, String>(3)?, r.get::<_, String>(4)?, cards))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (run_id, state, started_ms, text, reasoning, cards) = row?;
        let state = state_of(&state).unwrap_or_else(|| {
            tracing::warn!(record = "chat_unreadable", run_id = %run_id, state = %state, "unknown answer state; read as failed");
            AnswerState::Failed
        });
        let cards: Cards = serde_json::from_str(&cards).unwrap_or_else(|e| {
            tracing::warn!(record = "chat_unreadable", run_id = %run_id, error = %e, "an answer's cards are damaged; shown without them");
            Cards::default()
        });
        out.push(Answer {
            run_id,
            state,
            started_ms,
            text,
            reasoning,
            reasoning_ms: cards.reasoning_ms,
            tools: cards.tools,
            approvals: cards.approvals,
            usage: cards.usage,
            error: cards.error,
            stop_confirmed: cards.stop_confirmed,
        });
    }
    Ok(out)
}

/// The messages a query over [`MESSAGE_COLUMNS`] returns, in its order,
/// with their answers.
pub fn query_messages(conn: &Connection, sql: &str, params: &[&dyn rusqlite::ToSql]) -> rusqlite::Result<Vec<ChatMessage>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows: Vec<Option<(i64, ChatMessage)>> = stmt.query_map(params, read_message)?.collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (seq, mut m) in rows.into_iter().flatten() {
        m.answers = read_answers(conn, seq)?;
        out.push(m);
    }
    Ok(out)
}

/// The `seq` and `pos` of message `id` of `conversation_id`.
pub fn locate(conn: &Connection, conversation_id: &str, id: &str) -> rusqlite::Result<Option<(i64, i64)>> {
    conn.prepare_cached("SELECT seq, pos FROM messages WHERE conversation_id = ?1 AND id = ?2")?
        .query_row(params![conversation_id, id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()
}

/// Time keys per millisecond: a message's `skey` is `at_ms * SKEY_PER_MS`
/// plus the first free slot.
const SKEY_PER_MS: i64 = 1024;

/// A free time key for a message written at `at_ms`: unique, and in the
/// order of `at_ms` (messages of one millisecond in the order written). The
/// search index orders its rows by it.
pub fn time_key(conn: &Connection, at_ms: i64) -> rusqlite::Result<i64> {
    let base = at_ms.clamp(0, i64::MAX / SKEY_PER_MS - 1) * SKEY_PER_MS;
    let mut key: i64 = conn
        .prepare_cached("SELECT coalesce(max(skey) + 1, ?1) FROM messages WHERE skey >= ?1 AND skey < ?1 + ?2")?
        .query_row(params![base, SKEY_PER_MS], |r| r.get(0))?;
    // More than SKEY_PER_MS messages in one millisecond spill into the next.
    let mut taken = conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM messages WHERE skey = ?1)")?;
    while taken.query_row([key], |r| r.get::<_, bool>(0))? {
        key += 1;
    }
    Ok(key)
}

/// Insert answer `n` of message row `seq`, or update it where it changed.
/// Returns the rows written (0 when it was already so).
pub fn put_answer(conn: &Connection, seq: i64, n: usize, a: &Answer) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO answers (message_seq, n, run_id, state, started_ms, text, reasoning, cards)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
         ON CONFLICT (message_seq, n) DO UPDATE SET
             run_id = excluded.run_id, state = excluded.state, started_ms = excluded.started_ms,
             text = excluded.text, reasoning = excluded.reasoning, cards = excluded.cards
         WHERE (run_id, state, started_ms, text, reasoning, cards)
             IS NOT (excluded.run_id, excluded.state, excluded.started_ms, excluded.text, excluded.reasoning, excluded.cards)",
    )?
    .execute(params![seq, n as i64, a.run_id, state_name(a.state), a.started_ms, a.text, a.reasoning, cards_json(a)])
}

/// Insert message `m` at `pos` of `conversation_id` with its answers, with
/// `server_index` and `parent_index` (a fork's copy keeps its parent's index
/// there) as given. Returns its `seq` and the rows written.
pub fn insert_message(
    conn: &Connection,
    conversation_id: &str,
    pos: i64,
    m: &ChatMessage,
    server_index: Option<u64>,
    parent_index: Option<u64>,
) -> rusqlite::Result<(i64, usize)> {
    let skey = time_key(conn, m.at_ms)?;
    conn.prepare_cached(
        "INSERT INTO messages (conversation_id, pos, id, role, at_ms, skey, text, files, active, server_index, parent_index)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        conversation_id,
        pos,
        m.id,
        role_name(m.role),
        m.at_ms,
        skey,
        m.text,
        files_json(&m.files),
        m.active,
        server_index.map(|i| i as i64),
        parent_index.map(|i| i as i64)
    ])?;
    let seq = conn.last_insert_rowid();
    let mut rows = 1;
    for (n, a) in m.answers.iter().enumerate() {
        rows += put_answer(conn, seq, n, a)?;
    }
    Ok((seq, rows))
}

/// Update message row `seq` to `m` where it changed: its own row and the
/// rows of the answers that changed; answers past `m`'s are removed.
/// Returns the rows written.
pub fn update_message(conn: &Connection, seq: i64, m: &ChatMessage) -> rusqlite::Result<usize> {
    let mut rows = conn
        .prepare_cached(
            "UPDATE messages SET role = ?2, at_ms = ?3, text = ?4, files = ?5, active = ?6, server_index = ?7
             WHERE seq = ?1 AND (role, at_ms, text, files, active, server_index) IS NOT (?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![seq, role_name(m.role), m.at_ms, m.text, files_json(&m.files), m.active, m.server_index.map(|i| i as i64)])?;
    for (n, a) in m.answers.iter().enumerate() {
        rows += put_answer(conn, seq, n, a)?;
    }
    rows += conn.prepare_cached("DELETE FROM answers WHERE message_seq = ?1 AND n >= ?2")?.execute(params![seq, m.answers.len() as i64])?;
    Ok(rows)
}
