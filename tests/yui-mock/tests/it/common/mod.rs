//! Starting the mock for tests; the raw WebSocket / HTTP clients are
//! `yui_demo::test_client` (feature `test-client`).
#![allow(dead_code)]

pub use yui_demo::test_client::*;
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

/// Starts a mock with pace 0.
pub async fn start(mode: Mode) -> MockServer {
    MockServer::start(MockConfig { mode, pace: 0.0, ..MockConfig::default() }).await.expect("mock starts")
}

/// Starts a scenario mock from JSON text.
pub async fn start_scenario(json: &str) -> MockServer {
    start(Mode::Scenario(Scenario::from_json(json).expect("scenario parses"))).await
}

use serde_json::Value;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A `POST` whose SSE answer is read event by event as it arrives (an
/// HTTP/1.0 request, so the body is close-delimited, not chunked).
pub struct LiveStream {
    reader: BufReader<TcpStream>,
    /// The status code.
    pub status: u16,
}

/// Opens `POST path` with a JSON body and reads the status and headers.
pub async fn open_stream(addr: SocketAddr, path: &str, body: &Value) -> LiveStream {
    let body = body.to_string();
    let request = format!("POST {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    let mut stream = TcpStream::connect(addr).await.expect("tcp connect");
    stream.write_all(request.as_bytes()).await.expect("write request");
    let mut reader = BufReader::new(stream);
    let mut status = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).await.expect("read head");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if status == 0 {
            status = line.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status line");
        }
        assert!(!line.to_ascii_lowercase().starts_with("transfer-encoding"), "HTTP/1.0 answers are not chunked: {line}");
    }
    LiveStream { reader, status }
}

impl LiveStream {
    /// The next event as `(name, data)`; `None` when the stream ended.
    /// Panics after 10 s of silence.
    pub async fn next_event(&mut self) -> Option<(String, Value)> {
        self.next_within(Duration::from_secs(10)).await.expect("an event within 10 s")
    }

    /// The next event, `Err` when `wait` passes first.
    pub async fn next_within(&mut self, wait: Duration) -> Result<Option<(String, Value)>, ()> {
        let (mut name, mut data): (Option<String>, String) = (None, String::new());
        loop {
            let mut line = String::new();
            let n = tokio::time::timeout(wait, self.reader.read_line(&mut line)).await.map_err(|_| ())?.expect("read");
            if n == 0 {
                return Ok(None);
            }
            let line = line.trim_end_matches('\n');
            if line.is_empty() {
                if data.is_empty() {
                    continue;
                }
                let data: Value = serde_json::from_str(&data).expect("data is JSON");
                let name = name.expect("every event is named");
                // The agent_chat engine's wire: the name rides in `event:`, the data has no "type".
                assert!(data.get("type").is_none(), "no type key: {data}");
                assert!(data["msg_id"].is_string(), "every event has its msg_id: {data}");
                return Ok(Some((name, data)));
            } else if let Some(v) = line.strip_prefix("event: ") {
                name = Some(v.to_string());
            } else if let Some(v) = line.strip_prefix("data: ") {
                data.push_str(v);
            } else {
                panic!("unexpected SSE line {line:?}");
            }
        }
    }

    /// Events up to and including the first named `kind`.
    pub async fn until(&mut self, kind: &str) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        while let Some(ev) = self.next_event().await {
            let done = ev.0 == kind;
            out.push(ev);
            if done {
                return out;
            }
        }
        panic!("the stream ended before {kind}: {out:?}");
    }

    /// Every event until the stream ends.
    pub async fn rest(&mut self) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        while let Some(ev) = self.next_event().await {
            out.push(ev);
        }
        out
    }
}

/// Event names.
pub fn kinds(events: &[(String, Value)]) -> Vec<&str> {
    events.iter().map(|(k, _)| k.as_str()).collect()
}

/// Any request without a body (`DELETE`, or a `POST` with an empty body);
/// returns the status and the body.
pub async fn http_bare(addr: SocketAddr, method: &str, path: &str) -> (u16, String) {
    let request = format!("{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Length: 0\r\n\r\n");
    let mut stream = TcpStream::connect(addr).await.expect("tcp connect");
    stream.write_all(request.as_bytes()).await.expect("write request");
    let mut raw = String::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut raw)).await.expect("in time").expect("read");
    let (head, body) = raw.split_once("\r\n\r\n").expect("header end");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status");
    (status, body.to_string())
}
