//! [`ChatStore`]: one character's conversations, kept in the data dir.
//!
//! - One file per conversation, `<data>/chats/<character>/<id>.json` (the
//!   key of [`crate::data_dir::character_key`]), written whole after each
//!   turn; `current` beside them names the conversation new turns go to.
//! - All of a character's conversations are read when the session starts;
//!   a damaged file is logged (`chat_unreadable`) and skipped, never
//!   overwritten.
//! - The current conversation is the one the backend continues (push keeps
//!   history under the chat id, the request transports keep a transcript):
//!   New chat (the reset) starts another; an older one opens to read.
//! - A conversation, or all of them, can be deleted: each file goes in one
//!   unlink, then `current` is rewritten, so a kill at any point leaves a
//!   readable store (a `current` naming a deleted file falls back to the
//!   newest conversation when the store opens).

use super::fold::title_of;
use super::model::{ChatPage, Conversation, ConversationSummary, Role, SearchHit};
use crate::data_dir::{write_whole, DataDir};
use crate::limits::{CHAT_PAGE_MESSAGES, CHAT_SEARCH_HITS, CHAT_SNIPPET_CHARS};
use std::path::PathBuf;

const DIR: &str = "chats";
const CURRENT: &str = "current";

/// One character's conversations. See the module doc.
#[derive(Debug)]
pub struct ChatStore {
    dir: PathBuf,
    conversations: Vec<Conversation>,
    current: usize,
}

impl ChatStore {
    /// The conversations of the character keyed `character`, read now; an
    /// empty current conversation when there are none.
    pub fn open(data_dir: &DataDir, character: &str, now_ms: i64) -> Self {
        let key = crate::data_dir::character_key(character);
        Self::open_at(data_dir.root().join(DIR).join(key), now_ms)
    }

