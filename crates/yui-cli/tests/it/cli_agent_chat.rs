//! yui-cli over `agent_chat` against yui-mock's engine (the real engine's
//! wire), driven line by line: Allow runs the tool, Deny declines it,
//! `/stop` cancels the run on the engine, two conversations keep separate
//! histories, `/regenerate` gives version 2, `/delete` and `/fork` change
//! the engine's stored conversation (read back with `GET /chats/{id}`);
//! unknown commands are reported on stderr and the run goes on.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;
use yui_mock::agent_chat::{history_reply, DENIED_OUTPUT, DENIED_REPLY, SCRIPT_REPLY, TOOL_OUTPUT};
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
    mock_paced(0.0).await
}

async fn mock_paced(pace: f64) -> MockServer {
    MockServer::start(MockConfig { key: Some("k".into()), pace, ..Default::default() }).await.unwrap()
}

/// `GET /chats/<id>` from the mock engine (HTTP/1.0 over a plain socket):
/// the status and the stored conversation.
/// [`stored_chat`] once `done` holds for it, or as it stands after 5 s: the
/// mock records a request as it arrives, before its handler has stored
/// what the request changed.
async fn stored_chat_when(mock: &MockServer, id: &str, done: impl Fn(u16, &Value) -> bool) -> (u16, Value) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (status, chat) = stored_chat(mock, id).await;
        if done(status, &chat) || tokio::time::Instant::now() >= deadline {
            return (status, chat);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn stored_chat(mock: &MockServer, id: &str) -> (u16, Value) {
    let (addr, path) = (mock.addr(), format!("/chats/{id}"));
    tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\nAuthorization: Bearer k\r\n\r\n").unwrap();
        let mut raw = String::new();
        s.read_to_string(&mut raw).unwrap();
        let (head, body) = raw.split_once("\r\n\r\n").expect("a head");
        let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).expect("a status");
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    })
    .await
    .unwrap()
}

