use super::*;
use crate::event::UiEvent;
use serde_json::json;

fn book() -> TurnBook {
    let mut b = TurnBook::new(Duration::from_secs(240), Box::new(|| "<client_context>\n</client_context>".into()));
    b.set_ready();
    b
}

fn frame(v: serde_json::Value) -> ServerFrame {
    serde_json::from_value(v).unwrap()
}

fn start(b: &mut TurnBook, now: Instant) -> String {
    let mut fx = Effects::default();
    b.send_text("hi".into(), now, &mut fx);
    match &fx.frames[0] {
        ClientFrame::Turn { turn_id, .. } => turn_id.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn backend_minted_render_plays_and_unknown_turn_end_is_ignored() {
    let mut b = book();
    let now = Instant::now();
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"render","turn_id":"bg-1","segments":[{"speech":"Report ready."}]})), now, &mut fx);
    b.on_frame(frame(json!({"type":"turn_end","turn_id":"bg-1"})), now, &mut fx);
    assert_eq!(fx.events, vec![UiEvent::Speech { turn_id: "bg-1".into(), text: "Report ready.".into() }]);
    assert!(!b.busy());
}

#[test]
fn wait_after_first_render_ends_complete_and_keeps_the_turn_outstanding() {
    let mut b = book();
    let t0 = Instant::now();
    let id = start(&mut b, t0);
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"speech","turn_id":id,"segments":[{"speech":"One."}]})), t0, &mut fx);
    assert_eq!(b.next_deadline(), Some(t0 + Duration::from_secs(240)));
    let mut fx = Effects::default();
    b.tick(t0 + Duration::from_secs(241), &mut fx);
    assert!(matches!(&fx.events[..], [UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }]), "{:?}", fx.events);
    assert!(!b.busy());
    // Still outstanding: a stop names it.
    let mut fx = Effects::default();
    b.stop(t0, &mut fx);
    assert!(matches!(&fx.frames[..], [ClientFrame::Stop { turn_ids }] if turn_ids == &vec![id.clone()]));
}

#[test]
fn every_frame_of_the_turn_restarts_the_wait() {
    let mut b = book();
    let t0 = Instant::now();
    let id = start(&mut b, t0);
    let later = t0 + Duration::from_secs(200);
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"tool_status","turn_id":id,"state":"running","tool_id":"x"})), later, &mut fx);
    assert_eq!(b.next_deadline(), Some(later + Duration::from_secs(240)));
    let mut fx = Effects::default();
    b.tick(t0 + Duration::from_secs(241), &mut fx);
    assert!(fx.events.is_empty(), "the tool_status frame moved the deadline");
}

#[test]
fn a_typed_turn_stops_older_outstanding_turns() {
    let mut b = book();
    let t0 = Instant::now();
    let first = start(&mut b, t0);
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"speech","turn_id":first,"segments":[{"speech":"a"}]})), t0, &mut fx);
    b.tick(t0 + Duration::from_secs(300), &mut fx); // wait passes; first stays outstanding
    let _second = start(&mut b, t0 + Duration::from_secs(301));
    assert!(b.is_stopped(&first));
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"render","turn_id":first,"segments":[{"speech":"late"}]})), t0, &mut fx);
    assert!(fx.events.is_empty(), "the older turn's late render is dropped");
}

#[test]
fn browser_tool_status_leaves_the_pill_alone() {
    let mut b = book();
    let t0 = Instant::now();
    let id = start(&mut b, t0);
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"tool_status","turn_id":id,"state":"running","tool_id":"browser"})), t0, &mut fx);
    assert!(fx.events.is_empty());
}

#[test]
fn silent_render_speaks_nothing_but_plays_cues() {
    let mut b = book();
    let t0 = Instant::now();
    let id = start(&mut b, t0);
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"render","turn_id":id,"segments":[{"cues":[{"emotion_id":"sad"}],"speech":"  [SILENT] "}]})), t0, &mut fx);
    assert!(matches!(&fx.events[..], [UiEvent::Cue { .. }]), "{:?}", fx.events);
}

#[test]
fn stop_names_and_drops_a_turn_the_backend_started() {
    let mut b = book();
    let t0 = Instant::now();
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"speech","turn_id":"bg-7","segments":[{"speech":"Report part one."}]})), t0, &mut fx);
    let mut fx = Effects::default();
    b.stop(t0, &mut fx);
    assert!(matches!(&fx.frames[..], [ClientFrame::Stop { turn_ids }] if turn_ids == &vec!["bg-7".to_string()]), "{:?}", fx.frames);
    let mut fx = Effects::default();
    b.on_frame(frame(json!({"type":"render","turn_id":"bg-7","segments":[{"speech":"Part two."}]})), t0, &mut fx);
    assert!(fx.events.is_empty(), "the rest of a stopped backend turn is dropped");
    b.on_frame(frame(json!({"type":"turn_end","turn_id":"bg-7"})), t0, &mut fx);
    assert!(!b.is_stopped("bg-7"), "forgotten on its turn_end");
}