    /// The same, in `dir`.
    pub fn open_at(dir: PathBuf, now_ms: i64) -> Self {
        let mut conversations = Vec::new();
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.extension().and_then(|e| e.to_str()) != Some("json") {
                    continue;
                }
                match std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(|raw| {
                    serde_json::from_str::<Conversation>(&raw).map_err(|e| e.to_string())
                }) {
                    Ok(c) => conversations.push(c),
                    Err(e) => tracing::warn!(record = "chat_unreadable", path = %path.display(), error = %e),
                }
            }
        }
        conversations.sort_by_key(|c| c.created_ms);
        let named = std::fs::read_to_string(dir.join(CURRENT)).ok().map(|s| s.trim().to_string());
        let current = named.and_then(|id| conversations.iter().position(|c| c.id == id));
        let mut store = Self { dir, current: current.unwrap_or(0), conversations };
        if current.is_none() {
            match store.conversations.len() {
                0 => {
                    store.conversations.push(Conversation::new(new_id(now_ms, &[]), now_ms));
                }
                n => store.current = n - 1,
            }
        }
        store
    }

    /// The conversation new turns go to.
    pub fn current(&self) -> &Conversation {
        &self.conversations[self.current]
    }

    /// The same, to change (call [`ChatStore::save`] after).
    pub fn current_mut(&mut self) -> &mut Conversation {
        &mut self.conversations[self.current]
    }

    /// Start a new current conversation (an empty current one is kept as
    /// the new one) and return it.
    pub fn new_conversation(&mut self, now_ms: i64) -> &Conversation {
        if !self.current().messages.is_empty() {
            let id = new_id(now_ms, &self.conversations);
            self.conversations.push(Conversation::new(id, now_ms));
            self.current = self.conversations.len() - 1;
        }
        self.write_current_name();
        self.current()
    }

    /// Make a new current conversation from the current one's messages up
    /// to and including `msg_id`, titled after it with " (fork)". `None`
    /// when the current conversation has no such message.
    pub fn fork(&mut self, msg_id: &str, now_ms: i64) -> Option<&Conversation> {
        let from = self.current();
        let pos = from.messages.iter().position(|m| m.id == msg_id)?;
        let mut fork = Conversation::new(new_id(now_ms, &self.conversations), now_ms);
        fork.title = format!("{} (fork)", from.title);
        fork.messages = from.messages[..=pos].to_vec();
        self.conversations.push(fork);
        self.current = self.conversations.len() - 1;
        self.save();
        Some(self.current())
    }

    /// Delete conversation `id`: its file goes first (one unlink, so a kill
    /// leaves it either whole or gone), then `current` is rewritten. When it
    /// was the current one, the newest remaining conversation becomes
    /// current, or a fresh empty one when none remains. Returns what was
    /// deleted; `Err` (a sentence for the user) when there is no such
    /// conversation or its file could not be removed (then nothing changed).
    pub fn delete(&mut self, id: &str, now_ms: i64) -> Result<Conversation, String> {
        let Some(i) = self.conversations.iter().position(|c| c.id == id) else {
            return Err("That conversation is gone already.".into());
        };
        self.remove_file(id)?;
        let was_current = i == self.current;
        let removed = self.conversations.remove(i);
        if i < self.current {
            self.current -= 1;
        }
        if was_current || self.conversations.is_empty() {
            self.current_to_newest(now_ms);
        }
        self.write_current_name();
        tracing::info!(record = "chat_deleted", id = %removed.id);
        Ok(removed)
    }

    /// Delete every conversation (file by file, as [`ChatStore::delete`]);
    /// a fresh empty one becomes current. Returns what was deleted, and the
    /// first failure: a conversation whose file could not be removed stays
    /// (and stays listed).
    pub fn delete_all(&mut self, now_ms: i64) -> (Vec<Conversation>, Option<String>) {
        let mut deleted = Vec::new();
        let mut kept = Vec::new();
        let mut failure = None;
        for c in std::mem::take(&mut self.conversations) {
            match self.remove_file(&c.id) {
                Ok(()) => deleted.push(c),
                Err(e) => {
                    failure.get_or_insert(e);
                    kept.push(c);
                }
            }
        }
        self.conversations = kept;
        let id = new_id(now_ms, &self.conversations);
        self.conversations.push(Conversation::new(id, now_ms));
        self.current = self.conversations.len() - 1;
        self.write_current_name();
        tracing::info!(record = "chat_deleted_all", deleted = deleted.len(), kept = self.conversations.len() - 1);
        (deleted, failure)
    }

    /// Remove conversation `id`'s file (a missing file is fine: an empty
    /// conversation was never written).
    fn remove_file(&self, id: &str) -> Result<(), String> {
        let path = self.dir.join(format!("{id}.json"));
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => {
                tracing::warn!(record = "chat_delete_failed", path = %path.display(), error = %e);
                Err(format!("Could not delete the conversation: {e}"))
            }
        }
    }

    /// The newest remaining conversation (by last change) becomes current,
    /// or a fresh empty one when there is none.
    fn current_to_newest(&mut self, now_ms: i64) {
        let newest = self.conversations.iter().enumerate().max_by_key(|(i, c)| (c.updated_ms, *i)).map(|(i, _)| i);
        match newest {
            Some(i) => self.current = i,
            None => {
                self.conversations.push(Conversation::new(new_id(now_ms, &[]), now_ms));
                self.current = 0;
            }
        }
    }

    /// The server named the local conversation `local_id` `server_id`; its
    /// first messages take the server indices in `indices` (a fork's copies,
    /// at the places the server's fork keeps them), where they have none.
    pub fn set_server_id(&mut self, local_id: &str, server_id: &str, indices: &[Option<u64>]) {
        let Some(i) = self.conversations.iter().position(|c| c.id == local_id) else { return };
        self.conversations[i].server_id = Some(server_id.to_string());
        for (m, index) in self.conversations[i].messages.iter_mut().zip(indices) {
            m.server_index = m.server_index.or(*index);
        }
        let c = &self.conversations[i];
        let path = self.dir.join(format!("{}.json", c.id));
        if let Err(e) = serde_json::to_vec(c).map_err(std::io::Error::other).and_then(|b| write_whole(&path, &b)) {
            tracing::warn!(record = "chat_save_failed", path = %path.display(), error = %e);
        }
    }

    /// The conversation `id`.
    pub fn get(&self, id: &str) -> Option<&Conversation> {
        self.conversations.iter().find(|c| c.id == id)
    }

    /// Conversation `id` as a chat window opens it: its newest
    /// [`CHAT_PAGE_MESSAGES`] messages, or, with `at`, the messages around
    /// message `at` (a search hit). `None`: no such conversation.
    pub fn window(&self, id: &str, at: Option<&str>) -> Option<Conversation> {
        let c = self.get(id)?;
        let n = c.messages.len();
        let (from, to) = match at.and_then(|at| c.messages.iter().position(|m| m.id == at)) {
            Some(pos) => {
                let from = pos.saturating_sub(CHAT_PAGE_MESSAGES / 2);
                (from, (from + CHAT_PAGE_MESSAGES).min(n))
            }
            None => (n.saturating_sub(CHAT_PAGE_MESSAGES), n),
        };
        Some(Conversation {
            id: c.id.clone(),
            title: c.title.clone(),
            created_ms: c.created_ms,
            updated_ms: c.updated_ms,
            messages: c.messages[from..to].to_vec(),
            more_before: from > 0,
            more_after: to < n,
            server_id: c.server_id.clone(),
        })
    }

    /// The page of conversation `id` right before message `before` or
    /// right after message `after` (at most [`CHAT_PAGE_MESSAGES`]); an
    /// empty page when there is no such message, `None` when there is no
    /// such conversation.
    pub fn page(&self, id: &str, before: Option<&str>, after: Option<&str>) -> Option<ChatPage> {
        let c = self.get(id)?;
        let n = c.messages.len();
        let at = |m: &str| c.messages.iter().position(|x| x.id == m);
        let (from, to) = match (before.map(at), after.map(at)) {
            (Some(Some(pos)), _) => (pos.saturating_sub(CHAT_PAGE_MESSAGES), pos),
            (None, Some(Some(pos))) => (pos + 1, (pos + 1 + CHAT_PAGE_MESSAGES).min(n)),
            _ => (0, 0),
        };
        Some(ChatPage {
            conversation_id: c.id.clone(),
            messages: c.messages[from..to].to_vec(),
            more_before: from > 0,
            more_after: to < n && to > 0,
        })
    }

    /// Every conversation that has a message, newest change first, and the
    /// current one even when empty.
    pub fn list(&self) -> Vec<ConversationSummary> {
        let mut out: Vec<ConversationSummary> = self
            .conversations
            .iter()
            .enumerate()
            .filter(|(i, c)| *i == self.current || !c.messages.is_empty())
            .map(|(i, c)| c.summary(i == self.current))
            .collect();
        out.sort_by_key(|c| std::cmp::Reverse(c.updated_ms));
        out
    }

    /// Messages in every conversation whose shown text contains `query`
    /// (case-insensitive; blank finds nothing), newest first, at most
    /// [`CHAT_SEARCH_HITS`].
    pub fn search(&self, query: &str) -> Vec<SearchHit> {
        let needle = query.trim().to_lowercase();
        if needle.is_empty() {
            return Vec::new();
        }
        let mut hits = Vec::new();
        for c in &self.conversations {
            for m in &c.messages {
                let text = m.shown_text();
                let Some(at) = text.to_lowercase().find(&needle) else { continue };
                hits.push(SearchHit {
                    conversation_id: c.id.clone(),
                    title: c.title.clone(),
                    message_id: m.id.clone(),
                    snippet: snippet(text, at),
                    at_ms: m.at_ms,
                });
            }
            if c.title.to_lowercase().contains(&needle) && !hits.iter().any(|h| h.conversation_id == c.id) {
                if let Some(m) = c.messages.iter().find(|m| m.role == Role::User) {
                    hits.push(SearchHit {
                        conversation_id: c.id.clone(),
                        title: c.title.clone(),
                        message_id: m.id.clone(),
                        snippet: title_of(&m.text),
                        at_ms: m.at_ms,
                    });
                }
            }
        }
        hits.sort_by_key(|h| std::cmp::Reverse(h.at_ms));
        hits.truncate(CHAT_SEARCH_HITS);
        hits
    }

    /// Write the current conversation (and which one is current). A
    /// failure is logged (`chat_save_failed`); the conversation stays in
    /// memory and the next save tries again.
    pub fn save(&self) {
        let c = self.current();
        if c.messages.is_empty() {
            return;
        }
        let path = self.dir.join(format!("{}.json", c.id));
        let result = serde_json::to_vec(c).map_err(std::io::Error::other).and_then(|bytes| write_whole(&path, &bytes));
        match result {
            Ok(()) => self.write_current_name(),
            Err(e) => tracing::warn!(record = "chat_save_failed", path = %path.display(), error = %e),
        }
    }

    fn write_current_name(&self) {
        if let Err(e) = write_whole(&self.dir.join(CURRENT), self.current().id.as_bytes()) {
            tracing::warn!(record = "chat_save_failed", path = %self.dir.display(), error = %e);
        }
    }
}

/// A conversation id from the time, unique among `existing`.
fn new_id(now_ms: i64, existing: &[Conversation]) -> String {
    let mut n = now_ms.max(0);
    while existing.iter().any(|c| c.id == format!("c{n}")) {
        n += 1;
    }
    format!("c{n}")
}

/// One line around byte `at` of `text`, at most [`CHAT_SNIPPET_CHARS`].
fn snippet(text: &str, at: usize) -> String {
    let before: Vec<char> = text[..at].chars().collect();
    let lead = CHAT_SNIPPET_CHARS / 3;
    let start = before.len().saturating_sub(lead);
    let mut s: String = before[start..].iter().collect::<String>() + &text[at..];
    s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = s.chars().take(CHAT_SNIPPET_CHARS).collect();
    if start > 0 {
        out.insert(0, '…');
    }
    if s.chars().count() > CHAT_SNIPPET_CHARS {
        out.push('…');
    }
    out
}
