//! The reads: each on the reading connection, in one read transaction (one
//! snapshot: a page never mixes two commits), fetching only the rows asked
//! for.

use super::rows::{query_messages, read_answers, read_message, MESSAGE_COLUMNS};
use super::{Anchor, Around, ConversationMeta, Page};
use crate::chat::model::{ChatMessage, ConversationSummary};
use rusqlite::{params, Connection, OptionalExtension};

/// A row count for SQL (`LIMIT`), from a count that may be huge.
fn sql_count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Conversation `id`'s row.
pub fn conversation(conn: &Connection, id: &str) -> rusqlite::Result<Option<ConversationMeta>> {
    conn.prepare_cached("SELECT id, title, created_ms, updated_ms, server_id FROM conversations WHERE id = ?1")?
        .query_row([id], |r| Ok(ConversationMeta { id: r.get(0)?, title: r.get(1)?, created_ms: r.get(2)?, updated_ms: r.get(3)?, server_id: r.get(4)? }))
        .optional()
}

/// Every conversation with a message (and `current`), newest change first.
pub fn list(conn: &Connection, current: &str) -> rusqlite::Result<Vec<ConversationSummary>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.title, c.updated_ms, (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id)
         FROM conversations c ORDER BY c.updated_ms DESC, c.created_ms DESC",
    )?;
    let rows = stmt.query_map([], |r| {
        let id: String = r.get(0)?;
        let count: i64 = r.get(3)?;
        Ok(ConversationSummary { current: id == current, id, title: r.get(1)?, updated_ms: r.get(2)?, messages: count.clamp(0, u32::MAX as i64) as u32 })
    })?;
    let mut out = Vec::new();
    for row in rows {
        let s = row?;
        if s.messages > 0 || s.current {
            out.push(s);
        }
    }
    Ok(out)
}

/// Up to `limit` messages of `cid` before position `pos`, newest first.
fn before(conn: &Connection, cid: &str, pos: i64, limit: usize) -> rusqlite::Result<Vec<ChatMessage>> {
    let sql = format!("SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ?1 AND pos < ?2 ORDER BY pos DESC LIMIT ?3");
    query_messages(conn, &sql, params![cid, pos, sql_count(limit)])
}

/// Up to `limit` messages of `cid` from position `pos` on, oldest first.
fn from(conn: &Connection, cid: &str, pos: i64, limit: usize) -> rusqlite::Result<Vec<ChatMessage>> {
    let sql = format!("SELECT {MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ?1 AND pos >= ?2 ORDER BY pos LIMIT ?3");
    query_messages(conn, &sql, params![cid, pos, sql_count(limit)])
}

/// The position of message `id` of `cid`.
fn pos_of(conn: &Connection, cid: &str, id: &str) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached("SELECT pos FROM messages WHERE conversation_id = ?1 AND id = ?2")?.query_row(params![cid, id], |r| r.get(0)).optional()
}

/// `older` (newest first, possibly one more than wanted) and `newer`
/// (oldest first, possibly one more than wanted) as a page of `before_n` +
/// `after_n` messages.
fn window(mut older: Vec<ChatMessage>, mut newer: Vec<ChatMessage>, before_n: usize, after_n: usize) -> Page {
    let more_before = older.len() > before_n;
    let more_after = newer.len() > after_n;
    older.truncate(before_n);
    newer.truncate(after_n);
    older.reverse();
    older.extend(newer);
    Page { messages: older, more_before, more_after }
}

/// See [`super::History::page`].
pub fn page(conn: &Connection, cid: &str, anchor: &Anchor, limit: usize) -> rusqlite::Result<Page> {
    let more = limit.saturating_add(1);
    match anchor {
        Anchor::Newest => Ok(window(before(conn, cid, i64::MAX, more)?, Vec::new(), limit, 0)),
        Anchor::Before(id) => {
            let Some(pos) = pos_of(conn, cid, id)? else { return Ok(Page::default()) };
            let mut page = window(before(conn, cid, pos, more)?, Vec::new(), limit, 0);
            page.more_after = true;
            Ok(page)
        }
        Anchor::After(id) => {
            let Some(pos) = pos_of(conn, cid, id)? else { return Ok(Page::default()) };
            let mut page = window(Vec::new(), from(conn, cid, pos + 1, more)?, 0, limit);
            page.more_before = true;
            Ok(page)
        }
        Anchor::Around(id) => {
            let Some(pos) = pos_of(conn, cid, id)? else { return Ok(Page::default()) };
            if limit == 0 {
                return Ok(Page::default());
            }
            // About half before, the message and the rest after; a side
            // with fewer messages leaves its room to the other.
            let older = before(conn, cid, pos, more)?;
            let newer = from(conn, cid, pos, more)?;
            let mut before_n = (limit / 2).min(older.len());
            let after_n = (limit - before_n).min(newer.len());
            before_n = (limit - after_n).min(older.len());
            Ok(window(older, newer, before_n, after_n))
        }
    }
}

/// See [`super::History::around`].
pub fn around(conn: &Connection, cid: &str, id: &str) -> rusqlite::Result<Option<Around>> {
    let Some(pos) = pos_of(conn, cid, id)? else { return Ok(None) };
    let mut newer = from(conn, cid, pos, 2)?.into_iter();
    let Some(message) = newer.next() else { return Ok(None) };
    let before = before(conn, cid, pos, 1)?.into_iter().next();
    Ok(Some(Around { before, message, after: newer.next() }))
}

/// See [`super::History::newest_after`].
pub fn newest_after(conn: &Connection, cid: &str, after_pos: i64, limit: usize) -> rusqlite::Result<Vec<(i64, ChatMessage)>> {
    let sql = format!("SELECT {MESSAGE_COLUMNS}, pos FROM messages WHERE conversation_id = ?1 AND pos > ?2 ORDER BY pos DESC LIMIT ?3");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows: Vec<(Option<(i64, ChatMessage)>, i64)> =
        stmt.query_map(params![cid, after_pos, sql_count(limit)], |r| Ok((read_message(r)?, r.get(8)?)))?.collect::<Result<_, _>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (row, pos) in rows.into_iter().rev() {
        let Some((seq, mut m)) = row else { continue };
        m.answers = read_answers(conn, seq)?;
        out.push((pos, m));
    }
    Ok(out)
}
