//! The demo's request transports: Responses and Chat Completions SSE, as a
//! real client sends them.

use crate::common;

use common::*;
use serde_json::{json, Value};

fn data(events: &[SseEvent]) -> Vec<Value> {
    events.iter().map(|e| serde_json::from_str(&e.data).unwrap_or_else(|err| panic!("{}: {err}", e.data))).collect()
}

#[tokio::test]
async fn responses_stream_text_and_generate_express_cues() {
    let server = start().await;
    let body = json!({
        "model": "m", "stream": true, "instructions": "card",
        "input": [
            { "role": "assistant", "content": "Hello!" },
            { "role": "user", "content": "<client_context>\ntrigger: user message\n</client_context>\n\nhello yui" },
        ],
    });
    let resp = http_post(server.addr(), "/v1/responses", &body, None).await;
    assert_eq!(resp.status, 200, "{}", resp.body);
    assert!(resp.header("content-type").unwrap().starts_with("text/event-stream"));
    let events = parse_sse(&resp.body);
    let payloads = data(&events);
    for (e, p) in events.iter().zip(&payloads) {
        assert_eq!(e.event.as_deref(), p["type"].as_str(), "event name matches data type");
    }
    let kinds: Vec<&str> = payloads.iter().map(|p| p["type"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"response.created"));
    assert_eq!(kinds.last(), Some(&"response.completed"));
    let seqs: Vec<u64> = payloads.iter().map(|p| p["sequence_number"].as_u64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1));

    let text: String = payloads.iter().filter(|p| p["type"] == "response.output_text.delta").map(|p| p["delta"].as_str().unwrap()).collect();
    assert!(text.starts_with("Hi! I'm Yui."), "{text}");
    let done = payloads.iter().find(|p| p["type"] == "response.output_text.done").unwrap();
    assert_eq!(done["text"], text);
    // One cue after each sentence: delta, call added (empty arguments, as
    // OpenAI sends it), arguments deltas, arguments done, call done.
    let first_delta = kinds.iter().position(|k| *k == "response.output_text.delta").unwrap();
    assert_eq!(
        &kinds[first_delta + 1..first_delta + 6],
        [
            "response.output_item.added",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.delta",
            "response.function_call_arguments.done",
            "response.output_item.done"
        ]
    );
    let added = &payloads[first_delta + 1]["item"];
    assert_eq!((added["type"].as_str(), added["name"].as_str(), added["arguments"].as_str()), (Some("function_call"), Some("generate_express"), Some("")));
    let streamed: String = payloads[first_delta + 2..first_delta + 4].iter().map(|p| p["delta"].as_str().unwrap()).collect();
    let call = &payloads[first_delta + 5]["item"];
    assert_eq!(call["id"], added["id"]);
    assert_eq!(call["call_id"], added["call_id"]);
    assert_eq!(call["arguments"].as_str(), Some(streamed.as_str()));
    assert_eq!(payloads[first_delta + 4]["arguments"].as_str(), Some(streamed.as_str()));
    let args: Value = serde_json::from_str(&streamed).unwrap();
    assert_eq!(args, json!({ "emotion_id": "happy", "motion_id": "wave" }));
    let calls = payloads.iter().filter(|p| p["type"] == "response.output_item.done" && p["item"]["type"] == "function_call").count();
    assert_eq!(calls, 3, "one call per sentence");
    for kind in ["response.in_progress", "response.content_part.added", "response.content_part.done"] {
        assert!(kinds.contains(&kind), "{kind}");
    }

    let completed = &payloads.last().unwrap()["response"];
    assert!(completed["id"].as_str().unwrap().starts_with("resp_"));
    assert_eq!(completed["status"], "completed");
    let usage = &completed["usage"];
    assert_eq!(usage["total_tokens"].as_u64().unwrap(), usage["input_tokens"].as_u64().unwrap() + usage["output_tokens"].as_u64().unwrap());
    assert!(payloads.iter().any(|p| p["type"] == "response.reasoning_summary_text.delta"));
}

#[tokio::test]
async fn responses_take_plain_string_input_and_answer_json_without_stream() {
    let server = start().await;
    let resp = http_post(server.addr(), "/v1/responses", &json!({ "input": "what time is it" }), None).await;
    assert_eq!(resp.status, 200);
    let body: Value = serde_json::from_str(&resp.body).unwrap();
    let message = body["output"].as_array().unwrap().iter().find(|i| i["type"] == "message").unwrap();
    assert!(message["content"][0]["text"].as_str().unwrap().starts_with("It's "));
}

