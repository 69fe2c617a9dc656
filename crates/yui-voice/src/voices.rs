//! The [`Voice`]s a speaker can use, and the choice between them.
//!
//! * [`TtsSpeech`]: an OpenAI-compatible `/v1/audio/speech` server, its
//!   answer decoded off the loop.
//! * [`SystemSpeech`]: the system voice (espeak-ng, `say`, SAPI) when no TTS
//!   server is set: works out of the box.
//! * [`ReadingVoice`]: the voice is off. Each sentence is silence as long as
//!   reading it takes, so the bubble paces at reading speed and playback
//!   boundaries and records still work.
//! * [`InstantVoice`]: no voice and no time ([`AudioOutput::None`]).

use super::speaker::{SoundFuture, Speaker, Voice, VoiceError};
use super::tts::SpeechRequest;
use std::sync::Arc;
use std::time::Duration;
use yui_engine::limits::{READING_CHARS_PER_SECOND, READING_MIN};
use yui_protocol::settings::VoiceSettings;
use yui_turn::voice::playback::{Sound, TimerSink};

use super::audio::CpalSink;
pub use super::audio::LipFn;
use super::decode::decode;
use super::system_voice::{self, SystemVoice};
use super::tts::{self, TtsConfig};

/// Where a session's sound goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AudioOutput {
    /// No voice at all: nothing is synthesised and every sentence plays for
    /// no time (tests and tools that only read the events).
    #[default]
    None,
    /// Nowhere: real timing from each sentence's decoded length, no sound
    /// (`audio=null`).
    Null,
    /// The sound device the settings name (the default one when empty).
    Device,
}

impl std::str::FromStr for AudioOutput {
    type Err = String;

    /// `device`, `null` or `none` (any case, trimmed).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "device" => Ok(AudioOutput::Device),
            "null" => Ok(AudioOutput::Null),
            "none" => Ok(AudioOutput::None),
            other => Err(format!("audio takes device, null or none, not {other:?}")),
        }
    }
}

/// The sound device could not be opened: speech shows at its real pace,
/// silent. What the user is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSound {
    /// Why, as the audio layer said it.
    pub detail: String,
}

impl NoSound {
    /// The line for the user, in English.
    pub fn message(&self) -> String {
        format!("No sound: {}. Speech shows at its real pace.", self.detail)
    }
}

/// The speaker a session starts with: the voice the settings choose (voice
/// off: reading time; a TTS server; else the system voice when on and
/// available; else reading time) and the sink `output` names. Also returns
/// what to tell the user when the choice fell back (no sound device).
pub fn speaker_for(voice: &VoiceSettings, output: AudioOutput, lips: Option<LipFn>) -> (Speaker, Option<NoSound>) {
    let in_flight = voice.tts_in_flight.clamp(1, 8) as usize;
    let chosen = choose_voice(voice, output);
    tracing::info!(record = "voice_chosen", voice = chosen.name(), output = ?output);
    if output == AudioOutput::Device && chosen.name() != "reading" {
        let device = Some(voice.output_device.trim()).filter(|d| !d.is_empty());
        match CpalSink::open(device, lips) {
            Ok((sink, rx)) => return (Speaker::new(chosen, Box::new(sink), rx, in_flight), None),
            Err(e) => {
                tracing::warn!(record = "audio_device_failed", error = %e, "speech plays silent at its real length");
                let (sink, rx) = TimerSink::new();
                return (Speaker::new(chosen, Box::new(sink), rx, in_flight), Some(NoSound { detail: e.to_string() }));
            }
        }
    }
    let (sink, rx) = TimerSink::new();
    (Speaker::new(chosen, Box::new(sink), rx, in_flight), None)
}

/// The voice the settings choose for `output` (see [`speaker_for`]).
pub fn choose_voice(voice: &VoiceSettings, output: AudioOutput) -> Arc<dyn Voice> {
    if output == AudioOutput::None {
        return Arc::new(InstantVoice);
    }
    if !voice.enabled {
        return Arc::new(ReadingVoice);
    }
    let speed = voice.speed_percent.clamp(25, 400) as f32 / 100.0;
    if !voice.tts_base_url.trim().is_empty() {
        let cfg = TtsConfig {
            base_url: voice.tts_base_url.trim().to_string(),
            key: voice.tts_key.expose().trim().into(),
            model: voice.tts_model.trim().to_string(),
            voice: voice.tts_voice.trim().to_string(),
            speed,
            ..TtsConfig::default()
        };
        return Arc::new(TtsSpeech { client: tts::client(), cfg });
    }
    if voice.system_voice && system_voice::available() {
        let name = Some(voice.system_voice_name.trim().to_string()).filter(|n| !n.is_empty());
        return Arc::new(SystemSpeech { opts: SystemVoice { voice: name, speed } });
    }
    if voice.system_voice {
        tracing::warn!(record = "system_voice_missing", program = system_voice::program(), "no system voice: the bubble paces at reading speed");
    }
    Arc::new(ReadingVoice)
}

/// Decode audio bytes off the async threads.
async fn decoded(bytes: Vec<u8>, mime: String) -> Result<Sound, VoiceError> {
    Ok(tokio::task::spawn_blocking(move || decode(&bytes, &mime)).await.map_err(|e| VoiceError::Gone(e.to_string()))??)
}

