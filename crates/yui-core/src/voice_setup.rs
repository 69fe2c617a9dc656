//! The welcome's voice step (`docs/welcome.md`): the speech servers running
//! on this computer, found as [`crate::discover`] finds model servers, and a
//! voice tried before it is kept: one sentence made, decoded and played.
//!
//! A speech server is one that speaks OpenAI's `POST /v1/audio/speech`. It
//! is told by what it answers on the usual ports ([`VOICE_PORTS`]), each
//! request waiting at most [`DISCOVER_REQUEST_WAIT`]:
//! - `GET /v1/audio/voices` with a list of voices: Kokoro-FastAPI (its
//!   voices listed to pick from, in either of the shapes its versions
//!   answer: [`voice_names`]);
//! - else `GET /v1/models` naming a speech model (`tts-1`, `kokoro`,
//!   `piper`, …): openedai-speech, Speaches and the like.
//!
//! A model server on the same port (vLLM on 8000, llama.cpp on 8080) lists
//! no speech model and is left out.

use crate::discover::{get, merge_ports, model_names, Answer};
use crate::speech::speaker::VoiceError;
use crate::speech::tts::{SpeechRequest, TtsError};
use crate::speech::voices::{choose_voice, AudioOutput};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;
use ts_rs::TS;
pub use yui_engine::limits::DISCOVER_REQUEST_WAIT;
use yui_protocol::settings::VoiceSettings;

/// What kind of speech server answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum VoiceServerKind {
    /// Kokoro-FastAPI: lists its voices.
    KokoroFastapi,
    /// Speaks `/v1/audio/speech` and lists a speech model; nothing more known.
    OpenaiCompatible,
}

/// The loopback ports speech servers listen on by default: Kokoro-FastAPI
/// 8880; openedai-speech and Speaches 8000; LocalAI 8080.
pub const VOICE_PORTS: &[u16] = &[8880, 8000, 8080];

/// One speech server that answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FoundVoiceServer {
    /// `http://127.0.0.1:<port>` (the client adds `/v1/audio/speech`).
    pub base_url: String,
    /// What it is.
    pub kind: VoiceServerKind,
    /// Its speech models, as its list names them (may be empty).
    pub models: Vec<String>,
    /// Its voices, when it lists them (Kokoro-FastAPI).
    pub voices: Vec<String>,
}

/// What the welcome's voice step offers: the system voice when this
/// computer has one, and the speech servers found running.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct VoiceChoices {
    /// Whether a system voice can speak here (espeak-ng, speech-dispatcher,
    /// `say`, SAPI).
    pub system_voice: bool,
    /// The speech servers that answered on the usual ports.
    pub servers: Vec<FoundVoiceServer>,
}

/// What the welcome offers now (see [`discover_voices`]).
pub async fn voice_choices() -> VoiceChoices {
    let system_voice = tokio::task::spawn_blocking(crate::speech::system_voice::available).await.unwrap_or(false);
    VoiceChoices { system_voice, servers: discover_voices(&[]).await }
}

/// The voice picked on the welcome: a speech server (its address, key,
/// model and voice), or the system voice when `base_url` is empty. Its
/// `Debug` hides the key.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct VoicePick {
    /// The speech server's base URL; empty: the system voice.
    pub base_url: String,
    /// Its key (empty: none).
    pub key: String,
    /// Its `model` field (empty: the default).
    pub model: String,
    /// Its `voice` field (empty: the default).
    pub voice: String,
}

impl std::fmt::Debug for VoicePick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VoicePick")
            .field("base_url", &self.base_url)
            .field("key", &if self.key.is_empty() { "" } else { "<hidden>" })
            .field("model", &self.model)
            .field("voice", &self.voice)
            .finish()
    }
}

