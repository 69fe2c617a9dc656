//! Latency from an event written by a fake backend on loopback to its UI
//! event in the session's sink, for each of the three transports: p50 and
//! p99 over 10,000 events. Run with `cargo bench -p yui-core --bench latency`.
//!
//! The fake backend writes one event, records the time, and writes the next
//! only once the sink has seen the last, so each figure is one event's trip
//! (socket, transport task, engine, driver, sink), not a queue. The backend
//! runs on its own runtime thread; the session on its own thread, started
//! from a two-worker runtime as the app starts it
//! (`YUI_BENCH_SHARED_RUNTIME=1` runs it on that runtime's workers instead). Events: push `speech` frames (→ `speech` UI events), Responses
//! `response.reasoning_summary_text.delta` and Chat Completions
//! `reasoning_content` deltas (→ `reasoning` UI events: they reach the sink
//! at once, where text waits for its cue).
//!
//! `YUI_BENCH_EVENTS` changes the count; `YUI_BENCH_LOG=1` installs the
//! daily-file logger as the app does.
//!
//! Then whole turns (`whole_turns`), per transport (push, Responses, Chat
//! Completions, agent_chat), in ONE conversation: the user's text goes in,
//! the backend answers one sentence (push: a `render` then `turn_end` once
//! it showed; the request transports: a whole streamed reply), and the
//! next text goes in once the turn ended. The figure is reply written →
//! its `speech` UI event, p50/p99 for the first and the last thousand
//! turns (half the turns when fewer than 2,000), with this process's
//! resident memory before and after. `YUI_BENCH_TURNS` sets the turns
//! (10,000 by default); `YUI_BENCH_PART=events` or `turns` runs one part.

use futures_util::{SinkExt, StreamExt};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};
use yui_core::{ChatApi, DataDir, Session, SessionConfig, Settings, UiEvent, UserCommand};

/// What the sink saw: the arrival time of each counted event.
#[derive(Default)]
struct Seen {
    times: Mutex<Vec<Instant>>,
    count: AtomicUsize,
    notify: Notify,
}

