//! Search across every conversation: the trigram FTS5 index over user text
//! and every answer's text (a substring match, case-insensitive, any
//! script), and for queries too short for a trigram (one or two
//! characters) the index of character pairs (`grams`, see [`pairs`]). The
//! result is what the chat window had before the history: newest first, at
//! most [`CHAT_SEARCH_HITS`], one line of snippet around the match, and a
//! conversation whose title matches (and no message of it) found by its
//! first user message.

use super::rows::read_answers;
use crate::chat::fold::title_of;
use crate::chat::model::SearchHit;
use crate::limits::{CHAT_SEARCH_HITS, CHAT_SNIPPET_CHARS, HISTORY_TRIGRAM_CHARS};
use rusqlite::functions::FunctionFlags;
use rusqlite::{params, Connection, OptionalExtension};
use std::fmt::Write as _;

/// The SQL function that turns a message's text into its pairs of
/// characters for the `grams` index ([`pairs`]); registered on the writing
/// connection by [`register_pairs`] (the index's triggers call it).
pub const PAIRS_FN: &str = "yui_pairs";

/// Hex digits per character in a `grams` token (a code point is at most
/// U+10FFFF); also the index's prefix length, so that a one-character
/// query is one prefix lookup.
pub const PAIR_CHAR_HEX: usize = 6;

/// A character as a `grams` token's half: its lowercase form as
/// [`PAIR_CHAR_HEX`] hex digits (the `ascii` tokenizer keeps them whole).
fn push_hex(out: &mut String, c: char) {
    let lower = c.to_lowercase().next().unwrap_or(c);
    let _ = write!(out, "{:06x}", lower as u32);
}

/// `text` as the `grams` index holds it: one token per character, made of
/// that character and the next (the last with `000000`), space-separated.
/// Every one- or two-character substring of `text` is then a token's
/// prefix or a whole token, whatever the script; a pair across the U+0001
/// between a message's parts never matches a query.
pub fn pairs(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(chars.len() * (2 * PAIR_CHAR_HEX + 1));
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_hex(&mut out, c);
        match chars.get(i + 1) {
            Some(&next) => push_hex(&mut out, next),
            None => out.push_str("000000"),
        }
    }
    out
}

/// Register [`PAIRS_FN`] on `conn` (the writer: every write to a message
/// fires the triggers that call it).
pub fn register_pairs(conn: &Connection) -> rusqlite::Result<()> {
    conn.create_scalar_function(PAIRS_FN, 1, FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC, |ctx| {
        Ok(ctx.get::<Option<String>>(0)?.map(|t| pairs(&t)).unwrap_or_default())
    })
}

/// A query of one or two characters as a `grams` match: the pair's token,
/// or the character as a prefix.
fn short_match(needle: &str) -> String {
    let mut token = String::new();
    let mut count = 0;
    for c in needle.chars() {
        push_hex(&mut token, c);
        count += 1;
    }
    if count == 1 {
        format!("\"{token}\" *")
    } else {
        format!("\"{token}\"")
    }
}

/// The columns of a hit, over `messages m` joined with `conversations c`.
const HIT: &str = "m.seq, m.conversation_id, coalesce(c.title, ''), m.id, m.role, m.at_ms, m.text, m.active";

/// The newest `?2` messages the query `?1` matches in the index `{table}`,
/// newest first (the indexes' rowids are the messages' time keys).
fn indexed_sql(table: &str) -> String {
    format!(
        "SELECT {HIT} FROM (SELECT rowid AS skey FROM {table} WHERE {table} MATCH ?1 ORDER BY rowid DESC LIMIT ?2) s
         JOIN messages m ON m.skey = s.skey LEFT JOIN conversations c ON c.id = m.conversation_id ORDER BY m.skey DESC"
    )
}

/// The index a query goes to: `grams` for one or two characters, else the
/// trigram index `search`.
fn index(short: bool) -> &'static str {
    if short {
        "grams"
    } else {
        "search"
    }
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
    hit_rows(conn, &indexed_sql(index(short)), params![pat, CHAT_SEARCH_HITS as i64])
}

/// Whether the query `?1` matches a message of conversation `?2`.
fn any_sql(short: bool) -> String {
    let table = index(short);
    format!("SELECT EXISTS (SELECT 1 FROM {table} s JOIN messages m ON m.skey = s.rowid WHERE {table} MATCH ?1 AND m.conversation_id = ?2)")
}

/// The query as its index takes it: one FTS5 string (a phrase: with the
/// trigram tokenizer, the text as a substring), or [`short_match`].
fn pattern(needle: &str, short: bool) -> String {
    if short {
        short_match(needle)
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