/// An OpenAI-compatible TTS server.
pub struct TtsSpeech {
    client: reqwest::Client,
    cfg: TtsConfig,
}

impl Voice for TtsSpeech {
    fn speak(&self, request: SpeechRequest) -> SoundFuture {
        let (client, cfg) = (self.client.clone(), self.cfg.clone());
        Box::pin(async move {
            let synth = tts::synth(&client, &cfg, &request).await?;
            decoded(synth.bytes, synth.mime).await
        })
    }

    fn name(&self) -> &'static str {
        "tts"
    }
}

/// The system voice. It takes no caption or tone.
pub struct SystemSpeech {
    opts: SystemVoice,
}

impl Voice for SystemSpeech {
    fn speak(&self, request: SpeechRequest) -> SoundFuture {
        let opts = self.opts.clone();
        Box::pin(async move {
            let wav = system_voice::speak_wav(&request.text, &opts).await?;
            decoded(wav, "audio/wav".into()).await
        })
    }

    fn name(&self) -> &'static str {
        "system"
    }
}

/// How long reading `text` takes: [`READING_CHARS_PER_SECOND`] characters
/// a second (a CJK character counts twice), at least [`READING_MIN`].
pub fn reading_time(text: &str) -> Duration {
    let weight: u64 = text.chars().filter(|c| !c.is_whitespace()).map(|c| if is_wide(c) { 2 } else { 1 }).sum();
    let ms = weight * 1000 / READING_CHARS_PER_SECOND;
    READING_MIN.max(Duration::from_millis(ms))
}

fn is_wide(c: char) -> bool {
    matches!(c as u32, 0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFF00..=0xFF60 | 0x20000..=0x3FFFD)
}

/// The voice switched off: reading time, no sound.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadingVoice;

impl Voice for ReadingVoice {
    fn speak(&self, request: SpeechRequest) -> SoundFuture {
        let len = reading_time(&request.text);
        Box::pin(async move { Ok(Sound::Timed(len)) })
    }

    fn name(&self) -> &'static str {
        "reading"
    }

    fn ready(&self, request: &SpeechRequest) -> Option<Sound> {
        Some(Sound::Timed(reading_time(&request.text)))
    }
}

/// No voice and no time: every sentence is a sound of no length
/// ([`AudioOutput::None`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct InstantVoice;

impl Voice for InstantVoice {
    fn speak(&self, _request: SpeechRequest) -> SoundFuture {
        Box::pin(async { Ok(Sound::Timed(Duration::ZERO)) })
    }

    fn name(&self) -> &'static str {
        "instant"
    }

    fn ready(&self, _request: &SpeechRequest) -> Option<Sound> {
        Some(Sound::Timed(Duration::ZERO))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The speaker with the voices of this file (it lives in speaker.rs's
    // tests' stead: the speaker names no voice).
    mod with_the_speaker {
        use super::super::*;
        use crate::speaker::Report;
        use crate::tts::SpeechRequest;
        use yui_turn::voice::playback::{SinkEvent, TimerSink};

        #[tokio::test(start_paused = true)]
        async fn a_ready_sentence_starts_in_the_call_that_plays_it() {
            let (sink, rx) = TimerSink::new();
            let mut s = Speaker::new(Arc::new(ReadingVoice), Box::new(sink), rx, 1);
            let t0 = tokio::time::Instant::now();
            s.synth(1, SpeechRequest::new("Three logs are left."));
            // No task, no await: the report is the answer to play.
            assert_eq!(s.play(1), Some(Report::Sink(SinkEvent::Started(1))));
            assert_eq!(s.next().await, Report::Sink(SinkEvent::Finished(1)), "Started is not sent again");
            assert_eq!(t0.elapsed(), reading_time("Three logs are left."));

            let (sink, rx) = TimerSink::new();
            let mut s = Speaker::new(Arc::new(InstantVoice), Box::new(sink), rx, 1);
            s.synth(2, SpeechRequest::new("Now."));
            assert_eq!(s.play(2), Some(Report::Sink(SinkEvent::Started(2))));
            assert_eq!(s.next().await, Report::Sink(SinkEvent::Finished(2)));
            assert_eq!(t0.elapsed(), reading_time("Three logs are left."), "no time at all");
        }
    }

    #[test]
    fn audio_outputs_read_from_their_names() {
        assert_eq!("NULL".parse(), Ok(AudioOutput::Null));
        assert_eq!(" none".parse(), Ok(AudioOutput::None));
        assert_eq!("device".parse(), Ok(AudioOutput::Device));
        assert!("speakers".parse::<AudioOutput>().is_err());
    }

    #[test]
    fn reading_time_grows_with_the_text_and_counts_cjk_twice() {
        assert_eq!(reading_time("Hi."), READING_MIN);
        let long = "word ".repeat(30);
        assert_eq!(reading_time(&long), Duration::from_millis(120 * 1000 / READING_CHARS_PER_SECOND));
        assert_eq!(reading_time(&"あ".repeat(30)), Duration::from_millis(60 * 1000 / READING_CHARS_PER_SECOND));
    }
}
