//! A long conversation through the chat log: only its newest messages stay
//! in memory, the rest is in the history database; pages walk back to the
//! first message; edits of a message far back (delete, pick a version,
//! fork) load what they need, reach the database and the engine, and the
//! snapshot they send joins what a window loaded; a restart opens at the
//! newest messages.

use yui_core::chat::history::Anchor;
use yui_core::chat::ChatStore;
use yui_core::limits::{CHAT_PAGE_MESSAGES, CHAT_TAIL_MESSAGES};
use yui_core::session::chat_log::ChatLog;
use yui_core::transport::agent_chat::ChatEvent;
use yui_core::transport::{Outbound, SideRequest};
use yui_core::{TurnOutcome, UiEvent, UserCommand};

/// `n` turns answered by an `agent_chat` engine (user message `2k`, answer `2k + 1`).
fn turns(log: &mut ChatLog, from: usize, n: usize) {
    for k in from..from + n {
        let t = format!("t{k}");
        let at = 1_000 + k as i64 * 10;
        log.ui(&UiEvent::TurnStarted { turn_id: t.clone(), text: format!("question {k}"), remakes: None, files: Vec::new() }, at);
        log.wire(&t, &ChatEvent::Delta { msg_id: t.clone(), text: format!("answer {k}") }, at + 1);
        log.wire(
            &t,
            &ChatEvent::End { msg_id: t.clone(), user_index: Some(2 * k as u64), assistant_index: Some(2 * k as u64 + 1), versions: Some(1), active: Some(0) },
            at + 2,
        );
        log.ui(&UiEvent::TurnEnded { turn_id: t, outcome: TurnOutcome::Complete, usage: None, error: None }, at + 3);
    }
}

fn every_message(store: &ChatStore) -> Vec<String> {
    let id = store.current().id.clone();
    let h = store.history();
    let mut page = h.page(&id, Anchor::Newest, CHAT_PAGE_MESSAGES);
    let mut all: Vec<String> = page.messages.iter().map(|m| m.id.clone()).collect();
    while page.more_before {
        page = h.page(&id, Anchor::Before(all[0].clone()), CHAT_PAGE_MESSAGES);
        all.splice(0..0, page.messages.iter().map(|m| m.id.clone()));
    }
    all
}

#[test]
fn only_the_newest_messages_stay_in_memory_and_pages_walk_back_to_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = ChatLog::new(ChatStore::open_at(dir.path().to_path_buf(), 0), None);
    turns(&mut log, 0, 400);
    let c = log.store().current();
    assert!(c.messages.len() <= 2 * CHAT_TAIL_MESSAGES, "{} in memory", c.messages.len());
    assert!(c.more_before);
    assert_eq!(c.messages.last().unwrap().id, "t399");
    log.store().flush();
    let all = every_message(log.store());
    assert_eq!(all.len(), 800, "every message is in the database");
    assert_eq!((all[0].as_str(), all[1].as_str(), all[799].as_str()), ("ut0", "t0", "t399"));

    // A restart opens at the newest messages, the older ones a page away.
    let id = c.id.clone();
    drop(log);
    let store = ChatStore::open_at(dir.path().to_path_buf(), 0);
    assert_eq!(store.current().id, id);
    assert_eq!(store.current().messages.len(), CHAT_TAIL_MESSAGES);
    assert!(store.current().more_before);
    let window = store.window(&id, Some("t100")).unwrap();
    assert!(window.messages.iter().any(|m| m.id == "t100") && window.more_before && window.more_after);
    let page = store.page(&id, Some("ut10"), None).unwrap();
    assert_eq!(page.messages.last().unwrap().id, "t9");
}

fn side(outbound: &[Outbound]) -> Vec<SideRequest> {
    outbound.iter().filter_map(|o| if let Outbound::Side(s) = o { Some(s.clone()) } else { None }).collect()
}

