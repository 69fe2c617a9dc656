//! What the two request transports (Responses, Chat Completions) start from.

use crate::model::Vocabulary;
use crate::picture::{FitError, Picture};
use serde_json::Value;
use std::path::PathBuf;

/// The most round trips one turn makes (`shared/spec/client-tools.md`):
/// past that, the turn ends with what it has.
pub const MAX_ROUND_TRIPS: usize = 3;

/// What the user is shown when a request fails and the table gives no
/// server text (401 and 403, an error event with no status,
/// `response.failed`, `response.incomplete`).
pub const GENERIC_FAILURE: &str = "The model server could not answer.";

pub use crate::limits::REQUEST_IMAGE_BYTES;

/// Fit `pictures` into the request budget and keep them as encoded
/// pictures, so building the request later only base64-encodes them. CPU
/// work: run it on a blocking thread.
pub fn prefit(pictures: &[Picture]) -> Result<Vec<Picture>, FitError> {
    let urls = crate::picture::fit(pictures, REQUEST_IMAGE_BYTES)?;
    Ok(urls.iter().filter_map(|u| from_data_url(u)).collect())
}

/// A `data:image/<subtype>;base64,<data>` URL back into an encoded picture.
pub fn from_data_url(url: &str) -> Option<Picture> {
    use base64::Engine;
    let rest = url.strip_prefix("data:image/")?;
    let (mime, data) = rest.split_once(";base64,")?;
    let bytes = base64::engine::general_purpose::STANDARD.decode(data).ok()?;
    Some(Picture::Encoded { mime: mime.to_string(), bytes: std::sync::Arc::new(bytes) })
}

/// The data URLs of a request's pictures, fitted into the request budget
/// (a pass-through for pictures [`prefit`] already fitted). Pictures that
/// cannot fit are left out with a log line.
pub fn urls(pictures: &[Picture]) -> Vec<String> {
    if pictures.is_empty() {
        return Vec::new();
    }
    crate::picture::fit(pictures, REQUEST_IMAGE_BYTES).unwrap_or_else(|e| {
        tracing::warn!(record = "images_not_sent", count = pictures.len(), error = %e, "the pictures do not fit the request");
        Vec::new()
    })
}

/// Everything a request transport needs for a session.
#[derive(Clone)]
pub struct RequestConfig {
    /// The base URL as the user typed it; see [`super::endpoint`].
    pub base_url: String,
    /// The API key, sent as `Authorization: Bearer`; empty sends none. Never logged.
    pub key: String,
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

impl std::fmt::Debug for RequestConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestConfig")
            .field("base_url", &self.base_url)
            .field("key", &if self.key.is_empty() { "" } else { "<redacted>" })
            .field("model", &self.model)
            .field("reasoning_effort", &self.reasoning_effort)
            .field("context_window", &self.context_window)
            .finish_non_exhaustive()
    }
}
