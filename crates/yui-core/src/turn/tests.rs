//! The engine with no socket and no real time: every call carries its `Now`.

use super::*;
use crate::command::UserCommand;
use crate::context::Outcome;
use crate::event::{Status, TurnOutcome, UiEvent};
use crate::model::{Cue, Segment, Vocabulary};
use crate::transport::{Inbound, Outbound, ReplyPart, ToolCall, ToolResult};
use std::time::Duration;
use tokio::time::Instant;

const WAIT: Duration = Duration::from_secs(240);

fn config(transport: &'static str) -> EngineConfig {
    EngineConfig {
        transport,
        frame_wait: WAIT,
        speech_wait: (transport != "push").then_some(Duration::from_secs(45)),
        first_turn_id: 1000,
        greetings: vec!["Hello again!".into()],
        previous: None,
        vocabulary: Vocabulary::default(),
    }
}

struct Rig {
    e: Engine,
    t0: Instant,
}

impl Rig {
    fn new(transport: &'static str) -> Rig {
        let mut e = Engine::new(config(transport));
        let t0 = Instant::now();
        let status = if transport == "push" { Status::Ready { max_turn_bytes: None } } else { Status::Stateless };
        e.on_inbound(Inbound::Status(status), Now { at: t0, wall_ms: 0 }, &mut Vec::new());
        Rig { e, t0 }
    }
    fn at(&self, secs: u64) -> Now {
        Now { at: self.t0 + Duration::from_secs(secs), wall_ms: 1_000_000 + secs as i64 * 1000 }
    }
    fn cmd(&mut self, c: UserCommand, secs: u64) -> Effects {
        let mut fx = Vec::new();
        self.e.on_command(c, self.at(secs), &mut fx);
        fx
    }
    fn send(&mut self, text: &str, secs: u64) -> String {
        let fx = self.cmd(UserCommand::SendText { text: text.into() }, secs);
        fx.iter()
            .find_map(|f| match f {
                Effect::Begin(b) => Some(b.turn_id.clone()),
                _ => None,
            })
            .expect("a turn began")
    }
    fn reply(&mut self, id: &str, part: ReplyPart, secs: u64) -> Effects {
        let mut fx = Vec::new();
        self.e.on_inbound(Inbound::Reply { turn_id: id.into(), part }, self.at(secs), &mut fx);
        fx
    }
    fn tick(&mut self, secs: u64) -> Effects {
        let mut fx = Vec::new();
        self.e.tick(self.at(secs), &mut fx);
        fx
    }
}

fn ui(fx: &Effects) -> Vec<UiEvent> {
    fx.iter()
        .filter_map(|f| match f {
            Effect::Ui(e) => Some(e.clone()),
            _ => None,
        })
        .collect()
}

fn sent(fx: &Effects) -> Vec<Outbound> {
    fx.iter()
        .filter_map(|f| match f {
            Effect::Send(o) => Some(o.clone()),
            _ => None,
        })
        .collect()
}

fn speech(text: &str) -> ReplyPart {
    ReplyPart::Speech { segments: vec![Segment { cues: vec![], speech: text.into() }] }
}

fn render(text: &str) -> ReplyPart {
    ReplyPart::Render { source: None, segments: vec![Segment { cues: vec![], speech: text.into() }], reasoning: None }
}

const END: ReplyPart = ReplyPart::End { usage: None };

#[test]
fn backend_minted_render_plays_and_unknown_end_is_ignored() {
    let mut r = Rig::new("push");
    let mut fx = r.reply("bg-1", render("Report ready."), 0);
    fx.extend(r.reply("bg-1", END, 0));
    assert_eq!(ui(&fx), vec![UiEvent::Speech { turn_id: "bg-1".into(), text: "Report ready.".into() }]);
    assert!(matches!(&fx[..], [_, Effect::Save(rec)] if rec.outcome == Outcome::Complete), "{fx:?}");
    assert!(!r.e.busy());
}

