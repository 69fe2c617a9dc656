//! Search across every conversation: the trigram FTS5 index over user text
//! and every answer's text (a substring match, case-insensitive, any
//! script), with a scan (`LIKE`) for queries too short for a trigram. The
//! result is what the chat window had before the history: newest first, at
//! most [`CHAT_SEARCH_HITS`], one line of snippet around the match, and a
//! conversation whose title matches (and no message of it) found by its
//! first user message.

use super::rows::read_answers;
use crate::chat::fold::title_of;
use crate::chat::model::SearchHit;
use crate::limits::{CHAT_SEARCH_HITS, CHAT_SNIPPET_CHARS, HISTORY_SCAN_RECENT, HISTORY_TRIGRAM_CHARS};
use rusqlite::{params, Connection, OptionalExtension};

/// The columns of a hit, over `messages m` joined with `conversations c`.
const HIT: &str = "m.seq, m.conversation_id, coalesce(c.title, ''), m.id, m.role, m.at_ms, m.text, m.active";

/// A message `m` the `LIKE` pattern `?1` matches (its text or an answer's).
const LIKE: &str = "(m.text LIKE ?1 ESCAPE '\\' OR EXISTS (SELECT 1 FROM answers a WHERE a.message_seq = m.seq AND a.text LIKE ?1 ESCAPE '\\'))";

/// The newest `?2` messages the query `?1` matches, newest first, from the
/// index, whose rowids are the messages' time keys.
fn indexed_sql() -> String {
    format!(
        "SELECT {HIT} FROM (SELECT rowid AS skey FROM search WHERE search MATCH ?1 ORDER BY rowid DESC LIMIT ?2) s
         JOIN messages m ON m.skey = s.skey LEFT JOIN conversations c ON c.id = m.conversation_id ORDER BY m.skey DESC"
    )
}

/// A short query: the newest `?2` matches among the messages newer than
/// time key `?3`, a scan from the newest back that stops at `?2` hits (a
/// query that matches often ends early).
fn recent_scan_sql() -> String {
    format!("SELECT {HIT} FROM messages m LEFT JOIN conversations c ON c.id = m.conversation_id WHERE m.skey > ?3 AND {LIKE} ORDER BY m.skey DESC LIMIT ?2")
}

/// A short query, past the recent messages: one pass over each table
/// (cheaper than a lookup of every message's answers), the newest `?2`
/// matches at or before time key `?3`.
fn older_scan_sql() -> String {
    format!(
        "SELECT {HIT} FROM messages m LEFT JOIN conversations c ON c.id = m.conversation_id
         WHERE m.skey <= ?3 AND m.seq IN (SELECT seq FROM messages WHERE text LIKE ?1 ESCAPE '\\'
                                          UNION SELECT message_seq FROM answers WHERE text LIKE ?1 ESCAPE '\\')
         ORDER BY m.skey DESC LIMIT ?2"
    )
}

/// A hit's row: seq, conversation, title, message id, role, at_ms, text, active.
type HitRow = (i64, String, String, String, String, i64, String, u32);

fn hit_rows(conn: &Connection, sql: &str, params: &[&dyn rusqlite::ToSql]) -> rusqlite::Result<Vec<HitRow>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?)))?;
    rows.collect()
}

/// The newest matches of `pat`, newest first, at most [`CHAT_SEARCH_HITS`].
fn matching(conn: &Connection, pat: &str, short: bool) -> rusqlite::Result<Vec<HitRow>> {
    let limit = CHAT_SEARCH_HITS as i64;
    if !short {
        return hit_rows(conn, &indexed_sql(), params![pat, limit]);
    }
    // The newest messages first, then the rest in one pass.
    let cut: Option<i64> = conn
        .prepare_cached("SELECT skey FROM messages ORDER BY skey DESC LIMIT 1 OFFSET ?1")?
        .query_row([HISTORY_SCAN_RECENT as i64], |r| r.get(0))
        .optional()?;
    let mut rows = hit_rows(conn, &recent_scan_sql(), params![pat, limit, cut.unwrap_or(i64::MIN)])?;
    if let Some(cut) = cut.filter(|_| rows.len() < CHAT_SEARCH_HITS) {
        rows.extend(hit_rows(conn, &older_scan_sql(), params![pat, limit - rows.len() as i64, cut])?);
    }
    Ok(rows)
}

/// Whether the query `?1` matches a message of conversation `?2`.
fn any_sql(short: bool) -> String {
    if short {
        format!("SELECT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = ?2 AND {LIKE})")
    } else {
        "SELECT EXISTS (SELECT 1 FROM search s JOIN messages m ON m.skey = s.rowid WHERE search MATCH ?1 AND m.conversation_id = ?2)".into()
    }
}

