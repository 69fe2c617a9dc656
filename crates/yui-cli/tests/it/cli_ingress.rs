//! `yui-cli --ingress-port`: a signal posted to the running client becomes a
//! turn whose block carries the `signal` line, and she speaks the reply; the
//! guard and the token hold; the relations endpoints reach the session's
//! store. Raw HTTP over loopback, as `curl` would send it.

use crate::common;

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use yui_mock::{MockConfig, MockServer};

const WAIT: Duration = Duration::from_secs(30);

struct Cli {
    child: Child,
    events: mpsc::Receiver<Value>,
    seen: Vec<Value>,
}

impl Cli {
    /// Start yui-cli with the ingress on a free port; answers it and the port.
    fn start(api: &str, base_url: &str, dir: &std::path::Path, extra: &[&str]) -> (Cli, u16) {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_yui-cli"));
        cmd.args(["--chat-api", api, "--base-url", base_url, "--key", "k", "--model", "m", "--data-dir"])
            .arg(dir)
            .args(["--set", "audio=null", "--ingress-port", &port.to_string()])
            .args(extra);
        let common::Spawned { child, events, marked: ready } = common::spawn(cmd, "signals ingress listening on http://127.0.0.1:");
        ready.recv_timeout(WAIT).expect("the ingress never said it listens");
        (Cli { child, events, seen: Vec::new() }, port)
    }

    /// Wait for an event matching `pick`; every event read is kept in `seen`.
    fn wait_for(&mut self, what: &str, pick: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        if let Some(v) = self.seen.iter().find(|v| pick(v)) {
            return v.clone();
        }
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self
                .events
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {what}; saw {:?}", self.seen.iter().map(|e| e["type"].clone()).collect::<Vec<_>>()));
            self.seen.push(v.clone());
            if pick(&v) {
                return v;
            }
        }
    }

    fn quit(mut self) {
        let _ = self.child.stdin.take().unwrap().write_all(b"/quit\n");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exits 0 after /quit");
    }
}

/// One raw HTTP/1.1 request; the status code and body.
fn http(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(WAIT)).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let code = out.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = out.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (code, body)
}

const SIGNAL: &str = r#"{"envelope":{"source":"github","event_type":"push","delivery":"immediate","event_id":"delivery-42","occurred_at":1787449000000},"signals":[{"repo":"acme/app","branch":"main"}]}"#;

async fn a_signal_becomes_a_spoken_turn(api: &'static str) {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let (mut cli, port) = Cli::start(api, &url, &d, &[]);
        let (code, body) = http(port, "POST", "/signals", &[("Content-Type", "application/json")], SIGNAL);
        assert_eq!((code, body.trim()), (200, r#"{"accepted":1}"#));
        let sent = cli.wait_for("the signal's turn", |e| e["type"] == "context_sent" && e["block"].as_str().is_some_and(|b| b.contains("delivery-42")));
        let block = sent["block"].as_str().unwrap();
        assert!(block.contains("trigger: signals (1 signal)"), "{block}");
        assert!(block.contains(r#"signal [github/push @2026-08-23T01:36:40.000Z, id delivery-42]: {"repo":"acme/app","branch":"main"}"#), "{block}");
        let started = cli.wait_for("turn_started", |e| e["type"] == "turn_started");
        assert_eq!(started["text"], "", "nobody typed it");
        cli.wait_for("her reply, spoken", |e| e["type"] == "speech");
        cli.wait_for("the turn's end", |e| e["type"] == "turn_ended" && e["outcome"] == "complete");
        cli.quit();
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_signal_becomes_a_spoken_turn_over_push() {
    a_signal_becomes_a_spoken_turn("push").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_signal_becomes_a_spoken_turn_over_responses() {
    a_signal_becomes_a_spoken_turn("responses").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_guard_the_token_and_the_relations_endpoints() {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let (cli, port) = Cli::start("chat_completions", &url, &d, &["--set", "ingress.token=s3cret"]);
        let json = [("Content-Type", "application/json")];
        assert_eq!(http(port, "POST", "/signals", &json, SIGNAL).0, 401, "a token given requires it");
        let auth = [("Content-Type", "application/json"), ("Authorization", "Bearer s3cret")];
        assert_eq!(http(port, "POST", "/signals", &[("Host", "evil.example"), auth[1]], SIGNAL).0, 421);
        assert_eq!(http(port, "POST", "/signals", &[("Origin", "https://evil.example"), auth[1]], SIGNAL).0, 403);
        assert_eq!(http(port, "GET", "/signals", &auth, "").0, 405);
        assert_eq!(http(port, "POST", "/signals", &auth, "{").0, 400);
        // Relations: the bundled card is Yui; PUT replaces, GET reads back.
        let (code, body) = http(port, "PUT", "/relations/yui", &auth, r#"[{"target":"user","value":4,"why":"kind words","note":"likes tea"}]"#);
        assert_eq!(code, 200, "{body}");
        let (code, body) = http(port, "GET", "/relations/Yui", &auth, "");
        assert_eq!(code, 200, "{body}");
        let records: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(records[0]["target"], "user");
        assert_eq!(records[0]["band"], "warm");
        assert_eq!(records[0]["note"], "likes tea");
        assert_eq!(http(port, "GET", "/relations/nobody", &auth, "").0, 404);
        cli.quit();
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn with_several_characters_the_relations_endpoint_serves_each_of_them() {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let (cli, port) = Cli::start("chat_completions", &url, &d, &["--character", "Yui", "--character", "Ann"]);
        let json = [("Content-Type", "application/json")];
        let (code, body) = http(port, "PUT", "/relations/ANN", &json, r#"[{"target":"Yui","value":-4,"why":"took my chair"}]"#);
        assert_eq!(code, 200, "{body}");
        let ann: Value = serde_json::from_str(&http(port, "GET", "/relations/ann", &json, "").1).unwrap();
        assert_eq!((ann[0]["target"].as_str(), ann[0]["band"].as_str()), (Some("Yui"), Some("cold")), "{ann}");
        // Yui's own view is hers: Ann's record is not in it.
        let yui: Value = serde_json::from_str(&http(port, "GET", "/relations/yui", &json, "").1).unwrap();
        assert_eq!(yui, serde_json::json!([]), "{yui}");
        let (code, body) = http(port, "GET", "/relations/mio", &json, "");
        assert_eq!(code, 404);
        assert!(body.contains("Yui, Ann"), "the open characters named: {body}");
        cli.quit();
    })
    .await
    .unwrap();
}
