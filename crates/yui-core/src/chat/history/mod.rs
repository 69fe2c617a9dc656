//! [`History`]: one character's conversation history in SQLite (the file,
//! its schema, the writer and what it guarantees are in `docs/history.md`).
//!
//! - One row per conversation, per message and per answer (version):
//!   a turn appends or updates a few rows, never rewrites a conversation.
//! - Writes return at once: they queue to one writer thread that carries
//!   them out in the order they were asked, a burst in one transaction
//!   (WAL, `synchronous=NORMAL`: a killed process loses no committed
//!   transaction). [`History::flush`] waits until everything asked before
//!   it is committed and says whether it all succeeded; a failed write is
//!   logged (`chat_save_failed`) and reported by the next flush.
//! - Reads run on a second connection, after the writes asked before them
//!   are committed (read-your-writes), and fetch only what was asked: a page
//!   of messages, one message and its neighbours, the list, a search (FTS5,
//!   trigram). Nothing holds a conversation in memory.
//! - The schema is versioned (`PRAGMA user_version`, [`schema`]); a newer
//!   database than this build knows is refused untouched.
//! - The JSON files of the store before it are imported once
//!   ([`History::import_json`]).

mod import;
mod read;
mod rows;
pub mod schema;
mod search;
mod writer;

use crate::chat::model::{ChatMessage, ConversationSummary, SearchHit};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use writer::{Op, Shared};

/// What went wrong opening, importing into or writing the history.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// SQLite failed on the file.
    #[error("conversation history {}: {source}", path.display())]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// The file was written by a newer build (its schema version is past
    /// the one this build knows); nothing was written to it.
    #[error("conversation history {}: schema version {found} is newer than this build knows ({supported}); the file was left untouched", path.display())]
    TooNew {
        /// The database file.
        path: PathBuf,
        /// Its schema version.
        found: u32,
        /// The newest this build knows.
        supported: u32,
    },
    /// Writes failed in the writer (each was logged as `chat_save_failed`).
    #[error("conversation history {}: {} write(s) failed, the first: {}", path.display(), failures.len(), failures.first().map(String::as_str).unwrap_or(""))]
    WriteFailed {
        /// The database file.
        path: PathBuf,
        /// What failed, in order (`<write>: <error>`).
        failures: Vec<String>,
    },
    /// The writer thread is gone (it could not be started, or it stopped).
    #[error("conversation history {}: the writer thread is not running", path.display())]
    WriterGone {
        /// The database file.
        path: PathBuf,
    },
}

/// A conversation's own row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConversationMeta {
    /// Its id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// When it was created, epoch milliseconds.
    pub created_ms: i64,
    /// When it last changed, epoch milliseconds.
    pub updated_ms: i64,
    /// Its id on an `agent_chat` server when that differs (a named fork).
    pub server_id: Option<String>,
}

/// Where a page of messages is taken (see [`History::page`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anchor {
    /// The newest messages.
    Newest,
    /// The messages right before message `id`.
    Before(String),
    /// The messages right after message `id`.
    After(String),
    /// Message `id` with about as many before it as after it.
    Around(String),
}

/// Some consecutive messages of a conversation, oldest first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// The messages.
    pub messages: Vec<ChatMessage>,
    /// Messages exist before the first one.
    pub more_before: bool,
    /// Messages exist after the last one.
    pub more_after: bool,
}

/// One message and its neighbours.
#[derive(Debug, Clone, PartialEq)]
pub struct Around {
    /// The message before it.
    pub before: Option<ChatMessage>,
    /// The message.
    pub message: ChatMessage,
    /// The message after it.
    pub after: Option<ChatMessage>,
}

/// What [`History::import_json`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportReport {
    /// Conversations imported.
    pub conversations: usize,
    /// Messages imported.
    pub messages: usize,
    /// Files that could not be read (logged as `chat_unreadable`).
    pub skipped: Vec<PathBuf>,
    /// The database had imported JSON files before: nothing was read.
    pub already_imported: bool,
}

/// One character's conversation history: a SQLite file (WAL) written by one
/// writer thread in the order writes were asked, read on a second connection.
#[derive(Clone)]
pub struct History {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History").field("path", &self.inner.path).finish_non_exhaustive()
    }
}

struct Inner {
    path: PathBuf,
    /// The writer's queue (`None` once closing).
    tx: Mutex<Option<Sender<Op>>>,
    shared: Arc<Shared>,
    reader: Mutex<Connection>,
    thread: Mutex<Option<JoinHandle<()>>>,
    /// The writer thread, unparked for a write someone waits on.
    waker: std::thread::Thread,
}

impl Drop for Inner {
    /// The last handle gone: the writer carries out what is queued, then ends.
    fn drop(&mut self) {
        drop(self.tx.lock().unwrap_or_else(|e| e.into_inner()).take());
        self.waker.unpark();
        if let Some(thread) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = thread.join();
        }
    }
}