#[test]
fn wait_after_first_render_ends_complete_and_keeps_the_push_turn_outstanding() {
    let mut r = Rig::new("push");
    let id = r.send("hi", 0);
    r.reply(&id, speech("One."), 0);
    assert_eq!(r.e.next_deadline(), Some(r.t0 + WAIT));
    let fx = r.tick(241);
    assert!(matches!(&ui(&fx)[..], [UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }]), "{fx:?}");
    assert!(!r.e.busy());
    let fx = r.cmd(UserCommand::Stop, 242);
    assert_eq!(sent(&fx), vec![Outbound::Stop { turn_ids: vec![id] }], "still outstanding: stop names it");
}

#[test]
fn every_frame_of_the_turn_restarts_the_wait() {
    let mut r = Rig::new("push");
    let id = r.send("hi", 0);
    r.reply(&id, ReplyPart::ToolStatus { state: crate::model::ToolState::Running, tool_id: "x".into() }, 200);
    assert_eq!(r.e.next_deadline(), Some(r.t0 + Duration::from_secs(200) + WAIT));
    assert!(r.tick(241).is_empty(), "the tool_status frame moved the deadline");
}

#[test]
fn a_typed_turn_stops_older_outstanding_turns() {
    let mut r = Rig::new("push");
    let first = r.send("hi", 0);
    r.reply(&first, speech("a"), 0);
    r.tick(300);
    let _second = r.send("again", 301);
    assert!(r.e.is_stopped(&first));
    assert!(ui(&r.reply(&first, render("late"), 302)).is_empty(), "the older turn's late render is dropped");
}

#[test]
fn browser_tool_status_leaves_the_pill_alone() {
    let mut r = Rig::new("push");
    let id = r.send("hi", 0);
    let fx = r.reply(&id, ReplyPart::ToolStatus { state: crate::model::ToolState::Running, tool_id: "browser".into() }, 0);
    assert!(ui(&fx).is_empty());
}

#[test]
fn silent_render_speaks_nothing_but_plays_cues_and_leaves_the_record() {
    let mut r = Rig::new("push");
    let id = r.send("hi", 0);
    let sad = Cue { emotion_id: Some("sad".into()), ..Default::default() };
    let fx = r.reply(&id, ReplyPart::Render { source: None, segments: vec![Segment { cues: vec![sad], speech: "  [SILENT] ".into() }], reasoning: None }, 0);
    assert!(matches!(&ui(&fx)[..], [UiEvent::Cue { .. }]), "{fx:?}");
    let fx = r.reply(&id, END, 1);
    assert!(!fx.iter().any(|f| matches!(f, Effect::Save(_))), "a silent reply writes no record");
}

#[test]
fn stop_names_and_drops_a_turn_the_backend_started() {
    let mut r = Rig::new("push");
    r.reply("bg-7", speech("Report part one."), 0);
    let fx = r.cmd(UserCommand::Stop, 0);
    assert_eq!(sent(&fx), vec![Outbound::Stop { turn_ids: vec!["bg-7".into()] }]);
    assert!(ui(&r.reply("bg-7", render("Part two."), 0)).is_empty(), "the rest of a stopped backend turn is dropped");
    r.reply("bg-7", END, 0);
    assert!(!r.e.is_stopped("bg-7"), "forgotten on its end");
}

#[test]
fn a_late_frame_of_an_ended_client_turn_plays_and_is_not_taken_for_a_backend_turn() {
    let mut r = Rig::new("push");
    let id = r.send("hi", 0);
    r.reply(&id, END, 1);
    let fx = r.reply(&id, render("late but welcome"), 2);
    assert_eq!(ui(&fx).len(), 1, "a render naming a closed turn still plays");
    let fx = r.cmd(UserCommand::Stop, 3);
    assert!(sent(&fx).is_empty(), "the ended client turn is not outstanding: {fx:?}");
    assert_eq!(r.e.stopped_count(), 0);
}

#[test]
fn stopped_and_backend_sets_stay_bounded() {
    let mut r = Rig::new("push");
    for i in 0..(crate::limits::RECENT_TURN_IDS * 3) {
        r.reply(&format!("bg-{i}"), speech("x"), 0);
        r.cmd(UserCommand::Stop, 0);
    }
    assert!(r.e.stopped_count() <= crate::limits::RECENT_TURN_IDS, "{}", r.e.stopped_count());
}

