//! The engine's own voice planning, free of audio I/O and of the engine
//! itself: the playback queue ([`playback`]) with its audio sink port
//! ([`audio_sink`]), the thinking fillers and failure lines ([`filler`]), the
//! streaming sentence splitter ([`split`]) and the sentence to speak
//! ([`request`]). The engine's methods that turn its answers into effects
//! are `engine/speaking.rs`; the speaker, the TTS client and the audio
//! devices (`yui-voice`) carry out what it plans.

pub mod audio_sink;
pub mod filler;
pub mod playback;
pub mod request;
pub mod split;
