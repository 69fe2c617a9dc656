//! The `yui-mock` binary: one stdout line, a working server, a clean exit.

use std::process::Command;

use serde_json::json;
use yui_demo::test_client::{connect, frame, send, Binary};

#[tokio::test]
async fn binary_prints_one_line_and_serves_the_demo() {
    let bin = Binary::spawn(env!("CARGO_BIN_EXE_yui-mock"), &["--demo", "--port", "0", "--pace", "0", "--key", "k", "--max-turn-bytes", "1000"]);
    let mut ws = connect(bin.addr()).await;
    let hello = json!({ "type": "hello", "key": "k", "chat_id": "bin", "accepts": ["error"] });
    send(&mut ws, hello).await;
    assert_eq!(frame(&mut ws).await, json!({ "type": "ready", "chat_id": "bin", "max_turn_bytes": 1000 }));
    drop(ws);
    // SIGTERM (or a kill elsewhere) ends it; nothing more was printed to stdout.
    bin.stop();
}

#[test]
fn binary_rejects_a_bad_scenario_file() {
    let path = std::env::temp_dir().join(format!("yui-mock-bad-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"steps": [{"nope": 1}]}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_yui-mock")).arg("--scenario").arg(&path).output().unwrap();
    std::fs::remove_file(&path).ok();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("exactly one"));
}
