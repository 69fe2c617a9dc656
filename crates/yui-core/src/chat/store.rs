//! [`ChatStore`]: one character's conversations, kept in its history
//! database ([`History`], `docs/history.md`).
//!
//! - The database is `<data>/chats/<character>/history.db` (the key of
//!   [`crate::data_dir::character_key`]); the JSON files that directory held
//!   before are imported into it once, the first time it opens.
//! - In memory: the current conversation's newest messages only (at most
//!   twice [`CHAT_TAIL_MESSAGES`], trimmed back to it at a turn's end), the one
//!   conversation new turns go to. Everything else is read from the
//!   database when asked (a page, a window around a search hit, the list, a
//!   search), never held.
//! - [`ChatStore::save`] hands the database what changed since the last
//!   save (a new message, an answer that grew, a version picked): the
//!   writes queue to the history's writer thread and return at once; the
//!   session loop never waits for the disk or serializes a conversation.
//! - An edit of a message no longer in memory first loads the messages
//!   from it to the newest ([`ChatStore::ensure_loaded`]), so the edit and
//!   the snapshot that shows it are made as for a recent one.
//! - A conversation, or all of them, can be deleted; when the current one
//!   goes, the newest remaining one becomes current, or a fresh empty one.

use super::history::{Anchor, ConversationMeta, History};
use super::model::{ChatMessage, ChatPage, Conversation, ConversationSummary, SearchHit};
use crate::data_dir::DataDir;
use crate::limits::{CHAT_PAGE_MESSAGES, CHAT_TAIL_MESSAGES};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const DIR: &str = "chats";
/// The database's file name in a character's chat directory.
pub const HISTORY_FILE: &str = "history.db";

/// One character's conversations. See the module doc.
#[derive(Debug)]
pub struct ChatStore {
    history: History,
    /// The current conversation: its newest messages.
    current: Conversation,
    /// The current conversation's row as last handed to the database.
    saved_meta: Option<ConversationMeta>,
    /// Each message of `current` as last handed to the database.
    saved: HashMap<String, ChatMessage>,
}

impl ChatStore {
    /// The conversations of the character keyed `character`; an empty
    /// current conversation when there are none.
    pub fn open(data_dir: &DataDir, character: &str, now_ms: i64) -> Self {
        let key = crate::data_dir::character_key(character);
        Self::open_at(data_dir.root().join(DIR).join(key), now_ms)
    }

