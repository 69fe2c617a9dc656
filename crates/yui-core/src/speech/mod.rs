//! How replies become speech (issue "Voice", in progress): the sentence
//! splitter the request transports will feed, and the OpenAI-compatible TTS
//! client. Playback, the audio sink and voice input are not built yet.

pub mod split;
pub mod tts;
