//! The history's schema, versioned by SQLite's `PRAGMA user_version`: one
//! migration function per version, each run in its own transaction that
//! also sets the version, so a kill mid-migration leaves the version before
//! it. A database newer than this build knows is refused before anything is
//! written to it. The tables are described in `docs/history.md`.

use super::HistoryError;
use crate::limits::{HISTORY_BUSY_TIMEOUT, HISTORY_CACHE_KIB};
use rusqlite::{Connection, OpenFlags, Transaction};
use std::path::Path;

/// The schema version this build writes.
pub const VERSION: u32 = 3;

/// Version 1: conversations, their messages (one row per message, ordered
/// by `pos`; `skey` is a time key, unique, in the order of `at_ms`), each
/// assistant message's answers (one row per version) and the store's own
/// facts (`meta`: the current conversation, the JSON import).
fn v1(tx: &Transaction) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE meta (
             key TEXT PRIMARY KEY,
             value TEXT NOT NULL
         ) WITHOUT ROWID;
         CREATE TABLE conversations (
             id TEXT PRIMARY KEY,
             title TEXT NOT NULL,
             created_ms INTEGER NOT NULL,
             updated_ms INTEGER NOT NULL,
             server_id TEXT
         ) WITHOUT ROWID;
         CREATE TABLE messages (
             seq INTEGER PRIMARY KEY,
             conversation_id TEXT NOT NULL,
             pos INTEGER NOT NULL,
             id TEXT NOT NULL,
             role TEXT NOT NULL,
             at_ms INTEGER NOT NULL,
             skey INTEGER NOT NULL,
             text TEXT NOT NULL,
             files TEXT,
             active INTEGER NOT NULL,
             server_index INTEGER,
             parent_index INTEGER
         );
         CREATE UNIQUE INDEX messages_pos ON messages(conversation_id, pos);
         CREATE UNIQUE INDEX messages_id ON messages(conversation_id, id);
         CREATE UNIQUE INDEX messages_skey ON messages(skey);
         CREATE TABLE answers (
             seq INTEGER PRIMARY KEY,
             message_seq INTEGER NOT NULL,
             n INTEGER NOT NULL,
             run_id TEXT NOT NULL,
             state TEXT NOT NULL,
             started_ms INTEGER NOT NULL,
             text TEXT NOT NULL,
             reasoning TEXT NOT NULL,
             cards TEXT NOT NULL
         );
         CREATE UNIQUE INDEX answers_n ON answers(message_seq, n);",
    )
}

/// The text a message is found by in the search index: a user message's
/// text, an assistant message's answers (every version), apart by U+0001 so
/// that no phrase matches across two of them: `(skey, text)` of the
/// messages `filter` (a `WHERE` clause over `m`) keeps.
fn indexed_text(filter: &str) -> String {
    format!(
        "SELECT m.skey AS skey, m.text || coalesce((SELECT char(1) || group_concat(a.text, char(1)) FROM (SELECT text FROM answers WHERE message_seq = m.seq ORDER BY n) a), '') AS text
         FROM messages m {filter}"
    )
}

/// Version 2: the search index. One contentless FTS5 table with the
/// `trigram` tokenizer, one row per message whose rowid is the message's
/// time key (`skey`), so the newest matches come first straight from the
/// index; kept by triggers on both tables and filled from the rows there.
fn v2(tx: &Transaction) -> rusqlite::Result<()> {
    let reindex = |seq: &str| {
        format!(
            "DELETE FROM search WHERE rowid = (SELECT skey FROM messages WHERE seq = {seq}); INSERT INTO search (rowid, text) {};",
            indexed_text(&format!("WHERE m.seq = {seq}"))
        )
    };
    tx.execute_batch(&format!(
        "CREATE VIRTUAL TABLE search USING fts5(text, content='', contentless_delete=1, tokenize='trigram');
         CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
             INSERT INTO search (rowid, text) VALUES (new.skey, new.text);
         END;
         CREATE TRIGGER messages_search_update AFTER UPDATE OF text ON messages BEGIN {update} END;
         CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
             DELETE FROM search WHERE rowid = old.skey;
         END;
         CREATE TRIGGER answers_search_insert AFTER INSERT ON answers BEGIN {insert} END;
         CREATE TRIGGER answers_search_update AFTER UPDATE OF text ON answers BEGIN {insert} END;
         CREATE TRIGGER answers_search_delete AFTER DELETE ON answers BEGIN {delete} END;
         INSERT INTO search (rowid, text) {fill};",
        update = reindex("new.seq"),
        insert = reindex("new.message_seq"),
        delete = reindex("old.message_seq"),
        fill = indexed_text(""),
    ))
}

