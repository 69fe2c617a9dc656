//! Deleting a conversation, and all of them, from the chat window: the
//! store's files, the current conversation moving on, nothing else lost, a
//! kill at any point of a delete leaving a readable store, the chat log's
//! events and the engine's `DELETE /chats/{cid}` request, and the same over
//! a live session.

use crate::common;

use common::sse::cc_text;
use common::*;
use std::path::Path;
use yui_core::chat::{ChatLog, ChatStore, Conversation};
use yui_core::transport::{Outbound, SideRequest};
use yui_core::{ChatApi, UiEvent, UserCommand};

/// The `.json` files in `dir`, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.ends_with(".json")).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// A store in `dir` holding conversations `c1` (oldest change), `c2`, `c3`
/// (newest change), each with one message; `c2` current.
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

#[test]
fn deleting_another_conversation_keeps_the_current_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    let gone = store.delete("c1", 2_000).unwrap();
    assert_eq!(gone.id, "c1");
    assert_eq!(files(dir.path()), ["c2.json", "c3.json"]);
    assert_eq!(store.current().id, "c2", "the current one stays");
    assert_eq!(ids(&store), ["c2", "c3"]);
    assert!(store.delete("c1", 2_000).is_err(), "gone already");
    let again = ChatStore::open_at(dir.path().to_path_buf(), 3_000);
    assert_eq!((again.current().id.as_str(), ids(&again)), ("c2", vec!["c2".to_string(), "c3".to_string()]));
    assert_eq!(again.get("c3").unwrap().messages[0].text, "hello from c3", "nothing else lost");
}

#[test]
fn deleting_the_current_conversation_moves_to_the_newest_then_to_a_fresh_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    store.delete("c2", 2_000).unwrap();
    assert_eq!(store.current().id, "c3", "the newest remaining");
    assert_eq!(std::fs::read_to_string(dir.path().join("current")).unwrap(), "c3");
    store.delete("c3", 2_000).unwrap();
    assert_eq!(store.current().id, "c1");
    store.delete("c1", 2_000).unwrap();
    assert!(store.current().messages.is_empty(), "a fresh empty conversation");
    assert!(!["c1", "c2", "c3"].contains(&store.current().id.as_str()));
    assert_eq!(store.list().len(), 1);
    assert!(files(dir.path()).is_empty());
    // Deleting the fresh, never-written one gives another fresh one.
    let fresh = store.current().id.clone();
    store.delete(&fresh, 2_001).unwrap();
    assert_ne!(store.current().id, fresh);
    assert!(store.current().messages.is_empty());
}

#[test]
fn delete_all_leaves_one_fresh_conversation_and_other_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    // A damaged file is not the store's to delete; a file of another kind neither.
    std::fs::write(dir.path().join("broken.json"), "{ not json").unwrap();
    std::fs::write(dir.path().join("notes.txt"), "keep me").unwrap();
    let (gone, failure) = store.delete_all(5_000);
    assert_eq!(failure, None);
    let mut gone: Vec<String> = gone.into_iter().map(|c| c.id).collect();
    gone.sort();
    assert_eq!(gone, ["c1", "c2", "c3"]);
    assert_eq!(files(dir.path()), ["broken.json"]);
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(), "keep me");
    assert!(store.current().messages.is_empty());
    assert_eq!(store.list().len(), 1);
    let again = ChatStore::open_at(dir.path().to_path_buf(), 6_000);
    assert_eq!(again.list().len(), 1);
    assert!(again.current().messages.is_empty());
}

#[test]
fn a_kill_at_any_point_of_a_delete_leaves_a_readable_store() {
    // Killed after the unlink, before `current` was rewritten: `current`
    // names a file that is gone; the store opens on the newest one.
    let dir = tempfile::tempdir().unwrap();
    three(dir.path());
    std::fs::remove_file(dir.path().join("c2.json")).unwrap();
    let store = ChatStore::open_at(dir.path().to_path_buf(), 2_000);
    assert_eq!(store.current().id, "c3");
    assert_eq!(ids(&store), ["c1", "c3"]);

    // Killed half way through delete-all: some files gone, `current` stale.
    std::fs::remove_file(dir.path().join("c1.json")).unwrap();
    let store = ChatStore::open_at(dir.path().to_path_buf(), 2_000);
    assert_eq!((store.current().id.as_str(), store.list().len()), ("c3", 1));
    std::fs::remove_file(dir.path().join("c3.json")).unwrap();
    let store = ChatStore::open_at(dir.path().to_path_buf(), 2_000);
    assert!(store.current().messages.is_empty(), "every file gone: a fresh one");

    // And a real delete, then a reopen at every step, never loses a survivor.
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    for id in ["c3", "c2"] {
        store.delete(id, 3_000).unwrap();
        let again = ChatStore::open_at(dir.path().to_path_buf(), 3_000);
        assert_eq!(again.current().id, store.current().id);
        assert!(again.get("c1").is_some());
    }
}

#[test]
fn a_file_that_cannot_be_removed_keeps_its_conversation() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = three(dir.path());
    // A directory where the file should be: unlink fails, nothing changes.
    std::fs::remove_file(dir.path().join("c1.json")).unwrap();
    std::fs::create_dir(dir.path().join("c1.json")).unwrap();
    let err = store.delete("c1", 2_000).unwrap_err();
    assert!(err.starts_with("Could not delete the conversation"), "{err}");
    assert_eq!(ids(&store), ["c1", "c2", "c3"]);
    assert_eq!(store.current().id, "c2");
    let (gone, failure) = store.delete_all(2_000);
    assert_eq!(gone.len(), 2);
    assert!(failure.is_some());
    assert!(store.get("c1").is_some(), "kept, and listed");
    assert!(store.current().messages.is_empty());
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
    assert!(h.outbound.is_empty() && log.store().get("c2").is_some());

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
    assert!(matches!(&h.events[..], [UiEvent::Notice { .. }]) && log.store().get("c3").is_some(), "busy: refused");
    let h = log.command(UserCommand::DeleteAllConversations, false, 2_000);
    assert_eq!(deletes(&h.outbound), ["srv-3"], "the fork under the engine's name");
    assert!(matches!(&h.events[..], [UiEvent::Conversation { conversation }] if conversation.messages.is_empty()));
    assert_eq!(log.store().list().len(), 1);
    assert!(files(dir.path()).is_empty());
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
    let chats = dir.path().join("chats");
    let stored: Vec<_> = walk(&chats);
    assert_eq!(stored.len(), 1, "{stored:?}");

    let before = sink.events().len();
    session.send(UserCommand::DeleteAllConversations).unwrap();
    sink.wait_for(WAIT, |_| shown_after(before, &|c| c.id != first && c.messages.is_empty())).await.expect("a fresh chat");
    assert_eq!(session.conversations().len(), 1);
    assert!(session.conversation(Some(&first), None).is_none());
    assert!(walk(&chats).is_empty());
    session.close().await;
}

/// Every `.json` file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
    out
}
