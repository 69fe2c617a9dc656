//! The `agent_chat` wire: the eleven stream events as one
//! `#[serde(tag = "type")]` enum with the seed's names, the bodies the client
//! sends, and the endpoint URLs.
//!
//! The seed (`004`) names every event and its fields; the bodies, the
//! side endpoints and the JSON types are the real engine's (the PraisonAI
//! desktop engine, protocol version 2; `docs/transports.md` lists where it
//! and the seed disagree: the engine wins):
//!
//! * the engine writes `event: <name>` and `data: <json>` with no `"type"`
//!   key: the type is the SSE event name (a `"type"` key, when a server
//!   sends one, wins);
//! * ids (`msg_id`, `run_id`, `call_id`, `approval_id`) are strings; a number
//!   sent in their place is read as its decimal text;
//! * `tool_result.seconds` and `usage.ttft` may be `null` or absent;
//!   `tool_result.output` may be a JSON-quoted string (the unquoted text is
//!   kept);
//! * `end.user_index` and `end.assistant_index` are `null` when the engine
//!   could not save the exchange; `end.versions` is a count and `active` a
//!   0-based index (read leniently: a number written as text, or absent).

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Every event type of the stream, in the seed's order.
pub const EVENT_TYPES: [&str; 11] =
    ["start", "reasoning", "delta", "tool_drafting", "tool_call", "tool_result", "approval_request", "usage", "cancelled", "error", "end"];

/// Reads an id that the engine may send as a string or as a number.
fn id<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match Value::deserialize(d)? {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        other => Err(serde::de::Error::custom(format!("an id must be a string or a number, not {other}"))),
    }
}

/// One event of the `POST /chat` stream. Every event carries `msg_id`, the
/// assistant message it belongs to.
///
/// The same eleven events are the chat window's whole vocabulary on every
/// transport (`crate::chat` maps the others onto them), so the type is also
/// exported to the UI. There `msg_id` is the client's turn id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChatEvent {
    /// A new assistant turn.
    Start {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The run; later approvals and cancels address it.
        #[serde(deserialize_with = "id")]
        run_id: String,
    },
    /// Reasoning written since the last one (incremental).
    Reasoning {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The new reasoning text.
        text: String,
    },
    /// Reply text written since the last one.
    Delta {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The new text.
        text: String,
    },
    /// The model is writing a tool call's arguments.
    ToolDrafting {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The tool name.
        name: String,
    },
    /// A tool call started (the card's running dot).
    ToolCall {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The call id, echoed by its result.
        #[serde(deserialize_with = "id")]
        call_id: String,
        /// The tool name.
        name: String,
        /// The arguments as sent (an object, usually).
        #[ts(type = "unknown")]
        args: Value,
    },
    /// A tool call finished.
    ToolResult {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The call this answers.
        #[serde(deserialize_with = "id")]
        call_id: String,
        /// The tool name.
        name: String,
        /// Whether the call succeeded.
        ok: bool,
        /// What the tool answered (the client tail-truncates it for show).
        /// A JSON-quoted string (`"\"text\""`) is read as its text.
        #[serde(deserialize_with = "output")]
        output: String,
        /// How long the call took, in seconds; `None` when the engine did
        /// not time it (`null` or absent).
        #[serde(default)]
        #[ts(type = "number | null")]
        seconds: Option<f64>,
    },
    /// A tool call waits for the user's Allow / Always allow / Deny; the run
    /// blocks until it is answered (`POST /approve/{aid}`) or until
    /// [`crate::limits::AGENT_CHAT_APPROVAL_TIMEOUT`] passes.
    ApprovalRequest {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The approval's id, the `{aid}` of `POST /approve/{aid}`.
        #[serde(deserialize_with = "id")]
        approval_id: String,
        /// The call waiting for it.
        #[serde(deserialize_with = "id")]
        call_id: String,
        /// The tool name.
        name: String,
        /// The call's arguments.
        #[ts(type = "unknown")]
        args: Value,
    },
    /// The turn's size and pace.
    Usage {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// Characters of the reply.
        chars: u64,
        /// Seconds the turn took.
        seconds: f64,
        /// Time to first token, in seconds; `None` when no token came (not
        /// in the seed: it may be `null` or absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        ttft: Option<f64>,
        /// Not in the seed: the transport's token usage of the turn's last
        /// call, where it has one (the readout shows `total_tokens`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        tokens: Option<crate::model::Usage>,
        /// Not in the seed: the model's context window in tokens, shown
        /// beside `tokens` (from the settings).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "number")]
        context_window: Option<u64>,
        /// Not in the seed: when each step of the turn happened, for the
        /// usage line's hover.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        latency: Option<Latency>,
    },
    /// The run was stopped (`POST /cancel`); the only banner to show.
    Cancelled {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The run that stopped.
        #[serde(deserialize_with = "id")]
        run_id: String,
    },
    /// The turn failed.
    Error {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// What to show.
        message: String,
        /// What kind of failure.
        #[ts(type = "string")]
        kind: ChatErrorKind,
    },
    /// The turn is final.
    End {
        /// The assistant message.
        #[serde(deserialize_with = "id")]
        msg_id: String,
        /// The user message's index in the engine's stored conversation;
        /// `None` when the engine could not save the exchange (then the
        /// client never addresses it on the engine).
        #[serde(default, deserialize_with = "index")]
        #[ts(type = "number | null")]
        user_index: Option<u64>,
        /// The assistant message's index (`user_index + 1`); `None` as above.
        #[serde(default, deserialize_with = "index")]
        #[ts(type = "number | null")]
        assistant_index: Option<u64>,
        /// How many versions the assistant message has (1 when never
        /// regenerated); `None` when not sent.
        #[serde(default, deserialize_with = "index")]
        #[ts(type = "number | null")]
        versions: Option<u64>,
        /// The version shown, 0-based; `None` when not sent.
        #[serde(default, deserialize_with = "index")]
        #[ts(type = "number | null")]
        active: Option<u64>,
    },
}

