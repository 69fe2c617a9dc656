//! The import of the JSON files of the store before the database.

use super::*;

/// The fixture: today's JSON files, written by today's store.
fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chats")
}

// The fixture was written by the file store this database replaced (the
// JSON files a user's data dir holds from before): keep it as it is.

/// The fixture's readable conversations, as today's store reads them.
fn fixture_conversations() -> Vec<Conversation> {
    let mut out: Vec<Conversation> = std::fs::read_dir(fixture_dir())
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path()).ok().and_then(|s| serde_json::from_str(&s).ok()))
        .collect();
    out.sort_by_key(|c| c.created_ms);
    out
}

/// A conversation whole, back from the history.
fn whole(h: &History, id: &str) -> Conversation {
    let m = h.conversation(id).unwrap();
    Conversation {
        id: m.id,
        title: m.title,
        created_ms: m.created_ms,
        updated_ms: m.updated_ms,
        messages: all(h, id),
        more_before: false,
        more_after: false,
        server_id: m.server_id,
    }
}

struct LogBuf(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_json_files_import_whole_and_equal_once() {
    let expected = fixture_conversations();
    assert_eq!(expected.len(), 3, "the fixture's readable files");
    assert!(expected.iter().any(|c| c.server_id.as_deref() == Some("srv-fork-7")), "a named fork");
    assert!(expected
        .iter()
        .flat_map(|c| &c.messages)
        .any(|m| m.answers.len() == 2 && m.answers.iter().any(|a| !a.tools.is_empty() && !a.approvals.is_empty() && a.usage.is_some())));
    assert!(expected.iter().flat_map(|c| &c.messages).flat_map(|m| &m.answers).any(|a| a.error.is_some()));

    let logs = Arc::new(Mutex::new(Vec::new()));
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt().with_ansi(false).with_writer(move || LogBuf(writer.clone())).finish();
    let _other = tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default());
    let _guard = tracing::dispatcher::set_default(&tracing::Dispatch::new(subscriber));
    tracing::callsite::rebuild_interest_cache();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    let h = History::open(&path).unwrap();
    let report = h.import_json(&fixture_dir()).unwrap();
    assert_eq!((report.conversations, report.messages, report.already_imported), (3, expected.iter().map(|c| c.messages.len()).sum(), false));
    assert_eq!(report.skipped.len(), 1);
    assert!(report.skipped[0].ends_with("c1764899999000.json"), "{:?}", report.skipped);
    let text = String::from_utf8(logs.lock().unwrap().clone()).unwrap();
    assert!(text.lines().any(|l| l.contains("chat_unreadable") && l.contains("c1764899999000.json")), "{text}");
    for c in &expected {
        assert_eq!(&whole(&h, &c.id), c);
    }
    assert_eq!(h.current_id(), std::fs::read_to_string(fixture_dir().join("current")).ok().map(|s| s.trim().to_string()));
    assert_eq!(h.search("傘").len(), 2, "the imported text is searchable");
    // Again, with the same handle and after a reopen: nothing more.
    let again = h.import_json(&fixture_dir()).unwrap();
    assert!(again.already_imported && again.conversations == 0 && again.messages == 0);
    drop(h);
    let h = History::open(&path).unwrap();
    assert!(h.import_json(&fixture_dir()).unwrap().already_imported);
    let count: i64 = raw(&path).query_row("SELECT count(*) FROM messages", [], |r| r.get(0)).unwrap();
    assert_eq!(count as usize, report.messages);
    // The files are left where they were.
    assert_eq!(fixture_conversations(), expected);
    integrity(&path);
}

#[test]
fn an_empty_or_missing_dir_imports_nothing_and_is_not_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    let report = h.import_json(&dir.path().join("no-such-dir")).unwrap();
    assert_eq!((report.conversations, report.already_imported), (0, false));
    store_files(dir.path());
    assert!(h.import_json(dir.path()).unwrap().already_imported, "once per database");
}

#[test]
fn an_imported_message_id_seen_twice_is_kept_under_a_new_id() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Conversation::new("dup", 1);
    c.messages = vec![user("u1", "first", 2, None), user("u1", "second, same id", 3, None), user("u1", "third", 4, None)];
    std::fs::write(dir.path().join("dup.json"), serde_json::to_vec(&c).unwrap()).unwrap();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    let report = h.import_json(dir.path()).unwrap();
    assert_eq!((report.conversations, report.messages), (1, 3));
    let got = all(&h, "dup");
    assert_eq!(got.iter().map(|m| (m.id.as_str(), m.text.as_str())).collect::<Vec<_>>(), [("u1", "first"), ("u1#2", "second, same id"), ("u1#3", "third")]);
}
