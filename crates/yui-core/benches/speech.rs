//! Time from a complete sentence on the wire to its TTS request reaching the
//! TTS server, p50 and p99. Run with `cargo bench -p yui-core --bench speech`.
//!
//! * **push**: a fake push backend writes a `speech` frame carrying one
//!   sentence of a backend-started turn.
//! * **chat_completions**: a fake SSE backend streams a reply; the figure is
//!   from writing the delta that completes a sentence (the first character
//!   after its whitespace) to the speech request for that sentence.
//!
//! The TTS server is a local axum endpoint, on a thread of its own, that notes when each
//! `POST /v1/audio/speech` arrives and answers a short WAV. Both servers and
//! the session run in this process, on loopback, so one clock times both
//! ends; the figure includes the HTTP request over loopback. Sound goes to
//! the null sink (real timing from each sentence's length). Sentences are
//! sent one at a time, each after the last request arrived.
//! `YUI_BENCH_SENTENCES` changes the count (default 200).

use axum::body::{Body, Bytes};
use axum::routing::post;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};
use yui_core::speech::voices::AudioOutput;
use yui_core::{ChatApi, DataDir, Session, SessionConfig, Settings, UiEvent, UserCommand};

#[derive(Default)]
struct Arrivals {
    times: Mutex<Vec<Instant>>,
    notify: Notify,
}

impl Arrivals {
    async fn wait(&self, n: usize) {
        loop {
            let notified = self.notify.notified();
            if self.times.lock().unwrap().len() >= n {
                return;
            }
            let _ = tokio::time::timeout(Duration::from_millis(100), notified).await;
        }
    }
}

/// 50 ms of silence, 24 kHz mono 16-bit.
fn short_wav() -> Vec<u8> {
    let n: u32 = 1_200;
    let mut out = Vec::new();
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + n * 2).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&24_000u32.to_le_bytes());
    out.extend_from_slice(&48_000u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(n * 2).to_le_bytes());
    out.resize(44 + n as usize * 2, 0);
    out
}

async fn tts_server(arrivals: Arc<Arrivals>) -> String {
    let wav = short_wav();
    let app = axum::Router::new().route(
        "/v1/audio/speech",
        post(move || {
            let at = Instant::now();
            arrivals.times.lock().unwrap().push(at);
            arrivals.notify.notify_one();
            let wav = wav.clone();
            async move { ([("content-type", "audio/wav")], wav) }
        }),
    );
    // On a thread of its own: the server's work never queues behind the
    // session's on the bench's runtime.
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    std_listener.set_nonblocking(true).unwrap();
    let url = format!("http://{}", std_listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(std_listener).unwrap();
            axum::serve(nodelay(listener), app).await.unwrap()
        });
    });
    url
}

/// A Chat Completions endpoint whose one streamed answer the bench writes
/// chunk by chunk through the returned sender.
async fn sse_server() -> (String, mpsc::UnboundedReceiver<mpsc::UnboundedSender<String>>) {
    let (streams_tx, streams_rx) = mpsc::unbounded_channel::<mpsc::UnboundedSender<String>>();
    let app = axum::Router::new().route(
        "/v1/chat/completions",
        post(move || {
            let (tx, rx) = mpsc::unbounded_channel::<String>();
            let _ = streams_tx.send(tx);
            let stream = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|s| (Ok::<Bytes, Infallible>(Bytes::from(s)), rx)) });
            async move { ([("content-type", "text/event-stream")], Body::from_stream(stream)) }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(nodelay(listener), app).await.unwrap() });
    (url, streams_rx)
}

/// A listener whose connections send small writes at once (no Nagle).
fn nodelay(listener: tokio::net::TcpListener) -> impl axum::serve::Listener<Addr = std::net::SocketAddr> {
    use axum::serve::ListenerExt;
    listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    })
}

