//! The `yui-demo` binary: one stdout line, a working server, a clean exit.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

fn spawn(
    args: &[&str],
) -> (
    std::process::Child,
    String,
    BufReader<std::process::ChildStdout>,
) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yui-demo"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary starts");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).expect("first line");
    (child, line, stdout)
}

#[tokio::test]
async fn binary_prints_one_line_and_serves_the_demo() {
    let (mut child, line, mut rest) = spawn(&["--port", "0", "--pace", "0", "--key", "k"]);
    let url = line
        .trim_end()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected line {line:?}"));
    let port: u16 = url
        .strip_prefix("http://127.0.0.1:")
        .expect("loopback url")
        .parse()
        .expect("port");
    assert_ne!(port, 0);
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/ws"))
        .await
        .unwrap();
    let hello = json!({ "type": "hello", "key": "k", "chat_id": "bin", "accepts": ["error"] });
    ws.send(Message::Text(hello.to_string().into()))
        .await
        .unwrap();
    let ready = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let ready: Value = serde_json::from_str(ready.to_text().unwrap()).unwrap();
    assert_eq!(ready, json!({ "type": "ready", "chat_id": "bin" }));
    drop(ws);
    // SIGTERM (or a kill elsewhere) ends it; nothing more was printed to stdout.
    #[cfg(unix)]
    {
        let pid = child.id().to_string();
        assert!(Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success());
        let status = child.wait().unwrap();
        assert!(status.success(), "clean exit on SIGTERM: {status:?}");
    }
    #[cfg(not(unix))]
    {
        child.kill().unwrap();
        child.wait().unwrap();
    }
    let mut more = String::new();
    rest.read_line(&mut more).unwrap();
    assert_eq!(more, "", "exactly one stdout line");
}

#[test]
fn binary_rejects_a_bad_pace() {
    let out = Command::new(env!("CARGO_BIN_EXE_yui-demo"))
        .args(["--pace", "-1"])
        .output()
        .expect("binary runs");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
}
