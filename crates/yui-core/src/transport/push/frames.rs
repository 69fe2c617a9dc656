//! The push wire: every frame as a `#[serde(tag = "type")]` enum with the wire names.

use crate::limits::{DELEGATION_ITEM_SUMMARY, DELEGATION_ITEM_TITLE, DELEGATION_LIST_ITEMS};
use crate::model::{Cue, DelegationItem, DelegationState, Segment as ReplySegment, ToolState, Usage, Vocabulary};
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// The vocabulary object of `hello` and `vocabulary` frames, as the wire
/// spells it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WireVocabulary {
    /// Expression ids.
    pub emotion_ids: Vec<String>,
    /// Motion ids.
    pub motion_ids: Vec<String>,
    /// `"free"` or `"enum"`.
    pub emotion_text_mode: String,
    /// The tag table used in enum mode.
    pub emotion_text_map: serde_json::Map<String, Value>,
}

impl From<&Vocabulary> for WireVocabulary {
    fn from(v: &Vocabulary) -> Self {
        Self {
            emotion_ids: v.emotion_ids.clone(),
            motion_ids: v.motion_ids.clone(),
            emotion_text_mode: v.emotion_text_mode.clone(),
            emotion_text_map: v.emotion_text_map.clone(),
        }
    }
}

/// A cue as render and speech segments carry it: a `generate_express`
/// argument object, every field optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
pub struct WireCue {
    /// Facial expression id.
    #[serde(default)]
    pub emotion_id: Option<String>,
    /// Body motion id.
    #[serde(default)]
    pub motion_id: Option<String>,
    /// Voice tone tag.
    #[serde(default)]
    pub emotion_text: Option<String>,
    /// Voice direction.
    #[serde(default)]
    pub caption: Option<String>,
}

impl From<WireCue> for Cue {
    fn from(c: WireCue) -> Self {
        Cue { emotion_id: c.emotion_id, motion_id: c.motion_id, emotion_text: c.emotion_text, caption: c.caption }
    }
}

/// Frames the client sends.
#[derive(Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientFrame {
    /// The first frame on every connection.
    Hello {
        /// The chat API key (never logged).
        key: String,
        /// The conversation id.
        chat_id: String,
        /// Frame types read beyond the base set.
        accepts: Vec<String>,
        /// What the client renders.
        vocabulary: WireVocabulary,
        /// Declared function tools; absent when none.
        #[serde(skip_serializing_if = "Option::is_none")]
        tools: Option<Vec<Value>>,
    },
    /// The renderable set changed.
    Vocabulary {
        /// The new set.
        vocabulary: WireVocabulary,
    },
    /// One turn.
    Turn {
        /// Client turn id.
        turn_id: String,
        /// The rendered block.
        client_context: String,
        /// The utterance, "" when nobody typed.
        text: String,
        /// Image data URLs; only for a backend that stated max_turn_bytes.
        #[serde(skip_serializing_if = "Option::is_none")]
        images: Option<Vec<String>>,
    },
    /// New conversation under the same chat id.
    Reset,
    /// The user pressed stop.
    Stop {
        /// Every turn outstanding at that moment.
        turn_ids: Vec<String>,
    },
    /// A saved failed record.
    Playback {
        /// The failed client turn.
        turn_id: String,
        /// Always "failed".
        ended: String,
    },
    /// The answer to a tool_call.
    ToolResult {
        /// The call id.
        id: String,
        /// The call's turn id.
        turn_id: String,
        /// The answer.
        result: String,
        /// Image data URLs beside the result.
        #[serde(skip_serializing_if = "Option::is_none")]
        images: Option<Vec<String>>,
    },
}

impl fmt::Debug for ClientFrame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientFrame::Hello { chat_id, accepts, .. } => {
                f.debug_struct("Hello").field("key", &"<redacted>").field("chat_id", chat_id).field("accepts", accepts).finish_non_exhaustive()
            }
            other => write!(f, "{}", serde_json::to_string(other).unwrap_or_default()),
        }
    }
}

impl ClientFrame {
    /// The wire `type` of this frame.
    pub fn kind(&self) -> &'static str {
        match self {
            ClientFrame::Hello { .. } => "hello",
            ClientFrame::Vocabulary { .. } => "vocabulary",
            ClientFrame::Turn { .. } => "turn",
            ClientFrame::Reset => "reset",
            ClientFrame::Stop { .. } => "stop",
            ClientFrame::Playback { .. } => "playback",
            ClientFrame::ToolResult { .. } => "tool_result",
        }
    }
}