impl Seen {
    fn mark(&self) {
        let now = Instant::now();
        self.times.lock().unwrap().push(now);
        self.count.fetch_add(1, Ordering::SeqCst);
        self.notify.notify_one();
    }
    async fn wait(&self, n: usize) {
        while self.count.load(Ordering::SeqCst) < n {
            let notified = self.notify.notified();
            if self.count.load(Ordering::SeqCst) >= n {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_millis(50), notified).await;
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

fn report(name: &str, writes: &[Instant], seen: &Seen) -> (f64, f64) {
    let times = seen.times.lock().unwrap();
    let mut lat: Vec<Duration> = writes.iter().zip(times.iter()).map(|(w, s)| s.saturating_duration_since(*w)).collect();
    lat.sort();
    let (p50, p99) = (percentile(&lat, 0.50).as_secs_f64() * 1e6, percentile(&lat, 0.99).as_secs_f64() * 1e6);
    println!("{name:<18} n={:<6} p50={p50:>7.1} µs  p99={p99:>7.1} µs  max={:>8.1} µs", lat.len(), lat.last().copied().unwrap_or_default().as_secs_f64() * 1e6);
    (p50, p99)
}

/// A push backend: ready, wait for the turn, then `n` speech frames, each
/// after the sink saw the one before.
async fn push_backend(listener: tokio::net::TcpListener, n: usize, seen: Arc<Seen>) -> Vec<Instant> {
    let (tcp, _) = listener.accept().await.unwrap();
    tcp.set_nodelay(true).unwrap();
    let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
    let _hello = ws.next().await;
    ws.send(tokio_tungstenite::tungstenite::Message::text(r#"{"type":"ready"}"#)).await.unwrap();
    let turn_id = loop {
        if let Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t))) = ws.next().await {
            let v: serde_json::Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "turn" {
                break v["turn_id"].as_str().unwrap().to_string();
            }
        }
    };
    let mut writes = Vec::with_capacity(n);
    for i in 0..n {
        let frame = format!(r#"{{"type":"speech","turn_id":"{turn_id}","segments":[{{"cues":[],"speech":"Sentence {i}."}}]}}"#);
        writes.push(Instant::now());
        ws.send(tokio_tungstenite::tungstenite::Message::text(frame)).await.unwrap();
        seen.wait(i + 1).await;
    }
    let end = format!(r#"{{"type":"turn_end","turn_id":"{turn_id}"}}"#);
    let _ = ws.send(tokio_tungstenite::tungstenite::Message::text(end)).await;
    writes
}

/// An SSE backend: one streamed answer whose body is fed event by event.
async fn sse_backend(listener: tokio::net::TcpListener, api: ChatApi, n: usize, seen: Arc<Seen>) -> Vec<Instant> {
    use axum::body::Body;
    use axum::routing::post;
    let (tx, rx) = mpsc::unbounded_channel::<Result<String, std::io::Error>>();
    let rx = Arc::new(Mutex::new(Some(rx)));
    let asked = Arc::new(Notify::new());
    let asked_tx = asked.clone();
    let handler = move || {
        let rx = rx.clone();
        let asked = asked_tx.clone();
        async move {
            let rx = rx.lock().unwrap().take().expect("one request");
            asked.notify_one();
            let stream = tokio_stream_from(rx);
            axum::response::Response::builder().header("content-type", "text/event-stream").body(Body::from_stream(stream)).unwrap()
        }
    };
    let app = axum::Router::new().route("/v1/responses", post(handler.clone())).route("/v1/chat/completions", post(handler));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    // Time from the request on: the first event must not include the turn's setup.
    asked.notified().await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut writes = Vec::with_capacity(n);
    for i in 0..n {
        let event = match api {
            ChatApi::Responses => format!(
                "event: response.reasoning_summary_text.delta\ndata: {{\"type\":\"response.reasoning_summary_text.delta\",\"item_id\":\"rs_1\",\"output_index\":0,\"summary_index\":0,\"delta\":\"step {i} \",\"sequence_number\":{i}}}\n\n"
            ),
            _ => format!(
                "data: {{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{{\"index\":0,\"delta\":{{\"reasoning_content\":\"step {i} \"}},\"finish_reason\":null}}]}}\n\n"
            ),
        };
        writes.push(Instant::now());
        tx.send(Ok(event)).unwrap();
        seen.wait(i + 1).await;
    }
    let last = match api {
        ChatApi::Responses => {
            "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"output\":[]}}\n\n"
                .to_string()
        }
        _ => "data: [DONE]\n\n".to_string(),
    };
    let _ = tx.send(Ok(last));
    writes
}

fn tokio_stream_from(mut rx: mpsc::UnboundedReceiver<Result<String, std::io::Error>>) -> impl futures_util::Stream<Item = Result<String, std::io::Error>> {
    futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

fn run(api: ChatApi, n: usize) -> (f64, f64) {
    let seen = Arc::new(Seen::default());
    let backend_rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let listener = backend_rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let backend = {
        let seen = seen.clone();
        backend_rt.spawn(async move {
            match api {
                ChatApi::Push => push_backend(listener, n, seen).await,
                other => sse_backend(listener, other, n, seen).await,
            }
        })
    };
    let client_rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let own_thread = std::env::var("YUI_BENCH_SHARED_RUNTIME").as_deref() != Ok("1");
    let dir = tempfile::tempdir().unwrap();
    let writes = client_rt.block_on(async {
        let settings = Settings::from(yui_core::settings::CharacterSettings {
            chat_api: api,
            chat_base_url: base,
            key: "k".into(),
            model: "m".into(),
            ..Default::default()
        });
        let sink_seen = seen.clone();
        let sink = Arc::new(move |e: UiEvent| {
            if matches!(e, UiEvent::Speech { .. } | UiEvent::Reasoning { .. }) {
                sink_seen.mark();
            }
        });
        let config = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
        // As the app starts it: the session on its own thread.
        let session = if own_thread { Session::start_on_own_thread(config, sink).unwrap() } else { Session::start(config, sink).unwrap() };
        assert!(session.wait_ready(Duration::from_secs(10)).await, "{api:?}: no ready");
        session.send(UserCommand::SendText { text: "go".into() }).unwrap();
        let writes = tokio::time::timeout(Duration::from_secs(300), async { backend.await.unwrap() }).await.expect("bench finished");
        session.close().await;
        writes
    });
    let figures = report(api.as_str(), &writes, &seen);
    backend_rt.shutdown_background();
    figures
}

fn main() {
    let n: usize = std::env::var("YUI_BENCH_EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let log_dir = tempfile::tempdir().unwrap();
    let _log = (std::env::var("YUI_BENCH_LOG").as_deref() == Ok("1")).then(|| yui_core::logging::init(log_dir.path(), None).unwrap());
    let part = std::env::var("YUI_BENCH_PART").unwrap_or_default();
    if part != "turns" {
        events(n);
    }
    if part != "events" {
        let turns: usize = std::env::var("YUI_BENCH_TURNS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000).max(2);
        whole_turns::run_all(turns);
    }
}

fn events(n: usize) {
    // Rounds go round the transports, so each sees the same machine; the
    // medians of the rounds are the figures.
    let rounds: usize = std::env::var("YUI_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    println!("event written by the fake backend on loopback → UI event in the sink ({n} events a run, {rounds} rounds)");
    let apis = [ChatApi::Push, ChatApi::Responses, ChatApi::ChatCompletions];
    let mut figures: Vec<Vec<(f64, f64)>> = vec![Vec::new(); apis.len()];
    for _ in 0..rounds {
        for (i, api) in apis.iter().enumerate() {
            figures[i].push(run(*api, n));
        }
    }
    for (api, runs) in apis.iter().zip(figures) {
        let (mut p50, mut p99): (Vec<f64>, Vec<f64>) = runs.into_iter().unzip();
        p50.sort_by(f64::total_cmp);
        p99.sort_by(f64::total_cmp);
        println!("median {:<18} p50={:>7.1} µs  p99={:>7.1} µs", api.as_str(), p50[p50.len() / 2], p99[p99.len() / 2]);
    }
}

/// Whole turns in one conversation, per transport (see the module doc).
mod whole_turns {
    use super::*;
    use axum::body::Body;
    use axum::routing::post;
    use yui_mock::openai::{chat, responses as r};

    /// What the sink saw: each reply's `speech` time, and the turns ended.
    #[derive(Default)]
    struct Turns {
        shown: Seen,
        ended: AtomicUsize,
        notify: Notify,
        /// The last UI events, for a turn that never ends.
        recent: Mutex<std::collections::VecDeque<String>>,
    }

    impl Turns {
        async fn ended(&self, n: usize) {
            while self.ended.load(Ordering::SeqCst) < n {
                let notified = self.notify.notified();
                if self.ended.load(Ordering::SeqCst) >= n {
                    break;
                }
                let _ = tokio::time::timeout(Duration::from_millis(50), notified).await;
            }
        }
    }

    fn rss_kb() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0)
    }

    /// Push: each `turn` frame gets a render, then `turn_end` once it showed.
    async fn push(listener: tokio::net::TcpListener, n: usize, turns: Arc<Turns>, writes: Arc<Mutex<Vec<Instant>>>) {
        use tokio_tungstenite::tungstenite::Message;
        let (tcp, _) = listener.accept().await.unwrap();
        tcp.set_nodelay(true).unwrap();
        let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
        let _hello = ws.next().await;
        ws.send(Message::text(r#"{"type":"ready"}"#)).await.unwrap();
        for i in 0..n {
            let turn_id = loop {
                match ws.next().await {
                    Some(Ok(Message::Text(t))) => {
                        let v: serde_json::Value = serde_json::from_str(&t).unwrap();
                        if v["type"] == "turn" {
                            break v["turn_id"].as_str().unwrap().to_string();
                        }
                    }
                    Some(Ok(_)) => {}
                    _ => return,
                }
            };
            let frame = format!(r#"{{"type":"render","turn_id":"{turn_id}","segments":[{{"cues":[],"speech":"Sentence {i}."}}]}}"#);
            writes.lock().unwrap().push(Instant::now());
            ws.send(Message::text(frame)).await.unwrap();
            turns.shown.wait(i + 1).await;
            ws.send(Message::text(format!(r#"{{"type":"turn_end","turn_id":"{turn_id}"}}"#))).await.unwrap();
        }
    }

    /// One whole streamed reply of sentence `i` in `api`'s wire shape.
    fn reply(api: ChatApi, i: usize) -> String {
        let text = format!("Sentence {i}.");
        match api {
            ChatApi::Responses => {
                let id = format!("resp_{i}");
                let events = [
                    r::created(&id),
                    r::in_progress(&id),
                    r::text_delta("msg_1", &text),
                    r::output_text_done("msg_1", &text),
                    r::completed(&id, serde_json::json!([]), r::usage(10, 5, 0)),
                ];
                events
                    .into_iter()
                    .enumerate()
                    .map(|(k, mut e)| {
                        e["sequence_number"] = k.into();
                        format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap())
                    })
                    .collect()
            }
            ChatApi::ChatCompletions => {
                let events = [chat::chunk_role("cc"), chat::chunk_text("cc", &text), chat::chunk_finish("cc", "stop")];
                let mut out: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
                out.push_str("data: [DONE]\n\n");
                out
            }
            _ => {
                let m = format!("m{i}");
                format!(
                    "event: start\ndata: {}\n\nevent: delta\ndata: {}\n\nevent: end\ndata: {}\n\n",
                    serde_json::json!({"msg_id": m, "run_id": format!("r{i}")}),
                    serde_json::json!({"msg_id": m, "text": text}),
                    serde_json::json!({"msg_id": m, "user_index": 2 * i, "assistant_index": 2 * i + 1, "versions": 1, "active": 0}),
                )
            }
        }
    }

    /// The request transports: each POST streams one whole reply.
    async fn sse(listener: tokio::net::TcpListener, api: ChatApi, writes: Arc<Mutex<Vec<Instant>>>) {
        let asked = Arc::new(AtomicUsize::new(0));
        // The whole request is read, as a real server does: a server that
        // answers without reading a large body closes the connection under
        // the client's next request.
        let handler = move |_body: axum::body::Bytes| {
            let (asked, writes) = (asked.clone(), writes.clone());
            async move {
                let i = asked.fetch_add(1, Ordering::SeqCst);
                let (tx, rx) = mpsc::unbounded_channel::<Result<String, std::io::Error>>();
                tokio::spawn(async move {
                    // The answer's headers leave first; the reply is timed from its write.
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    writes.lock().unwrap().push(Instant::now());
                    let _ = tx.send(Ok(reply(api, i)));
                });
                axum::response::Response::builder().header("content-type", "text/event-stream").body(Body::from_stream(tokio_stream_from(rx))).unwrap()
            }
        };
        let app = axum::Router::new()
            .route("/v1/responses", post(handler.clone()))
            .route("/v1/chat/completions", post(handler.clone()))
            .route("/chat", post(handler))
            .layer(axum::extract::DefaultBodyLimit::max(64 << 20));
        // No Nagle wait on the reply behind the headers (a server's own
        // delay, not the client's).
        use axum::serve::ListenerExt;
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        axum::serve(listener, app).await.unwrap();
    }

    fn pcts(lat: &[Duration]) -> (f64, f64) {
        let mut v = lat.to_vec();
        v.sort();
        (percentile(&v, 0.50).as_secs_f64() * 1e6, percentile(&v, 0.99).as_secs_f64() * 1e6)
    }

    fn run(api: ChatApi, n: usize) {
        let turns = Arc::new(Turns::default());
        let writes = Arc::new(Mutex::new(Vec::with_capacity(n)));
        let backend_rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let listener = backend_rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        match api {
            ChatApi::Push => backend_rt.spawn(push(listener, n, turns.clone(), writes.clone())),
            other => backend_rt.spawn(sse(listener, other, writes.clone())),
        };
        let client_rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (rss_start, rss_end) = client_rt.block_on(async {
            let settings = Settings::from(yui_core::settings::CharacterSettings {
                chat_api: api,
                chat_base_url: base,
                key: "k".into(),
                model: "m".into(),
                ..Default::default()
            });
            let seen = turns.clone();
            let sink = Arc::new(move |e: UiEvent| {
                {
                    let mut r = seen.recent.lock().unwrap();
                    if r.len() == 24 {
                        r.pop_front();
                    }
                    r.push_back(format!("{e:?}").chars().take(240).collect());
                }
                match e {
                    UiEvent::Speech { text, .. } if text.starts_with("Sentence ") => seen.shown.mark(),
                    UiEvent::TurnEnded { .. } => {
                        seen.ended.fetch_add(1, Ordering::SeqCst);
                        seen.notify.notify_one();
                    }
                    _ => {}
                }
            });
            let config = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
            let session = Session::start_on_own_thread(config, sink).unwrap();
            assert!(session.wait_ready(Duration::from_secs(10)).await, "{api:?}: no ready");
            let mut rss_start = 0;
            for i in 0..n {
                if i == 1 {
                    rss_start = rss_kb();
                }
                session.send(UserCommand::SendText { text: format!("turn {i}") }).unwrap();
                let done = tokio::time::timeout(Duration::from_secs(30), async {
                    turns.shown.wait(i + 1).await;
                    turns.ended(i + 1).await;
                })
                .await;
                if done.is_err() {
                    println!("{:<18} turn {i} showed no speech or no end within 30 s: figures of the turns before it; its last events:", api.as_str());
                    for e in turns.recent.lock().unwrap().iter() {
                        println!("    {e}");
                    }
                    break;
                }
            }
            let rss_end = rss_kb();
            session.close().await;
            (rss_start, rss_end)
        });
        backend_rt.shutdown_background();
        let writes = writes.lock().unwrap();
        let times = turns.shown.times.lock().unwrap();
        let lat: Vec<Duration> = writes.iter().zip(times.iter()).map(|(w, s)| s.saturating_duration_since(*w)).collect();
        if lat.len() < 2 {
            println!("{:<18} too few turns to report", api.as_str());
            return;
        }
        let k = 1000.min(lat.len() / 2).max(1);
        let (first, last) = (pcts(&lat[..k]), pcts(&lat[lat.len() - k..]));
        println!(
            "{:<18} turns={:<6} first {k}: p50={:>7.1} µs p99={:>7.1} µs | last {k}: p50={:>7.1} µs p99={:>7.1} µs | RSS {:+.1} MB",
            api.as_str(),
            lat.len(),
            first.0,
            first.1,
            last.0,
            last.1,
            (rss_end as f64 - rss_start as f64) / 1024.0
        );
    }

    pub fn run_all(n: usize) {
        println!("whole turns in one conversation: reply written by the fake backend → its speech UI event ({n} turns a transport)");
        // `YUI_BENCH_APIS=chat_completions,agent_chat` runs only those.
        let only = std::env::var("YUI_BENCH_APIS").unwrap_or_default();
        for api in [ChatApi::Push, ChatApi::Responses, ChatApi::ChatCompletions, ChatApi::AgentChat] {
            if only.is_empty() || only.split(',').any(|a| a.trim() == api.as_str()) {
                run(api, n);
            }
        }
    }
}
