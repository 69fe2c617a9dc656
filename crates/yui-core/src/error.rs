//! Errors with codes a front-end switches on, never strings to match.
//!
//! The bottom of the core's module order (`docs/architecture.md`): this
//! module names no other module of the crate, so every module may use it.
//! [`CardError`] lives here (re-exported as `card::CardError`) because
//! [`CoreError::Card`] carries it.

pub(crate) use yui_protocol::error_chain;

pub use yui_protocol::ErrorCode;

/// The one error type of the core. Each variant maps to an [`ErrorCode`].
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// A settings value is unusable.
    #[error("invalid setting {field}: {reason}")]
    Settings {
        /// Which setting.
        field: &'static str,
        /// Why it cannot be used.
        reason: String,
    },
    /// Reading or writing the data directory failed.
    #[error("storage error at {path}: {source}")]
    Storage {
        /// The file involved.
        path: std::path::PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A stored file held JSON that could not be read; the raw text is kept.
    #[error("could not parse {path}: {source}")]
    Parse {
        /// The file involved.
        path: std::path::PathBuf,
        /// The raw contents that failed to parse.
        raw: String,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
    /// The session's task has ended, so commands cannot reach it.
    #[error("the session has ended")]
    Closed,
    /// The chat API has no transport yet.
    #[error("chat_api {0} is not available in this build")]
    Unsupported(String),
    /// A character card could not be imported or stored.
    #[error(transparent)]
    Card(#[from] CardError),
}

impl CoreError {
    /// The code a front-end switches on.
    pub fn code(&self) -> ErrorCode {
        match self {
            CoreError::Settings { .. } => ErrorCode::Settings,
            CoreError::Storage { .. } | CoreError::Parse { .. } => ErrorCode::Storage,
            CoreError::Closed => ErrorCode::Closed,
            CoreError::Unsupported(_) => ErrorCode::Unsupported,
            CoreError::Card(CardError::Storage { .. }) => ErrorCode::Storage,
            CoreError::Card(_) => ErrorCode::Settings,
        }
    }
}

/// Why a file is not a usable character card. Each message is one line a
/// settings window can show as it is.
#[derive(Debug, thiserror::Error)]
pub enum CardError {
    /// The bytes are neither a PNG nor a JSON document.
    #[error("{file_name} is not a PNG or JSON character card")]
    NotACard {
        /// The name of the file as the user picked it.
        file_name: String,
    },
    /// The PNG is cut short or a chunk fails its checksum.
    #[error("the PNG is damaged at chunk {chunk}: {problem}")]
    DamagedPng {
        /// The chunk type (`IHDR`, `tEXt`, ...), or `#n` when even its type is missing.
        chunk: String,
        /// What is wrong with it.
        problem: &'static str,
    },
    /// The PNG is sound but has no `chara` or `ccv3` text chunk.
    #[error("the PNG holds no character data (no chara or ccv3 text chunk)")]
    NoCharacterData,
    /// The PNG's character chunk is not valid base64.
    #[error("the PNG's {keyword} chunk is not readable base64: {source}")]
    Base64 {
        /// The chunk keyword (`chara` or `ccv3`).
        keyword: String,
        /// The decoder's complaint.
        #[source]
        source: base64::DecodeError,
    },
    /// The character JSON could not be read; the raw text is kept.
    #[error("the character JSON is unreadable: {source}")]
    Json {
        /// The text that failed to parse (lossy UTF-8).
        raw: String,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
    /// The card has an empty or missing `name`.
    #[error("the character card has no name")]
    NoName,
    /// The card was read but could not be stored in the data directory.
    #[error("could not store the character card at {path}: {source}")]
    Storage {
        /// The file involved.
        path: std::path::PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
}

impl From<crate::keystore::KeyFileError> for CoreError {
    /// The key's file: a storage error, with its path.
    fn from(e: crate::keystore::KeyFileError) -> Self {
        CoreError::Storage { path: e.path, source: e.source }
    }
}
