//! The SSE endpoints of the mock: recording, scripted replies, faults.

use crate::common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use yui_mock::openai::{chat, responses};
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

fn scripted(http: Value) -> Mode {
    Mode::Scenario(Scenario::from_json(&json!({ "http": http }).to_string()).expect("scenario parses"))
}

#[tokio::test]
async fn a_scripted_stream_arrives_in_order_with_substitution() {
    let server = start(scripted(json!([{ "events": [
        { "data": responses::created("resp_$n") },
        { "raw": ": keepalive\n\n" },
        { "sleep_ms": 30 },
        { "data": responses::text_delta("msg_$n", "Hello") },
        { "data": { "type": "response.output_text.delta", "delta": "!", "sequence_number": 99 } },
        { "data": responses::completed("resp_$n", json!([]), responses::usage(1, 2, 0)) },
    ] }])))
    .await;
    let body = json!({ "stream": true, "input": "hi" });
    for n in 1..=2 {
        let resp = http_post(server.addr(), "/v1/responses", &body, None).await;
        assert_eq!(resp.status, 200);
        assert!(resp.header("content-type").unwrap().starts_with("text/event-stream"));
        assert!(resp.body.contains(": keepalive\n\n"), "{}", resp.body);
        let events: Vec<_> = parse_sse(&resp.body.replace(": keepalive\n\n", ""));
        let kinds: Vec<_> = events.iter().map(|e| e.event.clone().unwrap()).collect();
        assert_eq!(kinds, ["response.created", "response.output_text.delta", "response.output_text.delta", "response.completed"]);
        let data: Vec<Value> = events.iter().map(|e| serde_json::from_str(&e.data).unwrap()).collect();
        assert_eq!(data[0]["response"]["id"], format!("resp_{n}"), "the last reply repeats with its own $n");
        assert_eq!(data[1]["item_id"], format!("msg_{n}"));
        let seqs: Vec<_> = data.iter().map(|d| d["sequence_number"].as_u64().unwrap()).collect();
        assert_eq!(seqs, [0, 1, 99, 3], "missing sequence numbers are filled in");
    }
    // Chat Completions gets bare data lines.
    let resp = http_post(server.addr(), "/v1/chat/completions", &json!({ "stream": true, "messages": [] }), None).await;
    assert!(parse_sse(&resp.body.replace(": keepalive\n\n", "")).iter().all(|e| e.event.is_none()));
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn an_http_error_keeps_its_status_and_body_and_the_default_answers_after() {
    let server = start(Mode::Scenario(
        Scenario::from_json(
            &json!({
                "http": [
                    { "status": 429, "body": { "error": { "message": "slow down $n", "type": "rate_limit_error", "code": "rate_limit_exceeded" } } },
                    { "status": 503, "body": "upstream down" },
                ],
                "http_default": { "events": [{ "data": chat::chunk_text("c", "ok") }, { "raw": "data: [DONE]\n\n" }] },
            })
            .to_string(),
        )
        .unwrap(),
    ))
    .await;
    let body = json!({ "stream": true, "messages": [{ "role": "user", "content": "hi" }] });
    let resp = http_post(server.addr(), "/v1/chat/completions", &body, None).await;
    assert_eq!(resp.status, 429);
    assert!(resp.header("content-type").unwrap().starts_with("application/json"));
    let err: Value = serde_json::from_str(&resp.body).unwrap();
    assert_eq!(err["error"]["message"], "slow down 1");
    assert_eq!(err["error"]["code"], "rate_limit_exceeded");
    let resp = http_post(server.addr(), "/v1/responses", &body, None).await;
    assert_eq!((resp.status, resp.body.as_str()), (503, "upstream down"));
    assert!(resp.header("content-type").unwrap().starts_with("text/plain"));
    let resp = http_post(server.addr(), "/v1/chat/completions", &body, None).await;
    assert_eq!(resp.status, 200);
    assert_eq!(parse_sse(&resp.body).last().unwrap().data, "[DONE]");
}

/// Sends a POST and reads raw bytes until the connection ends; returns what
/// arrived and whether the read ended in an error or an unterminated body.
async fn raw_post(server: &MockServer, path: &str) -> (String, bool) {
    let body = r#"{"stream":true,"input":"hi"}"#;
    let req = format!("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    let mut errored = false;
    loop {
        match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await {
            Err(_) => panic!("the connection stayed open"),
            Ok(Ok(0)) => break,
            Ok(Ok(k)) => raw.extend_from_slice(&buf[..k]),
            Ok(Err(_)) => {
                errored = true;
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let terminated = text.ends_with("0\r\n\r\n");
    (text, errored || !terminated)
}

#[tokio::test]
async fn a_drop_breaks_the_body_mid_stream() {
    let server = start(scripted(json!([{ "events": [
        { "data": responses::created("resp_1") },
        { "drop": true },
        { "data": responses::text_delta("msg_1", "never sent") },
    ] }])))
    .await;
    let (text, broken) = raw_post(&server, "/v1/responses").await;
    assert!(text.contains("response.created"), "{text}");
    assert!(!text.contains("never sent"));
    assert!(broken, "the chunked body has no final chunk: {text:?}");

    // Without a drop the same body ends cleanly.
    let server = start(scripted(json!([{ "events": [{ "data": responses::created("resp_1") }] }]))).await;
    let (_t, broken) = raw_post(&server, "/v1/responses").await;
    assert!(!broken, "{_t:?}");
}

#[tokio::test]
async fn a_hang_keeps_the_connection_open_until_shutdown() {
    let server = start(scripted(json!([{ "events": [{ "data": chat::chunk_text("c", "hi") }, { "hang": true }] }]))).await;
    let body = r#"{"stream":true,"messages":[]}"#;
    let req = format!("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}", body.len());
    let mut stream = TcpStream::connect(server.addr()).await.unwrap();
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&raw).contains("\"hi\"") {
        let k = tokio::time::timeout(WAIT, stream.read(&mut buf)).await.unwrap().unwrap();
        raw.extend_from_slice(&buf[..k]);
    }
    assert!(tokio::time::timeout(Duration::from_millis(300), stream.read(&mut buf)).await.is_err(), "nothing more arrives and the connection stays open");
}

#[tokio::test]
async fn requests_are_recorded_with_their_bodies_and_authorization() {
    let server = start(Mode::Demo).await;
    let body = json!({ "model": "m", "stream": true, "input": [{ "role": "user", "content": "hello" }] });
    http_post(server.addr(), "/v1/responses", &body, Some("sk-test")).await;
    let chat_body = json!({ "model": "m", "stream": true, "messages": [{ "role": "user", "content": "hi" }] });
    http_post(server.addr(), "/v1/chat/completions", &chat_body, None).await;
    let first = server.wait_for_request("/v1/responses", 0, WAIT).await.expect("recorded");
    assert_eq!(first.body, body);
    assert_eq!(first.authorization.as_deref(), Some("Bearer sk-test"));
    let chat = server.wait_for_request("/v1/chat/completions", 0, WAIT).await.unwrap();
    assert_eq!((chat.body, chat.authorization), (chat_body, None));
    assert!(server.wait_for_request("/v1/responses", 1, Duration::from_millis(100)).await.is_none());
    let paths: Vec<_> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/v1/responses", "/v1/chat/completions"]);
}

#[tokio::test]
async fn the_key_check_gives_401_json_and_still_records() {
    let server = MockServer::start(MockConfig { key: Some("right".into()), pace: 0.0, mode: scripted(json!([{ "events": [] }])), ..MockConfig::default() })
        .await
        .unwrap();
    let body = json!({ "stream": true, "input": "hi" });
    for (path, bearer) in [("/v1/responses", None), ("/v1/chat/completions", Some("wrong"))] {
        let resp = http_post(server.addr(), path, &body, bearer).await;
        assert_eq!(resp.status, 401);
        let err: Value = serde_json::from_str(&resp.body).unwrap();
        assert_eq!(err["error"]["code"], "invalid_api_key");
    }
    let resp = http_post(server.addr(), "/v1/responses", &body, Some("right")).await;
    assert_eq!(resp.status, 200);
    let auth: Vec<_> = server.requests().into_iter().map(|r| r.authorization).collect();
    assert_eq!(auth, [None, Some("Bearer wrong".into()), Some("Bearer right".into())]);
}

#[tokio::test]
async fn without_an_http_script_the_demo_answers() {
    let server = start_scenario(r#"{ "steps": [] }"#).await;
    let resp = http_post(server.addr(), "/v1/responses", &json!({ "stream": true, "input": "hello" }), None).await;
    assert_eq!(resp.status, 200);
    assert!(resp.body.contains("Hi! I'm Yui."));
}