/// One render segment: cues first, then speech.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Segment {
    /// Cues to play before the speech.
    #[serde(default)]
    pub cues: Vec<WireCue>,
    /// The sentence(s) to speak.
    #[serde(default)]
    pub speech: String,
}

/// Frames the backend sends.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerFrame {
    /// The answer to hello.
    Ready {
        /// Echo of the chat id.
        #[serde(default)]
        chat_id: Option<String>,
        /// Largest turn frame accepted; also says images are accepted.
        /// Anything but a positive integer reads as absent.
        #[serde(default, deserialize_with = "positive_or_none")]
        max_turn_bytes: Option<u64>,
    },
    /// A finished reply (or the rest of one).
    Render {
        /// The turn.
        turn_id: String,
        /// Backend name for logs.
        #[serde(default)]
        source: Option<String>,
        /// Ordered segments.
        #[serde(default)]
        segments: Vec<Segment>,
        /// The reasoning so far.
        #[serde(default)]
        reasoning: Option<String>,
    },
    /// One finished sentence of a reply still being written.
    Speech {
        /// The turn.
        turn_id: String,
        /// Segments, one sentence.
        #[serde(default)]
        segments: Vec<Segment>,
    },
    /// Closes a turn.
    TurnEnd {
        /// The turn.
        turn_id: String,
        /// Raw usage; read with [`parse_usage`].
        #[serde(default)]
        usage: Option<Value>,
    },
    /// The backend's failure text for a turn.
    Error {
        /// The failed turn.
        turn_id: String,
        /// One line.
        message: String,
    },
    /// A backend tool call's state.
    ToolStatus {
        /// The turn.
        turn_id: String,
        /// Running, done or failed.
        #[serde(deserialize_with = "tool_state")]
        state: ToolState,
        /// The tool name.
        tool_id: String,
    },
    /// A call against a declared tool.
    ToolCall {
        /// The call id.
        id: String,
        /// The turn.
        turn_id: String,
        /// The tool name.
        name: String,
        /// The arguments object.
        #[serde(default)]
        arguments: Value,
    },
    /// Reasoning written since the last frame.
    Reasoning {
        /// The turn.
        turn_id: String,
        /// The new text.
        delta: String,
    },
    /// The full list of delegated work.
    Delegations {
        /// Raw items; read with [`parse_delegations`].
        items: Vec<Value>,
    },
}

impl From<Segment> for ReplySegment {
    fn from(s: Segment) -> Self {
        ReplySegment { cues: s.cues.into_iter().map(Cue::from).collect(), speech: s.speech }
    }
}

impl ServerFrame {
    /// The turn this frame names, when it names one.
    pub fn turn_id(&self) -> Option<&str> {
        match self {
            ServerFrame::Render { turn_id, .. }
            | ServerFrame::Speech { turn_id, .. }
            | ServerFrame::TurnEnd { turn_id, .. }
            | ServerFrame::Error { turn_id, .. }
            | ServerFrame::ToolStatus { turn_id, .. }
            | ServerFrame::ToolCall { turn_id, .. }
            | ServerFrame::Reasoning { turn_id, .. } => Some(turn_id),
            ServerFrame::Ready { .. } | ServerFrame::Delegations { .. } => None,
        }
    }
}

/// `running`, `done` or `failed`, as the wire spells them.
fn tool_state<'de, D: Deserializer<'de>>(d: D) -> Result<ToolState, D::Error> {
    match String::deserialize(d)?.as_str() {
        "running" => Ok(ToolState::Running),
        "done" => Ok(ToolState::Done),
        "failed" => Ok(ToolState::Failed),
        other => Err(serde::de::Error::unknown_variant(other, &["running", "done", "failed"])),
    }
}

/// One delegation item as the wire carries it.
#[derive(Debug, Deserialize)]
struct WireDelegation {
    id: String,
    title: String,
    started_at: u64,
    state: String,
    #[serde(default)]
    ended_at: Option<u64>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    summary: Option<String>,
}