impl VoicePick {
    /// `voice` with this pick in it, the voice switched on. A server pick
    /// keeps an empty model or voice at what `voice` had.
    pub fn apply(&self, voice: &mut VoiceSettings) {
        voice.enabled = true;
        voice.tts_base_url = self.base_url.trim().to_string();
        if self.base_url.trim().is_empty() {
            voice.system_voice = true;
            return;
        }
        voice.tts_key = self.key.trim().into();
        if !self.model.trim().is_empty() {
            voice.tts_model = self.model.trim().to_string();
        }
        if !self.voice.trim().is_empty() {
            voice.tts_voice = self.voice.trim().to_string();
        }
    }
}

/// Whether model `id` reads as a speech model.
pub fn is_speech_model(id: &str) -> bool {
    let id = id.to_ascii_lowercase();
    ["tts", "kokoro", "piper", "xtts", "speech", "orpheus", "voice", "bark", "parler"].iter().any(|w| id.contains(w))
}

/// The voices of a `GET /v1/audio/voices` answer, in any of the shapes
/// servers give it: Kokoro-FastAPI's `{"voices": [...]}` (older) or a bare
/// array (newer), or an OpenAI-style `{"data": [...]}`; each voice a string
/// or an object with an `id` or `name`. `None` when it is no such list.
pub fn voice_names(answer: &Answer) -> Option<Vec<String>> {
    if answer.status != 200 {
        return None;
    }
    let json: Value = serde_json::from_str(&answer.body).ok()?;
    let list = match &json {
        Value::Array(list) => list,
        other => other.get("voices").or_else(|| other.get("data"))?.as_array()?,
    };
    Some(list.iter().filter_map(|v| v.as_str().or_else(|| v.get("id").or_else(|| v.get("name")).and_then(Value::as_str)).map(str::to_string)).collect())
}

/// The usual speech ports and `extra` ones, probed at once; the servers
/// that answered, in port order.
pub async fn discover_voices(extra: &[u16]) -> Vec<FoundVoiceServer> {
    discover_voice_ports(&merge_ports(VOICE_PORTS.iter().copied(), extra), DISCOVER_REQUEST_WAIT).await
}

/// Probe `ports` on 127.0.0.1 at once, each request waiting at most `wait`.
pub async fn discover_voice_ports(ports: &[u16], wait: Duration) -> Vec<FoundVoiceServer> {
    let probes = ports.iter().map(|port| probe_voice_server(format!("http://127.0.0.1:{port}"), wait));
    let found: Vec<FoundVoiceServer> = futures_util::future::join_all(probes).await.into_iter().flatten().collect();
    tracing::info!(record = "discover_voices", probed = ports.len(), found = found.len());
    found
}

/// Probe the speech server at `base` (see the module docs); `None` when
/// nothing there speaks.
pub async fn probe_voice_server(base: String, wait: Duration) -> Option<FoundVoiceServer> {
    let voices = get(&base, "/v1/audio/voices", wait).await;
    // Nothing listens: the first request already said so.
    let voices = match voices {
        None => return None,
        Some(answer) => voice_names(&answer),
    };
    let models: Vec<String> =
        get(&base, "/v1/models", wait).await.as_ref().and_then(model_names).unwrap_or_default().into_iter().filter(|m| is_speech_model(m)).collect();
    match voices {
        Some(voices) => Some(FoundVoiceServer { base_url: base, kind: VoiceServerKind::KokoroFastapi, models, voices }),
        None if !models.is_empty() => Some(FoundVoiceServer { base_url: base, kind: VoiceServerKind::OpenaiCompatible, models, voices: Vec::new() }),
        None => None,
    }
}

/// Why a voice could not be tried, as the welcome says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum VoiceProblem {
    /// Nothing answered at the speech server's address.
    Unreachable,
    /// The server refused the key (401 or 403).
    KeyRefused,
    /// The server answered, but not with speech for that model and voice
    /// (another status, or no audio).
    VoiceMissing,
    /// This computer has no system voice (espeak-ng, speech-dispatcher,
    /// `say`, SAPI).
    NoSystemVoice,
    /// The speech came but could not be decoded or played.
    NotPlayable,
}

/// What trying a voice showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct VoiceReport {
    /// `None` when the sentence was made; else why not.
    pub problem: Option<VoiceProblem>,
    /// What went wrong, in the server's or the program's words (empty when
    /// nothing did). Never the key.
    pub detail: String,
    /// How long the sentence plays, in milliseconds (0 when it was not made).
    pub sound_ms: u32,
}

