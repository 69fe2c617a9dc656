//! Responses API stream events (`POST /v1/responses` with `stream: true`).
//!
//! Events are sent as `event: <type>\ndata: <json>\n\n`. Indices default to
//! what a one-message reply uses (`output_index` 0, `content_index` 0); use
//! [`at`] to move an event to another output index.

use serde_json::{json, Value};

use super::{now_secs, MODEL};

/// A response object with `status` and `output` (`usage` when given).
pub fn response(resp_id: &str, status: &str, output: Value, usage: Option<Value>) -> Value {
    let mut r = json!({
        "id": resp_id, "object": "response", "created_at": now_secs(), "model": MODEL,
        "status": status, "output": output, "error": null, "incomplete_details": null,
        "parallel_tool_calls": true, "tools": [],
    });
    if let Some(usage) = usage {
        r["usage"] = usage;
    }
    r
}

/// A `usage` object: `input_tokens`, `output_tokens` (of which
/// `reasoning_tokens`), `total_tokens`, with the detail objects OpenAI sends.
pub fn usage(input_tokens: u64, output_tokens: u64, reasoning_tokens: u64) -> Value {
    json!({
        "input_tokens": input_tokens, "input_tokens_details": { "cached_tokens": 0 },
        "output_tokens": output_tokens, "output_tokens_details": { "reasoning_tokens": reasoning_tokens },
        "total_tokens": input_tokens + output_tokens,
    })
}

/// Sets `output_index` on an event.
pub fn at(mut event: Value, output_index: usize) -> Value {
    event["output_index"] = json!(output_index);
    event
}

/// `response.created` (status `in_progress`, no output).
pub fn created(resp_id: &str) -> Value {
    json!({ "type": "response.created", "response": response(resp_id, "in_progress", json!([]), None) })
}

/// `response.in_progress`.
pub fn in_progress(resp_id: &str) -> Value {
    json!({ "type": "response.in_progress", "response": response(resp_id, "in_progress", json!([]), None) })
}

/// `response.completed` with the final `output` items and `usage` (see [`usage`]).
pub fn completed(resp_id: &str, output: Value, usage: Value) -> Value {
    json!({ "type": "response.completed", "response": response(resp_id, "completed", output, Some(usage)) })
}

/// `response.failed` with `error: {code: "server_error", message}`.
pub fn failed(resp_id: &str, message: &str) -> Value {
    let mut r = response(resp_id, "failed", json!([]), None);
    r["error"] = json!({ "code": "server_error", "message": message });
    json!({ "type": "response.failed", "response": r })
}

/// `response.incomplete` with `incomplete_details: {reason}` (e.g. `"max_output_tokens"`).
pub fn incomplete(resp_id: &str, reason: &str) -> Value {
    let mut r = response(resp_id, "incomplete", json!([]), None);
    r["incomplete_details"] = json!({ "reason": reason });
    json!({ "type": "response.incomplete", "response": r })
}

/// A stream-level `error` event (`{"type":"error","code","message","param"}`).
pub fn error_event(code: &str, message: &str) -> Value {
    json!({ "type": "error", "code": code, "message": message, "param": null })
}

/// An assistant message output item.
pub fn message_item(id: &str, status: &str, text: Option<&str>) -> Value {
    let content = match text {
        Some(t) => json!([{ "type": "output_text", "text": t, "annotations": [], "logprobs": [] }]),
        None => json!([]),
    };
    json!({ "id": id, "type": "message", "role": "assistant", "status": status, "content": content })
}

/// A reasoning output item with one summary text (none when `None`).
pub fn reasoning_item(id: &str, summary: Option<&str>) -> Value {
    let summary = match summary {
        Some(t) => json!([{ "type": "summary_text", "text": t }]),
        None => json!([]),
    };
    json!({ "id": id, "type": "reasoning", "summary": summary })
}

/// A function call output item.
pub fn function_call_item(id: &str, call_id: &str, name: &str, arguments: &str, status: &str) -> Value {
    json!({ "id": id, "type": "function_call", "status": status, "call_id": call_id, "name": name, "arguments": arguments })
}

/// `response.output_item.added` for any item.
pub fn item_added(output_index: usize, item: Value) -> Value {
    json!({ "type": "response.output_item.added", "output_index": output_index, "item": item })
}

