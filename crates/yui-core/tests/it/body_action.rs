//! `body_action` and the user's hold through a whole session over push,
//! against a fake desktop (one 1280×800 display, a Notes window, a pet
//! window the core places) with the wall clock under the test's control:
//! every answer word for word, a grab interrupting a move, a sit released
//! when its window moves, the drag cues, and a bad `avatar.json` key
//! failing the start by name.

use crate::common;
use common::*;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use yui_core::clock::ManualClock;
use yui_core::command::DragPhase;
use yui_core::context::PostureState;
use yui_core::picture::capture::{CaptureError, Display, WindowInfo};
use yui_core::tools::{Desk, PetWindow};
use yui_core::{CollectingSink, DataDir, Session, SessionConfig, Settings, UiEvent, UserCommand};
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

/// 2026-12-01 07:05 UTC.
const T0: i64 = 1_796_108_700_000;

/// The shipped body's soles and hips above the window's bottom (scale 1).
fn feet() -> i32 {
    yui_core::body::BodyTunables::shipped().feet_from_bottom as i32
}
fn seat() -> i32 {
    yui_core::body::BodyTunables::shipped().seat_from_bottom as i32
}

/// A desktop the core can place the pet window on.
struct FakeDesk {
    pet: Mutex<(i32, i32)>,
    pointer: Mutex<(i32, i32)>,
    /// The desktop cannot tell where the pointer is (a layer-shell pet).
    blind: bool,
    windows: Mutex<Vec<WindowInfo>>,
    placeable: bool,
    /// Every keep_above the core asked for, in order.
    above: Mutex<Vec<bool>>,
    /// The window reports no size yet (0 × 0).
    no_size: std::sync::atomic::AtomicBool,
    /// Placing is asynchronous: the window reports its old place for now.
    lagging: std::sync::atomic::AtomicBool,
    /// Every place the core asked for, in order.
    placed: Mutex<Vec<(i32, i32)>>,
}

impl FakeDesk {
    fn new(placeable: bool) -> Arc<Self> {
        // Standing on the floor at x = 200.
        Arc::new(FakeDesk {
            pet: Mutex::new((20, 800 - 520 + feet())),
            pointer: Mutex::new((0, 0)),
            blind: false,
            windows: Mutex::new(vec![notes(600)]),
            placeable,
            above: Mutex::new(Vec::new()),
            no_size: Default::default(),
            lagging: Default::default(),
            placed: Mutex::new(Vec::new()),
        })
    }
    fn pet(&self) -> (i32, i32) {
        *self.pet.lock().unwrap()
    }
}

fn notes(x: i32) -> WindowInfo {
    WindowInfo { app: "Notes".into(), title: "todo.txt".into(), monitor: 0, x, y: 400, width: 500, height: 300 }
}

impl Desk for FakeDesk {
    fn displays(&self) -> Result<Vec<Display>, CaptureError> {
        Ok(vec![Display { index: 0, label: "Fake".into(), x: 0, y: 0, width: 1280, height: 800, scale: 1.0, primary: true }])
    }
    fn windows(&self) -> Result<Vec<WindowInfo>, CaptureError> {
        Ok(self.windows.lock().unwrap().clone())
    }
    fn has_body(&self) -> bool {
        true
    }
    fn pet_window(&self) -> Option<PetWindow> {
        let (x, y) = self.pet();
        let (width, height) = if self.no_size.load(std::sync::atomic::Ordering::SeqCst) { (0, 0) } else { (360, 520) };
        Some(PetWindow { x, y, width, height, scale: 1.0 })
    }
    fn can_place(&self) -> bool {
        self.placeable
    }
    fn place_pet(&self, x: i32, y: i32) {
        self.placed.lock().unwrap().push((x, y));
        if !self.lagging.load(std::sync::atomic::Ordering::SeqCst) {
            *self.pet.lock().unwrap() = (x, y);
        }
    }
    fn pointer(&self) -> Option<(i32, i32)> {
        (!self.blind).then(|| *self.pointer.lock().unwrap())
    }
    fn keep_above(&self, above: bool) {
        self.above.lock().unwrap().push(above);
    }
}

