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
fn messages_append_in_order_and_pages_walk_back_to_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 60);
    let newest = h.page("c", Anchor::Newest, 50);
    assert_eq!(newest.messages.len(), 50);
    assert_eq!(newest.messages.last().unwrap().id, "a59");
    assert_eq!(newest.messages[0].id, "u35");
    assert!(newest.more_before && !newest.more_after);
    // Older pages, in order, until the first message.
    let mut seen = ids(&newest.messages);
    let mut page = newest;
    let mut pages = 1;
    while page.more_before {
        page = h.page("c", Anchor::Before(page.messages[0].id.clone()), 50);
        assert!(page.more_after);
        let mut older = ids(&page.messages);
        older.extend(seen);
        seen = older;
        pages += 1;
    }
    assert_eq!(pages, 3);
    let expected: Vec<String> = (0..60).flat_map(|k| [format!("u{k}"), format!("a{k}")]).collect();
    assert_eq!(seen, expected);
    // After.
    let after = h.page("c", Anchor::After("a57".into()), 50);
    assert_eq!(ids(&after.messages), ["u58", "a58", "u59", "a59"]);
    assert!(after.more_before && !after.more_after);
    let after = h.page("c", Anchor::After("u0".into()), 3);
    assert_eq!(ids(&after.messages), ["a0", "u1", "a1"]);
    assert!(after.more_after);
    // Around: half before, the message, the rest after.
    let around = h.page("c", Anchor::Around("u30".into()), 6);
    assert_eq!(ids(&around.messages), ["a28", "u29", "a29", "u30", "a30", "u31"]);
    assert!(around.more_before && around.more_after);
    // Near an end, the other side takes the room.
    let around = h.page("c", Anchor::Around("a1".into()), 6);
    assert_eq!(ids(&around.messages), ["u0", "a0", "u1", "a1", "u2", "a2"]);
    assert!(!around.more_before && around.more_after);
    let around = h.page("c", Anchor::Around("a59".into()), 4);
    assert_eq!(ids(&around.messages), ["u58", "a58", "u59", "a59"]);
    assert!(around.more_before && !around.more_after);
    // Unknown ids and conversations: empty pages.
    for anchor in [Anchor::Before("nope".into()), Anchor::After("nope".into()), Anchor::Around("nope".into())] {
        assert_eq!(h.page("c", anchor, 50), Default::default());
    }
    assert_eq!(h.page("other", Anchor::Newest, 50), Default::default());
    // One message and its neighbours.
    let one = h.around("c", "u30").unwrap();
    assert_eq!((one.before.unwrap().id, one.message.id, one.after.unwrap().id), ("a29".into(), "u30".into(), "a30".into()));
    let first = h.around("c", "u0").unwrap();
    assert!(first.before.is_none());
    assert!(h.around("c", "nope").is_none());
}

#[test]
fn reads_see_the_writes_asked_before_them_without_a_flush() {
    let dir = tempfile::tempdir().unwrap();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    for k in 0..200 {
        h.put_message("c", user(&format!("u{k}"), "hello", k, None));
        let page = h.page("c", Anchor::Newest, 1);
        assert_eq!(ids(&page.messages), [format!("u{k}")], "read-your-writes");
    }
    // A message before its conversation's row: the row is made.
    assert_eq!(h.conversation("c").unwrap().title, "New chat");
    h.set_current("c");
    assert_eq!(h.current_id().as_deref(), Some("c"));
}

#[test]
fn a_streaming_answer_update_writes_only_its_own_row() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 500);
    let other = all(&h, "c");
    let mut live = assistant("live", "The sea", 5_000, None);
    live.answers[0].state = AnswerState::Streaming;
    h.put_message("c", user("ulive", "and the sea?", 4_999, None));
    h.put_message("c", live.clone());
    h.flush().unwrap();
    let before = h.rows_written();
    for word in [" is", " wide", " and", " deep."] {
        live.answers[0].text.push_str(word);
        h.put_message("c", live.clone());
    }
    h.flush().unwrap();
    assert_eq!(h.rows_written() - before, 4, "one answer row per update, nothing else");
    // The same message again changes nothing.
    h.put_message("c", live.clone());
    h.flush().unwrap();
    assert_eq!(h.rows_written() - before, 4);
    // The end: the answer's state and the message's index.
    live.answers[0].state = AnswerState::Done;
    live.server_index = Some(1_001);
    h.put_message("c", live.clone());
    h.flush().unwrap();
    assert_eq!(h.rows_written() - before, 6, "the message's row and its answer's");
    let now = all(&h, "c");
    assert!(now[..1000] == other[..], "earlier messages untouched");
    assert_eq!(now.last().unwrap(), &live);
    assert_eq!(now.len(), 1002);
}

