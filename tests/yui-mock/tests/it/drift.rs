//! The mock cannot drift from the real wire: every event the `openai`
//! helpers build and every event the demo streams deserializes into the
//! `async-openai` SDK's stream types.

use async_openai::types::chat::CreateChatCompletionStreamResponse;
use async_openai::types::responses::ResponseStreamEvent;
use serde_json::{json, Value};
use yui_demo::http::{chat_reply, responses_reply, HttpReply};
use yui_demo::push::Ids;
use yui_mock::openai::{chat, responses as r};

fn as_responses_event(mut v: Value) -> ResponseStreamEvent {
    if v.get("sequence_number").is_none() {
        v["sequence_number"] = json!(0);
    }
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"))
}

fn as_chunk(v: Value) -> CreateChatCompletionStreamResponse {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"))
}

#[test]
fn the_responses_helpers_build_real_events() {
    let args = r#"{"emotion_id":"happy"}"#;
    for event in [
        r::created("resp_1"),
        r::in_progress("resp_1"),
        r::completed(
            "resp_1",
            json!([
                r::reasoning_item("rs_1", Some("hm")),
                r::message_item("msg_1", "completed", Some("Hi")),
                r::function_call_item("fc_1", "call_1", "generate_express", args, "completed")
            ]),
            r::usage(10, 5, 2),
        ),
        r::failed("resp_1", "boom"),
        r::incomplete("resp_1", "max_output_tokens"),
        r::error_event("server_error", "boom"),
        r::item_added(0, r::reasoning_item("rs_1", None)),
        r::item_added(1, r::message_item("msg_1", "in_progress", None)),
        r::function_call_added(2, "fc_1", "call_1", "generate_express", ""),
        r::function_call_arguments_delta(2, "fc_1", "{\"emo"),
        r::function_call_arguments_done(2, "fc_1", args),
        r::function_call_done(2, "fc_1", "call_1", "generate_express", args),
        r::content_part_added("msg_1"),
        r::content_part_done("msg_1", "Hi"),
        r::at(r::text_delta("msg_1", "Hi"), 1),
        r::output_text_done("msg_1", "Hi"),
        r::reasoning_summary_part_added("rs_1"),
        r::reasoning_summary_part_done("rs_1", "hm"),
        r::reasoning_summary_delta("rs_1", "hm"),
        r::reasoning_summary_done("rs_1", "hm"),
        r::reasoning_text_delta("rs_1", "hm"),
    ] {
        as_responses_event(event);
    }
}

#[test]
fn the_chat_helpers_build_real_chunks() {
    for chunk in [
        chat::chunk_role("c"),
        chat::chunk_text("c", "Hi"),
        chat::chunk_reasoning("c", "reasoning_content", "hm"),
        chat::chunk_reasoning("c", "reasoning", "hm"),
        chat::chunk_tool_call("c", 0, Some("call_1"), Some("generate_express"), ""),
        chat::chunk_tool_call("c", 0, None, None, "{\"a\":1}"),
        chat::chunk_finish("c", "tool_calls"),
        chat::chunk_finish("c", "stop"),
        chat::chunk_usage("c", 1, 2, 3),
    ] {
        as_chunk(chunk);
    }
    let err = chat::error_chunk("overloaded", json!(502));
    assert_eq!(err, json!({ "error": { "message": "overloaded", "code": 502 } }));
}

fn stream_data(reply: HttpReply) -> Vec<String> {
    match reply {
        HttpReply::Stream(events) => events.into_iter().map(|e| e.data).collect(),
        other => panic!("expected a stream, got {other:?}"),
    }
}

#[test]
fn every_event_the_demo_streams_is_real() {
    let ids = Ids::default();
    for text in ["hello", "what time is it?", "add a todo", "I am sad", ""] {
        let req = json!({ "model": "m", "stream": true, "input": [{ "role": "user", "content": text }] });
        let follow = json!({ "stream": true, "input": [{ "type": "function_call_output", "call_id": "c", "output": "ok" }] });
        for req in [req, follow] {
            let events = stream_data(responses_reply(&req, &ids, "12:00"));
            assert!(events.len() > 5);
            for data in events {
                as_responses_event(serde_json::from_str(&data).unwrap());
            }
        }
        let req = json!({ "stream": true, "stream_options": { "include_usage": true },
            "messages": [{ "role": "user", "content": text }] });
        let follow = json!({ "stream": true, "messages": [{ "role": "tool", "tool_call_id": "c", "content": "ok" }] });
        for req in [req, follow] {
            let events = stream_data(chat_reply(&req, &ids, "12:00"));
            let (done, chunks) = events.split_last().unwrap();
            assert_eq!(done, "[DONE]");
            for data in chunks {
                as_chunk(serde_json::from_str(data).unwrap());
            }
        }
    }
}
