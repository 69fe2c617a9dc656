//! What the two request transports (Responses, Chat Completions) start from.

use crate::model::Vocabulary;
use serde_json::Value;
use std::path::PathBuf;

/// The most round trips one turn makes (`docs/client-tools.md`, "The tools"):
/// past that, the turn ends with what it has.
pub const MAX_ROUND_TRIPS: usize = 3;

pub use crate::contract::{GENERIC_FAILURE, REQUEST_IMAGE_BYTES};

pub use crate::contract::{from_data_url, prefit, urls};

/// Everything a request transport needs for a session.
#[derive(Clone)]
pub struct RequestConfig {
    /// The base URL as the user typed it; see [`super::endpoint`].
    pub base_url: String,
    /// The API key, sent as `Authorization: Bearer`; empty sends none. Never logged.
    pub key: crate::settings::Secret,
    /// The model name.
    pub model: String,
    /// `reasoning` effort (`low`, `medium`, `high`, …); `None` sends none.
    pub reasoning_effort: Option<String>,
    /// Responses `instructions`, and the first system message on Chat
    /// Completions: the assembled card, or `chat_instructions` alone when the
    /// card is off.
    pub instructions: String,
    /// The card's post-history instructions, macros substituted; `None` when
    /// the card has none or is off.
    pub post_history: Option<String>,
    /// The client tools that run, besides `generate_express`, in the
    /// Chat Completions function-tool shape (`{type, function: {…}}`).
    pub tools: Vec<Value>,
    /// The renderable vocabulary (the `generate_express` enums).
    pub vocabulary: Vocabulary,
    /// The model's context window in tokens (the Chat Completions trim budget).
    pub context_window: u32,
    /// Where the Chat Completions transcript of this character lives.
    pub transcript_path: PathBuf,
}

/// Short on purpose: the card and the tool list would fill a log line; the
/// key is a [`crate::settings::Secret`] and shows only whether it is set.
impl std::fmt::Debug for RequestConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestConfig")
            .field("base_url", &self.base_url)
            .field("key", &self.key)
            .field("model", &self.model)
            .field("reasoning_effort", &self.reasoning_effort)
            .field("context_window", &self.context_window)
            .finish_non_exhaustive()
    }
}