/// Reads a count or an index leniently: a number, a number written as
/// text, or `null`.
fn index<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        Value::Number(n) => n
            .as_u64()
            .or_else(|| n.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64))
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("{n} is not an index"))),
        Value::String(s) => s.trim().parse().map(Some).map_err(|_| serde::de::Error::custom(format!("{s:?} is not an index"))),
        other => Err(serde::de::Error::custom(format!("{other} is not an index"))),
    }
}

/// Reads `tool_result.output`: a string, unquoted when it is itself a
/// JSON-quoted string; anything else (an object, a number) as its JSON text.
fn output<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => unquote(s),
        Value::Null => String::new(),
        other => other.to_string(),
    })
}

/// `"\"text\""` → `text`: a string that is one JSON string literal is
/// read as that literal's text; anything else is kept as is.
pub fn unquote(s: String) -> String {
    let t = s.trim();
    if t.len() >= 2 && t.starts_with('"') && t.ends_with('"') {
        if let Ok(inner) = serde_json::from_str::<String>(t) {
            return inner;
        }
    }
    s
}

/// The `msg_id` field of a [`ChatEvent`] (every variant has one), borrowed
/// as the expression is: shared or mutable.
macro_rules! msg_id_of {
    ($event:expr) => {
        match $event {
            ChatEvent::Start { msg_id, .. }
            | ChatEvent::Reasoning { msg_id, .. }
            | ChatEvent::Delta { msg_id, .. }
            | ChatEvent::ToolDrafting { msg_id, .. }
            | ChatEvent::ToolCall { msg_id, .. }
            | ChatEvent::ToolResult { msg_id, .. }
            | ChatEvent::ApprovalRequest { msg_id, .. }
            | ChatEvent::Usage { msg_id, .. }
            | ChatEvent::Cancelled { msg_id, .. }
            | ChatEvent::Error { msg_id, .. }
            | ChatEvent::End { msg_id, .. } => msg_id,
        }
    };
}

