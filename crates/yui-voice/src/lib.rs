//! # yui-voice — the voice's I/O
//!
//! The OpenAI-compatible TTS client ([`tts`]), the speaker that synthesises
//! and plays what the engine's playback queue asks for ([`speaker`]), the
//! decoder of TTS audio ([`decode`]), the cpal audio sink ([`audio`]), the
//! system voice ([`system_voice`]) and the choice between them
//! ([`voices`]); voice input: the microphone ([`listen`]), voice activity
//! ([`vad`]) and speech to text ([`stt`]).
//!
//! What to say and when (the playback queue, the fillers, the sentence
//! splitter, the audio sink port) is the turn engine's voice planning,
//! `yui_turn::voice`; this crate carries it out and never decides it. The
//! hearing loop that turns heard speech into a user command is the core's
//! (`yui_core::speech::hearing`), which re-exports this crate's modules
//! under `yui_core::speech`. `docs/voice.md` has the whole picture.
#![deny(missing_docs)]

pub mod audio;
pub mod decode;
mod http;
pub mod listen;
pub mod speaker;
pub mod stt;
pub mod system_voice;
pub mod tts;
pub mod vad;
pub mod voices;
