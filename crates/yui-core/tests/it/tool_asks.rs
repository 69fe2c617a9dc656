//! Client tools never wait on the user past their waits, on tokio's paused
//! clock, over push and over Chat Completions against yui-mock: a call a
//! switch refuses answers at once with the string of `docs/client-tools.md` and offers the
//! switch (accepted, the next call runs and the setting is saved); a
//! `browser` `open` the user has not allowed asks without holding past its
//! client wait; a call queued behind a pending ask answers within its own
//! wait; a late Allow applies to the next `open`, "Always" to the session.

use crate::common;
use common::sse::*;
use common::*;
use futures_util::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;
use yui_core::limits::{BROWSER_OPEN_ASK_WAIT, TOOL_CALL_WAIT_BROWSER, TOOL_CALL_WAIT_QUERY};
use yui_core::picture::capture::{CaptureError, Display, WindowInfo};
use yui_core::picture::Picture;
use yui_core::tools::{Browser, BrowserError, Desk, Page, Shot, NOT_ALLOWED_YET};
use yui_core::transport::agent_chat::{ApprovalDecision, ChatEvent};
use yui_core::{ChatApi, CollectingSink, DataDir, Session, SessionConfig, Settings, Timeouts, UiEvent, UserCommand};
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

/// Longer than anything here takes on the paused clock.
const LONG: Duration = Duration::from_secs(3600);
/// "At once" over a socket polled every millisecond of the paused clock.
const AT_ONCE: Duration = Duration::from_millis(50);

fn picture() -> Picture {
    Picture::Encoded { mime: "jpeg".into(), bytes: Arc::new(vec![0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4]) }
}

#[derive(Default)]
struct FakeBrowser {
    opened: Mutex<Vec<String>>,
}

impl Browser for FakeBrowser {
    fn open(&self, url: url::Url) -> BoxFuture<'static, Result<Page, BrowserError>> {
        self.opened.lock().unwrap().push(url.to_string());
        Box::pin(async move { Ok(Page { url: url.to_string(), title: "Page".into() }) })
    }
    fn read(&self) -> BoxFuture<'static, Result<(Page, String), BrowserError>> {
        Box::pin(async { Ok((Page { url: "https://example.com/".into(), title: "Page".into() }, "text".into())) })
    }
    fn screenshot(&self) -> BoxFuture<'static, Result<(Page, Picture), BrowserError>> {
        Box::pin(async { Err(BrowserError::WebView("none".into())) })
    }
    fn back(&self) -> BoxFuture<'static, Result<(), BrowserError>> {
        Box::pin(async { Ok(()) })
    }
    fn close(&self) -> BoxFuture<'static, Result<(), BrowserError>> {
        Box::pin(async { Ok(()) })
    }
}

/// One display, a browser, captures counted.
#[derive(Default)]
struct FakeDesk {
    browser: Arc<FakeBrowser>,
    shots: Mutex<Vec<Shot>>,
}

impl Desk for FakeDesk {
    fn pet_point(&self) -> Option<(i32, i32)> {
        Some((10, 10))
    }
    fn displays(&self) -> Result<Vec<Display>, CaptureError> {
        Ok(vec![Display { index: 0, label: "Fake".into(), x: 0, y: 0, width: 1920, height: 1080, scale: 1.0, primary: true }])
    }
    fn windows(&self) -> Result<Vec<WindowInfo>, CaptureError> {
        Ok(Vec::new())
    }
    fn capture(&self, shot: Shot) -> BoxFuture<'static, Result<Picture, CaptureError>> {
        self.shots.lock().unwrap().push(shot);
        Box::pin(async { Ok(picture()) })
    }
    fn browser(&self) -> Option<Arc<dyn Browser>> {
        Some(self.browser.clone())
    }
}

fn session_with(settings: Settings, dir: &std::path::Path, desk: Arc<FakeDesk>) -> (Session, CollectingSink) {
    // The saved settings are what the offer's "switch on" loads and saves.
    let data = DataDir::new(dir).unwrap().without_keychain();
    data.save_settings(&settings).unwrap();
    let mut cfg = SessionConfig::new(settings, data);
    cfg.timeouts = Timeouts::default();
    cfg.desk = desk;
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    (session, sink)
}

/// The switch offers seen so far: (switch, open).
fn offers(sink: &CollectingSink) -> Vec<(String, bool)> {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::ToolOffer { switch, until_ms } => Some((switch, until_ms.is_some())),
            _ => None,
        })
        .collect()
}

