//! `generate_express` on the request transports: its declaration from the
//! renderable vocabulary, reading a call's arguments into a [`Cue`], and the
//! [`Segmenter`] that places each cue where its call arrives in the stream.
//!
//! Placement (`docs/transports.md`, "Where a cue goes"): a call
//! carries the cue for the text streamed before it, since the previous call.
//! When the call arrives, that text and the cue close one [`Segment`]: the
//! cue renders first, then the text is spoken, as a push render segment
//! plays. Text that no call follows closes a segment with no cue at the end
//! of the stream. A call with no text before it is a cue-only segment.

use crate::model::{Cue, Segment, Vocabulary};
use crate::turn::voice::split::Splitter;
use serde_json::{json, Map, Value};

/// The tool's name.
pub const NAME: &str = "generate_express";

/// The answer to a call that placed its cue.
pub const OK: &str = "ok";

/// The answer to a call with no arguments.
pub const EMPTY_CUE: &str = "error: empty cue";

/// True for `generate_express` and any prefixed name that ends in it
/// (`mcp_broker_generate_express`).
pub fn is_express(name: &str) -> bool {
    name.ends_with(NAME)
}

/// The declaration, in the Chat Completions function-tool shape
/// (`{type, function: {name, description, parameters}}`): `emotion_id` and
/// `motion_id` enums from `vocab`, `emotion_text` an enum of the tag table in
/// enum mode and free text in free mode, `caption` free text.
pub fn declaration(vocab: &Vocabulary) -> Value {
    let ids = |v: &[String]| -> Value {
        if v.is_empty() {
            json!({ "type": "string" })
        } else {
            json!({ "type": "string", "enum": v })
        }
    };
    let mut emotion_id = ids(&vocab.emotion_ids);
    emotion_id["description"] = json!("Facial expression");
    let mut motion_id = ids(&vocab.motion_ids);
    motion_id["description"] = json!("Body motion");
    let emotion_text = if vocab.emotion_text_mode == "enum" && !vocab.emotion_text_map.is_empty() {
        let tags: Vec<&String> = vocab.emotion_text_map.keys().collect();
        json!({ "type": "string", "enum": tags, "description": "Voice tone tag" })
    } else {
        json!({ "type": "string", "description": "Voice tone: a few words naming it" })
    };
    json!({
        "type": "function",
        "function": {
            "name": NAME,
            "description": "Place an expression cue (face, body motion, voice tone) on the text streamed just before this call. Spoken words go only in the streamed text.",
            "parameters": {
                "type": "object",
                "properties": {
                    "emotion_id": emotion_id,
                    "motion_id": motion_id,
                    "emotion_text": emotion_text,
                    "caption": { "type": "string", "description": "Voice direction in natural language" }
                },
                "additionalProperties": false
            }
        }
    })
}

/// Why a call's arguments make no cue. Its text is the call's answer to
/// the model, word for word.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CueError {
    /// `{}`, or only empty values ([`EMPTY_CUE`]).
    #[error("error: empty cue")]
    Empty,
    /// The text is not a JSON object.
    #[error("error: invalid field arguments")]
    NotAnObject,
    /// A known key with a value that is not a string.
    #[error("error: invalid field {0}")]
    InvalidField(&'static str),
}

/// Read a call's arguments (the JSON text the stream assembled) into a cue.
///
/// Errors ([`CueError`], whose text is the answer string): `error: empty
/// cue` for `{}` or only empty values; `error: invalid field arguments`
/// when the text is not a JSON object. Unknown keys are ignored; a
/// non-string value of a known key is `error: invalid field <name>`.
pub fn parse_cue(arguments: &str) -> Result<Cue, CueError> {
    let raw = if arguments.trim().is_empty() { "{}" } else { arguments };
    let map: Map<String, Value> = match serde_json::from_str(raw) {
        Ok(Value::Object(m)) => m,
        _ => return Err(CueError::NotAnObject),
    };
    let field = |name: &'static str| -> Result<Option<String>, CueError> {
        match map.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(CueError::InvalidField(name)),
        }
    };
    let cue = Cue { emotion_id: field("emotion_id")?, motion_id: field("motion_id")?, emotion_text: field("emotion_text")?, caption: field("caption")? };
    if cue == Cue::default() {
        return Err(CueError::Empty);
    }
    Ok(cue)
}

