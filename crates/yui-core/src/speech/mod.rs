//! The voice, as the session uses it: the voice's I/O is the crate
//! `yui-voice` (the TTS and STT clients, the speaker, the decoder, the
//! audio sink, the system voice, the microphone and voice activity),
//! re-exported here at the paths it always had; the hearing loop that
//! turns heard speech into a user command and tells the windows is this
//! crate's own ([`hearing`]: it sends commands and emits events).
//!
//! What to say and when (the playback queue, the fillers, the sentence
//! splitter, the audio sink port) is the turn engine's voice planning,
//! `yui_turn::voice`.

pub mod hearing;

pub use yui_voice::{audio, decode, listen, speaker, stt, system_voice, tts, vad, voices};

/// The engine's voice planning lives beside the turn engine
/// (`yui_turn::voice`); these keep its old paths under `speech`.
pub use crate::turn::voice::{audio_sink, filler, playback, split};
