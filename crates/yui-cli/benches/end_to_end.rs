//! `yui-cli` end to end over push on loopback, whole turns, beside a floor:
//! a minimal client that only parses frames and prints them. Run with
//! `cargo bench -p yui-cli --bench end_to_end`.
//!
//! Each turn is whole: the bench writes a user line to the client's stdin,
//! the fake push backend waits for the client's `turn` frame, writes one
//! `render` (one sentence), records the time, waits until the client's
//! stdout line for it was read, then writes `turn_end`; the next turn
//! starts after that, all in ONE conversation. The figure is render written
//! → its line read from the client's stdout pipe (`yui-cli`: the `speech`
//! line, printed when the sentence shows; the floor: the frame itself),
//! p50 and p99 of the first and of the last thousand turns (or half the
//! turns, when fewer than 2,000 run). For `yui-cli` the same is printed for
//! the first line that carries the reply's text, the chat `delta` (the
//! chat window's), which comes before the `speech` line (the bubble's). The resident memory of the client
//! (`VmRSS`, from /proc) is read after its first turn and after its last.
//!
//! Three clients run, one after the other, in each round: the floor (this
//! bench binary started with `YUI_BENCH_FLOOR_URL`), `yui-cli` as started
//! by default (the default sound device, or the timer sink without one;
//! the system voice when one is installed, else reading time) and `yui-cli
//! --set audio=none`. `yui-cli` gets its next user line only once the last
//! sentence finished playing (`speech_done`), so every sentence has nothing
//! playing before it; as started by default a sentence plays for its real
//! length (the system voice's audio, else reading time, 1.2 s at least), so
//! that client runs `YUI_BENCH_DEFAULT_TURNS` turns (200 by default).
//! `YUI_BENCH_TURNS` sets the number of turns of the others (10,000 by
//! default; CI and development run it small), `YUI_BENCH_ROUNDS` the rounds
//! (1 by default), `YUI_BENCH_CLI` another `yui-cli` binary (an older build,
//! for before/after figures), `YUI_BENCH_ECHO=1` echoes the clients' lines
//! to stderr.