#[test]
fn versions_keep_every_answer_with_its_cards_and_the_active_one() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 2);
    let mut m = all(&h, "c")[1].clone();
    let mut second = answer("r2", "A second try.", AnswerState::Done);
    second.tools.push(ToolCard {
        call_id: "k1".into(),
        name: "search".into(),
        args: serde_json::json!({"q": "sea", "n": 3}),
        state: ToolCardState::Done,
        output: "found".into(),
        seconds: Some(0.25),
        approval_id: None,
    });
    second.reasoning = "thinking".into();
    second.reasoning_ms = Some(1_200);
    m.answers.push(second);
    m.active = 1;
    h.put_message("c", m.clone());
    let mut third = answer("r3", "A third.", AnswerState::Failed);
    third.error = Some(ErrorCard { kind: "rate_limit".into(), message: "Slow down.".into(), tools_ok: 1 });
    m.answers.push(third);
    m.active = 2;
    h.put_message("c", m.clone());
    h.flush().unwrap();
    let stored = h.around("c", &m.id).unwrap().message;
    assert_eq!(stored, m);
    assert_eq!(stored.answers.len(), 3);
    // Picking an older version changes the message's row only.
    let before = h.rows_written();
    m.active = 0;
    h.put_message("c", m.clone());
    assert_eq!(h.rows_written() - before, 1);
    assert_eq!(h.around("c", &m.id).unwrap().message.active, 0);
    // Other messages kept their one answer.
    assert_eq!(all(&h, "c")[3].answers.len(), 1);
}

#[test]
fn a_fork_copies_without_server_indices_until_the_server_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 3);
    h.fork("c", "a1", meta("f", "Numbers (fork)", 100));
    let copies = all(&h, "f");
    assert_eq!(ids(&copies), ["u0", "a0", "u1", "a1"]);
    assert!(copies.iter().all(|m| m.server_index.is_none()), "{copies:?}");
    let parent = all(&h, "c");
    for (copy, original) in copies.iter().zip(&parent) {
        assert_eq!(ChatMessage { server_index: None, ..original.clone() }, *copy);
    }
    assert_eq!(parent[0].server_index, Some(0), "the parent keeps its indices");
    // A message added to the fork before it is named has none either.
    h.put_message("f", user("u9", "on the fork", 200, None));
    h.name_fork("f", "srv-f");
    assert_eq!(h.conversation("f").unwrap().server_id.as_deref(), Some("srv-f"));
    let named = all(&h, "f");
    assert_eq!(named.iter().map(|m| m.server_index).collect::<Vec<_>>(), [Some(0), Some(1), Some(2), Some(3), None]);
    // A later put of the conversation's row keeps the server id.
    h.put_conversation(meta("f", "Numbers (fork)", 300));
    assert_eq!(h.conversation("f").unwrap().server_id.as_deref(), Some("srv-f"));
    // Named twice: nothing changes.
    h.name_fork("f", "srv-f");
    assert_eq!(all(&h, "f"), named);
    // A fork from an unknown message is an empty conversation.
    h.fork("c", "nope", meta("g", "Nothing", 400));
    h.flush().unwrap();
    assert!(all(&h, "g").is_empty());
    assert!(h.conversation("g").is_some());
}

