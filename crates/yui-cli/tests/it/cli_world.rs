//! `yui-cli --clock START --desktop-script FILE`: scripted desktop readings
//! at scripted times drive her own initiative without a desktop: a screen
//! transition, presence away and back, and the day's first-activity
//! milestone, each seen in the `context_sent` block of the turn it began.
//! Run with `TZ=UTC` (set on the child), so local times are the script's.

use crate::common;

use serde_json::Value;
use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use yui_mock::{MockConfig, MockServer};

const WAIT: Duration = Duration::from_secs(60);

struct Cli {
    child: Child,
    events: mpsc::Receiver<Value>,
    seen: Vec<Value>,
    done: mpsc::Receiver<()>,
}

impl Cli {
    /// Start yui-cli on the mock with `script` as its desktop from `clock`.
    fn start(base_url: &str, dir: &std::path::Path, clock: &str, script: &str, extra: &[&str]) -> Cli {
        let file = dir.join("desktop.jsonl");
        std::fs::write(&file, script).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_yui-cli"));
        cmd.env("TZ", "UTC")
            .args(["--chat-api", "responses", "--base-url", base_url, "--key", "k", "--model", "m", "--data-dir"])
            .arg(dir.join("data"))
            .args(["--set", "audio=null", "--clock", clock, "--desktop-script"])
            .arg(&file)
            .args(extra);
        let common::Spawned { child, events, marked: done } = common::spawn(cmd, "desktop script done");
        Cli { child, events, seen: Vec::new(), done }
    }

    /// Wait for the script's end, then for the session to settle; answers
    /// every event seen.
    fn run_out(&mut self) -> &[Value] {
        self.done.recv_timeout(WAIT * 2).expect("the desktop script never ended");
        // Whatever the last reading began: let it end (nothing else comes).
        while let Ok(v) = self.events.recv_timeout(Duration::from_secs(2)) {
            self.seen.push(v);
        }
        &self.seen
    }

    /// Every context block sent so far, in order.
    fn blocks(&self) -> Vec<String> {
        self.seen.iter().filter(|e| e["type"] == "context_sent").map(|e| e["block"].as_str().unwrap_or_default().to_string()).collect()
    }

    fn quit(mut self) {
        let _ = self.child.stdin.take().unwrap().write_all(b"/quit\n");
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exits 0 after /quit");
                return;
            }
            assert!(Instant::now() < deadline, "yui-cli did not exit after /quit");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

async fn mock() -> MockServer {
    MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap()
}

/// Run `script` from `clock` with `extra` flags; every context block sent.
async fn blocks_of(clock: &'static str, script: &'static str, extra: &'static [&'static str]) -> (Vec<String>, tempfile::TempDir) {
    let mock = mock().await;
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let blocks = tokio::task::spawn_blocking(move || {
        let mut cli = Cli::start(&url, &d, clock, script, extra);
        cli.run_out();
        let blocks = cli.blocks();
        cli.quit();
        blocks
    })
    .await
    .unwrap();
    (blocks, dir)
}