impl History {
    /// Open (create, migrate) `path`; start the writer thread.
    pub fn open(path: &Path) -> Result<History, HistoryError> {
        let conn = schema::open_writer(path)?;
        let reader = schema::open_reader(path)?;
        let shared = Arc::new(Shared::default());
        let (tx, rx) = mpsc::channel();
        let thread = {
            let (file, shared) = (path.to_path_buf(), shared.clone());
            std::thread::Builder::new()
                .name("yui-history".into())
                .spawn(move || {
                    crate::persist::background_thread();
                    writer::run(conn, file, rx, shared)
                })
                .map_err(|_| HistoryError::WriterGone { path: path.to_path_buf() })?
        };
        let waker = thread.thread().clone();
        let inner = Inner { path: path.to_path_buf(), tx: Mutex::new(Some(tx)), shared, reader: Mutex::new(reader), thread: Mutex::new(Some(thread)), waker };
        Ok(History { inner: Arc::new(inner) })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Import the JSON conversations of `dir` (today's format: `<id>.json` files of
    /// `Conversation`, and `current`) when this database has never imported them:
    /// every conversation and message, with versions, server ids and indices,
    /// nothing lost; a damaged file is logged (`chat_unreadable`) and skipped; the
    /// files are left where they are (a marker in the database says the import
    /// happened). Idempotent: a second call imports nothing. A conversation whose
    /// id the history already holds keeps the history's rows.
    pub fn import_json(&self, dir: &Path) -> Result<ImportReport, HistoryError> {
        let done = self.read(|c| writer::meta(c, import::IMPORTED)).flatten();
        if done.is_some() {
            return Ok(ImportReport { already_imported: true, ..ImportReport::default() });
        }
        let batch = import::read(dir);
        let (reply, answer) = mpsc::sync_channel(1);
        self.send(Op::Import(Box::new(batch), reply));
        answer.recv().unwrap_or_else(|_| Err(self.gone()))
    }

    // --- writes: return at once (never block on disk), carried out in order ---

    /// Insert or update a conversation's row (id, title, created_ms, updated_ms,
    /// server_id). A server id, once stored, is kept when `meta` has none.
    pub fn put_conversation(&self, meta: ConversationMeta) {
        self.send(Op::PutConversation(meta));
    }

    /// Insert or update message `m` of `conversation_id`: a new id goes after the
    /// conversation's last message; an existing one is updated in place (its
    /// fields and those of its versions that changed: one row per message and
    /// one per version, never a rewrite of the conversation). A conversation
    /// with no row yet gets one ("New chat", at the message's time).
    pub fn put_message(&self, conversation_id: &str, m: ChatMessage) {
        self.send(Op::PutMessage { conversation_id: conversation_id.to_string(), message: Box::new(m) });
    }

    /// Delete messages `ids` of `conversation_id`; then every later message of it whose
    /// server index is above `above` has it lowered by `by` (None: no renumbering),
    /// never below 0. Unknown ids are ignored; when none is known, nothing is renumbered.
    pub fn delete_messages(&self, conversation_id: &str, ids: Vec<String>, renumber: Option<(u64, u64)>) {
        self.send(Op::DeleteMessages { conversation_id: conversation_id.to_string(), ids, renumber });
    }

    /// A new conversation `new` holding copies of `from`'s messages up to and including
    /// `upto_msg_id`, the copies WITHOUT server indices (the old ones kept aside so that
    /// [`History::name_fork`] can give them back). An unknown message leaves `new`
    /// empty (logged, `chat_fork_unknown`).
    pub fn fork(&self, from: &str, upto_msg_id: &str, new: ConversationMeta) {
        self.send(Op::Fork { from: from.to_string(), upto_msg_id: upto_msg_id.to_string(), new });
    }

    /// The server named fork `id` `server_id`: store it, and its copies take back the
    /// server indices they had in the parent where they have none.
    pub fn name_fork(&self, id: &str, server_id: &str) {
        self.send(Op::NameFork { id: id.to_string(), server_id: server_id.to_string() });
    }

    /// Delete a conversation and its messages.
    pub fn delete_conversation(&self, id: &str) {
        self.send(Op::DeleteConversation(id.to_string()));
    }

    /// Remember which conversation is current.
    pub fn set_current(&self, id: &str) {
        self.send(Op::SetCurrent(id.to_string()));
    }

    /// Block until every write asked before this call is on disk (committed); the
    /// returned value says whether they all succeeded (since the previous flush).
    /// Used at close and by tests.
    pub fn flush(&self) -> Result<(), HistoryError> {
        let (reply, answer) = mpsc::sync_channel(1);
        if !self.send(Op::Flush(reply)) {
            return Err(self.gone());
        }
        match answer.recv() {
            Ok(failures) if failures.is_empty() => Ok(()),
            Ok(failures) => Err(HistoryError::WriteFailed { path: self.inner.path.clone(), failures }),
            Err(_) => Err(self.gone()),
        }
    }

    /// Rows the writer inserted, updated or deleted since [`History::open`] (the
    /// search index's own rows not counted): what the writes cost, for tests and
    /// the bench.
    pub fn rows_written(&self) -> u64 {
        self.settle();
        self.inner.shared.rows.load(Ordering::Relaxed)
    }

    // --- reads: on the reading connection, after the writes asked before the call
    //     are committed (read-your-writes), never through the writer's queue ---

    /// The conversation last named by [`History::set_current`] (or by the
    /// imported `current` file), as stored: it may name one with no row yet.
    pub fn current_id(&self) -> Option<String> {
        self.read(|c| writer::meta(c, "current")).flatten()
    }

    /// Conversation `id`'s row.
    pub fn conversation(&self, id: &str) -> Option<ConversationMeta> {
        self.read(|c| read::conversation(c, id)).flatten()
    }

    /// Every conversation with a message, newest change first (plus `current` even when
    /// empty, when it has a row), as `ConversationSummary` (`messages` = its message count).
    pub fn list(&self, current: &str) -> Vec<ConversationSummary> {
        self.read(|c| read::list(c, current)).unwrap_or_default()
    }

    /// At most `limit` messages of `conversation_id`, oldest first, at `anchor`:
    /// `Newest` the newest ones; `Before(id)` the ones right before message `id`;
    /// `After(id)` the ones right after it; `Around(id)` about `limit/2` before it, it,
    /// and the rest after it (a search hit opened; a side with fewer messages leaves
    /// its room to the other). `more_before`/`more_after`: whether
    /// messages exist before the first / after the last returned one. An unknown id
    /// gives an empty page.
    pub fn page(&self, conversation_id: &str, anchor: Anchor, limit: usize) -> Page {
        self.read(|c| read::page(c, conversation_id, &anchor, limit)).unwrap_or_default()
    }

    /// The newest `limit` messages of `conversation_id` after position
    /// `after_pos` (every one when `None`), oldest first, each with its
    /// position: what another character has not heard yet
    /// (`crate::ensemble`).
    pub fn newest_after(&self, conversation_id: &str, after_pos: Option<i64>, limit: usize) -> Vec<(i64, ChatMessage)> {
        self.read(|c| read::newest_after(c, conversation_id, after_pos.unwrap_or(i64::MIN), limit)).unwrap_or_default()
    }

    /// One message and its neighbours (the one before and after), for the chat's edits of
    /// messages no longer in memory.
    pub fn around(&self, conversation_id: &str, msg_id: &str) -> Option<Around> {
        self.read(|c| read::around(c, conversation_id, msg_id)).flatten()
    }

    /// Search across every conversation (user text and every version's text):
    /// newest first, at most [`crate::limits::CHAT_SEARCH_HITS`], snippets of at most
    /// [`crate::limits::CHAT_SNIPPET_CHARS`], a title match counts (as
    /// `ChatStore::search`). A substring match, case-insensitive: the trigram
    /// index for three characters or more, a scan for fewer (`docs/history.md`).
    pub fn search(&self, query: &str) -> Vec<SearchHit> {
        self.read(|c| search::search(c, query)).unwrap_or_default()
    }

    /// Queue `op` (waking the writer when someone waits on it); false
    /// (logged) when the writer is gone.
    fn send(&self, op: Op) -> bool {
        let awaited = op.awaited();
        let tx = self.inner.tx.lock().unwrap_or_else(|e| e.into_inner());
        let sent = match tx.as_ref() {
            Some(tx) => {
                self.inner.shared.asked.fetch_add(1, Ordering::SeqCst);
                tx.send(op).map_err(|e| e.0)
            }
            None => Err(op),
        };
        match sent {
            Ok(()) => {
                if awaited {
                    self.inner.waker.unpark();
                }
                true
            }
            Err(op) => {
                tracing::warn!(record = "chat_save_failed", path = %self.inner.path.display(), write = op.name(), error = "the history's writer is not running");
                false
            }
        }
    }

    /// Wait until the writes asked before are committed, telling the writer
    /// to stop gathering when some are still queued.
    fn settle(&self) {
        if self.inner.shared.pending() {
            self.send(Op::Hurry);
        }
        self.inner.shared.settle();
    }

    fn gone(&self) -> HistoryError {
        HistoryError::WriterGone { path: self.inner.path.clone() }
    }

    /// Run `f` on the reading connection in one read transaction, after the
    /// writes asked before; `None` (logged) when SQLite failed.
    fn read<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Option<T> {
        self.settle();
        let mut conn = self.inner.reader.lock().unwrap_or_else(|e| e.into_inner());
        let result = conn.transaction().and_then(|tx| {
            let out = f(&tx)?;
            tx.commit()?;
            Ok(out)
        });
        match result {
            Ok(out) => Some(out),
            Err(e) => {
                tracing::warn!(record = "chat_read_failed", path = %self.inner.path.display(), error = %e);
                None
            }
        }
    }
}
