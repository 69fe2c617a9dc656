//! The engine with no socket and no real time: every call carries its `Now`.

use super::*;
use crate::contract::{Inbound, Outbound, ReplyPart, ToolCall, ToolResult};
use crate::voice::filler::FILLER_GAPS;
use crate::voice::playback::SinkEvent;
use std::time::Duration;
use tokio::time::Instant;
use yui_engine::context::Outcome;
use yui_protocol::command::UserCommand;
use yui_protocol::event::{Status, TurnOutcome, UiEvent};
use yui_protocol::model::{Cue, Segment, Vocabulary};

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
        filler: None,
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
    /// Play every sentence the engine hands out at once, as a sound of no
    /// length: its sink reports follow its `Play` in the effects.
    fn played(&mut self, fx: Effects, secs: u64) -> Effects {
        let mut out = Vec::new();
        let mut work: std::collections::VecDeque<Effect> = fx.into();
        while let Some(f) = work.pop_front() {
            if let Effect::Play { item_id } = &f {
                let mut more = Vec::new();
                self.e.on_sink(SinkEvent::Started(*item_id), self.at(secs), &mut more);
                self.e.on_sink(SinkEvent::Finished(*item_id), self.at(secs), &mut more);
                out.push(f);
                work = more.into_iter().chain(work).collect();
                continue;
            }
            out.push(f);
        }
        out
    }
    fn cmd(&mut self, c: UserCommand, secs: u64) -> Effects {
        let mut fx = Vec::new();
        self.e.on_command(c, self.at(secs), &mut fx);
        self.played(fx, secs)
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
        self.played(fx, secs)
    }
    fn tick(&mut self, secs: u64) -> Effects {
        let mut fx = Vec::new();
        self.e.tick(self.at(secs), &mut fx);
        self.played(fx, secs)
    }
}

