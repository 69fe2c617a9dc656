//! Why a file could not be imported as a character card.

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