fn with<'a>(blocks: &'a [String], needle: &str) -> Vec<&'a String> {
    blocks.iter().filter(|b| b.contains(needle)).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn eleven_minutes_in_the_editor_then_a_settled_browser_is_an_app_switch() {
    // Editor from 08:00 for 11 min, then Browser: settled at 11:00 + 60 s.
    let script = "\
{\"at_s\": 0, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 0}
{\"at_s\": 660, \"app\": \"Browser\", \"title\": \"news\", \"idle_s\": 3}
{\"at_s\": 790, \"app\": \"Browser\", \"title\": \"news\", \"idle_s\": 1}
";
    let (blocks, _dir) = blocks_of("2026-12-01T08:00:00Z", script, &["--set", "schedule=off", "--set", "idle_cues=off"]).await;
    let switched = with(&blocks, "trigger: screen app_switched");
    assert_eq!(switched.len(), 1, "one app switch; blocks: {blocks:#?}");
    let block = switched[0];
    assert!(block.contains("trigger: screen app_switched; the user left Editor after 11min and has been in the frontmost app for 1min"), "{block}");
    assert!(block.contains("frontmost: Browser — \"news\" (for 1min)"), "the scripted clock's minute: {block}");
    assert_eq!(blocks.len(), 1, "nothing else started a turn: {blocks:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn no_switch_without_the_hold() {
    // Nine minutes in the editor is not a hold: the same script shape fires nothing.
    let script = "\
{\"at_s\": 0, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 0}
{\"at_s\": 540, \"app\": \"Browser\", \"title\": \"news\", \"idle_s\": 3}
{\"at_s\": 700, \"app\": \"Browser\", \"title\": \"news\", \"idle_s\": 1}
";
    let (blocks, _dir) = blocks_of("2026-12-01T08:00:00Z", script, &["--set", "schedule=off", "--set", "idle_cues=off"]).await;
    assert!(blocks.is_empty(), "{blocks:#?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_first_activity_milestone_fires_once_at_the_scripted_time() {
    let script = "\
{\"at_s\": 0, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 0}
{\"at_s\": 300, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 2}
";
    let (blocks, dir) = blocks_of("1764576720000", script, &["--set", "screen_transitions=off", "--set", "idle_cues=off"]).await;
    // 1764576720000 = 2025-12-01T08:12:00Z.
    let fired = with(&blocks, "trigger: milestone first_activity");
    assert_eq!(fired.len(), 1, "once a day: {blocks:#?}");
    assert!(fired[0].contains("trigger: milestone first_activity (fired at 08:12)"), "{}", fired[0]);
    let latch = std::fs::read_to_string(dir.path().join("data").join("milestone-fired")).expect("the latch file");
    assert!(latch.contains("2025-12-01"), "{latch}");
}

#[tokio::test(flavor = "multi_thread")]
async fn away_past_the_limit_then_back_is_the_next_days_first_activity_at_the_return() {
    // Present at 23:50 (the day's milestone), idle from 23:51 and away past
    // 5 min, still away at midnight, back at 00:20: the new day's milestone
    // waits for the return instead of firing at midnight.
    let script = "\
{\"at_s\": 0, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 0}
{\"at_s\": 60, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 0}
{\"at_s\": 180, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 120}
{\"at_s\": 420, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 360}
{\"at_s\": 900, \"frontmost\": null, \"idle_s\": 840}
{\"at_s\": 1800, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 1}
{\"at_s\": 1830, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 2}
";
    let (blocks, _dir) =
        blocks_of("2026-12-01T23:50:00Z", script, &["--set", "screen_transitions=off", "--set", "idle_cues=off", "--set", "away_after_min=5"]).await;
    let fired: Vec<&String> = with(&blocks, "trigger: milestone first_activity");
    assert_eq!(fired.len(), 2, "one a day: {blocks:#?}");
    assert!(fired[0].contains("(fired at 23:50)"), "{}", fired[0]);
    assert!(fired[1].contains("(fired at 00:20)"), "away at midnight, fired at the return: {}", fired[1]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_script_line_stops_the_run_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.jsonl");
    std::fs::write(&file, "{\"at_s\": 0, \"app\": \"Editor\"}\n\n{\"at_s\": 5, \"app\": \"Editor\", \"idle\": 3}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_yui-cli"))
        .args(["--chat-api", "responses", "--base-url", "http://127.0.0.1:9", "--key", "k", "--data-dir"])
        .arg(dir.path().join("data"))
        .args(["--set", "audio=none", "--desktop-script"])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 3: unknown field \"idle\""), "{err}");
    assert!(out.stdout.is_empty(), "no session started: {}", String::from_utf8_lossy(&out.stdout));
    let out = Command::new(env!("CARGO_BIN_EXE_yui-cli")).args(["--clock", "soon"]).stdin(Stdio::null()).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--clock \"soon\""));
}
