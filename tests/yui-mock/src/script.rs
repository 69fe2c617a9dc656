//! Scripted answers for the SSE endpoints: a scenario's `"http"` list.
//!
//! ```json
//! { "http": [
//!     {"status": 429, "body": {"error": {"message": "slow down", "type": "rate_limit_error", "code": "rate_limit_exceeded"}}},
//!     {"events": [
//!       {"data": {"type": "response.created", "response": {"id": "resp_$n", "status": "in_progress", "output": []}}},
//!       {"raw": ": keepalive\n\n"},
//!       {"sleep_ms": 50},
//!       {"data": {"type": "response.output_text.delta", "item_id": "msg_$n", "delta": "Hi"}},
//!       {"drop": true}
//!     ]}
//!   ],
//!   "http_default": {"status": 500, "body": "no more replies"} }
//! ```
//!
//! The n-th HTTP request (1-based, across `/v1/responses` and
//! `/v1/chat/completions`, in arrival order) gets `http[n-1]`. Past the end
//! it gets `http_default` when the scenario has one, else the last entry
//! again. With neither, the demo agent answers (as in demo mode).
//!
//! A reply is either an error — `{"status": N, "body": JSON | "text"}`
//! (objects and arrays go out as `application/json`, strings as
//! `text/plain`) — or a 200 `text/event-stream` — `{"events": [step…]}`:
//!
//! | step | effect |
//! |---|---|
//! | `{"data": JSON}` | One event: `event: <data.type>\ndata: <json>\n\n` on `/v1/responses` (an object without `sequence_number` gets one: its position among the reply's data steps, from 0), `data: <json>\n\n` on `/v1/chat/completions`. |
//! | `{"raw": TEXT}` | TEXT verbatim (`": keepalive\n\n"`, `"data: [DONE]\n\n"`, a garbage line). |
//! | `{"sleep_ms": N}` | Waits N ms (exact, not scaled by pace). |
//! | `{"drop": true}` | Breaks the body mid-stream (the connection is cut, no final chunk). |
//! | `{"hang": true}` | Sends nothing more and keeps the connection open (until the server stops). |
//!
//! When the `events` end, the body ends normally. `$n` in any string (not
//! followed by a letter, digit or `_`) becomes the request's 1-based index.

use serde::Deserialize;
use serde_json::Value;

/// One scripted HTTP answer (see the module docs for the JSON).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Value")]
pub enum HttpScript {
    /// An error status with a JSON or text body.
    Error {
        /// The HTTP status.
        status: u16,
        /// The body: a string is sent as text/plain, anything else as JSON.
        body: Value,
    },
    /// A 200 `text/event-stream` answer.
    Events(Vec<StreamStep>),
}

/// One step of a scripted event stream.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamStep {
    /// One SSE event carrying this JSON.
    Data(Value),
    /// Text sent verbatim.
    Raw(String),
    /// Wait this many milliseconds.
    Sleep(u64),
    /// Break the body mid-stream.
    Drop,
    /// Send nothing more; keep the connection open.
    Hang,
}

impl TryFrom<Value> for HttpScript {
    type Error = String;

    fn try_from(value: Value) -> Result<HttpScript, String> {
        let Value::Object(mut obj) = value else {
            return Err(format!("an http reply is a JSON object, got {value}"));
        };
        obj.remove("comment");
        let script = if let Some(status) = obj.remove("status") {
            let status = status
                .as_u64()
                .and_then(|s| u16::try_from(s).ok())
                .filter(|s| (100..=999).contains(s))
                .ok_or_else(|| format!("status must be an HTTP status, got {status}"))?;
            HttpScript::Error { status, body: obj.remove("body").unwrap_or(Value::Null) }
        } else if let Some(events) = obj.remove("events") {
            let Value::Array(steps) = events else {
                return Err(format!("events must be a list, got {events}"));
            };
            HttpScript::Events(steps.into_iter().map(StreamStep::try_from).collect::<Result<_, _>>()?)
        } else {
            return Err(format!("an http reply needs \"status\" or \"events\", got keys {:?}", obj.keys().collect::<Vec<_>>()));
        };
        match obj.keys().next() {
            Some(extra) => Err(format!("unknown key {extra:?} in an http reply")),
            None => Ok(script),
        }
    }
}

impl TryFrom<Value> for StreamStep {
    type Error = String;

    fn try_from(value: Value) -> Result<StreamStep, String> {
        let Value::Object(mut obj) = value else {
            return Err(format!("an event step is a JSON object, got {value}"));
        };
        obj.remove("comment");
        if obj.len() != 1 {
            return Err(format!("an event step has exactly one of data, raw, sleep_ms, drop, hang; got keys {:?}", obj.keys().collect::<Vec<_>>()));
        }
        let (key, arg) = obj.into_iter().next().expect("one key");
        Ok(match (key.as_str(), arg) {
            ("data", v) => StreamStep::Data(v),
            ("raw", Value::String(s)) => StreamStep::Raw(s),
            ("sleep_ms", v) if v.is_u64() => StreamStep::Sleep(v.as_u64().unwrap_or_default()),
            ("drop", Value::Bool(true)) => StreamStep::Drop,
            ("hang", Value::Bool(true)) => StreamStep::Hang,
            (key, arg) => return Err(format!("bad event step {key:?}: {arg}")),
        })
    }
}

/// The script for the request with this 1-based index, if any.
pub(crate) fn pick<'a>(http: &'a [HttpScript], default: Option<&'a HttpScript>, n: usize) -> Option<&'a HttpScript> {
    http.get(n.saturating_sub(1)).or(default).or(http.last())
}

/// Replaces `$n` (not followed by an identifier character) in every string.
pub(crate) fn substitute(v: &Value, n: usize) -> Value {
    match v {
        Value::String(s) => Value::String(substitute_str(s, n)),
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, n)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), substitute(x, n))).collect()),
        other => other.clone(),
    }
}

/// [`substitute`] on one string.
pub(crate) fn substitute_str(s: &str, n: usize) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("$n") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            out.push_str("$n");
        } else {
            out.push_str(&n.to_string());
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_replies_and_substitutes() {
        let s: HttpScript = serde_json::from_value(json!({ "events": [
            { "data": { "id": "resp_$n" } }, { "raw": ": k\n\n" }, { "sleep_ms": 5 }, { "drop": true }, { "hang": true } ] }))
        .unwrap();
        assert_eq!(
            s,
            HttpScript::Events(vec![
                StreamStep::Data(json!({ "id": "resp_$n" })),
                StreamStep::Raw(": k\n\n".into()),
                StreamStep::Sleep(5),
                StreamStep::Drop,
                StreamStep::Hang,
            ])
        );
        assert!(serde_json::from_value::<HttpScript>(json!({ "status": 429, "body": "x", "oops": 1 })).is_err());
        assert!(serde_json::from_value::<HttpScript>(json!({ "events": [{ "drop": false }] })).is_err());
        assert!(serde_json::from_value::<HttpScript>(json!({ "nothing": 1 })).is_err());
        assert_eq!(substitute_str("resp_$n $name $n.", 7), "resp_7 $name 7.");
        let list = [HttpScript::Error { status: 1, body: Value::Null }, HttpScript::Events(vec![])];
        assert_eq!(pick(&list, None, 1), Some(&list[0]));
        assert_eq!(pick(&list, None, 5), Some(&list[1]));
        assert_eq!(pick(&list, Some(&list[0]), 5), Some(&list[0]));
        assert_eq!(pick(&[], None, 1), None);
    }
}