use futures_util::{SinkExt, StreamExt};
use std::io::{BufRead, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use tokio_tungstenite::tungstenite::Message;

/// The floor: connect, hello; each stdin line sends one `turn`; every frame
/// is printed as one JSON line.
async fn floor(url: String) {
    let (ws, _) = tokio_tungstenite::connect_async(url.as_str()).await.expect("floor connects");
    let (mut tx, mut rx) = ws.split();
    tx.send(Message::text(r#"{"type":"hello","key":"k","chat_id":"yui-00000000","accepts":["error"]}"#)).await.unwrap();
    let (line_tx, mut line_rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line_tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut turns = 0u64;
    let mut out = std::io::stdout().lock();
    loop {
        tokio::select! {
            line = line_rx.recv() => {
                let Some(text) = line else { break };
                turns += 1;
                let frame = serde_json::json!({"type": "turn", "turn_id": turns.to_string(), "client_context": "", "text": text});
                if tx.send(Message::text(frame.to_string())).await.is_err() {
                    break;
                }
            }
            msg = rx.next() => {
                let Some(Ok(msg)) = msg else { break };
                let Message::Text(text) = msg else { continue };
                let Ok(frame) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
                let _ = writeln!(out, "{}", serde_json::to_string(&frame).unwrap());
                let _ = out.flush();
            }
        }
    }
}

#[derive(Default)]
struct Seen {
    times: Mutex<Vec<Instant>>,
    /// `yui-cli`'s `chat` `delta` lines: the first line carrying a reply's
    /// text (the chat window's), printed before its `speech` line.
    texts: Mutex<Vec<Instant>>,
    count: AtomicUsize,
    /// `speech_done` lines: the sentence finished playing.
    done: AtomicUsize,
    notify: Notify,
}

impl Seen {
    async fn wait(&self, n: usize) {
        Self::until(&self.count, &self.notify, n).await
    }

    async fn until(counter: &AtomicUsize, notify: &Notify, n: usize) {
        while counter.load(Ordering::SeqCst) < n {
            let notified = notify.notified();
            if counter.load(Ordering::SeqCst) >= n {
                break;
            }
            let _ = tokio::time::timeout(Duration::from_millis(100), notified).await;
        }
    }
}

/// The backend: `n` whole turns, each asked for through `ask` (a user line
/// to write), answered with one render once its `turn` frame came. With
/// `idle`, a turn is asked for only once the last sentence finished playing
/// (its `speech_done`): every sentence has nothing playing before it.
async fn backend(listener: tokio::net::TcpListener, n: usize, seen: Arc<Seen>, ask: std::sync::mpsc::Sender<usize>, idle: bool) -> Vec<Instant> {
    let (tcp, _) = listener.accept().await.unwrap();
    tcp.set_nodelay(true).unwrap();
    let mut ws = tokio_tungstenite::accept_async(tcp).await.unwrap();
    let _hello = ws.next().await;
    ws.send(Message::text(r#"{"type":"ready"}"#)).await.unwrap();
    let mut writes = Vec::with_capacity(n);
    for i in 0..n {
        if idle {
            Seen::until(&seen.done, &seen.notify, i).await;
        }
        ask.send(i).unwrap();
        let turn_id = loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    let v: serde_json::Value = serde_json::from_str(&t).unwrap();
                    if v["type"] == "turn" {
                        break v["turn_id"].as_str().unwrap().to_string();
                    }
                }
                Some(Ok(_)) => {}
                other => panic!("the client left before turn {i}: {other:?}"),
            }
        };
        let frame = format!(r#"{{"type":"render","turn_id":"{turn_id}","segments":[{{"cues":[],"speech":"Sentence {i}."}}]}}"#);
        writes.push(Instant::now());
        ws.send(Message::text(frame)).await.unwrap();
        seen.wait(i + 1).await;
        ws.send(Message::text(format!(r#"{{"type":"turn_end","turn_id":"{turn_id}"}}"#))).await.unwrap();
    }
    writes
}

/// The resident memory of process `pid`, in kB.
fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// (p50, p99) of the first and of the last turns, µs.
type FirstLast = ((f64, f64), (f64, f64));

/// One client's figures.
struct Run {
    first: (f64, f64),
    last: (f64, f64),
    /// The same for the first line carrying the text (`yui-cli`: the chat
    /// `delta`), when every turn printed one.
    text: Option<FirstLast>,
    rss_kb: (u64, u64),
}

fn pcts(lat: &[Duration]) -> (f64, f64) {
    let mut v = lat.to_vec();
    v.sort();
    let pct = |p: f64| v[((v.len() as f64 * p).ceil() as usize).clamp(1, v.len()) - 1].as_secs_f64() * 1e6;
    (pct(0.50), pct(0.99))
}

fn measure(name: &str, n: usize, marker: &'static str, mut command: Command) -> Run {
    let idle = marker.contains("speech");
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let listener = rt.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Seen::default());
    let (ask_tx, ask_rx) = std::sync::mpsc::channel::<usize>();
    let task = rt.spawn(backend(listener, n, seen.clone(), ask_tx, idle));
    command.env("YUI_BENCH_FLOOR_URL", format!("ws://{addr}/ws"));
    command.arg(format!("http://{addr}"));
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("client starts");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let rss = Arc::new(Mutex::new((0u64, 0u64)));
    let writer = {
        let rss = rss.clone();
        std::thread::spawn(move || {
            for i in ask_rx {
                // After the first turn, and before the last (the floor
                // leaves when the backend does).
                if i == 1 {
                    rss.lock().unwrap().0 = rss_kb(pid).unwrap_or(0);
                }
                if i + 1 == n {
                    rss.lock().unwrap().1 = rss_kb(pid).unwrap_or(0);
                }
                if writeln!(stdin, "turn {i}").and_then(|_| stdin.flush()).is_err() {
                    break;
                }
            }
            stdin
        })
    };
    let stdout = child.stdout.take().unwrap();
    let reader = {
        let seen = seen.clone();
        let echo = std::env::var("YUI_BENCH_ECHO").as_deref() == Ok("1");
        let t0 = Instant::now();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if echo {
                    eprintln!("{:>10.3} ms {line}", t0.elapsed().as_secs_f64() * 1e3);
                }
                if line.contains(r#""type":"delta""#) {
                    seen.texts.lock().unwrap().push(Instant::now());
                }
                if line.contains(marker) {
                    let now = Instant::now();
                    seen.times.lock().unwrap().push(now);
                    seen.count.fetch_add(1, Ordering::SeqCst);
                    seen.notify.notify_waiters();
                } else if line.contains(r#""type":"speech_done""#) {
                    seen.done.fetch_add(1, Ordering::SeqCst);
                    seen.notify.notify_waiters();
                }
            }
        })
    };
    let writes = rt.block_on(async { tokio::time::timeout(Duration::from_secs(3600), task).await.expect("bench finished").unwrap() });
    let _ = child.kill();
    let _ = child.wait();
    let _ = reader.join();
    drop(writer);
    let times = seen.times.lock().unwrap();
    let lat: Vec<Duration> = writes.iter().zip(times.iter()).map(|(w, s)| s.saturating_duration_since(*w)).collect();
    let k = 1000.min(lat.len() / 2).max(1);
    let (first, last) = (pcts(&lat[..k]), pcts(&lat[lat.len() - k..]));
    let texts = seen.texts.lock().unwrap();
    let text = (texts.len() == writes.len()).then(|| {
        let lat: Vec<Duration> = writes.iter().zip(texts.iter()).map(|(w, s)| s.saturating_duration_since(*w)).collect();
        (pcts(&lat[..k]), pcts(&lat[lat.len() - k..]))
    });
    let rss_kb = *rss.lock().unwrap();
    println!(
        "{name:<16} turns={:<6} first {k}: p50={:>7.1} µs p99={:>7.1} µs | last {k}: p50={:>7.1} µs p99={:>7.1} µs | RSS {} kB → {} kB ({:+.1} MB)",
        lat.len(),
        first.0,
        first.1,
        last.0,
        last.1,
        rss_kb.0,
        rss_kb.1,
        (rss_kb.1 as f64 - rss_kb.0 as f64) / 1024.0
    );
    if let Some((f, l)) = text {
        println!("{:<16} its chat delta line: first {k}: p50={:>7.1} µs p99={:>7.1} µs | last {k}: p50={:>7.1} µs p99={:>7.1} µs", "", f.0, f.1, l.0, l.1);
    }
    rt.shutdown_background();
    Run { first, last, text, rss_kb }
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
    let n: usize = std::env::var("YUI_BENCH_TURNS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000).max(2);
    let default_turns: usize = std::env::var("YUI_BENCH_DEFAULT_TURNS").ok().and_then(|v| v.parse().ok()).unwrap_or(200).max(2);
    let rounds: usize = std::env::var("YUI_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1);
    let cli_bin = std::env::var("YUI_BENCH_CLI").unwrap_or_else(|_| env!("CARGO_BIN_EXE_yui-cli").to_string());
    println!("push whole turns (turn → render → turn_end) in one conversation: render written → its line on the client's stdout ({n} turns a client, {default_turns} as started by default, {rounds} round(s))");
    println!("yui-cli: {cli_bin}");
    let mut floor = Command::new(std::env::current_exe().unwrap());
    floor.arg("--floor");
    let cli = |extra: &[&str]| {
        let mut c = Command::new(&cli_bin);
        c.args(["--chat-api", "push", "--key", "k"]);
        for a in extra {
            c.arg(a);
        }
        c
    };
    // Rounds alternate so every client sees the same machine.
    let mut results: Vec<(&str, Vec<Run>)> = vec![("floor", Vec::new()), ("yui-cli default", Vec::new()), ("yui-cli audio=none", Vec::new())];
    for _ in 0..rounds {
        results[0].1.push(measure("floor", n, r#""type":"render""#, clone(&floor)));
        for (i, extra) in [&[][..], &["--set", "audio=none"][..]].iter().enumerate() {
            let data = tempfile::tempdir().unwrap();
            let mut c = cli(extra);
            c.arg("--data-dir").arg(data.path()).arg("--base-url");
            let name = results[i + 1].0;
            let turns = if i == 0 { default_turns } else { n };
            let run = measure(name, turns, r#""type":"speech""#, c);
            results[i + 1].1.push(run);
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let floor_p99 = median(results[0].1.iter().map(|r| r.first.1.max(r.last.1)).collect());
    println!("medians of {rounds} round(s):");
    for (name, runs) in &results {
        let f50 = median(runs.iter().map(|r| r.first.0).collect());
        let f99 = median(runs.iter().map(|r| r.first.1).collect());
        let l50 = median(runs.iter().map(|r| r.last.0).collect());
        let l99 = median(runs.iter().map(|r| r.last.1).collect());
        let grew = median(runs.iter().map(|r| (r.rss_kb.1 as f64 - r.rss_kb.0 as f64) / 1024.0).collect());
        println!(
            "{name:<20} first p50 {f50:>7.1} µs p99 {f99:>7.1} µs | last p50 {l50:>7.1} µs p99 {l99:>7.1} µs | p99 / floor's {:.2}x | RSS {grew:+.1} MB",
            f99.max(l99) / floor_p99
        );
        if runs.iter().all(|r| r.text.is_some()) {
            let t = |pick: fn(&FirstLast) -> f64| median(runs.iter().filter_map(|r| r.text.as_ref().map(pick)).collect());
            let (f99, l99) = (t(|x| x.0 .1), t(|x| x.1 .1));
            println!(
                "{:<20} chat delta: first p50 {:>7.1} µs p99 {f99:>7.1} µs | last p50 {:>7.1} µs p99 {l99:>7.1} µs | p99 / floor's {:.2}x",
                "",
                t(|x| x.0 .0),
                t(|x| x.1 .0),
                f99.max(l99) / floor_p99
            );
        }
    }
}
