//! What the demo agent says: a pure function from the user's text to a
//! reply, shared by the push demo and the SSE endpoints.

use serde_json::{json, Value};

/// Emotion ids of the default character; the demo uses no others.
pub const EMOTIONS: [&str; 6] = ["neutral", "happy", "angry", "sad", "relaxed", "surprised"];
/// Motion ids the demo uses.
pub const MOTIONS: [&str; 4] = ["idle", "wave", "nod", "think"];

/// Delegation title limit, in Unicode code points.
pub const TITLE_MAX_CHARS: usize = 120;
/// Delegation summary limit, in Unicode code points.
pub const SUMMARY_MAX_CHARS: usize = 2000;

/// One sentence of a demo reply with the cue placed on it.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoSentence {
    /// A generate_express argument object (`emotion_id`, `motion_id`).
    pub cue: Value,
    /// The spoken sentence.
    pub speech: String,
}

impl DemoSentence {
    pub(crate) fn new(emotion: &str, motion: &str, speech: impl Into<String>) -> DemoSentence {
        DemoSentence { cue: json!({ "emotion_id": emotion, "motion_id": motion }), speech: speech.into() }
    }

    /// The push segment shape: `{"cues": [cue], "speech": ...}`.
    pub fn segment(&self) -> Value {
        json!({ "cues": [self.cue], "speech": self.speech })
    }
}

/// The demo agent's reply to one user text.
#[derive(Debug, Clone, PartialEq)]
pub struct DemoReply {
    /// Sentences in order; empty means silence.
    pub sentences: Vec<DemoSentence>,
    /// The whole reasoning text.
    pub reasoning: String,
    /// The tool the demo pretends to run: "clock" or "notes".
    pub tool: &'static str,
    /// A delegation title when the user asked for a task (remind/task/todo/check).
    pub delegation: Option<String>,
    /// The user asked the demo to fail ("fail"); `sentences` hold the
    /// rendered failure line for clients that do not accept error frames.
    pub fail: bool,
    /// The turn had no user text (empty, or a background marker).
    pub background: bool,
}

impl DemoReply {
    /// All sentences joined with spaces.
    pub fn text(&self) -> String {
        self.sentences.iter().map(|s| s.speech.as_str()).collect::<Vec<_>>().join(" ")
    }
}

/// The local wall-clock time of the mock as `HH:MM`.
pub fn local_time_hhmm() -> String {
    chrono::Local::now().format("%H:%M").to_string()
}