/// A desktop whose frontmost app is fullscreen while the flag is set.
struct Frontmost(Mutex<bool>);

impl yui_core::world::DesktopFacts for Frontmost {
    fn frontmost(&self) -> Option<yui_core::world::Sample> {
        Some(yui_core::world::Sample { app: "Player".into(), title: "film".into(), pid: None, fullscreen: *self.0.lock().unwrap() })
    }
    fn idle_ms(&self) -> Option<u64> {
        Some(0)
    }
}

#[tokio::test]
async fn she_steps_back_while_a_fullscreen_app_is_frontmost() {
    let desk = FakeDesk::new(true);
    let dir = tempfile::tempdir().unwrap();
    let facts = Arc::new(Frontmost(Mutex::new(false)));
    let mut cfg = SessionConfig::new(
        Settings::from(yui_core::settings::CharacterSettings { chat_base_url: "http://127.0.0.1:9".into(), key: "k".into(), ..Default::default() }),
        DataDir::new(dir.path()).unwrap(),
    );
    cfg.desk = desk.clone();
    cfg.world = facts.clone();
    let _session = Session::start(cfg, Arc::new(CollectingSink::new())).expect("session");
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(desk.above.lock().unwrap().is_empty(), "nothing to change while no app is fullscreen");
    *facts.0.lock().unwrap() = true;
    let until = |want: Vec<bool>| {
        let desk = desk.clone();
        async move {
            let deadline = std::time::Instant::now() + WAIT;
            while *desk.above.lock().unwrap() != want {
                assert!(std::time::Instant::now() < deadline, "keep_above calls {:?}, wanted {want:?}", desk.above.lock().unwrap());
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    until(vec![false]).await;
    *facts.0.lock().unwrap() = false;
    until(vec![false, true]).await;
}

/// The shipped body, slower walks so a grab lands mid-move, no ambient walks.
fn avatar_json(walk_speed: Value) -> String {
    let shipped: Value = serde_json::from_str(include_str!("../../../../configs/avatar.json")).unwrap();
    let mut body = shipped["body"].clone();
    body["walk_speed"] = walk_speed;
    body["ambient_walk_every_ms"] = json!(0);
    body["drag_held_ms"] = json!(2000);
    json!({ "body": body }).to_string()
}

async fn session(desk: Arc<FakeDesk>, avatar: &str) -> (Session, CollectingSink, Arc<ManualClock>, MockServer, tempfile::TempDir) {
    let scenario = Scenario::from_json(r#"{"steps": [{"expect": "turn"}, {"sleep_ms": 60000}]}"#).unwrap();
    let mock = MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..MockConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("avatar.json"), avatar).unwrap();
    // She stood on the floor at the left last time (where the fake desk has her).
    std::fs::write(dir.path().join(yui_core::placement::PLACES_FILE), json!({"default": [20, 800 - 520 + feet()]}).to_string()).unwrap();
    let settings = Settings::from(yui_core::settings::CharacterSettings { chat_base_url: mock.base_url(), key: "k".into(), ..Default::default() });
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
    cfg.timeouts = fast_timeouts();
    cfg.desk = desk;
    let clock = ManualClock::at(T0);
    cfg.clock = clock.clone();
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    assert!(session.wait_ready(WAIT).await);
    (session, sink, clock, mock, dir)
}

async fn turn(mock: &MockServer, session: &Session) -> String {
    session.send(UserCommand::SendText { text: "go".into() }).unwrap();
    let turn = mock.wait_for_frame("turn", 0, WAIT).await.expect("turn frame");
    turn["turn_id"].as_str().unwrap().to_string()
}

/// Push a tool_call, let the clock run 50 ms per real ms until its
/// tool_result arrives, and return the result string.
async fn call(mock: &MockServer, clock: &ManualClock, turn_id: &str, id: &str, arguments: Value) -> String {
    assert!(mock.push(json!({"type": "tool_call", "id": id, "turn_id": turn_id, "name": "body_action", "arguments": arguments})).await);
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        if let Some(r) = mock.received().into_iter().find(|f| f["type"] == "tool_result" && f["id"] == id) {
            return r["result"].as_str().unwrap().to_string();
        }
        assert!(std::time::Instant::now() < deadline, "no tool_result for {id}");
        clock.advance(50);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// Push a render segment cueing `happy` and `wave`; the cue the page gets.
async fn render_cue(mock: &MockServer, sink: &CollectingSink, turn_id: &str) -> (Option<String>, Option<String>) {
    let before = sink.events().iter().filter(|e| matches!(e, UiEvent::Cue { .. })).count();
    let segment = json!({"cues": [{"emotion_id": "happy", "motion_id": "wave"}], "speech": "[SILENT]"});
    assert!(mock.push(json!({"type": "render", "turn_id": turn_id, "segments": [segment]})).await);
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let cues: Vec<_> = sink.events().into_iter().filter_map(|e| if let UiEvent::Cue { cue, .. } = e { Some(cue) } else { None }).collect();
        if let Some(cue) = cues.get(before) {
            return (cue.emotion_id.clone(), cue.motion_id.clone());
        }
        assert!(std::time::Instant::now() < deadline, "no cue");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

fn last_posture(sink: &CollectingSink) -> Option<PostureState> {
    sink.events().into_iter().rev().find_map(|e| match e {
        UiEvent::Body { posture, .. } => Some(posture),
        _ => None,
    })
}

/// Let the clock run until the last `body` event says `posture`.
async fn becomes(sink: &CollectingSink, clock: &ManualClock, posture: PostureState) {
    let deadline = std::time::Instant::now() + WAIT;
    while last_posture(sink) != Some(posture) {
        assert!(std::time::Instant::now() < deadline, "never {posture:?}; last {:?}", last_posture(sink));
        clock.advance(50);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

#[tokio::test]
async fn every_action_answers_word_for_word_and_moves_the_window() {
    let desk = FakeDesk::new(true);
    let (session, sink, clock, mock, _dir) = session(desk.clone(), &avatar_json(json!(400))).await;
    let hello = mock.wait_for_frame("hello", 0, WAIT).await.unwrap();
    let names: Vec<&str> = hello["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"body_action"), "the main pet window declares body_action: {names:?}");
    let t = turn(&mock, &session).await;

    assert_eq!(call(&mock, &clock, &t, "a", json!({"action": "sit_on_window", "app": "Mail"})).await, "error: not_found");
    assert_eq!(call(&mock, &clock, &t, "b", json!({"action": "move_to", "spot": "center", "monitor": 2})).await, "error: not_found");
    assert_eq!(call(&mock, &clock, &t, "c", json!({"action": "fly"})).await, "error: invalid field action");
    // A motion plays while she stands...
    assert_eq!(render_cue(&mock, &sink, &t).await, (Some("happy".into()), Some("wave".into())));
    assert_eq!(call(&mock, &clock, &t, "d", json!({"action": "sit_on_window", "app": "notes"})).await, "ok: sitting on Notes");
    // ...and is dropped while she sits; the expression stays.
    assert_eq!(render_cue(&mock, &sink, &t).await, (Some("happy".into()), None));
    // Her hips on the Notes window's top edge.
    let (x, y) = desk.pet();
    assert_eq!(y + 520 - seat(), 400, "seated on the edge at {x},{y}");
    assert!((600..1100).contains(&(x + 180)), "over the window: {x}");
    assert!(
        sink.events().iter().any(|e| matches!(e, UiEvent::Body { posture: PostureState::Climbing, gait: Some(yui_core::body::Gait::Climb), .. })),
        "she climbed its side"
    );

    assert_eq!(call(&mock, &clock, &t, "e", json!({"action": "peek", "side": "right"})).await, "ok: peeking on Notes");
    let peek = sink.events().into_iter().rev().find_map(|e| match e {
        UiEvent::Body { peek: Some(p), .. } => Some(p),
        _ => None,
    });
    assert_eq!(peek.map(|p| (p.side, p.edge)), Some((yui_core::body::Side::Right, Some(180.0))), "the edge runs through her middle");
    assert_eq!(call(&mock, &clock, &t, "f", json!({"action": "stand_down"})).await, "ok: standing");
    assert_eq!(desk.pet().1 + 520 - feet(), 800, "on the floor");
    let below = || {
        sink.events().into_iter().rev().find_map(|e| match e {
            UiEvent::Body { below, .. } => Some(below),
            _ => None,
        })
    };
    assert_eq!(below(), Some(Some(feet() as f64)), "on the floor the strip under her feet hangs below the display: the page lifts its controls");
    assert_eq!(call(&mock, &clock, &t, "g", json!({"action": "move_to", "spot": "top-left"})).await, "ok: standing");
    assert_eq!(desk.pet(), (20, 20), "inset from the corner by 1/40 of the display");
    assert_eq!(below(), Some(None), "all of her window on the display: nothing to lift");
    assert_eq!(call(&mock, &clock, &t, "h", json!({"action": "go_to_bed"})).await, "ok: lying");
    assert_eq!(call(&mock, &clock, &t, "i", json!({"action": "peek", "side": "left"})).await, "error: busy");
    assert_eq!(call(&mock, &clock, &t, "j", json!({"action": "get_up"})).await, "ok: standing");
    // She starts where she stood last.
    let places: Value = serde_json::from_str(&std::fs::read_to_string(_dir.path().join(yui_core::placement::PLACES_FILE)).unwrap()).unwrap();
    assert_eq!(places["default"], json!([20, 20]), "keyed by the character (the bundled one): {places}");
    drop(session);
    let desk2 = FakeDesk::new(true);
    let mut cfg = SessionConfig::new(
        Settings::from(yui_core::settings::CharacterSettings { chat_base_url: mock.base_url(), key: "k".into(), ..Default::default() }),
        DataDir::new(_dir.path()).unwrap(),
    );
    cfg.desk = desk2.clone();
    let _again = Session::start(cfg, Arc::new(CollectingSink::new())).expect("session");
    let deadline = std::time::Instant::now() + WAIT;
    while desk2.pet() != (20, 20) {
        assert!(std::time::Instant::now() < deadline, "not restored: {:?}", desk2.pet());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        !mock.received().iter().any(|f| f["type"] == "turn" && f["client_context"].as_str().unwrap_or("").contains("\nwake:")),
        "get_up fires no wake turn"
    );
}

#[tokio::test]
async fn a_grab_interrupts_a_move_and_a_moved_window_lets_her_fall() {
    let desk = FakeDesk::new(true);
    let (session, sink, clock, mock, _dir) = session(desk.clone(), &avatar_json(json!(100))).await;
    let t = turn(&mock, &session).await;
    assert!(
        mock.push(json!({"type": "tool_call", "id": "m", "turn_id": t, "name": "body_action", "arguments": {"action": "move_to", "spot": "bottom-right"}}))
            .await
    );
    becomes(&sink, &clock, PostureState::Walking).await;
    clock.advance(500);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mid = desk.pet();
    assert!(mid.0 > 20, "under way: {mid:?}");
    *desk.pointer.lock().unwrap() = (mid.0 + 100, mid.1 + 100);
    session.send(UserCommand::Drag { phase: DragPhase::Start, at: None }).unwrap();
    let result = tokio::time::timeout(WAIT, async {
        loop {
            if let Some(r) = mock.received().into_iter().find(|f| f["type"] == "tool_result" && f["id"] == "m") {
                return r["result"].as_str().unwrap().to_string();
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .unwrap();
    assert_eq!(result, "error: interrupted", "the user wins");
    becomes(&sink, &clock, PostureState::Dragging).await;
    assert!(mock.push(json!({"type": "turn_end", "turn_id": t})).await);
    ended(&sink).await;
    // Carried up over the Notes window and held past drag_held_ms: the cue's turn.
    let target = (700 - 180 + 100, 400 - (520 - feet()) - 10 + 100);
    *desk.pointer.lock().unwrap() = target;
    session.send(UserCommand::Drag { phase: DragPhase::Move, at: None }).unwrap();
    clock.advance(2_100);
    let cue = mock.wait_for_frame("turn", 1, WAIT).await.expect("the drag_held cue's turn");
    assert!(cue["client_context"].as_str().unwrap().contains("trigger: proactive cue \"drag held\""), "{cue}");
    assert!(cue["client_context"].as_str().unwrap().contains("\nbody: dragging"), "{cue}");
    // Let go just above its top: she sits on it.
    session.send(UserCommand::Drag { phase: DragPhase::End, at: None }).unwrap();
    becomes(&sink, &clock, PostureState::Sitting).await;
    // The window moves away: she falls to the floor.
    *desk.windows.lock().unwrap() = vec![notes(900)];
    becomes(&sink, &clock, PostureState::Standing).await;
    let deadline = std::time::Instant::now() + WAIT;
    while desk.pet().1 + 520 - feet() != 800 {
        assert!(std::time::Instant::now() < deadline, "never reached the floor: {:?}", desk.pet());
        clock.advance(50);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

#[tokio::test]
async fn without_a_placeable_window_moves_are_unsupported_and_a_bad_key_stops_the_start() {
    let desk = FakeDesk::new(false);
    let (session, _sink, clock, mock, _dir) = session(desk.clone(), &avatar_json(json!(100))).await;
    let t = turn(&mock, &session).await;
    assert_eq!(call(&mock, &clock, &t, "u", json!({"action": "move_to", "spot": "center"})).await, "error: unsupported");
    assert_eq!(desk.pet(), (20, 800 - 520 + feet()), "not moved");
    // The user's hold goes to the system instead.
    session.send(UserCommand::Drag { phase: DragPhase::Start, at: None }).unwrap();
    assert!(_sink.wait_for(WAIT, |e| matches!(e, UiEvent::DragBySystem)).await.is_some(), "the page is told to let the system drag");

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("avatar.json"), avatar_json(json!("fast"))).unwrap();
    let settings = Settings::from(yui_core::settings::CharacterSettings { chat_base_url: mock.base_url(), key: "k".into(), ..Default::default() });
    let cfg = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
    let err = Session::start(cfg, Arc::new(CollectingSink::new())).err().expect("a bad key stops the start");
    assert!(err.to_string().contains("body.walk_speed"), "{err}");
}

#[tokio::test]
async fn without_a_global_pointer_the_hold_follows_the_page_point() {
    let desk = Arc::new(FakeDesk { blind: true, ..Arc::into_inner(FakeDesk::new(true)).unwrap() });
    let (session, sink, clock, _mock, _dir) = session(desk.clone(), &avatar_json(json!(400))).await;
    let (x0, y0) = desk.pet();
    let at = |x, y| Some(yui_core::command::PagePoint { x, y });
    session.send(UserCommand::Drag { phase: DragPhase::Start, at: at(180, 300) }).unwrap();
    becomes(&sink, &clock, PostureState::Dragging).await;
    // The pointer moved 50 px right and 200 up on the page of the window where it was.
    session.send(UserCommand::Drag { phase: DragPhase::Move, at: at(230, 100) }).unwrap();
    let deadline = std::time::Instant::now() + WAIT;
    while desk.pet() != (x0 + 50, y0 - 200) {
        assert!(std::time::Instant::now() < deadline, "the window did not follow the page's point: {:?}", desk.pet());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The window followed, so the pointer is back on the grabbed point of
    // her page: held there, she stays; let go there, she falls straight down.
    session.send(UserCommand::Drag { phase: DragPhase::Move, at: at(180, 300) }).unwrap();
    session.send(UserCommand::Drag { phase: DragPhase::End, at: at(180, 300) }).unwrap();
    becomes(&sink, &clock, PostureState::Standing).await;
    let deadline = std::time::Instant::now() + WAIT;
    while desk.pet() != (x0 + 50, y0) {
        assert!(std::time::Instant::now() < deadline, "she did not fall back to the floor: {:?}", desk.pet());
        clock.advance(50);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

#[tokio::test]
async fn a_first_start_puts_her_on_the_floor_towards_the_right() {
    // The window has no size yet when the session starts (as on X11), and
    // it still reports its old place after being placed (X11 moves it
    // later, when the window manager has answered).
    let desk = FakeDesk::new(true);
    desk.no_size.store(true, std::sync::atomic::Ordering::SeqCst);
    desk.lagging.store(true, std::sync::atomic::Ordering::SeqCst);
    *desk.pet.lock().unwrap() = (0, 0);
    let mock = MockServer::start(MockConfig { pace: 0.0, ..MockConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = SessionConfig::new(
        Settings::from(yui_core::settings::CharacterSettings { chat_base_url: mock.base_url(), key: "k".into(), ..Default::default() }),
        DataDir::new(dir.path()).unwrap(),
    );
    cfg.desk = desk.clone();
    let sink = Arc::new(CollectingSink::new());
    let session = Session::start(cfg, sink.clone()).expect("session");
    let home = (1280 - 1280 / 20 - 360, 800 - 520 + feet());
    let deadline = std::time::Instant::now() + WAIT;
    while desk.placed.lock().unwrap().first() != Some(&home) {
        assert!(std::time::Instant::now() < deadline, "no place remembered: she should stand at {home:?}, not {:?}", desk.placed.lock().unwrap());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Her feet are on the floor, so the strip under them hangs below the
    // display: the page hears it at once (and from `body()` when it loads
    // later), not at her first move.
    let event = sink.wait_for(WAIT, |e| matches!(e, UiEvent::Body { below: Some(_), .. })).await;
    assert!(
        matches!(event, Some(UiEvent::Body { below: Some(b), .. }) if b == feet() as f64),
        "the first body event lifts her controls by her feet's strip: {event:?}"
    );
    assert!(
        matches!(session.body(), UiEvent::Body { below: Some(b), .. } if b == feet() as f64),
        "a page that loads later reads the lift too: {:?}",
        session.body()
    );
}

#[tokio::test]
async fn the_grab_is_where_the_button_went_down_not_where_the_pointer_is_by_then() {
    let desk = FakeDesk::new(true);
    let (session, sink, clock, _mock, _dir) = session(desk.clone(), &avatar_json(json!(400))).await;
    let (x0, y0) = desk.pet();
    // Pressed at (180, 300) on her window; by the time the start arrives
    // the pointer is already 60 px further right.
    *desk.pointer.lock().unwrap() = (x0 + 180 + 60, y0 + 300);
    session.send(UserCommand::Drag { phase: DragPhase::Start, at: Some(yui_core::command::PagePoint { x: 180, y: 300 }) }).unwrap();
    becomes(&sink, &clock, PostureState::Dragging).await;
    *desk.pointer.lock().unwrap() = (x0 + 180 + 120, y0 + 300);
    session.send(UserCommand::Drag { phase: DragPhase::Move, at: None }).unwrap();
    let deadline = std::time::Instant::now() + WAIT;
    while desk.pet() != (x0 + 120, y0) {
        assert!(std::time::Instant::now() < deadline, "she trails the hand: {:?} for a hand 120 px on", desk.pet());
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn her_last_place_is_restored_even_before_the_window_has_its_size() {
    // The window reports 0 × 0 when the session starts (as on X11); the
    // remembered place is still on the display and must be used, not
    // taken for "off every display".
    let desk = FakeDesk::new(true);
    desk.no_size.store(true, std::sync::atomic::Ordering::SeqCst);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(yui_core::placement::PLACES_FILE), r#"{"default": [20, 20]}"#).unwrap();
    let mut cfg = SessionConfig::new(
        Settings::from(yui_core::settings::CharacterSettings { chat_base_url: "http://127.0.0.1:9".into(), key: "k".into(), ..Default::default() }),
        DataDir::new(dir.path()).unwrap(),
    );
    cfg.desk = desk.clone();
    let _session = Session::start(cfg, Arc::new(CollectingSink::new())).expect("session");
    let deadline = std::time::Instant::now() + WAIT;
    while desk.placed.lock().unwrap().is_empty() {
        assert!(std::time::Instant::now() < deadline, "never placed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(desk.placed.lock().unwrap()[0], (20, 20), "where she stood last, not the home place");
}
