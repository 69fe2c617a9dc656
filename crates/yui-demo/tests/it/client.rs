//! A raw HTTP/1.1 client for the `agent_chat` routes: side requests
//! answered with JSON, and a `POST /chat` stream read event by event.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::{parse_sse, WAIT};

/// Writes one HTTP/1.1 request (`Connection: close`).
async fn request(addr: SocketAddr, method: &str, path: &str, body: &str, key: Option<&str>) -> TcpStream {
    let auth = key.map(|k| format!("Authorization: Bearer {k}\r\n")).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.expect("tcp connect");
    stream.write_all(head.as_bytes()).await.expect("write request");
    stream
}

/// A side request answered with JSON: `(status, body)`.
pub async fn call(addr: SocketAddr, method: &str, path: &str, body: Value, key: Option<&str>) -> (u16, Value) {
    call_raw(addr, method, path, &body.to_string(), key).await
}

/// The same with a raw body (`""`: none).
pub async fn call_raw(addr: SocketAddr, method: &str, path: &str, body: &str, key: Option<&str>) -> (u16, Value) {
    let mut stream = request(addr, method, path, body, key).await;
    let mut raw = Vec::new();
    tokio::time::timeout(WAIT, stream.read_to_end(&mut raw)).await.expect("answer in time").expect("read");
    let raw = String::from_utf8(raw).expect("utf-8");
    let (head, body) = raw.split_once("\r\n\r\n").expect("header end");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status");
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A `POST /chat` stream read event by event.
pub struct Live {
    stream: TcpStream,
    /// Raw bytes after the header, not yet de-chunked.
    raw: Vec<u8>,
    /// De-chunked body not yet split into events.
    body: String,
    done: bool,
    /// The status code.
    pub status: u16,
    /// The `content-type` header.
    pub content_type: String,
    /// The `connection` header.
    pub connection: String,
}

impl Live {
    pub async fn open(addr: SocketAddr, body: Value, key: Option<&str>) -> Live {
        let mut live = Live {
            stream: request(addr, "POST", "/chat", &body.to_string(), key).await,
            raw: Vec::new(),
            body: String::new(),
            done: false,
            status: 0,
            content_type: String::new(),
            connection: String::new(),
        };
        while !live.raw.windows(4).any(|w| w == b"\r\n\r\n") {
            assert!(live.read().await, "the header comes");
        }
        let at = live.raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8(live.raw.drain(..at + 4).collect()).unwrap();
        live.status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
        let header = |name: &str| head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix(name).map(|v| v.trim().to_string())).unwrap_or_default();
        live.content_type = header("content-type:");
        live.connection = header("connection:");
        live
    }

    /// Reads more bytes; `false` at the end of the connection.
    async fn read(&mut self) -> bool {
        let mut buf = [0u8; 4096];
        let n = tokio::time::timeout(WAIT, self.stream.read(&mut buf)).await.expect("bytes in time").expect("read");
        self.raw.extend_from_slice(&buf[..n]);
        n > 0
    }

    /// Moves whole chunks from `raw` to `body`.
    fn dechunk(&mut self) {
        while let Some(line) = self.raw.windows(2).position(|w| w == b"\r\n") {
            let size = usize::from_str_radix(std::str::from_utf8(&self.raw[..line]).unwrap().trim(), 16).expect("chunk size");
            if size == 0 {
                self.done = true;
                return;
            }
            if self.raw.len() < line + 2 + size + 2 {
                return;
            }
            let chunk: Vec<u8> = self.raw.drain(..line + 2 + size + 2).skip(line + 2).take(size).collect();
            self.body.push_str(&String::from_utf8(chunk).unwrap());
        }
    }

    /// The next event's data, or `None` when the stream ended. The wire's
    /// data has no `type` (checked); the event's name is added here as
    /// `type` so the tests can read it.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            self.dechunk();
            if let Some(end) = self.body.find("\n\n") {
                let block: String = self.body.drain(..end + 2).collect();
                let ev = parse_sse(&block).pop().expect("one event");
                let mut data: Value = serde_json::from_str(&ev.data).expect("JSON data");
                assert!(data.get("type").is_none(), "no type key in the data: {data}");
                data["type"] = json!(ev.event.expect("an event: line"));
                return Some(data);
            }
            if self.done || !self.read().await {
                return None;
            }
        }
    }

    /// Events up to and including the first of type `kind`.
    pub async fn until(&mut self, kind: &str) -> Vec<Value> {
        let mut out = Vec::new();
        while let Some(e) = self.next().await {
            let stop = e["type"] == kind;
            out.push(e);
            if stop {
                return out;
            }
        }
        panic!("no {kind} in {out:?}");
    }

    /// Every remaining event.
    pub async fn rest(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        while let Some(e) = self.next().await {
            out.push(e);
        }
        out
    }

    /// Nothing arrives within `d` (the run is waiting).
    pub async fn quiet(&mut self, d: Duration) -> bool {
        let mut buf = [0u8; 64];
        self.dechunk();
        self.body.is_empty() && tokio::time::timeout(d, self.stream.read(&mut buf)).await.is_err()
    }
}

/// The events' types.
pub fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

/// The streamed reply text (every `delta` joined).
pub fn text(events: &[Value]) -> String {
    events.iter().filter(|e| e["type"] == "delta").map(|e| e["text"].as_str().unwrap()).collect()
}

/// A `POST /chat` body as the engine's own UI sends it: `chat_id` and
/// `session` both `cid`, a fresh `run_id`, the prompt after a
/// `client_context` block.
pub fn chat(message: &str, cid: &str) -> Value {
    use std::sync::atomic::{AtomicU64, Ordering};
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    json!({
        "prompt": format!("<client_context>\ntrigger: user message\n</client_context>\n\n{message}"),
        "chat_id": cid, "session": cid, "run_id": format!("r-{cid}-{run}"),
        "regenerate_of": null, "tools": true, "attachments": [],
    })
}

/// A whole turn's events (status 200 checked).
pub async fn turn(addr: SocketAddr, body: Value) -> Vec<Value> {
    let mut live = Live::open(addr, body, None).await;
    assert_eq!(live.status, 200);
    live.rest().await
}

/// Opens a "list files" turn and reads up to its `approval_request`.
pub async fn asking(addr: SocketAddr, cid: &str) -> (Live, Vec<Value>) {
    let mut live = Live::open(addr, chat("can you list files for me?", cid), None).await;
    let events = live.until("approval_request").await;
    (live, events)
}

/// `POST /approve/{aid}` with `body`: the status and answer.
pub async fn approve(addr: SocketAddr, aid: &str, body: Value) -> (u16, Value) {
    call(addr, "POST", &format!("/approve/{aid}"), body, None).await
}