#[tokio::test]
async fn chat_completions_stream_chunks_tool_calls_usage_and_done() {
    let server = start_with(0.0, Some("k-1")).await;
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
    assert!(chunks.iter().all(|c| c["object"] == "chat.completion.chunk"));
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let deltas: Vec<&Value> = chunks.iter().filter_map(|c| c["choices"].get(0)).map(|c| &c["delta"]).collect();
    let text: String = deltas.iter().filter_map(|d| d["content"].as_str()).collect();
    assert!(text.starts_with("You said: \"I feel sad today\"."), "{text}");
    let reasoning: String = deltas.iter().filter_map(|d| d["reasoning_content"].as_str()).collect();
    assert!(!reasoning.is_empty());
    // Tool calls assembled by index, as a client does.
    let mut calls: Vec<(String, String, String)> = Vec::new();
    let mut deltas_per_call = [0; 8];
    for call in deltas.iter().filter_map(|d| d["tool_calls"].get(0)) {
        let i = call["index"].as_u64().unwrap() as usize;
        if calls.len() <= i {
            calls.resize(i + 1, Default::default());
        }
        if let Some(id) = call["id"].as_str() {
            assert_eq!(call["type"], "function");
            calls[i].0 = id.to_string();
        }
        if let Some(name) = call["function"]["name"].as_str() {
            calls[i].1 = name.to_string();
        }
        calls[i].2.push_str(call["function"]["arguments"].as_str().unwrap());
        deltas_per_call[i] += 1;
    }
    assert_eq!(calls.len(), 2);
    assert!(deltas_per_call[0] >= 3, "arguments split over several deltas");
    assert!(calls.iter().all(|c| !c.0.is_empty() && c.1 == "generate_express"));
    let args: Value = serde_json::from_str(&calls[0].2).unwrap();
    assert_eq!(args["emotion_id"], "sad");
    let finish = chunks.iter().filter_map(|c| c["choices"][0]["finish_reason"].as_str()).collect::<Vec<_>>();
    assert_eq!(finish, ["tool_calls"]);
    let usage = &chunks.last().unwrap()["usage"];
    assert!(usage["total_tokens"].as_u64().unwrap() > 0);
    assert_eq!(chunks.last().unwrap()["choices"], json!([]));
}

#[tokio::test]
async fn keys_and_failures_are_http_errors() {
    let server = start_with(0.0, Some("k-1")).await;
    let body = json!({ "stream": true, "messages": [{ "role": "user", "content": "hi" }] });
    for bearer in [None, Some("nope")] {
        let resp = http_post(server.addr(), "/v1/chat/completions", &body, bearer).await;
        assert_eq!(resp.status, 401);
        let err: Value = serde_json::from_str(&resp.body).unwrap();
        assert!(err["error"]["message"].is_string());
        let resp = http_post(server.addr(), "/v1/responses", &json!({ "input": "hi", "stream": true }), bearer).await;
        assert_eq!(resp.status, 401);
    }
    let fail = json!({ "stream": true, "messages": [{ "role": "user", "content": "please fail" }] });
    let resp = http_post(server.addr(), "/v1/chat/completions", &fail, Some("k-1")).await;
    assert_eq!(resp.status, 429);
    let resp = http_post(server.addr(), "/v1/responses", &json!({ "input": "fail", "stream": true }), Some("k-1")).await;
    assert_eq!(resp.status, 429);
}

#[tokio::test]
async fn a_chat_follow_up_after_tool_messages_ends_without_cues() {
    let server = start().await;
    let body = json!({ "stream": true, "messages": [
        { "role": "user", "content": "look at me" },
        { "role": "assistant", "content": null, "tool_calls": [{ "id": "c1", "type": "function", "function": { "name": "look", "arguments": "{}" } }] },
        { "role": "tool", "tool_call_id": "c1", "content": "standing" },
    ] });
    let resp = http_post(server.addr(), "/v1/chat/completions", &body, None).await;
    let events = parse_sse(&resp.body);
    let chunks = data(&events[..events.len() - 1]);
    assert!(chunks.iter().all(|c| c["choices"][0]["delta"].get("tool_calls").is_none()));
    assert!(chunks.iter().any(|c| c["choices"][0]["finish_reason"] == "stop"));
}

#[tokio::test]
async fn japanese_sentences_join_without_spaces_and_follow_ups_follow_the_language() {
    let server = start().await;
    let body = json!({ "stream": true, "messages": [{ "role": "user", "content": "こんにちは" }] });
    let resp = http_post(server.addr(), "/v1/chat/completions", &body, None).await;
    let events = parse_sse(&resp.body);
    let text: String = data(&events[..events.len() - 1]).iter().filter_map(|c| c["choices"][0]["delta"]["content"].as_str()).collect();
    assert!(text.starts_with("こんにちは！ユイだよ。ここはデモ用"), "{text}");
    let follow = json!({ "stream": true, "messages": [
        { "role": "user", "content": "안녕" },
        { "role": "assistant", "content": null, "tool_calls": [{ "id": "c1", "type": "function", "function": { "name": "look", "arguments": "{}" } }] },
        { "role": "tool", "tool_call_id": "c1", "content": "standing" },
    ] });
    let resp = http_post(server.addr(), "/v1/chat/completions", &follow, None).await;
    let events = parse_sse(&resp.body);
    let text: String = data(&events[..events.len() - 1]).iter().filter_map(|c| c["choices"][0]["delta"]["content"].as_str()).collect();
    assert_eq!(text, "네, 알겠어요.");
}

