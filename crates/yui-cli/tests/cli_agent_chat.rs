//! yui-cli over `agent_chat` against yui-mock's engine, driven line by
//! line: a run that waits for an approval is released by `/approve` or
//! `/deny`, unknown commands are reported on stderr and the run goes on.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use yui_mock::agent_chat::{DENIED_OUTPUT, DENIED_REPLY};
use yui_mock::{MockConfig, MockServer};

/// A running yui-cli: stdin to write to, stdout JSON lines as they come.
struct Cli {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Value>,
    seen: Vec<Value>,
}

impl Cli {
    fn spawn(base_url: &str, data_dir: &std::path::Path) -> Cli {
        let mut child = Command::new(env!("CARGO_BIN_EXE_yui-cli"))
            .args(["--chat-api", "agent_chat", "--base-url", base_url, "--key", "k", "--data-dir"])
            .arg(data_dir)
            .args(["--set", "audio=none"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn yui-cli");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let v = serde_json::from_str::<Value>(&line).unwrap_or_else(|e| panic!("not one JSON object per line: {line:?}: {e}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Cli { stdin: child.stdin.take(), child, lines, seen: Vec::new() }
    }

    fn say(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Lines until (and including) the first that matches.
    fn until(&mut self, what: &str, hit: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut out = Vec::new();
        loop {
            let v = self.lines.recv_timeout(Duration::from_secs(20)).unwrap_or_else(|_| panic!("no {what} line; got {out:#?}"));
            self.seen.push(v.clone());
            let done = hit(&v);
            out.push(v);
            if done {
                return out;
            }
        }
    }

    /// Closes stdin and waits for the exit: the code and stderr.
    fn finish(mut self) -> (i32, String) {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        let mut stderr = String::new();
        self.child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        (status.code().unwrap_or(-1), stderr)
    }
}

fn is_chat(v: &Value, kind: &str) -> bool {
    v["type"] == "chat" && v["event"]["type"] == kind
}

fn chat_events<'a>(lines: &'a [Value], kind: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    lines.iter().filter(move |v| is_chat(v, kind)).map(|v| &v["event"])
}

async fn mock() -> MockServer {
    MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap()
}

/// One "please approve" turn answered with `answer` (`/approve`, `/deny`,
/// …): the lines of the turn, the mock's recorded approve body.
async fn answered(answer: &'static str, before: &'static [&'static str]) -> (Vec<Value>, Value, String, MockServer) {
    let mock = mock().await;
    let dir = tempfile::tempdir().unwrap();
    let (url, d) = (mock.base_url(), dir.path().to_path_buf());
    let (lines, stderr) = tokio::task::spawn_blocking(move || {
        let mut cli = Cli::spawn(&url, &d);
        for line in before {
            cli.say(line);
        }
        cli.say("please approve");
        let mut lines = cli.until("approval_request", |v| is_chat(v, "approval_request"));
        let aid = lines.last().unwrap()["event"]["approval_id"].as_str().expect("approval_id").to_string();
        cli.say(&format!("{answer} {aid}"));
        lines.extend(cli.until("turn_ended", |v| v["type"] == "turn_ended"));
        let (code, stderr) = cli.finish();
        assert_eq!(code, 0, "exits 0 on EOF; stderr: {stderr}");
        (lines, stderr)
    })
    .await
    .unwrap();
    let aid = chat_events(&lines, "approval_request").next().unwrap()["approval_id"].as_str().unwrap().to_string();
    let approve = mock.wait_for_request(&format!("/approve/{aid}"), 0, Duration::from_secs(5)).await.expect("the mock got the answer");
    assert_eq!(approve.authorization.as_deref(), Some("Bearer k"));
    (lines, approve.body, stderr, mock)
}

fn ended(lines: &[Value]) -> &Value {
    lines.iter().find(|v| v["type"] == "turn_ended").expect("turn_ended")
}

#[tokio::test(flavor = "multi_thread")]
async fn approve_releases_the_waiting_run() {
    let (lines, body, stderr, mock) = answered("/approve", &[]).await;
    assert_eq!(ended(&lines)["outcome"], "complete", "{lines:#?}");
    assert_eq!(body["decision"], "allow");
    let run_id = body["run_id"].as_str().expect("run_id");
    assert!(run_id.starts_with("run-"), "{body}");
    // (The chat line's run_id is the client's own; the engine's run id only
    // travels between the transport and the engine.)
    assert!(chat_events(&lines, "start").next().is_some(), "{lines:#?}");
    let results: Vec<&Value> = chat_events(&lines, "tool_result").collect();
    assert_eq!(results.len(), 1, "{lines:#?}");
    assert_eq!(results[0]["ok"], true);
    assert_eq!(mock.requests().iter().filter(|r| r.path == "/chat").count(), 1);
    assert!(!stderr.contains("yui-cli: unknown"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn deny_releases_the_run_and_unknown_commands_do_not_stop_the_cli() {
    let (lines, body, stderr, _mock) = answered("/deny", &["/bogus now", "/approve"]).await;
    assert!(stderr.contains("unknown command /bogus"), "{stderr}");
    assert!(stderr.contains("/approve <approval_id>"), "{stderr}");
    assert_eq!(ended(&lines)["outcome"], "complete", "{lines:#?}");
    assert_eq!(body["decision"], "deny");
    let results: Vec<&Value> = chat_events(&lines, "tool_result").collect();
    assert_eq!(results.len(), 1, "{lines:#?}");
    assert_eq!((results[0]["ok"].clone(), results[0]["output"].clone()), (Value::Bool(false), Value::from(DENIED_OUTPUT)));
    let text: String = chat_events(&lines, "delta").map(|e| e["text"].as_str().unwrap()).collect();
    assert_eq!(text, DENIED_REPLY);
}

#[tokio::test(flavor = "multi_thread")]
async fn regenerate_without_an_answer_is_an_error_and_after_one_is_accepted() {
    let mock = mock().await;
    let dir = tempfile::tempdir().unwrap();
    let (url, d) = (mock.base_url(), dir.path().to_path_buf());
    let stderr = tokio::task::spawn_blocking(move || {
        let mut cli = Cli::spawn(&url, &d);
        cli.say("/regenerate");
        cli.say("hello");
        let lines = cli.until("turn_ended", |v| v["type"] == "turn_ended");
        assert!(chat_events(&lines, "start").next().is_some(), "{lines:#?}");
        cli.say("/regenerate");
        cli.say("/version t-1 x");
        let (code, stderr) = cli.finish();
        assert_eq!(code, 0, "{stderr}");
        stderr
    })
    .await
    .unwrap();
    assert_eq!(stderr.matches("/regenerate: no answer yet").count(), 1, "only the first: {stderr}");
    assert!(stderr.contains("/version: \"x\" is not a version number"), "{stderr}");
}

/// Needs the session's Regenerate wiring (in progress on main): the CLI's
/// `/regenerate` reaches the engine as `regenerate_of` of the last answer.
#[tokio::test(flavor = "multi_thread")]
async fn regenerate_reaches_the_engine_as_a_new_version() {
    let mock = mock().await;
    let dir = tempfile::tempdir().unwrap();
    let (url, d) = (mock.base_url(), dir.path().to_path_buf());
    tokio::task::spawn_blocking(move || {
        let mut cli = Cli::spawn(&url, &d);
        cli.say("hello");
        cli.until("turn_ended", |v| v["type"] == "turn_ended");
        cli.say("/regenerate");
        cli.until("the second turn_ended", |v| v["type"] == "turn_ended");
        let (code, stderr) = cli.finish();
        assert_eq!(code, 0, "{stderr}");
    })
    .await
    .unwrap();
    let chats: Vec<Value> = mock.requests().into_iter().filter(|r| r.path == "/chat").map(|r| r.body).collect();
    assert_eq!(chats.len(), 2, "{chats:?}");
    assert_eq!(chats[1]["regenerate_of"], 1);
    let conv = mock.conversation(chats[1]["conversation_id"].as_str().unwrap()).expect("the conversation");
    assert_eq!(conv.len(), 2, "no second user message: {conv:?}");
    assert_eq!((conv[1]["versions"].as_array().unwrap().len(), conv[1]["active"].clone()), (2, Value::from(1)));
}
