//! The bodies the ingress accepts, parsed and checked (pure: bytes in,
//! values out). `POST /signals` becomes a [`SignalGroup`], the deprecated
//! `POST /agent-event` an [`AgentEvent`], and a `PUT /relations/<character>`
//! body is checked for its notes (`docs/triggers.md`, "The signals ingress").

use crate::context::{sanitize, AgentEvent, SignalEnvelope, SignalGroup};
use crate::limits::{AGENT_EVENT_DETAIL_BYTES, AGENT_EVENT_SUMMARY_BYTES, RELATION_NOTE_CHARS, SIGNAL_OCCURRED_AT_MAX_ABS_MS};
use serde_json::{Map, Value};

/// Appended to a `summary` or `detail` that was cut. It comes after the
/// cut: the kept text is at most the limit, the field at most the limit
/// plus these 14 bytes.
pub const TRUNCATED_MARKER: &str = "…[truncated]";

/// A body the ingress answers 400 for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadBody {
    /// Not JSON at all (the parser's message).
    #[error("body is not JSON: {0}")]
    NotJson(String),
    /// JSON without a `signals` field (or not an object).
    #[error("body lacks `signals`")]
    NoSignals,
    /// `signals` is there but is not an array.
    #[error("`signals` is not an array")]
    SignalsNotArray,
    /// A relations body that is not an array of record objects.
    #[error("relations body is not an array of records")]
    NotRecords,
    /// A relation record's `note` is not one line of at most 200 characters.
    #[error("record {index}: `note` must be one line of at most 200 characters")]
    BadNote {
        /// The record's position in the array.
        index: usize,
    },
}

/// The first field that made an envelope (or an agent event) invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invalid {
    /// The field, e.g. `occurred_at` (`envelope` or `body` when the value
    /// is not an object at all).
    pub field: &'static str,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` {}", self.field, self.reason)
    }
}

/// A `/signals` body that parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedSignals {
    /// The group to deliver; `envelope: None` for a legacy group.
    pub group: SignalGroup,
    /// Set when an envelope was sent but was invalid: the group is then
    /// delivered as legacy and the caller logs this once.
    pub invalid_envelope: Option<Invalid>,
}

/// A `/agent-event` body that parsed as JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedAgent {
    /// The event, `summary` and `detail` cut to their limits. An invalid
    /// payload gives an empty event (the renderer's bare `trigger: agent`).
    pub event: AgentEvent,
    /// Set when the payload was invalid (the caller logs it once).
    pub invalid: Option<Invalid>,
}

/// Parse a `POST /signals` body. `signals` must be an array (its items are
/// opaque); an absent or `null` envelope is legacy; an invalid one is
/// dropped (legacy delivery) and reported in
/// [`ParsedSignals::invalid_envelope`].
pub fn parse_signals(body: &[u8]) -> Result<ParsedSignals, BadBody> {
    let value: Value = serde_json::from_slice(body).map_err(|e| BadBody::NotJson(e.to_string()))?;
    let Value::Object(mut map) = value else { return Err(BadBody::NoSignals) };
    let items = match map.remove("signals") {
        None => return Err(BadBody::NoSignals),
        Some(Value::Array(items)) => items,
        Some(_) => return Err(BadBody::SignalsNotArray),
    };
    let (envelope, invalid_envelope) = match map.get("envelope") {
        None | Some(Value::Null) => (None, None),
        Some(v) => match parse_envelope(v) {
            Ok(e) => (Some(e), None),
            Err(why) => (None, Some(why)),
        },
    };
    Ok(ParsedSignals { group: SignalGroup { envelope, items }, invalid_envelope })
}

