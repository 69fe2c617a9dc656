//! The `agent_chat` wire: reading the stream's events into the chat
//! window's vocabulary ([`crate::chat::vocabulary`], where the eleven events
//! are one `#[serde(tag = "type")]` enum with the wire's names and lenient
//! field readers), the bodies the client sends, and the endpoint URLs.
//!
//! `docs/transports.md` ("`agent_chat`") names every event and its fields;
//! the bodies, the side endpoints and the JSON types are the real engine's
//! (the PraisonAI desktop engine, protocol version 2; `docs/transports.md`
//! lists where its source and its documentation disagree: the source wins):
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

pub use crate::chat::vocabulary::{unquote, ApprovalDecision, ChatErrorKind, ChatEvent, Latency, EVENT_TYPES};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// [`parse_event`] over one event of the shared SSE reader.
pub fn from_sse(event: &crate::transport::sse::SseEvent) -> Result<ChatEvent, EventError> {
    parse_event(&event.event, &event.data)
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

    /// One example per row of the event table in `docs/transports.md`, with
    /// every field.
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