/// A request as the YUI client sends it on the Responses transport.
fn client_responses_request(input: Value) -> Value {
    json!({
        "model": "gpt-5-mini", "stream": true, "instructions": "You are Yui.",
        "reasoning": { "effort": "low" },
        "tools": [{ "type": "function", "name": "generate_express", "description": "cue",
            "parameters": { "type": "object", "properties": { "emotion_id": { "type": "string" } } } }],
        "input": input,
    })
}

fn responses_payloads(body: &str) -> Vec<Value> {
    data(&parse_sse(body))
}

#[tokio::test]
async fn responses_answer_a_real_client_turn_and_its_follow_up() {
    let server = start().await;
    let turn = client_responses_request(json!([
        { "type": "function_call_output", "call_id": "call_0_1", "output": "ok" },
        { "role": "assistant", "content": "Good morning!" },
        { "role": "user", "content": [{ "type": "input_text", "text":
            "<post_history_instructions>\nBe brief.\n</post_history_instructions>\n<client_context>\ntrigger: user message\n</client_context>\n\nwhat time is it?" }] },
    ]));
    let resp = http_post(server.addr(), "/v1/responses", &turn, None).await;
    assert_eq!(resp.status, 200, "{}", resp.body);
    let payloads = responses_payloads(&resp.body);
    let text: String = payloads.iter().filter(|p| p["type"] == "response.output_text.delta").map(|p| p["delta"].as_str().unwrap()).collect();
    assert!(text.starts_with("It's "), "{text}");
    let completed = &payloads.last().unwrap()["response"];
    assert_eq!(completed["model"], "gpt-5-mini");
    let call_id = completed["output"].as_array().unwrap().iter().find(|i| i["type"] == "function_call").unwrap()["call_id"].clone();

    // The follow-up carries only the answers to the calls: a short plain reply.
    let follow = client_responses_request(json!([
        { "type": "function_call_output", "call_id": call_id, "output": "ok" },
    ]));
    let mut follow = follow;
    follow["previous_response_id"] = completed["id"].clone();
    let resp = http_post(server.addr(), "/v1/responses", &follow, None).await;
    let payloads = responses_payloads(&resp.body);
    assert!(payloads.iter().all(|p| p["item"]["type"] != "function_call"));
    let text: String = payloads.iter().filter(|p| p["type"] == "response.output_text.delta").map(|p| p["delta"].as_str().unwrap()).collect();
    assert_eq!(text, "Okay.");
    assert_eq!(payloads.last().unwrap()["type"], "response.completed");
    assert_ne!(payloads.last().unwrap()["response"]["id"], completed["id"]);
}

#[tokio::test]
async fn chat_answers_a_real_client_transcript_and_omits_usage_unasked() {
    let server = start().await;
    let body = json!({
        "model": "m", "stream": true,
        "tools": [{ "type": "function", "function": { "name": "generate_express", "parameters": { "type": "object" } } }],
        "messages": [
            { "role": "system", "content": "card" },
            { "role": "user", "content": "hi" },
            { "role": "assistant", "content": "Hi!", "tool_calls": [{ "id": "c1", "type": "function",
                "function": { "name": "generate_express", "arguments": "{\"emotion_id\":\"happy\"}" } }] },
            { "role": "tool", "tool_call_id": "c1", "content": "ok" },
            { "role": "assistant", "content": "Okay." },
            { "role": "system", "content": "Be brief." },
            { "role": "system", "content": "client_context:\ntrigger: user message" },
            { "role": "user", "content": "add a todo: water the plants" },
        ],
    });
    let resp = http_post(server.addr(), "/v1/chat/completions", &body, None).await;
    let events = parse_sse(&resp.body);
    assert_eq!(events.last().unwrap().data, "[DONE]");
    let chunks = data(&events[..events.len() - 1]);
    assert!(chunks.iter().all(|c| c["usage"].is_null() && c["choices"].as_array().unwrap().len() == 1));
    let text: String = chunks.iter().filter_map(|c| c["choices"][0]["delta"]["content"].as_str()).collect();
    assert!(text.starts_with("You said: \"add a todo: water the plants\"."), "{text}");
    assert_eq!(chunks.last().unwrap()["choices"][0]["finish_reason"], "tool_calls");
}

#[tokio::test]
async fn health_answers_ok() {
    let server = start().await;
    let mut stream = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).await.unwrap();
    assert!(out.starts_with("HTTP/1.1 200") && out.ends_with("ok"), "{out}");
}