/// The approval card asked for call `id`, waiting for it.
async fn card_for(sink: &CollectingSink, id: &str) -> String {
    let asked = sink
        .wait_for(LONG, |e| matches!(e, UiEvent::Chat { event: ChatEvent::ApprovalRequest { call_id, .. } } if call_id == id))
        .await
        .unwrap_or_else(|| panic!("no approval card for {id}"));
    let UiEvent::Chat { event: ChatEvent::ApprovalRequest { approval_id, .. } } = asked else { unreachable!() };
    approval_id
}

fn asked(sink: &CollectingSink, id: &str) -> bool {
    sink.events().iter().any(|e| matches!(e, UiEvent::Chat { event: ChatEvent::ApprovalRequest { call_id, .. } } if call_id == id))
}

/// The saved settings, once `pred` holds for them (the save runs off the loop).
async fn saved_when(dir: &std::path::Path, pred: impl Fn(&Settings) -> bool) -> Settings {
    let data = DataDir::new(dir).unwrap().without_keychain();
    for _ in 0..500 {
        let s = data.load_settings().unwrap();
        if pred(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the settings were never saved so: {:?}", data.load_settings().unwrap());
}

// ---- push ----

async fn push_mock() -> MockServer {
    let scenario = Scenario::from_json(r#"{"steps": [{"expect": "turn"}, {"sleep_ms": 36000000}]}"#).unwrap();
    MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, max_turn_bytes: Some(512 * 1024), ..MockConfig::default() }).await.unwrap()
}

/// Push a tool_call.
async fn push_call(mock: &MockServer, turn_id: &str, id: &str, name: &str, arguments: Value) {
    assert!(mock.push(json!({"type": "tool_call", "id": id, "turn_id": turn_id, "name": name, "arguments": arguments})).await);
}

/// The tool_result for `id`, and how long after `since` it came.
async fn result_of(mock: &MockServer, id: &str, since: Instant) -> (String, Duration) {
    let found = tokio::time::timeout(LONG, async {
        loop {
            if let Some(r) = mock.received().into_iter().find(|f| f["type"] == "tool_result" && f["id"] == id) {
                return (r["result"].as_str().unwrap().to_string(), since.elapsed());
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await;
    found.unwrap_or_else(|_| panic!("no tool_result for {id}"))
}

#[tokio::test(start_paused = true)]
async fn push_a_switched_off_call_answers_at_once_and_the_accepted_offer_lets_the_next_one_run() {
    let mock = push_mock().await;
    let dir = tempfile::tempdir().unwrap();
    let desk = Arc::new(FakeDesk::default());
    let settings =
        Settings::from(yui_core::settings::CharacterSettings { chat_base_url: mock.base_url(), key: "k".into(), relations: false, ..Default::default() });
    let (session, sink) = session_with(settings, dir.path(), desk.clone());
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "look".into() }).unwrap();
    let t = mock.wait_for_frame("turn", 0, WAIT).await.unwrap()["turn_id"].as_str().unwrap().to_string();

    let t0 = Instant::now();
    push_call(&mock, &t, "l1", "look", json!({"at": "screen"})).await;
    push_call(&mock, &t, "b1", "browser", json!({"action": "open", "url": "https://example.com/"})).await;
    push_call(&mock, &t, "r1", "rate_relation", json!({"target": "user", "delta": 1, "why": "kind"})).await;
    for (id, answer) in [("l1", "error: look.screen is switched off"), ("b1", "error: browser is switched off"), ("r1", "error: relations is switched off")] {
        let (result, took) = result_of(&mock, id, t0).await;
        assert_eq!(result, answer);
        assert!(took < AT_ONCE, "{id} took {took:?}");
    }
    assert!(desk.shots.lock().unwrap().is_empty() && desk.browser.opened.lock().unwrap().is_empty());
    assert!(!asked(&sink, "l1") && !asked(&sink, "b1"), "no call waits on the user");
    let mut raised = offers(&sink);
    raised.sort();
    assert_eq!(raised, [("browser".into(), true), ("look.screen".into(), true), ("relations".into(), true)]);
    // Refused again while the offer stands: no second offer.
    push_call(&mock, &t, "l2", "look", json!({"at": "screen"})).await;
    assert_eq!(result_of(&mock, "l2", t0).await.0, "error: look.screen is switched off");
    assert_eq!(offers(&sink).len(), 3);
    // A window that opens now asks, and hears the three again.
    session.send(UserCommand::ShowOffers).unwrap();
    sink.wait_for(WAIT, |_| offers(&sink).len() == 6).await.expect("the standing offers again");

    // Accepted: on for the next call, saved as the settings window saves it; the offer is over.
    session.send(UserCommand::SwitchOn { switch: "look.screen".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::ToolOffer { switch, until_ms: None } if switch == "look.screen")).await.expect("the offer is over");
    let saved = saved_when(dir.path(), |s| s.character.screenshot.allow_requests).await;
    assert!(!saved.character.browser && !saved.character.relations, "only that switch");
    push_call(&mock, &t, "l3", "look", json!({"at": "screen"})).await;
    assert_eq!(result_of(&mock, "l3", Instant::now()).await.0, "screen of monitor 0 (Fake), 1920x1080");
    assert_eq!(*desk.shots.lock().unwrap(), [Shot::Display(0)]);
    // The next turn's block says so.
    assert!(mock.push(json!({"type": "turn_end", "turn_id": t})).await);
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::TurnEnded { .. })).await.unwrap();
    session.send(UserCommand::SendText { text: "again".into() }).unwrap();
    let block = sink.wait_for(WAIT, |e| matches!(e, UiEvent::ContextSent { .. }) && blocks(&sink).len() == 2).await.map(|_| blocks(&sink)[1].clone()).unwrap();
    assert!(block.contains("tool switches: look.screen=on, browser=off, relations=off"), "{block}");

    // The settings window turning a switch on ends its offer too.
    let mut saved = saved;
    saved.character.browser = true;
    session.update_settings(&saved);
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::ToolOffer { switch, until_ms: None } if switch == "browser")).await.expect("the browser offer is over");
    session.close().await;
}