/// Places cues in streamed text (see the module doc), and cuts the text into
/// sentences as it streams ([`crate::turn::voice::split`]): each sentence that is
/// known complete comes out at once, as its own segment with no cue, so it
/// goes to TTS without waiting for the rest of the reply. A cue takes the
/// open text since the last sentence out: the sentence it follows.
#[derive(Debug, Default)]
pub struct Segmenter {
    split: Splitter,
    spoken: bool,
}

impl Segmenter {
    /// A segmenter for one response stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Append a text delta; returns the sentences it completed, one segment
    /// each, to report now.
    #[must_use = "completed sentences must be reported"]
    pub fn text(&mut self, delta: &str) -> Vec<Segment> {
        let done = self.split.push(delta);
        done.into_iter().map(|speech| self.spoke_segment(Vec::new(), speech)).collect()
    }

    /// A cue arrived: it closes the open text into one segment.
    pub fn cue(&mut self, cue: Cue) -> Segment {
        let speech = self.split.finish().unwrap_or_default();
        self.spoke_segment(vec![cue], speech)
    }

    /// The stream ended (or a tool round starts): the open text, if any.
    pub fn finish(&mut self) -> Option<Segment> {
        let speech = self.split.finish()?;
        Some(self.spoke_segment(Vec::new(), speech))
    }

    /// A stop or a stall ended the stream: the text still held (a sentence
    /// waiting for the character that proves it complete, or text a cue
    /// could still take), never to be spoken. `None` when nothing with
    /// content is held. The segmenter is empty afterwards.
    pub fn unsaid(&mut self) -> Option<String> {
        self.split.finish()
    }

    /// A stream error ended the stream: a held sentence known complete
    /// ([`Splitter::holds_sentence`]) is the last segment to speak, as the
    /// stream's end would have made it; an unfinished fragment is only
    /// unsaid (shown and recorded, never spoken).
    pub fn cut_short(&mut self) -> (Option<Segment>, Option<String>) {
        if self.split.holds_sentence() {
            (self.finish(), None)
        } else {
            (None, self.split.finish())
        }
    }

    /// True once a segment with speech was closed.
    pub fn spoke(&self) -> bool {
        self.spoken
    }

    /// Take the open text (a call began: the text before it is its own).
    pub fn take_text(&mut self) -> String {
        self.split.finish().unwrap_or_default()
    }

    /// Put taken text back in front of the open text (its call failed);
    /// returns the sentences that completes, to report now.
    #[must_use = "completed sentences must be reported"]
    pub fn put_back(&mut self, text: String) -> Vec<Segment> {
        let rest = self.split.finish().unwrap_or_default();
        let mut done = self.text(&text);
        done.extend(self.text(&rest));
        done
    }

    /// A cue for text taken earlier with [`Segmenter::take_text`]: one segment.
    pub fn cue_taken(&mut self, cue: Cue, speech: String) -> Segment {
        self.spoke_segment(vec![cue], speech)
    }

    fn spoke_segment(&mut self, cues: Vec<Cue>, speech: String) -> Segment {
        self.spoken |= speaks(&speech);
        Segment { cues, speech }
    }
}