/// Check one envelope: `source`, `event_type`, `event_id` non-empty once
/// sanitized; `delivery` `immediate` or `batched`; `occurred_at` finite epoch
/// ms within ±8.64e15 (a fraction is cut toward zero, as a JS `Date` does);
/// `urgent` a boolean and `label` a string when present (`null` = absent).
/// Other fields are ignored.
pub fn parse_envelope(value: &Value) -> Result<SignalEnvelope, Invalid> {
    let Value::Object(obj) = value else { return Err(Invalid { field: "envelope", reason: "is not an object" }) };
    let source = required_text(obj, "source")?;
    let event_type = required_text(obj, "event_type")?;
    let event_id = required_text(obj, "event_id")?;
    let delivery = match obj.get("delivery") {
        Some(Value::String(s)) if s == "immediate" || s == "batched" => s.clone(),
        _ => return Err(Invalid { field: "delivery", reason: "is not `immediate` or `batched`" }),
    };
    let occurred_at = obj.get("occurred_at").and_then(epoch_ms).ok_or(Invalid { field: "occurred_at", reason: "is not finite epoch ms within ±8.64e15" })?;
    let urgent = match obj.get("urgent") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => return Err(Invalid { field: "urgent", reason: "is not a boolean" }),
    };
    let label = match obj.get("label") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(sanitize(s)).filter(|s| !s.is_empty()),
        Some(_) => return Err(Invalid { field: "label", reason: "is not a string" }),
    };
    Ok(SignalEnvelope {
        source: Some(source),
        event_type: Some(event_type),
        event_id: Some(event_id),
        occurred_at: Some(occurred_at),
        delivery: Some(delivery),
        label,
        urgent,
    })
}

fn required_text(obj: &Map<String, Value>, field: &'static str) -> Result<String, Invalid> {
    match obj.get(field) {
        Some(Value::String(s)) => Some(sanitize(s)).filter(|s| !s.is_empty()).ok_or(Invalid { field, reason: "is empty once sanitized" }),
        _ => Err(Invalid { field, reason: "is not a string" }),
    }
}

/// A JSON number as epoch milliseconds: finite and within ±8.64e15, a
/// fraction cut toward zero. Anything else (a string, a bigger number) is None.
pub fn epoch_ms(value: &Value) -> Option<i64> {
    if let Some(i) = value.as_i64() {
        return (i.unsigned_abs() <= SIGNAL_OCCURRED_AT_MAX_ABS_MS as u64).then_some(i);
    }
    if value.is_u64() {
        return None; // past i64::MAX, far past the bound
    }
    let f = value.as_f64()?;
    (f.is_finite() && f.abs() <= SIGNAL_OCCURRED_AT_MAX_ABS_MS as f64).then(|| f.trunc() as i64)
}

/// Parse a `POST /agent-event` body: `{ tool, project, cwd, status?, phase,
/// session_id?, detail?, summary, ts }`. Only a body that is not JSON is an
/// error; a payload that fails validation (a required field missing or of
/// the wrong kind) gives an empty event and [`ParsedAgent::invalid`] — the
/// bare `trigger: agent` headline. Strings are kept as sent (the
/// renderer sanitizes); `summary` and `detail` are cut with [`cut`].
pub fn parse_agent_event(body: &[u8]) -> Result<ParsedAgent, BadBody> {
    let value: Value = serde_json::from_slice(body).map_err(|e| BadBody::NotJson(e.to_string()))?;
    Ok(match agent_event(&value) {
        Ok(event) => ParsedAgent { event, invalid: None },
        Err(why) => ParsedAgent { event: AgentEvent::default(), invalid: Some(why) },
    })
}