/// `response.output_item.done` for any item.
pub fn item_done(output_index: usize, item: Value) -> Value {
    json!({ "type": "response.output_item.done", "output_index": output_index, "item": item })
}

/// `response.output_item.added` for a function call (status `in_progress`).
/// OpenAI itself sends `arguments: ""` here and streams them after.
pub fn function_call_added(output_index: usize, id: &str, call_id: &str, name: &str, arguments: &str) -> Value {
    item_added(output_index, function_call_item(id, call_id, name, arguments, "in_progress"))
}

/// `response.output_item.done` for a function call (status `completed`).
pub fn function_call_done(output_index: usize, id: &str, call_id: &str, name: &str, arguments: &str) -> Value {
    item_done(output_index, function_call_item(id, call_id, name, arguments, "completed"))
}

/// `response.function_call_arguments.delta` (`item_id` is the item's `id`, not its `call_id`).
pub fn function_call_arguments_delta(output_index: usize, item_id: &str, delta: &str) -> Value {
    json!({ "type": "response.function_call_arguments.delta", "item_id": item_id, "output_index": output_index, "delta": delta })
}

/// `response.function_call_arguments.done` with the whole arguments string.
pub fn function_call_arguments_done(output_index: usize, item_id: &str, arguments: &str) -> Value {
    json!({ "type": "response.function_call_arguments.done", "item_id": item_id, "output_index": output_index, "arguments": arguments })
}

/// `response.content_part.added` (an empty `output_text` part).
pub fn content_part_added(item_id: &str) -> Value {
    json!({ "type": "response.content_part.added", "item_id": item_id, "output_index": 0, "content_index": 0,
        "part": { "type": "output_text", "text": "", "annotations": [], "logprobs": [] } })
}

/// `response.content_part.done` with the part's whole text.
pub fn content_part_done(item_id: &str, text: &str) -> Value {
    json!({ "type": "response.content_part.done", "item_id": item_id, "output_index": 0, "content_index": 0,
        "part": { "type": "output_text", "text": text, "annotations": [], "logprobs": [] } })
}

/// `response.output_text.delta`.
pub fn text_delta(item_id: &str, delta: &str) -> Value {
    json!({ "type": "response.output_text.delta", "item_id": item_id, "output_index": 0, "content_index": 0, "delta": delta, "logprobs": [] })
}

/// `response.output_text.done` with the whole text.
pub fn output_text_done(item_id: &str, text: &str) -> Value {
    json!({ "type": "response.output_text.done", "item_id": item_id, "output_index": 0, "content_index": 0, "text": text, "logprobs": [] })
}

/// `response.reasoning_summary_part.added` (summary index 0).
pub fn reasoning_summary_part_added(item_id: &str) -> Value {
    json!({ "type": "response.reasoning_summary_part.added", "item_id": item_id, "output_index": 0, "summary_index": 0,
        "part": { "type": "summary_text", "text": "" } })
}

/// `response.reasoning_summary_part.done` (summary index 0).
pub fn reasoning_summary_part_done(item_id: &str, text: &str) -> Value {
    json!({ "type": "response.reasoning_summary_part.done", "item_id": item_id, "output_index": 0, "summary_index": 0,
        "part": { "type": "summary_text", "text": text } })
}

/// `response.reasoning_summary_text.delta` (summary index 0).
pub fn reasoning_summary_delta(item_id: &str, delta: &str) -> Value {
    json!({ "type": "response.reasoning_summary_text.delta", "item_id": item_id, "output_index": 0, "summary_index": 0, "delta": delta })
}

/// `response.reasoning_summary_text.done` (summary index 0).
pub fn reasoning_summary_done(item_id: &str, text: &str) -> Value {
    json!({ "type": "response.reasoning_summary_text.done", "item_id": item_id, "output_index": 0, "summary_index": 0, "text": text })
}

/// `response.reasoning_text.delta` (raw reasoning, content index 0).
pub fn reasoning_text_delta(item_id: &str, delta: &str) -> Value {
    json!({ "type": "response.reasoning_text.delta", "item_id": item_id, "output_index": 0, "content_index": 0, "delta": delta })
}
