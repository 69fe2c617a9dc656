//! Builders for the eleven `agent_chat` events (`docs/transports.md`, "`agent_chat`"), each a JSON
//! object whose `type` is the event name and whose other fields are the
//! table's, in its spelling. On the wire ([`frame`]) the name goes on
//! the `event:` line and the data carries no `type`, as the PraisonAI
//! desktop engine sends it (see `docs/transports.md`).

use serde_json::{json, Value};

/// One event as the engine frames it: `event: <type>` and `data: <json>`
/// without the `type` key, then a blank line.
pub fn frame(event: &Value) -> String {
    let mut data = event.clone();
    let name = data.as_object_mut().and_then(|o| o.remove("type")).and_then(|t| t.as_str().map(str::to_string)).unwrap_or_default();
    format!("event: {name}\ndata: {data}\n\n")
}

/// `start {msg_id, run_id}`: a new assistant turn.
pub fn start(msg_id: &str, run_id: &str) -> Value {
    json!({ "type": "start", "msg_id": msg_id, "run_id": run_id })
}

/// `reasoning {msg_id, text}` (incremental).
pub fn reasoning(msg_id: &str, text: &str) -> Value {
    json!({ "type": "reasoning", "msg_id": msg_id, "text": text })
}

/// `delta {msg_id, text}`: more reply text.
pub fn delta(msg_id: &str, text: &str) -> Value {
    json!({ "type": "delta", "msg_id": msg_id, "text": text })
}

/// `tool_drafting {msg_id, name}`: a tool call is being prepared.
pub fn tool_drafting(msg_id: &str, name: &str) -> Value {
    json!({ "type": "tool_drafting", "msg_id": msg_id, "name": name })
}

/// `tool_call {msg_id, call_id, name, args}`: the tool runs.
pub fn tool_call(msg_id: &str, call_id: &str, name: &str, args: &Value) -> Value {
    json!({ "type": "tool_call", "msg_id": msg_id, "call_id": call_id, "name": name, "args": args })
}

/// `tool_result {msg_id, call_id, name, ok, output, seconds}`.
pub fn tool_result(msg_id: &str, call_id: &str, name: &str, ok: bool, output: &str, seconds: f64) -> Value {
    json!({
        "type": "tool_result", "msg_id": msg_id, "call_id": call_id, "name": name,
        "ok": ok, "output": output, "seconds": seconds,
    })
}

/// `approval_request {msg_id, approval_id, call_id, name, args}`: the run
/// waits for `POST /approve/{approval_id}`.
pub fn approval_request(msg_id: &str, approval_id: &str, call_id: &str, name: &str, args: &Value) -> Value {
    json!({
        "type": "approval_request", "msg_id": msg_id, "approval_id": approval_id,
        "call_id": call_id, "name": name, "args": args,
    })
}

/// `usage {msg_id, chars, seconds, ttft}`.
pub fn usage(msg_id: &str, chars: u64, seconds: f64, ttft: f64) -> Value {
    json!({ "type": "usage", "msg_id": msg_id, "chars": chars, "seconds": seconds, "ttft": ttft })
}

/// `cancelled {msg_id, run_id}`: the run was stopped with `POST /cancel`.
pub fn cancelled(msg_id: &str, run_id: &str) -> Value {
    json!({ "type": "cancelled", "msg_id": msg_id, "run_id": run_id })
}

/// `error {msg_id, message, kind}`; `kind` is auth / rate_limit /
/// no_answer / empty / internal.
pub fn error(msg_id: &str, message: &str, kind: &str) -> Value {
    json!({ "type": "error", "msg_id": msg_id, "message": message, "kind": kind })
}

/// `end {msg_id, user_index, assistant_index, versions, active}`.
pub fn end(msg_id: &str, user_index: usize, assistant_index: usize, versions: usize, active: usize) -> Value {
    json!({
        "type": "end", "msg_id": msg_id, "user_index": user_index,
        "assistant_index": assistant_index, "versions": versions, "active": active,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_names_the_event_and_its_data_has_no_type() {
        let wire = frame(&start("m_1", ""));
        let (head, data) = wire.split_once('\n').unwrap();
        assert_eq!(head, "event: start");
        assert!(wire.ends_with("}\n\n"), "{wire:?}");
        let data: Value = serde_json::from_str(data.strip_prefix("data: ").unwrap().trim_end()).unwrap();
        assert_eq!(data, json!({ "msg_id": "m_1", "run_id": "" }));
    }
}
