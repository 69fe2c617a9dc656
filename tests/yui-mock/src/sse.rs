//! OpenAI-style request transports: `POST /v1/responses` and
//! `POST /v1/chat/completions`, both answering with the demo agent's reply
//! and placing one `generate_express` cue after each sentence.
//!
//! With `"stream": true` (always the case for the YUI client) the answer is
//! `text/event-stream`; otherwise one JSON object. When `MockConfig::key` is
//! set, `Authorization: Bearer <key>` is required (401 otherwise). A user
//! text containing "fail" is answered with HTTP 429.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::demo::{chunks, demo_reply, local_time_hhmm, strip_context, tokens, DemoReply};
use crate::server::Shared;

/// Base delays in milliseconds, multiplied by pace.
const FIRST_MS: f64 = 600.0;
const SENTENCE_MS: f64 = 300.0;
const REASONING_MS: f64 = 100.0;

fn error(status: StatusCode, message: &str, kind: &str, code: &str) -> Response {
    (
        status,
        Json(json!({ "error": { "message": message, "type": kind, "code": code } })),
    )
        .into_response()
}

/// Checks the bearer key and parses the JSON body.
fn admit(shared: &Shared, headers: &HeaderMap, body: &[u8]) -> Result<Value, Box<Response>> {
    if let Some(key) = &shared.config.key {
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if bearer != Some(key.as_str()) {
            tracing::warn!(event = "http_auth_failed");
            return Err(Box::new(error(
                StatusCode::UNAUTHORIZED,
                "Incorrect API key provided.",
                "invalid_request_error",
                "invalid_api_key",
            )));
        }
    }
    serde_json::from_slice(body).map_err(|e| {
        Box::new(error(
            StatusCode::BAD_REQUEST,
            &format!("request body is not JSON: {e}"),
            "invalid_request_error",
            "invalid_json",
        ))
    })
}

fn rate_limited() -> Response {
    error(
        StatusCode::TOO_MANY_REQUESTS,
        "Rate limit reached (yui-mock).",
        "rate_limit_error",
        "rate_limit_exceeded",
    )
}

/// Text of a message `content`: a string, or the text parts of an array.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| {
                matches!(
                    p.get("type").and_then(Value::as_str),
                    Some("input_text" | "text" | "output_text")
                )
            })
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The last user text of a Responses request (`input` is a string or items).
pub(crate) fn responses_user_text(req: &Value) -> String {
    let text = match req.get("input") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .rev()
            .find(|i| i.get("role").and_then(Value::as_str) == Some("user"))
            .map(|i| content_text(i.get("content")))
            .unwrap_or_default(),
        _ => String::new(),
    };
    strip_context(&text)
}

/// The last user text of a Chat Completions request.
pub(crate) fn chat_user_text(req: &Value) -> String {
    let messages = req
        .get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let text = messages
        .iter()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"))
        .map(|m| content_text(m.get("content")))
        .unwrap_or_default();
    strip_context(&text)
}

fn wants_stream(req: &Value) -> bool {
    req.get("stream").and_then(Value::as_bool).unwrap_or(false)
}

