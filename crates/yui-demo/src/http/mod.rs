//! The demo's request transports: `POST /v1/responses` and
//! `POST /v1/chat/completions`.
//!
//! [`responses_reply`] and [`chat_reply`] decide the whole answer up front
//! as an [`HttpReply`] (pure, testable); [`HttpReply::into_response`] sends
//! it, pacing the stream. `yui-mock` reuses both for its demo mode.
//!
//! With `"stream": true` (always the case for the YUI client) the answer is
//! `text/event-stream`; otherwise one JSON object. A user text containing
//! "fail" is answered with HTTP 429.

mod chat;
mod responses;

use std::convert::Infallible;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

pub use chat::chat_reply;
pub use responses::responses_reply;

use crate::push::Ids;
use crate::reply::{demo_reply, strip_context, tokens};

/// One server-sent event with the delay (ms × pace) before it.
#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    /// Base delay before this event, in milliseconds (multiplied by pace).
    pub delay_ms: f64,
    /// The `event:` line (Responses events carry their type here).
    pub event: Option<String>,
    /// The `data:` payload: JSON text, or `[DONE]`.
    pub data: String,
}

impl SseEvent {
    /// A Responses event: `event: <type>` + `data: <json>`.
    pub fn named(delay_ms: f64, data: &Value) -> SseEvent {
        SseEvent { delay_ms, event: data["type"].as_str().map(str::to_string), data: data.to_string() }
    }

    /// A Chat Completions chunk (or `[DONE]`): `data:` only.
    pub fn data(delay_ms: f64, data: impl Into<String>) -> SseEvent {
        SseEvent { delay_ms, event: None, data: data.into() }
    }

    /// The event as it goes on the wire, blank line included.
    pub fn wire(&self) -> String {
        match &self.event {
            Some(e) => format!("event: {e}\ndata: {}\n\n", self.data),
            None => format!("data: {}\n\n", self.data),
        }
    }
}

/// A whole HTTP answer, decided before anything is sent.
#[derive(Debug, Clone, PartialEq)]
pub enum HttpReply {
    /// An error status with an OpenAI-style JSON error body.
    Error {
        /// The HTTP status.
        status: u16,
        /// `{"error": {"message", "type", "code"}}`.
        body: Value,
    },
    /// A non-streaming JSON answer.
    Json(Value),
    /// A `text/event-stream` answer.
    Stream(Vec<SseEvent>),
}

impl HttpReply {
    /// An OpenAI-style error.
    pub fn error(status: u16, message: &str, kind: &str, code: &str) -> HttpReply {
        HttpReply::Error { status, body: json!({ "error": { "message": message, "type": kind, "code": code } }) }
    }

    /// 401 `invalid_api_key`.
    pub fn unauthorized() -> HttpReply {
        HttpReply::error(401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key")
    }

    /// 429 `rate_limit_exceeded` (the demo's answer to "fail").
    pub fn rate_limited() -> HttpReply {
        HttpReply::error(429, "Rate limit reached (yui-demo).", "rate_limit_error", "rate_limit_exceeded")
    }

    /// Sends the reply; stream delays are scaled by `pace` and the stream
    /// ends early when `cancel` fires.
    pub fn into_response(self, pace: f64, cancel: CancellationToken) -> Response {
        match self {
            HttpReply::Error { status, body } => (StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR), Json(body)).into_response(),
            HttpReply::Json(body) => Json(body).into_response(),
            HttpReply::Stream(events) => stream_response(events, pace, cancel),
        }
    }
}

fn stream_response(events: Vec<SseEvent>, pace: f64, cancel: CancellationToken) -> Response {
    let pace = pace.max(0.0);
    let stream = futures_util::stream::unfold(events.into_iter(), move |mut it| {
        let cancel = cancel.clone();
        async move {
            let event = it.next()?;
            let ms = event.delay_ms * pace;
            if ms >= 1.0 {
                tokio::select! {
                    _ = cancel.cancelled() => return None,
                    _ = tokio::time::sleep(Duration::from_millis(ms as u64)) => {}
                }
            }
            Some((Ok::<_, Infallible>(event.wire()), it))
        }
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(stream))
        .expect("static response parts")
}

/// `Authorization: Bearer <key>` when `key` is set; `Err(401)` otherwise.
pub fn check_bearer(key: Option<&str>, headers: &HeaderMap) -> Result<(), HttpReply> {
    let Some(key) = key else { return Ok(()) };
    let bearer = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    if bearer == Some(key) {
        Ok(())
    } else {
        tracing::warn!(event = "http_auth_failed");
        Err(HttpReply::unauthorized())
    }
}

/// Parses a request body as JSON; `Err(400)` otherwise.
pub fn parse_body(body: &[u8]) -> Result<Value, HttpReply> {
    serde_json::from_slice(body).map_err(|e| HttpReply::error(400, &format!("request body is not JSON: {e}"), "invalid_request_error", "invalid_json"))
}

/// Text of a message `content`: a string, or the text parts of an array.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| matches!(p.get("type").and_then(Value::as_str), Some("input_text" | "text" | "output_text")))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The utterance of a Responses request: the last user item's text (`input`
/// may also be a plain string) without its `<client_context>` /
/// `<post_history_instructions>` blocks.
pub fn responses_user_text(req: &Value) -> String {
    let text = match req.get("input") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => {
            items.iter().rev().find(|i| i.get("role").and_then(Value::as_str) == Some("user")).map(|i| content_text(i.get("content"))).unwrap_or_default()
        }
        _ => String::new(),
    };
    strip_context(&text)
}

