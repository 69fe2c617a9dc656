//! The voice's I/O: the OpenAI-compatible TTS client ([`tts`]), the speaker
//! that synthesises and plays what the engine's playback queue asks for
//! ([`speaker`]), the decoder of TTS audio ([`decode`]), the cpal audio sink
//! ([`audio`]), the system voice ([`system_voice`]), and voice input: the
//! microphone ([`listen`]), voice activity ([`vad`]), speech to text
//! ([`stt`]) and the hearing loop ([`hearing`]).
//!
//! What to say and when (the playback queue, the fillers, the sentence
//! splitter, the audio sink port) is the engine's voice planning,
//! `crate::turn::voice`; this module may import it, never the other way.

pub mod audio;
pub mod decode;
pub mod hearing;
mod http;
pub mod listen;
pub mod speaker;
pub mod stt;
pub mod system_voice;
pub mod tts;
pub mod vad;
pub mod voices;

/// The engine's voice planning lives beside the turn engine
/// (`crate::turn::voice`); these keep its old paths under `speech`.
pub use crate::turn::voice::{audio_sink, filler, playback, split};
