//! The engine's stream events, written as the PraisonAI desktop engine
//! writes them: `event: <name>\ndata: <json>\n\n`, the JSON with `msg_id`
//! first and NO `"type"` key, in Python's `json.dumps` layout (`", "` and
//! `": "` separators, non-ASCII as `\uXXXX`).

use serde_json::{json, Map, Value};

/// One event: its name and its data (without `msg_id`, added on the wire).
pub type Event = (&'static str, Value);

/// `start {run_id}` (`""` when the client sent none).
pub fn start(run_id: &str) -> Event {
    ("start", json!({"run_id": run_id}))
}

/// `reasoning {text}`.
pub fn reasoning(text: &str) -> Event {
    ("reasoning", json!({"text": text}))
}

/// `delta {text}`.
pub fn delta(text: &str) -> Event {
    ("delta", json!({"text": text}))
}

/// `tool_drafting {name}`.
pub fn tool_drafting(name: &str) -> Event {
    ("tool_drafting", json!({"name": name}))
}

/// `tool_call {call_id, name, args}`.
pub fn tool_call(call_id: &str, name: &str, args: &Value) -> Event {
    ("tool_call", json!({"call_id": call_id, "name": name, "args": args}))
}

/// `tool_result {call_id, name, ok, output, seconds}` (`seconds` may be
/// `null`).
pub fn tool_result(call_id: &str, name: &str, ok: bool, output: &str, seconds: Option<f64>) -> Event {
    ("tool_result", json!({"call_id": call_id, "name": name, "ok": ok, "output": output, "seconds": seconds}))
}

/// `approval_request {approval_id, call_id, name, args}`.
pub fn approval_request(approval_id: &str, call_id: &str, name: &str, args: &Value) -> Event {
    ("approval_request", json!({"approval_id": approval_id, "call_id": call_id, "name": name, "args": args}))
}

/// `usage {chars, seconds, ttft}`.
pub fn usage(chars: u64, seconds: f64, ttft: Option<f64>) -> Event {
    ("usage", json!({"chars": chars, "seconds": seconds, "ttft": ttft}))
}

/// `cancelled {run_id}`.
pub fn cancelled(run_id: &str) -> Event {
    ("cancelled", json!({"run_id": run_id}))
}

/// `error {kind, message}`.
pub fn error(message: &str, kind: &str) -> Event {
    ("error", json!({"kind": kind, "message": message}))
}

/// `end {user_index, assistant_index, versions, active}` (indices `null`
/// when the exchange was not saved).
pub fn end(user_index: Option<usize>, versions: usize, active: usize) -> Event {
    ("end", json!({"user_index": user_index, "assistant_index": user_index.map(|u| u + 1), "versions": versions, "active": active}))
}

/// The bytes of one event on the wire.
pub fn wire(msg_id: &str, (name, data): &Event) -> String {
    let mut payload = Map::new();
    payload.insert("msg_id".into(), Value::String(msg_id.to_string()));
    if let Value::Object(fields) = data {
        payload.extend(fields.clone());
    }
    format!("event: {name}\ndata: {}\n\n", dumps(&Value::Object(payload)))
}

/// JSON text laid out as Python's `json.dumps` does by default.
pub fn dumps(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let items: Vec<String> = m.iter().map(|(k, v)| format!("{}: {}", ascii(k), dumps(v))).collect();
            format!("{{{}}}", items.join(", "))
        }
        Value::Array(a) => format!("[{}]", a.iter().map(dumps).collect::<Vec<_>>().join(", ")),
        Value::String(s) => ascii(s),
        other => other.to_string(),
    }
}

/// A JSON string literal with every non-ASCII character as `\uXXXX`.
fn ascii(s: &str) -> String {
    let quoted = Value::String(s.to_string()).to_string();
    let mut out = String::with_capacity(quoted.len());
    for c in quoted.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0u16; 2];
            for unit in c.encode_utf16(&mut buf) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_written_as_the_engine_writes_them() {
        assert_eq!(wire("m_1", &start("")), "event: start\ndata: {\"msg_id\": \"m_1\", \"run_id\": \"\"}\n\n");
        assert_eq!(
            wire("m_1", &end(None, 1, 0)),
            "event: end\ndata: {\"msg_id\": \"m_1\", \"user_index\": null, \"assistant_index\": null, \"versions\": 1, \"active\": 0}\n\n"
        );
        assert_eq!(dumps(&json!({"text": "é☃", "a": [1, 2]})), "{\"text\": \"\\u00e9\\u2603\", \"a\": [1, 2]}");
    }
}
