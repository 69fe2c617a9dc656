//! How replies become speech (issue "Voice", in progress): the sentence
//! splitter the request transports will feed, and the OpenAI-compatible TTS
//! client, and the pure playback queue with its audio sink trait
//! ([`playback`], not wired into the engine or the driver yet). The cpal sink
//! is not built yet.
//!
//! And how the user's speech becomes a turn (not wired yet either): the
//! microphone ([`listen`]), the voice activity segmenter that cuts its audio
//! into utterances and spots barge-in ([`vad`]), and the OpenAI-compatible
//! transcription client ([`stt`]).

pub mod listen;
pub mod playback;
pub mod split;
pub mod stt;
pub mod tts;
pub mod vad;