/// Streams pre-built SSE chunks, each after its delay × pace.
fn sse_response(shared: &Shared, events: Vec<(f64, String)>) -> Response {
    let pace = shared.config.pace.max(0.0);
    let cancel = shared.cancel.clone();
    let stream = futures_util::stream::unfold(events.into_iter(), move |mut it| {
        let cancel = cancel.clone();
        async move {
            let (base_ms, chunk) = it.next()?;
            let ms = base_ms * pace;
            if ms >= 1.0 {
                tokio::select! {
                    _ = cancel.cancelled() => return None,
                    _ = tokio::time::sleep(Duration::from_millis(ms as u64)) => {}
                }
            }
            Some((Ok::<_, Infallible>(chunk), it))
        }
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(stream))
        .expect("static response parts")
}

fn usage_numbers(text: &str, reply: &DemoReply) -> (u64, u64) {
    let input = 900 + tokens(text);
    (input, tokens(&reply.text()) + tokens(&reply.reasoning))
}

/// Sentence `i` as streamed: sentences after the first lead with a space.
fn piece(reply: &DemoReply, i: usize) -> String {
    let s = &reply.sentences[i].speech;
    if i == 0 {
        s.clone()
    } else {
        format!(" {s}")
    }
}

/// Axum handler for `POST /v1/responses`.
pub(crate) async fn responses(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let req = match admit(&shared, &headers, &body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let text = responses_user_text(&req);
    let reply = demo_reply(&text, &local_time_hhmm());
    tracing::info!(
        event = "responses_request",
        text,
        stream = wants_stream(&req)
    );
    if reply.fail {
        return rate_limited();
    }
    let n = shared.next_seq();
    let (resp_id, msg_id, rs_id) = (format!("resp_{n}"), format!("msg_{n}"), format!("rs_{n}"));
    let full = reply.text();
    let (input_tokens, output_tokens) = usage_numbers(&text, &reply);
    let reasoning_item = json!({ "id": rs_id, "type": "reasoning", "summary": [{ "type": "summary_text", "text": reply.reasoning }] });
    let message_item = json!({
        "id": msg_id, "type": "message", "role": "assistant", "status": "completed",
        "content": [{ "type": "output_text", "text": full, "annotations": [] }],
    });
    let calls: Vec<Value> = reply
        .sentences
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "id": format!("fc_{n}_{}", i + 1), "type": "function_call", "status": "completed",
                "call_id": format!("call_{n}_{}", i + 1), "name": "generate_express", "arguments": s.cue.to_string(),
            })
        })
        .collect();
    let mut output = vec![reasoning_item.clone(), message_item.clone()];
    output.extend(calls.iter().cloned());
    let completed = json!({
        "id": resp_id, "object": "response", "status": "completed", "model": req.get("model").cloned().unwrap_or(json!("yui-mock")),
        "output": output,
        "usage": { "input_tokens": input_tokens, "output_tokens": output_tokens, "total_tokens": input_tokens + output_tokens },
    });
    if !wants_stream(&req) {
        return Json(completed).into_response();
    }

    let mut events: Vec<(f64, Value)> = Vec::new();
    let created =
        json!({ "id": resp_id, "object": "response", "status": "in_progress", "output": [] });
    events.push((
        0.0,
        json!({ "type": "response.created", "response": created }),
    ));
    events.push((
        0.0,
        json!({ "type": "response.output_item.added", "output_index": 0,
        "item": { "id": rs_id, "type": "reasoning", "summary": [] } }),
    ));
    for delta in chunks(&reply.reasoning, 3) {
        events.push((
            REASONING_MS,
            json!({ "type": "response.reasoning_summary_text.delta", "item_id": rs_id,
            "output_index": 0, "summary_index": 0, "delta": delta }),
        ));
    }
    events.push((
        0.0,
        json!({ "type": "response.reasoning_summary_text.done", "item_id": rs_id, "output_index": 0,
        "summary_index": 0, "text": reply.reasoning }),
    ));
    events.push((
        0.0,
        json!({ "type": "response.output_item.done", "output_index": 0, "item": reasoning_item }),
    ));
    events.push((FIRST_MS, json!({ "type": "response.output_item.added", "output_index": 1,
        "item": { "id": msg_id, "type": "message", "role": "assistant", "status": "in_progress", "content": [] } })));
    for (i, call) in calls.iter().enumerate() {
        let delay = if i == 0 { 0.0 } else { SENTENCE_MS };
        events.push((
            delay,
            json!({ "type": "response.output_text.delta", "item_id": msg_id, "output_index": 1,
            "content_index": 0, "delta": piece(&reply, i) }),
        ));
        for kind in ["response.output_item.added", "response.output_item.done"] {
            events.push((
                0.0,
                json!({ "type": kind, "output_index": 2 + i, "item": call }),
            ));
        }
    }
    events.push((
        0.0,
        json!({ "type": "response.output_text.done", "item_id": msg_id, "output_index": 1,
        "content_index": 0, "text": full }),
    ));
    events.push((
        0.0,
        json!({ "type": "response.output_item.done", "output_index": 1, "item": message_item }),
    ));
    events.push((
        0.0,
        json!({ "type": "response.completed", "response": completed }),
    ));
    let events = events
        .into_iter()
        .enumerate()
        .map(|(seq, (delay, mut event))| {
            event["sequence_number"] = json!(seq);
            let kind = event["type"].as_str().unwrap_or_default().to_string();
            (delay, format!("event: {kind}\ndata: {event}\n\n"))
        })
        .collect();
    sse_response(&shared, events)
}

