//! A fake of the `agent_chat` engine (seed `004`) for the client's future
//! agent-chat transport:
//!
//! * `POST /chat`: records the request (JSON body, `Authorization`), checks
//!   the key like the other SSE endpoints (401 JSON), then answers a
//!   `text/event-stream` of the eleven-event protocol for a fixed script
//!   ([`script`]). Each event goes out as `event: <type>` plus
//!   `data: <json with "type">`. A `message` containing "approve" gets an
//!   `approval_request` before its tool runs (the stream does not wait for
//!   the answer). Delays are [`EVENT_DELAY_MS`] × `MockConfig::pace`.
//! * `POST /approve/{aid}` and `POST /cancel`: recorded, answered
//!   `200 {"ok": true}`.
//!
//! [`events`] builds every event with the seed's exact names, for test
//! authors.

use crate::http::RecordedRequest;
use crate::server::Shared;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::sync::Arc;
use yui_demo::http::{check_bearer, parse_body, HttpReply, SseEvent};

/// Base delay before each event, in milliseconds (scaled by the pace).
pub const EVENT_DELAY_MS: f64 = 40.0;

/// The tool the plain script calls.
pub const SCRIPT_TOOL: &str = "get_time";
/// The tool the approval script asks about.
pub const APPROVAL_TOOL: &str = "execute_command";

/// Builders for the eleven events, with the seed's names and fields.
pub mod events {
    use serde_json::{json, Value};

    /// `start {msg_id, run_id}`.
    pub fn start(msg_id: &str, run_id: &str) -> Value {
        json!({"type": "start", "msg_id": msg_id, "run_id": run_id})
    }
    /// `reasoning {msg_id, text}` (incremental).
    pub fn reasoning(msg_id: &str, text: &str) -> Value {
        json!({"type": "reasoning", "msg_id": msg_id, "text": text})
    }
    /// `delta {msg_id, text}`.
    pub fn delta(msg_id: &str, text: &str) -> Value {
        json!({"type": "delta", "msg_id": msg_id, "text": text})
    }
    /// `tool_drafting {msg_id, name}`.
    pub fn tool_drafting(msg_id: &str, name: &str) -> Value {
        json!({"type": "tool_drafting", "msg_id": msg_id, "name": name})
    }
    /// `tool_call {msg_id, call_id, name, args}`.
    pub fn tool_call(msg_id: &str, call_id: &str, name: &str, args: Value) -> Value {
        json!({"type": "tool_call", "msg_id": msg_id, "call_id": call_id, "name": name, "args": args})
    }
    /// `tool_result {msg_id, call_id, name, ok, output, seconds}`.
    pub fn tool_result(msg_id: &str, call_id: &str, name: &str, ok: bool, output: &str, seconds: f64) -> Value {
        json!({"type": "tool_result", "msg_id": msg_id, "call_id": call_id, "name": name, "ok": ok, "output": output, "seconds": seconds})
    }
    /// `approval_request {msg_id, approval_id, call_id, name, args}`.
    pub fn approval_request(msg_id: &str, approval_id: &str, call_id: &str, name: &str, args: Value) -> Value {
        json!({"type": "approval_request", "msg_id": msg_id, "approval_id": approval_id, "call_id": call_id, "name": name, "args": args})
    }
    /// `usage {msg_id, chars, seconds, ttft}`.
    pub fn usage(msg_id: &str, chars: u64, seconds: f64, ttft: f64) -> Value {
        json!({"type": "usage", "msg_id": msg_id, "chars": chars, "seconds": seconds, "ttft": ttft})
    }
    /// `cancelled {msg_id, run_id}`.
    pub fn cancelled(msg_id: &str, run_id: &str) -> Value {
        json!({"type": "cancelled", "msg_id": msg_id, "run_id": run_id})
    }
    /// `error {msg_id, message, kind}`; kind is auth / rate_limit /
    /// no_answer / empty / internal.
    pub fn error(msg_id: &str, message: &str, kind: &str) -> Value {
        json!({"type": "error", "msg_id": msg_id, "message": message, "kind": kind})
    }
    /// `end {msg_id, user_index, assistant_index, versions, active}`.
    pub fn end(msg_id: &str, user_index: u64, assistant_index: u64, versions: Value, active: Value) -> Value {
        json!({"type": "end", "msg_id": msg_id, "user_index": user_index, "assistant_index": assistant_index, "versions": versions, "active": active})
    }
}

/// The ids one scripted turn uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnIds {
    /// `msg_id` of every event.
    pub msg_id: String,
    /// `run_id` of `start`.
    pub run_id: String,
    /// `call_id` of the tool call.
    pub call_id: String,
    /// `approval_id` of the approval request.
    pub approval_id: String,
}

impl TurnIds {
    /// Ids ending in `-<n>`.
    pub fn numbered(n: u64) -> TurnIds {
        TurnIds { msg_id: format!("msg-{n}"), run_id: format!("run-{n}"), call_id: format!("call-{n}"), approval_id: format!("apr-{n}") }
    }
}

/// The reply text the script streams, one `delta` per word.
pub const SCRIPT_REPLY: &str = "The sea is calm tonight.";

