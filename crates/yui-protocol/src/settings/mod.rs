//! The settings the crates below the core read: a key that is never shown
//! ([`Secret`]) and the voice settings ([`VoiceSettings`]). The rest of the
//! settings, and their file, are `yui_core::settings`'s, which re-exports
//! these.

mod secret;
mod voice;

pub use secret::Secret;
pub use voice::VoiceSettings;
