//! Deleting a conversation, and all of them, from the chat window: the
//! history database, the current conversation moving on, nothing else lost,
//! a reopen after every step finding what survived, the chat log's events
//! and the engine's `DELETE /chats/{cid}` request, and the same over a live
//! session. (A kill during a write is the history's own test,
//! `history::durability::a_killed_writer_loses_no_flushed_message`.)

use crate::common;

use common::sse::cc_text;
use common::*;
use std::path::Path;
use yui_core::chat::{ChatStore, Conversation};
use yui_core::session::chat_log::ChatLog;
use yui_core::transport::{Outbound, SideRequest};
use yui_core::{ChatApi, UiEvent, UserCommand};

/// A store in `dir` holding conversations `c1` (oldest change), `c2`, `c3`
/// (newest change), each with one message; `c2` current. They are written
/// as the JSON files of the store before the database, so opening imports them.
fn three(dir: &Path) -> ChatStore {
    for (id, at) in [("c1", 100), ("c2", 200), ("c3", 300)] {
        let mut c = Conversation::new(id, at);
        c.user(&format!("t-{id}"), &format!("hello from {id}"), &[], at);
        std::fs::write(dir.join(format!("{id}.json")), serde_json::to_vec(&c).unwrap()).unwrap();
    }
    std::fs::write(dir.join("current"), "c2").unwrap();
    let store = ChatStore::open_at(dir.to_path_buf(), 1_000);
    assert_eq!(store.current().id, "c2");
    store
}

fn ids(store: &ChatStore) -> Vec<String> {
    let mut v: Vec<String> = store.list().into_iter().map(|c| c.id).collect();
    v.sort();
    v
}

/// The store in `dir` as a restart finds it.
fn reopened(store: ChatStore, dir: &Path) -> ChatStore {
    store.flush();
    drop(store);
    ChatStore::open_at(dir.to_path_buf(), 9_000)
}

#[test]
fn deleting_another_conversation_keeps_the_current_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    let gone = store.delete("c1", 2_000).unwrap();
    assert_eq!(gone.id, "c1");
    assert_eq!(store.current().id, "c2", "the current one stays");
    assert_eq!(ids(&store), ["c2", "c3"]);
    assert!(store.delete("c1", 2_000).is_err(), "gone already");
    let again = reopened(store, dir.path());
    assert_eq!((again.current().id.as_str(), ids(&again)), ("c2", vec!["c2".to_string(), "c3".to_string()]));
    assert_eq!(again.window("c3", None).unwrap().messages[0].text, "hello from c3", "nothing else lost");
}

#[test]
fn deleting_the_current_conversation_moves_to_the_newest_then_to_a_fresh_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    store.delete("c2", 2_000).unwrap();
    assert_eq!(store.current().id, "c3", "the newest remaining");
    store.delete("c3", 2_000).unwrap();
    assert_eq!(store.current().id, "c1");
    store.delete("c1", 2_000).unwrap();
    assert!(store.current().messages.is_empty(), "a fresh empty conversation");
    assert!(!["c1", "c2", "c3"].contains(&store.current().id.as_str()));
    assert_eq!(store.list().len(), 1);
    // Deleting the fresh, never-written one gives another fresh one.
    let fresh = store.current().id.clone();
    store.delete(&fresh, 2_001).unwrap();
    assert_ne!(store.current().id, fresh);
    assert!(store.current().messages.is_empty());
    // The import does not bring them back: the files were imported once.
    let again = reopened(store, dir.path());
    assert_eq!(again.list().len(), 1);
    assert!(again.current().messages.is_empty());
}

#[test]
fn delete_all_leaves_one_fresh_conversation_and_other_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    std::fs::write(dir.path().join("notes.txt"), "keep me").unwrap();
    let (gone, failure) = store.delete_all(5_000);
    assert_eq!(failure, None);
    let mut gone: Vec<String> = gone.into_iter().map(|c| c.id).collect();
    gone.sort();
    assert_eq!(gone, ["c1", "c2", "c3"]);
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(), "keep me");
    assert!(store.current().messages.is_empty());
    assert_eq!(store.list().len(), 1);
    let again = reopened(store, dir.path());
    assert_eq!(again.list().len(), 1);
    assert!(again.current().messages.is_empty());
}

#[test]
fn a_reopen_after_each_delete_finds_every_survivor() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    for id in ["c3", "c2"] {
        store.delete(id, 3_000).unwrap();
        let current = store.current().id.clone();
        store = reopened(store, dir.path());
        assert_eq!(store.current().id, current);
        assert!(store.window("c1", None).is_some());
        assert!(store.window(id, None).is_none(), "{id} stays deleted");
    }
}

