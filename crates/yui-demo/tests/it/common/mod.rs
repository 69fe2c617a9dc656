//! Starting the demo for tests; the raw WebSocket / HTTP clients are
//! `yui_demo::test_client` (feature `test-client`).
#![allow(dead_code)]

pub use yui_demo::test_client::*;
use yui_demo::{DemoConfig, DemoServer};

/// Starts a demo with pace 0.
pub async fn start() -> DemoServer {
    start_with(0.0, None).await
}

/// Starts a demo with this pace and key.
pub async fn start_with(pace: f64, key: Option<&str>) -> DemoServer {
    DemoServer::start(DemoConfig { port: 0, pace, key: key.map(str::to_string), ..DemoConfig::default() }).await.expect("demo starts")
}
