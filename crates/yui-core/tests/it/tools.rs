//! The client tools over the wire: every tool's answers word for word over
//! push `tool_call` frames and over request-transport round trips against
//! yui-mock; switches read when the call runs; pictures fitted into the
//! frame or request; the turn screenshot on all three transports.

use crate::common;
use common::sse::*;
use common::*;
use futures_util::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use yui_core::model::ToolState;
use yui_core::picture::capture::{CaptureError, Display, WindowInfo};
use yui_core::picture::Picture;
use yui_core::tools::{Browser, BrowserError, Desk, Page, Shot};
use yui_core::transport::agent_chat::{ApprovalDecision, ChatEvent};
use yui_core::{ChatApi, CollectingSink, DataDir, Session, SessionConfig, Settings, UiEvent, UserCommand};
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

/// A small "JPEG" the fitter passes through as it is (it fits any share).
fn small_picture() -> Picture {
    Picture::Encoded { mime: "jpeg".into(), bytes: Arc::new(vec![0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4, 5, 6, 7, 8]) }
}

/// A picture no JPEG can make small enough for a tiny frame.
fn big_picture() -> Picture {
    Picture::Encoded { mime: "png".into(), bytes: Arc::new((0..200_000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect()) }
}

/// Raw pixels, as a capture gives them: the fitter must encode them.
fn rgba_picture() -> Picture {
    let (w, h) = (64u32, 48u32);
    let mut px = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            px.extend_from_slice(&[(x * 4) as u8, (y * 5) as u8, 128, 255]);
        }
    }
    Picture::Rgba { width: w, height: h, pixels: Arc::new(px) }
}

#[derive(Default)]
struct FakeBrowser {
    calls: Mutex<Vec<String>>,
}

impl Browser for FakeBrowser {
    fn open(&self, url: url::Url) -> BoxFuture<'static, Result<Page, BrowserError>> {
        self.calls.lock().unwrap().push(format!("open {url}"));
        let slow = url.path() == "/slow";
        Box::pin(async move {
            if slow {
                tokio::time::sleep(Duration::from_secs(20)).await;
            }
            Ok(Page { url: format!("{url}final"), title: "A \"quoted\"\ntitle".into() })
        })
    }
    fn read(&self) -> BoxFuture<'static, Result<(Page, String), BrowserError>> {
        self.calls.lock().unwrap().push("read".into());
        let text = format!("First   line\n\n second {}", "x".repeat(40_000));
        Box::pin(async move { Ok((Page { url: "https://example.com/".into(), title: "Example".into() }, text)) })
    }
    fn screenshot(&self) -> BoxFuture<'static, Result<(Page, Picture), BrowserError>> {
        Box::pin(async { Ok((Page { url: "https://example.com/".into(), title: "Example".into() }, small_picture())) })
    }
    fn back(&self) -> BoxFuture<'static, Result<(), BrowserError>> {
        Box::pin(async { Err(BrowserError::NoEarlierPage) })
    }
    fn close(&self) -> BoxFuture<'static, Result<(), BrowserError>> {
        Box::pin(async { Ok(()) })
    }
}

/// A desktop with one display, two windows and a browser; captures answer
/// `picture`.
struct FakeDesk {
    picture: Mutex<Picture>,
    browser: Arc<FakeBrowser>,
    shots: Mutex<Vec<Shot>>,
}

impl FakeDesk {
    fn new(picture: Picture) -> Arc<Self> {
        Arc::new(Self { picture: Mutex::new(picture), browser: Arc::default(), shots: Mutex::default() })
    }
}

fn windows() -> Vec<WindowInfo> {
    vec![
        WindowInfo { app: "Code".into(), title: "main.rs".into(), monitor: 0, x: 10, y: 20, width: 800, height: 600 },
        WindowInfo { app: "Firefox".into(), title: "News".into(), monitor: 1, x: 1930, y: 0, width: 1000, height: 700 },
    ]
}

impl Desk for FakeDesk {
    fn open_characters(&self) -> Vec<String> {
        vec!["Mio".into(), "user".into()]
    }
    fn pet_point(&self) -> Option<(i32, i32)> {
        Some((2000, 300))
    }
    fn displays(&self) -> Result<Vec<Display>, CaptureError> {
        let d =
            |index: usize, x: i32, label: &str, primary: bool| Display { index, label: label.into(), x, y: 0, width: 1920, height: 1080, scale: 1.0, primary };
        Ok(vec![d(0, 0, "Fake Left", true), d(1, 1920, "Fake Right", false)])
    }
    fn windows(&self) -> Result<Vec<WindowInfo>, CaptureError> {
        Ok(windows())
    }
    fn capture(&self, shot: Shot) -> BoxFuture<'static, Result<Picture, CaptureError>> {
        self.shots.lock().unwrap().push(shot);
        let p = self.picture.lock().unwrap().clone();
        Box::pin(async move { Ok(p) })
    }
    fn browser(&self) -> Option<Arc<dyn Browser>> {
        Some(self.browser.clone())
    }
}

