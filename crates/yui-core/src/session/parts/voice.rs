//! The voice part: the speaker that makes and plays her sentences, the
//! voice settings it was made from, and where it plays.

use crate::settings::{LiveSettings, VoiceSettings};
use crate::speech::speaker::{Report, Speaker};
use crate::speech::tts::SpeechRequest;
use crate::speech::voices::{AudioOutput, LipFn};

/// Her voice: the speaker, the settings it was made from (a change takes
/// effect at the next sentence she says after a quiet moment), and the
/// output it plays on with whoever hears the mouth level.
pub(in crate::session) struct Voice {
    speaker: Speaker,
    settings: VoiceSettings,
    output: AudioOutput,
    lips: Option<LipFn>,
}

impl Voice {
    /// A voice from a speaker made of `settings`, playing on `output`.
    pub fn new(speaker: Speaker, settings: VoiceSettings, output: AudioOutput, lips: Option<LipFn>) -> Self {
        Voice { speaker, settings, output, lips }
    }

    /// The speaker's next report (a sentence made, played, or failed).
    pub async fn next(&mut self) -> Report {
        self.speaker.next().await
    }

    /// Make the sentence `item_id`.
    pub fn synth(&mut self, item_id: u64, request: SpeechRequest) {
        self.speaker.synth(item_id, request)
    }

    /// Play the sentence `item_id`; a report when it answers at once.
    pub fn play(&mut self, item_id: u64) -> Option<Report> {
        self.speaker.play(item_id)
    }

    /// Stop playing and making.
    pub fn halt(&mut self) {
        self.speaker.halt()
    }

    /// Rebuild the speaker when the live voice settings differ from the
    /// ones it was made from. The notice, when the new voice fell back.
    pub fn follow(&mut self, live: &LiveSettings) -> Option<crate::speech::voices::NoSound> {
        // Compared in place: a clone only when the settings did change.
        let now = live.read(|s| (s.character.voice != self.settings).then(|| s.character.voice.clone()))?;
        let (speaker, notice) = crate::speech::voices::speaker_for(&now, self.output, self.lips.clone());
        tracing::info!(record = "voice_changed", voice = speaker.voice_name());
        self.speaker = speaker;
        self.settings = now;
        notice
    }
}