/// Cuts `s` to at most `max` Unicode code points.
pub fn cut_chars(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// The user's utterance inside a request-transport user message: tagged
/// `<client_context>` and `<post_history_instructions>` blocks are removed.
pub fn strip_context(text: &str) -> String {
    let mut s = text.to_string();
    for tag in ["client_context", "post_history_instructions"] {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        while let Some(start) = s.find(&open) {
            let end = s[start..].find(&close).map_or(s.len(), |e| start + e + close.len());
            s.replace_range(start..end, "");
        }
    }
    s.trim().to_string()
}

fn words(lower: &str) -> Vec<&str> {
    lower.split(|c: char| !c.is_alphanumeric() && c != '-').filter(|w| !w.is_empty()).collect()
}

/// The demo agent's reply to `text` (the turn's user text), with `now` the
/// local time to announce (e.g. `"14:05"`).
///
/// Greets on hello/hi/hey/こんにちは, tells the time on "time", fails on
/// "fail", delegates on remind/task/todo/check, and otherwise echoes. The
/// first cue's emotion follows the mood: happy on a greeting, sad on
/// "sad"/"tired", angry on "angry", surprised on a "?" question, relaxed
/// otherwise. Empty text or a background marker `(…)` gets a short remark.
pub fn demo_reply(text: &str, now: &str) -> DemoReply {
    let utterance = strip_context(text);
    let lower = utterance.to_lowercase();
    let w = words(&lower);
    let has = |k: &str| w.contains(&k);
    let background = utterance.is_empty() || (utterance.starts_with('(') && utterance.ends_with(')'));
    let greeting = ["hello", "hi", "hey"].iter().any(|k| has(k)) || utterance.contains("こんにちは");
    let asks_time = has("time");
    let fail = has("fail");
    let wants_task = w.iter().any(|x| x.starts_with("remind") || ["task", "tasks", "todo", "to-do", "check"].contains(x));
    let question = utterance.contains('?') || utterance.contains('？');
    let mood = if greeting {
        "happy"
    } else if has("sad") || has("tired") {
        "sad"
    } else if has("angry") {
        "angry"
    } else if question {
        "surprised"
    } else {
        "relaxed"
    };
    let short = match utterance.chars().count() {
        n if n > TITLE_MAX_CHARS => format!("{}…", cut_chars(&utterance, TITLE_MAX_CHARS - 1)),
        _ => utterance.clone(),
    };
    let delegation = (wants_task && !background && !fail).then(|| cut_chars(utterance.lines().next().unwrap_or_default().trim(), TITLE_MAX_CHARS));
    let tool = if asks_time { "clock" } else { "notes" };

    let (sentences, reasoning) = if background {
        (vec![DemoSentence::new("relaxed", "idle", "Mm? I'm just keeping you company.")], "Nobody typed anything, so a quiet remark is enough.".to_string())
    } else if fail {
        (
            vec![
                DemoSentence::new("sad", "idle", "Sorry, that didn't work: the provider hit a rate limit."),
                DemoSentence::new("relaxed", "nod", "Let's try again in a moment."),
            ],
            "The user asked me to fail, so this turn reports a provider error.".to_string(),
        )
    } else if greeting && asks_time {
        (
            vec![DemoSentence::new("happy", "wave", "Hi! I'm Yui."), DemoSentence::new("relaxed", "nod", format!("It's {now}."))],
            format!("The user greeted me and asked the time. A wave, then the clock tool's answer: {now}."),
        )
    } else if greeting {
        (
            vec![
                DemoSentence::new("happy", "wave", "Hi! I'm Yui."),
                DemoSentence::new("relaxed", "idle", "This is the mock backend, so my lines are scripted."),
                DemoSentence::new("happy", "nod", "Ask me the time, or give me a task to remember!"),
            ],
            "The user greeted me. A warm hello with a wave fits, then a hint at what this demo can do.".to_string(),
        )
    } else if asks_time {
        (
            vec![DemoSentence::new(mood, "nod", format!("It's {now}.")), DemoSentence::new("happy", "idle", "That's what the clock on my side says, anyway.")],
            format!("The user asked about the time. The clock tool says {now}, so I'll say that."),
        )
    } else {
        let (motion, follow) = match mood {
            "sad" => ("idle", "That sounds hard. Let's take a short break together."),
            "angry" => ("idle", "Grr, that would make me angry too!"),
            "surprised" => ("think", "Good question! I'm only a mock, so I can't really answer it."),
            _ => ("idle", "I'm only a mock backend, but I'm listening."),
        };
        let mut sentences =
            vec![DemoSentence::new(mood, if question { "think" } else { "nod" }, format!("You said: \"{short}\".")), DemoSentence::new(mood, motion, follow)];
        let mut reasoning = format!("The user wrote \"{short}\". I can't really think, so I'll echo it back and react ({mood}).");
        if delegation.is_some() {
            sentences.push(DemoSentence::new("happy", "nod", "I'll put that on my list and report back."));
            reasoning.push_str(" It sounds like a task, so I'll hand it to a background worker.");
        }
        (sentences, reasoning)
    };
    DemoReply { sentences, reasoning, tool, delegation, fail, background }
}

/// Splits `text` into about `parts` chunks at spaces (coalesced reasoning deltas).
pub fn chunks(text: &str, parts: usize) -> Vec<String> {
    let words: Vec<&str> = text.split_inclusive(' ').collect();
    let per = words.len().div_ceil(parts.max(1)).max(1);
    words.chunks(per).map(|c| c.concat()).collect()
}

/// A rough token count for usage figures.
pub fn tokens(text: &str) -> u64 {
    (text.chars().count() as u64).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emotions(r: &DemoReply) -> Vec<&str> {
        r.sentences.iter().map(|s| s.cue["emotion_id"].as_str().unwrap()).collect()
    }

    #[test]
    fn greets_tells_time_and_echoes() {
        let r = demo_reply("hello there", "09:41");
        assert_eq!(r.sentences[0].speech, "Hi! I'm Yui.");
        assert_eq!(emotions(&r)[0], "happy");
        assert!(demo_reply("こんにちは", "09:41").sentences[0].speech.starts_with("Hi!"));
        let r = demo_reply("what time is it?", "09:41");
        assert_eq!(r.sentences[0].speech, "It's 09:41.");
        assert_eq!((r.tool, emotions(&r)[0]), ("clock", "surprised"));
        let r = demo_reply("I am so tired", "09:41");
        assert_eq!(r.sentences[0].speech, "You said: \"I am so tired\".");
        assert_eq!((r.tool, emotions(&r)[0]), ("notes", "sad"));
        assert_eq!(emotions(&demo_reply("angry!", "0")), ["angry", "angry"]);
        assert_eq!(emotions(&demo_reply("ok", "0"))[0], "relaxed");
    }

    #[test]
    fn only_default_ids_and_limits() {
        for text in ["hi", "time", "fail", "remind me", "", "(I just poked you)", "why?", "sad", "angry"] {
            let r = demo_reply(text, "12:00");
            for s in &r.sentences {
                assert!(EMOTIONS.contains(&s.cue["emotion_id"].as_str().unwrap()), "{text}");
                assert!(MOTIONS.contains(&s.cue["motion_id"].as_str().unwrap()), "{text}");
            }
        }
        let long = "remind me ".repeat(40);
        let r = demo_reply(&long, "12:00");
        assert_eq!(r.delegation.unwrap().chars().count(), TITLE_MAX_CHARS);
        assert!(demo_reply("", "0").background && demo_reply("(I just poked you)", "0").background);
        assert!(demo_reply("please fail", "0").fail);
        assert!(demo_reply("add a todo", "0").delegation.is_some());
        assert!(demo_reply("hi", "0").delegation.is_none());
    }

    #[test]
    fn strips_context_blocks() {
        let t = "<post_history_instructions>\nShort.\n</post_history_instructions>\n<client_context>\ntime: x\n</client_context>\n\nhello";
        assert_eq!(strip_context(t), "hello");
        assert_eq!(strip_context("<client_context>unclosed"), "");
        assert_eq!(chunks("a b c d e", 2).concat(), "a b c d e");
    }
}
