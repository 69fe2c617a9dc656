//! The turn engine: a pure state machine over commands, transport events and
//! time. See [`engine`].

/// The silence token: a speech that is exactly this (trimmed) is not spoken.
pub const SILENT: &str = "[SILENT]";