#[test]
fn deleting_an_exchange_lowers_the_later_server_indices() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 4);
    h.delete_messages("c", vec!["u1".into(), "a1".into()], Some((2, 2)));
    let left = all(&h, "c");
    assert_eq!(
        left.iter().map(|m| (m.id.as_str(), m.server_index)).collect::<Vec<_>>(),
        [("u0", Some(0)), ("a0", Some(1)), ("u2", Some(2)), ("a2", Some(3)), ("u3", Some(4)), ("a3", Some(5))]
    );
    // Without renumbering, and unknown ids ignored.
    h.delete_messages("c", vec!["a3".into(), "nope".into()], None);
    h.delete_messages("c", vec!["nope".into()], Some((0, 2)));
    let left = all(&h, "c");
    assert_eq!(ids(&left), ["u0", "a0", "u2", "a2", "u3"]);
    assert_eq!(left[4].server_index, Some(4));
    // A new message goes after the last one still there.
    h.put_message("c", user("u4", "again", 99, None));
    assert_eq!(all(&h, "c").last().unwrap().id, "u4");
    assert!(h.search("answer number 1").is_empty(), "the deleted answer left the index");
    h.flush().unwrap();
    integrity(h.path());
}

#[test]
fn deleting_a_conversation_removes_it_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 3);
    h.put_conversation(meta("d", "Keep me", 50));
    h.put_message("d", user("ud", "question kept", 51, None));
    h.delete_conversation("c");
    assert!(h.conversation("c").is_none());
    assert!(all(&h, "c").is_empty());
    assert_eq!(h.search("question").iter().map(|h| h.conversation_id.as_str()).collect::<Vec<_>>(), ["d"]);
    assert_eq!(h.list("d").iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), ["d"]);
    h.flush().unwrap();
    let conn = raw(h.path());
    let answers: i64 = conn.query_row("SELECT count(*) FROM answers", [], |r| r.get(0)).unwrap();
    assert_eq!(answers, 0, "no answer left behind");
    integrity(h.path());
}

#[test]
fn the_list_is_newest_change_first_with_counts_and_the_current_even_empty() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 3);
    h.put_conversation(meta("old", "Old", 0));
    h.put_message("old", user("u", "hi", 0, None));
    h.put_conversation(meta("new", "New chat", 900));
    h.put_conversation(meta("empty", "New chat", 800));
    let list = h.list("new");
    assert_eq!(list.iter().map(|s| (s.id.as_str(), s.messages, s.current)).collect::<Vec<_>>(), [("new", 0, true), ("c", 6, false), ("old", 1, false)]);
    assert_eq!(list[1].title, "Numbers");
}

/// Three conversations to search: versions, Japanese, a title only.
fn searchable(dir: &Path) -> History {
    let h = History::open(&dir.join("history.db")).unwrap();
    h.put_conversation(meta("s1", "Sailing plans", 100));
    h.put_message("s1", user("us1", "Where should we sail this summer?", 100, None));
    let mut a = assistant("as1", "Try the Seto Inland Sea.", 101, None);
    a.answers.push(answer("r2", "Maybe Okinawa.", AnswerState::Done));
    a.active = 1;
    h.put_message("s1", a);
    h.put_conversation(meta("s2", "日本語の練習", 200));
    h.put_message("s2", user("us2", "東京の天気はどうですか", 200, None));
    h.put_message("s2", assistant("as2", "東京は晴れです。", 201, None));
    h.put_conversation(meta("s3", "Lighthouse stories", 300));
    h.put_message("s3", user("us3", "Tell me a story", 300, None));
    h.put_message("s3", assistant("as3", "Once upon a time", 301, None));
    h
}

fn hit_ids(h: &History, q: &str) -> Vec<String> {
    h.search(q).into_iter().map(|h| h.message_id).collect()
}

#[test]
fn search_finds_words_parts_of_words_every_version_japanese_and_titles() {
    let dir = tempfile::tempdir().unwrap();
    let h = searchable(dir.path());
    assert_eq!(hit_ids(&h, "sail"), ["us1"], "the title matches too, but a message of it does");
    assert_eq!(hit_ids(&h, "SUMM"), ["us1"], "part of a word, any case");
    let seto = h.search("seto");
    assert_eq!((seto.len(), seto[0].message_id.as_str(), seto[0].snippet.as_str()), (1, "as1", "Try the Seto Inland Sea."), "a version not shown");
    assert_eq!(h.search("okina")[0].snippet, "Maybe Okinawa.");
    assert_eq!(hit_ids(&h, "晴れです"), ["as2"]);
    assert_eq!(hit_ids(&h, "天気"), ["us2"], "two characters: the scan");
    assert_eq!(hit_ids(&h, "東京"), ["as2", "us2"], "newest first");
    assert_eq!(hit_ids(&h, "京"), ["as2", "us2"]);
    let title = h.search("lighthouse");
    assert_eq!(title.len(), 1);
    assert_eq!((title[0].message_id.as_str(), title[0].snippet.as_str(), title[0].title.as_str()), ("us3", "Tell me a story", "Lighthouse stories"));
    assert_eq!(hit_ids(&h, "日本語"), ["us2"], "a Japanese title");
    for nothing in ["", "   ", "%", "_", "zz", "\"sea", "sea\" OR \"", "NEAR(a b)", "*"] {
        assert!(h.search(nothing).is_empty(), "{nothing:?}: {:?}", h.search(nothing));
    }
    assert_eq!(hit_ids(&h, " sea. "), ["as1"], "trimmed, any case, in a version not shown");
}

