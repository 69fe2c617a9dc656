//! The conversation history in SQLite (`chat::history`, `docs/history.md`):
//! the schema and its migration, append and update, versions, forks,
//! deletes, search, paging, the import of the JSON files, failures reported
//! by flush, and a kill -9 loop over a history being written.

use std::collections::HashSet;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use yui_core::chat::history::{schema, Anchor, ConversationMeta, History, HistoryError};
use yui_core::chat::{Answer, AnswerState, ChatMessage, Conversation, ErrorCard, Role, ToolCard, ToolCardState};
use yui_core::limits::{CHAT_SEARCH_HITS, CHAT_SNIPPET_CHARS};

fn meta(id: &str, title: &str, at: i64) -> ConversationMeta {
    ConversationMeta { id: id.into(), title: title.into(), created_ms: at, updated_ms: at, server_id: None }
}

fn user(id: &str, text: &str, at: i64, index: Option<u64>) -> ChatMessage {
    ChatMessage { id: id.into(), role: Role::User, at_ms: at, text: text.into(), files: Vec::new(), answers: Vec::new(), active: 0, server_index: index }
}

fn answer(run: &str, text: &str, state: AnswerState) -> Answer {
    let mut a = Answer::new(run, 0);
    a.text = text.into();
    a.state = state;
    a
}

fn assistant(id: &str, text: &str, at: i64, index: Option<u64>) -> ChatMessage {
    ChatMessage {
        id: id.into(),
        role: Role::Assistant,
        at_ms: at,
        text: String::new(),
        files: Vec::new(),
        answers: vec![answer(id, text, AnswerState::Done)],
        active: 0,
        server_index: index,
    }
}

/// A history in `dir` with conversation `c` of `n` exchanges (`u<k>`, `a<k>`,
/// server indices `2k`, `2k + 1`), flushed.
fn with_exchanges(dir: &Path, c: &str, n: usize) -> History {
    let h = History::open(&dir.join("history.db")).unwrap();
    h.put_conversation(meta(c, "Numbers", 1));
    for k in 0..n {
        let at = 10 + 2 * k as i64;
        h.put_message(c, user(&format!("u{k}"), &format!("question number {k}"), at, Some(2 * k as u64)));
        h.put_message(c, assistant(&format!("a{k}"), &format!("answer number {k}"), at + 1, Some(2 * k as u64 + 1)));
    }
    h.flush().unwrap();
    h
}

fn ids(messages: &[ChatMessage]) -> Vec<String> {
    messages.iter().map(|m| m.id.clone()).collect()
}

/// Every message of `c`, oldest first.
fn all(h: &History, c: &str) -> Vec<ChatMessage> {
    h.page(c, Anchor::Newest, usize::MAX).messages
}

/// A raw connection beside the history (for what only SQL can show).
fn raw(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

fn integrity(path: &Path) {
    let conn = raw(path);
    let ok: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(ok, "ok");
    conn.execute("INSERT INTO search(search) VALUES ('integrity-check')", []).unwrap_or_else(|e| panic!("the search index: {e}"));
    conn.execute("INSERT INTO grams(grams) VALUES ('integrity-check')", []).unwrap_or_else(|e| panic!("the index of pairs: {e}"));
}

/// Conversations as files of today's store, with distinct times.
fn store_files(dir: &Path) {
    let mut a = Conversation::new("c1", 10);
    a.title = "Weather talk".into();
    a.messages = vec![user("u1", "What's the weather like in Kyoto?", 11, Some(0)), assistant("a1", "Kyoto is rainy; 京都は雨です。", 12, Some(1))];
    let mut b = Conversation::new("c2", 20);
    b.title = "Cooking".into();
    b.messages = vec![user("u2", "How do I cook rice?", 21, None), assistant("a2", "Rinse it, then simmer. The weather does not matter.", 22, None)];
    let mut c = Conversation::new("c3", 30);
    c.title = "Rainy day ideas".into();
    c.messages = vec![user("u3", "Anything to do indoors?", 31, None)];
    for conv in [a, b, c] {
        std::fs::write(dir.join(format!("{}.json", conv.id)), serde_json::to_vec(&conv).unwrap()).unwrap();
    }
}

mod durability;
mod import;
mod migration;
mod search;
mod writes;
