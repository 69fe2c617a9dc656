//! The chat window's vocabulary: the eleven events every transport maps onto
//! ([`ChatEvent`], with [`ChatErrorKind`] and [`Latency`]), the user's answer
//! on an approval card ([`ApprovalDecision`]) and the texts of the error
//! kinds the chat shows ([`NO_OUTPUT`], [`NO_ANSWER`]).
//!
//! The names and fields are the agent_chat stream's (the PraisonAI desktop
//! engine's `POST /chat`, `docs/transports.md`); that transport's wire file
//! (`yui_core::transport::agent_chat::wire`) only deserializes into these types,
//! which is why the lenient readers (`id`, `index`, `output`) sit on the
//! fields here. The other transports build the same events
//! (`yui_core::turn::chat_map`). Imports nothing of the engine, the transports
//! or the UI events: those import it.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

/// What an `error` of kind `empty` shows (`docs/transports.md`, "`agent_chat`").
pub const NO_OUTPUT: &str = "No output";

/// What an `error` of kind `no_answer` shows (`docs/transports.md`, "`agent_chat`").
pub const NO_ANSWER: &str = "The tools ran, but no answer came back";

/// Every event type of the stream, in the order of the table in
/// `docs/transports.md` ("`agent_chat`").
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
/// transport (`yui_core::turn::chat_map` maps the others onto them), so the type is also
/// exported to the UI. There `msg_id` is the client's turn id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
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
        #[cfg_attr(feature = "ts", ts(type = "number | null"))]
        seconds: Option<f64>,
    },
    /// A tool call waits for the user's Allow / Always allow / Deny; the run
    /// blocks until it is answered (`POST /approve/{aid}`) or until
    /// [`yui_engine::limits::AGENT_CHAT_APPROVAL_TIMEOUT`] passes.
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
        #[cfg_attr(feature = "ts", ts(type = "unknown"))]
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
        /// Time to first token, in seconds; `None` when no token came (the
        /// engine may send `null` or nothing).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        ttft: Option<f64>,
        /// Ours, not the engine's: the transport's token usage of the turn's last
        /// call, where it has one (the readout shows `total_tokens`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        tokens: Option<crate::model::Usage>,
        /// Ours, not the engine's: the model's context window in tokens, shown
        /// beside `tokens` (from the settings).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
        context_window: Option<u64>,
        /// Ours, not the engine's: when each step of the turn happened, for the
        /// usage line's hover.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
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
        #[cfg_attr(feature = "ts", ts(type = "string"))]
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
        #[cfg_attr(feature = "ts", ts(type = "number | null"))]
        user_index: Option<u64>,
        /// The assistant message's index (`user_index + 1`); `None` as above.
        #[serde(default, deserialize_with = "index")]
        #[cfg_attr(feature = "ts", ts(type = "number | null"))]
        assistant_index: Option<u64>,
        /// How many versions the assistant message has (1 when never
        /// regenerated); `None` when not sent.
        #[serde(default, deserialize_with = "index")]
        #[cfg_attr(feature = "ts", ts(type = "number | null"))]
        versions: Option<u64>,
        /// The version shown, 0-based; `None` when not sent.
        #[serde(default, deserialize_with = "index")]
        #[cfg_attr(feature = "ts", ts(type = "number | null"))]
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

/// The `kind` of an `error` event. A kind `docs/transports.md` does not list is kept as
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
    /// A kind `docs/transports.md` does not list, as sent.
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

/// The per-turn latency breakdown (ours, not the engine's): milliseconds from the
/// moment the turn started (the user pressed Enter) to each step. A step
/// that never happened is absent. Kept in the turn log too
/// (`record = "latency"`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Latency {
    /// The request left (after the screenshot, when a turn takes one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub request_sent_ms: Option<u64>,
    /// The first token of anything (reasoning, text, a tool) arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub first_token_ms: Option<u64>,
    /// The first whole sentence of the reply arrived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub first_sentence_ms: Option<u64>,
    /// The first sentence showed in the bubble: its turn to play came (a
    /// voice that must be made sounds once it is made).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub first_audio_ms: Option<u64>,
}

/// The user's answer on an approval card: Allow / Always allow / Deny.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    /// Allow this call once.
    Allow,
    /// Always allow this tool.
    Always,
    /// Deny this call.
    Deny,
}

impl From<ApprovalDecision> for super::ApprovalState {
    fn from(d: ApprovalDecision) -> Self {
        match d {
            ApprovalDecision::Allow => super::ApprovalState::Allowed,
            ApprovalDecision::Always => super::ApprovalState::Always,
            ApprovalDecision::Deny => super::ApprovalState::Denied,
        }
    }
}