impl ChatEvent {
    /// The wire `type` of this event.
    pub fn kind(&self) -> &'static str {
        match self {
            ChatEvent::Start { .. } => "start",
            ChatEvent::Reasoning { .. } => "reasoning",
            ChatEvent::Delta { .. } => "delta",
            ChatEvent::ToolDrafting { .. } => "tool_drafting",
            ChatEvent::ToolCall { .. } => "tool_call",
            ChatEvent::ToolResult { .. } => "tool_result",
            ChatEvent::ApprovalRequest { .. } => "approval_request",
            ChatEvent::Usage { .. } => "usage",
            ChatEvent::Cancelled { .. } => "cancelled",
            ChatEvent::Error { .. } => "error",
            ChatEvent::End { .. } => "end",
        }
    }

    /// The assistant message the event belongs to.
    pub fn msg_id(&self) -> &str {
        msg_id_of!(self)
    }

    /// The assistant message the event belongs to, to change (the chat log
    /// files a regenerated turn's events under the message it remakes).
    pub fn msg_id_mut(&mut self) -> &mut String {
        msg_id_of!(self)
    }

    /// Whether the event ends the stream's turn (`end`, `cancelled`, `error`).
    pub fn is_terminal(&self) -> bool {
        matches!(self, ChatEvent::End { .. } | ChatEvent::Cancelled { .. } | ChatEvent::Error { .. })
    }
}

/// The `kind` of an `error` event. A kind the seed does not list is kept as
/// [`ChatErrorKind::Other`] so a new one never breaks the stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ChatErrorKind {
    /// `auth`: the model's key was refused.
    Auth,
    /// `rate_limit`: the model's provider said slow down.
    RateLimit,
    /// `no_answer`: the tools ran but no answer came back.
    NoAnswer,
    /// `empty`: nothing at all happened (no text, no tools).
    Empty,
    /// `internal`: the engine failed.
    Internal,
    /// A kind the seed does not list, as sent.
    Other(String),
}

impl From<String> for ChatErrorKind {
    fn from(s: String) -> Self {
        match s.as_str() {
            "auth" => ChatErrorKind::Auth,
            "rate_limit" => ChatErrorKind::RateLimit,
            "no_answer" => ChatErrorKind::NoAnswer,
            "empty" => ChatErrorKind::Empty,
            "internal" => ChatErrorKind::Internal,
            _ => ChatErrorKind::Other(s),
        }
    }
}

impl From<ChatErrorKind> for String {
    fn from(k: ChatErrorKind) -> Self {
        match k {
            ChatErrorKind::Auth => "auth".into(),
            ChatErrorKind::RateLimit => "rate_limit".into(),
            ChatErrorKind::NoAnswer => "no_answer".into(),
            ChatErrorKind::Empty => "empty".into(),
            ChatErrorKind::Internal => "internal".into(),
            ChatErrorKind::Other(s) => s,
        }
    }
}

/// Why one stream event could not be read. Neither ends the stream: the
/// reader logs it ([`EventError::log`]) and goes on with the next event.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// A well-formed event of a type the eleven do not include.
    #[error("unknown agent_chat event type {kind:?}")]
    Unknown {
        /// The type as sent.
        kind: String,
        /// The event's data as sent.
        raw: String,
    },
    /// Data that is not a JSON object, an object without a type, or a known
    /// type whose fields do not fit.
    #[error("malformed agent_chat event{}: {message}", kind.as_deref().map(|k| format!(" {k:?}")).unwrap_or_default())]
    Malformed {
        /// The type, when one could be read.
        kind: Option<String>,
        /// What did not fit.
        message: String,
        /// The event's data as sent.
        raw: String,
    },
}

impl EventError {
    /// Writes the one log line a skipped event gets.
    pub fn log(&self) {
        match self {
            EventError::Unknown { kind, .. } => tracing::info!(record = "agent_chat_event_unknown", kind = %kind, "event skipped"),
            EventError::Malformed { kind, message, raw } => tracing::warn!(
                record = "agent_chat_event_malformed",
                kind = kind.as_deref().unwrap_or(""),
                error = %message,
                raw = %crate::transport::push::frames::cut_chars(raw, 200),
                "event skipped"
            ),
        }
    }
}

