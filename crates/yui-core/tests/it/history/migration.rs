//! The schema: WAL and its settings, migrations from older versions, a newer or broken file refused.

use super::search::hit_ids;
use super::*;

#[test]
fn opens_in_wal_with_synchronous_normal_at_the_current_schema_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    let writer = schema::open_writer(&path).unwrap();
    let synchronous: i64 = writer.query_row("PRAGMA synchronous", [], |r| r.get(0)).unwrap();
    assert_eq!(synchronous, 1, "NORMAL");
    drop(writer);
    let h = History::open(&path).unwrap();
    let conn = raw(&path);
    let mode: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0)).unwrap();
    assert_eq!(mode, "wal");
    assert_eq!(schema::version(&conn).unwrap(), schema::VERSION);
    const { assert!(schema::VERSION >= 2, "a migration path to test") };
    drop(h);
}

#[test]
fn a_version_1_database_migrates_and_its_messages_become_searchable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    {
        let mut conn = raw(&path);
        schema::migrate(&mut conn, &path, 1).unwrap();
        assert_eq!(schema::version(&conn).unwrap(), 1);
        conn.execute_batch(
            "INSERT INTO conversations VALUES ('c1', 'Old times', 5, 6, NULL);
             INSERT INTO messages (conversation_id, pos, id, role, at_ms, skey, text, files, active, server_index)
                 VALUES ('c1', 0, 'u1', 'user', 5, 5120, 'the lighthouse keeper', NULL, 0, 0),
                        ('c1', 1, 'a1', 'assistant', 6, 6144, '', NULL, 0, 1);
             INSERT INTO answers (message_seq, n, run_id, state, started_ms, text, reasoning, cards)
                 VALUES (2, 0, 'r1', 'done', 6, '灯台守は海を見ていた', '', '{}');",
        )
        .unwrap();
    }
    let h = History::open(&path).unwrap();
    assert_eq!(schema::version(&raw(&path)).unwrap(), schema::VERSION);
    let hits = h.search("lighthouse");
    assert_eq!(hits.iter().map(|h| h.message_id.as_str()).collect::<Vec<_>>(), ["u1"]);
    assert_eq!(h.search("海を見").iter().map(|h| h.message_id.as_str()).collect::<Vec<_>>(), ["a1"]);
    let page = h.page("c1", Anchor::Newest, 10);
    assert_eq!(ids(&page.messages), ["u1", "a1"]);
    assert_eq!(page.messages[1].answers[0].text, "灯台守は海を見ていた");
    integrity(&path);
}

#[test]
fn a_newer_schema_is_refused_and_the_file_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    {
        let conn = raw(&path);
        conn.execute_batch("CREATE TABLE future (x); INSERT INTO future VALUES (1); PRAGMA user_version = 99;").unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let err = History::open(&path).unwrap_err();
    assert!(matches!(err, HistoryError::TooNew { found: 99, supported: schema::VERSION, .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("99") && message.contains("newer") && message.contains("history.db"), "{message}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing written");
    assert!(!dir.path().join("history.db-wal").exists(), "not even switched to WAL");
}

#[test]
fn a_file_that_is_no_database_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    std::fs::write(&path, b"this is not a database, just some text that is long enough to have a header.......................").unwrap();
    let err = History::open(&path).unwrap_err();
    assert!(matches!(err, HistoryError::Sqlite { .. }), "{err:?}");
    assert!(err.to_string().contains("history.db"), "{err}");
}

#[test]
fn a_version_2_database_gains_the_index_of_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    {
        let mut conn = raw(&path);
        schema::migrate(&mut conn, &path, 2).unwrap();
        conn.execute_batch(
            "INSERT INTO conversations VALUES ('c1', 'Old times', 5, 6, NULL);
             INSERT INTO messages (conversation_id, pos, id, role, at_ms, skey, text, files, active, server_index)
                 VALUES ('c1', 0, 'u1', 'user', 5, 5120, 'to 東京', NULL, 0, 0),
                        ('c1', 1, 'a1', 'assistant', 6, 6144, '', NULL, 0, 1);
             INSERT INTO answers (message_seq, n, run_id, state, started_ms, text, reasoning, cards)
                 VALUES (2, 0, 'r1', 'done', 6, 'OK', '', '{}');",
        )
        .unwrap();
        assert_eq!(schema::version(&conn).unwrap(), 2);
    }
    let h = History::open(&path).unwrap();
    assert_eq!(schema::version(&raw(&path)).unwrap(), 3);
    assert_eq!(hit_ids(&h, "東京"), ["u1"]);
    assert_eq!(hit_ids(&h, "ok"), ["a1"]);
    assert_eq!(hit_ids(&h, "o"), ["a1", "u1"]);
    drop(h);
    integrity(&path);
}
