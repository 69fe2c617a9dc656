//! The `yui-demo` binary: one stdout line, a working server, a clean exit.

use std::process::Command;

use serde_json::json;
use yui_demo::test_client::{connect, frame, send, Binary};

#[tokio::test]
async fn binary_prints_one_line_and_serves_the_demo() {
    let bin = Binary::spawn(env!("CARGO_BIN_EXE_yui-demo"), &["--port", "0", "--pace", "0", "--key", "k"]);
    let mut ws = connect(bin.addr()).await;
    let hello = json!({ "type": "hello", "key": "k", "chat_id": "bin", "accepts": ["error"] });
    send(&mut ws, hello).await;
    assert_eq!(frame(&mut ws).await, json!({ "type": "ready", "chat_id": "bin", "max_turn_bytes": yui_demo::MAX_TURN_BYTES }));
    // A turn with a picture: the demo says it sees it.
    let turn = json!({ "type": "turn", "turn_id": "1", "client_context": "", "text": "hello", "images": ["data:image/jpeg;base64,AAAA"] });
    send(&mut ws, turn).await;
    let mut said = Vec::new();
    for _ in 0..50 {
        let f = frame(&mut ws).await;
        if f["type"] == "speech" || f["type"] == "render" {
            for seg in f["segments"].as_array().into_iter().flatten() {
                said.push(seg["speech"].as_str().unwrap_or_default().to_string());
            }
        }
        if f["type"] == "turn_end" {
            break;
        }
    }
    assert_eq!(said.first().map(String::as_str), Some("I can see your screen."), "{said:?}");
    drop(ws);
    // SIGTERM (or a kill elsewhere) ends it; nothing more was printed to stdout.
    bin.stop();
}

#[test]
fn binary_rejects_a_bad_pace() {
    let out = Command::new(env!("CARGO_BIN_EXE_yui-demo")).args(["--pace", "-1"]).output().expect("binary runs");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
}