#[tokio::test(start_paused = true)]
async fn push_an_open_the_user_has_not_allowed_asks_without_holding_anything_past_its_wait() {
    let mock = push_mock().await;
    let dir = tempfile::tempdir().unwrap();
    let desk = Arc::new(FakeDesk::default());
    let settings =
        Settings::from(yui_core::settings::CharacterSettings { chat_base_url: mock.base_url(), key: "k".into(), browser: true, ..Default::default() });
    let (session, sink) = session_with(settings, dir.path(), desk.clone());
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "open it".into() }).unwrap();
    let t = mock.wait_for_frame("turn", 0, WAIT).await.unwrap()["turn_id"].as_str().unwrap().to_string();

    // The open asks; a look queued behind it answers within its own wait.
    let t0 = Instant::now();
    push_call(&mock, &t, "b1", "browser", json!({"action": "open", "url": "https://example.com/one"})).await;
    push_call(&mock, &t, "q1", "look", json!({"at": "body"})).await;
    let card = card_for(&sink, "b1").await;
    let (look, took) = result_of(&mock, "q1", t0).await;
    assert!(look.starts_with("standing"), "{look}");
    assert!(took <= TOOL_CALL_WAIT_QUERY, "the look waited {took:?} behind the ask");
    // Nobody answers: the open answers inside its client wait, saying so.
    let (open, took) = result_of(&mock, "b1", t0).await;
    assert_eq!(open, NOT_ALLOWED_YET);
    assert!(took >= BROWSER_OPEN_ASK_WAIT && took < BROWSER_OPEN_ASK_WAIT + AT_ONCE, "{took:?}");
    assert!(took < TOOL_CALL_WAIT_BROWSER);
    assert!(desk.browser.opened.lock().unwrap().is_empty());

    // Allowed afterwards (the card is still up): the next open runs without asking, once.
    session.send(UserCommand::Approve { approval_id: card, decision: ApprovalDecision::Allow }).unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    push_call(&mock, &t, "b2", "browser", json!({"action": "open", "url": "https://example.com/two"})).await;
    assert_eq!(result_of(&mock, "b2", Instant::now()).await.0, "opened https://example.com/two: \"Page\"");
    assert!(!asked(&sink, "b2"), "the late Allow was for this one");
    // The one after asks again; Allow in time runs it at once.
    let t1 = Instant::now();
    push_call(&mock, &t, "b3", "browser", json!({"action": "open", "url": "https://example.com/three"})).await;
    let card = card_for(&sink, "b3").await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    session.send(UserCommand::Approve { approval_id: card, decision: ApprovalDecision::Always }).unwrap();
    let (open, took) = result_of(&mock, "b3", t1).await;
    assert_eq!(open, "opened https://example.com/three: \"Page\"");
    assert!(took >= Duration::from_secs(5) && took < Duration::from_secs(5) + AT_ONCE, "{took:?}");
    // "Always": no more asking this session.
    push_call(&mock, &t, "b4", "browser", json!({"action": "open", "url": "https://example.com/four"})).await;
    let (open, took) = result_of(&mock, "b4", Instant::now()).await;
    assert_eq!(open, "opened https://example.com/four: \"Page\"");
    assert!(took < AT_ONCE, "{took:?}");
    assert!(!asked(&sink, "b4"));
    assert_eq!(desk.browser.opened.lock().unwrap().len(), 3);
    session.close().await;
}

