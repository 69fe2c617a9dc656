//! How she speaks and listens: the voice settings of one character, which
//! the voice crate (`yui-voice`) reads and the settings window edits.

use super::Secret;
use serde::{Deserialize, Serialize};

/// How she speaks and listens (`docs/voice.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct VoiceSettings {
    /// Speak replies aloud (default on). Off: the bubble paces at reading
    /// speed and nothing plays.
    pub enabled: bool,
    /// An OpenAI-compatible TTS server (`<base>/v1/audio/speech`); empty
    /// uses the system voice.
    pub tts_base_url: String,
    /// The TTS server's key; empty sends none. Never logged.
    pub tts_key: Secret,
    /// The TTS `model` field.
    pub tts_model: String,
    /// The TTS `voice` field.
    pub tts_voice: String,
    /// Speech requests running at once (1 to 8, default 2); playback stays
    /// in order whatever the number.
    pub tts_in_flight: u32,
    /// Speaking speed in percent (100 is normal; 25 to 400).
    pub speed_percent: u32,
    /// With no TTS server, speak with the system voice (espeak-ng or
    /// speech-dispatcher on Linux, `say` on macOS, SAPI on Windows);
    /// off: reading speed, no sound.
    pub system_voice: bool,
    /// The system voice's name (espeak-ng `-v`); empty: its default.
    pub system_voice_name: String,
    /// The sound output device by name; empty: the default.
    pub output_device: String,
    /// Listen to the microphone (the mic toggle).
    pub mic_enabled: bool,
    /// The microphone by name; empty: the default.
    pub mic_device: String,
    /// How readily speech is detected, 0 to 100 (default 50).
    pub vad_sensitivity: u32,
    /// An OpenAI-compatible speech-to-text server
    /// (`<base>/v1/audio/transcriptions`); empty: voice input is off.
    pub stt_base_url: String,
    /// The STT server's key; empty sends none. Never logged.
    pub stt_key: Secret,
    /// The STT `model` field.
    pub stt_model: String,
    /// The spoken language hint (`en`, `ja`); empty lets the server detect.
    pub stt_language: String,
    /// Say thinking fillers while a reply is slow (default on).
    pub filler: bool,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            tts_base_url: String::new(),
            tts_key: Secret::default(),
            tts_model: "tts-1".into(),
            tts_voice: "alloy".into(),
            tts_in_flight: yui_engine::limits::TTS_REQUESTS_IN_FLIGHT as u32,
            speed_percent: 100,
            system_voice: true,
            system_voice_name: String::new(),
            output_device: String::new(),
            mic_enabled: false,
            mic_device: String::new(),
            vad_sensitivity: 50,
            stt_base_url: String::new(),
            stt_key: Secret::default(),
            stt_model: "whisper-1".into(),
            stt_language: String::new(),
            filler: true,
        }
    }
}
