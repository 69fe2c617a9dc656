//! What the demo agent says: a pure function from the user's text to a
//! reply, shared by the push demo and the SSE endpoints.

mod lang;
mod lines;

use serde_json::{json, Value};

pub use lang::{language_of, Lang};

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
    /// The language of the reply: the utterance's (see [`language_of`]);
    /// English for a background turn.
    pub lang: Lang,
}

impl DemoReply {
    /// All sentences joined with the language's [`Lang::sentence_gap`] (a
    /// space, none in Japanese).
    pub fn text(&self) -> String {
        self.sentences.iter().map(|s| s.speech.as_str()).collect::<Vec<_>>().join(self.lang.sentence_gap())
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

/// Japanese and Korean greetings, found anywhere in the utterance.
const GREETING_WORDS: [&str; 4] = ["こんにちは", "こんばんは", "おはよう", "안녕"];
/// Japanese and Korean words asking the time.
const TIME_WORDS: [&str; 5] = ["何時", "時間", "몇 시", "몇시", "시간"];
/// Japanese and Korean words of a sad or tired user.
const SAD_WORDS: [&str; 5] = ["疲れ", "悲し", "피곤", "슬퍼", "슬프"];
/// Japanese and Korean words of an angry user.
const ANGRY_WORDS: [&str; 7] = ["怒っ", "怒り", "ムカつ", "腹が立", "화났", "화가 나", "짜증"];
/// Japanese and Korean words asking for a task.
const TASK_WORDS: [&str; 6] = ["リマインド", "タスク", "覚えて", "할 일", "할일", "기억해"];

/// The demo agent's reply to `text` (the turn's user text), with `now` the
/// local time to announce (e.g. `"14:05"`).
///
/// Greets on hello/hi/hey (こんにちは, こんばんは, おはよう, 안녕), tells the
/// time on "time" (何時, 時間, 몇 시, 시간), fails on "fail", delegates on
/// remind/task/todo/check (リマインド, タスク, 覚えて, 할 일, 기억해), and
/// otherwise echoes. The first cue's emotion follows the mood: happy on a
/// greeting, sad on "sad"/"tired" (疲れ, 悲し, 피곤, 슬퍼), angry on "angry"
/// (怒っ, ムカつ, 화났, 짜증, …), surprised on a "?" question, relaxed
/// otherwise. Empty text or a background marker `(…)` gets a short remark.
///
/// It answers in the utterance's language ([`language_of`]): Japanese,
/// Korean, else English; a background turn in English (see
/// [`demo_reply_in`]). The echo quotes the utterance verbatim in every
/// language.
pub fn demo_reply(text: &str, now: &str) -> DemoReply {
    demo_reply_in(text, now, Lang::En)
}

/// [`demo_reply`], with a background turn (no words to tell the language
/// by) answered in `quiet`: the app's UI language.
pub fn demo_reply_in(text: &str, now: &str, quiet: Lang) -> DemoReply {
    let utterance = strip_context(text);
    let lower = utterance.to_lowercase();
    let w = words(&lower);
    let has = |k: &str| w.contains(&k);
    let said = |keys: &[&str]| keys.iter().any(|k| utterance.contains(k));
    let background = utterance.is_empty() || (utterance.starts_with('(') && utterance.ends_with(')'));
    let lang = if background { quiet } else { language_of(&utterance) };
    let l = lang.lines();
    let greeting = ["hello", "hi", "hey"].iter().any(|k| has(k)) || said(&GREETING_WORDS);
    let asks_time = has("time") || said(&TIME_WORDS);
    let fail = has("fail");
    let wants_task = w.iter().any(|x| x.starts_with("remind") || ["task", "tasks", "todo", "to-do", "check"].contains(x)) || said(&TASK_WORDS);
    let question = utterance.contains('?') || utterance.contains('？');
    let mood = if greeting {
        "happy"
    } else if has("sad") || has("tired") || said(&SAD_WORDS) {
        "sad"
    } else if has("angry") || said(&ANGRY_WORDS) {
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
        (vec![DemoSentence::new("relaxed", "idle", l.background)], l.background_why.to_string())
    } else if fail {
        (vec![DemoSentence::new("sad", "idle", l.fail[0]), DemoSentence::new("relaxed", "nod", l.fail[1])], l.fail_why.to_string())
    } else if greeting && asks_time {
        (vec![DemoSentence::new("happy", "wave", l.hello), DemoSentence::new("relaxed", "nod", (l.clock)(now))], (l.hello_clock_why)(now))
    } else if greeting {
        (
            vec![DemoSentence::new("happy", "wave", l.hello), DemoSentence::new("relaxed", "idle", l.mock_note), DemoSentence::new("happy", "nod", l.hint)],
            l.hello_why.to_string(),
        )
    } else if asks_time {
        (vec![DemoSentence::new(mood, "nod", (l.clock)(now)), DemoSentence::new("happy", "idle", l.clock_note)], (l.clock_why)(now))
    } else {
        let (motion, follow) = match mood {
            "sad" => ("idle", l.sad),
            "angry" => ("idle", l.angry),
            "surprised" => ("think", l.puzzled),
            _ => ("idle", l.listening),
        };
        let mut sentences = vec![DemoSentence::new(mood, if question { "think" } else { "nod" }, (l.said)(&short)), DemoSentence::new(mood, motion, follow)];
        let mut reasoning = (l.echo_why)(&short, mood);
        if delegation.is_some() {
            sentences.push(DemoSentence::new("happy", "nod", l.task));
            reasoning.push_str(l.task_why);
        }
        (sentences, reasoning)
    };
    DemoReply { sentences, reasoning, tool, delegation, fail, background, lang }
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
    #[test]
    fn a_background_turn_speaks_the_quiet_language() {
        assert_eq!(demo_reply("", "12:00").sentences[0].speech, "Mm? I'm just keeping you company.");
        let quiet = crate::QuietLanguage::default();
        quiet.set(Lang::from_code("ja"));
        let ja = demo_reply_in("(Yui just spoke to you)", "12:00", quiet.get());
        assert_eq!((ja.lang, ja.sentences[0].speech.as_str()), (Lang::Ja, "ん？ただそばにいるだけだよ。"));
        quiet.set(Lang::from_code("ko"));
        assert_eq!(demo_reply_in("", "12:00", quiet.get()).lang, Lang::Ko);
        // Words say the language themselves, whatever the quiet one.
        assert_eq!(demo_reply_in("hello", "12:00", Lang::Ko).lang, Lang::En);
    }

    use super::*;

    fn emotions(r: &DemoReply) -> Vec<&str> {
        r.sentences.iter().map(|s| s.cue["emotion_id"].as_str().unwrap()).collect()
    }

    #[test]
    fn greets_tells_time_and_echoes() {
        let r = demo_reply("hello there", "09:41");
        assert_eq!(r.sentences[0].speech, "Hi! I'm Yui.");
        assert_eq!(emotions(&r)[0], "happy");
        assert_eq!(demo_reply("こんにちは", "09:41").sentences[0].speech, "こんにちは！ユイだよ。");
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
    fn english_replies_stay_as_they_were() {
        let r = demo_reply("hi, what time is it?", "09:41");
        assert_eq!(r.text(), "Hi! I'm Yui. It's 09:41.");
        assert_eq!(r.reasoning, "The user greeted me and asked the time. A wave, then the clock tool's answer: 09:41.");
        let r = demo_reply("remind me to water the plants", "0");
        assert_eq!(
            r.text(),
            "You said: \"remind me to water the plants\". I'm only a mock backend, but I'm listening. I'll put that on my list and report back."
        );
        assert_eq!(
            r.reasoning,
            "The user wrote \"remind me to water the plants\". I can't really think, so I'll echo it back and react (relaxed). \
             It sounds like a task, so I'll hand it to a background worker."
        );
        assert_eq!(demo_reply("please fail", "0").text(), "Sorry, that didn't work: the provider hit a rate limit. Let's try again in a moment.");
        assert_eq!(demo_reply("why?", "0").sentences[1].speech, "Good question! I'm only a mock, so I can't really answer it.");
        for text in ["hello", "why?", "", "(I just poked you)", "what does 漢字 mean"] {
            assert_eq!(demo_reply(text, "0").lang, Lang::En, "{text}");
        }
    }

    #[test]
    fn japanese_gets_japanese() {
        let r = demo_reply("こんにちは！", "09:41");
        assert_eq!((r.lang, emotions(&r)[0]), (Lang::Ja, "happy"));
        assert_eq!(r.text(), "こんにちは！ユイだよ。ここはデモ用のバックエンドだから、わたしのセリフは決まってるんだ。時間を聞いてみたり、覚えておいてほしいことを頼んでみてね！");
        assert!(r.reasoning.starts_with("ユーザーが挨拶"));
        let r = demo_reply("おはよう、今何時？", "07:30");
        assert_eq!(r.text(), "こんにちは！ユイだよ。今は07:30だよ。");
        assert_eq!(r.tool, "clock");
        let r = demo_reply("今何時", "07:30");
        assert_eq!((r.sentences[0].speech.as_str(), r.tool), ("今は07:30だよ。", "clock"));
        let r = demo_reply("使い方を教えて。", "0");
        assert_eq!(r.sentences[0].speech, "「使い方を教えて。」って言ったね。");
        assert!(r.reasoning.contains("「使い方を教えて。」") && r.delegation.is_none());
        let r = demo_reply("今日はすごく疲れた", "0");
        assert_eq!(emotions(&r), ["sad", "sad"]);
        let r = demo_reply("牛乳を買うのを覚えておいて", "0");
        assert_eq!(r.delegation.as_deref(), Some("牛乳を買うのを覚えておいて"));
        assert_eq!(r.sentences.last().unwrap().speech, "やることリストに入れておくね。終わったら報告するよ。");
        assert!(demo_reply("fail してみて", "0").sentences[0].speech.starts_with("ごめんね"));
    }

    #[test]
    fn korean_gets_korean() {
        let r = demo_reply("이거 어떻게 써요?", "0");
        assert_eq!(r.lang, Lang::Ko);
        assert_eq!(r.sentences[0].speech, "\"이거 어떻게 써요?\"라고 했네요.");
        assert!(r.text().contains("이거 어떻게 써요?") && r.reasoning.contains("이거 어떻게 써요?"));
        assert_eq!(emotions(&r)[0], "surprised");
        let r = demo_reply("안녕하세요", "0");
        assert_eq!((r.sentences[0].speech.as_str(), emotions(&r)[0]), ("안녕하세요! 저는 유이예요.", "happy"));
        let r = demo_reply("지금 몇 시야?", "21:05");
        assert_eq!((r.sentences[0].speech.as_str(), r.tool), ("지금은 21:05이에요.", "clock"));
        assert_eq!(emotions(&demo_reply("너무 피곤해", "0"))[0], "sad");
        let r = demo_reply("내일 회의 기억해 줘", "0");
        assert_eq!(r.delegation.as_deref(), Some("내일 회의 기억해 줘"));
        assert_eq!(r.sentences.last().unwrap().speech, "할 일 목록에 넣어 둘게요. 끝나면 알려 드릴게요.");
    }

    #[test]
    fn background_turns_answer_in_english() {
        for text in ["", "(ユイ just spoke to you)", "<client_context>\n言語: 日本語\n</client_context>"] {
            let r = demo_reply(text, "0");
            assert!(r.background, "{text}");
            assert_eq!((r.lang, r.text().as_str()), (Lang::En, "Mm? I'm just keeping you company."), "{text}");
        }
    }

    #[test]
    fn strips_context_blocks() {
        let t = "<post_history_instructions>\nShort.\n</post_history_instructions>\n<client_context>\ntime: x\n</client_context>\n\nhello";
        assert_eq!(strip_context(t), "hello");
        assert_eq!(strip_context("<client_context>unclosed"), "");
        assert_eq!(chunks("a b c d e", 2).concat(), "a b c d e");
    }
}
