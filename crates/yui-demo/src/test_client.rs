//! Raw clients for tests of the demo and of `yui-mock` (feature
//! `test-client`, off by default): a WebSocket client (tokio-tungstenite), a
//! tiny HTTP/1.1 client over `TcpStream` for the SSE endpoints, and a runner
//! for the server binaries. They talk to any server by its address and panic
//! on anything unexpected.

use std::io::{BufRead as _, BufReader};
use std::net::SocketAddr;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

/// A raw client socket.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Generous wait for frames that must come.
pub const WAIT: Duration = Duration::from_secs(5);

/// What the client saw next.
#[derive(Debug)]
pub enum Next {
    /// A JSON text frame.
    Frame(Value),
    /// A text message that is not JSON.
    Raw(String),
    /// A close frame with this code.
    Closed(Option<u16>),
    /// The stream ended (or errored) without a close frame.
    Ended(String),
    /// Nothing arrived in time.
    Timeout,
}

/// Opens `/ws` on the server at `addr`.
pub async fn connect(addr: SocketAddr) -> Ws {
    connect_async(format!("ws://{addr}/ws")).await.expect("ws connects").0
}

/// Sends one JSON frame.
pub async fn send(ws: &mut Ws, frame: Value) {
    ws.send(Message::Text(frame.to_string().into())).await.expect("send");
}

/// Sends a raw text message.
pub async fn send_text(ws: &mut Ws, text: String) {
    ws.send(Message::Text(text.into())).await.expect("send");
}

/// A hello frame.
pub fn hello_frame(chat_id: &str, key: &str, accepts: &[&str]) -> Value {
    json!({
        "type": "hello", "key": key, "chat_id": chat_id, "accepts": accepts,
        "vocabulary": { "emotion_ids": ["neutral", "happy"], "motion_ids": ["idle"], "emotion_text_mode": "free", "emotion_text_map": {} },
    })
}

/// Reads what comes next, within `timeout`.
pub async fn next(ws: &mut Ws, timeout: Duration) -> Next {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let msg = match tokio::time::timeout_at(deadline, ws.next()).await {
            Err(_) => return Next::Timeout,
            Ok(None) => return Next::Ended("end of stream".into()),
            Ok(Some(Err(e))) => return Next::Ended(e.to_string()),
            Ok(Some(Ok(msg))) => msg,
        };
        match msg {
            Message::Text(t) => {
                return match serde_json::from_str(t.as_str()) {
                    Ok(v) => Next::Frame(v),
                    Err(_) => Next::Raw(t.to_string()),
                }
            }
            Message::Close(frame) => return Next::Closed(frame.map(|f| u16::from(f.code))),
            _ => continue,
        }
    }
}

/// The next JSON frame; panics on anything else.
pub async fn frame(ws: &mut Ws) -> Value {
    match next(ws, WAIT).await {
        Next::Frame(v) => v,
        other => panic!("expected a frame, got {other:?}"),
    }
}

/// Connects, sends hello and returns the socket with the ready frame.
pub async fn connect_ready(addr: SocketAddr, accepts: &[&str]) -> (Ws, Value) {
    let mut ws = connect(addr).await;
    send(&mut ws, hello_frame("yui-test", "k", accepts)).await;
    let ready = frame(&mut ws).await;
    assert_eq!(ready["type"], "ready", "{ready}");
    (ws, ready)
}

/// Collects frames until (and including) the first for which `stop` holds.
pub async fn frames_until(ws: &mut Ws, stop: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut out = Vec::new();
    loop {
        let f = frame(ws).await;
        let done = stop(&f);
        out.push(f);
        if done {
            return out;
        }
    }
}

/// Collects frames until nothing arrives for `quiet`.
pub async fn drain(ws: &mut Ws, quiet: Duration) -> Vec<Next> {
    let mut out = Vec::new();
    loop {
        match next(ws, quiet).await {
            Next::Timeout => return out,
            n @ (Next::Closed(_) | Next::Ended(_)) => {
                out.push(n);
                return out;
            }
            n => out.push(n),
        }
    }
}

