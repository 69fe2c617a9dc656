//! The request transports: Responses and Chat Completions SSE.

mod common;

use common::*;
use serde_json::{json, Value};
use yui_mock::{MockConfig, MockServer, Mode};

fn data(events: &[SseEvent]) -> Vec<Value> {
    events
        .iter()
        .map(|e| serde_json::from_str(&e.data).unwrap_or_else(|err| panic!("{}: {err}", e.data)))
        .collect()
}

#[tokio::test]
async fn responses_stream_text_and_generate_express_cues() {
    let server = start(Mode::Demo).await;
    let body = json!({
        "model": "m", "stream": true, "instructions": "card",
        "input": [
            { "role": "assistant", "content": "Hello!" },
            { "role": "user", "content": "<client_context>\ntrigger: user message\n</client_context>\n\nhello yui" },
        ],
    });
    let resp = http_post(server.addr(), "/v1/responses", &body, None).await;
    assert_eq!(resp.status, 200, "{}", resp.body);
    assert!(resp
        .header("content-type")
        .unwrap()
        .starts_with("text/event-stream"));
    let events = parse_sse(&resp.body);
    let payloads = data(&events);
    for (e, p) in events.iter().zip(&payloads) {
        assert_eq!(
            e.event.as_deref(),
            p["type"].as_str(),
            "event name matches data type"
        );
    }
    let kinds: Vec<&str> = payloads
        .iter()
        .map(|p| p["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.first(), Some(&"response.created"));
    assert_eq!(kinds.last(), Some(&"response.completed"));
    let seqs: Vec<u64> = payloads
        .iter()
        .map(|p| p["sequence_number"].as_u64().unwrap())
        .collect();
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1));

    let text: String = payloads
        .iter()
        .filter(|p| p["type"] == "response.output_text.delta")
        .map(|p| p["delta"].as_str().unwrap())
        .collect();
    assert!(text.starts_with("Hi! I'm Yui."), "{text}");
    let done = payloads
        .iter()
        .find(|p| p["type"] == "response.output_text.done")
        .unwrap();
    assert_eq!(done["text"], text);
    // One cue after each sentence: delta, item added, item done.
    let first_delta = kinds
        .iter()
        .position(|k| *k == "response.output_text.delta")
        .unwrap();
    assert_eq!(kinds[first_delta + 1], "response.output_item.added");
    let call = &payloads[first_delta + 1]["item"];
    assert_eq!(
        (call["type"].as_str(), call["name"].as_str()),
        (Some("function_call"), Some("generate_express"))
    );
    let args: Value = serde_json::from_str(call["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args, json!({ "emotion_id": "happy", "motion_id": "wave" }));
    assert_eq!(
        payloads[first_delta + 2]["type"],
        "response.output_item.done"
    );
    assert_eq!(payloads[first_delta + 2]["item"]["id"], call["id"]);

    let completed = &payloads.last().unwrap()["response"];
    assert!(completed["id"].as_str().unwrap().starts_with("resp_"));
    assert_eq!(completed["status"], "completed");
    let usage = &completed["usage"];
    assert_eq!(
        usage["total_tokens"].as_u64().unwrap(),
        usage["input_tokens"].as_u64().unwrap() + usage["output_tokens"].as_u64().unwrap()
    );
    assert!(payloads
        .iter()
        .any(|p| p["type"] == "response.reasoning_summary_text.delta"));
}

#[tokio::test]
async fn responses_take_plain_string_input_and_answer_json_without_stream() {
    let server = start(Mode::Demo).await;
    let resp = http_post(
        server.addr(),
        "/v1/responses",
        &json!({ "input": "what time is it" }),
        None,
    )
    .await;
    assert_eq!(resp.status, 200);
    let body: Value = serde_json::from_str(&resp.body).unwrap();
    let message = body["output"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["type"] == "message")
        .unwrap();
    assert!(message["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("It's "));
}

#[tokio::test]
async fn chat_completions_stream_chunks_tool_calls_usage_and_done() {
    let server = MockServer::start(MockConfig {
        key: Some("k-1".into()),
        pace: 0.0,
        ..MockConfig::default()
    })
    .await
    .unwrap();
    let body = json!({
        "model": "m", "stream": true, "stream_options": { "include_usage": true },
        "messages": [
            { "role": "system", "content": "card" },
            { "role": "system", "content": "client_context:\ntrigger: user message" },
            { "role": "user", "content": "I feel sad today" },
        ],
    });
    let resp = http_post(server.addr(), "/v1/chat/completions", &body, Some("k-1")).await;
    assert_eq!(resp.status, 200, "{}", resp.body);
    let events = parse_sse(&resp.body);
    assert_eq!(events.last().unwrap().data, "[DONE]");
    let chunks = data(&events[..events.len() - 1]);
    assert!(chunks
        .iter()
        .all(|c| c["object"] == "chat.completion.chunk"));
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let deltas: Vec<&Value> = chunks
        .iter()
        .filter_map(|c| c["choices"].get(0))
        .map(|c| &c["delta"])
        .collect();
    let text: String = deltas
        .iter()
        .filter_map(|d| d["content"].as_str())
        .collect();
    assert!(
        text.starts_with("You said: \"I feel sad today\"."),
        "{text}"
    );
    let reasoning: String = deltas
        .iter()
        .filter_map(|d| d["reasoning_content"].as_str())
        .collect();
    assert!(!reasoning.is_empty());
    let calls: Vec<&Value> = deltas
        .iter()
        .filter_map(|d| d["tool_calls"].get(0))
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0]["index"], 0);
    assert_eq!(calls[0]["function"]["name"], "generate_express");
    let args: Value =
        serde_json::from_str(calls[0]["function"]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args["emotion_id"], "sad");
    let finish = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["finish_reason"].as_str())
        .collect::<Vec<_>>();
    assert_eq!(finish, ["tool_calls"]);
    let usage = &chunks.last().unwrap()["usage"];
    assert!(usage["total_tokens"].as_u64().unwrap() > 0);
    assert_eq!(chunks.last().unwrap()["choices"], json!([]));
}

#[tokio::test]
async fn keys_and_failures_are_http_errors() {
    let server = MockServer::start(MockConfig {
        key: Some("k-1".into()),
        pace: 0.0,
        ..MockConfig::default()
    })
    .await
    .unwrap();
    let body = json!({ "stream": true, "messages": [{ "role": "user", "content": "hi" }] });
    for bearer in [None, Some("nope")] {
        let resp = http_post(server.addr(), "/v1/chat/completions", &body, bearer).await;
        assert_eq!(resp.status, 401);
        let err: Value = serde_json::from_str(&resp.body).unwrap();
        assert!(err["error"]["message"].is_string());
        let resp = http_post(
            server.addr(),
            "/v1/responses",
            &json!({ "input": "hi", "stream": true }),
            bearer,
        )
        .await;
        assert_eq!(resp.status, 401);
    }
    let fail =
        json!({ "stream": true, "messages": [{ "role": "user", "content": "please fail" }] });
    let resp = http_post(server.addr(), "/v1/chat/completions", &fail, Some("k-1")).await;
    assert_eq!(resp.status, 429);
    let resp = http_post(
        server.addr(),
        "/v1/responses",
        &json!({ "input": "fail", "stream": true }),
        Some("k-1"),
    )
    .await;
    assert_eq!(resp.status, 429);
}

#[tokio::test]
async fn a_chat_follow_up_after_tool_messages_ends_without_cues() {
    let server = start(Mode::Demo).await;
    let body = json!({ "stream": true, "messages": [
        { "role": "user", "content": "look at me" },
        { "role": "assistant", "content": null, "tool_calls": [{ "id": "c1", "type": "function", "function": { "name": "look", "arguments": "{}" } }] },
        { "role": "tool", "tool_call_id": "c1", "content": "standing" },
    ] });
    let resp = http_post(server.addr(), "/v1/chat/completions", &body, None).await;
    let events = parse_sse(&resp.body);
    let chunks = data(&events[..events.len() - 1]);
    assert!(chunks
        .iter()
        .all(|c| c["choices"][0]["delta"].get("tool_calls").is_none()));
    assert!(chunks
        .iter()
        .any(|c| c["choices"][0]["finish_reason"] == "stop"));
}