    /// The same, in `dir` (its `history.db`, importing the JSON files there
    /// the first time).
    pub fn open_at(dir: PathBuf, now_ms: i64) -> Self {
        let history = open_history(&dir);
        match history.import_json(&dir) {
            Ok(r) if !r.already_imported && (r.conversations > 0 || !r.skipped.is_empty()) => {
                tracing::info!(record = "chat_imported", conversations = r.conversations, messages = r.messages, skipped = r.skipped.len(), dir = %dir.display());
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(record = "chat_import_failed", dir = %dir.display(), error = %e),
        }
        let named = history.current_id().filter(|id| history.conversation(id).is_some());
        let current = named.or_else(|| newest(&history, None));
        let mut store = Self { history, current: Conversation::new("", now_ms), saved_meta: None, saved: HashMap::new() };
        match current {
            Some(id) => store.load_current(&id, now_ms),
            None => store.start_new(now_ms),
        }
        store
    }

    /// The history database (the session's queries read it directly).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The conversation new turns go to (its newest messages).
    pub fn current(&self) -> &Conversation {
        &self.current
    }

    /// The same, to change (call [`ChatStore::save`] after).
    pub fn current_mut(&mut self) -> &mut Conversation {
        &mut self.current
    }

    /// Start a new current conversation (an empty current one is kept as
    /// the new one) and return it.
    pub fn new_conversation(&mut self, now_ms: i64) -> &Conversation {
        if !self.current.messages.is_empty() || self.current.more_before {
            self.save();
            self.start_new(now_ms);
        }
        &self.current
    }

    /// Make message `msg_id` of the current conversation (and the one
    /// before its exchange) loaded, with every message after it: an edit far
    /// back loads the messages between it and the newest. False when the
    /// conversation has no such message.
    pub fn ensure_loaded(&mut self, msg_id: &str) -> bool {
        loop {
            if let Some(pos) = self.current.messages.iter().position(|m| m.id == msg_id) {
                // One message before it, so a snapshot starts inside what a window loaded.
                if pos > 1 || !self.current.more_before {
                    return true;
                }
            }
            let Some(first) = self.current.messages.first().map(|m| m.id.clone()) else { return false };
            if !self.current.more_before {
                return false;
            }
            let page = self.history.page(&self.current.id, Anchor::Before(first), CHAT_PAGE_MESSAGES * 10);
            if page.messages.is_empty() {
                self.current.more_before = false;
                continue;
            }
            for m in &page.messages {
                self.saved.insert(m.id.clone(), m.clone());
            }
            self.current.more_before = page.more_before;
            self.current.messages.splice(0..0, page.messages);
        }
    }

    /// Make a new current conversation from the current one's messages up
    /// to and including `msg_id` (which must be loaded: see
    /// [`ChatStore::ensure_loaded`]), titled after it with " (fork)"; its
    /// copies carry no server index (the returned list has the ones they
    /// had, in order, for [`ChatStore::set_server_id`]). `None` when the
    /// current conversation has no such message.
    pub fn fork(&mut self, msg_id: &str, now_ms: i64) -> Option<(&Conversation, Vec<Option<u64>>)> {
        let pos = self.current.messages.iter().position(|m| m.id == msg_id)?;
        self.save();
        let id = self.new_id(now_ms);
        let mut fork = Conversation::new(id, now_ms);
        fork.title = format!("{} (fork)", self.current.title);
        fork.more_before = self.current.more_before;
        fork.messages = self.current.messages[..=pos].to_vec();
        let indices = fork.messages.iter_mut().map(|m| m.server_index.take()).collect();
        self.history.fork(&self.current.id, msg_id, meta_of(&fork));
        self.history.set_current(&fork.id);
        self.saved = fork.messages.iter().map(|m| (m.id.clone(), m.clone())).collect();
        self.saved_meta = Some(meta_of(&fork));
        self.current = fork;
        Some((&self.current, indices))
    }

    /// Delete messages `first..=last` of the current conversation (loaded);
    /// with `renumber` `(above, by)`, every later message whose server index
    /// is above `above` has it lowered by `by`, here and in the database.
    pub fn delete_messages(&mut self, first: usize, last: usize, renumber: Option<(u64, u64)>, now_ms: i64) {
        let gone: Vec<ChatMessage> = self.current.messages.drain(first..=last).collect();
        for m in &gone {
            self.saved.remove(&m.id);
        }
        if let Some((above, by)) = renumber {
            for m in &mut self.current.messages[first..] {
                if let Some(i) = m.server_index.as_mut().filter(|i| **i > above) {
                    *i = i.saturating_sub(by);
                }
                if let (Some(saved), Some(i)) = (self.saved.get_mut(&m.id), m.server_index) {
                    saved.server_index = Some(i);
                }
            }
        }
        self.current.updated_ms = now_ms;
        self.history.delete_messages(&self.current.id, gone.into_iter().map(|m| m.id).collect(), renumber);
    }

    /// Delete conversation `id`; when it was the current one, the newest
    /// remaining conversation becomes current, or a fresh empty one.
    /// Returns what was deleted (its newest messages: enough to tell
    /// whether a server knew it); [`DeleteError`] (its text a sentence for the user) when there
    /// is no such conversation or the database refused (then nothing changed).
    pub fn delete(&mut self, id: &str, now_ms: i64) -> Result<Conversation, DeleteError> {
        let gone = if id == self.current.id {
            self.save();
            self.current.clone()
        } else {
            self.window(id, None).ok_or(DeleteError::Gone)?
        };
        self.history.delete_conversation(id);
        if let Err(e) = self.history.flush() {
            tracing::warn!(record = "chat_delete_failed", id = %id, error = %e);
            return Err(DeleteError::Refused(e.to_string()));
        }
        if id == self.current.id {
            match newest(&self.history, Some(id)) {
                Some(next) => self.load_current(&next, now_ms),
                None => self.start_new(now_ms),
            }
        }
        tracing::info!(record = "chat_deleted", id = %id);
        Ok(gone)
    }

    /// Delete every conversation; a fresh empty one becomes current.
    /// Returns what was deleted, and the first failure (a conversation the
    /// database could not delete stays, and stays listed).
    pub fn delete_all(&mut self, now_ms: i64) -> (Vec<Conversation>, Option<String>) {
        self.save();
        let mut deleted = Vec::new();
        for summary in self.history.list(&self.current.id) {
            let c = if summary.id == self.current.id { Some(self.current.clone()) } else { self.window(&summary.id, None) };
            self.history.delete_conversation(&summary.id);
            deleted.extend(c);
        }
        let failure = self.history.flush().err().map(|e| format!("Could not delete every conversation: {e}"));
        self.start_new(now_ms);
        tracing::info!(record = "chat_deleted_all", deleted = deleted.len(), failed = failure.is_some());
        (deleted, failure)
    }

    /// The server named the local conversation `local_id` `server_id`; its
    /// loaded first messages take the server indices in `indices` (a fork's
    /// copies, at the places the server's fork keeps them), where they have
    /// none, as the database gives back to every copy.
    pub fn set_server_id(&mut self, local_id: &str, server_id: &str, indices: &[Option<u64>]) {
        self.history.name_fork(local_id, server_id);
        if self.current.id != local_id {
            return;
        }
        self.current.server_id = Some(server_id.to_string());
        for (m, index) in self.current.messages.iter_mut().zip(indices) {
            m.server_index = m.server_index.or(*index);
            if let Some(saved) = self.saved.get_mut(&m.id) {
                saved.server_index = m.server_index;
            }
        }
        if let Some(meta) = self.saved_meta.as_mut() {
            meta.server_id = Some(server_id.to_string());
        }
    }

    /// Conversation `id` as a chat window opens it: its newest
    /// [`CHAT_PAGE_MESSAGES`] messages, or, with `at`, the messages around
    /// message `at` (a search hit). `None`: no such conversation.
    pub fn window(&self, id: &str, at: Option<&str>) -> Option<Conversation> {
        window(&self.history, id, at)
    }

    /// The page of conversation `id` right before message `before` or
    /// right after message `after` (at most [`CHAT_PAGE_MESSAGES`]). See
    /// [`page`].
    pub fn page(&self, id: &str, before: Option<&str>, after: Option<&str>) -> Option<ChatPage> {
        page(&self.history, id, before, after)
    }

    /// Every conversation that has a message, newest change first, and the
    /// current one even when empty.
    pub fn list(&self) -> Vec<ConversationSummary> {
        self.history.list(&self.current.id)
    }

    /// Messages in every conversation whose shown text contains `query`
    /// (case-insensitive; blank finds nothing), newest first.
    pub fn search(&self, query: &str) -> Vec<SearchHit> {
        self.history.search(query)
    }

    /// Hand the database what changed in the current conversation since the
    /// last save (queued: returns at once). A failed write is logged by the history (`chat_save_failed`)
    /// and the conversation stays in memory.
    pub fn save(&mut self) {
        let c = &self.current;
        let meta = meta_of(c);
        if self.saved_meta.as_ref() != Some(&meta) && (!c.messages.is_empty() || self.saved_meta.is_some()) {
            self.history.put_conversation(meta.clone());
            self.history.set_current(&c.id);
            self.saved_meta = Some(meta);
        }
        for m in &c.messages {
            if self.saved.get(&m.id) != Some(m) {
                self.history.put_message(&c.id, m.clone());
                self.saved.insert(m.id.clone(), m.clone());
            }
        }
    }

    /// Save, then keep at most [`CHAT_TAIL_MESSAGES`] messages in memory
    /// once there are more than twice as many (a turn's end: the snapshot
    /// of an edit far back has gone out by then).
    pub fn save_and_trim(&mut self) {
        self.save();
        let n = self.current.messages.len();
        if n > 2 * CHAT_TAIL_MESSAGES {
            for m in self.current.messages.drain(..n - CHAT_TAIL_MESSAGES) {
                self.saved.remove(&m.id);
            }
            self.current.more_before = true;
        }
    }

    /// Wait until everything handed to the database is on disk (the
    /// session's close, and tests).
    pub fn flush(&self) {
        if let Err(e) = self.history.flush() {
            tracing::warn!(record = "chat_save_failed", error = %e);
        }
    }

    /// Conversation `id` becomes current: its row and newest messages.
    fn load_current(&mut self, id: &str, now_ms: i64) {
        let Some(meta) = self.history.conversation(id) else { return self.start_new(now_ms) };
        let page = self.history.page(id, Anchor::Newest, CHAT_TAIL_MESSAGES);
        self.saved = page.messages.iter().map(|m| (m.id.clone(), m.clone())).collect();
        self.current = Conversation {
            id: meta.id.clone(),
            title: meta.title.clone(),
            created_ms: meta.created_ms,
            updated_ms: meta.updated_ms,
            messages: page.messages,
            more_before: page.more_before,
            more_after: false,
            server_id: meta.server_id.clone(),
        };
        self.saved_meta = Some(meta);
        self.history.set_current(id);
    }

    /// A fresh empty conversation becomes current (its row is written, so
    /// the list shows it).
    fn start_new(&mut self, now_ms: i64) {
        let c = Conversation::new(self.new_id(now_ms), now_ms);
        self.history.put_conversation(meta_of(&c));
        self.history.set_current(&c.id);
        self.saved_meta = Some(meta_of(&c));
        self.saved.clear();
        self.current = c;
    }

    /// A conversation id from the time, unique in the database.
    fn new_id(&self, now_ms: i64) -> String {
        let mut n = now_ms.max(0);
        while format!("c{n}") == self.current.id || self.history.conversation(&format!("c{n}")).is_some() {
            n += 1;
        }
        format!("c{n}")
    }
}

/// Why a conversation was not deleted: its text is a sentence for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeleteError {
    /// No such conversation (deleted in another window, say).
    #[error("That conversation is gone already.")]
    Gone,
    /// The database refused (its reason); nothing changed.
    #[error("Could not delete the conversation: {0}")]
    Refused(String),
}

