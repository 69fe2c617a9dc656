use super::overheard::{Cursor, Overhearing};
use super::*;
use crate::chat::{Answer, AnswerState, ChatMessage, Role as ChatRole};
use crate::context::Role;
use crate::data_dir::DataDir;

fn cast(names: &[&str]) -> Cast {
    Cast::new(&names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap()
}

fn history(dir: &std::path::Path) -> History {
    History::open(&dir.join("history.db")).unwrap()
}

fn user(id: &str, at_ms: i64, text: &str) -> ChatMessage {
    ChatMessage { id: id.into(), role: ChatRole::User, at_ms, text: text.into(), files: Vec::new(), answers: Vec::new(), active: 0, server_index: None }
}

fn reply(id: &str, at_ms: i64, text: &str, state: AnswerState) -> ChatMessage {
    let answer = Answer {
        run_id: id.into(),
        state,
        started_ms: at_ms,
        text: text.into(),
        reasoning: String::new(),
        reasoning_ms: None,
        tools: Vec::new(),
        approvals: Vec::new(),
        usage: None,
        error: None,
        stop_confirmed: None,
    };
    ChatMessage {
        id: id.into(),
        role: ChatRole::Assistant,
        at_ms,
        text: String::new(),
        files: Vec::new(),
        answers: vec![answer],
        active: 0,
        server_index: None,
    }
}

/// Two seated characters, Ann (main) and Bob, each with a history; Bob's
/// current conversation is `c1`.
fn two() -> (tempfile::TempDir, Seat, Seat, History, mpsc::UnboundedReceiver<AddressedNote>, mpsc::UnboundedReceiver<AddressedNote>) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("ann")).unwrap();
    std::fs::create_dir_all(tmp.path().join("bob")).unwrap();
    let ensemble = Ensemble::new(cast(&["Ann", "Bob"]), 6);
    let (ann, bob) = (ensemble.seat(0).unwrap(), ensemble.seat(1).unwrap());
    let (ann_tx, ann_rx) = mpsc::unbounded_channel();
    let (bob_tx, bob_rx) = mpsc::unbounded_channel();
    let bob_history = history(&tmp.path().join("bob"));
    bob_history.set_current("c1");
    ann.take(history(&tmp.path().join("ann")), ann_tx);
    bob.take(bob_history.clone(), bob_tx);
    (tmp, ann, bob, bob_history, ann_rx, bob_rx)
}

fn texts(blocks: &[crate::context::Overheard]) -> Vec<Vec<(Role, String)>> {
    blocks.iter().map(|b| b.entries.iter().map(|e| (e.role, e.text.clone())).collect()).collect()
}

#[test]
fn a_turn_overhears_the_others_newest_eight_lines_oldest_first_and_moves_on_only_when_it_ended_ok() {
    let (tmp, ann, _bob, bob_history, _a, _b) = two();
    for i in 0..6 {
        bob_history.put_message("c1", user(&format!("u{i}"), 1000 + i * 10, &format!("question {i}")));
        bob_history.put_message("c1", reply(&format!("a{i}"), 1005 + i * 10, &format!("answer {i}"), AnswerState::Done));
    }
    let mut hearing = Overhearing::open(&DataDir::new(tmp.path().join("ann")).unwrap());
    let blocks = hearing.collect("t1", &ann.others_histories());
    assert_eq!(blocks.len(), 1);
    assert_eq!((blocks[0].name.as_deref(), blocks[0].preset.as_deref()), (Some("Bob"), Some("bob")));
    let lines = &texts(&blocks)[0];
    assert_eq!(lines.len(), 8, "the newest eight of twelve");
    assert_eq!(lines[0], (Role::User, "question 2".to_string()), "oldest first");
    assert_eq!(lines[7], (Role::Assistant, "answer 5".to_string()));
    // The turn failed: the same lines go again.
    hearing.ended("t1", false);
    assert_eq!(texts(&hearing.collect("t2", &ann.others_histories())), texts(&blocks));
    // It ended ok: nothing is left to hear, and the cursor is saved.
    hearing.ended("t2", true);
    assert!(hearing.collect("t3", &ann.others_histories()).is_empty());
    crate::persist::Writer::global().flush();
    let again = Overhearing::open(&DataDir::new(tmp.path().join("ann")).unwrap());
    assert_eq!(again.cursor("BOB"), Some(&Cursor { conversation: "c1".into(), pos: 11 }), "kept across a restart");
    // A new line after the cursor is all the next turn carries.
    bob_history.put_message("c1", user("u9", 2000, "one more"));
    assert_eq!(texts(&hearing.collect("t4", &ann.others_histories())), vec![vec![(Role::User, "one more".to_string())]]);
}

