//! How replies become speech and how she hears the user (issue "Voice"):
//! the sentence splitter the request transports feed, the OpenAI-compatible
//! TTS client, the pure playback queue with its audio sink trait, the
//! thinking filler lines, the speaker that synthesises and plays what the
//! queue asks for, the decoder of TTS audio ([`decode`]), the cpal audio sink
//! ([`audio`]), the system voice ([`system_voice`]), and voice input: the
//! microphone ([`listen`]), voice activity ([`vad`]) and speech to text
//! ([`stt`]).

pub mod audio;
pub mod audio_sink;
pub mod decode;
pub mod filler;
pub mod hearing;
mod http;
pub mod listen;
pub mod playback;
pub mod speaker;
pub mod split;
pub mod stt;
pub mod system_voice;
pub mod tts;
pub mod vad;
pub mod voices;