fn session_with(settings: Settings, dir: &std::path::Path, desk: Arc<FakeDesk>) -> (Session, CollectingSink) {
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir).unwrap());
    cfg.timeouts = fast_timeouts();
    cfg.desk = desk;
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    (session, sink)
}

/// A push mock that takes one turn and then waits (the test pushes frames).
async fn push_mock(max_turn_bytes: Option<u64>) -> MockServer {
    let scenario = Scenario::from_json(r#"{"steps": [{"expect": "turn"}, {"sleep_ms": 60000}]}"#).unwrap();
    MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, max_turn_bytes, ..MockConfig::default() }).await.unwrap()
}

/// Push a tool_call for `turn_id` and wait for its tool_result.
async fn call(mock: &MockServer, turn_id: &str, id: &str, name: &str, arguments: Value) -> Value {
    assert!(mock.push(json!({"type": "tool_call", "id": id, "turn_id": turn_id, "name": name, "arguments": arguments})).await);
    let found = tokio::time::timeout(WAIT, async {
        loop {
            if let Some(r) = mock.received().into_iter().find(|f| f["type"] == "tool_result" && f["id"] == id) {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    found.unwrap_or_else(|_| panic!("no tool_result for {id}"))
}

/// Push a gated call, answer its approval card with `decision`, and wait
/// for its tool_result.
async fn call_answered(
    mock: &MockServer,
    session: &Session,
    sink: &CollectingSink,
    turn_id: &str,
    id: &str,
    (name, arguments): (&str, Value),
    decision: ApprovalDecision,
) -> Value {
    assert!(mock.push(json!({"type": "tool_call", "id": id, "turn_id": turn_id, "name": name, "arguments": arguments})).await);
    let asked = sink
        .wait_for(WAIT, |e| matches!(e, UiEvent::Chat { event: ChatEvent::ApprovalRequest { call_id, .. } } if call_id == id))
        .await
        .unwrap_or_else(|| panic!("no approval card for {id}"));
    let UiEvent::Chat { event: ChatEvent::ApprovalRequest { approval_id, .. } } = asked else { unreachable!() };
    session.send(UserCommand::Approve { approval_id, decision }).unwrap();
    let found = tokio::time::timeout(WAIT, async {
        loop {
            if let Some(r) = mock.received().into_iter().find(|f| f["type"] == "tool_result" && f["id"] == id) {
                return r;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    found.unwrap_or_else(|_| panic!("no tool_result for {id}"))
}

fn settings_for(base: &str) -> Settings {
    Settings::from(yui_core::settings::CharacterSettings { chat_base_url: base.into(), key: "k".into(), ..Default::default() })
}

async fn push_turn(mock: &MockServer, session: &Session) -> String {
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "go".into() }).unwrap();
    let turn = mock.wait_for_frame("turn", 0, WAIT).await.expect("turn frame");
    turn["turn_id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn push_every_answer_word_for_word_and_switches_read_when_the_call_runs() {
    let mock = push_mock(Some(512 * 1024)).await;
    let dir = tempfile::tempdir().unwrap();
    let desk = FakeDesk::new(small_picture());
    let (session, sink) = session_with(settings_for(&mock.base_url()), dir.path(), desk.clone());
    let hello = mock.wait_for_frame("hello", 0, WAIT).await.unwrap();
    let names: Vec<&str> = hello["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["rate_relation", "address_character", "look", "browser"], "hello declares exactly what runs");
    let t = push_turn(&mock, &session).await;
    let turn = mock.wait_for_frame("turn", 0, WAIT).await.unwrap();
    let block = turn["client_context"].as_str().unwrap();
    assert!(block.contains("\ntool switches: look.screen=off, browser=off, relations=on\n"), "{block}");
    assert!(!block.contains("screenshot source:"), "the turn screenshot is off: {block}");

    let r = |v: Value| v["result"].as_str().unwrap().to_string();
    // look
    assert_eq!(r(call(&mock, &t, "l1", "look", json!({"at": "body"})).await), "standing (for 0min)");
    let perch: Value = serde_json::from_str(&r(call(&mock, &t, "l2", "look", json!({"at": "perch_targets"})).await)).unwrap();
    assert_eq!(perch, serde_json::to_value(windows()).unwrap());
    assert_eq!(perch[0]["app"], "Code", "front to back");
    // With the switch off it answers at once and offers the switch; accepted, the next look runs.
    assert_eq!(r(call(&mock, &t, "l3", "look", json!({"at": "screen"})).await), "error: look.screen is switched off");
    assert!(desk.shots.lock().unwrap().is_empty(), "nothing was captured with the switch off");
    assert!(sink.events().iter().any(|e| matches!(e, UiEvent::ToolOffer { switch, until_ms: Some(_) } if switch == "look.screen")), "the switch is offered");
    assert!(!sink.events().iter().any(|e| matches!(e, UiEvent::Chat { event: ChatEvent::ApprovalRequest { .. } })), "nobody is asked to hold the call");
    session.send(UserCommand::SwitchOn { switch: "look.screen".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::ToolOffer { switch, until_ms: None } if switch == "look.screen")).await.expect("the offer is over");
    assert_eq!(r(call(&mock, &t, "l4", "look", json!({"at": "screen"})).await), "screen of monitor 1 (Fake Right), 1920x1080");
    assert_eq!(desk.shots.lock().unwrap().len(), 1, "switched on: one capture");
    desk.shots.lock().unwrap().clear();
    assert_eq!(r(call(&mock, &t, "l5", "look", json!({"at": "nowhere"})).await), "error: invalid field at");
    assert_eq!(r(call(&mock, &t, "l6", "look", json!({})).await), "error: missing field at");

    // rate_relation
    assert_eq!(r(call(&mock, &t, "r1", "rate_relation", json!({"target": "user", "delta": 2, "why": "helped me"})).await), "ok: toward user warm");
    assert_eq!(r(call(&mock, &t, "r2", "rate_relation", json!({"target": "user", "delta": 1, "why": "again"})).await), "error: capped");
    assert_eq!(r(call(&mock, &t, "r3", "rate_relation", json!({"target": "Mio", "delta": -3, "why": "took my chair"})).await), "ok: toward Mio cold");
    // The same character without case: capped (one change per target per turn), not unknown.
    assert_eq!(r(call(&mock, &t, "r3b", "rate_relation", json!({"target": "MIO", "delta": -1, "why": "again"})).await), "error: capped");
    assert_eq!(r(call(&mock, &t, "r4", "rate_relation", json!({"target": "Nobody", "delta": 1, "why": "x"})).await), "error: invalid field target");
    assert_eq!(
        r(call(&mock, &t, "r5", "rate_relation", json!({"target": "user (character)", "delta": 1, "why": "x"})).await),
        "ok: toward user (character) neutral"
    );
    assert_eq!(r(call(&mock, &t, "r6", "rate_relation", json!({"target": "user", "delta": 0, "why": "x"})).await), "error: invalid field delta");
    assert_eq!(r(call(&mock, &t, "r7", "rate_relation", json!({"target": "user", "delta": 1})).await), "error: missing field why");

    // browser: off, then on without a new session
    assert_eq!(r(call(&mock, &t, "b1", "browser", json!({"action": "open", "url": "https://example.com/"})).await), "error: browser is switched off");
    let mut on = settings_for(&mock.base_url());
    on.character.browser = true;
    on.character.relations = false;
    on.character.screenshot.allow_requests = true;
    session.update_settings(&on);
    assert_eq!(r(call(&mock, &t, "b2", "browser", json!({"action": "open", "url": "file:///etc/passwd"})).await), "error: invalid field url");
    // Opening a page asks first; "Always allow" stops the asking for this session.
    let always = ApprovalDecision::Always;
    let opened = call_answered(&mock, &session, &sink, &t, "b3", ("browser", json!({"action": "open", "url": "https://example.com/"})), always).await;
    assert_eq!(r(opened), "opened https://example.com/final: \"A \\\"quoted\\\" title\"");
    let read = r(call(&mock, &t, "b4", "browser", json!({"action": "read"})).await);
    assert!(read.starts_with("Example\nFirst line second xxx"), "{read}");
    assert_eq!(read.len(), 32 * 1024, "cut to 32 KiB");
    let shot = call(&mock, &t, "b5", "browser", json!({"action": "screenshot"})).await;
    assert_eq!(r(shot.clone()), "screenshot of https://example.com/");
    assert!(shot["images"][0].as_str().unwrap().starts_with("data:image/jpeg;base64,"), "{shot}");
    assert_eq!(r(call(&mock, &t, "b6", "browser", json!({"action": "back"})).await), "error: there is no earlier page");
    assert_eq!(r(call(&mock, &t, "b7", "browser", json!({"action": "close"})).await), "ok");
    let pill: Vec<ToolState> = sink
        .events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::ToolStatus { tool_id, state, .. } if tool_id == "browser" => Some(state),
            _ => None,
        })
        .collect();
    assert_eq!(pill.len(), 10, "running and a terminal state for each call that ran: {pill:?}");
    assert_eq!(pill[..2], [ToolState::Running, ToolState::Done]);
    assert_eq!(pill[6..8], [ToolState::Running, ToolState::Failed], "back failed");
    // relations switched off; look.screen switched on
    assert_eq!(r(call(&mock, &t, "r8", "rate_relation", json!({"target": "user", "delta": 1, "why": "x"})).await), "error: relations is switched off");
    let screen = call(&mock, &t, "l7", "look", json!({"at": "screen"})).await;
    assert_eq!(r(screen.clone()), "screen of monitor 1 (Fake Right), 1920x1080", "the display the character stands on");
    assert!(screen["images"][0].as_str().unwrap().starts_with("data:image/"), "{screen}");
    assert_eq!(r(call(&mock, &t, "l8", "look", json!({"at": "screen", "monitor": 0})).await), "screen of monitor 0 (Fake Left), 1920x1080");
    assert_eq!(r(call(&mock, &t, "l9", "look", json!({"at": "screen", "monitor": 7})).await), "error: invalid field monitor");
    assert_eq!(*desk.shots.lock().unwrap(), [Shot::Display(1), Shot::Display(0)]);

    // The next turn's block says what changed.
    mock.push(json!({"type": "turn_end", "turn_id": t})).await;
    ended(&sink).await;
    session.close().await;
    // Relations persist per character.
    let store = yui_core::relations::RelationStore::open(&DataDir::new(dir.path()).unwrap(), "");
    let list = store.list();
    assert_eq!(list[0].target, "user");
    assert_eq!(list[0].value, 2);
    assert_eq!(list.iter().find(|r| r.target == "Mio").unwrap().band, "cold");
}

#[tokio::test]
async fn push_a_picture_that_cannot_fit_answers_result_too_large() {
    // A backend that takes small frames: the picture cannot fit beside the text.
    let mock = push_mock(Some(600)).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings_for(&mock.base_url());
    settings.character.screenshot.allow_requests = true;
    let (session, sink) = session_with(settings, dir.path(), FakeDesk::new(big_picture()));
    let t = push_turn(&mock, &session).await;
    let res = call(&mock, &t, "l1", "look", json!({"at": "screen"})).await;
    assert_eq!(res["result"], "error: result too large");
    assert!(res.get("images").is_none(), "no images with the error: {res}");
    mock.push(json!({"type": "turn_end", "turn_id": t})).await;
    ended(&sink).await;
    session.close().await;
}

#[tokio::test]
async fn push_one_call_at_a_time_stop_cancels_and_a_repeated_id_is_dropped() {
    let mock = push_mock(Some(512 * 1024)).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = settings_for(&mock.base_url());
    settings.character.browser = true;
    let (session, sink) = session_with(settings, dir.path(), FakeDesk::new(small_picture()));
    let t = push_turn(&mock, &session).await;
    // Opening pages is allowed for the session first ("Always"), so the slow open runs without asking.
    let fast = ("browser", json!({"action": "open", "url": "https://example.com/"}));
    let opened = call_answered(&mock, &session, &sink, &t, "s0", fast, ApprovalDecision::Always).await;
    assert_eq!(opened["result"], "opened https://example.com/final: \"A \\\"quoted\\\" title\"");
    // A slow browser call runs; a read waits behind it; the same id again is dropped.
    // A look does not wait behind the loading page (the browser has a lane of its own).
    let slow = json!({"type": "tool_call", "id": "s1", "turn_id": t, "name": "browser", "arguments": {"action": "open", "url": "https://example.com/slow"}});
    assert!(mock.push(slow.clone()).await);
    assert!(mock.push(json!({"type": "tool_call", "id": "q1", "turn_id": t, "name": "browser", "arguments": {"action": "read"}})).await);
    assert!(mock.push(json!({"type": "tool_call", "id": "l1", "turn_id": t, "name": "look", "arguments": {"at": "body"}})).await);
    assert!(mock.push(slow).await);
    let look = mock.wait_for_frame("tool_result", 1, WAIT).await.unwrap();
    assert_eq!(look["id"], "l1");
    // Frames still flow while the call runs.
    assert!(mock.push(json!({"type": "speech", "turn_id": t, "segments": [{"speech": "Looking."}]})).await);
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { .. })).await.expect("speech while a tool runs");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(mock.received().iter().all(|f| f["type"] != "tool_result" || f["id"] == "s0" || f["id"] == "l1"), "the read waits behind the running call");
    session.send(UserCommand::Stop).unwrap();
    mock.wait_for_frame("stop", 0, WAIT).await.expect("stop frame");
    let r1 = mock.wait_for_frame("tool_result", 2, WAIT).await.unwrap();
    let r2 = mock.wait_for_frame("tool_result", 3, WAIT).await.unwrap();
    assert_eq!((r1["id"].as_str(), r1["result"].as_str()), (Some("s1"), Some("error: turn stopped")));
    assert_eq!((r2["id"].as_str(), r2["result"].as_str()), (Some("q1"), Some("error: turn stopped")));
    tokio::time::sleep(Duration::from_millis(300)).await;
    let results = mock.received().into_iter().filter(|f| f["type"] == "tool_result").count();
    assert_eq!(results, 4, "the repeated id got no answer of its own");
    session.close().await;
}

#[tokio::test]
async fn push_the_turn_screenshot_rides_in_images_only_when_the_backend_states_max_turn_bytes() {
    for (max, carries) in [(Some(256 * 1024u64), true), (None, false)] {
        let mock = push_mock(max).await;
        let dir = tempfile::tempdir().unwrap();
        let mut settings = settings_for(&mock.base_url());
        settings.character.screenshot.enabled = true;
        let desk = FakeDesk::new(rgba_picture());
        let (session, sink) = session_with(settings, dir.path(), desk.clone());
        assert!(sink.events().iter().any(|e| matches!(e, UiEvent::ScreenWatch { on: true })), "the pet hears the screen is watched");
        let t = push_turn(&mock, &session).await;
        let turn = mock.wait_for_frame("turn", 0, WAIT).await.unwrap();
        let block = turn["client_context"].as_str().unwrap();
        assert!(block.contains("\nscreenshot source: monitor 0 (Fake Left)\n"), "{block}");
        assert_eq!(*desk.shots.lock().unwrap(), [Shot::Display(0)]);
        if carries {
            let images = turn["images"].as_array().expect("images");
            assert_eq!(images.len(), 1);
            assert!(images[0].as_str().unwrap().starts_with("data:image/jpeg;base64,"));
            assert!(serde_json::to_string(&turn).unwrap().len() <= 256 * 1024);
            let sent = sink.wait_for(WAIT, |e| matches!(e, UiEvent::ImagesSent { .. })).await.unwrap();
            assert!(matches!(sent, UiEvent::ImagesSent { turn_id, images } if turn_id == t && images.len() == 1));
            assert_eq!(session.sent_contexts()[0].images.len(), 1, "the inspector keeps the pictures beside the block");
        } else {
            assert!(turn.get("images").is_none(), "no max_turn_bytes: the line alone");
        }
        mock.push(json!({"type": "turn_end", "turn_id": t})).await;
        ended(&sink).await;
        session.close().await;
    }
}

#[tokio::test]
async fn responses_screenshot_and_look_pictures_ride_as_input_images() {
    let call = r_wrap("resp_1", r_call(0, "call_l", "look", &[r#"{"at":"screen"}"#]));
    let mock = mock_http(vec![call, r_text("resp_2", "I see it.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = crate::common::backend(ChatApi::Responses, mock.base_url());
    settings.character.screenshot.enabled = true;
    settings.character.screenshot.allow_requests = true;
    let (session, sink) = session_with(settings, dir.path(), FakeDesk::new(rgba_picture()));
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "what is on my screen?".into() }).unwrap();
    let end = nth_ended(&sink, 0).await;
    assert!(matches!(end, UiEvent::TurnEnded { outcome: yui_core::TurnOutcome::Complete, .. }), "{end:?} {:?}", sink.events());
    let one = mock.wait_for_request("/v1/responses", 0, WAIT).await.unwrap().body;
    let parts = one["input"][0]["content"].as_array().expect("a part array");
    assert_eq!(parts[0]["type"], "input_text");
    assert!(parts[0]["text"].as_str().unwrap().contains("screenshot source: monitor 0 (Fake Left)"));
    assert_eq!(parts[1]["type"], "input_image");
    assert!(parts[1]["image_url"].as_str().unwrap().starts_with("data:image/jpeg;base64,"));
    let two = mock.wait_for_request("/v1/responses", 1, WAIT).await.unwrap().body;
    let out =
        two["input"].as_array().unwrap().iter().find(|i| i["type"] == "function_call_output" && i["call_id"] == "call_l").cloned().expect("the look's output");
    assert_eq!(out["output"][0], json!({"type": "input_text", "text": "screen of monitor 1 (Fake Right), 1920x1080"}));
    assert_eq!(out["output"][1]["type"], "input_image");
    assert!(out["output"][1]["image_url"].as_str().unwrap().starts_with("data:image/jpeg;base64,"));
    session.close().await;
}

#[tokio::test]
async fn chat_completions_screenshot_first_and_a_follow_up_image_for_look() {
    let call = cc_wrap(cc_call(0, "call_l", "look", &[r#"{"at":"screen","monitor":0}"#]), "tool_calls");
    let mock = mock_http(vec![call, cc_text("I see it.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = crate::common::backend(ChatApi::ChatCompletions, mock.base_url());
    settings.character.screenshot.enabled = true;
    settings.character.screenshot.allow_requests = true;
    let (session, sink) = session_with(settings, dir.path(), FakeDesk::new(rgba_picture()));
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "look".into() }).unwrap();
    nth_ended(&sink, 0).await;
    let one = mock.wait_for_request("/v1/chat/completions", 0, WAIT).await.unwrap().body;
    let msgs = one["messages"].as_array().unwrap();
    let user = msgs.iter().rev().find(|m| m["role"] == "user").unwrap();
    assert_eq!(user["content"][0], json!({"type": "text", "text": "look"}));
    assert_eq!(user["content"][1]["type"], "image_url");
    assert!(user["content"][1]["image_url"]["url"].as_str().unwrap().starts_with("data:image/jpeg;base64,"));
    let two = mock.wait_for_request("/v1/chat/completions", 1, WAIT).await.unwrap().body;
    let msgs = two["messages"].as_array().unwrap();
    let n = msgs.len();
    assert_eq!(msgs[n - 2], json!({"role": "tool", "tool_call_id": "call_l", "content": "screen of monitor 0 (Fake Left), 1920x1080"}));
    assert_eq!(msgs[n - 1]["role"], "user");
    assert_eq!(msgs[n - 1]["content"][0]["type"], "image_url", "the picture follows as a user image");
    session.close().await;
}

#[tokio::test]
async fn an_accepted_rating_feeds_the_next_blocks_relation_line_and_the_switch_hides_it() {
    let scenario = Scenario::from_json(
        r#"{"steps": [{"expect": "turn"},
            {"send": {"type": "tool_call", "id": "c1", "turn_id": "$turn_id", "name": "rate_relation", "arguments": {"target": "user", "delta": 2, "why": "stayed up to finish the parser"}}},
            {"expect": "tool_result"},
            {"send": {"type": "turn_end", "turn_id": "$turn_id"}},
            {"expect": "turn"}, {"send": {"type": "turn_end", "turn_id": "$turn_id"}},
            {"expect": "turn"}, {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .unwrap();
    let mock = MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..MockConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let settings = settings_for(&mock.base_url());
    let (session, sink) = session_with(settings.clone(), dir.path(), FakeDesk::new(small_picture()));
    assert!(session.wait_ready(WAIT).await);
    for n in 0..2 {
        session.send(UserCommand::SendText { text: format!("turn {n}") }).unwrap();
        nth_ended(&sink, n).await;
    }
    let block = |n: usize| mock.received().into_iter().filter(|f| f["type"] == "turn").nth(n).unwrap()["client_context"].as_str().unwrap().to_string();
    assert!(!block(0).contains("relation:"), "never rated: no line");
    assert!(block(1).contains("\nrelation: toward user warm (last change +2, 0min ago: \"stayed up to finish the parser\")\n"), "{}", block(1));
    let mut settings = settings;
    settings.character.relations = false;
    session.update_settings(&settings);
    session.send(UserCommand::SendText { text: "turn 2".into() }).unwrap();
    nth_ended(&sink, 2).await;
    assert!(!block(2).contains("relation:"), "switched off: no relation line: {}", block(2));
    assert!(block(2).contains("relations=off"));
    session.close().await;
}