/// The sentence a voice is tried with, in the UI language.
pub fn sample_line(language: &str) -> &'static str {
    match language {
        "ja" => "こんにちは。この声で話しますね。",
        "ko" => "안녕하세요. 이 목소리로 말할게요.",
        _ => "Hi! This is how I sound.",
    }
}

/// The problem a failed sentence shows.
pub fn voice_problem(error: &VoiceError) -> VoiceProblem {
    match error {
        VoiceError::Tts(TtsError::Connect { .. }) => VoiceProblem::Unreachable,
        VoiceError::Tts(TtsError::Http { status: 401 | 403, .. }) => VoiceProblem::KeyRefused,
        VoiceError::Tts(TtsError::Http { .. } | TtsError::NotAudio { .. } | TtsError::Invalid(_)) => VoiceProblem::VoiceMissing,
        VoiceError::Tts(_) => VoiceProblem::Unreachable,
        VoiceError::System(_) => VoiceProblem::NoSystemVoice,
        VoiceError::Decode(_) | VoiceError::Gone(_) => VoiceProblem::NotPlayable,
    }
}

/// Make the sample sentence in `language` with the voice `voice` describes
/// (on, a speech server or the system voice), and play it when `output` is
/// a device. The key is only sent, never logged or reported.
pub async fn try_voice(voice: &VoiceSettings, output: AudioOutput, language: &str) -> VoiceReport {
    let mut voice = voice.clone();
    voice.enabled = true;
    if voice.tts_base_url.trim().is_empty() && !crate::speech::system_voice::available() {
        return VoiceReport { problem: Some(VoiceProblem::NoSystemVoice), detail: crate::speech::system_voice::program().to_string(), sound_ms: 0 };
    }
    // No sound device (tests, `YUI_AUDIO=none`): made and decoded, not played.
    let making = if output == AudioOutput::None { AudioOutput::Null } else { output };
    let chosen = choose_voice(&voice, making);
    let sound = match chosen.speak(SpeechRequest::new(sample_line(language))).await {
        Ok(sound) => sound,
        Err(e) => {
            let problem = voice_problem(&e);
            tracing::info!(record = "voice_tried", voice = chosen.name(), ?problem);
            return VoiceReport { problem: Some(problem), detail: crate::error::error_chain(&e), sound_ms: 0 };
        }
    };
    let sound_ms = sound.duration().as_millis().min(u128::from(u32::MAX)) as u32;
    tracing::info!(record = "voice_tried", voice = chosen.name(), sound_ms);
    if output == AudioOutput::Device {
        if let Err(detail) = play(sound, voice.output_device.trim()).await {
            return VoiceReport { problem: Some(VoiceProblem::NotPlayable), detail, sound_ms };
        }
    }
    VoiceReport { problem: None, detail: String::new(), sound_ms }
}

/// Play `sound` on `device` (the default one when empty) to its end.
async fn play(sound: crate::speech::playback::Sound, device: &str) -> Result<(), String> {
    use crate::speech::playback::{AudioSink, SinkEvent};
    let length = sound.duration();
    let device = Some(device.to_string()).filter(|d| !d.is_empty());
    // Opening the device can wait up to AUDIO_OPEN_WAIT: off the async workers.
    let opened = tokio::task::spawn_blocking(move || crate::speech::audio::CpalSink::open(device.as_deref(), None)).await.map_err(|e| e.to_string())?;
    let (mut sink, mut events) = opened.map_err(|e| e.to_string())?;
    sink.play(1, sound);
    let finished = async {
        while let Some(event) = events.recv().await {
            if event == SinkEvent::Finished(1) {
                return;
            }
        }
    };
    // The device may never report the end (a stalled server): the sound's
    // own length and a margin bound the wait.
    let _ = tokio::time::timeout(length + Duration::from_secs(2), finished).await;
    Ok(())
}

#[cfg(test)]
#[path = "voice_setup_tests.rs"]
mod tests;