/// Version 3: the index of short queries. A trigram is three characters,
/// so a query of one or two cannot use `search`; `grams` holds every
/// message's text as the pairs of characters it is made of
/// ([`super::search::pairs`]: one token per character, that character and
/// the next), with a prefix index on a token's first character. A
/// two-character query is one token, a one-character query one prefix:
/// both answered by the index, newest first, however long the history.
/// The same triggers as version 2 keep it; they call
/// [`super::search::PAIRS_FN`], which [`migrate`] and [`open_writer`]
/// register on the connection that writes.
fn v3(tx: &Transaction) -> rusqlite::Result<()> {
    let reindex = |seq: &str| {
        format!(
            "DELETE FROM grams WHERE rowid = (SELECT skey FROM messages WHERE seq = {seq}); INSERT INTO grams (rowid, text) SELECT skey, {f}(text) FROM ({});",
            indexed_text(&format!("WHERE m.seq = {seq}")),
            f = super::search::PAIRS_FN,
        )
    };
    tx.execute_batch(&format!(
        "CREATE VIRTUAL TABLE grams USING fts5(text, content='', contentless_delete=1, tokenize='ascii', prefix='{prefix}');
         CREATE TRIGGER messages_grams_insert AFTER INSERT ON messages BEGIN
             INSERT INTO grams (rowid, text) VALUES (new.skey, {f}(new.text));
         END;
         CREATE TRIGGER messages_grams_update AFTER UPDATE OF text ON messages BEGIN {update} END;
         CREATE TRIGGER messages_grams_delete AFTER DELETE ON messages BEGIN
             DELETE FROM grams WHERE rowid = old.skey;
         END;
         CREATE TRIGGER answers_grams_insert AFTER INSERT ON answers BEGIN {insert} END;
         CREATE TRIGGER answers_grams_update AFTER UPDATE OF text ON answers BEGIN {insert} END;
         CREATE TRIGGER answers_grams_delete AFTER DELETE ON answers BEGIN {delete} END;
         INSERT INTO grams (rowid, text) SELECT skey, {f}(text) FROM ({fill});",
        prefix = super::search::PAIR_CHAR_HEX,
        f = super::search::PAIRS_FN,
        update = reindex("new.seq"),
        insert = reindex("new.message_seq"),
        delete = reindex("old.message_seq"),
        fill = indexed_text(""),
    ))
}

/// The migrations: `MIGRATIONS[k]` takes a database from version `k` to `k + 1`.
const MIGRATIONS: [fn(&Transaction) -> rusqlite::Result<()>; VERSION as usize] = [v1, v2, v3];

/// The schema version of `conn`'s database (0: a new, empty file).
pub fn version(conn: &Connection) -> rusqlite::Result<u32> {
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
}

/// Bring `conn`'s database from its version up to `to` (at most
/// [`VERSION`]), one transaction per version. Returns the version it had.
/// [`super::History::open`] runs it to [`VERSION`]; tests run it to an
/// older one to make an old database.
pub fn migrate(conn: &mut Connection, path: &Path, to: u32) -> Result<u32, HistoryError> {
    let sql = |source| HistoryError::Sqlite { path: path.to_path_buf(), source };
    let from = version(conn).map_err(sql)?;
    super::search::register_pairs(conn).map_err(sql)?;
    if from > VERSION {
        return Err(HistoryError::TooNew { path: path.to_path_buf(), found: from, supported: VERSION });
    }
    for v in from..to.min(VERSION) {
        let tx = conn.transaction().map_err(sql)?;
        MIGRATIONS[v as usize](&tx).map_err(sql)?;
        tx.pragma_update(None, "user_version", v + 1).map_err(sql)?;
        tx.commit().map_err(sql)?;
        tracing::info!(record = "history_migrated", path = %path.display(), version = v + 1);
    }
    Ok(from)
}

/// Open `path` for writing: refuse a newer schema before writing anything,
/// then WAL with `synchronous=NORMAL` (a killed process loses no committed
/// transaction; only a power cut can take the last ones), then migrate.
pub fn open_writer(path: &Path) -> Result<Connection, HistoryError> {
    let sql = |source| HistoryError::Sqlite { path: path.to_path_buf(), source };
    let mut conn = Connection::open(path).map_err(sql)?;
    conn.busy_timeout(HISTORY_BUSY_TIMEOUT).map_err(sql)?;
    let found = version(&conn).map_err(sql)?;
    if found > VERSION {
        return Err(HistoryError::TooNew { path: path.to_path_buf(), found, supported: VERSION });
    }
    let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0)).map_err(sql)?;
    if !mode.eq_ignore_ascii_case("wal") {
        tracing::warn!(record = "history_no_wal", path = %path.display(), mode = %mode);
    }
    conn.execute_batch(&format!("PRAGMA synchronous=NORMAL; PRAGMA cache_size=-{HISTORY_CACHE_KIB};")).map_err(sql)?;
    migrate(&mut conn, path, VERSION)?;
    Ok(conn)
}

/// Open `path` for reading (after [`open_writer`] made it current): a
/// second connection that never writes.
pub fn open_reader(path: &Path) -> Result<Connection, HistoryError> {
    let sql = |source| HistoryError::Sqlite { path: path.to_path_buf(), source };
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX).map_err(sql)?;
    conn.busy_timeout(HISTORY_BUSY_TIMEOUT).map_err(sql)?;
    conn.execute_batch(&format!("PRAGMA query_only=1; PRAGMA cache_size=-{HISTORY_CACHE_KIB};")).map_err(sql)?;
    Ok(conn)
}
