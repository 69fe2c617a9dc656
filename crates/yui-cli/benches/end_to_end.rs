//! `yui-cli` end to end over push on loopback, beside a floor: a minimal
//! client that only parses frames and prints them. Run with
//! `cargo bench -p yui-cli --bench end_to_end`.
//!
//! A fake push backend writes one `speech` frame, records the time, and
//! writes the next once the client's stdout line for it was read; the
//! figure is frame written → JSON line read from the client's stdout pipe.
//! Both clients run as child processes; the floor is this bench binary
//! itself started with `YUI_BENCH_FLOOR_URL` set. `YUI_BENCH_EVENTS`
//! changes the count (10,000 by default).

use futures_util::{SinkExt, StreamExt};
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::Message;

/// The floor: connect, hello, then print every frame as one JSON line.
async fn floor(url: String) {
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str()).await.expect("floor connects");
    ws.send(Message::text(r#"{"type":"hello","key":"k","chat_id":"yui-00000000","accepts":["error"]}"#)).await.unwrap();
    let mut out = std::io::stdout().lock();
    while let Some(Ok(msg)) = ws.next().await {
        let Message::Text(text) = msg else { continue };
        let Ok(frame) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
        if frame["type"] == "ready" {
            ws.send(Message::text(r#"{"type":"turn","turn_id":"1","client_context":"","text":"go"}"#)).await.unwrap();
            continue;
        }
        let _ = writeln!(out, "{}", serde_json::to_string(&frame).unwrap());
        let _ = out.flush();
    }
}

#[derive(Default)]
struct Seen {
    times: Mutex<Vec<Instant>>,
    count: AtomicUsize,
    notify: Notify,
}

async fn backend(listener: tokio::net::TcpListener, n: usize, seen: Arc<Seen>) -> Vec<Instant> {
    let (tcp, _) = listener.accept().await.unwrap();
    tcp.set_nodelay(true).unwrap();
    let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
    let _hello = ws.next().await;
    ws.send(Message::text(r#"{"type":"ready"}"#)).await.unwrap();
    let turn_id = loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                let v: serde_json::Value = serde_json::from_str(&t).unwrap();
                if v["type"] == "turn" {
                    break v["turn_id"].as_str().unwrap().to_string();
                }
            }
            Some(Ok(_)) => {}
            other => panic!("the client left before its turn: {other:?}"),
        }
    };
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut writes = Vec::with_capacity(n);
    for i in 0..n {
        let frame = format!(r#"{{"type":"speech","turn_id":"{turn_id}","segments":[{{"cues":[],"speech":"Sentence {i}."}}]}}"#);
        writes.push(Instant::now());
        ws.send(Message::text(frame)).await.unwrap();
        while seen.count.load(Ordering::SeqCst) <= i {
            let notified = seen.notify.notified();
            if seen.count.load(Ordering::SeqCst) > i {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_millis(100), notified).await;
        }
    }
    let _ = ws.send(Message::text(format!(r#"{{"type":"turn_end","turn_id":"{turn_id}"}}"#))).await;
    writes
}

fn measure(name: &str, n: usize, mut command: Command) -> (f64, f64) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Seen::default());
    let task = rt.spawn(backend(listener, n, seen.clone()));
    command.env("YUI_BENCH_FLOOR_URL", format!("ws://{addr}/ws"));
    command.arg(format!("http://{addr}"));
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("client starts");
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(b"go\n");
    let stdout = child.stdout.take().unwrap();
    let reader = {
        let seen = seen.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if line.contains(r#""type":"speech""#) {
                    let now = Instant::now();
                    seen.times.lock().unwrap().push(now);
                    seen.count.fetch_add(1, Ordering::SeqCst);
                    seen.notify.notify_one();
                }
            }
        })
    };
    let writes = rt.block_on(async { tokio::time::timeout(Duration::from_secs(600), task).await.expect("bench finished").unwrap() });
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let _ = reader.join();
    let times = seen.times.lock().unwrap();
    let mut lat: Vec<Duration> = writes.iter().zip(times.iter()).map(|(w, s)| s.saturating_duration_since(*w)).collect();
    lat.sort();
    let pct = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1].as_secs_f64() * 1e6;
    let (p50, p99) = (pct(0.50), pct(0.99));
    println!("{name:<8} n={:<6} p50={p50:>7.1} µs  p99={p99:>7.1} µs  max={:>8.1} µs", lat.len(), lat.last().unwrap().as_secs_f64() * 1e6);
    rt.shutdown_background();
    (p50, p99)
}

/// A fresh command with the same program, arguments and environment.
fn clone(cmd: &Command) -> Command {
    let mut c = Command::new(cmd.get_program());
    c.args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            c.env(k, v);
        }
    }
    c
}

fn main() {
    if let Ok(url) = std::env::var("YUI_BENCH_FLOOR_URL") {
        if std::env::args().any(|a| a == "--floor") {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(floor(url));
            return;
        }
    }
    let n: usize = std::env::var("YUI_BENCH_EVENTS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000);
    println!("push speech frame written on loopback → JSON line read from the client's stdout ({n} frames each)");
    let mut floor = Command::new(std::env::current_exe().unwrap());
    floor.arg("--floor");
    let data = tempfile::tempdir().unwrap();
    let mut cli = Command::new(env!("CARGO_BIN_EXE_yui-cli"));
    cli.args(["--chat-api", "push", "--key", "k", "--data-dir"]).arg(data.path()).arg("--base-url");
    // Rounds alternate so both clients see the same machine; the medians
    // of the rounds are the figures.
    let rounds: usize = std::env::var("YUI_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let (mut f, mut c) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        f.push(measure("floor", n, clone(&floor)));
        c.push(measure("yui-cli", n, clone(&cli)));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (mut f50, mut f99): (Vec<f64>, Vec<f64>) = f.into_iter().unzip();
    let (mut c50, mut c99): (Vec<f64>, Vec<f64>) = c.into_iter().unzip();
    let (f50, f99, c50, c99) = (median(&mut f50), median(&mut f99), median(&mut c50), median(&mut c99));
    println!("median of {rounds} rounds: floor p50 {f50:.1} µs p99 {f99:.1} µs; yui-cli p50 {c50:.1} µs p99 {c99:.1} µs");
    println!("yui-cli / floor: p50 {:.2}x, p99 {:.2}x", c50 / f50, c99 / f99);
}
