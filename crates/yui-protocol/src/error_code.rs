//! The code every problem the core reports carries: front-ends switch on it.

use serde::Serialize;

/// A stable code for every problem the core reports. Front-ends switch on this.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The backend could not be reached or the socket dropped.
    Network,
    /// The backend refused the key (push close 4401, HTTP 401/403).
    Auth,
    /// The backend did not answer hello with ready in time.
    HelloTimeout,
    /// A frame could not be read and was dropped.
    FrameMalformed,
    /// A frame passed its size limit and was dropped or never sent.
    FrameOversize,
    /// A turn got no frame within the frame wait.
    Stall,
    /// The backend reported the turn failed.
    TurnFailed,
    /// The settings are unusable (bad URL, unknown chat API).
    Settings,
    /// A file in the data directory could not be read or written.
    Storage,
    /// The chosen chat API has no transport in this build yet.
    Unsupported,
    /// The session is gone (its window closed or it was cancelled).
    Closed,
    /// The server no longer had the conversation; a fresh one started.
    ContextReset,
    /// Sound out or the microphone failed (no device, busy, no permission),
    /// or speech could not be made or heard.
    Audio,
    /// A message named a character that is not open (`@Name`); nothing was sent.
    UnknownCharacter,
}

/// An error and its sources as one line: each source's text once (a
/// source already quoted by the one above it is not repeated), whitespace
/// collapsed. For the connection errors of the probe and the voice clients.
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ").split_whitespace().collect::<Vec<_>>().join(" ")
}
