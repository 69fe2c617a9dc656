//! The `yui-demo` binary: one stdout line, a working server, a clean exit.

use std::process::Command;

use serde_json::json;
use yui_demo::test_client::{connect, frame, send, Binary};

#[tokio::test]
async fn binary_prints_one_line_and_serves_the_demo() {
    let bin = Binary::spawn(
        env!("CARGO_BIN_EXE_yui-demo"),
        &["--port", "0", "--pace", "0", "--key", "k"],
    );
    let mut ws = connect(bin.addr()).await;
    let hello = json!({ "type": "hello", "key": "k", "chat_id": "bin", "accepts": ["error"] });
    send(&mut ws, hello).await;
    assert_eq!(
        frame(&mut ws).await,
        json!({ "type": "ready", "chat_id": "bin" })
    );
    drop(ws);
    // SIGTERM (or a kill elsewhere) ends it; nothing more was printed to stdout.
    bin.stop();
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