#[test]
fn search_keeps_the_newest_hits_with_one_line_snippets() {
    let dir = tempfile::tempdir().unwrap();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    let long = format!("{}the needle\nis here {}", "hay ".repeat(100), "straw ".repeat(100));
    for k in 0..(CHAT_SEARCH_HITS as i64 + 10) {
        h.put_message(&format!("c{}", k % 3), user(&format!("u{k}"), &long, k, None));
    }
    let hits = h.search("NEEDLE");
    assert_eq!(hits.len(), CHAT_SEARCH_HITS);
    let at: Vec<i64> = hits.iter().map(|h| h.at_ms).collect();
    let newest: Vec<i64> = (10..CHAT_SEARCH_HITS as i64 + 10).rev().collect();
    assert_eq!(at, newest);
    let s = &hits[0].snippet;
    assert!(s.starts_with('…') && s.ends_with('…') && s.contains("the needle is here"), "{s}");
    assert!(s.chars().count() <= CHAT_SNIPPET_CHARS + 2, "{s}");
    assert!(!s.contains('\n'));
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

#[test]
fn search_answers_what_the_file_store_answered() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("chats");
    std::fs::create_dir(&files).unwrap();
    store_files(&files);
    let convs: Vec<Conversation> =
        std::fs::read_dir(&files).unwrap().flatten().map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap()).collect();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    h.import_json(&files).unwrap();
    for q in ["weather", "WEATHER", "kyoto", "雨です", "京都", "rainy", "rain", "cook", "e", "ideas", "xyz", "the", "do"] {
        let mut got: Vec<(String, String)> = h.search(q).into_iter().map(|hit| (hit.conversation_id, hit.message_id)).collect();
        got.sort();
        assert_eq!(got, file_store_hits(&convs, q), "{q:?}");
        assert!(!got.is_empty() || q == "xyz", "{q:?} finds something");
    }
}

