//! Chat Completions stream chunks (`POST /v1/chat/completions` with
//! `stream: true`), each sent as `data: <json>\n\n`, the stream closed by
//! `data: [DONE]\n\n`.

use serde_json::{json, Value};

use super::{now_secs, MODEL};

/// A `chat.completion.chunk` with one choice carrying `delta` and `finish_reason`.
pub fn chunk(id: &str, delta: Value, finish_reason: Option<&str>) -> Value {
    json!({
        "id": id, "object": "chat.completion.chunk", "created": now_secs(), "model": MODEL,
        "choices": [{ "index": 0, "delta": delta, "logprobs": null, "finish_reason": finish_reason }],
    })
}

/// The first chunk OpenAI sends: `{"role":"assistant","content":""}`.
pub fn chunk_role(id: &str) -> Value {
    chunk(id, json!({ "role": "assistant", "content": "", "refusal": null }), None)
}

/// A `content` delta.
pub fn chunk_text(id: &str, content: &str) -> Value {
    chunk(id, json!({ "content": content }), None)
}

/// A reasoning delta under `field`: `"reasoning_content"` (DeepSeek, vLLM,
/// llama.cpp) or `"reasoning"` (OpenRouter, Ollama).
pub fn chunk_reasoning(id: &str, field: &str, text: &str) -> Value {
    let mut delta = json!({});
    delta[field] = json!(text);
    chunk(id, delta, None)
}

/// One `tool_calls` delta. The first delta of a call carries `call_id`
/// (`id`), `type: "function"` and the `name`; later ones only `index` and an
/// `arguments` part, which the client appends by `index`.
pub fn chunk_tool_call(id: &str, index: usize, call_id: Option<&str>, name: Option<&str>, arguments_part: &str) -> Value {
    let mut function = json!({ "arguments": arguments_part });
    if let Some(name) = name {
        function["name"] = json!(name);
    }
    let mut call = json!({ "index": index, "function": function });
    if let Some(call_id) = call_id {
        call["id"] = json!(call_id);
        call["type"] = json!("function");
    }
    chunk(id, json!({ "tool_calls": [call] }), None)
}

/// The finish chunk: an empty delta with `finish_reason` (`"stop"`,
/// `"tool_calls"`, `"length"`, `"content_filter"`).
pub fn chunk_finish(id: &str, reason: &str) -> Value {
    chunk(id, json!({}), Some(reason))
}

/// The usage chunk sent with `stream_options.include_usage`: no choices.
pub fn chunk_usage(id: &str, prompt: u64, completion: u64, total: u64) -> Value {
    json!({
        "id": id, "object": "chat.completion.chunk", "created": now_secs(), "model": MODEL, "choices": [],
        "usage": { "prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": total },
    })
}

/// A mid-stream error as some servers (OpenRouter, vLLM) send it in a data
/// line: `{"error":{"message","code"}}`. Not a chunk.
pub fn error_chunk(message: &str, code: Value) -> Value {
    json!({ "error": { "message": message, "code": code } })
}
