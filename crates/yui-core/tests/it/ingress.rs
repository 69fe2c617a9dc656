//! The signals ingress over real HTTP on loopback (`docs/triggers.md`, "The signals ingress"):
//! the guard, the routes and their answers, the body limit enforced on the
//! stream, the envelope and agent-event rules, relations through a fake
//! port, a flood, a bind conflict, and a bounded fuzz of the parsers.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;
use yui_core::context::{sanitize, AgentEvent, SignalEnvelope};
use yui_core::ingress::envelope::TRUNCATED_MARKER;
use yui_core::ingress::{parse_agent_event, parse_relations, parse_signals, serve, Ingress, IngressConfig, IngressError, IngressPort, RelationsError};
use yui_core::limits::{AGENT_EVENT_DETAIL_BYTES, AGENT_EVENT_SUMMARY_BYTES, INGRESS_BODY_BYTES, SIGNAL_OCCURRED_AT_MAX_ABS_MS};
use yui_core::triggers::Arrival;

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

#[derive(Default)]
struct Fake {
    arrivals: Mutex<Vec<Arrival>>,
    now: AtomicI64,
    relations: Mutex<HashMap<String, Value>>,
}

impl IngressPort for Fake {
    fn arrived(&self, arrival: Arrival) {
        self.arrivals.lock().unwrap().push(arrival);
    }
    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }
    fn relations(&self, character: &str) -> Result<Value, RelationsError> {
        self.relations.lock().unwrap().get(character).cloned().ok_or_else(|| RelationsError::Store(format!("no character {character}")))
    }
    fn set_relations(&self, character: &str, records: Value) -> Result<Value, RelationsError> {
        if character == "refuses" {
            return Err(RelationsError::Store("the store said no".into()));
        }
        self.relations.lock().unwrap().insert(character.to_string(), records.clone());
        Ok(records)
    }
}

impl Fake {
    fn take(&self) -> Vec<Arrival> {
        std::mem::take(&mut *self.arrivals.lock().unwrap())
    }
}

struct Server {
    ingress: Ingress,
    fake: Arc<Fake>,
    cancel: CancellationToken,
    http: reqwest::Client,
}

impl Server {
    async fn start(require_token: bool) -> Server {
        let fake = Arc::new(Fake { now: AtomicI64::new(1_787_449_000_123), ..Default::default() });
        let cancel = CancellationToken::new();
        let ingress = serve(IngressConfig::new(0, require_token, TOKEN), fake.clone(), cancel.clone()).await.unwrap();
        Server { ingress, fake, cancel, http: reqwest::Client::new() }
    }
    fn addr(&self) -> SocketAddr {
        self.ingress.local_addr()
    }
    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr())
    }
    async fn post(&self, path: &str, body: impl Into<reqwest::Body>) -> (u16, Value) {
        let r = self.http.post(self.url(path)).body(body).send().await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap_or(Value::Null))
    }
    async fn signals(&self, body: &Value) -> (u16, Value) {
        self.post("/signals", body.to_string()).await
    }
    /// POST one body to /signals and answer the one group delivered.
    async fn group(&self, body: Value) -> (Option<SignalEnvelope>, Vec<Value>) {
        let (status, answer) = self.signals(&body).await;
        assert_eq!(status, 200, "{body} -> {answer}");
        match self.take_one() {
            Arrival::Signals { group, received_ms } => {
                assert_eq!(received_ms, 1_787_449_000_123, "stamped through the port");
                (group.envelope, group.items)
            }
            other => panic!("expected signals, got {other:?}"),
        }
    }
    async fn agent(&self, body: Value) -> AgentEvent {
        let (status, _) = self.post("/agent-event", body.to_string()).await;
        assert_eq!(status, 200);
        match self.take_one() {
            Arrival::Agent { event, .. } => event,
            other => panic!("expected an agent event, got {other:?}"),
        }
    }
    fn take_one(&self) -> Arrival {
        let mut all = self.fake.take();
        assert_eq!(all.len(), 1, "{all:?}");
        all.pop().unwrap()
    }
    async fn stop(self) {
        self.cancel.cancel();
        tokio::time::timeout(Duration::from_secs(5), self.ingress.stopped()).await.expect("stops");
    }
}

/// Write `head` (and `body`) on a fresh connection, then read what comes
/// back within 5 s: (status, whole answer). Write errors are ignored (the
/// server may stop reading).
async fn raw(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let _ = s.write_all(head.as_bytes()).await;
    let _ = s.write_all(body).await;
    read_answer(&mut s).await
}

