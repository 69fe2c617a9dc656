//! Writes and reads: append, pages, updates, versions, forks, deletes, the list.

use super::*;

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
    // The updates the writer finds queued together are written once.
    let streamed = h.rows_written() - before;
    assert!((1..=4).contains(&streamed), "at most one answer row per update, nothing else: {streamed}");
    // The same message again changes nothing.
    h.put_message("c", live.clone());
    h.flush().unwrap();
    assert_eq!(h.rows_written() - before, streamed);
    // The end: the answer's state and the message's index.
    live.answers[0].state = AnswerState::Done;
    live.server_index = Some(1_001);
    h.put_message("c", live.clone());
    h.flush().unwrap();
    assert_eq!(h.rows_written() - before, streamed + 2, "the message's row and its answer's");
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