/// The utterance of a Chat Completions request: the last user message's text
/// without tagged blocks.
pub fn chat_user_text(req: &Value) -> String {
    let text =
        messages(req).iter().rev().find(|m| m.get("role").and_then(Value::as_str) == Some("user")).map(|m| content_text(m.get("content"))).unwrap_or_default();
    strip_context(&text)
}

fn messages(req: &Value) -> &[Value] {
    req.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// A Responses follow-up within a turn: the last input item is a
/// `function_call_output` (the answers to the previous response's calls).
pub fn is_responses_follow_up(req: &Value) -> bool {
    req.get("input").and_then(Value::as_array).and_then(|items| items.last()).and_then(|i| i.get("type")).and_then(Value::as_str)
        == Some("function_call_output")
}

/// A Chat Completions follow-up: the last message is a `tool` message.
pub fn is_chat_follow_up(req: &Value) -> bool {
    messages(req).last().and_then(|m| m.get("role")).and_then(Value::as_str) == Some("tool")
}

fn wants_stream(req: &Value) -> bool {
    req.get("stream").and_then(Value::as_bool).unwrap_or(false)
}

/// What the demo answers to one request, before either protocol shapes it.
struct Plan {
    /// The id number of this answer (`resp_<n>`, `chatcmpl-<n>`, `call_<n>_<i>`, …).
    n: u64,
    /// The request's `model`, else [`crate::openai::MODEL`].
    model: Value,
    /// (speech piece, `generate_express` arguments) per sentence; a
    /// follow-up gets one piece and no arguments.
    pieces: Vec<(String, Option<String>)>,
    /// The reasoning text (empty for a follow-up).
    reasoning: String,
    /// Every piece joined: the whole message text.
    full: String,
    /// Prompt / input tokens: the utterance plus 900 for the rest.
    input_tokens: u64,
    /// Completion / output tokens: the message and the reasoning.
    output_tokens: u64,
}

impl Plan {
    /// Logs the request as `event`, then plans the answer to `text`; a
    /// failing turn (not a follow-up) is `Err(429)` and mints no id.
    fn new(req: &Value, ids: &Ids, now: &str, event: &'static str, text: String, follow_up: bool) -> Result<Plan, HttpReply> {
        tracing::info!(event, text, follow_up, stream = wants_stream(req));
        let reply = demo_reply(&text, now);
        if reply.fail && !follow_up {
            return Err(HttpReply::rate_limited());
        }
        let n = ids.next();
        let model = req.get("model").cloned().unwrap_or(json!(crate::openai::MODEL));
        let (pieces, reasoning) = if follow_up {
            (vec![(reply.lang.lines().follow_up.to_string(), None)], String::new())
        } else {
            let pieces = reply
                .sentences
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let lead = if i == 0 { "" } else { reply.lang.sentence_gap() };
                    (format!("{lead}{}", s.speech), Some(s.cue.to_string()))
                })
                .collect();
            (pieces, reply.reasoning)
        };
        let full: String = pieces.iter().map(|(p, _)| p.as_str()).collect();
        Ok(Plan { n, model, input_tokens: 900 + tokens(&text), output_tokens: tokens(&full) + tokens(&reasoning), pieces, reasoning, full })
    }
}

/// Base delays in milliseconds, multiplied by pace.
const FIRST_MS: f64 = 600.0;
const SENTENCE_MS: f64 = 300.0;
const REASONING_MS: f64 = 100.0;

/// Splits a tool call's arguments into `parts` pieces at char boundaries
/// (how real servers stream them).
fn split_args(args: &str, parts: usize) -> Vec<String> {
    let chars: Vec<char> = args.chars().collect();
    let per = chars.len().div_ceil(parts.max(1)).max(1);
    chars.chunks(per).map(|c| c.iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_utterance_and_follow_ups() {
        let req = json!({ "input": [
            { "role": "user", "content": "old" },
            { "role": "assistant", "content": "x" },
            { "role": "user", "content": [
                { "type": "input_text", "text": "<post_history_instructions>\nShort.\n</post_history_instructions>\n<client_context>\ntime: now\n</client_context>\n\nhello" },
                { "type": "input_image", "image_url": "data:image/png;base64,AA==" } ] },
        ] });
        assert_eq!(responses_user_text(&req), "hello");
        assert!(!is_responses_follow_up(&req));
        let follow = json!({ "input": [{ "type": "function_call_output", "call_id": "c", "output": "ok" }] });
        assert!(is_responses_follow_up(&follow));
        assert_eq!(responses_user_text(&json!({ "input": "what time" })), "what time");
        let cc = json!({ "messages": [
            { "role": "system", "content": "card" },
            { "role": "system", "content": "client_context:\n..." },
            { "role": "user", "content": [{ "type": "text", "text": "hi there" }] },
        ] });
        assert_eq!(chat_user_text(&cc), "hi there");
        assert!(!is_chat_follow_up(&cc));
        assert_eq!(split_args("abcdefg", 3).concat(), "abcdefg");
        assert_eq!(split_args("ab", 3).len(), 2);
    }
}