fn speaks(s: &str) -> bool {
    let t = s.trim();
    !t.is_empty() && t != crate::turn::SILENT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cues_close_the_text_before_them() {
        let mut s = Segmenter::new();
        assert!(s.text("Hello ").is_empty());
        assert!(s.text("User!").is_empty(), "the end of a sentence waits for what follows");
        let happy = parse_cue(r#"{"emotion_id":"happy","motion_id":"dance","emotion_text":"🤭"}"#).unwrap();
        let seg = s.cue(happy.clone());
        assert_eq!(seg, Segment { cues: vec![happy], speech: "Hello User!".into() });
        assert!(s.text(" How was your day?").is_empty());
        assert_eq!(s.finish().unwrap().speech, " How was your day?");
        assert!(s.finish().is_none());
        assert!(s.spoke());
        let only = s.cue(parse_cue(r#"{"emotion_id":"sad"}"#).unwrap());
        assert_eq!(only.speech, "");
    }

    #[test]
    fn sentences_come_out_as_they_complete_and_a_cue_takes_the_one_it_follows() {
        let mut s = Segmenter::new();
        assert!(s.text("It is 3.14 today. Tomorrow").len() == 1);
        let mut out = s.text(" too! ");
        assert!(out.is_empty(), "\"too! \" waits: a closer or a cue may follow");
        out = s.text("Bye");
        assert_eq!(out.iter().map(|x| x.speech.as_str()).collect::<Vec<_>>(), ["Tomorrow too! "]);
        let cued = s.cue(Cue { emotion_id: Some("happy".into()), ..Cue::default() });
        assert_eq!(cued.speech, "Bye", "the cue takes the sentence it follows");
        assert!(s.spoke());
        let back = s.put_back("Wait. ".into());
        assert!(back.is_empty());
        let out = s.text("Now");
        assert_eq!(out[0].speech, "Wait. ");
    }

    #[test]
    fn a_stop_or_an_error_ends_the_wait_for_the_next_character() {
        // A stop or a stall: whatever is held is unsaid.
        let mut s = Segmenter::new();
        assert!(s.text("Before it stopped. ").is_empty(), "held for the next character");
        assert_eq!(s.unsaid().as_deref(), Some("Before it stopped. "));
        assert_eq!(s.unsaid(), None, "taken once");
        assert!(!s.spoke(), "unsaid text is not speech");
        assert!(s.text("   ").is_empty());
        assert_eq!(s.unsaid(), None, "blanks are nothing");

        // An error: a held sentence known complete is spoken...
        assert!(s.text("Before it stopped. ").is_empty());
        let (last, unsaid) = s.cut_short();
        assert_eq!(last.map(|l| l.speech).as_deref(), Some("Before it stopped. "));
        assert_eq!(unsaid, None);
        assert!(s.spoke());
        // ...an unfinished fragment is not.
        let mut s = Segmenter::new();
        assert_eq!(s.text("One. Two is cut mid").len(), 1);
        assert_eq!(s.cut_short(), (None, Some("Two is cut mid".to_string())));
        assert_eq!(s.cut_short(), (None, None));
        let mut s = Segmenter::new();
        assert!(s.text("「元気？」").is_empty());
        assert!(s.cut_short().0.is_some(), "a CJK sentence waiting for a closer is complete");
    }

    #[test]
    fn arguments_are_checked() {
        assert_eq!(parse_cue("{}").unwrap_err().to_string(), EMPTY_CUE);
        assert_eq!(parse_cue("").unwrap_err().to_string(), EMPTY_CUE);
        assert_eq!(parse_cue(r#"{"emotion_id":""}"#).unwrap_err().to_string(), EMPTY_CUE);
        assert_eq!(parse_cue("[1]").unwrap_err().to_string(), "error: invalid field arguments");
        assert_eq!(parse_cue(r#"{"emotion_id":3}"#).unwrap_err().to_string(), "error: invalid field emotion_id");
        assert_eq!(parse_cue(r#"{"caption":"softly","x":1}"#).unwrap().caption.as_deref(), Some("softly"));
        assert!(is_express("mcp_broker_generate_express") && !is_express("look"));
    }

    #[test]
    fn the_declaration_follows_the_vocabulary() {
        let mut v = Vocabulary::default();
        let d = declaration(&v);
        assert_eq!(d["function"]["name"], NAME);
        let props = &d["function"]["parameters"]["properties"];
        assert_eq!(props["emotion_id"]["enum"], json!(v.emotion_ids));
        assert!(props["emotion_text"].get("enum").is_none(), "free mode");
        v.emotion_text_mode = "enum".into();
        v.emotion_text_map.insert("😆".into(), json!("joyfully"));
        assert_eq!(declaration(&v)["function"]["parameters"]["properties"]["emotion_text"]["enum"], json!(["😆"]));
    }
}
