//! Shared test setup: a mock backend on 127.0.0.1:0 and a session on a temp data dir.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;
use yui_core::{CollectingSink, DataDir, Session, SessionConfig, Settings, Timeouts, UiEvent};
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

pub const WAIT: Duration = Duration::from_secs(10);

pub async fn mock_scenario(json: &str) -> MockServer {
    let scenario = Scenario::from_json(json).expect("scenario");
    MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..MockConfig::default() })
        .await
        .expect("mock")
}

pub async fn mock_demo(key: Option<&str>) -> MockServer {
    MockServer::start(MockConfig { key: key.map(str::to_string), pace: 0.0, ..MockConfig::default() })
        .await
        .expect("mock")
}

pub fn fast_timeouts() -> Timeouts {
    Timeouts {
        hello_reply_wait: Duration::from_secs(2),
        frame_wait: Duration::from_secs(5),
        reconnect_first: Duration::from_millis(50),
        reconnect_cap: Duration::from_millis(400),
        ..Timeouts::default()
    }
}

pub fn start(base_url: &str, key: &str, dir: &std::path::Path, timeouts: Timeouts) -> (Session, CollectingSink) {
    let settings = Settings { chat_base_url: base_url.to_string(), key: key.to_string(), ..Default::default() };
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir).unwrap());
    cfg.timeouts = timeouts;
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    (session, sink)
}

pub async fn ended(sink: &CollectingSink) -> UiEvent {
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::TurnEnded { .. })).await.expect("turn_ended")
}

pub fn speeches(sink: &CollectingSink) -> Vec<String> {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::Speech { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

/// A session with key "k" on a fresh data dir against `mock`, once it is ready.
/// The data dir lives as long as the returned `TempDir`.
pub async fn ready_session(mock: &MockServer) -> (Session, CollectingSink, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = start(&mock.base_url(), "k", dir.path(), fast_timeouts());
    assert!(session.wait_ready(WAIT).await, "no ready from the mock");
    (session, sink, dir)
}