impl WireDelegation {
    fn into_item(self) -> Result<DelegationItem, String> {
        let state = match self.state.as_str() {
            "running" => DelegationState::Running,
            "done" => DelegationState::Done,
            other => return Err(format!("unknown state {other:?}")),
        };
        Ok(DelegationItem {
            id: self.id,
            title: self.title,
            started_at: self.started_at,
            state,
            ended_at: self.ended_at,
            status: self.status,
            summary: self.summary,
        })
    }
}

fn positive_or_none<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = Option::<Value>::deserialize(d)?;
    Ok(v.and_then(|v| v.as_u64()).filter(|n| *n > 0))
}

/// Read a turn_end usage: all three fields as numbers, or absent.
pub fn parse_usage(v: Option<&Value>) -> Option<Usage> {
    let v = v?;
    let n = |k: &str| v.get(k).and_then(Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0).map(|x| x as u64);
    Some(Usage { input_tokens: n("input_tokens")?, output_tokens: n("output_tokens")?, total_tokens: n("total_tokens")? })
}

pub use crate::contract::cut_chars;

/// Read a delegations list: unreadable items are skipped with a log line,
/// titles and summaries are cut to their limits, the list to 50 entries.
pub fn parse_delegations(items: &[Value]) -> Vec<DelegationItem> {
    items
        .iter()
        .filter_map(|raw| match serde_json::from_value::<WireDelegation>(raw.clone()).map_err(|e| e.to_string()).and_then(WireDelegation::into_item) {
            Ok(mut it) => {
                it.title = cut_chars(it.title.lines().next().unwrap_or(""), DELEGATION_ITEM_TITLE);
                it.summary = it.summary.map(|s| cut_chars(&s, DELEGATION_ITEM_SUMMARY));
                if it.state == DelegationState::Running {
                    it.status = None;
                    it.summary = None;
                }
                Some(it)
            }
            Err(e) => {
                tracing::warn!(record = "frame_malformed", frame = "delegations", error = %e, "delegation item dropped");
                None
            }
        })
        .take(DELEGATION_LIST_ITEMS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hello_serializes_with_wire_names_and_debug_hides_key() {
        let f = ClientFrame::Hello {
            key: "sk-1".into(),
            chat_id: "yui-3f9a2c1d".into(),
            accepts: vec!["error".into()],
            vocabulary: WireVocabulary::from(&Vocabulary::default()),
            tools: None,
        };
        let v = serde_json::to_value(&f).unwrap();
        assert_eq!(v["type"], "hello");
        assert_eq!(v["accepts"], json!(["error"]));
        assert!(v.get("tools").is_none(), "tools absent when none are declared");
        assert!(!format!("{f:?}").contains("sk-1"));
    }

    #[test]
    fn render_and_usage_parse() {
        let f: ServerFrame = serde_json::from_value(json!({"type":"render","turn_id":"1","source":"hermes",
            "segments":[{"cues":[{"emotion_id":"happy"}],"speech":"All green."}]}))
        .unwrap();
        match f {
            ServerFrame::Render { segments, .. } => {
                assert_eq!(segments[0].cues[0].emotion_id.as_deref(), Some("happy"));
                assert_eq!(segments[0].speech, "All green.");
            }
            other => panic!("{other:?}"),
        }
        let u = json!({"input_tokens":1200,"output_tokens":80,"total_tokens":1280});
        assert_eq!(parse_usage(Some(&u)).unwrap().total_tokens, 1280);
        assert_eq!(parse_usage(Some(&json!({"input_tokens":1,"output_tokens":"x","total_tokens":2}))), None);
        assert!(serde_json::from_value::<ServerFrame>(json!({"type":"nope"})).is_err());
        for bad in [json!(0), json!(-5), json!(1.5), json!("big")] {
            let f: ServerFrame = serde_json::from_value(json!({"type":"ready","max_turn_bytes": bad})).unwrap();
            assert_eq!(f, ServerFrame::Ready { chat_id: None, max_turn_bytes: None });
        }
    }

    #[test]
    fn delegations_are_cut_to_limits() {
        let long = "x".repeat(500);
        let items: Vec<Value> =
            (0..60).map(|i| json!({"id": format!("d-{i}"), "title": long, "started_at": 1, "state": "running"})).chain([json!({"broken": true})]).collect();
        let out = parse_delegations(&items);
        assert_eq!(out.len(), DELEGATION_LIST_ITEMS);
        assert_eq!(out[0].title.chars().count(), DELEGATION_ITEM_TITLE);
        assert_eq!(cut_chars("héllo😀x", 6), "héllo😀");
    }
}