/// The whole event list for one `POST /chat` body.
///
/// Plain: `start → reasoning → delta ×N → tool_drafting → tool_call →
/// tool_result → usage → end`. With "approve" in `message`: `start →
/// reasoning → tool_drafting → approval_request → tool_call → tool_result →
/// delta ×N → usage → end`. `index` is the 0-based count of earlier
/// `/chat` requests: the turn's user message is at `2 × index`, its answer
/// one after. A `regenerate_of` gets `versions: 2, active: 1`, otherwise
/// `versions: 1, active: 0`.
pub fn script(body: &Value, ids: &TurnIds, index: u64) -> Vec<Value> {
    let m = ids.msg_id.as_str();
    let message = body["message"].as_str().unwrap_or("");
    let words: Vec<Value> = SCRIPT_REPLY.split_inclusive(' ').map(|w| events::delta(m, w)).collect();
    let mut out = vec![events::start(m, &ids.run_id), events::reasoning(m, "Thinking about the sea.")];
    if message.contains("approve") {
        let args = json!({"command": "ls"});
        out.push(events::tool_drafting(m, APPROVAL_TOOL));
        out.push(events::approval_request(m, &ids.approval_id, &ids.call_id, APPROVAL_TOOL, args.clone()));
        out.push(events::tool_call(m, &ids.call_id, APPROVAL_TOOL, args));
        out.push(events::tool_result(m, &ids.call_id, APPROVAL_TOOL, true, "notes.txt\n", 0.05));
        out.extend(words);
    } else {
        out.extend(words);
        out.push(events::tool_drafting(m, SCRIPT_TOOL));
        out.push(events::tool_call(m, &ids.call_id, SCRIPT_TOOL, json!({})));
        out.push(events::tool_result(m, &ids.call_id, SCRIPT_TOOL, true, "21:00", 0.01));
    }
    out.push(events::usage(m, SCRIPT_REPLY.chars().count() as u64, 0.5, 0.1));
    let (versions, active) = if body.get("regenerate_of").is_some_and(|v| !v.is_null()) { (2, 1) } else { (1, 0) };
    out.push(events::end(m, 2 * index, 2 * index + 1, json!(versions), json!(active)));
    out
}

fn auth(headers: &HeaderMap) -> Option<String> {
    headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_string)
}

fn record(shared: &Shared, path: String, headers: &HeaderMap, body: &[u8]) -> (usize, Result<Value, HttpReply>) {
    let parsed = parse_body(body);
    let kept = parsed.clone().unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()));
    let n = shared.record_request(RecordedRequest { path, body: kept, authorization: auth(headers) });
    (n, parsed)
}

fn chat_count(shared: &Shared) -> u64 {
    shared.requests_to("/chat") as u64
}

pub(crate) async fn chat(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let (_, parsed) = record(&shared, "/chat".into(), &headers, &body);
    if let Err(reply) = check_bearer(shared.config.key.as_deref(), &headers) {
        return reply.into_response(0.0, shared.cancel.clone());
    }
    let body = match parsed {
        Ok(b) => b,
        Err(reply) => return reply.into_response(0.0, shared.cancel.clone()),
    };
    let index = chat_count(&shared).saturating_sub(1);
    let ids = TurnIds::numbered(shared.next_seq());
    tracing::info!(event = "agent_chat_request", msg_id = %ids.msg_id, index);
    let events = script(&body, &ids, index).iter().map(|e| SseEvent::named(EVENT_DELAY_MS, e)).collect();
    HttpReply::Stream(events).into_response(shared.config.pace, shared.cancel.clone())
}

pub(crate) async fn approve(State(shared): State<Arc<Shared>>, Path(aid): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    let _ = record(&shared, format!("/approve/{aid}"), &headers, &body);
    axum::Json(json!({"ok": true})).into_response()
}

pub(crate) async fn cancel(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let _ = record(&shared, "/cancel".into(), &headers, &body);
    axum::Json(json!({"ok": true})).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(events: &[Value]) -> Vec<&str> {
        events.iter().map(|e| e["type"].as_str().unwrap()).collect()
    }

    #[test]
    fn the_plain_script_follows_the_seed_order() {
        let events = script(&json!({"message": "hi"}), &TurnIds::numbered(1), 0);
        let mut expected = vec!["start", "reasoning"];
        expected.extend(std::iter::repeat_n("delta", 5));
        expected.extend(["tool_drafting", "tool_call", "tool_result", "usage", "end"]);
        assert_eq!(types(&events), expected);
        assert!(events.iter().all(|e| e["msg_id"] == "msg-1"));
        let text: String = events.iter().filter(|e| e["type"] == "delta").map(|e| e["text"].as_str().unwrap()).collect();
        assert_eq!(text, SCRIPT_REPLY);
    }

    #[test]
    fn approve_asks_first_and_regenerate_is_a_second_version() {
        let events = script(&json!({"message": "please approve", "regenerate_of": 1}), &TurnIds::numbered(2), 1);
        let t = types(&events);
        let ask = t.iter().position(|k| *k == "approval_request").unwrap();
        assert!(ask < t.iter().position(|k| *k == "tool_call").unwrap());
        assert_eq!(events[ask]["approval_id"], "apr-2");
        let end = events.last().unwrap();
        assert_eq!(end, &events::end("msg-2", 2, 3, json!(2), json!(1)));
    }
}