/// Reads one stream event: `event` is the SSE `event:` field ("message"
/// or "" when the server sent none), `data` its data. The type comes from
/// the data's `"type"`, or from `event` when the data has none.
pub fn parse_event(event: &str, data: &str) -> Result<ChatEvent, EventError> {
    let malformed = |kind: Option<String>, message: String| EventError::Malformed { kind, message, raw: data.to_string() };
    let mut value: Value = serde_json::from_str(data).map_err(|e| malformed(None, e.to_string()))?;
    let Some(object) = value.as_object_mut() else {
        return Err(malformed(None, "the data is not a JSON object".into()));
    };
    let kind = match object.get("type") {
        Some(Value::String(k)) => k.clone(),
        Some(other) => return Err(malformed(None, format!("\"type\" is not a string: {other}"))),
        None if !event.is_empty() && event != "message" => {
            object.insert("type".into(), Value::String(event.to_string()));
            event.to_string()
        }
        None => return Err(malformed(None, "no \"type\" and no SSE event name".into())),
    };
    if !EVENT_TYPES.contains(&kind.as_str()) {
        return Err(EventError::Unknown { kind, raw: data.to_string() });
    }
    serde_json::from_value(value).map_err(|e| malformed(Some(kind), e.to_string()))
}

impl ChatEvent {
    /// [`parse_event`] over one event of the shared SSE reader.
    pub fn from_sse(event: &crate::transport::sse::SseEvent) -> Result<ChatEvent, EventError> {
        parse_event(&event.event, &event.data)
    }
}

/// The body of `POST <base>/chat`, as the engine reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// The one text the engine gives the model: the rendered
    /// `<client_context>` block, a blank line and the user's input.
    pub prompt: String,
    /// The stored conversation the exchange is filed under.
    pub chat_id: String,
    /// The engine's in-memory agent and history; the same id as
    /// `chat_id`, so each conversation keeps its own history.
    pub session: String,
    /// Made by the client, fresh for every run; `start` echoes it and
    /// `POST /cancel/{run_id}` addresses it.
    pub run_id: String,
    /// On Regenerate: the USER message's index whose answer is made again
    /// (`null` for a new exchange).
    pub regenerate_of: Option<u64>,
    /// Whether the engine's agent may use its tools (always true).
    pub tools: bool,
    /// Pictures and PDFs as `{name, url}` data URLs, text files as
    /// `{name, text}`.
    pub attachments: Vec<WireAttachment>,
}

/// One item of [`ChatRequest::attachments`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WireAttachment {
    /// A picture or a PDF: `{name, url: "data:<mime>;base64,..."}`.
    Media {
        /// The file name.
        name: String,
        /// The bytes as a `data:` URL.
        url: String,
    },
    /// A text file: `{name, text}` (the engine appends it to the prompt).
    Text {
        /// The file name.
        name: String,
        /// Its text (already clipped to 100 kB by the client).
        text: String,
    },
}

/// The per-turn latency breakdown (not in the seed): milliseconds from the
/// moment the turn started (the user pressed Enter) to each step. A step
/// that never happened is absent. Kept in the turn log too
/// (`record = "latency"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Latency {
    /// The request left (after the screenshot, when a turn takes one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub request_sent_ms: Option<u64>,
    /// The first token of anything (reasoning, text, a tool) arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub first_token_ms: Option<u64>,
    /// The first whole sentence of the reply arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub first_sentence_ms: Option<u64>,
    /// The first sentence started playing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub first_audio_ms: Option<u64>,
}

/// The user's answer on an approval card: Allow / Always allow / Deny.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    /// Allow this call once.
    Allow,
    /// Always allow this tool.
    Always,
    /// Deny this call.
    Deny,
}

impl From<ApprovalDecision> for crate::chat::ApprovalState {
    fn from(d: ApprovalDecision) -> Self {
        match d {
            ApprovalDecision::Allow => crate::chat::ApprovalState::Allowed,
            ApprovalDecision::Always => crate::chat::ApprovalState::Always,
            ApprovalDecision::Deny => crate::chat::ApprovalState::Denied,
        }
    }
}

/// The body of `POST <base>/approve/{aid}`: `{"choice": ...}` (a missing
/// choice is a deny on the engine).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApproveRequest {
    /// The answer.
    pub choice: ApprovalDecision,
}

/// The engine's endpoint URLs from one base (`http://127.0.0.1:PORT` or
/// with a path prefix); a trailing slash on the base never doubles, and path
/// segments are percent-encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoints {
    base: String,
}

