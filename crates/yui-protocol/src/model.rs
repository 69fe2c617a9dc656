//! The core's own model types: what a reply, a cue, a usage readout, a
//! delegation and the renderable vocabulary are, owned by neither a wire
//! format nor the UI. Each transport maps its wire shapes onto these; the UI
//! events carry them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One expression cue: the `generate_express` argument object. All fields optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Cue {
    /// Facial expression id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub emotion_id: Option<String>,
    /// Body motion id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub motion_id: Option<String>,
    /// Voice tone tag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub emotion_text: Option<String>,
    /// Voice direction in natural language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub caption: Option<String>,
}

/// Token usage of a turn's last LLM call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Usage {
    /// Input tokens.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub input_tokens: u64,
    /// Output tokens.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub output_tokens: u64,
    /// Total tokens; shown beside the context window size.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub total_tokens: u64,
}

impl Usage {
    /// A readout from a server's figures: its total when it sent one, else
    /// input plus output (saturating on hostile values).
    pub fn from_parts(input_tokens: u64, output_tokens: u64, total_tokens: Option<u64>) -> Usage {
        Usage { input_tokens, output_tokens, total_tokens: total_tokens.unwrap_or_else(|| input_tokens.saturating_add(output_tokens)) }
    }
}

/// State of a backend tool call, as tool_status frames carry it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ToolState {
    /// The call started.
    Running,
    /// The call returned.
    Done,
    /// The call failed.
    Failed,
}

/// State of one delegation item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DelegationState {
    /// A background worker is on it.
    Running,
    /// Finished; see `status`.
    Done,
}

/// One entry of the backend's delegations list, cut to the push protocol's
/// limits (`docs/push-protocol.md`, "Delegations").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DelegationItem {
    /// Stable per delegation.
    pub id: String,
    /// First line of the task, at most 120 code points.
    pub title: String,
    /// Epoch milliseconds.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub started_at: u64,
    /// Running or done.
    pub state: DelegationState,
    /// Epoch milliseconds, on a done item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub ended_at: Option<u64>,
    /// "ok", "error" or "unknown", on a done item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub status: Option<String>,
    /// The worker's final answer, at most 2,000 code points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub summary: Option<String>,
}

/// What the client renders right now; sent in hello and again when it changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Vocabulary {
    /// Expression ids the character has.
    pub emotion_ids: Vec<String>,
    /// Motion ids the character can play.
    pub motion_ids: Vec<String>,
    /// `"free"` or `"enum"`.
    pub emotion_text_mode: String,
    /// The tag table used in enum mode.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, string>"))]
    pub emotion_text_map: serde_json::Map<String, Value>,
}

impl Default for Vocabulary {
    /// The default character's set, from `configs/vocabulary.json`.
    fn default() -> Self {
        serde_json::from_str(include_str!("../../../configs/vocabulary.json")).expect("configs/vocabulary.json is a valid vocabulary")
    }
}

/// One piece of a reply: its cues play first, then its speech.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Segment {
    /// Cues to play before the speech.
    pub cues: Vec<Cue>,
    /// The text to speak and show; empty or `[SILENT]` speaks nothing.
    pub speech: String,
}
