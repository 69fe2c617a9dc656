//! One sentence to speak, as the engine's voice planning hands it to the
//! speaker: the text, the cue's caption and the cue's tone tag. Plain data;
//! the TTS client (`yui_core::speech::tts`) sends it.

/// The provider's tone tag for one sentence (a cue's `emotion_text`).
///
/// No OpenAI-compatible server documents a field for it, so both modes are
/// sent the same way, as a bracketed prefix of `input` (`"[whisper] text"`),
/// the audio-tag convention expressive TTS models read. The two variants
/// keep apart where the tag came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tone {
    /// Free mode: whatever the model wrote as its emotion text.
    Free(String),
    /// Enum mode: one tag of the provider's fixed list.
    Tag(String),
}

impl Tone {
    /// The tag text, trimmed, with brackets and line breaks taken out so it
    /// cannot end the prefix early; `None` when nothing is left.
    fn tag(&self) -> Option<String> {
        let raw = match self {
            Tone::Free(s) | Tone::Tag(s) => s,
        };
        let clean: String = raw.chars().map(|c| if c.is_control() { ' ' } else { c }).filter(|c| !matches!(c, '[' | ']')).collect();
        let clean = clean.split_whitespace().collect::<Vec<_>>().join(" ");
        (!clean.is_empty()).then_some(clean)
    }
}

/// One sentence to speak.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpeechRequest {
    /// What is said, and what the bubble shows.
    pub text: String,
    /// The cue's caption, sent as `instructions`; the field is left out when
    /// `None` (or blank). Never shown.
    pub caption: Option<String>,
    /// The cue's tone tag, a bracketed prefix of `input`. Never shown.
    pub tone: Option<Tone>,
}

impl SpeechRequest {
    /// A sentence with no caption and no tone.
    pub fn new(text: impl Into<String>) -> Self {
        Self { text: text.into(), caption: None, tone: None }
    }

    /// The `input` field: the tone's `[tag] ` prefix, then the text.
    pub fn input(&self) -> String {
        match self.tone.as_ref().and_then(Tone::tag) {
            Some(tag) => format!("[{tag}] {}", self.text),
            None => self.text.clone(),
        }
    }
}
