//! The writer thread: the only connection that writes. It takes the queued
//! writes in the order they were asked, gathers what comes within
//! [`HISTORY_WRITE_LINGER`] of the first (up to [`HISTORY_WRITE_BATCH`]; a
//! flush, an import or a waiting read commits at once) and carries the
//! batch out in one transaction, each write in a savepoint of
//! its own (a write that fails is rolled back alone, logged as
//! `chat_save_failed`, and reported by the next flush), and says how far it
//! got so that reads can wait for the writes asked before them.

use super::import::ImportBatch;
use super::rows::{insert_message, locate, read_message, update_message, MESSAGE_COLUMNS};
use super::{ConversationMeta, HistoryError, ImportReport};
use crate::chat::model::ChatMessage;
use crate::limits::{HISTORY_WRITE_BATCH, HISTORY_WRITE_LINGER};
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Arc, Condvar, Mutex};

/// One write, as asked.
pub enum Op {
    PutConversation(ConversationMeta),
    PutMessage {
        conversation_id: String,
        message: Box<ChatMessage>,
    },
    DeleteMessages {
        conversation_id: String,
        ids: Vec<String>,
        renumber: Option<(u64, u64)>,
    },
    Fork {
        from: String,
        upto_msg_id: String,
        new: ConversationMeta,
    },
    NameFork {
        id: String,
        server_id: String,
    },
    DeleteConversation(String),
    SetCurrent(String),
    Import(Box<ImportBatch>, SyncSender<Result<ImportReport, HistoryError>>),
    /// Answered once every write before it is committed: the failures since
    /// the last flush.
    Flush(SyncSender<Vec<String>>),
    /// Commit what is gathered now: a read waits for it (no write of its own).
    Hurry,
}

impl Op {
    /// The write's name, for the log.
    pub fn name(&self) -> &'static str {
        match self {
            Op::PutConversation(_) => "put_conversation",
            Op::PutMessage { .. } => "put_message",
            Op::DeleteMessages { .. } => "delete_messages",
            Op::Fork { .. } => "fork",
            Op::NameFork { .. } => "name_fork",
            Op::DeleteConversation(_) => "delete_conversation",
            Op::SetCurrent(_) => "set_current",
            Op::Import(..) => "import_json",
            Op::Flush(_) => "flush",
            Op::Hurry => "hurry",
        }
    }

    /// Whether someone waits on this write: the batch it is in is committed
    /// without gathering more.
    pub fn awaited(&self) -> bool {
        matches!(self, Op::Flush(_) | Op::Import(..) | Op::Hurry)
    }
}

/// How far the writer got: writes are counted as they are asked
/// (`History::send`) and as they are done (committed, or failed and
/// logged); a read waits until `done` reaches the count it saw.
#[derive(Default)]
pub struct Progress {
    /// Writes carried out (committed or failed).
    pub done: u64,
    /// False once the writer thread ended (readers stop waiting).
    pub stopped: bool,
}

/// What the handle and the writer share.
#[derive(Default)]
pub struct Shared {
    /// Writes asked so far (incremented under the sender's lock, so in
    /// queue order).
    pub asked: AtomicU64,
    /// See [`Progress`].
    pub progress: Mutex<Progress>,
    /// Signalled when `progress` moves.
    pub moved: Condvar,
    /// Rows inserted, updated or deleted by the writer's statements (the
    /// search index's rows not counted).
    pub rows: AtomicU64,
}

impl Shared {
    /// Whether writes asked are not yet done.
    pub fn pending(&self) -> bool {
        let asked = self.asked.load(Ordering::SeqCst);
        let p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        p.done < asked && !p.stopped
    }