/// The `type` of every frame.
pub fn types(frames: &[Value]) -> Vec<&str> {
    frames.iter().map(|f| f["type"].as_str().unwrap_or("?")).collect()
}

/// An HTTP response read whole.
#[derive(Debug)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Header lines, names lowercased.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: String,
}

impl HttpResponse {
    /// The first header called `name` (lowercase).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// POSTs JSON over a raw TcpStream (HTTP/1.1, Connection: close) and reads the whole answer.
pub async fn http_post(addr: SocketAddr, path: &str, body: &Value, bearer: Option<&str>) -> HttpResponse {
    let body = body.to_string();
    let auth = bearer.map(|k| format!("Authorization: Bearer {k}\r\n")).unwrap_or_default();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.expect("tcp connect");
    stream.write_all(request.as_bytes()).await.expect("write request");
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw)).await.expect("response in time").expect("read");
    let raw = String::from_utf8(raw).expect("utf-8 response");
    let (head, rest) = raw.split_once("\r\n\r\n").expect("header end");
    let mut lines = head.split("\r\n");
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("status line");
    let headers: Vec<(String, String)> = lines.filter_map(|l| l.split_once(':')).map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string())).collect();
    let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked { dechunk(rest) } else { rest.to_string() };
    HttpResponse { status, headers, body }
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    loop {
        let (size, rest) = s.split_once("\r\n").expect("chunk size line");
        let size = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).expect("hex chunk size");
        if size == 0 {
            return out;
        }
        out.push_str(&rest[..size]);
        s = &rest[size + 2..];
    }
}

/// One server-sent event.
#[derive(Debug, Clone)]
pub struct SseEvent {
    /// The `event:` line, if any.
    pub event: Option<String>,
    /// The `data:` payload.
    pub data: String,
}

/// Splits an SSE body into events.
pub fn parse_sse(body: &str) -> Vec<SseEvent> {
    body.split("\n\n")
        .filter(|b| !b.trim().is_empty())
        .map(|block| {
            let mut ev = SseEvent { event: None, data: String::new() };
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    ev.event = Some(v.to_string());
                } else if let Some(v) = line.strip_prefix("data: ") {
                    ev.data.push_str(v);
                } else {
                    panic!("unexpected SSE line {line:?}");
                }
            }
            ev
        })
        .collect()
}

/// A server binary started by [`Binary::spawn`], past its first stdout line.
#[derive(Debug)]
pub struct Binary {
    child: Child,
    addr: SocketAddr,
    stdout: BufReader<ChildStdout>,
}

impl Binary {
    /// Runs `exe` with `args` (stderr discarded) and reads its first stdout
    /// line, which must be `listening on http://127.0.0.1:PORT` with a real port.
    pub fn spawn(exe: &str, args: &[&str]) -> Binary {
        let mut child = Command::new(exe).args(args).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("binary starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).expect("first line");
        let url = line.trim_end().strip_prefix("listening on ").unwrap_or_else(|| panic!("unexpected line {line:?}"));
        let port: u16 = url.strip_prefix("http://127.0.0.1:").expect("loopback url").parse().expect("port");
        assert_ne!(port, 0);
        Binary { child, addr: SocketAddr::from(([127, 0, 0, 1], port)), stdout }
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops it (SIGTERM on Unix, asserting a clean exit; a kill elsewhere)
    /// and asserts it printed nothing more to stdout.
    pub fn stop(mut self) {
        #[cfg(unix)]
        {
            let pid = self.child.id().to_string();
            assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
            let status = self.child.wait().unwrap();
            assert!(status.success(), "clean exit on SIGTERM: {status:?}");
        }
        #[cfg(not(unix))]
        {
            self.child.kill().unwrap();
            self.child.wait().unwrap();
        }
        let mut more = String::new();
        self.stdout.read_line(&mut more).unwrap();
        assert_eq!(more, "", "exactly one stdout line");
    }
}