/// Axum handler for `POST /v1/chat/completions`.
pub(crate) async fn chat_completions(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let req = match admit(&shared, &headers, &body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let messages = req.get("messages").and_then(Value::as_array);
    let follow_up = messages
        .and_then(|m| m.last())
        .and_then(|m| m.get("role"))
        .and_then(Value::as_str)
        == Some("tool");
    let text = chat_user_text(&req);
    let mut reply = demo_reply(&text, &local_time_hhmm());
    tracing::info!(
        event = "chat_completions_request",
        text,
        follow_up,
        stream = wants_stream(&req)
    );
    if reply.fail && !follow_up {
        return rate_limited();
    }
    if follow_up {
        // A follow-up after tool results: a short plain answer with no cues ends the loop.
        reply.sentences.truncate(1);
        reply
            .sentences
            .iter_mut()
            .for_each(|s| s.speech = "Okay.".into());
    }
    let cues = !follow_up;
    let n = shared.next_seq();
    let id = format!("chatcmpl-{n}");
    let created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let model = req.get("model").cloned().unwrap_or(json!("yui-mock"));
    let (prompt_tokens, completion_tokens) = usage_numbers(&text, &reply);
    let usage = json!({ "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens });
    let finish_reason = if cues { "tool_calls" } else { "stop" };
    let tool_call = |i: usize| {
        json!({ "id": format!("call_{n}_{}", i + 1), "type": "function",
            "function": { "name": "generate_express", "arguments": reply.sentences[i].cue.to_string() } })
    };
    if !wants_stream(&req) {
        let mut message = json!({ "role": "assistant", "content": reply.text() });
        if cues {
            message["tool_calls"] = (0..reply.sentences.len()).map(tool_call).collect();
        }
        return Json(json!({
            "id": id, "object": "chat.completion", "created": created, "model": model,
            "choices": [{ "index": 0, "message": message, "finish_reason": finish_reason }], "usage": usage,
        }))
        .into_response();
    }

    let chunk = |delta: Value, finish: Value| {
        json!({ "id": id, "object": "chat.completion.chunk", "created": created, "model": model,
            "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] })
    };
    let mut events: Vec<(f64, Value)> = Vec::new();
    let mut role = Some("assistant");
    let mut with_role = |mut delta: Value| {
        if let Some(r) = role.take() {
            delta["role"] = json!(r);
        }
        delta
    };
    if !follow_up {
        for part in chunks(&reply.reasoning, 3) {
            events.push((
                REASONING_MS,
                chunk(
                    with_role(json!({ "content": "", "reasoning_content": part })),
                    Value::Null,
                ),
            ));
        }
    }
    for i in 0..reply.sentences.len() {
        let delay = if i == 0 { FIRST_MS } else { SENTENCE_MS };
        events.push((
            delay,
            chunk(
                with_role(json!({ "content": piece(&reply, i) })),
                Value::Null,
            ),
        ));
        if cues {
            let mut call = tool_call(i);
            call["index"] = json!(i);
            events.push((0.0, chunk(json!({ "tool_calls": [call] }), Value::Null)));
        }
    }
    events.push((0.0, chunk(json!({}), json!(finish_reason))));
    events.push((
        0.0,
        json!({ "id": id, "object": "chat.completion.chunk", "created": created, "model": model,
        "choices": [], "usage": usage }),
    ));
    let mut events: Vec<(f64, String)> = events
        .into_iter()
        .map(|(d, e)| (d, format!("data: {e}\n\n")))
        .collect();
    events.push((0.0, "data: [DONE]\n\n".to_string()));
    sse_response(&shared, events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_last_user_text() {
        let req = json!({ "input": [
            { "role": "user", "content": "old" },
            { "role": "assistant", "content": "x" },
            { "role": "user", "content": [
                { "type": "input_text", "text": "<client_context>\ntime: now\n</client_context>\nhello" },
                { "type": "input_image", "image_url": "data:image/png;base64,AA==" } ] },
            { "type": "function_call_output", "call_id": "c", "output": "ok" },
        ] });
        assert_eq!(responses_user_text(&req), "hello");
        assert_eq!(
            responses_user_text(&json!({ "input": "what time" })),
            "what time"
        );
        let cc = json!({ "messages": [
            { "role": "system", "content": "card" },
            { "role": "user", "content": [{ "type": "text", "text": "hi there" }] },
            { "role": "system", "content": "client_context:\n..." },
        ] });
        assert_eq!(chat_user_text(&cc), "hi there");
    }
}
