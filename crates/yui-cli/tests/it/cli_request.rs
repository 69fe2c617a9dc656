//! yui-cli over the request transports (Responses, Chat Completions)
//! against yui-mock's demo agent: JSON lines out, exit 0 on EOF.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};
use yui_mock::{MockConfig, MockServer};

fn run_cli(api: &str, base_url: &str, data_dir: &std::path::Path, stdin: &str) -> (i32, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yui-cli"))
        .args(["--chat-api", api, "--base-url", base_url, "--key", "k", "--model", "m", "--data-dir"])
        .arg(data_dir)
        .args(["--set", "audio=none"])
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

async fn one_turn(api: &'static str, path: &'static str) {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let (code, events, stderr) = tokio::task::spawn_blocking(move || run_cli(api, &url, &d, "hello\n")).await.unwrap();
    assert_eq!(code, 0, "exits 0 on EOF; stderr: {stderr}");
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert!(events.iter().any(|e| e["type"] == "status" && e["status"]["state"] == "stateless"), "{kinds:?}");
    let started = kinds.iter().position(|k| *k == "turn_started").expect("turn_started");
    let speech = kinds.iter().position(|k| *k == "speech").unwrap_or_else(|| panic!("a speech line: {kinds:?}\n{stderr}"));
    let ended = kinds.iter().position(|k| *k == "turn_ended").expect("turn_ended");
    assert!(started < speech && speech < ended, "{kinds:?}");
    assert_eq!(events[ended]["outcome"], "complete", "{:?}", events[ended]);
    assert_eq!(events.iter().filter(|e| e["type"] == "turn_ended").count(), 1);
    assert!(events.iter().any(|e| e["type"] == "context_sent" && e["transport"] == api), "{kinds:?}");
    let said: Vec<&str> = events.iter().filter(|e| e["type"] == "speech").map(|e| e["text"].as_str().unwrap()).collect();
    assert!(said.iter().any(|s| s.contains("Yui")), "the demo greets: {said:?}");
    let requests = mock.requests();
    assert!(!requests.is_empty() && requests.iter().all(|r| r.path == path), "{:?}", requests.iter().map(|r| &r.path).collect::<Vec<_>>());
    assert_eq!(requests[0].authorization.as_deref(), Some("Bearer k"));
    assert_eq!(requests[0].body["model"], "m");
    assert!(!stderr.contains("Bearer k"), "the key is never printed");
}

#[tokio::test(flavor = "multi_thread")]
async fn responses_turn_prints_speech_and_turn_ended() {
    one_turn("responses", "/v1/responses").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn chat_completions_turn_prints_speech_and_turn_ended() {
    one_turn("chat_completions", "/v1/chat/completions").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn agent_chat_turn_prints_speech_and_turn_ended() {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let url = mock.base_url();
    let d = dir.path().to_path_buf();
    let (code, events, stderr) = tokio::task::spawn_blocking(move || run_cli("agent_chat", &url, &d, "hello\n")).await.unwrap();
    assert_eq!(code, 0, "exits 0 on EOF; stderr: {stderr}");
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert!(events.iter().any(|e| e["type"] == "status" && e["status"]["state"] == "stateless"), "{kinds:?}");
    let ended = events.iter().find(|e| e["type"] == "turn_ended").unwrap_or_else(|| panic!("turn_ended: {kinds:?}\n{stderr}"));
    assert_eq!(ended["outcome"], "complete", "{ended:?}");
    let said: Vec<&str> = events.iter().filter(|e| e["type"] == "speech").map(|e| e["text"].as_str().unwrap()).collect();
    assert_eq!(said, [yui_mock::agent_chat::SCRIPT_REPLY], "{kinds:?}");
    let requests = mock.requests();
    assert_eq!(requests.iter().map(|r| r.path.as_str()).collect::<Vec<_>>(), ["/chat"]);
    assert!(requests[0].body["prompt"].as_str().unwrap().ends_with("hello"));
    assert!(!stderr.contains("Bearer k"), "the key is never printed");
}
