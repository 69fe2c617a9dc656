//! Starting the mock for tests; the raw WebSocket / HTTP clients are
//! `yui_demo::test_client` (feature `test-client`).
#![allow(dead_code)]

pub use yui_demo::test_client::*;
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

/// Starts a mock with pace 0.
pub async fn start(mode: Mode) -> MockServer {
    MockServer::start(MockConfig {
        mode,
        pace: 0.0,
        ..MockConfig::default()
    })
    .await
    .expect("mock starts")
}

/// Starts a scenario mock from JSON text.
pub async fn start_scenario(json: &str) -> MockServer {
    start(Mode::Scenario(
        Scenario::from_json(json).expect("scenario parses"),
    ))
    .await
}
