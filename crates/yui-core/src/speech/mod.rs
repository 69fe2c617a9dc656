//! How replies become speech (issue "Voice"): the sentence splitter the
//! request transports feed, the OpenAI-compatible TTS client, the pure
//! playback queue with its audio sink trait, the thinking filler lines, and
//! the speaker that synthesises and plays what the queue asks for.

pub mod filler;
pub mod playback;
pub mod speaker;
pub mod split;
pub mod tts;
pub mod voices;