#[test]
fn a_reply_still_streaming_is_not_heard_yet_nor_silence_and_a_new_conversation_is_a_boundary() {
    let (tmp, ann, _bob, bob_history, _a, _b) = two();
    bob_history.put_message("c1", user("u1", 1000, "hi"));
    bob_history.put_message("c1", reply("a1", 1001, "[SILENT]", AnswerState::Done));
    bob_history.put_message("c1", user("u2", 1002, "still there?"));
    bob_history.put_message("c1", reply("a2", 1003, "half a sent", AnswerState::Streaming));
    let mut hearing = Overhearing::open(&DataDir::new(tmp.path().join("ann")).unwrap());
    let lines = texts(&hearing.collect("t1", &ann.others_histories()));
    assert_eq!(lines, vec![vec![(Role::User, "hi".to_string()), (Role::User, "still there?".to_string())]], "no [SILENT], no streaming reply");
    hearing.ended("t1", true);
    bob_history.put_message("c1", reply("a2", 1003, "half a sentence, then all of it.", AnswerState::Done));
    assert_eq!(texts(&hearing.collect("t2", &ann.others_histories())), vec![vec![(Role::Assistant, "half a sentence, then all of it.".to_string())]]);
    hearing.ended("t2", true);
    // Bob starts a new conversation: only what follows counts.
    bob_history.set_current("c2");
    bob_history.put_message("c2", user("u3", 3000, "fresh start"));
    assert_eq!(texts(&hearing.collect("t3", &ann.others_histories())), vec![vec![(Role::User, "fresh start".to_string())]]);
}

#[test]
fn an_address_reaches_another_open_character_and_counts_its_hops_up_to_the_limit() {
    let (_tmp, ann, bob, _h, mut ann_rx, mut bob_rx) = two();
    ann.ensemble().set_exchange_limit(2);
    let first = ann.new_exchange();
    assert_eq!(ann.address(first, "bob", "hi Bob", 5), Ok("Bob".to_string()), "names without case");
    let note = bob_rx.try_recv().unwrap();
    assert_eq!((note.from.as_str(), note.text.as_str(), note.ts, note.exchange), ("Ann", "hi Bob", 5, Exchange { id: first.id, hops: 1 }));
    assert_eq!(bob.address(note.exchange, "Ann", "hi Ann", 6), Ok("Ann".to_string()));
    let back = ann_rx.try_recv().unwrap();
    assert_eq!(back.exchange.hops, 2);
    assert_eq!(ann.address(back.exchange, "Bob", "and again", 7), Err(NotDelivered::Limit(2)), "the third hop is past the limit");
    assert!(bob_rx.try_recv().is_err());
    // Herself, or nobody open, is no one to address.
    assert_eq!(ann.address(ann.new_exchange(), "ann", "me?", 8), Err(NotDelivered::NotOpen("ann".into())));
    assert_eq!(ann.address(ann.new_exchange(), "Cid", "who?", 8), Err(NotDelivered::NotOpen("Cid".into())));
    // The user speaks: every exchange so far is over; a new one is not.
    let old = ann.new_exchange();
    bob.user_spoke();
    assert!(ann.is_over(old));
    assert_eq!(ann.address(old, "Bob", "late", 9), Err(NotDelivered::Ended));
    let fresh = ann.new_exchange();
    assert!(!ann.is_over(fresh));
    assert!(ann.address(fresh, "Bob", "new topic", 10).is_ok());
}

#[test]
fn a_character_that_left_is_neither_overheard_nor_addressed_and_the_floor_is_one_voice() {
    let (_tmp, ann, bob, _h, _a, _b) = two();
    assert_eq!(ann.others(), ["Bob"]);
    let floor = ann.ensemble().floor();
    assert!(floor.take(0) && floor.take(0), "Ann takes it, and holds it");
    assert!(!floor.take(1), "Bob waits");
    floor.release(1);
    assert_eq!(floor.holder(), Some(0), "only the holder releases");
    bob.leave();
    assert!(ann.others().is_empty() && ann.others_histories().is_empty());
    assert_eq!(ann.address(ann.new_exchange(), "Bob", "gone?", 1), Err(NotDelivered::NotOpen("Bob".into())));
    ann.leave();
    assert_eq!(floor.holder(), None, "leaving frees the floor");
}