fn agent_event(value: &Value) -> Result<AgentEvent, Invalid> {
    let Value::Object(obj) = value else { return Err(Invalid { field: "body", reason: "is not an object" }) };
    let string = |field: &'static str| match obj.get(field) {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(Invalid { field, reason: "is not a string" }),
    };
    let optional = |field: &'static str| match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(Invalid { field, reason: "is not a string" }),
    };
    let tool = string("tool")?;
    if tool.trim().is_empty() {
        return Err(Invalid { field: "tool", reason: "is empty" });
    }
    let phase = string("phase")?;
    if phase != "done" && phase != "needs_input" {
        return Err(Invalid { field: "phase", reason: "is not `done` or `needs_input`" });
    }
    let status = optional("status")?;
    if status.as_deref().is_some_and(|s| s != "success" && s != "error") {
        return Err(Invalid { field: "status", reason: "is not `success` or `error`" });
    }
    let ts = obj.get("ts").and_then(epoch_ms).ok_or(Invalid { field: "ts", reason: "is not finite epoch ms within ±8.64e15" })?;
    Ok(AgentEvent {
        tool: Some(tool),
        phase: Some(phase),
        status,
        project: Some(string("project")?),
        ts: Some(ts),
        summary: Some(cut(&string("summary")?, AGENT_EVENT_SUMMARY_BYTES)),
        detail: optional("detail")?.map(|d| cut(&d, AGENT_EVENT_DETAIL_BYTES)),
        cwd: Some(string("cwd")?),
        session_id: optional("session_id")?,
    })
}

/// `text` unchanged when it is at most `max_bytes` long; otherwise its
/// longest prefix of at most `max_bytes` that ends on a UTF-8 boundary,
/// followed by [`TRUNCATED_MARKER`] (the marker is outside the limit).
pub fn cut(text: &str, max_bytes: usize) -> String {
    if text.len() <= max_bytes {
        return text.to_string();
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut out = String::with_capacity(end + TRUNCATED_MARKER.len());
    out.push_str(&text[..end]);
    out.push_str(TRUNCATED_MARKER);
    out
}

/// Check a `PUT /relations/<character>` body: a JSON array of record
/// objects, each `note` (when present and not `null`) a string of one line
/// (no line break of any kind) and at most 200 characters (code points).
/// The records are otherwise handed on as sent.
pub fn parse_relations(body: &[u8]) -> Result<Value, BadBody> {
    let value: Value = serde_json::from_slice(body).map_err(|e| BadBody::NotJson(e.to_string()))?;
    let Value::Array(records) = &value else { return Err(BadBody::NotRecords) };
    for (index, record) in records.iter().enumerate() {
        let Value::Object(obj) = record else { return Err(BadBody::NotRecords) };
        match obj.get("note") {
            None | Some(Value::Null) => {}
            Some(Value::String(note)) if note_ok(note) => {}
            Some(_) => return Err(BadBody::BadNote { index }),
        }
    }
    Ok(value)
}

fn note_ok(note: &str) -> bool {
    let line_break = |c: char| matches!(c, '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}');
    note.chars().count() <= RELATION_NOTE_CHARS && !note.contains(line_break)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_keeps_whole_characters() {
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("abcd", 3), format!("abc{TRUNCATED_MARKER}"));
        // "é" is two bytes: a cut at 2 would split it.
        assert_eq!(cut("aé", 2), format!("a{TRUNCATED_MARKER}"));
        assert_eq!(cut("😀", 3), TRUNCATED_MARKER);
    }

    #[test]
    fn epoch_ms_bounds() {
        assert_eq!(epoch_ms(&serde_json::json!(8_640_000_000_000_000i64)), Some(8_640_000_000_000_000));
        assert_eq!(epoch_ms(&serde_json::json!(-8_640_000_000_000_000i64)), Some(-8_640_000_000_000_000));
        assert_eq!(epoch_ms(&serde_json::json!(8_640_000_000_000_001i64)), None);
        assert_eq!(epoch_ms(&serde_json::json!(u64::MAX)), None);
        assert_eq!(epoch_ms(&serde_json::json!(1.9)), Some(1));
        assert_eq!(epoch_ms(&serde_json::json!(-1.9)), Some(-1));
        assert_eq!(epoch_ms(&serde_json::json!(8.7e15)), None);
        assert_eq!(epoch_ms(&serde_json::json!("1")), None);
    }
}
