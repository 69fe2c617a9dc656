//! The TTS client (being written).