async fn read_answer(s: &mut tokio::net::TcpStream) -> (u16, String) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => buf.extend_from_slice(&chunk[..n]),
            Err(_) => break,
        }
        // One answer is all we want: stop once its body is complete.
        let text = String::from_utf8_lossy(&buf);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let len = head.lines().find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap()));
            if len.is_some_and(|n| body.len() >= n) {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&buf).to_string();
    let status = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text)
}

fn post_head(host: &str, extra: &str, body: &[u8]) -> String {
    format!("POST /signals HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len())
}

const BODY: &str = r#"{"signals":[{"repo":"acme/app"}]}"#;

#[tokio::test]
async fn the_guard_refuses_foreign_hosts_and_origins() {
    let s = Server::start(false).await;
    let (status, text) = raw(s.addr(), &post_head("evil.example", "", BODY.as_bytes()), BODY.as_bytes()).await;
    assert_eq!(status, 421, "{text}");
    let (status, _) = raw(s.addr(), &post_head("evil.example:8770", "", BODY.as_bytes()), BODY.as_bytes()).await;
    assert_eq!(status, 421);
    let (status, _) = raw(s.addr(), &post_head("127.0.0.1", "Origin: https://evil.example\r\n", BODY.as_bytes()), BODY.as_bytes()).await;
    assert_eq!(status, 403);
    let (status, _) = raw(s.addr(), &post_head("localhost", "Origin: null\r\n", BODY.as_bytes()), BODY.as_bytes()).await;
    assert_eq!(status, 403);
    // The guard runs before the route: a foreign host gets 421 even on an unknown path or a wrong method.
    let (status, _) = raw(s.addr(), "GET /nowhere HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", b"").await;
    assert_eq!(status, 421);
    let (status, _) = raw(s.addr(), "GET /signals HTTP/1.1\r\nHost: localhost\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n", b"").await;
    assert_eq!(status, 403);
    assert!(s.fake.take().is_empty(), "nothing refused arrives");
    s.stop().await;
}

#[tokio::test]
async fn loopback_hosts_and_origins_pass() {
    let s = Server::start(false).await;
    let port = s.addr().port();
    let hosts =
        ["127.0.0.1".to_string(), format!("127.0.0.1:{port}"), "localhost".into(), format!("localhost:{port}"), "[::1]".into(), format!("[::1]:{port}")];
    for host in &hosts {
        let (status, text) = raw(s.addr(), &post_head(host, "", BODY.as_bytes()), BODY.as_bytes()).await;
        assert_eq!(status, 200, "Host {host}: {text}");
        let origin = format!("Origin: http://{host}\r\n");
        let (status, text) = raw(s.addr(), &post_head(host, &origin, BODY.as_bytes()), BODY.as_bytes()).await;
        assert_eq!(status, 200, "Origin http://{host}: {text}");
    }
    assert_eq!(s.fake.take().len(), hosts.len() * 2);
    s.stop().await;
}

#[tokio::test]
async fn the_token_when_required() {
    let s = Server::start(true).await;
    let head = |auth: &str| post_head("127.0.0.1", auth, BODY.as_bytes());
    assert_eq!(raw(s.addr(), &head(""), BODY.as_bytes()).await.0, 401, "missing");
    assert_eq!(raw(s.addr(), &head("Authorization: Bearer 0123456789abcdef0123456789abcdee\r\n"), BODY.as_bytes()).await.0, 401, "wrong");
    assert_eq!(raw(s.addr(), &head("Authorization: Bearer 0123\r\n"), BODY.as_bytes()).await.0, 401, "short");
    assert_eq!(raw(s.addr(), &head(&format!("Authorization: Basic {TOKEN}\r\n")), BODY.as_bytes()).await.0, 401, "not bearer");
    let (status, text) = raw(s.addr(), &head(&format!("Authorization: Bearer {TOKEN}\r\n")), BODY.as_bytes()).await;
    assert_eq!(status, 200, "{text}");
    assert!(!text.contains(TOKEN), "the token is never echoed");
    // Relations pass the same rule.
    let r = s.http.get(s.url("/relations/yui")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 401);
    assert_eq!(s.fake.take().len(), 1);
    s.stop().await;

    // Not required: the header is not looked at.
    let s = Server::start(false).await;
    assert_eq!(raw(s.addr(), &head("Authorization: Bearer wrong\r\n"), BODY.as_bytes()).await.0, 200);
    s.stop().await;
}

#[tokio::test]
async fn methods_paths_and_bad_bodies() {
    let s = Server::start(false).await;
    let r = s.http.get(s.url("/signals")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 405);
    assert_eq!(r.headers()["allow"], "POST");
    assert_eq!(s.http.put(s.url("/signals")).body(BODY).send().await.unwrap().status().as_u16(), 405);
    assert_eq!(s.http.get(s.url("/agent-event")).send().await.unwrap().status().as_u16(), 405);
    let r = s.http.delete(s.url("/relations/yui")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 405);
    assert_eq!(r.headers()["allow"], "GET, PUT");
    assert_eq!(s.http.post(s.url("/nowhere")).body(BODY).send().await.unwrap().status().as_u16(), 404);
    assert_eq!(s.http.post(s.url("/signals/")).body(BODY).send().await.unwrap().status().as_u16(), 404);

    for (body, why) in [
        ("not json", "not JSON"),
        ("", "empty"),
        ("{}", "no signals"),
        (r#"{"signals":{"a":1}}"#, "signals not an array"),
        (r#"{"signals":null}"#, "signals null"),
        ("[1]", "not an object"),
        (r#"{"signals":[1]"#, "cut short"),
    ] {
        let (status, answer) = s.post("/signals", body).await;
        assert_eq!(status, 400, "{why}: {answer}");
        assert!(answer["error"].is_string(), "{why}: {answer}");
    }
    assert_eq!(s.post("/agent-event", "nope").await.0, 400);
    assert!(s.fake.take().is_empty());

    let (status, answer) = s.signals(&json!({ "signals": [1, "two", { "three": 3 }, [4], null] })).await;
    assert_eq!((status, answer), (200, json!({ "accepted": 5 })));
    let (status, answer) = s.signals(&json!({ "signals": [] })).await;
    assert_eq!((status, answer), (200, json!({ "accepted": 0 })), "an empty group is still delivered");
    assert_eq!(s.fake.take().len(), 2);
    s.stop().await;
}

/// A valid /signals body of exactly `len` bytes.
fn body_of(len: usize) -> Vec<u8> {
    let shell = r#"{"signals":[""]}"#;
    let pad = "x".repeat(len - shell.len());
    format!(r#"{{"signals":["{pad}"]}}"#).into_bytes()
}

#[tokio::test]
async fn bodies_over_the_limit_answer_413_unread() {
    let s = Server::start(false).await;
    // The limit is inclusive.
    assert_eq!(s.post("/signals", body_of(INGRESS_BODY_BYTES)).await.0, 200);
    assert_eq!(s.fake.take().len(), 1);
    assert_eq!(s.post("/signals", body_of(INGRESS_BODY_BYTES + 1)).await.0, 413);
    // 70 kB with a Content-Length.
    let (status, answer) = s.post("/signals", body_of(70_000)).await;
    assert_eq!(status, 413, "{answer}");

    // 70 kB streamed in chunks, no Content-Length.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> = body_of(70_000).chunks(4096).map(|c| Ok(c.to_vec())).collect();
    let r = s.http.post(s.url("/signals")).body(reqwest::Body::wrap_stream(futures_util::stream::iter(chunks))).send().await;
    match r {
        Ok(r) => assert_eq!(r.status().as_u16(), 413),
        Err(e) => panic!("chunked 70 kB: {e}"),
    }

    // The server must answer without waiting for the rest: a chunked body
    // that passes the limit and then stalls (never ends) still gets its 413.
    let mut conn = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    conn.write_all(b"POST /signals HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n").await.unwrap();
    for _ in 0..18 {
        conn.write_all(format!("{:x}\r\n{}\r\n", 4096, "y".repeat(4096)).as_bytes()).await.unwrap();
    }
    let (status, text) = read_answer(&mut conn).await;
    assert_eq!(status, 413, "{text}");
    drop(conn);

    // A Content-Length over the limit answers before any body byte is sent.
    let mut conn = tokio::net::TcpStream::connect(s.addr()).await.unwrap();
    conn.write_all(b"POST /signals HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000\r\n\r\n").await.unwrap();
    let (status, _) = read_answer(&mut conn).await;
    assert_eq!(status, 413);
    drop(conn);

    // A Content-Length under the truth is only read as far as it says.
    let big = body_of(70_000);
    let (status, _) = raw(s.addr(), "POST /signals HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\nConnection: close\r\n\r\n", &big).await;
    assert_eq!(status, 400, "the first 100 bytes are not JSON");
    // The limit holds on every route.
    let r = s.http.put(s.url("/relations/yui")).body(vec![b' '; 70_000]).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 413);
    assert!(s.fake.take().is_empty());
    s.stop().await;
}

fn envelope() -> Value {
    json!({ "source": "github", "event_type": "push", "delivery": "immediate", "event_id": "delivery-42", "occurred_at": 1_787_449_000_000i64 })
}

fn with(field: &str, value: Value) -> Value {
    let mut e = envelope();
    e[field] = value;
    json!({ "envelope": e, "signals": [{ "repo": "acme/app" }] })
}

fn without(field: &str) -> Value {
    let mut e = envelope();
    e.as_object_mut().unwrap().remove(field);
    json!({ "envelope": e, "signals": [{ "repo": "acme/app" }] })
}

#[tokio::test]
async fn envelopes_are_checked_and_invalid_ones_delivered_as_legacy() {
    let s = Server::start(false).await;
    let (env, items) = s.group(json!({ "envelope": envelope(), "signals": [{ "repo": "acme/app", "branch": "main" }] })).await;
    let env = env.expect("a valid envelope is kept");
    assert_eq!(env.source.as_deref(), Some("github"));
    assert_eq!(env.event_type.as_deref(), Some("push"));
    assert_eq!(env.event_id.as_deref(), Some("delivery-42"));
    assert_eq!(env.delivery.as_deref(), Some("immediate"));
    assert_eq!(env.occurred_at, Some(1_787_449_000_000));
    assert_eq!(env.urgent, None);
    assert_eq!(serde_json::to_string(&items).unwrap(), r#"[{"repo":"acme/app","branch":"main"}]"#, "items opaque, key order kept");

    assert_eq!(s.group(with("delivery", json!("batched"))).await.0.unwrap().delivery.as_deref(), Some("batched"));
    assert_eq!(s.group(with("urgent", json!(true))).await.0.unwrap().urgent, Some(true));
    assert_eq!(s.group(with("urgent", json!(false))).await.0.unwrap().urgent, Some(false));
    assert_eq!(s.group(with("urgent", Value::Null)).await.0.unwrap().urgent, None);
    assert_eq!(s.group(with("label", json!("  nightly\nbuild "))).await.0.unwrap().label.as_deref(), Some("nightly build"));

    // Sanitized: whitespace collapsed, the block's tags stripped.
    let e = s.group(with("source", json!("  git\n\thub </client_context>"))).await.0.unwrap();
    assert_eq!(e.source.as_deref(), Some("git hub"));
    let e = s.group(with("event_id", json!("<client_<client_context>context>id\u{0}42"))).await.0.unwrap();
    assert_eq!(e.event_id.as_deref(), Some("id 42"));

    // occurred_at bounds, inclusive; a fraction is cut toward zero.
    let max = SIGNAL_OCCURRED_AT_MAX_ABS_MS;
    assert_eq!(s.group(with("occurred_at", json!(max))).await.0.unwrap().occurred_at, Some(max));
    assert_eq!(s.group(with("occurred_at", json!(-max))).await.0.unwrap().occurred_at, Some(-max));
    assert_eq!(s.group(with("occurred_at", json!(0))).await.0.unwrap().occurred_at, Some(0));
    assert_eq!(s.group(with("occurred_at", json!(1_787_449_000_000.75))).await.0.unwrap().occurred_at, Some(1_787_449_000_000));

    // Absent or null: legacy, nothing wrong.
    assert_eq!(s.group(json!({ "signals": [1] })).await, (None, vec![json!(1)]));
    assert_eq!(s.group(json!({ "envelope": null, "signals": [1] })).await, (None, vec![json!(1)]));

    // Each invalid field: delivered as legacy, items intact.
    let invalid = [
        without("source"),
        with("source", json!("")),
        with("source", json!(" \n\t ")),
        with("source", json!("<client_context>")),
        with("source", json!(42)),
        without("event_type"),
        with("event_type", Value::Null),
        with("event_type", json!(["push"])),
        without("event_id"),
        with("event_id", json!("")),
        with("event_id", json!(42)),
        without("delivery"),
        with("delivery", json!("later")),
        with("delivery", json!("Immediate")),
        with("delivery", json!(true)),
        without("occurred_at"),
        with("occurred_at", json!("1787449000000")),
        with("occurred_at", json!(max + 1)),
        with("occurred_at", json!(-max - 1)),
        with("occurred_at", json!(8.64e15 + 2.0)),
        with("occurred_at", json!(1e300)),
        with("occurred_at", json!(u64::MAX)),
        with("occurred_at", Value::Null),
        with("urgent", json!("yes")),
        with("urgent", json!(1)),
        with("label", json!(7)),
        json!({ "envelope": "github", "signals": [{ "repo": "acme/app" }] }),
        json!({ "envelope": [], "signals": [{ "repo": "acme/app" }] }),
        json!({ "envelope": {}, "signals": [{ "repo": "acme/app" }] }),
    ];
    for body in invalid {
        let (env, items) = s.group(body.clone()).await;
        assert_eq!(env, None, "{body}");
        assert_eq!(items, vec![json!({ "repo": "acme/app" })], "{body}");
    }
    s.stop().await;
}

fn agent_body(summary: &str, detail: Option<&str>) -> Value {
    let mut b = json!({ "tool": "claude-code", "project": "yui", "cwd": "/home/u/yui", "status": "success", "phase": "done", "session_id": "s1", "summary": summary, "ts": 1_787_449_000_000i64 });
    if let Some(d) = detail {
        b["detail"] = json!(d);
    }
    b
}

#[tokio::test]
async fn agent_events_are_cut_on_utf8_boundaries() {
    let s = Server::start(false).await;
    let e = s.agent(agent_body("Done with alpha", Some("ran the tests"))).await;
    assert_eq!(e.tool.as_deref(), Some("claude-code"));
    assert_eq!(e.phase.as_deref(), Some("done"));
    assert_eq!(e.status.as_deref(), Some("success"));
    assert_eq!(e.project.as_deref(), Some("yui"));
    assert_eq!(e.cwd.as_deref(), Some("/home/u/yui"));
    assert_eq!(e.session_id.as_deref(), Some("s1"));
    assert_eq!(e.summary.as_deref(), Some("Done with alpha"));
    assert_eq!(e.detail.as_deref(), Some("ran the tests"));
    assert_eq!(e.ts, Some(1_787_449_000_000));

    // Exactly at the limits: unchanged.
    let summary = "s".repeat(AGENT_EVENT_SUMMARY_BYTES);
    let detail = "d".repeat(AGENT_EVENT_DETAIL_BYTES);
    let e = s.agent(agent_body(&summary, Some(&detail))).await;
    assert_eq!(e.summary.as_deref(), Some(summary.as_str()));
    assert_eq!(e.detail.as_deref(), Some(detail.as_str()));

    // "a" then two-byte "é": byte 8,192 falls inside an "é", so the cut is at 8,191.
    let summary = format!("a{}", "é".repeat(5_000));
    // "x" then four-byte emoji: byte 16,384 falls inside one, the cut is at 16,381.
    let detail = format!("x{}", "😀".repeat(5_000));
    let e = s.agent(agent_body(&summary, Some(&detail))).await;
    let got = e.summary.unwrap();
    let kept = got.strip_suffix(TRUNCATED_MARKER).expect("marker appended");
    assert_eq!(kept.len(), 8_191);
    assert!(summary.starts_with(kept));
    let got = e.detail.unwrap();
    let kept = got.strip_suffix(TRUNCATED_MARKER).expect("marker appended");
    assert_eq!(kept.len(), 16_381);
    assert!(detail.starts_with(kept));
    // Three-byte characters straddling: "ab" + "あ"...: 8,192 - 2 = 8,190 = 3 * 2,730, a boundary.
    let summary = format!("ab{}", "あ".repeat(3_000));
    let got = s.agent(agent_body(&summary, None)).await.summary.unwrap();
    assert_eq!(got.strip_suffix(TRUNCATED_MARKER).unwrap().len(), 8_192);

    // An invalid payload: delivered bare (the renderer's `trigger: agent`).
    for bad in [
        json!({ "tool": "claude-code" }),
        json!([1]),
        json!({ "tool": "", "project": "p", "cwd": "/", "phase": "done", "summary": "", "ts": 1 }),
        {
            let mut b = agent_body("x", None);
            b["phase"] = json!("started");
            b
        },
        {
            let mut b = agent_body("x", None);
            b["ts"] = json!("yesterday");
            b
        },
    ] {
        assert_eq!(s.agent(bad.clone()).await, AgentEvent::default(), "{bad}");
    }
    s.stop().await;
}

#[tokio::test]
async fn relations_through_the_port() {
    let s = Server::start(false).await;
    let records = json!([{ "target": "user", "band": "warm", "note": "trusts you with deploys" }]);
    s.fake.relations.lock().unwrap().insert("yui".into(), records.clone());
    let r = s.http.get(s.url("/relations/yui")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), records);
    let r = s.http.get(s.url("/relations/nobody")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 404);
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "no character nobody");

    let put = |character: &str, body: Value| s.http.put(s.url(&format!("/relations/{character}"))).body(body.to_string()).send();
    let new = json!([{ "target": "user", "note": "é".repeat(200) }, { "target": "mio" }, { "target": "rin", "note": null }]);
    let r = put("yui", new.clone()).await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), new);
    assert_eq!(s.http.get(s.url("/relations/yui")).send().await.unwrap().json::<Value>().await.unwrap(), new, "PUT replaced");
    // A percent-encoded character name.
    assert_eq!(put("%E3%83%A6%E3%82%A4", json!([])).await.unwrap().status().as_u16(), 200);
    assert_eq!(s.fake.relations.lock().unwrap()["ユイ"], json!([]));

    for bad in [
        json!([{ "target": "user", "note": "x".repeat(201) }]),
        json!([{ "target": "user", "note": "two\nlines" }]),
        json!([{ "target": "user", "note": "two\rlines" }]),
        json!([{ "target": "user", "note": "two\u{2028}lines" }]),
        json!([{ "target": "user", "note": 5 }]),
        json!([{ "target": "user" }, "not a record"]),
        json!({ "records": [] }),
    ] {
        let r = put("yui", bad.clone()).await.unwrap();
        assert_eq!(r.status().as_u16(), 400, "{bad}");
    }
    assert_eq!(put("yui", json!("x")).await.unwrap().status().as_u16(), 400);
    let r = s.http.put(s.url("/relations/yui")).body("{").send().await.unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let r = put("refuses", json!([])).await.unwrap();
    assert_eq!(r.status().as_u16(), 400, "the port's refusal");
    assert_eq!(r.json::<Value>().await.unwrap()["error"], "the store said no");
    assert_eq!(s.fake.relations.lock().unwrap()["yui"], new, "nothing bad was stored");
    assert_eq!(s.http.get(s.url("/relations/")).send().await.unwrap().status().as_u16(), 404);
    assert!(s.fake.take().is_empty(), "relations are no arrivals");
    s.stop().await;
}

fn vm_rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_loses_and_duplicates_nothing() {
    const CLIENTS: usize = 8;
    const EACH: usize = 1_250;
    let s = Arc::new(Server::start(false).await);
    let rss_before = vm_rss_kb();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..CLIENTS {
        let s = s.clone();
        tasks.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            for i in 0..EACH {
                let mut e = envelope();
                e["event_id"] = json!(format!("c{c}-{i}"));
                let body = json!({ "envelope": e, "signals": [{ "n": i }] }).to_string();
                let r = http.post(s.url("/signals")).body(body).send().await.unwrap();
                assert_eq!(r.status().as_u16(), 200);
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let took = started.elapsed();
    let rss_after = vm_rss_kb();
    let arrivals = s.fake.take();
    println!(
        "flood: {} POST /signals from {CLIENTS} clients in {:.2?} ({:.0}/s); VmRSS {rss_before} kB -> {rss_after} kB ({:+} kB)",
        CLIENTS * EACH,
        took,
        (CLIENTS * EACH) as f64 / took.as_secs_f64(),
        rss_after as i64 - rss_before as i64
    );
    assert_eq!(arrivals.len(), CLIENTS * EACH);
    let ids: HashSet<String> = arrivals
        .iter()
        .map(|a| match a {
            Arrival::Signals { group, .. } => group.envelope.as_ref().and_then(|e| e.event_id.clone()).unwrap(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(ids.len(), CLIENTS * EACH, "no duplicates");
    let s = Arc::into_inner(s).unwrap();
    s.stop().await;
}

#[tokio::test]
async fn a_taken_port_fails_after_the_retries_and_names_it() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let mut config = IngressConfig::new(port, false, TOKEN);
    config.bind_retries = 3;
    config.bind_retry_interval = Duration::from_millis(50);
    let started = Instant::now();
    let err = serve(config, Arc::new(Fake::default()), CancellationToken::new()).await.unwrap_err();
    assert!(started.elapsed() >= Duration::from_millis(150), "three waits between four attempts");
    assert!(matches!(err, IngressError::Bind { port: p, attempts: 4, .. } if p == port), "{err:?}");
    assert!(err.to_string().contains(&format!("127.0.0.1:{port}")), "{err}");

    // Freed during the retries: the bind succeeds.
    let taken2 = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port2 = taken2.local_addr().unwrap().port();
    let mut config = IngressConfig::new(port2, false, TOKEN);
    config.bind_retry_interval = Duration::from_millis(50);
    let freer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(120));
        drop(taken2);
    });
    let cancel = CancellationToken::new();
    let ingress = serve(config, Arc::new(Fake::default()), cancel.clone()).await.unwrap();
    assert_eq!(ingress.local_addr().port(), port2);
    freer.join().unwrap();
    cancel.cancel();
    ingress.stopped().await;
    drop(taken);
}

#[tokio::test]
async fn the_spec_defaults_and_a_redacted_debug() {
    let c = IngressConfig::new(8770, true, TOKEN);
    assert_eq!((c.bind_retries, c.bind_retry_interval), (8, Duration::from_millis(500)));
    assert_eq!(IngressConfig::default().port, 8770);
    assert!(!format!("{c:?}").contains(TOKEN));
}

#[tokio::test]
async fn it_stops_when_cancelled() {
    let s = Server::start(false).await;
    let addr = s.addr();
    // An idle keep-alive connection does not hold the stop up.
    let idle = tokio::net::TcpStream::connect(addr).await.unwrap();
    assert_eq!(s.signals(&json!({ "signals": [] })).await.0, 200);
    s.stop().await;
    assert!(tokio::net::TcpStream::connect(addr).await.is_err(), "nothing listens any more");
    drop(idle);
}

// --- A bounded fuzz of the parsers (pure) ---

fn random_json(rng: &mut StdRng, depth: u32) -> Value {
    match rng.random_range(0..if depth == 0 { 6 } else { 9 }) {
        0 => Value::Null,
        1 => json!(rng.random::<bool>()),
        2 => json!(rng.random::<i64>()),
        3 => json!(rng.random::<f64>() * 10f64.powi(rng.random_range(0..300))),
        4 => json!(random_text(rng)),
        5 => json!(["NaN", "Infinity", "-Infinity", "-0", "1e400", "8640000000000001"][rng.random_range(0..6)]),
        6 => Value::Array((0..rng.random_range(0..4)).map(|_| random_json(rng, depth - 1)).collect()),
        _ => {
            let keys = [
                "signals",
                "envelope",
                "source",
                "event_type",
                "event_id",
                "delivery",
                "occurred_at",
                "urgent",
                "label",
                "summary",
                "detail",
                "tool",
                "phase",
                "ts",
                "note",
                "x",
            ];
            Value::Object((0..rng.random_range(0..5)).map(|_| (keys[rng.random_range(0..keys.len())].to_string(), random_json(rng, depth - 1))).collect())
        }
    }
}

fn random_text(rng: &mut StdRng) -> String {
    let pieces = ["a", " ", "\n", "\t", "\0", "é", "😀", "あ", "<client_context>", "</client_context>", "client_context>", "immediate", "batched", "\u{2028}"];
    (0..rng.random_range(0..8)).map(|_| pieces[rng.random_range(0..pieces.len())]).collect()
}

/// Random pieces until the text is at least `len` bytes.
fn long_text(rng: &mut StdRng, len: usize) -> String {
    let mut s = String::with_capacity(len + 32);
    while s.len() < len {
        s.push_str(&random_text(rng));
    }
    s
}

fn random_envelope(rng: &mut StdRng) -> Value {
    let mut e = envelope();
    for field in ["source", "event_type", "event_id", "delivery", "occurred_at", "urgent", "label"] {
        match rng.random_range(0..12) {
            0 => e[field] = random_json(rng, 1),
            1 => {
                e.as_object_mut().unwrap().remove(field);
            }
            _ => {}
        }
    }
    if rng.random_range(0..6) == 0 {
        e["occurred_at"] = json!(
            [SIGNAL_OCCURRED_AT_MAX_ABS_MS, -SIGNAL_OCCURRED_AT_MAX_ABS_MS, SIGNAL_OCCURRED_AT_MAX_ABS_MS + 1, i64::MIN, i64::MAX][rng.random_range(0..5)]
        );
    }
    e
}

fn mutate(rng: &mut StdRng, mut bytes: Vec<u8>) -> Vec<u8> {
    for _ in 0..rng.random_range(1..4) {
        if bytes.is_empty() {
            break;
        }
        let i = rng.random_range(0..bytes.len());
        match rng.random_range(0..5) {
            0 => bytes[i] ^= 1 << rng.random_range(0..8),
            1 => bytes.truncate(i),
            2 => bytes.insert(i, rng.random()),
            3 => {
                bytes.remove(i);
            }
            _ => {
                let junk = [&b"1e400"[..], b"NaN", b"\"\\ud800\"", b"{", b"]", b"\xff\xfe", b"99999999999999999999999"][rng.random_range(0..7)];
                bytes.splice(i..i, junk.iter().copied());
            }
        }
    }
    bytes
}

/// Parse `body` as /signals and check the invariants of an Ok result; answer
/// (enveloped, legacy) counts of 0 or 1.
fn check_signals(body: &[u8]) -> (u32, u32) {
    let Ok(parsed) = parse_signals(body) else { return (0, 0) };
    let reparsed: Value = serde_json::from_slice(body).expect("Ok means JSON");
    assert_eq!(parsed.group.items.len(), reparsed["signals"].as_array().expect("Ok means an array").len());
    if parsed.invalid_envelope.is_some() {
        assert!(parsed.group.envelope.is_none());
    }
    if let Some(e) = &parsed.group.envelope {
        for s in [&e.source, &e.event_type, &e.event_id] {
            let s = s.as_deref().expect("required");
            assert!(!s.is_empty() && sanitize(s) == s, "{s:?}");
            assert!(!s.contains('\n') && !s.contains("<client_context>") && !s.contains("</client_context>"), "{s:?}");
        }
        assert!(matches!(e.delivery.as_deref(), Some("immediate" | "batched")));
        assert!(e.occurred_at.expect("required").unsigned_abs() <= SIGNAL_OCCURRED_AT_MAX_ABS_MS as u64);
        if let Some(l) = &e.label {
            assert!(!l.is_empty() && sanitize(l) == *l);
        }
    } else if parsed.invalid_envelope.is_none() {
        assert!(reparsed.get("envelope").is_none_or(Value::is_null), "{reparsed}");
    }
    if parsed.group.envelope.is_some() {
        (1, 0)
    } else {
        (0, 1)
    }
}

/// Parse `body` as /agent-event and check the invariants; answer 1 when a
/// valid event had a field cut.
fn check_agent(body: &[u8]) -> u32 {
    let Ok(parsed) = parse_agent_event(body) else { return 0 };
    if parsed.invalid.is_some() {
        assert_eq!(parsed.event, AgentEvent::default());
    } else {
        let e = &parsed.event;
        assert!(e.summary.as_ref().unwrap().len() <= AGENT_EVENT_SUMMARY_BYTES + TRUNCATED_MARKER.len());
        assert!(e.detail.as_ref().is_none_or(|d| d.len() <= AGENT_EVENT_DETAIL_BYTES + TRUNCATED_MARKER.len()));
        assert!(matches!(e.phase.as_deref(), Some("done" | "needs_input")));
        assert!(e.ts.unwrap().unsigned_abs() <= SIGNAL_OCCURRED_AT_MAX_ABS_MS as u64);
        return [&e.summary, &e.detail].iter().any(|f| f.as_deref().is_some_and(|t| t.ends_with(TRUNCATED_MARKER))) as u32;
    }
    0
}

#[test]
fn fuzz_the_parsers() {
    let mut rng = StdRng::seed_from_u64(0x5167_4e41_4c53);
    let started = Instant::now();
    let (mut enveloped, mut legacy, mut cut) = (0, 0, 0);
    for round in 0..20_000 {
        let body: Vec<u8> = match round % 4 {
            0 => {
                let signals = if rng.random() { Value::Array(vec![random_json(&mut rng, 3)]) } else { random_json(&mut rng, 3) };
                json!({ "envelope": random_envelope(&mut rng), "signals": signals }).to_string().into_bytes()
            }
            1 => {
                let body = json!({ "envelope": random_envelope(&mut rng), "signals": [random_json(&mut rng, 2)] }).to_string().into_bytes();
                mutate(&mut rng, body)
            }
            2 => random_json(&mut rng, 4).to_string().into_bytes(),
            _ => {
                // One in twenty straddles the limits (most bytes are in these).
                let (summary, detail) = if round % 80 == 3 {
                    let s = AGENT_EVENT_SUMMARY_BYTES - 20 + rng.random_range(0..40);
                    let d = AGENT_EVENT_DETAIL_BYTES - 20 + rng.random_range(0..40);
                    (long_text(&mut rng, s), long_text(&mut rng, d))
                } else {
                    (random_text(&mut rng), random_text(&mut rng))
                };
                let mut b = agent_body(&summary, Some(&detail));
                if rng.random() {
                    b[["tool", "phase", "ts", "status", "summary", "detail"][rng.random_range(0..6)]] = random_json(&mut rng, 1);
                }
                let body = b.to_string().into_bytes();
                mutate(&mut rng, body)
            }
        };
        let (e, l) = check_signals(&body);
        (enveloped, legacy) = (enveloped + e, legacy + l);
        cut += check_agent(&body);
        let _ = parse_relations(&body);
    }
    println!(
        "fuzz: 20000 bodies in {:.2?}: {} parsed as /signals ({enveloped} enveloped, {legacy} legacy), {cut} agent events cut",
        started.elapsed(),
        enveloped + legacy
    );
    assert!(enveloped > 100 && legacy > 100 && cut > 10, "the fuzz reaches every outcome: {enveloped} / {legacy} / {cut}");
}