/// The `DeleteConversation` requests among `outbound`.
fn deletes(outbound: &[Outbound]) -> Vec<String> {
    outbound
        .iter()
        .filter_map(|o| match o {
            Outbound::Side(SideRequest::DeleteConversation { conversation_id }) => Some(conversation_id.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn the_log_deletes_tells_the_windows_and_the_engine_that_knows_it() {
    let dir = tempfile::tempdir().unwrap();
    // c1 was answered by an agent_chat engine (a server index), c3 is a fork
    // it named; c2 it never saw.
    for (id, at) in [("c1", 100), ("c2", 200), ("c3", 300)] {
        let mut c = Conversation::new(id, at);
        c.user(&format!("t-{id}"), "hi", &[], at);
        if id == "c1" {
            c.messages[0].server_index = Some(0);
        }
        if id == "c3" {
            c.server_id = Some("srv-3".into());
        }
        std::fs::write(dir.path().join(format!("{id}.json")), serde_json::to_vec(&c).unwrap()).unwrap();
    }
    std::fs::write(dir.path().join("current"), "c2").unwrap();
    let mut log = ChatLog::new(ChatStore::open_at(dir.path().to_path_buf(), 1_000), None);

    let h = log.command(UserCommand::DeleteConversation { conversation_id: "c2".into() }, true, 2_000);
    assert!(matches!(&h.events[..], [UiEvent::Notice { .. }]), "busy: the current one is refused: {h:?}");
    assert!(h.outbound.is_empty() && log.store().window("c2", None).is_some());

    let h = log.command(UserCommand::DeleteConversation { conversation_id: "c1".into() }, true, 2_000);
    assert_eq!(deletes(&h.outbound), ["c1"], "another one goes even while busy");
    assert!(matches!(&h.events[..], [UiEvent::Conversation { conversation }] if conversation.id == "c2"));
    assert_eq!(h.engine, None);

    let h = log.command(UserCommand::DeleteConversation { conversation_id: "c2".into() }, false, 2_000);
    assert!(deletes(&h.outbound).is_empty(), "the engine never saw c2");
    assert!(matches!(&h.events[..], [UiEvent::Conversation { conversation }] if conversation.id == "c3"));

    let h = log.command(UserCommand::DeleteConversation { conversation_id: "nope".into() }, false, 2_000);
    assert!(matches!(&h.events[..], [UiEvent::Notice { .. }]), "{h:?}");

    let h = log.command(UserCommand::DeleteAllConversations, true, 2_000);
    assert!(matches!(&h.events[..], [UiEvent::Notice { .. }]) && log.store().window("c3", None).is_some(), "busy: refused");
    let h = log.command(UserCommand::DeleteAllConversations, false, 2_000);
    assert_eq!(deletes(&h.outbound), ["srv-3"], "the fork under the engine's name");
    assert!(matches!(&h.events[..], [UiEvent::Conversation { conversation }] if conversation.messages.is_empty()));
    assert_eq!(log.store().list().len(), 1);
    assert!(log.store().window("c3", None).is_none(), "gone from the history");
}

#[tokio::test]
async fn a_live_session_deletes_one_conversation_and_then_all() {
    let mock = mock_http(vec![cc_text("First answer."), cc_text("Second answer.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let turns = |s: &yui_core::CollectingSink| s.events().iter().filter(|e| matches!(e, UiEvent::TurnEnded { .. })).count();
    session.send(UserCommand::SendText { text: "first chat".into() }).unwrap();
    sink.wait_for(WAIT, |_| turns(&sink) >= 1).await.expect("a turn");
    session.wait_idle(WAIT).await;
    let first = session.conversation(None, None).unwrap().id;
    session.send(UserCommand::Reset).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Conversation { conversation } if conversation.id != first)).await.expect("a new chat");
    session.send(UserCommand::SendText { text: "second chat".into() }).unwrap();
    sink.wait_for(WAIT, |_| turns(&sink) >= 2).await.expect("a second turn");
    session.wait_idle(WAIT).await;
    let second = session.conversation(None, None).unwrap().id;
    assert_eq!(session.conversations().len(), 2);

    // The window is told the current conversation after each delete.
    let shown_after = |before: usize, want: &dyn Fn(&yui_core::chat::Conversation) -> bool| {
        sink.events()[before..].iter().any(|e| matches!(e, UiEvent::Conversation { conversation } if want(conversation)))
    };
    let before = sink.events().len();
    session.send(UserCommand::DeleteConversation { conversation_id: second.clone() }).unwrap();
    sink.wait_for(WAIT, |_| shown_after(before, &|c| c.id == first)).await.expect("back to the first chat");
    let list = session.conversations();
    assert_eq!(list.len(), 1);
    assert!(list[0].current && list[0].id == first);
    assert!(session.conversation(Some(&second), None).is_none(), "gone from the history");

    let before = sink.events().len();
    session.send(UserCommand::DeleteAllConversations).unwrap();
    sink.wait_for(WAIT, |_| shown_after(before, &|c| c.id != first && c.messages.is_empty())).await.expect("a fresh chat");
    assert_eq!(session.conversations().len(), 1);
    assert!(session.conversation(Some(&first), None).is_none());
    session.close().await;
}
