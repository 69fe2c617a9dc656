//! How replies become speech (issue "Voice", in progress): the sentence
//! splitter the request transports will feed, and the OpenAI-compatible TTS
//! client, and the pure playback queue with its audio sink trait
//! ([`playback`], not wired into the engine or the driver yet), the decoder
//! of TTS audio ([`decode`]), the cpal audio sink ([`audio`]) and the
//! system voice ([`system_voice`]). Voice input is not built yet.

pub mod audio;
pub mod decode;
pub mod playback;
pub mod split;
pub mod system_voice;
pub mod tts;