fn chat_bodies(mock: &MockServer) -> Vec<Value> {
    mock.requests().into_iter().filter(|r| r.path == "/chat").map(|r| r.body).collect()
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
async fn allow_runs_the_tool() {
    let (lines, body, stderr, mock) = answered("/approve", &[]).await;
    assert_eq!(ended(&lines)["outcome"], "complete", "{lines:#?}");
    assert_eq!(body, serde_json::json!({"choice": "allow"}));
    let results: Vec<&Value> = chat_events(&lines, "tool_result").collect();
    assert_eq!(results.len(), 1, "{lines:#?}");
    assert_eq!((results[0]["ok"].clone(), results[0]["output"].clone()), (Value::Bool(true), Value::from(TOOL_OUTPUT)));
    let asked = chat_events(&lines, "approval_request").next().unwrap();
    assert_ne!(asked["call_id"], results[0]["call_id"], "the engine's approval and tool ids differ");
    let text: String = chat_events(&lines, "delta").map(|e| e["text"].as_str().unwrap()).collect();
    assert_eq!(text, SCRIPT_REPLY);
    assert_eq!(chat_bodies(&mock).len(), 1);
    assert!(!stderr.contains("yui-cli: unknown"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn deny_declines_the_tool_and_unknown_commands_do_not_stop_the_cli() {
    let (lines, body, stderr, _mock) = answered("/deny", &["/bogus now", "/approve"]).await;
    assert!(stderr.contains("unknown command /bogus"), "{stderr}");
    assert!(stderr.contains("/approve <approval_id>"), "{stderr}");
    assert_eq!(ended(&lines)["outcome"], "complete", "{lines:#?}");
    assert_eq!(body, serde_json::json!({"choice": "deny"}));
    let results: Vec<&Value> = chat_events(&lines, "tool_result").collect();
    assert_eq!(results.len(), 1, "{lines:#?}");
    assert_eq!(results[0]["output"], DENIED_OUTPUT, "the engine's declined text; the tool did not run");
    let text: String = chat_events(&lines, "delta").map(|e| e["text"].as_str().unwrap()).collect();
    assert_eq!(text, DENIED_REPLY);
}

#[tokio::test(flavor = "multi_thread")]
async fn stop_cancels_the_run_on_the_engine() {
    let mock = mock_paced(5.0).await;
    let dir = tempfile::tempdir().unwrap();
    let (url, d) = (mock.base_url(), dir.path().to_path_buf());
    let lines = tokio::task::spawn_blocking(move || {
        let mut cli = Cli::spawn(&url, &d);
        cli.say("hello");
        let mut lines = cli.until("a delta", |v| is_chat(v, "delta"));
        cli.say("/stop");
        lines.extend(cli.until("turn_ended", |v| v["type"] == "turn_ended"));
        let confirmed = |v: &Value| {
            v["type"] == "conversation" && v["conversation"]["messages"].as_array().is_some_and(|m| m.iter().any(|m| m["answers"][0]["stop_confirmed"] == true))
        };
        lines.extend(cli.until("the engine's confirmation", confirmed));
        let (code, stderr) = cli.finish();
        assert_eq!(code, 0, "{stderr}");
        lines
    })
    .await
    .unwrap();
    assert_eq!(ended(&lines)["outcome"], "stopped");
    let run_id = chat_bodies(&mock)[0]["run_id"].as_str().unwrap().to_string();
    let cancel = mock.wait_for_request(&format!("/cancel/{run_id}"), 0, Duration::from_secs(5)).await.expect("POST /cancel/<run_id>");
    assert_eq!(cancel.body, Value::Null, "no body");
    // The engine did not save the cancelled exchange.
    let chat_id = chat_bodies(&mock)[0]["chat_id"].as_str().unwrap().to_string();
    assert_eq!(stored_chat(&mock, &chat_id).await.0, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn two_conversations_keep_separate_histories() {
    let mock = mock().await;
    let dir = tempfile::tempdir().unwrap();
    let (url, d) = (mock.base_url(), dir.path().to_path_buf());
    let lines = tokio::task::spawn_blocking(move || {
        let mut cli = Cli::spawn(&url, &d);
        let mut lines = Vec::new();
        for line in ["history one", "history two", "/reset", "history three"] {
            cli.say(line);
            if !line.starts_with('/') {
                lines.extend(cli.until("turn_ended", |v| v["type"] == "turn_ended"));
                // The chat window's end follows the turn's end.
                lines.extend(cli.until("the chat end", |v| is_chat(v, "end")));
            }
        }
        let (code, stderr) = cli.finish();
        assert_eq!(code, 0, "{stderr}");
        lines
    })
    .await
    .unwrap();
    let said: Vec<String> = chat_events(&lines, "end")
        .map(|end| chat_events(&lines, "delta").filter(|d| d["msg_id"] == end["msg_id"]).map(|d| d["text"].as_str().unwrap()).collect())
        .collect();
    assert_eq!(said, [history_reply(0), history_reply(2), history_reply(0)]);
    let bodies = chat_bodies(&mock);
    assert_eq!(bodies[0]["session"], bodies[1]["session"]);
    assert_ne!(bodies[1]["session"], bodies[2]["session"], "the new conversation is a session of its own");
    for b in &bodies {
        assert_eq!(b["chat_id"], b["session"]);
    }
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

#[tokio::test(flavor = "multi_thread")]
async fn regenerate_gives_version_2_on_the_engine() {
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
    let chats = chat_bodies(&mock);
    assert_eq!(chats.len(), 2, "{chats:?}");
    assert_eq!(chats[1]["regenerate_of"], 0, "the user message's index");
    let (status, chat) = stored_chat(&mock, chats[1]["chat_id"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    let messages = chat["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2, "no second exchange: {chat}");
    assert_eq!((messages[1]["version_count"].clone(), messages[1]["version_active"].clone()), (Value::from(2), Value::from(1)));
}

#[tokio::test(flavor = "multi_thread")]
async fn delete_and_fork_change_the_engines_stored_conversation() {
    let mock = mock().await;
    let dir = tempfile::tempdir().unwrap();
    let (url, d) = (mock.base_url(), dir.path().to_path_buf());
    let (tx, rx) = std::sync::mpsc::channel::<&'static str>();
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let cli = tokio::task::spawn_blocking(move || {
        let mut cli = Cli::spawn(&url, &d);
        let mut starts = Vec::new();
        for text in ["one", "two", "three"] {
            cli.say(text);
            let lines = cli.until("turn_ended", |v| v["type"] == "turn_ended");
            starts.push(chat_events(&lines, "start").next().unwrap()["msg_id"].as_str().unwrap().to_string());
        }
        // The answer of "two", then a fork at the first user message.
        cli.say(&format!("/delete {}", starts[1]));
        done_tx.send(()).unwrap();
        assert_eq!(rx.recv().unwrap(), "deleted");
        cli.say(&format!("/fork u{}", starts[0]));
        done_tx.send(()).unwrap();
        assert_eq!(rx.recv().unwrap(), "forked");
        let (code, stderr) = cli.finish();
        assert_eq!(code, 0, "{stderr}");
    });
    let wait = |rx: &std::sync::mpsc::Receiver<()>| rx.recv_timeout(Duration::from_secs(30)).expect("the cli went on");
    tokio::task::block_in_place(|| wait(&done_rx));
    let cid = chat_bodies(&mock)[0]["chat_id"].as_str().unwrap().to_string();
    mock.wait_for_request(&format!("/messages/{cid}/2"), 0, Duration::from_secs(5)).await.expect("POST /messages/<cid>/2");
    let (_, chat) = stored_chat_when(&mock, &cid, |_, c| c["messages"].as_array().is_some_and(|m| m.len() == 4)).await;
    let contents: Vec<&str> = chat["messages"].as_array().unwrap().iter().map(|m| m["content"].as_str().unwrap()).collect();
    assert_eq!(contents.len(), 4, "{chat}");
    assert!(contents[0].ends_with("one") && contents[2].ends_with("three"), "{contents:?}");
    tx.send("deleted").unwrap();
    tokio::task::block_in_place(|| wait(&done_rx));
    mock.wait_for_request(&format!("/fork/{cid}/1"), 0, Duration::from_secs(5)).await.expect("POST /fork/<cid>/1");
    let (status, fork) = stored_chat_when(&mock, &format!("{cid}-f1"), |status, _| status == 200).await;
    assert_eq!(status, 200);
    assert_eq!(fork["messages"].as_array().unwrap().len(), 2, "the first exchange: {fork}");
    tx.send("forked").unwrap();
    cli.await.unwrap();
}
