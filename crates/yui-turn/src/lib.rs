//! The turn engine: one pure state machine for every transport.
//!
//! [`Engine`] takes user commands, [`crate::contract::Inbound`] events, tool
//! results and the time, and answers [`Effect`]s: UI events, outbound
//! messages, a turn to render and send, a tool to run, an outcome record to
//! save. It owns no socket, reads no clock (every call carries a [`Now`]) and
//! writes no file. The session driver (`yui_core::session`) carries the effects
//! out. The crate is Rust alone (no C, no native library): its tests run
//! with the C compiler hidden (`scripts/test.sh`).
//!
//! What it decides, for all three transports alike: which turns are
//! outstanding, running, queued or stopped; the per-turn wait (push's frame
//! wait, the request transports' stream liveness); which frames of stopped
//! turns are dropped; how each turn ended and what the previous-turn record
//! says.

#![deny(missing_docs)]

pub mod chat_map;
pub mod contract;
mod engine;
pub mod outcome;
mod recent;
pub mod voice;

pub use engine::{Begin, Effect, Effects, Engine, EngineConfig};
pub use recent::RecentSet;

use tokio::time::Instant;

/// The time of one call: tokio's clock for waits, the wall clock for records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Now {
    /// For deadlines.
    pub at: Instant,
    /// Epoch milliseconds, for outcome records.
    pub wall_ms: i64,
}

/// The silence token: a speech that is exactly this (trimmed) is not spoken.
pub const SILENT: &str = "[SILENT]";

/// The line the character speaks when a turn fails before any reply.
pub const FAILURE_LINE: &str = "Sorry, I couldn't get a reply through just now.";

/// The event name of a typed user turn, as the previous-turn line names it.
pub const USER_EVENT: &str = "user.text_submitted";

/// The event name of a spoken user turn (voice input), as the
/// previous-turn line names it.
pub const VOICE_EVENT: &str = "user.voice_submitted";

/// The event name of a turn the backend started on its own.
pub const BACKEND_EVENT: &str = "backend";

/// True when `speech` says something: not empty and not the bare `[SILENT]`.
pub fn speaks(speech: &str) -> bool {
    let t = speech.trim();
    !t.is_empty() && t != SILENT
}

#[cfg(test)]
mod tests;