/// Percent-encodes one path segment (everything but RFC 3986 unreserved).
fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl Endpoints {
    /// Endpoints under `base`.
    pub fn new(base: &str) -> Endpoints {
        Endpoints { base: base.trim().trim_end_matches('/').to_string() }
    }

    /// `POST <base>/chat`: the event stream of one turn.
    pub fn chat(&self) -> String {
        format!("{}/chat", self.base)
    }

    /// `POST <base>/approve/{aid}`: answer an `approval_request`.
    pub fn approve(&self, approval_id: &str) -> String {
        format!("{}/approve/{}", self.base, segment(approval_id))
    }

    /// `POST <base>/cancel/{run_id}` (no body): stop a run.
    pub fn cancel(&self, run_id: &str) -> String {
        format!("{}/cancel/{}", self.base, segment(run_id))
    }

    /// `POST <base>/fork/{cid}/{user_index + 1}`: a new conversation with
    /// the messages up to and including the exchange of `user_index`.
    pub fn fork(&self, conversation_id: &str, user_index: u64) -> String {
        format!("{}/fork/{}/{}", self.base, segment(conversation_id), user_index + 1)
    }

    /// `POST <base>/version/{cid}/{user_index}/{n}`: show version `n` of the
    /// answer to the user message `user_index`.
    pub fn version(&self, conversation_id: &str, user_index: u64, n: u64) -> String {
        format!("{}/version/{}/{user_index}/{n}", self.base, segment(conversation_id))
    }

    /// `POST <base>/messages/{cid}/{user_index}`: delete one exchange (the
    /// user message and its answer).
    pub fn delete_exchange(&self, conversation_id: &str, user_index: u64) -> String {
        format!("{}/messages/{}/{user_index}", self.base, segment(conversation_id))
    }

    /// `DELETE <base>/chats/{cid}` (and `GET`): a whole conversation.
    pub fn conversation(&self, conversation_id: &str) -> String {
        format!("{}/chats/{}", self.base, segment(conversation_id))
    }

    /// `POST <base>/reset` `{session}`: the engine drops a session's
    /// in-memory agent, which its next turn seeds again from the stored
    /// conversation.
    pub fn reset(&self) -> String {
        format!("{}/reset", self.base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// One example per row of the seed's event table, with every field.
    fn examples() -> Vec<(Value, &'static str)> {
        vec![
            (json!({"type": "start", "msg_id": "m1", "run_id": "r1"}), "start"),
            (json!({"type": "reasoning", "msg_id": "m1", "text": "The user wants"}), "reasoning"),
            (json!({"type": "delta", "msg_id": "m1", "text": "Waves fold"}), "delta"),
            (json!({"type": "tool_drafting", "msg_id": "m1", "name": "web_search"}), "tool_drafting"),
            (json!({"type": "tool_call", "msg_id": "m1", "call_id": "c1", "name": "web_search", "args": {"query": "sea"}}), "tool_call"),
            (
                json!({"type": "tool_result", "msg_id": "m1", "call_id": "c1", "name": "web_search", "ok": true, "output": "3 results", "seconds": 1.25}),
                "tool_result",
            ),
            (
                json!({"type": "approval_request", "msg_id": "m1", "approval_id": "a1", "call_id": "c2", "name": "execute_command", "args": {"command": "ls"}}),
                "approval_request",
            ),
            (json!({"type": "usage", "msg_id": "m1", "chars": 42, "seconds": 2.5, "ttft": 0.4}), "usage"),
            (json!({"type": "cancelled", "msg_id": "m1", "run_id": "r1"}), "cancelled"),
            (json!({"type": "error", "msg_id": "m1", "message": "The tools ran, but no answer came back", "kind": "no_answer"}), "error"),
            (json!({"type": "end", "msg_id": "m1", "user_index": 0, "assistant_index": 1, "versions": 2, "active": 1}), "end"),
        ]
    }

    #[test]
    fn agent_chat_every_seed_event_round_trips() {
        let examples = examples();
        assert_eq!(examples.iter().map(|(_, k)| *k).collect::<Vec<_>>(), EVENT_TYPES);
        for (value, kind) in examples {
            let event = parse_event("message", &value.to_string()).unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(event.kind(), kind);
            assert_eq!(event.msg_id(), "m1");
            assert_eq!(serde_json::to_value(&event).unwrap(), value, "{kind} round trip");
        }
    }

    #[test]
    fn agent_chat_events_land_in_the_right_variant() {
        let e = parse_event("", r#"{"type":"start","msg_id":"m","run_id":"r"}"#).unwrap();
        assert_eq!(e, ChatEvent::Start { msg_id: "m".into(), run_id: "r".into() });
        let e = parse_event("", r#"{"type":"approval_request","msg_id":"m","approval_id":"a","call_id":"c","name":"n","args":{}}"#).unwrap();
        assert!(matches!(e, ChatEvent::ApprovalRequest { ref approval_id, .. } if approval_id == "a"));
        let e = parse_event("", r#"{"type":"error","msg_id":"m","message":"x","kind":"rate_limit"}"#).unwrap();
        assert!(matches!(e, ChatEvent::Error { kind: ChatErrorKind::RateLimit, .. }));
        assert!(e.is_terminal());
        let e = parse_event("", r#"{"type":"error","msg_id":"m","message":"x","kind":"quota"}"#).unwrap();
        assert!(matches!(e, ChatEvent::Error { kind: ChatErrorKind::Other(ref k), .. } if k == "quota"));
        assert_eq!(serde_json::to_value(&e).unwrap()["kind"], "quota");
    }

    #[test]
    fn agent_chat_lenient_reads() {
        // Numeric ids read as text; the type may ride in the SSE event name; ttft may be null.
        let e = parse_event("start", r#"{"msg_id":7,"run_id":"r"}"#).unwrap();
        assert_eq!(e, ChatEvent::Start { msg_id: "7".into(), run_id: "r".into() });
        let e = parse_event("message", r#"{"type":"usage","msg_id":"m","chars":0,"seconds":0.1,"ttft":null}"#).unwrap();
        assert_eq!(e, ChatEvent::Usage { msg_id: "m".into(), chars: 0, seconds: 0.1, ttft: None, tokens: None, context_window: None, latency: None });
        assert_eq!(serde_json::to_value(&e).unwrap(), json!({"type":"usage","msg_id":"m","chars":0,"seconds":0.1}));
    }

    #[test]
    fn agent_chat_unknown_and_malformed_are_errors_not_panics() {
        let unknown = parse_event("", r#"{"type":"heartbeat","msg_id":"m"}"#).unwrap_err();
        assert!(matches!(unknown, EventError::Unknown { ref kind, .. } if kind == "heartbeat"));
        assert_eq!(unknown.to_string(), "unknown agent_chat event type \"heartbeat\"");
        unknown.log();

        for (event, data) in [("", "not json"), ("", "[1,2]"), ("", r#"{"msg_id":"m"}"#), ("message", r#"{"type":3}"#), ("", "")] {
            let err = parse_event(event, data).unwrap_err();
            assert!(matches!(err, EventError::Malformed { kind: None, .. }), "{data:?}: {err}");
            err.log();
        }
        let err = parse_event("", r#"{"type":"delta","msg_id":"m"}"#).unwrap_err();
        assert!(matches!(err, EventError::Malformed { kind: Some(ref k), .. } if k == "delta"));
        assert!(err.to_string().contains("missing field `text`"), "{err}");
        let err = parse_event("", r#"{"type":"start","msg_id":{},"run_id":"r"}"#).unwrap_err();
        assert!(err.to_string().contains("an id must be a string or a number"), "{err}");
    }

    #[test]
    fn agent_chat_bodies_are_the_engines() {
        let body = ChatRequest {
            prompt: "<client_context>\n</client_context>\n\nhi".into(),
            chat_id: "c1".into(),
            session: "c1".into(),
            run_id: "r1".into(),
            regenerate_of: None,
            tools: true,
            attachments: vec![
                WireAttachment::Media { name: "a.png".into(), url: "data:image/png;base64,AAAA".into() },
                WireAttachment::Text { name: "n.txt".into(), text: "hello".into() },
            ],
        };
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            json!({"prompt": "<client_context>\n</client_context>\n\nhi", "chat_id": "c1", "session": "c1", "run_id": "r1",
                   "regenerate_of": null, "tools": true,
                   "attachments": [{"name": "a.png", "url": "data:image/png;base64,AAAA"}, {"name": "n.txt", "text": "hello"}]})
        );
        let regen = ChatRequest { regenerate_of: Some(2), attachments: Vec::new(), ..body };
        assert_eq!(serde_json::to_value(&regen).unwrap()["regenerate_of"], 2);
        for (d, s) in [(ApprovalDecision::Allow, "allow"), (ApprovalDecision::Always, "always"), (ApprovalDecision::Deny, "deny")] {
            assert_eq!(serde_json::to_value(ApproveRequest { choice: d }).unwrap(), json!({"choice": s}));
        }
    }

    #[test]
    fn agent_chat_reads_the_exact_bytes_the_engine_writes() {
        // `event: <name>` + `data: <json>` with no "type" key, as the engine writes them.
        let e = parse_event("start", r#"{"msg_id": "m_18c2f", "run_id": ""}"#).unwrap();
        assert_eq!(e, ChatEvent::Start { msg_id: "m_18c2f".into(), run_id: String::new() });
        let e = parse_event(
            "tool_result",
            r#"{"msg_id": "m_1", "call_id": "c_1_get_time", "name": "get_time", "ok": true, "output": "\"21:00\"", "seconds": null}"#,
        )
        .unwrap();
        assert_eq!(
            e,
            ChatEvent::ToolResult {
                msg_id: "m_1".into(),
                call_id: "c_1_get_time".into(),
                name: "get_time".into(),
                ok: true,
                output: "21:00".into(),
                seconds: None
            }
        );
        let e = parse_event("tool_result", r#"{"msg_id": "m_1", "call_id": "c", "name": "n", "ok": false, "output": "plain \"quoted\" text"}"#).unwrap();
        assert!(matches!(e, ChatEvent::ToolResult { ref output, seconds: None, .. } if output == "plain \"quoted\" text"), "{e:?}");
        let e = parse_event("end", r#"{"msg_id": "m_1", "user_index": null, "assistant_index": null, "versions": 1, "active": 0}"#).unwrap();
        assert_eq!(e, ChatEvent::End { msg_id: "m_1".into(), user_index: None, assistant_index: None, versions: Some(1), active: Some(0) });
        let e = parse_event("end", r#"{"msg_id": "m_1", "user_index": 2, "assistant_index": 3, "versions": "2", "active": 1}"#).unwrap();
        assert_eq!(e, ChatEvent::End { msg_id: "m_1".into(), user_index: Some(2), assistant_index: Some(3), versions: Some(2), active: Some(1) });
        let e = parse_event("end", r#"{"msg_id": "m_1"}"#).unwrap();
        assert!(matches!(e, ChatEvent::End { user_index: None, versions: None, .. }));
        let err = parse_event("end", r#"{"msg_id": "m_1", "user_index": -1}"#).unwrap_err();
        assert!(err.to_string().contains("not an index"), "{err}");
        let e = parse_event("usage", r#"{"msg_id": "m_1", "chars": 5, "seconds": 0.4, "ttft": null}"#).unwrap();
        assert!(matches!(e, ChatEvent::Usage { ttft: None, chars: 5, .. }));
        assert_eq!(unquote("\"a\\nb\"".into()), "a\nb");
        assert_eq!(unquote("\"half".into()), "\"half");
    }

    #[test]
    fn agent_chat_urls_never_double_slashes() {
        for base in ["http://127.0.0.1:8765", "http://127.0.0.1:8765/", " http://127.0.0.1:8765// "] {
            let e = Endpoints::new(base);
            assert_eq!(e.chat(), "http://127.0.0.1:8765/chat");
            assert_eq!(e.approve("a1"), "http://127.0.0.1:8765/approve/a1");
            assert_eq!(e.cancel("r1"), "http://127.0.0.1:8765/cancel/r1");
            assert_eq!(e.fork("c1", 4), "http://127.0.0.1:8765/fork/c1/5");
            assert_eq!(e.version("c1", 4, 2), "http://127.0.0.1:8765/version/c1/4/2");
            assert_eq!(e.delete_exchange("c1", 4), "http://127.0.0.1:8765/messages/c1/4");
            assert_eq!(e.conversation("c1"), "http://127.0.0.1:8765/chats/c1");
        }
        let e = Endpoints::new("http://h/engine/");
        assert_eq!(e.chat(), "http://h/engine/chat");
        assert_eq!(e.approve("a/b c"), "http://h/engine/approve/a%2Fb%20c");
    }
}
