//! The push socket itself: handshake, key check, size and parse guards, and
//! the test-facing MockServer controls.

use crate::common;

use std::time::Duration;

use common::*;
use serde_json::json;
use yui_mock::{MockConfig, MockServer, Mode, Scenario, MAX_FRAME_BYTES};

#[tokio::test]
async fn hello_gets_ready_with_chat_id_echo() {
    let server = start(Mode::Demo).await;
    assert!(server.base_url().starts_with("http://127.0.0.1:"));
    assert_ne!(server.addr().port(), 0);
    let mut ws = connect(server.addr()).await;
    send(&mut ws, hello_frame("yui-3f9a2c1d", "anything", &["error"])).await;
    let ready = frame(&mut ws).await;
    assert_eq!(ready, json!({ "type": "ready", "chat_id": "yui-3f9a2c1d" }));
    let hello = server.wait_for_frame("hello", 0, WAIT).await.expect("hello recorded");
    assert_eq!(hello["chat_id"], "yui-3f9a2c1d");
    assert_eq!(server.connections(), 1);
    assert_eq!(server.open_connections(), 1);
}

#[tokio::test]
async fn ready_carries_max_turn_bytes_when_configured() {
    let config = MockConfig { pace: 0.0, max_turn_bytes: Some(4_000_000), ..MockConfig::default() };
    let server = MockServer::start(config).await.unwrap();
    let (_ws, ready) = connect_ready(server.addr(), &[]).await;
    assert_eq!(ready["max_turn_bytes"], 4_000_000);
    assert_eq!(ready["chat_id"], "yui-test");
}

#[tokio::test]
async fn wrong_key_closes_4401_and_sends_nothing() {
    let config = MockConfig { key: Some("sekrit".into()), pace: 0.0, ..MockConfig::default() };
    let server = MockServer::start(config).await.unwrap();
    let mut ws = connect(server.addr()).await;
    send(&mut ws, hello_frame("c", "wrong", &[])).await;
    match next(&mut ws, WAIT).await {
        Next::Closed(code) => assert_eq!(code, Some(4401)),
        other => panic!("expected a 4401 close first, got {other:?}"),
    }
    // The right key gets its ready.
    let mut ws = connect(server.addr()).await;
    send(&mut ws, hello_frame("c", "sekrit", &[])).await;
    assert_eq!(frame(&mut ws).await["type"], "ready");
    assert_eq!(server.connections(), 2);
}

#[tokio::test]
async fn malformed_and_oversize_frames_are_dropped_and_the_socket_stays() {
    let server = start_scenario(r#"{"steps": [{"expect": "playback"}, {"send": {"type": "render", "turn_id": "ok", "segments": []}}]}"#).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send_text(&mut ws, "{not json".into()).await;
    let big = json!({ "type": "vocabulary", "vocabulary": { "pad": "x".repeat(MAX_FRAME_BYTES) } });
    send(&mut ws, big).await;
    // A turn over 256 KiB without max_turn_bytes is dropped too.
    send(&mut ws, json!({ "type": "turn", "turn_id": "1", "text": "x".repeat(MAX_FRAME_BYTES) })).await;
    send(&mut ws, json!({ "type": "playback", "turn_id": "1", "ended": "failed" })).await;
    let render = frame(&mut ws).await;
    assert_eq!(render["turn_id"], "ok");
    assert_eq!(types(&server.received()), ["hello", "playback"]);
}

#[tokio::test]
async fn big_turns_pass_up_to_max_turn_bytes() {
    let config = MockConfig { mode: Mode::Scenario(Scenario::new("quiet", vec![])), max_turn_bytes: Some(1_000_000), pace: 0.0, ..MockConfig::default() };
    let server = MockServer::start(config).await.unwrap();
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "vocabulary", "pad": "x".repeat(MAX_FRAME_BYTES) })).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "7", "text": "", "images": ["x".repeat(600_000)] })).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "8", "text": "x".repeat(1_000_001) })).await;
    send(&mut ws, json!({ "type": "stop", "turn_ids": ["7"] })).await;
    server.wait_for_frame("stop", 0, WAIT).await.expect("stop recorded");
    let turns: Vec<_> = server.received().into_iter().filter(|f| f["type"] == "turn").collect();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0]["turn_id"], "7");
    assert!(server.received().iter().all(|f| f["type"] != "vocabulary"));
}

#[tokio::test]
async fn push_close_all_and_wait_for_frame() {
    let server = start_scenario(r#"{"auto_ready": false, "steps": []}"#).await;
    assert!(!server.push(json!({ "type": "render" })).await, "no client yet");
    let mut quiet = connect(server.addr()).await;
    send(&mut quiet, hello_frame("q", "", &[])).await;
    server.wait_for_frame("hello", 0, WAIT).await.unwrap();
    assert!(!server.push(json!({ "type": "render" })).await, "a client without ready gets no push");

    let server = start(Mode::Demo).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    let frame_out = json!({ "type": "render", "turn_id": "bg-test", "source": "t", "segments": [{ "cues": [], "speech": "Done." }] });
    assert!(server.push(frame_out.clone()).await);
    assert_eq!(frame(&mut ws).await, frame_out);

    for n in 0..3 {
        send(&mut ws, json!({ "type": "playback", "turn_id": n.to_string(), "ended": "failed" })).await;
    }
    let third = server.wait_for_frame("playback", 2, WAIT).await.expect("third playback");
    assert_eq!(third["turn_id"], "2");
    assert!(server.wait_for_frame("playback", 3, Duration::from_millis(100)).await.is_none());

    server.close_all(4000);
    assert!(matches!(next(&mut ws, WAIT).await, Next::Closed(Some(4000))));
    // A client reconnects; the server counts it.
    let (_ws2, _) = connect_ready(server.addr(), &[]).await;
    assert!(server.wait_for_connections(2, WAIT).await);
    assert_eq!(server.connections(), 2);
}

#[tokio::test]
async fn shutdown_ends_open_sockets_and_frees_the_port() {
    let server = start(Mode::Demo).await;
    let addr = server.addr();
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    server.shutdown().await;
    assert!(matches!(next(&mut ws, WAIT).await, Next::Closed(_) | Next::Ended(_)));
    assert!(tokio::net::TcpStream::connect(addr).await.is_err(), "nothing listens after shutdown");
    // The same port can be bound again (a restarted backend).
    let again = MockServer::start(MockConfig { port: addr.port(), ..MockConfig::default() }).await.unwrap();
    assert_eq!(again.addr(), addr);
}

/// `POST` `body` as JSON to `path`; the status.
async fn post_json(addr: std::net::SocketAddr, path: &str, body: &serde_json::Value) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = body.to_string();
    let request = format!("POST {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("tcp connect");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut raw = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut raw)).await.expect("in time").expect("read");
    raw.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("status")
}

#[tokio::test]
async fn a_frame_posted_to_the_push_path_reaches_the_ready_client() {
    let server = start(Mode::Demo).await;
    let call = json!({ "type": "tool_call", "id": "c1", "turn_id": "t", "name": "body_action", "arguments": { "action": "stand_down" } });
    assert_eq!(post_json(server.addr(), yui_mock::PUSH_PATH, &call).await, 409, "no client yet");
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    assert_eq!(post_json(server.addr(), yui_mock::PUSH_PATH, &call).await, 200);
    assert_eq!(frame(&mut ws).await, call);
}
