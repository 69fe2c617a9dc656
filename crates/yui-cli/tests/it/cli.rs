//! yui-cli end to end against yui-mock: JSON lines out, user lines in.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Duration;
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

fn run_cli(base_url: &str, key: &str, data_dir: &std::path::Path, stdin: &str) -> (i32, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yui-cli"))
        .args(["--chat-api", "push", "--base-url", base_url, "--key", key, "--data-dir"])
        .arg(data_dir)
        .args(["--frame-wait-ms", "5000", "--set", "audio=none"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn yui-cli");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let events = stdout.lines().map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("not one JSON object per line: {l:?}: {e}"))).collect();
    (out.status.code().unwrap_or(-1), events, String::from_utf8(out.stderr).unwrap())
}

fn spoken(events: &[Value]) -> Vec<String> {
    events.iter().filter(|e| e["type"] == "speech").map(|e| e["text"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn one_turn_prints_the_reply_speech_as_json_lines() {
    let scenario = Scenario::from_json(
        r#"{"steps": [{"expect": "turn", "match": {"text": "How did the tests go?"}},
            {"send": {"type": "render", "turn_id": "$turn_id", "source": "mock",
                      "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "All green."}]}},
            {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .unwrap();
    let mock = MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let (code, events, _stderr) = tokio::task::spawn_blocking(move || run_cli(&url, "k", &d, "How did the tests go?\n")).await.unwrap();
    assert_eq!(code, 0, "exits 0 on EOF");
    assert_eq!(spoken(&events), ["All green."]);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    let started = kinds.iter().position(|k| *k == "turn_started").expect("turn_started");
    let cue = kinds.iter().position(|k| *k == "cue").expect("cue");
    let ended = kinds.iter().position(|k| *k == "turn_ended").expect("turn_ended");
    assert!(started < cue && cue < ended, "{kinds:?}");
    assert!(mock.failures().is_empty(), "{:?}", mock.failures());
    assert!(dir.path().join("chat_id").exists(), "chat_id lives in --data-dir");
    assert!(dir.path().join("logs").read_dir().unwrap().next().is_some(), "a log file in the data dir");
}

#[tokio::test(flavor = "multi_thread")]
async fn demo_conversation_is_readable_and_quit_exits_zero() {
    let mock = MockServer::start(MockConfig { pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let (code, events, _) = tokio::task::spawn_blocking(move || run_cli(&url, "k", &d, "hello\nwhat time is it?\n/quit\n")).await.unwrap();
    assert_eq!(code, 0);
    let said = spoken(&events);
    assert!(said.len() >= 2, "{said:?}");
    assert!(said.iter().any(|s| s.contains("Yui")), "the demo greets: {said:?}");
    assert_eq!(events.iter().filter(|e| e["type"] == "turn_ended").count(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_key_is_reported_on_stderr_and_as_an_event() {
    let mock = MockServer::start(MockConfig { key: Some("right".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let (code, events, stderr) = tokio::task::spawn_blocking(move || run_cli(&url, "wrong", &d, "hi\n")).await.unwrap();
    assert_eq!(code, 0);
    assert!(events.iter().any(|e| e["type"] == "status" && e["status"]["state"] == "auth_failed"), "{events:?}");
    assert!(stderr.contains("refused the key"), "{stderr}");
    assert!(events.iter().any(|e| e["type"] == "turn_ended" && e["outcome"] == "failed"));
    let _ = Duration::ZERO;
}

#[test]
fn render_context_prints_the_block() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ctx.json");
    std::fs::write(
        &file,
        r#"{"env":{"timestamp":"2026-09-14T15:04:14+09:00","timezone":"Asia/Seoul"},
        "body_state":{"posture":{"state":"standing"},"since":0},"trigger":{"kind":"user"}}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_yui-cli")).arg("render-context").arg(&file).args(["--now", "720000"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("<client_context>\n"), "{text}");
    // The block, a blank line, then the user text or (nobody typed) the background marker.
    assert!(text.ends_with("\ntime: 2026-09-14T15:04:14+09:00 (Asia/Seoul)\nbody: standing (for 12min)\ntrigger: user message\n</client_context>\n\n(something just caught your attention)\n"), "{text}");
    std::fs::write(
        &file,
        r#"{"env":{"timestamp":"2026-09-14T15:04:14+09:00","timezone":"Asia/Seoul"},
        "body_state":{"posture":{"state":"standing"},"since":0},"trigger":{"kind":"user"},"user_text":"How did the tests go?"}"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_yui-cli")).arg("render-context").arg(&file).args(["--now", "720000"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().ends_with("trigger: user message\n</client_context>\n\nHow did the tests go?\n"));
    let bad = Command::new(env!("CARGO_BIN_EXE_yui-cli")).arg("render-context").arg(dir.path().join("missing.json")).args(["--now", "0"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("missing.json"));
}

#[tokio::test(flavor = "multi_thread")]
async fn headless_tools_run_with_set_overrides() {
    let scenario = Scenario::from_json(
        r#"{"steps": [{"expect": "turn"},
            {"send": {"type": "tool_call", "id": "c1", "turn_id": "$turn_id", "name": "look", "arguments": {"at": "body"}}},
            {"expect": "tool_result"},
            {"send": {"type": "tool_call", "id": "c2", "turn_id": "$turn_id", "name": "rate_relation", "arguments": {"target": "user", "delta": 1, "why": "x"}}},
            {"expect": "tool_result"},
            {"send": {"type": "tool_call", "id": "c3", "turn_id": "$turn_id", "name": "browser", "arguments": {"action": "read"}}},
            {"expect": "tool_result"},
            {"send": {"type": "tool_call", "id": "c4", "turn_id": "$turn_id", "name": "look", "arguments": {"at": "perch_targets"}}},
            {"expect": "tool_result"},
            {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .unwrap();
    let mock = MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let out = tokio::task::spawn_blocking(move || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_yui-cli"))
            .args(["--chat-api", "push", "--base-url", &url, "--key", "k", "--data-dir"])
            .arg(&d)
            .args(["--frame-wait-ms", "5000", "--set", "look.screen=on", "--set", "relations=off", "--set", "audio=none"])
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn yui-cli");
        child.stdin.take().unwrap().write_all(b"look around\n").unwrap();
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let hello = mock.received().into_iter().find(|f| f["type"] == "hello").unwrap();
    let names: Vec<&str> = hello["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["rate_relation", "address_character", "look"], "no browser window headless");
    let turn = mock.received().into_iter().find(|f| f["type"] == "turn").unwrap();
    assert!(turn["client_context"].as_str().unwrap().contains("\ntool switches: look.screen=on, relations=off\n"), "{turn}");
    let results: Vec<Value> = mock.received().into_iter().filter(|f| f["type"] == "tool_result").collect();
    let answer = |id: &str| results.iter().find(|r| r["id"] == id).unwrap()["result"].as_str().unwrap().to_string();
    assert_eq!(answer("c1"), "standing (for 0min)");
    assert_eq!(answer("c2"), "error: relations is switched off");
    assert_eq!(answer("c3"), "error: unknown tool");
    let perch = answer("c4");
    assert!(perch == "[]" || perch.starts_with("error: "), "no display: an empty list or a clear error, got {perch}");

    // A bad override is refused before anything starts.
    let bad = Command::new(env!("CARGO_BIN_EXE_yui-cli")).args(["--set", "look.screen=maybe", "--data-dir"]).arg(dir.path()).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("look.screen takes on or off"), "{}", String::from_utf8_lossy(&bad.stderr));
}

#[tokio::test(flavor = "multi_thread")]
async fn discover_prints_one_line_per_server_that_answers_and_nothing_for_a_closed_port() {
    let open = MockServer::start(MockConfig { pace: 0.0, ..Default::default() }).await.unwrap();
    let keyed = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let ports = [open.addr().port(), closed, keyed.addr().port()];
    let out = tokio::task::spawn_blocking(move || {
        let mut cli = Command::new(env!("CARGO_BIN_EXE_yui-cli"));
        cli.arg("discover");
        for port in ports {
            cli.args(["--port", &port.to_string()]);
        }
        cli.output().unwrap()
    })
    .await
    .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}"))).collect();
    let line_of = |base: String| lines.iter().find(|l| l["base_url"] == base.as_str()).cloned();
    // yui-mock answers `/v1/models` as LiteLLM's proxy does: an OpenAI list, nothing more known.
    assert_eq!(line_of(open.base_url()), Some(serde_json::json!({"base_url": open.base_url(), "kind": "openai_compatible", "models": ["yui-mock"]})));
    assert_eq!(
        line_of(keyed.base_url()),
        Some(serde_json::json!({"base_url": keyed.base_url(), "kind": "openai_compatible", "models": []})),
        "found, its models unlisted without the key"
    );
    assert_eq!(line_of(format!("http://127.0.0.1:{closed}")), None, "a closed port prints nothing");
}