    /// Wait until every write asked before this call is done (or the
    /// writer stopped).
    pub fn settle(&self) {
        let target = self.asked.load(Ordering::SeqCst);
        let mut p = self.progress.lock().unwrap_or_else(|e| e.into_inner());
        while p.done < target && !p.stopped {
            p = self.moved.wait(p).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Marks the writer stopped however its thread ends.
struct StopGuard(Arc<Shared>);

impl Drop for StopGuard {
    fn drop(&mut self) {
        let mut p = self.0.progress.lock().unwrap_or_else(|e| e.into_inner());
        p.stopped = true;
        self.0.moved.notify_all();
    }
}

/// The writes of one transaction: `first`, then what comes within
/// [`HISTORY_WRITE_LINGER`] of it, up to [`HISTORY_WRITE_BATCH`]; a write
/// someone waits on (a flush, an import, a read's hurry) or every sender
/// gone closes the batch at once (`persist::gather`; the handle unparks the
/// thread for a write someone waits on, [`super::History`]).
fn gather(first: Op, rx: &Receiver<Op>) -> Vec<Op> {
    crate::persist::gather(first, rx, HISTORY_WRITE_LINGER, HISTORY_WRITE_BATCH, Op::awaited)
}

/// The writer thread's body: until every sender is gone and the queue is empty.
pub fn run(mut conn: Connection, path: PathBuf, rx: Receiver<Op>, shared: Arc<Shared>) {
    let _guard = StopGuard(shared.clone());
    let mut failures: Vec<String> = Vec::new();
    while let Ok(first) = rx.recv() {
        let batch = gather(first, &rx);
        let count = batch.len() as u64;
        let batch = coalesce(batch);
        let mut replies = Vec::new();
        let mut imports = Vec::new();
        match conn.transaction() {
            Ok(mut tx) => {
                for op in batch {
                    match op {
                        Op::Flush(reply) => replies.push(reply),
                        Op::Hurry => {}
                        Op::Import(batch, reply) => match import(&mut tx, &batch) {
                            Ok(report) => imports.push((reply, Ok(report))),
                            Err(e) => {
                                let failure = failed(&path, "import_json", &e, &mut failures);
                                imports.push((reply, Err(HistoryError::WriteFailed { path: path.clone(), failures: vec![failure] })));
                            }
                        },
                        op => {
                            let name = op.name();
                            if let Err(e) = apply_one(&mut tx, op, &shared) {
                                failed(&path, name, &e, &mut failures);
                            }
                        }
                    }
                }
                if let Err(e) = tx.commit() {
                    failed(&path, "commit", &e, &mut failures);
                    for (_, result) in &mut imports {
                        if result.is_ok() {
                            *result = Err(HistoryError::WriteFailed { path: path.clone(), failures: vec![format!("commit: {e}")] });
                        }
                    }
                }
            }
            Err(e) => {
                failed(&path, "begin", &e, &mut failures);
                for op in batch {
                    match op {
                        Op::Flush(reply) => replies.push(reply),
                        Op::Import(_, reply) => {
                            imports.push((reply, Err(HistoryError::WriteFailed { path: path.clone(), failures: vec![format!("begin: {e}")] })))
                        }
                        _ => {}
                    }
                }
            }
        }
        {
            let mut p = shared.progress.lock().unwrap_or_else(|e| e.into_inner());
            p.done += count;
            shared.moved.notify_all();
        }
        for (reply, result) in imports {
            let _ = reply.send(result);
        }
        for reply in replies {
            let _ = reply.send(std::mem::take(&mut failures));
        }
    }
}

/// One batch with each message written once: of several `PutMessage`s of
/// the same message, separated only by other `PutMessage`s,
/// `PutConversation`s and `SetCurrent`s, the first keeps its place and
/// takes the last one's content; the later ones go. (A turn writes its
/// answer at its start, as it streams and at its end; each write of a
/// message re-indexes its text for search.) Any other write ends the run:
/// nothing moves across a delete, a fork, an import or a flush.
pub fn coalesce(batch: Vec<Op>) -> Vec<Op> {
    let mut out: Vec<Op> = Vec::with_capacity(batch.len());
    // Where each message's first write of the current run sits in `out`.
    let mut first: HashMap<(String, String), usize> = HashMap::new();
    for op in batch {
        match op {
            Op::PutMessage { conversation_id, message } => {
                let key = (conversation_id, message.id.clone());
                match first.get(&key) {
                    Some(&at) => {
                        if let Op::PutMessage { message: kept, .. } = &mut out[at] {
                            *kept = message;
                        }
                    }
                    None => {
                        first.insert(key.clone(), out.len());
                        out.push(Op::PutMessage { conversation_id: key.0, message });
                    }
                }
            }
            op @ (Op::PutConversation(_) | Op::SetCurrent(_)) => out.push(op),
            op => {
                first.clear();
                out.push(op);
            }
        }
    }
    out
}

/// Log a failed write and keep it for the next flush; returns what was kept.
fn failed(path: &Path, what: &str, e: &rusqlite::Error, failures: &mut Vec<String>) -> String {
    tracing::warn!(record = "chat_save_failed", path = %path.display(), write = what, error = %e);
    let failure = format!("{what}: {e}");
    failures.push(failure.clone());
    failure
}

/// Carry out one write in a savepoint of its own.
fn apply_one(tx: &mut Transaction, op: Op, shared: &Shared) -> rusqlite::Result<()> {
    let sp = tx.savepoint()?;
    let rows = apply(&sp, op)?;
    sp.commit()?;
    shared.rows.fetch_add(rows as u64, Ordering::Relaxed);
    Ok(())
}

/// The JSON import in a savepoint of its own.
fn import(tx: &mut Transaction, batch: &ImportBatch) -> rusqlite::Result<ImportReport> {
    let sp = tx.savepoint()?;
    let report = super::import::apply(&sp, batch)?;
    sp.commit()?;
    Ok(report)
}

/// Carry out `op` on `conn`; returns the rows it wrote.
fn apply(conn: &Connection, op: Op) -> rusqlite::Result<usize> {
    match op {
        Op::PutConversation(meta) => put_conversation(conn, &meta),
        Op::PutMessage { conversation_id, message } => put_message(conn, &conversation_id, &message),
        Op::DeleteMessages { conversation_id, ids, renumber } => delete_messages(conn, &conversation_id, &ids, renumber),
        Op::Fork { from, upto_msg_id, new } => fork(conn, &from, &upto_msg_id, &new),
        Op::NameFork { id, server_id } => name_fork(conn, &id, &server_id),
        Op::DeleteConversation(id) => delete_conversation(conn, &id),
        Op::SetCurrent(id) => set_meta(conn, "current", &id),
        Op::Import(..) | Op::Flush(_) | Op::Hurry => Ok(0),
    }
}

/// Insert or update a conversation's row; a server id, once given, stays.
pub fn put_conversation(conn: &Connection, meta: &ConversationMeta) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO conversations (id, title, created_ms, updated_ms, server_id) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, created_ms = excluded.created_ms,
             updated_ms = excluded.updated_ms, server_id = coalesce(excluded.server_id, server_id)",
    )?
    .execute(params![meta.id, meta.title, meta.created_ms, meta.updated_ms, meta.server_id])
}

/// A conversation row for `id` when it has none yet (a message written
/// before its conversation's row is kept all the same).
fn ensure_conversation(conn: &Connection, id: &str, now_ms: i64) -> rusqlite::Result<usize> {
    conn.prepare_cached("INSERT OR IGNORE INTO conversations (id, title, created_ms, updated_ms) VALUES (?1, ?2, ?3, ?3)")?.execute(params![
        id,
        crate::chat::fold::NEW_CHAT_TITLE,
        now_ms
    ])
}

/// The position after the last message of `conversation_id`.
fn next_pos(conn: &Connection, conversation_id: &str) -> rusqlite::Result<i64> {
    conn.prepare_cached("SELECT coalesce(max(pos) + 1, 0) FROM messages WHERE conversation_id = ?1")?.query_row([conversation_id], |r| r.get(0))
}

fn put_message(conn: &Connection, conversation_id: &str, m: &ChatMessage) -> rusqlite::Result<usize> {
    match locate(conn, conversation_id, &m.id)? {
        Some((seq, _)) => update_message(conn, seq, m),
        None => {
            let rows = ensure_conversation(conn, conversation_id, m.at_ms)?;
            let pos = next_pos(conn, conversation_id)?;
            Ok(rows + insert_message(conn, conversation_id, pos, m, m.server_index, None)?.1)
        }
    }
}

fn delete_messages(conn: &Connection, conversation_id: &str, ids: &[String], renumber: Option<(u64, u64)>) -> rusqlite::Result<usize> {
    let mut rows = 0;
    let mut first: Option<i64> = None;
    for id in ids {
        let Some((seq, pos)) = locate(conn, conversation_id, id)? else { continue };
        rows += conn.prepare_cached("DELETE FROM answers WHERE message_seq = ?1")?.execute([seq])?;
        rows += conn.prepare_cached("DELETE FROM messages WHERE seq = ?1")?.execute([seq])?;
        first = Some(first.map_or(pos, |f| f.min(pos)));
    }
    if let (Some(first), Some((above, by))) = (first, renumber) {
        rows += conn
            .prepare_cached(
                "UPDATE messages SET server_index = max(server_index - ?4, 0)
                 WHERE conversation_id = ?1 AND pos > ?2 AND server_index > ?3",
            )?
            .execute(params![conversation_id, first, above as i64, by as i64])?;
    }
    Ok(rows)
}

fn fork(conn: &Connection, from: &str, upto_msg_id: &str, new: &ConversationMeta) -> rusqlite::Result<usize> {
    let mut rows = put_conversation(conn, new)?;
    let Some((_, upto)) = locate(conn, from, upto_msg_id)? else {
        tracing::warn!(record = "chat_fork_unknown", from = %from, msg_id = %upto_msg_id, new = %new.id, "the fork's conversation is kept empty");
        return Ok(rows);
    };
    // The copies keep their parent's server index aside (`parent_index`)
    // until the server names the fork; each gets a time key of its own.
    let sql = format!("SELECT {MESSAGE_COLUMNS}, pos FROM messages WHERE conversation_id = ?1 AND pos <= ?2 ORDER BY pos");
    let mut stmt = conn.prepare_cached(&sql)?;
    let parents: Vec<(i64, ChatMessage, i64)> = stmt
        .query_map(params![from, upto], |r| Ok(read_message(r)?.map(|(seq, m)| (seq, m, r.get::<_, i64>(8).unwrap_or(0)))))?
        .filter_map(|row| row.transpose())
        .collect::<Result<_, _>>()?;
    for (parent_seq, m, pos) in parents {
        let (seq, _) = insert_message(conn, &new.id, pos, &m, None, m.server_index)?;
        rows += 1;
        rows += conn
            .prepare_cached(
                "INSERT INTO answers (message_seq, n, run_id, state, started_ms, text, reasoning, cards)
                 SELECT ?1, n, run_id, state, started_ms, text, reasoning, cards FROM answers WHERE message_seq = ?2 ORDER BY n",
            )?
            .execute(params![seq, parent_seq])?;
    }
    Ok(rows)
}

fn name_fork(conn: &Connection, id: &str, server_id: &str) -> rusqlite::Result<usize> {
    let mut rows = conn.prepare_cached("UPDATE conversations SET server_id = ?2 WHERE id = ?1")?.execute(params![id, server_id])?;
    rows += conn
        .prepare_cached(
            "UPDATE messages SET server_index = coalesce(server_index, parent_index), parent_index = NULL
             WHERE conversation_id = ?1 AND parent_index IS NOT NULL",
        )?
        .execute([id])?;
    Ok(rows)
}

fn delete_conversation(conn: &Connection, id: &str) -> rusqlite::Result<usize> {
    let mut rows = conn.prepare_cached("DELETE FROM answers WHERE message_seq IN (SELECT seq FROM messages WHERE conversation_id = ?1)")?.execute([id])?;
    rows += conn.prepare_cached("DELETE FROM messages WHERE conversation_id = ?1")?.execute([id])?;
    rows += conn.prepare_cached("DELETE FROM conversations WHERE id = ?1")?.execute([id])?;
    Ok(rows)
}

/// Set one of the store's own facts.
pub fn set_meta(conn: &Connection, key: &str, value: &str) -> rusqlite::Result<usize> {
    conn.prepare_cached("INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")?.execute(params![key, value])
}

/// One of the store's own facts.
pub fn meta(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT value FROM meta WHERE key = ?1")?.query_row([key], |r| r.get(0)).optional()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::model::Role;

    fn put(conversation: &str, id: &str, text: &str) -> Op {
        let message =
            ChatMessage { id: id.into(), role: Role::User, at_ms: 1, text: text.into(), files: Vec::new(), answers: Vec::new(), active: 0, server_index: None };
        Op::PutMessage { conversation_id: conversation.into(), message: Box::new(message) }
    }

    /// Each op as `put c/id text`, `conv id`, `current id`, `delete c ids`.
    fn names(ops: &[Op]) -> Vec<String> {
        ops.iter()
            .map(|op| match op {
                Op::PutMessage { conversation_id, message } => format!("put {conversation_id}/{} {}", message.id, message.text),
                Op::PutConversation(m) => format!("conv {}", m.id),
                Op::SetCurrent(id) => format!("current {id}"),
                Op::DeleteMessages { conversation_id, ids, .. } => format!("delete {conversation_id} {}", ids.join(",")),
                other => other.name().to_string(),
            })
            .collect()
    }

    #[test]
    fn a_message_written_again_in_one_batch_is_written_once_at_its_first_place() {
        let meta = ConversationMeta { id: "c".into(), title: "t".into(), created_ms: 1, updated_ms: 2, server_id: None };
        let batch = vec![
            put("c", "u1", "hi"),
            put("c", "1", ""),
            Op::PutConversation(meta),
            put("c", "1", "Hello"),
            Op::SetCurrent("c".into()),
            put("d", "1", "other conversation"),
            put("c", "1", "Hello there."),
        ];
        assert_eq!(
            names(&coalesce(batch)),
            ["put c/u1 hi", "put c/1 Hello there.", "conv c", "current c", "put d/1 other conversation"],
            "the answer keeps its place after the user's message, with its last text"
        );
    }

    #[test]
    fn nothing_moves_across_a_delete_or_a_flush() {
        let (tx, _rx) = std::sync::mpsc::sync_channel(1);
        let batch = vec![
            put("c", "1", "a"),
            Op::DeleteMessages { conversation_id: "c".into(), ids: vec!["1".into()], renumber: None },
            put("c", "1", "b"),
            Op::Flush(tx),
            put("c", "1", "c"),
            put("c", "1", "d"),
        ];
        assert_eq!(names(&coalesce(batch)), ["put c/1 a", "delete c 1", "put c/1 b", "flush", "put c/1 d"]);
    }

    #[test]
    fn writes_that_come_within_the_linger_go_in_one_batch_and_a_waited_one_closes_it() {
        let (tx, rx) = std::sync::mpsc::channel();
        tx.send(put("c", "2", "queued")).unwrap();
        let later = {
            let tx = tx.clone();
            std::thread::spawn(move || {
                std::thread::sleep(HISTORY_WRITE_LINGER / 10);
                tx.send(put("c", "3", "a little later")).unwrap();
                tx.send(Op::Hurry).unwrap();
                tx.send(put("c", "4", "after the read")).unwrap();
            })
        };
        let batch = gather(put("c", "1", "first"), &rx);
        later.join().unwrap();
        assert_eq!(names(&batch), ["put c/1 first", "put c/2 queued", "put c/3 a little later", "hurry"]);
        assert_eq!(names(&[rx.try_recv().unwrap()]), ["put c/4 after the read"], "left for the next batch");
        drop(tx);
        assert_eq!(names(&gather(put("c", "5", "last"), &rx)), ["put c/5 last"], "every sender gone: no wait");
    }
}