#[test]
fn edits_far_back_reach_the_database_the_engine_and_the_window() {
    let dir = tempfile::tempdir().unwrap();
    let mut log = ChatLog::new(ChatStore::open_at(dir.path().to_path_buf(), 0), None);
    turns(&mut log, 0, 300);
    let cid = log.store().current().wire_id().to_string();
    assert!(!log.store().current().messages.iter().any(|m| m.id == "t5"), "t5 is only in the database");

    // Delete exchange 5 (indices 10 and 11): the engine is told; later indices move up by two.
    let h = log.command(UserCommand::DeleteMessage { msg_id: "t5".into() }, false, 9_000);
    assert_eq!(side(&h.outbound), [SideRequest::DeleteMessage { conversation_id: cid.clone(), index: 10 }]);
    let [UiEvent::Conversation { conversation }] = &h.events[..] else { panic!("{:?}", h.events) };
    let ids: Vec<&str> = conversation.messages.iter().map(|m| m.id.as_str()).collect();
    let at = ids.iter().position(|id| *id == "t4").expect("the snapshot starts before the edit, inside what a window loaded");
    assert_eq!((ids[at + 1], *ids.last().unwrap()), ("ut6", "t299"), "the exchange gone, everything after it there");
    assert_eq!(ids.len() - at, 2 * 295 - 1);
    log.store().flush();
    let h6 = log.store().history().around(&cid, "t6").unwrap();
    assert_eq!(h6.message.server_index, Some(11), "13 moved up by two in the database");
    assert_eq!(h6.before.unwrap().id, "ut6");
    assert!(log.store().history().around(&cid, "ut5").is_none());

    // The next turn's end trims memory back.
    turns(&mut log, 300, 1);
    assert!(log.store().current().messages.len() <= 2 * CHAT_TAIL_MESSAGES);

    // A Regenerate far back asks the engine again with that exchange's question.
    let h = log.command(UserCommand::Regenerate { msg_id: "t20".into() }, false, 9_100);
    assert_eq!(h.engine, Some(UserCommand::SendText { text: "question 20".into() }));
    let (_, regenerate_of) = log.route("next");
    assert_eq!(regenerate_of, None, "no turn started yet");

    // A fork far back copies everything up to it; its copies carry no index until named.
    let h = log.command(UserCommand::Fork { msg_id: "t30".into() }, false, 9_200);
    let [SideRequest::Fork { index, local_id, .. }] = &side(&h.outbound)[..] else { panic!("{:?}", h.outbound) };
    assert_eq!(*index, 58, "exchange 30 sits at 58 once exchange 5 is gone");
    log.store().flush();
    let fork = log.store().current().clone();
    assert_eq!(&fork.id, local_id);
    assert_eq!(fork.messages.last().unwrap().id, "t30");
    let copies = every_message(log.store());
    assert_eq!(copies.len(), 60, "30 exchanges before it, one deleted, and its own");
    assert!(log.store().history().around(&fork.id, "t30").unwrap().message.server_index.is_none());
    log.forked(local_id, "srv-fork");
    log.store().flush();
    assert_eq!(log.store().history().around(&fork.id, "t30").unwrap().message.server_index, Some(59));
    assert_eq!(log.store().history().around(&fork.id, "t0").unwrap().message.server_index, Some(1));
}

#[test]
fn a_history_this_build_cannot_open_is_left_alone_and_the_chat_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(yui_core::chat::store::HISTORY_FILE);
    // A newer build's file: its schema version is past this build's.
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("PRAGMA user_version = 999; CREATE TABLE later (x);").unwrap();
    drop(conn);
    let before = std::fs::read(&path).unwrap();
    let mut log = ChatLog::new(ChatStore::open_at(dir.path().to_path_buf(), 0), None);
    turns(&mut log, 0, 3);
    log.store().flush();
    assert_eq!(every_message(log.store()).len(), 6, "this run's conversation is kept");
    assert_ne!(log.store().history().path(), path.as_path());
    assert_eq!(std::fs::read(&path).unwrap(), before, "the newer file is untouched");
}
