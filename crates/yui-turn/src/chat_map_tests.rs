//! [`ChatMap`]: deliberate silence shows nothing, and text a stop, a stall
//! or an error left unsaid is shown with the turn's mark.

use super::*;
use crate::SILENT;
use yui_protocol::model::{Cue, Segment};

fn started(turn_id: &str, text: &str) -> UiEvent {
    UiEvent::TurnStarted { turn_id: turn_id.into(), text: text.into(), remakes: None, files: Vec::new() }
}

fn ended(turn_id: &str, outcome: TurnOutcome, error: Option<&str>) -> UiEvent {
    UiEvent::TurnEnded { turn_id: turn_id.into(), outcome, usage: None, error: error.map(str::to_string) }
}

fn speech(text: &str, cue: bool) -> ReplyPart {
    let cues = if cue { vec![Cue { emotion_id: Some("happy".into()), ..Cue::default() }] } else { Vec::new() };
    ReplyPart::Speech { segments: vec![Segment { cues, speech: text.into() }] }
}

fn kinds(events: &[ChatEvent]) -> Vec<&'static str> {
    events.iter().map(ChatEvent::kind).collect()
}

fn text(events: &[ChatEvent]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            ChatEvent::Delta { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_silent_reply_shows_no_text_and_no_card_on_a_user_turn() {
    for silent in ["", "  ", SILENT, " [SILENT] "] {
        let mut m = ChatMap::new(None);
        let mut out = m.ui(&started("1", "hello"), 0);
        out.extend(m.reply("1", &speech(silent, true), 10));
        out.extend(m.reply("1", &ReplyPart::Render { source: None, segments: vec![Segment { cues: vec![], speech: silent.into() }], reasoning: None }, 20));
        out.extend(m.reply("1", &ReplyPart::End { usage: None }, 30));
        out.extend(m.ui(&ended("1", TurnOutcome::Complete, None), 30));
        assert_eq!(kinds(&out), ["start", "usage", "end"], "{silent:?}: {out:?}");
    }
    // `[SILENT]` inside a longer reply is ordinary text.
    let mut m = ChatMap::new(None);
    m.ui(&started("1", "hello"), 0);
    let out = m.reply("1", &speech("Not [SILENT] here.", false), 10);
    assert_eq!(text(&out), "Not [SILENT] here.");
}

#[test]
fn a_silent_reply_after_a_tool_ran_shows_no_card_but_no_text_at_all_does() {
    use crate::contract::{ToolCall, ToolResult};
    for (last, card) in [(SILENT, false), ("", true)] {
        let mut m = ChatMap::new(None);
        let mut out = m.ui(&started("1", "say hi to Ann"), 0);
        let call = ToolCall { id: "c1".into(), turn_id: "1".into(), name: "address_character".into(), arguments: serde_json::json!({"character": "Ann"}) };
        out.extend(m.tool_call(&call, 5));
        out.extend(m.tool_result(&ToolResult { id: "c1".into(), turn_id: "1".into(), result: "ok".into(), images: Vec::new() }, 6));
        out.extend(m.reply("1", &speech(last, false), 10));
        out.extend(m.reply("1", &ReplyPart::End { usage: None }, 20));
        out.extend(m.ui(&ended("1", TurnOutcome::Complete, None), 20));
        assert_eq!(kinds(&out).contains(&"error"), card, "{last:?}: {out:?}");
    }
}

#[test]
fn a_silent_turn_nobody_typed_leaves_the_chat_as_it_was() {
    let mut m = ChatMap::new(None);
    let mut out = m.ui(&started("7", ""), 0);
    out.extend(m.reply("7", &speech(SILENT, true), 10));
    out.extend(m.reply("7", &ReplyPart::End { usage: None }, 20));
    out.extend(m.ui(&ended("7", TurnOutcome::Complete, None), 20));
    assert!(out.is_empty(), "no message at all: {out:?}");

    // A backend turn (push) that renders only `[SILENT]`: no stray entry.
    let out = m.reply("b-1", &ReplyPart::Render { source: None, segments: vec![Segment { cues: vec![], speech: SILENT.into() }], reasoning: None }, 30);
    assert!(out.is_empty());
    assert!(m.reply("b-1", &ReplyPart::End { usage: None }, 31).is_empty());

    // One that speaks shows as before, `start` first.
    let mut out = m.ui(&started("8", ""), 40);
    assert!(out.is_empty());
    out.extend(m.reply("8", &speech("I finished.", false), 41));
    out.extend(m.ui(&ended("8", TurnOutcome::Complete, None), 42));
    assert_eq!(kinds(&out), ["start", "delta", "usage", "end"]);

    // Stopped before it showed anything: nothing either.
    let mut out = m.ui(&started("9", ""), 50);
    out.extend(m.ui(&ended("9", TurnOutcome::Stopped, None), 51));
    assert!(out.is_empty(), "{out:?}");
    // A failure still shows its card.
    let mut out = m.ui(&started("10", ""), 60);
    out.extend(m.ui(&ended("10", TurnOutcome::Failed, Some("HTTP 500: upstream")), 61));
    assert_eq!(kinds(&out), ["start", "usage", "error", "end"]);
}

#[test]
fn agent_chat_deltas_that_spell_silent_show_nothing() {
    let delta = |t: &str| ChatEvent::Delta { msg_id: String::new(), text: t.into() };
    let mut m = ChatMap::new(None);
    let mut out = m.ui(&started("1", "hi"), 0);
    for piece in ["  [SIL", "ENT", "] "] {
        out.extend(m.wire("1", &delta(piece), 1));
    }
    out.extend(m.ui(&ended("1", TurnOutcome::Complete, None), 2));
    assert_eq!(kinds(&out), ["start", "usage", "end"], "{out:?}");

    // The engine's own `empty` error for a reply with nothing in it is silence too.
    let mut out = m.ui(&started("2", "hi"), 3);
    out.extend(m.reply("2", &ReplyPart::Error { message: NO_OUTPUT.into() }, 4));
    out.extend(m.ui(&ended("2", TurnOutcome::Failed, Some(NO_OUTPUT)), 4));
    assert_eq!(kinds(&out), ["start", "usage", "end"], "no \"No output\" card: {out:?}");

    // Held pieces that turn into words show whole.
    let mut out = m.ui(&started("3", "hi"), 5);
    for piece in ["[SIL", "ly] hat"] {
        out.extend(m.wire("3", &delta(piece), 6));
    }
    assert_eq!(text(&out), "[SILly] hat");
    let mut out = m.ui(&started("4", "hi"), 7);
    out.extend(m.wire("4", &delta("[SIL"), 8));
    out.extend(m.ui(&ended("4", TurnOutcome::Complete, None), 9));
    assert_eq!(text(&out), "[SIL", "a start of the token that never finished is text");
}

#[test]
fn text_left_unsaid_shows_with_the_turns_mark() {
    let unsaid = |t: &str| ReplyPart::Unsaid { text: t.into() };
    // A stop: `cancelled` goes at once; the held sentence follows it.
    let mut m = ChatMap::new(None);
    let mut out = m.ui(&started("1", "stop test"), 0);
    out.extend(m.ui(&ended("1", TurnOutcome::Stopped, None), 5));
    out.extend(m.reply("1", &unsaid("Before it stopped. "), 6));
    assert_eq!(kinds(&out), ["start", "cancelled", "delta"]);
    assert_eq!(text(&out), "Before it stopped. ");
    let mut c = yui_protocol::chat::Conversation::new("c", 0);
    for e in &out {
        c.apply(e, 6);
    }
    let a = &c.messages[0].answers[0];
    assert_eq!((a.text.as_str(), a.state), ("Before it stopped. ", yui_protocol::chat::AnswerState::Stopped));

    // An error: the fragment goes before the error card.
    let mut out = m.ui(&started("2", "hi"), 10);
    out.extend(m.reply("2", &speech("One.", false), 11));
    out.extend(m.reply("2", &unsaid("Two is cut"), 12));
    out.extend(m.reply("2", &ReplyPart::Error { message: "HTTP 500: upstream".into() }, 12));
    out.extend(m.ui(&ended("2", TurnOutcome::Failed, Some("HTTP 500: upstream")), 12));
    assert_eq!(kinds(&out), ["start", "delta", "delta", "usage", "error", "end"]);
    assert_eq!(text(&out), "One. Two is cut");

    // A turn nobody typed, stopped before it showed anything: the held text
    // brings its start and its end.
    let mut out = m.ui(&started("3", ""), 20);
    out.extend(m.ui(&ended("3", TurnOutcome::Stopped, None), 21));
    assert!(out.is_empty());
    out.extend(m.reply("3", &unsaid("Before it stopped."), 22));
    assert_eq!(kinds(&out), ["start", "delta", "cancelled"]);
    assert!(m.reply("3", &unsaid(SILENT), 23).is_empty(), "silence left unsaid is nothing");
}

#[test]
fn text_left_unsaid_after_a_reset_does_not_land_in_the_new_conversation() {
    let mut m = ChatMap::new(None);
    m.ui(&started("1", "stop test"), 0);
    m.ui(&ended("1", TurnOutcome::Stopped, None), 5);
    assert!(m.ui(&UiEvent::SessionReset, 5).is_empty());
    assert!(m.reply("1", &ReplyPart::Unsaid { text: "Before it stopped.".into() }, 6).is_empty());
    assert!(m.reply("9", &ReplyPart::Unsaid { text: "Never seen.".into() }, 6).is_empty(), "a turn it never knew");
}

#[test]
fn the_engines_own_error_kind_is_the_cards_kind() {
    let mut m = ChatMap::new(None);
    let mut out = m.ui(&started("1", "hello"), 0);
    let message = "The provider rejected the API key. Check it in Settings \u{2192} Models. 401";
    out.extend(m.wire("1", &ChatEvent::Start { msg_id: "m".into(), run_id: "r".into() }, 5));
    out.extend(m.wire("1", &ChatEvent::Error { msg_id: "m".into(), message: message.into(), kind: ChatErrorKind::Auth }, 10));
    out.extend(m.ui(&ended("1", TurnOutcome::Failed, Some(message)), 11));
    let kinds: Vec<_> = out.iter().filter_map(|e| if let ChatEvent::Error { kind, .. } = e { Some(kind.clone()) } else { None }).collect();
    assert_eq!(kinds, [ChatErrorKind::Auth], "{out:?}");
}
