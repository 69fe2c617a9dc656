//! The daily log file carries the records of `docs/push-protocol.md` ("Log
//! records"), and never the key.

#[path = "it/common/mod.rs"]
mod common;
use common::*;
use yui_core::{UiEvent, UserCommand};

#[tokio::test]
async fn log_file_has_the_named_records_and_no_key() {
    let logs = tempfile::tempdir().unwrap();
    let guard = yui_core::logging::init(logs.path(), None).unwrap();
    let mock = mock_demo(Some("sk-SECRET-123")).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = start(&mock.base_url(), "sk-SECRET-123", dir.path(), fast_timeouts());
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "hello".into() }).unwrap();
    ended(&sink).await;
    mock.close_all(1011);
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Status { status: yui_core::Status::Reconnecting { .. } })).await.unwrap();
    assert!(session.wait_ready(WAIT).await);
    session.close().await;
    drop(guard); // flush the writer

    let mut text = String::new();
    for entry in std::fs::read_dir(logs.path()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(name.starts_with("yui.log."), "daily file name: {name}");
        text.push_str(&std::fs::read_to_string(&path).unwrap());
    }
    for record in ["ws_open", "ws_ready", "record=\"turn\"", "spoke_text=false", "push.render", "push.turn_end", "ws_reconnect"] {
        assert!(text.contains(record), "{record} missing from the log:\n{text}");
    }
    assert!(text.lines().any(|l| l.contains("ws_close") && l.contains("code=1011")), "ws_close with its code:\n{text}");
    assert!(!text.contains("sk-SECRET-123"), "the key leaked into the log");
}