#[test]
fn error_then_end_fails_with_the_server_text_and_the_failure_line() {
    let mut r = Rig::new("responses");
    let id = r.send("hi", 0);
    r.reply(&id, ReplyPart::Error { message: "HTTP 429:   rate\nlimit".into() }, 1);
    let fx = r.reply(&id, END, 1);
    let events = ui(&fx);
    assert!(matches!(&events[0], UiEvent::FailureLine { .. }));
    assert!(matches!(&events[1], UiEvent::TurnEnded { outcome: TurnOutcome::Failed, error: Some(e), .. } if e == "HTTP 429: rate limit"), "{events:?}");
    assert!(fx.iter().any(|f| matches!(f, Effect::Save(rec) if rec.outcome == Outcome::Failed)));
    assert!(sent(&fx).contains(&Outbound::Playback { turn_id: id }));
}

#[test]
fn request_liveness_is_45_s_after_speech_and_240_s_after_anything_else() {
    let mut r = Rig::new("chat_completions");
    let id = r.send("hi", 0);
    assert_eq!(r.e.next_deadline(), Some(r.t0 + WAIT), "the initial wait is the long one");
    r.reply(&id, ReplyPart::Alive { after_speech: true }, 10);
    assert_eq!(r.e.next_deadline(), Some(r.t0 + Duration::from_secs(55)));
    let cue = Cue { emotion_id: Some("happy".into()), ..Default::default() };
    r.reply(&id, ReplyPart::Speech { segments: vec![Segment { cues: vec![cue], speech: "Hi!".into() }] }, 20);
    assert_eq!(r.e.next_deadline(), Some(r.t0 + Duration::from_secs(260)), "a cue gets the long budget again");
    r.reply(&id, ReplyPart::Alive { after_speech: true }, 30);
    assert!(r.tick(74).is_empty());
    let fx = r.tick(75);
    assert!(sent(&fx).contains(&Outbound::Abandon { turn_id: id.clone() }), "the stalled request is aborted: {fx:?}");
    assert!(matches!(ui(&fx).last(), Some(UiEvent::TurnEnded { outcome: TurnOutcome::Failed, .. })));
    let rec = fx.iter().find_map(|f| match f { Effect::Save(r) => Some(r.clone()), _ => None }).unwrap();
    assert_eq!(rec.outcome, Outcome::Interrupted, "speech had started");
    assert_eq!(rec.already_spoken.as_deref(), Some("Hi!"));
    assert!(r.e.next_deadline().is_none() && !r.e.busy());
    assert!(ui(&r.reply(&id, speech("late"), 80)).is_empty(), "nothing of an abandoned request plays");
}

#[test]
fn a_request_stall_before_speech_fails_with_the_failure_line() {
    let mut r = Rig::new("responses");
    let id = r.send("hi", 0);
    let fx = r.tick(240);
    let events = ui(&fx);
    assert!(events.iter().any(|e| matches!(e, UiEvent::FailureLine { turn_id, .. } if *turn_id == id)), "{events:?}");
    assert!(sent(&fx).contains(&Outbound::Abandon { turn_id: id }));
}

#[test]
fn messages_queue_behind_the_running_turn() {
    let mut r = Rig::new("push");
    let id = r.send("one", 0);
    let fx = r.cmd(UserCommand::SendText { text: "two".into() }, 1);
    assert_eq!(ui(&fx), vec![UiEvent::TurnQueued { text: "two".into(), queued: 1 }]);
    let fx = r.reply(&id, END, 2);
    assert!(fx.iter().any(|f| matches!(f, Effect::Begin(b) if b.text == "two")), "{fx:?}");
}

