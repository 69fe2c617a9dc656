//! Builders for the exact JSON shapes OpenAI streams, shared by the demo's
//! endpoints and by `yui-mock` (which re-exports them as `yui_mock::openai`
//! for test authors).
//!
//! Every function returns a `serde_json::Value` equal to what the OpenAI API
//! sends for that event (the `async-openai` SDK types deserialize them; see
//! `tests/yui-mock/tests/it/drift.rs`). Responses events carry no
//! `sequence_number`: the sender numbers them in stream order.

pub mod chat;
pub mod responses;

/// Seconds since the Unix epoch (the `created` / `created_at` fields).
pub(crate) fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The `model` field the builders put in responses and chunks.
pub const MODEL: &str = "yui-demo";