/// What the file store's search found for `query` (its rule, kept here as
/// the reference): every message whose shown text contains it, ignoring
/// case, and a conversation whose title contains it by its first user
/// message when none of its messages did.
fn file_store_hits(convs: &[Conversation], query: &str) -> Vec<(String, String)> {
    let needle = query.trim().to_lowercase();
    let mut hits = Vec::new();
    for c in convs {
        let mine: Vec<(String, String)> =
            c.messages.iter().filter(|m| m.shown_text().to_lowercase().contains(&needle)).map(|m| (c.id.clone(), m.id.clone())).collect();
        if mine.is_empty() && c.title.to_lowercase().contains(&needle) {
            hits.extend(c.messages.iter().find(|m| m.role == Role::User).map(|m| (c.id.clone(), m.id.clone())));
        }
        hits.extend(mine);
    }
    hits.sort();
    hits
}

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
fn a_failed_write_is_reported_by_the_next_flush_and_the_rest_carries_on() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 2);
    h.fork("c", "a1", meta("f", "fork", 5));
    h.flush().unwrap();
    // Forking into a conversation that already holds the same messages fails alone.
    h.fork("c", "a1", meta("f", "fork", 6));
    h.put_message("c", user("u9", "after the failure", 99, None));
    let err = h.flush().unwrap_err();
    match &err {
        HistoryError::WriteFailed { failures, path } => {
            assert_eq!(failures.len(), 1, "{failures:?}");
            assert!(failures[0].starts_with("fork: ") && failures[0].contains("UNIQUE"), "{failures:?}");
            assert!(path.ends_with("history.db"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(all(&h, "c").last().unwrap().id, "u9", "the write after it was carried out");
    assert_eq!(all(&h, "f").len(), 4, "the failed fork left nothing half-done");
    assert_eq!(h.conversation("f").unwrap().created_ms, 5, "rolled back whole");
    h.flush().unwrap();
}

/// The child of the kill loop: appends exchanges to the history named by
/// the environment and prints each id once `flush` returned.
const KILL_DB: &str = "YUI_HISTORY_KILL_DB";
const KILL_RUN: &str = "YUI_HISTORY_KILL_RUN";

#[test]
#[ignore = "the child of a_killed_writer_loses_no_flushed_message"]
fn kill_child() {
    let (Some(db), Some(run)) = (std::env::var_os(KILL_DB), std::env::var(KILL_RUN).ok()) else { return };
    let h = History::open(Path::new(&db)).unwrap();
    let cid = format!("run{run}");
    h.put_conversation(meta(&cid, "killed", 0));
    h.set_current(&cid);
    let started = std::time::Instant::now();
    let mut k = 0;
    // Bounded: the parent kills it long before.
    while k < 100_000 && started.elapsed() < std::time::Duration::from_secs(20) {
        let mut a = assistant(&format!("a{run}-{k}"), "", k, None);
        h.put_message(&cid, user(&format!("u{run}-{k}"), &format!("message {k} of run {run} 東京"), k, None));
        for word in ["The", " answer", " grows", " word", " by", " word."] {
            a.answers[0].text.push_str(word);
            h.put_message(&cid, a.clone());
        }
        h.flush().unwrap();
        println!("acked {run} {k}");
        k += 1;
    }
}

#[test]
fn a_killed_writer_loses_no_flushed_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.db");
    let exe = std::env::current_exe().unwrap();
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    let mut acked: Vec<(u32, u64)> = Vec::new();
    let runs = 24;
    for run in 0..runs {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let wait_for = 1 + seed % 40;
        let mut child = std::process::Command::new(&exe)
            .args(["history::kill_child", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
            .env(KILL_DB, &db)
            .env(KILL_RUN, run.to_string())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut seen = 0;
        let mut line = String::new();
        while seen < wait_for {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                break;
            }
            if let Some(rest) = line.strip_prefix("acked ").filter(|_| line.ends_with('\n')) {
                let mut it = rest.split_whitespace().map(|s| s.parse::<u64>().unwrap());
                acked.push((it.next().unwrap() as u32, it.next().unwrap()));
                seen += 1;
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Lines printed before the kill landed are acknowledged too.
        loop {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                break;
            }
            if let Some(rest) = line.strip_prefix("acked ").filter(|_| line.ends_with('\n')) {
                let mut it = rest.split_whitespace().map(|s| s.parse::<u64>().unwrap());
                acked.push((it.next().unwrap() as u32, it.next().unwrap()));
            }
        }
        assert!(seen > 0, "run {run}: the child acknowledged nothing");
        integrity(&db);
        let conn = raw(&db);
        let mut stmt = conn.prepare("SELECT m.id, a.text FROM messages m LEFT JOIN answers a ON a.message_seq = m.seq").unwrap();
        let stored: HashSet<(String, Option<String>)> = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
        for (r, k) in &acked {
            assert!(stored.contains(&(format!("u{r}-{k}"), None)), "run {run}: u{r}-{k} lost");
            assert!(stored.contains(&(format!("a{r}-{k}"), Some("The answer grows word by word.".into()))), "run {run}: a{r}-{k} lost or cut");
        }
    }
    assert!(acked.len() >= runs as usize);
    let h = History::open(&db).unwrap();
    assert_eq!(h.current_id(), Some(format!("run{}", runs - 1)));
    assert!(h.search("東京").len() == CHAT_SEARCH_HITS);
}

#[test]
fn search_is_newest_first_across_forks_imports_and_one_busy_millisecond() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("chats");
    std::fs::create_dir(&files).unwrap();
    // An imported conversation created early and written to late, and one created later.
    let mut early = Conversation::new("early", 0);
    early.messages = (0..30).map(|k| user(&format!("e{k}"), "a needle here", 1_000 + 100 * k, None)).collect();
    let mut later = Conversation::new("later", 500);
    later.messages = (0..30).map(|k| user(&format!("l{k}"), "a needle there", 1_050 + 100 * k, None)).collect();
    for c in [&early, &later] {
        std::fs::write(files.join(format!("{}.json", c.id)), serde_json::to_vec(c).unwrap()).unwrap();
    }
    let h = History::open(&dir.path().join("history.db")).unwrap();
    h.import_json(&files).unwrap();
    // A fork copies old messages; a busy millisecond holds more than a time slot's worth.
    h.fork("early", "e29", meta("fork", "fork", 10_000));
    for k in 0..1_100 {
        h.put_message("busy", user(&format!("b{k}"), "hay", 20_000, None));
    }
    h.put_message("busy", user("last", "the needle, last", 20_001, None));
    let hits = h.search("needle");
    assert_eq!(hits.len(), CHAT_SEARCH_HITS);
    assert_eq!(hits[0].message_id, "last");
    assert!(hits.windows(2).all(|w| w[0].at_ms >= w[1].at_ms), "{:?}", hits.iter().map(|h| h.at_ms).collect::<Vec<_>>());
    // Exactly the newest: the last message, then the originals, their fork copies and the later ones by time.
    let mut expected: Vec<i64> = early.messages.iter().flat_map(|m| [m.at_ms, m.at_ms]).chain(later.messages.iter().map(|m| m.at_ms)).collect();
    expected.push(20_001);
    expected.sort_by_key(|at| std::cmp::Reverse(*at));
    expected.truncate(CHAT_SEARCH_HITS);
    assert_eq!(hits.iter().map(|h| h.at_ms).collect::<Vec<_>>(), expected);
    assert_eq!(all(&h, "busy").len(), 1_101);
    assert_eq!(h.search("hay").len(), CHAT_SEARCH_HITS);
    h.flush().unwrap();
    integrity(h.path());
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
fn a_short_query_finds_old_messages_past_the_recent_ones() {
    let dir = tempfile::tempdir().unwrap();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    let recent = 2_000;
    for k in 0..recent + 100 {
        let text = if [5, 10, recent + 90].contains(&k) { "東京へ" } else { "hay" };
        h.put_message("c", user(&format!("u{k}"), text, k, None));
    }
    h.put_message("c", assistant("old-answer", "京都 and more", 7, None));
    assert_eq!(hit_ids(&h, "東京"), [format!("u{}", recent + 90), "u10".into(), "u5".into()]);
    assert_eq!(hit_ids(&h, "京"), [format!("u{}", recent + 90), "u10".into(), "old-answer".into(), "u5".into()]);
    assert_eq!(hit_ids(&h, "京都"), ["old-answer"]);
    assert_eq!(h.search("ha").len(), CHAT_SEARCH_HITS);
}

#[test]
fn one_or_two_characters_are_found_through_the_index_of_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    let h = History::open(&path).unwrap();
    h.put_message("c", user("u1", "ok", 1, None));
    h.put_message("c", user("u2", "We met in 東京", 2, None));
    h.put_message("c", user("u3", "Q?", 3, None));
    h.put_message("c", user("u4", "nothing here", 4, None));
    h.put_message("c", assistant("a5", "Ok then, x", 5, None));
    // A whole message of two characters, a pair at the very end, one
    // character at the very end, case folded both ways, an answer.
    assert_eq!(hit_ids(&h, "OK"), ["a5", "u1"]);
    assert_eq!(hit_ids(&h, "京"), ["u2"]);
    assert_eq!(hit_ids(&h, "東京"), ["u2"]);
    assert_eq!(hit_ids(&h, "x"), ["a5"]);
    assert_eq!(hit_ids(&h, "q"), ["u3"]);
    assert_eq!(hit_ids(&h, "?"), ["u3"]);
    // No pair across a space that is not there, nor across two parts.
    assert!(hit_ids(&h, "kn").is_empty());
    assert!(hit_ids(&h, "zq").is_empty());
    // An edit and a delete follow.
    h.put_message("c", user("u1", "fine", 1, None));
    assert_eq!(hit_ids(&h, "ok"), ["a5"]);
    h.delete_messages("c", vec!["a5".to_string()], None);
    assert!(hit_ids(&h, "ok").is_empty());
    assert!(hit_ids(&h, "x").is_empty());
    h.flush().unwrap();
    drop(h);
    integrity(&path);
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