// ---- a request transport ----

/// The chat window's tool_result for `call`, and how long after `since` it came.
async fn shown_result(sink: &CollectingSink, call: &str, since: Instant) -> (String, Duration) {
    let seen = sink
        .wait_for(LONG, |e| matches!(e, UiEvent::Chat { event: ChatEvent::ToolResult { call_id, .. } } if call_id == call))
        .await
        .unwrap_or_else(|| panic!("no tool_result for {call}"));
    let UiEvent::Chat { event: ChatEvent::ToolResult { output, .. } } = seen else { unreachable!() };
    (output, since.elapsed())
}

/// The `tool` message for `call` in a Chat Completions request body.
fn tool_message(body: &Value, call: &str) -> String {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == call)
        .unwrap_or_else(|| panic!("no tool message for {call}: {body}"))["content"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test(start_paused = true)]
async fn chat_completions_refusals_answer_at_once_a_queued_look_does_not_wait_on_an_ask_and_the_offer_applies_next_turn() {
    let mut calls = cc_call(0, "call_l1", "look", &[r#"{"at":"screen"}"#]);
    calls.extend(cc_call(1, "call_b1", "browser", &[r#"{"action":"open","url":"https://example.com/"}"#]));
    calls.extend(cc_call(2, "call_q1", "look", &[r#"{"at":"body"}"#]));
    let again = cc_call(0, "call_l2", "look", &[r#"{"at":"screen"}"#]);
    let mock = mock_http(vec![cc_wrap(calls, "tool_calls"), cc_text("I cannot yet."), cc_wrap(again, "tool_calls"), cc_text("I see it.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let desk = Arc::new(FakeDesk::default());
    let settings = Settings::from(yui_core::settings::CharacterSettings {
        chat_api: ChatApi::ChatCompletions,
        chat_base_url: mock.base_url(),
        key: "k".into(),
        model: "m".into(),
        browser: true,
        ..Default::default()
    });
    let (session, sink) = session_with(settings, dir.path(), desk.clone());
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "what is on my screen?".into() }).unwrap();
    mock.wait_for_request("/v1/chat/completions", 0, WAIT).await.unwrap();
    let t0 = Instant::now();
    let (look, took) = shown_result(&sink, "call_l1", t0).await;
    assert_eq!((look.as_str(), took), ("error: look.screen is switched off", Duration::ZERO));
    assert!(offers(&sink).contains(&("look.screen".into(), true)));
    card_for(&sink, "call_b1").await;
    let (_, took) = shown_result(&sink, "call_q1", t0).await;
    assert!(took <= TOOL_CALL_WAIT_QUERY, "the look waited {took:?} behind the ask");
    let (_, took) = shown_result(&sink, "call_b1", t0).await;
    assert!(took <= TOOL_CALL_WAIT_BROWSER, "the open held {took:?}");
    // The follow-up carries every answer.
    let two = mock.wait_for_request("/v1/chat/completions", 1, LONG).await.unwrap().body;
    assert_eq!(tool_message(&two, "call_l1"), "error: look.screen is switched off");
    assert_eq!(tool_message(&two, "call_b1"), NOT_ALLOWED_YET);
    assert!(tool_message(&two, "call_q1").starts_with("standing"));
    nth_ended(&sink, 0).await;

    // The offer accepted: the next turn's look runs.
    session.send(UserCommand::SwitchOn { switch: "look.screen".into() }).unwrap();
    session.send(UserCommand::SendText { text: "now?".into() }).unwrap();
    let four = mock.wait_for_request("/v1/chat/completions", 3, LONG).await.unwrap().body;
    assert_eq!(tool_message(&four, "call_l2"), "screen of monitor 0 (Fake), 1920x1080");
    assert_eq!(desk.shots.lock().unwrap().len(), 1);
    nth_ended(&sink, 1).await;
    saved_when(dir.path(), |s| s.character.screenshot.allow_requests).await;
    session.close().await;
}