#[test]
fn a_turn_before_ready_fails_at_once() {
    let mut e = Engine::new(config("push"));
    let mut fx = Vec::new();
    e.on_command(UserCommand::SendText { text: "hi".into() }, Now { at: Instant::now(), wall_ms: 5 }, &mut fx);
    assert!(!fx.iter().any(|f| matches!(f, Effect::Begin(_))));
    assert!(ui(&fx).iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
    assert!(!e.busy());
}

#[test]
fn leaving_ready_ends_the_running_wait() {
    let mut r = Rig::new("push");
    let id = r.send("hi", 0);
    let mut fx = Vec::new();
    r.e.on_inbound(Inbound::Status(Status::Reconnecting { delay_ms: 1000, close_code: None, reason: "x".into() }), r.at(1), &mut fx);
    assert!(ui(&fx).iter().any(|e| matches!(e, UiEvent::FailureLine { turn_id, .. } if *turn_id == id)));
    assert!(!r.e.busy());
}

#[test]
fn tool_calls_run_once_and_a_stopped_turn_answers_turn_stopped() {
    let mut r = Rig::new("push");
    let id = r.send("hi", 0);
    let call = ToolCall { id: "c1".into(), turn_id: id.clone(), name: "look".into(), arguments: serde_json::json!({}) };
    let mut fx = Vec::new();
    r.e.on_inbound(Inbound::ToolCall(call.clone()), r.at(1), &mut fx);
    assert_eq!(fx, vec![Effect::RunTool(call.clone())]);
    let mut fx = Vec::new();
    r.e.on_inbound(Inbound::ToolCall(call.clone()), r.at(1), &mut fx);
    assert!(fx.is_empty(), "a repeated id is dropped");
    let result = ToolResult { id: "c1".into(), turn_id: id.clone(), result: "ok".into(), images: vec![] };
    let mut fx = Vec::new();
    r.e.on_tool_result(result.clone(), &mut fx);
    assert_eq!(sent(&fx), vec![Outbound::ToolResult(result)]);
    r.cmd(UserCommand::Stop, 2);
    let mut fx = Vec::new();
    r.e.on_inbound(Inbound::ToolCall(ToolCall { id: "c2".into(), ..call }), r.at(3), &mut fx);
    assert!(matches!(&sent(&fx)[..], [Outbound::ToolResult(ToolResult { result, .. })] if result == "error: turn stopped"));
}

#[test]
fn a_newer_user_turn_stops_the_tool_calls_of_the_older() {
    let mut r = Rig::new("push");
    let old = r.send("hi", 0);
    r.reply(&old, speech("a"), 0);
    r.tick(300);
    let fx = r.cmd(UserCommand::SendText { text: "again".into() }, 301);
    assert!(fx.contains(&Effect::StopTools(vec![old.clone()])), "{fx:?}");
    assert!(r.e.is_stopped(&old));
}

#[test]
fn reset_performs_a_greeting_and_hands_it_to_the_transport() {
    let mut r = Rig::new("chat_completions");
    let fx = r.cmd(UserCommand::Reset, 0);
    assert_eq!(sent(&fx), vec![Outbound::Reset, Outbound::Greeting { text: "Hello again!".into() }]);
    assert!(ui(&fx).iter().any(|e| matches!(e, UiEvent::Speech { text, .. } if text == "Hello again!")));
}

#[test]
fn reset_stops_the_running_turn_first() {
    let mut r = Rig::new("chat_completions");
    let id = r.send("hi", 0);
    r.reply(&id, speech("Half a"), 1);
    let fx = r.cmd(UserCommand::Reset, 2);
    assert_eq!(sent(&fx)[..2], [Outbound::Stop { turn_ids: vec![id.clone()] }, Outbound::Reset], "stop, then reset: {fx:?}");
    assert!(ui(&fx).iter().any(|e| matches!(e, UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. })));
    assert!(ui(&r.reply(&id, speech("rest"), 3)).is_empty(), "nothing of the old turn plays after the reset");
    assert!(!r.e.busy());
}

#[test]
fn vocabulary_goes_out_only_when_it_changes() {
    let mut r = Rig::new("push");
    assert!(r.cmd(UserCommand::SetVocabulary { vocabulary: Vocabulary::default() }, 0).is_empty());
    let mut v = Vocabulary::default();
    v.motion_ids.push("dance".into());
    assert_eq!(sent(&r.cmd(UserCommand::SetVocabulary { vocabulary: v.clone() }, 0)), vec![Outbound::Vocabulary(v)]);
}

#[test]
fn an_oversize_turn_fails_now() {
    let mut r = Rig::new("push");
    let id = r.send("hi", 0);
    let mut fx = Vec::new();
    r.e.on_inbound(Inbound::Rejected { turn_id: id, code: crate::error::ErrorCode::FrameOversize, reason: "too long".into() }, r.at(1), &mut fx);
    assert!(ui(&fx).iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
    assert!(!r.e.busy());
}