/// Conversation `id` of `history` as a chat window opens it: its newest
/// [`CHAT_PAGE_MESSAGES`] messages, or the ones around message `at`.
pub fn window(history: &History, id: &str, at: Option<&str>) -> Option<Conversation> {
    let meta = history.conversation(id)?;
    let anchor = at.map_or(Anchor::Newest, |at| Anchor::Around(at.to_string()));
    let mut page = history.page(id, anchor, CHAT_PAGE_MESSAGES);
    if page.messages.is_empty() && at.is_some() {
        page = history.page(id, Anchor::Newest, CHAT_PAGE_MESSAGES);
    }
    Some(Conversation {
        id: meta.id,
        title: meta.title,
        created_ms: meta.created_ms,
        updated_ms: meta.updated_ms,
        messages: page.messages,
        more_before: page.more_before,
        more_after: page.more_after,
        server_id: meta.server_id,
    })
}

/// The page of conversation `id` of `history` right before message
/// `before` or right after message `after`; an empty page for an unknown
/// message, `None` for an unknown conversation.
pub fn page(history: &History, id: &str, before: Option<&str>, after: Option<&str>) -> Option<ChatPage> {
    history.conversation(id)?;
    let anchor = match (before, after) {
        (Some(b), _) => Anchor::Before(b.to_string()),
        (None, Some(a)) => Anchor::After(a.to_string()),
        (None, None) => Anchor::Newest,
    };
    let p = history.page(id, anchor, CHAT_PAGE_MESSAGES);
    Some(ChatPage { conversation_id: id.to_string(), messages: p.messages, more_before: p.more_before, more_after: p.more_after })
}