/// The query as the index takes it: one FTS5 string (a phrase: with the
/// trigram tokenizer, the text as a substring), or a `LIKE` pattern.
fn pattern(needle: &str, short: bool) -> String {
    if short {
        let escaped: String = needle.chars().flat_map(|c| if matches!(c, '%' | '_' | '\\') { vec!['\\', c] } else { vec![c] }).collect();
        format!("%{escaped}%")
    } else {
        format!("\"{}\"", needle.replace('"', "\"\""))
    }
}

/// See [`super::History::search`].
pub fn search(conn: &Connection, query: &str) -> rusqlite::Result<Vec<SearchHit>> {
    let needle = query.trim();
    if needle.is_empty() {
        return Ok(Vec::new());
    }
    let lower = needle.to_lowercase();
    let short = needle.chars().count() < HISTORY_TRIGRAM_CHARS;
    let pat = pattern(needle, short);
    let rows = matching(conn, &pat, short)?;
    let mut hits = Vec::new();
    for row in rows {
        let (seq, conversation_id, title, message_id, role, at_ms, text, active) = row;
        let snippet = if role == "user" {
            snippet_of(&text, &lower)
        } else {
            // The shown answer when it matches, else the first that does.
            let answers = read_answers(conn, seq)?;
            let shown = answers.get(active as usize).into_iter().chain(answers.iter());
            let texts: Vec<&str> = shown.map(|a| a.text.as_str()).collect();
            let found = texts.iter().find(|t| find_folded(t, &lower).is_some()).or(texts.first());
            snippet_of(found.copied().unwrap_or(""), &lower)
        };
        hits.push(SearchHit { conversation_id, title, message_id, snippet, at_ms });
    }
    hits.extend(title_hits(conn, &lower, &pat, short)?);
    hits.sort_by_key(|h| std::cmp::Reverse(h.at_ms));
    hits.truncate(CHAT_SEARCH_HITS);
    Ok(hits)
}

/// Conversations whose title holds `lower` and none of whose messages
/// match: each found by its first user message.
fn title_hits(conn: &Connection, lower: &str, pat: &str, short: bool) -> rusqlite::Result<Vec<SearchHit>> {
    let mut stmt = conn.prepare_cached("SELECT id, title FROM conversations")?;
    let titled: Vec<(String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .filter_map(Result::ok)
        .filter(|(_, title): &(String, String)| title.to_lowercase().contains(lower))
        .collect();
    let mut out = Vec::new();
    for (id, title) in titled {
        let any: bool = conn.prepare_cached(&any_sql(short))?.query_row(params![pat, id], |r| r.get(0))?;
        if any {
            continue;
        }
        let first = conn
            .prepare_cached("SELECT id, text, at_ms FROM messages WHERE conversation_id = ?1 AND role = 'user' ORDER BY pos LIMIT 1")?
            .query_row([&id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?)))
            .optional()?;
        if let Some((message_id, text, at_ms)) = first {
            out.push(SearchHit { conversation_id: id, title, message_id, snippet: title_of(&text), at_ms });
        }
    }
    Ok(out)
}

/// The byte offset in `text` where `lower` (lowercase) starts, compared
/// case-insensitively.
fn find_folded(text: &str, lower: &str) -> Option<usize> {
    // Each lowercase char with the byte offset of the char it came from.
    let mut folded = String::with_capacity(text.len());
    let mut origin = Vec::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        for l in c.to_lowercase() {
            let start = folded.len();
            folded.push(l);
            origin.extend(std::iter::repeat_n(at, folded.len() - start));
        }
    }
    folded.find(lower).map(|i| origin[i])
}

/// One line around the match of `lower` in `text` (its start when the
/// match is not found as such), at most [`CHAT_SNIPPET_CHARS`] characters.
pub fn snippet_of(text: &str, lower: &str) -> String {
    let at = find_folded(text, lower).unwrap_or(0);
    let lead = CHAT_SNIPPET_CHARS / 3;
    let mut back: Vec<char> = text[..at].chars().rev().take(lead + 1).collect();
    let cut = back.len() > lead;
    back.truncate(lead);
    back.reverse();
    // The rest is cut long before the whitespace is folded: an answer can be long.
    let rest: String = text[at..].chars().take(CHAT_SNIPPET_CHARS * 4).collect();
    let s: String = back.into_iter().collect::<String>() + &rest;
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = s.chars().take(CHAT_SNIPPET_CHARS).collect();
    if cut {
        out.insert(0, '…');
    }
    if s.chars().count() > CHAT_SNIPPET_CHARS {
        out.push('…');
    }
    out
}