/// The UI events, without the end of each sentence's playback.
fn ui(fx: &Effects) -> Vec<UiEvent> {
    fx.iter()
        .filter_map(|f| match f {
            Effect::Ui(UiEvent::SpeechDone { .. }) => None,
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
    assert!(
        matches!(&fx[..], [Effect::Synth { .. }, Effect::Ui(UiEvent::Speech { .. }), Effect::Play { .. }, _, Effect::Save(rec)] if rec.outcome == Outcome::Complete),
        "{fx:?}"
    );
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
    r.reply(&id, ReplyPart::ToolStatus { state: yui_protocol::model::ToolState::Running, tool_id: "x".into() }, 200);
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
    let fx = r.reply(&id, ReplyPart::ToolStatus { state: yui_protocol::model::ToolState::Running, tool_id: "browser".into() }, 0);
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
    for i in 0..(yui_engine::limits::RECENT_TURN_IDS * 3) {
        r.reply(&format!("bg-{i}"), speech("x"), 0);
        r.cmd(UserCommand::Stop, 0);
    }
    assert!(r.e.stopped_count() <= yui_engine::limits::RECENT_TURN_IDS, "{}", r.e.stopped_count());
}

#[test]
fn error_then_end_fails_with_the_server_text_and_the_failure_line() {
    let mut r = Rig::new("responses");
    let id = r.send("hi", 0);
    r.reply(&id, ReplyPart::Error { message: "HTTP 429:   rate\nlimit".into() }, 1);
    let fx = r.reply(&id, END, 1);
    let events = ui(&fx);
    assert!(matches!(&events[0], UiEvent::FailureLine { .. }));
    assert!(matches!(&events[1], UiEvent::Speech { text, .. } if text == crate::FAILURE_LINE), "the failure line is spoken");
    assert!(matches!(&events[2], UiEvent::TurnEnded { outcome: TurnOutcome::Failed, error: Some(e), .. } if e == "HTTP 429: rate limit"), "{events:?}");
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
    let rec = fx
        .iter()
        .find_map(|f| match f {
            Effect::Save(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
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
    r.e.on_inbound(Inbound::Rejected { turn_id: id, code: yui_protocol::ErrorCode::FrameOversize, reason: "too long".into() }, r.at(1), &mut fx);
    assert!(ui(&fx).iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
    assert!(!r.e.busy());
}

// ---- Voice: the playback queue inside the engine --------------------------

fn rig_with_filler() -> Rig {
    let mut cfg = config("responses");
    cfg.filler = Some(crate::voice::filler::FillerLines::for_locale("en"));
    let mut e = Engine::new(cfg);
    let t0 = Instant::now();
    e.on_inbound(Inbound::Status(Status::Stateless), Now { at: t0, wall_ms: 0 }, &mut Vec::new());
    Rig { e, t0 }
}

fn spoken(fx: &Effects) -> Vec<String> {
    ui(fx)
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::Speech { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

fn saves(fx: &Effects) -> Vec<yui_engine::context::PreviousTurn> {
    fx.iter()
        .filter_map(|f| match f {
            Effect::Save(r) => Some(r.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn fillers_come_on_a_growing_gap_at_most_three_and_never_write_the_record() {
    let mut r = rig_with_filler();
    let id = r.send("hi", 0);
    let first = FILLER_GAPS[0].as_millis() as u64;
    assert_eq!(r.e.next_deadline(), Some(r.t0 + FILLER_GAPS[0]), "the first filler is due");
    let mut said = Vec::new();
    let mut fx_all = Vec::new();
    let mut t = Duration::ZERO;
    for gap in FILLER_GAPS {
        t += gap;
        let mut fx = Vec::new();
        r.e.tick(Now { at: r.t0 + t, wall_ms: 1 }, &mut fx);
        let fx = r.played(fx, t.as_secs());
        said.extend(spoken(&fx));
        fx_all.extend(fx);
    }
    assert_eq!(said, vec!["Hmm…", "Just a moment.", "Almost there…"]);
    assert!(saves(&fx_all).is_empty(), "filler never writes the previous-turn record");
    assert!(r.e.next_deadline().is_some_and(|d| d > r.t0 + t), "only the turn's wait is left");
    let fx = r.tick(200);
    assert!(spoken(&fx).is_empty(), "no fourth filler");
    // The reply plays and the record names the reply, not the filler.
    let fx = r.reply(&id, speech("Here it is."), 201);
    assert_eq!(spoken(&fx), vec!["Here it is."]);
    let fx = r.reply(&id, END, 201);
    assert!(matches!(&saves(&fx)[..], [rec] if rec.outcome == Outcome::Complete && rec.event_name.as_deref() == Some(USER_EVENT)));
    assert!(first > 0);
}

#[test]
fn on_the_bed_no_filler_is_spoken_and_a_message_that_woke_her_says_so() {
    let mut r = rig_with_filler();
    r.e.set_on_bed(true);
    r.e.woken_by_message();
    let mut fx = Vec::new();
    r.e.on_command(UserCommand::SendText { text: "good morning".into() }, Now { at: r.t0, wall_ms: 0 }, &mut fx);
    let begin = fx.iter().find_map(|f| match f {
        Effect::Begin(b) => Some(b.clone()),
        _ => None,
    });
    assert_eq!(begin.and_then(|b| b.wake), Some(yui_engine::context::WakeCause::Message), "the turn carries the wake");
    let mut said = Vec::new();
    let mut t = Duration::ZERO;
    for gap in FILLER_GAPS {
        t += gap;
        let mut fx = Vec::new();
        r.e.tick(Now { at: r.t0 + t, wall_ms: 1 }, &mut fx);
        said.extend(spoken(&r.played(fx, t.as_secs())));
    }
    assert!(said.is_empty(), "no thinking filler on the bed: {said:?}");
    // Up again: the next turn has its fillers, and no wake.
    r.e.set_on_bed(false);
    let mut fx = Vec::new();
    r.e.on_command(UserCommand::Stop, Now { at: r.t0 + t, wall_ms: 2 }, &mut fx);
    let mut fx = Vec::new();
    r.e.on_command(UserCommand::SendText { text: "and now?".into() }, Now { at: r.t0 + t, wall_ms: 3 }, &mut fx);
    assert!(fx.iter().any(|f| matches!(f, Effect::Begin(b) if b.wake.is_none())), "only the waking message carries it");
    assert!(r.e.next_deadline().is_some_and(|d| d <= r.t0 + t + FILLER_GAPS[0]), "a filler is due again");
}

#[test]
fn the_first_reply_ends_the_filler_and_a_tool_says_its_own_line() {
    let mut r = rig_with_filler();
    let id = r.send("look at this", 0);
    let call = ToolCall { id: "c1".into(), turn_id: id.clone(), name: "look".into(), arguments: "{\"at\":\"screen\"}".into() };
    let mut fx = Vec::new();
    r.e.on_inbound(Inbound::ToolCall(call), r.at(1), &mut fx);
    let fx = r.played(fx, 1);
    assert_eq!(spoken(&fx), vec!["Let me look at your screen."]);
    r.reply(&id, speech("I see a terminal."), 2);
    assert_eq!(r.e.next_deadline(), Some(r.at(2).at + Duration::from_secs(240)), "no filler after the first reply");
    assert!(spoken(&r.tick(30)).is_empty());
}

#[test]
fn a_failure_line_is_localized_spoken_and_leaves_the_record_to_the_failure() {
    let mut cfg = config("responses");
    cfg.filler = Some(crate::voice::filler::FillerLines::for_locale("ja_JP.UTF-8"));
    let mut e = Engine::new(cfg);
    let t0 = Instant::now();
    let mut r = Rig {
        e: {
            e.on_inbound(Inbound::Status(Status::Stateless), Now { at: t0, wall_ms: 0 }, &mut Vec::new());
            e
        },
        t0,
    };
    let id = r.send("hi", 0);
    let fx = r.tick(240);
    let lines = crate::voice::filler::FillerLines::for_locale("ja");
    assert!(spoken(&fx).contains(&lines.timeout), "{fx:?}");
    assert!(matches!(&saves(&fx)[..], [rec] if rec.outcome == Outcome::Failed && rec.turn_id.as_deref() == Some(id.as_str())));
}

/// An engine whose sentences are left playing: the test reports the sink.
fn slow_rig() -> Rig {
    Rig::new("push")
}

fn raw_reply(r: &mut Rig, id: &str, part: ReplyPart, secs: u64) -> Effects {
    let mut fx = Vec::new();
    r.e.on_inbound(Inbound::Reply { turn_id: id.into(), part }, r.at(secs), &mut fx);
    fx
}

fn plays(fx: &Effects) -> Vec<u64> {
    fx.iter()
        .filter_map(|f| match f {
            Effect::Play { item_id } => Some(*item_id),
            _ => None,
        })
        .collect()
}

fn stop_while_speaking(cmd: UserCommand) -> (Effects, String) {
    let mut r = slow_rig();
    let mut fx = Vec::new();
    r.e.on_command(UserCommand::SendText { text: "tell me".into() }, r.at(0), &mut fx);
    let id = fx.iter().find_map(|f| if let Effect::Begin(b) = f { Some(b.turn_id.clone()) } else { None }).unwrap();
    let segs =
        vec![Segment { cues: vec![], speech: "Three logs are left.".into() }, Segment { cues: vec![], speech: "Two of them are from yesterday.".into() }];
    let fx = raw_reply(&mut r, &id, ReplyPart::Render { source: None, segments: segs, reasoning: None }, 1);
    let first = plays(&fx)[0];
    assert_eq!(spoken(&fx), vec!["Three logs are left."], "shown as it goes to the sink");
    let mut fx = Vec::new();
    r.e.on_sink(SinkEvent::Started(first), r.at(1), &mut fx);
    assert!(spoken(&fx).is_empty(), "its sound starting shows it no second time");
    if matches!(cmd, UserCommand::SendText { .. }) {
        // The composer is locked while the turn runs: a new turn comes after
        // its end, while its speech still plays.
        let fx = raw_reply(&mut r, &id, END, 2);
        assert!(saves(&fx).is_empty(), "still playing: no record yet");
    }
    let mut fx = Vec::new();
    r.e.on_command(cmd, r.at(2), &mut fx);
    // A late sink report of the halted sentence changes nothing.
    let mut late = Vec::new();
    r.e.on_sink(SinkEvent::Finished(first), r.at(3), &mut late);
    assert!(late.is_empty(), "{late:?}");
    (fx, id)
}

#[test]
fn each_stop_action_halts_at_once_and_records_what_was_heard_and_owed() {
    for cmd in [UserCommand::Stop, UserCommand::BargeIn, UserCommand::SendText { text: "wait".into() }] {
        let (fx, id) = stop_while_speaking(cmd.clone());
        assert!(matches!(fx.first(), Some(Effect::Halt)), "{cmd:?}: the halt comes first: {fx:?}");
        assert!(ui(&fx).contains(&UiEvent::SpeechHalted), "{cmd:?}");
        let rec = saves(&fx).into_iter().next().expect("an interrupted record");
        assert_eq!(rec.outcome, Outcome::Interrupted, "{cmd:?}");
        assert_eq!(rec.turn_id.as_deref(), Some(id.as_str()));
        assert_eq!(rec.already_spoken.as_deref(), Some("Three logs are left."));
        assert_eq!(rec.never_spoken.as_deref(), Some("Two of them are from yesterday."));
    }
}

#[test]
fn a_stall_after_speech_records_interrupted_once_the_queue_drains() {
    let mut r = Rig::new("responses");
    let id = r.send("hi", 0);
    let fx = r.reply(&id, speech("Half a reply."), 1);
    assert!(saves(&fx).is_empty(), "the utterance is still open");
    let fx = r.tick(300);
    let recs = saves(&fx);
    assert!(matches!(&recs[..], [rec] if rec.outcome == Outcome::Interrupted && rec.already_spoken.as_deref() == Some("Half a reply.")), "{recs:?}");
}

#[test]
fn a_spoken_turn_is_marked_and_named_by_its_own_event() {
    let mut r = Rig::new("push");
    let fx = r.cmd(UserCommand::SendVoice { text: "hello there".into() }, 0);
    let begin = fx.iter().find_map(|f| if let Effect::Begin(b) = f { Some(b.clone()) } else { None }).unwrap();
    assert!(begin.spoken);
    assert_eq!(begin.event_name, crate::VOICE_EVENT);
    r.reply(&begin.turn_id, END, 0);
    let fx = r.cmd(UserCommand::SendText { text: "typed".into() }, 1);
    let begin = fx.iter().find_map(|f| if let Effect::Begin(b) = f { Some(b.clone()) } else { None }).unwrap();
    assert!(!begin.spoken);
}

#[test]
fn caption_and_tone_ride_with_the_sentence_and_never_show() {
    let mut r = slow_rig();
    let cue = Cue { emotion_id: Some("curious".into()), emotion_text: Some("😏".into()), caption: Some("gently".into()), ..Cue::default() };
    let fx = raw_reply(
        &mut r,
        "bg",
        ReplyPart::Render { source: None, segments: vec![Segment { cues: vec![cue], speech: "How was it?".into() }], reasoning: None },
        0,
    );
    let req = fx.iter().find_map(|f| if let Effect::Synth { request, .. } = f { Some(request.clone()) } else { None }).unwrap();
    assert_eq!(req.text, "How was it?");
    assert_eq!(req.caption.as_deref(), Some("gently"));
    assert_eq!(req.tone, Some(crate::voice::request::Tone::Free("😏".into())), "free mode by default");
}

fn signal_trigger() -> yui_engine::context::Trigger {
    yui_engine::context::Trigger::new(yui_engine::context::TriggerKind::Signals, Some("signals.push".into()))
}

fn fired(r: &mut Rig, secs: u64) -> Option<Begin> {
    let mut fx = Vec::new();
    let started = r.e.fire(signal_trigger(), r.at(secs), &mut fx);
    let fx = r.played(fx, secs);
    let begin = fx.iter().find_map(|f| if let Effect::Begin(b) = f { Some(b.clone()) } else { None });
    assert_eq!(started, begin.is_some(), "fire says whether it began a turn: {fx:?}");
    begin
}

#[test]
fn a_fired_turn_carries_its_trigger_and_no_text() {
    let mut r = Rig::new("responses");
    assert!(r.e.can_fire());
    let begin = fired(&mut r, 0).expect("an idle engine fires");
    assert_eq!(begin.text, "");
    assert_eq!(begin.event_name, "signals.push", "the trigger's event name names the turn");
    assert_eq!(begin.trigger.as_deref(), Some(&signal_trigger()));
    assert!(!r.e.can_fire(), "one turn at a time");
    assert!(fired(&mut r, 1).is_none());
    r.reply(&begin.turn_id, speech("A push landed."), 2);
    r.reply(&begin.turn_id, END, 2);
    assert!(r.e.can_fire(), "idle again once the reply is said");
}

#[test]
fn a_fired_turn_waits_for_the_user_the_queue_and_the_voice() {
    let mut r = Rig::new("responses");
    let id = r.send("hello", 0);
    assert!(fired(&mut r, 0).is_none(), "never over the user's turn");
    r.cmd(UserCommand::SendText { text: "and then".into() }, 0);
    r.reply(&id, END, 1);
    assert!(fired(&mut r, 1).is_none(), "never before a queued message");
    // The queued message is running now; its reply is still being said.
    let mut fx = Vec::new();
    let next = r.e.running.clone().expect("the queued message runs");
    r.e.on_inbound(Inbound::Reply { turn_id: next.clone(), part: speech("Still talking.") }, r.at(2), &mut fx);
    r.e.on_inbound(Inbound::Reply { turn_id: next, part: END }, r.at(2), &mut fx);
    assert!(!r.e.can_fire(), "she is still saying the reply: {fx:?}");
    let fx = r.played(fx, 3);
    assert!(!fx.is_empty());
    assert!(fired(&mut r, 3).is_some(), "after the reply was said");
}

#[test]
fn a_fired_turn_waits_for_a_connection() {
    let mut e = Engine::new(config("push"));
    let t0 = Instant::now();
    let mut fx = Vec::new();
    assert!(!e.fire(signal_trigger(), Now { at: t0, wall_ms: 0 }, &mut fx));
    assert!(fx.is_empty(), "not ready: nothing fails, nothing is said");
}

fn unsaid(text: &str) -> ReplyPart {
    ReplyPart::Unsaid { text: text.into() }
}

#[test]
fn text_held_at_a_stop_is_recorded_as_never_spoken_and_never_played() {
    let mut r = Rig::new("responses");
    let id = r.send("stop test", 0);
    let fx = r.cmd(UserCommand::Stop, 5);
    assert!(matches!(ui(&fx).last(), Some(UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. })));
    assert!(saves(&fx).is_empty(), "nothing had been spoken");
    // The transport answers the stop with what its segmenter held, then the end.
    let fx = r.reply(&id, unsaid("Before it stopped. "), 5);
    assert!(spoken(&fx).is_empty() && !fx.iter().any(|f| matches!(f, Effect::Synth { .. })), "not played: {fx:?}");
    let rec = saves(&fx).pop().expect("a record");
    assert_eq!(rec.outcome, Outcome::Interrupted);
    assert_eq!(rec.already_spoken, None);
    assert_eq!(rec.never_spoken.as_deref(), Some("Before it stopped."));
    assert_eq!(rec.event_name.as_deref(), Some(crate::USER_EVENT));
    assert_eq!(r.e.previous(), Some(&rec), "the next turn's block carries it");
    assert!(ui(&r.reply(&id, END, 5)).is_empty());
    assert_eq!(r.e.stopped_count(), 0);
}

#[test]
fn text_held_at_a_stall_turns_the_failed_record_into_interrupted() {
    let mut r = Rig::new("chat_completions");
    let id = r.send("hi", 0);
    r.reply(&id, ReplyPart::Alive { after_speech: true }, 1);
    let fx = r.tick(46);
    assert!(sent(&fx).contains(&Outbound::Abandon { turn_id: id.clone() }));
    assert_eq!(saves(&fx).pop().map(|s| s.outcome), Some(Outcome::Failed), "nothing was shown yet");
    let fx = r.reply(&id, unsaid("Before it stopped. "), 46);
    let rec = saves(&fx).pop().expect("a record");
    assert_eq!((rec.outcome, rec.never_spoken.as_deref()), (Outcome::Interrupted, Some("Before it stopped.")));
    assert!(spoken(&fx).is_empty());
    r.reply(&id, END, 46);
}

#[test]
fn an_error_after_held_text_is_interrupted_not_failed() {
    let mut r = Rig::new("responses");
    let id = r.send("hi", 0);
    r.reply(&id, speech("Hello."), 1);
    r.reply(&id, unsaid("And then"), 2);
    r.reply(&id, ReplyPart::Error { message: "HTTP 500: upstream".into() }, 2);
    let fx = r.reply(&id, END, 2);
    assert!(matches!(ui(&fx).last(), Some(UiEvent::TurnEnded { outcome: TurnOutcome::Failed, error: Some(e), .. }) if e == "HTTP 500: upstream"));
    let recs = saves(&fx);
    assert!(recs.iter().all(|r| r.outcome == Outcome::Interrupted), "{recs:?}");
    let rec = recs.last().expect("a record");
    assert_eq!((rec.already_spoken.as_deref(), rec.never_spoken.as_deref()), (Some("Hello."), Some("And then")));

    // Nothing spoken before the error: the held text alone, still interrupted.
    let id = r.send("again", 3);
    r.reply(&id, unsaid("Only this"), 4);
    r.reply(&id, ReplyPart::Error { message: "HTTP 500: upstream".into() }, 4);
    let fx = r.reply(&id, END, 4);
    assert!(saves(&fx).iter().all(|r| r.outcome != Outcome::Failed), "{fx:?}");
    assert_eq!(r.e.previous().map(|p| (p.outcome, p.never_spoken.clone())), Some((Outcome::Interrupted, Some("Only this".into()))));
    assert!(!sent(&fx).contains(&Outbound::Playback { turn_id: id }), "not a failed record");
}

#[test]
fn a_message_of_the_chat_of_several_characters_says_whom_it_was_for_and_queues_like_any() {
    use yui_engine::context::AddressedTo;
    use yui_protocol::command::Addressee;
    let mut r = Rig::new("push");
    let begin_of = |fx: &Effects| fx.iter().find_map(|f| if let Effect::Begin(b) = f { Some(b.clone()) } else { None });
    let fx = r.cmd(UserCommand::SendAddressed { text: "@Ann hi".into(), to: Addressee::Character }, 0);
    let first = begin_of(&fx).expect("a turn");
    assert_eq!((first.text.as_str(), first.addressed, first.trigger.is_none()), ("@Ann hi", Some(AddressedTo::Character), true));
    assert_eq!(first.event_name, USER_EVENT);
    // Behind the running turn it waits, and keeps whom it was for.
    let fx = r.cmd(UserCommand::SendAddressed { text: "@everyone night".into(), to: Addressee::Everyone }, 1);
    assert_eq!(ui(&fx), vec![UiEvent::TurnQueued { text: "@everyone night".into(), queued: 1 }]);
    let fx = r.reply(&first.turn_id, END, 2);
    let second = begin_of(&fx).expect("the queued turn");
    assert_eq!(second.addressed, Some(AddressedTo::Everyone), "{fx:?}");
    r.reply(&second.turn_id, END, 3);
    // A plain message addresses nobody.
    let fx = r.cmd(UserCommand::SendText { text: "plain".into() }, 4);
    assert_eq!(begin_of(&fx).map(|b| b.addressed), Some(None));
}