/// The newest conversation of `history` with a message, but `except`.
fn newest(history: &History, except: Option<&str>) -> Option<String> {
    history.list("").into_iter().map(|s| s.id).find(|id| Some(id.as_str()) != except)
}

/// `c`'s own row.
fn meta_of(c: &Conversation) -> ConversationMeta {
    ConversationMeta { id: c.id.clone(), title: c.title.clone(), created_ms: c.created_ms, updated_ms: c.updated_ms, server_id: c.server_id.clone() }
}

/// The history in `dir`; when it cannot be opened (a newer build's file, a
/// disk that refuses), one in a fresh file beside it, named for the time,
/// so the session runs and keeps this run's conversations (logged).
fn open_history(dir: &Path) -> History {
    let path = dir.join(HISTORY_FILE);
    if let Err(e) = std::fs::create_dir_all(dir) {
        tracing::warn!(record = "chat_save_failed", path = %dir.display(), error = %e);
    }
    match History::open(&path) {
        Ok(h) => h,
        Err(e) => {
            tracing::error!(record = "chat_history_unavailable", path = %path.display(), error = %e);
            let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
            let spare = std::env::temp_dir().join(format!("yui-history-{}-{stamp}.db", std::process::id()));
            History::open(&spare).unwrap_or_else(|e| panic!("no conversation history can be opened, not even {}: {e}", spare.display()))
        }
    }
}