fn chunk(text: &str) -> String {
    let v = serde_json::json!({"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
        "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]});
    format!("data: {v}\n\n")
}

fn report(name: &str, sent: &[Instant], arrived: &[Instant]) {
    let mut lat: Vec<Duration> = sent.iter().zip(arrived).map(|(s, a)| a.saturating_duration_since(*s)).collect();
    lat.sort();
    let pick = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1].as_secs_f64() * 1e6;
    println!("{name:<18} sentence on the wire → TTS request: p50 {:>7.1} µs  p99 {:>7.1} µs  ({} sentences)", pick(0.5), pick(0.99), lat.len());
}

fn session(settings: Settings, dir: &std::path::Path) -> Session {
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir).unwrap());
    cfg.audio = AudioOutput::Null;
    cfg.settings.character.voice.filler = false;
    Session::start(cfg, Arc::new(|_e: UiEvent| {})).unwrap()
}

/// A push backend on loopback with `TCP_NODELAY` (a socket without it holds
/// a small frame written right after another until the client's delayed
/// acknowledgement, up to 40 ms: the server's delay, not the client's):
/// ready, then `n` sentences of backend-started turns, each once the last
/// one's TTS request arrived.
async fn push(n: usize) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let arrivals = Arc::new(Arrivals::default());
    let tts = tts_server(arrivals.clone()).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let backend = {
        let arrivals = arrivals.clone();
        tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            tcp.set_nodelay(true).unwrap();
            let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
            let _hello = ws.next().await;
            ws.send(Message::text(r#"{"type":"ready"}"#)).await.unwrap();
            // Read what the client sends, so its frames never back up.
            let (mut tx, mut rx) = ws.split();
            tokio::spawn(async move { while let Some(Ok(_)) = rx.next().await {} });
            tokio::time::sleep(Duration::from_millis(50)).await;
            let mut sent = Vec::with_capacity(n);
            for i in 0..n {
                let frame = serde_json::json!({"type": "speech", "turn_id": format!("bg-{i}"),
                    "segments": [{"cues": [], "speech": format!("Sentence number {i} is here.")}]});
                sent.push(Instant::now());
                tx.send(Message::text(frame.to_string())).await.unwrap();
                arrivals.wait(i + 1).await;
                let end = serde_json::json!({"type": "turn_end", "turn_id": format!("bg-{i}")});
                tx.send(Message::text(end.to_string())).await.unwrap();
            }
            sent
        })
    };
    let dir = tempfile::tempdir().unwrap();
    let mut settings =
        Settings::from(yui_core::settings::CharacterSettings { chat_api: ChatApi::Push, chat_base_url: base, key: "k".into(), ..Default::default() });
    settings.character.voice.tts_base_url = tts;
    settings.character.voice.filler = false;
    let s = session(settings, dir.path());
    assert!(s.wait_ready(Duration::from_secs(10)).await);
    let sent = backend.await.unwrap();
    report("push", &sent, &arrivals.times.lock().unwrap());
    s.close().await;
}

async fn chat_completions(n: usize) {
    let arrivals = Arc::new(Arrivals::default());
    let tts = tts_server(arrivals.clone()).await;
    let (base, mut streams) = sse_server().await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = Settings::from(yui_core::settings::CharacterSettings {
        chat_api: ChatApi::ChatCompletions,
        chat_base_url: base,
        key: "k".into(),
        model: "m".into(),
        ..Default::default()
    });
    settings.character.voice.tts_base_url = tts;
    let s = session(settings, dir.path());
    assert!(s.wait_ready(Duration::from_secs(10)).await);
    s.send(UserCommand::SendText { text: "talk".into() }).unwrap();
    let out = streams.recv().await.unwrap();
    out.send(chunk("Sentence zero is open")).unwrap();
    let mut sent = Vec::with_capacity(n);
    for i in 0..n {
        // The sentence is complete once the next one's first letter arrives.
        out.send(chunk(". ")).unwrap();
        tokio::time::sleep(Duration::from_millis(2)).await;
        sent.push(Instant::now());
        out.send(chunk(&format!("Sentence {} is open", i + 1))).unwrap();
        arrivals.wait(i + 1).await;
    }
    report("chat_completions", &sent, &arrivals.times.lock().unwrap());
    drop(out);
    s.close().await;
}

fn main() {
    let n: usize = std::env::var("YUI_BENCH_SENTENCES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    rt.block_on(async {
        push(n).await;
        chat_completions(n).await;
    });
}
