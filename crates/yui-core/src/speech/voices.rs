//! The [`Voice`]s a speaker can use, and the choice between them.
//!
//! * [`ReadingVoice`]: the voice is off. Each sentence is silence as long as
//!   reading it takes, so the bubble paces at reading speed and playback
//!   boundaries and records still work.

use super::playback::{Sound, TimerSink};
use super::speaker::{SoundFuture, Speaker, Voice};
use super::tts::SpeechRequest;
use crate::limits::{READING_CHARS_PER_SECOND, READING_MIN};
use crate::settings::VoiceSettings;
use std::sync::Arc;
use std::time::Duration;

/// The mouth level, 0 to 1, at the frame rate while sound plays (the
/// app streams it to the pet page over a channel).
pub type LipFn = Arc<dyn Fn(f32) + Send + Sync>;

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

/// The speaker a session starts with: the voice the settings choose (voice
/// off: reading time; a TTS server; else the system voice when on and
/// available; else reading time) and the sink `output` names. Also returns
/// a line for the user when the choice fell back (no sound device).
pub fn speaker_for(voice: &VoiceSettings, output: AudioOutput, lips: Option<LipFn>) -> (Speaker, Option<String>) {
    let _ = lips;
    let chosen: Arc<dyn Voice> = if output == AudioOutput::None { Arc::new(InstantVoice) } else { Arc::new(ReadingVoice) };
    let _ = voice;
    let (sink, rx) = TimerSink::new();
    (Speaker::new(chosen, Box::new(sink), rx, crate::limits::TTS_REQUESTS_IN_FLIGHT), None)
}

/// How long reading `text` takes: [`READING_CHARS_PER_SECOND`] characters
/// a second (a CJK character counts twice), at least [`READING_MIN`].
pub fn reading_time(text: &str) -> Duration {
    let weight: u64 = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if is_wide(c) { 2 } else { 1 })
        .sum();
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_time_grows_with_the_text_and_counts_cjk_twice() {
        assert_eq!(reading_time("Hi."), READING_MIN);
        let long = "word ".repeat(30);
        assert_eq!(reading_time(&long), Duration::from_millis(120 * 1000 / READING_CHARS_PER_SECOND));
        assert_eq!(reading_time(&"あ".repeat(30)), Duration::from_millis(60 * 1000 / READING_CHARS_PER_SECOND));
    }
}
