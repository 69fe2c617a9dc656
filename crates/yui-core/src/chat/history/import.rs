//! The import of the JSON conversations the store kept before the history
//! (`<id>.json` files of [`Conversation`], and `current` naming the current
//! one): read on the caller's thread, written by the writer in one
//! savepoint with the marker that says it happened, so a kill mid-import
//! imports everything again at the next start and a finished import never
//! runs twice. The files stay where they are.

use super::rows::insert_message;
use super::writer::{meta, put_conversation, set_meta};
use super::{ConversationMeta, ImportReport};
use crate::chat::model::Conversation;
use rusqlite::Connection;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The `meta` key set once the JSON files were imported.
pub const IMPORTED: &str = "json_imported";

/// What was read from a directory of JSON conversations.
pub struct ImportBatch {
    /// The directory.
    pub dir: PathBuf,
    /// Its conversations, oldest first.
    pub conversations: Vec<Conversation>,
    /// What its `current` file names.
    pub current: Option<String>,
    /// Files that could not be read (logged).
    pub skipped: Vec<PathBuf>,
}

/// Read every `<id>.json` of `dir` (none when it does not exist); a damaged
/// file is logged (`chat_unreadable`) and skipped.
pub fn read(dir: &Path) -> ImportBatch {
    let mut batch = ImportBatch { dir: dir.to_path_buf(), conversations: Vec::new(), current: None, skipped: Vec::new() };
    let Ok(entries) = std::fs::read_dir(dir) else { return batch };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.extension().and_then(|e| e.to_str()) == Some("json")).collect();
    paths.sort();
    for path in paths {
        let read = std::fs::read_to_string(&path).map_err(|e| e.to_string());
        match read.and_then(|raw| serde_json::from_str::<Conversation>(&raw).map_err(|e| e.to_string())) {
            Ok(c) => batch.conversations.push(c),
            Err(e) => {
                tracing::warn!(record = "chat_unreadable", path = %path.display(), error = %e, "not imported into the history");
                batch.skipped.push(path);
            }
        }
    }
    batch.conversations.sort_by_key(|c| c.created_ms);
    batch.current = std::fs::read_to_string(dir.join("current")).ok().map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    batch
}

/// Write `batch` unless this database imported JSON files before.
pub fn apply(conn: &Connection, batch: &ImportBatch) -> rusqlite::Result<ImportReport> {
    let mut report = ImportReport { skipped: batch.skipped.clone(), ..ImportReport::default() };
    if meta(conn, IMPORTED)?.is_some() {
        report.already_imported = true;
        report.skipped.clear();
        return Ok(report);
    }
    for c in &batch.conversations {
        match insert_conversation(conn, c)? {
            Some(n) => {
                report.conversations += 1;
                report.messages += n;
            }
            None => tracing::warn!(record = "chat_import_kept", id = %c.id, "the history already holds this conversation; its file is not imported"),
        }
    }
    if let Some(current) = &batch.current {
        if meta(conn, "current")?.is_none() {
            set_meta(conn, "current", current)?;
        }
    }
    let marker = format!("{} conversations, {} messages from {}", report.conversations, report.messages, batch.dir.display());
    set_meta(conn, IMPORTED, &marker)?;
    tracing::info!(record = "chat_imported", dir = %batch.dir.display(), conversations = report.conversations, messages = report.messages, skipped = report.skipped.len());
    Ok(report)
}

/// Insert conversation `c` whole, with its messages in order. `None` when
/// the history already has a conversation with its id (nothing written).
/// A message id seen twice in `c` is kept under a new id (`<id>#2`, logged).
pub fn insert_conversation(conn: &Connection, c: &Conversation) -> rusqlite::Result<Option<usize>> {
    let exists: bool = conn.query_row("SELECT EXISTS (SELECT 1 FROM conversations WHERE id = ?1)", [&c.id], |r| r.get(0))?;
    if exists {
        return Ok(None);
    }
    let meta =
        ConversationMeta { id: c.id.clone(), title: c.title.clone(), created_ms: c.created_ms, updated_ms: c.updated_ms, server_id: c.server_id.clone() };
    put_conversation(conn, &meta)?;
    let mut seen = HashSet::new();
    for (pos, m) in c.messages.iter().enumerate() {
        if seen.insert(m.id.clone()) {
            insert_message(conn, &c.id, pos as i64, m, m.server_index, None)?;
            continue;
        }
        let mut k = 2;
        while !seen.insert(format!("{}#{k}", m.id)) {
            k += 1;
        }
        let mut renamed = m.clone();
        renamed.id = format!("{}#{k}", m.id);
        tracing::warn!(record = "chat_import_duplicate", conversation = %c.id, id = %m.id, kept_as = %renamed.id);
        insert_message(conn, &c.id, pos as i64, &renamed, m.server_index, None)?;
    }
    Ok(Some(c.messages.len()))
}
