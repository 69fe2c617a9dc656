//! The thinking filler and the client's failure lines, in the user's
//! language: from a turn going out until its first reply she plays the
//! thinking motion and speaks the filler (`docs/push-protocol.md`, "Turns";
//! `docs/voice.md`).
//!
//! The engine says the first filler [`FILLER_GAPS`]`[0]` after a turn goes
//! out and each next one after the following gap, at most
//! [`FILLER_GAPS`]`.len()` times, until the turn's first reply. A client tool
//! call before the first reply says that tool's own line instead (it counts
//! as one of them). Filler and failure lines never write the previous-turn
//! record (`docs/client-context.md`, the `previous turn:` line).

use std::time::Duration;

/// When the fillers of one turn are said, each gap counted from the one
/// before (the first from the turn going out); a growing gap, at most three.
pub const FILLER_GAPS: [Duration; 3] = [Duration::from_millis(2_500), Duration::from_secs(6), Duration::from_secs(12)];

/// One language's lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FillerLines {
    /// The language tag these lines are in (`en`, `ja`, `ko`, `zh`).
    pub language: &'static str,
    /// The thinking fillers, said in order (the last repeats).
    pub thinking: Vec<String>,
    /// Tool lines, by tool name.
    pub tools: Vec<(&'static str, String)>,
    /// The line when the wait passed before any reply.
    pub timeout: String,
    /// The line when the backend could not be reached.
    pub unreachable: String,
    /// The line when the backend answered with an error.
    pub failed: String,
}

impl FillerLines {
    /// The lines for a locale such as `ja_JP.UTF-8`, `ko-KR` or `en`;
    /// English for anything unknown.
    pub fn for_locale(locale: &str) -> Self {
        let lang = locale.trim().to_ascii_lowercase();
        let lang = lang.split(['_', '-', '.', '@']).next().unwrap_or("");
        let (language, thinking, tools, timeout, unreachable, failed): (&str, &[&str], [&str; 3], &str, &str, &str) = match lang {
            "ja" => (
                "ja",
                &["えーっと…", "ちょっと待ってね。", "もう少しで…"],
                ["画面を見てみるね。", "ブラウザで調べてみるね。", "ちょっと覚えておくね。"],
                "ごめんね、返事が来なかったみたい。",
                "ごめんね、今つながらないみたい。",
                "ごめんね、うまく返事できなかった。",
            ),
            "ko" => (
                "ko",
                &["음…", "잠깐만요.", "거의 다 됐어요…"],
                ["화면 좀 볼게요.", "브라우저로 찾아볼게요.", "기억해 둘게요."],
                "미안해요, 답이 오지 않았어요.",
                "미안해요, 지금은 연결이 안 돼요.",
                "미안해요, 답을 가져오지 못했어요.",
            ),
            "zh" => (
                "zh",
                &["嗯……", "等我一下。", "马上就好……"],
                ["我看看屏幕。", "我用浏览器查一下。", "我记一下。"],
                "抱歉，没有等到回复。",
                "抱歉，现在连不上。",
                "抱歉，没能拿到回复。",
            ),
            _ => (
                "en",
                &["Hmm…", "Just a moment.", "Almost there…"],
                ["Let me look at your screen.", "Let me check in the browser.", "Let me make a note of that."],
                "Sorry, the reply didn't come in time.",
                "Sorry, I can't reach my brain right now.",
                crate::FAILURE_LINE,
            ),
        };
        Self {
            language,
            thinking: thinking.iter().map(|s| s.to_string()).collect(),
            tools: vec![("look", tools[0].to_string()), ("browser", tools[1].to_string()), ("rate_relation", tools[2].to_string())],
            timeout: timeout.into(),
            unreachable: unreachable.into(),
            failed: failed.into(),
        }
    }

    /// The lines for the user's environment (`LC_ALL`, `LC_MESSAGES`, `LANG`).
    pub fn from_env() -> Self {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].iter().filter_map(|k| std::env::var(k).ok()).find(|v| !v.is_empty()).unwrap_or_default();
        Self::for_locale(&locale)
    }

    /// The `n`th thinking filler (0-based); the last repeats.
    pub fn thinking(&self, n: usize) -> &str {
        self.thinking.get(n).or(self.thinking.last()).map(String::as_str).unwrap_or("")
    }

    /// The line a tool call says before the first reply, if it has one.
    /// `rate_relation` has a line but it is not said: a relation change is
    /// quiet.
    pub fn tool(&self, name: &str) -> Option<&str> {
        if name == "rate_relation" {
            return None;
        }
        self.tools.iter().find(|(n, _)| *n == name).map(|(_, l)| l.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locales_pick_their_language_and_unknown_ones_are_english() {
        assert_eq!(FillerLines::for_locale("ja_JP.UTF-8").language, "ja");
        assert_eq!(FillerLines::for_locale("ko-KR").language, "ko");
        assert_eq!(FillerLines::for_locale("zh_CN").language, "zh");
        assert_eq!(FillerLines::for_locale("de_DE.UTF-8").language, "en");
        assert_eq!(FillerLines::for_locale("").language, "en");
        let en = FillerLines::for_locale("en_US");
        assert_eq!(en.thinking(0), "Hmm…");
        assert_eq!(en.thinking(7), "Almost there…", "the last repeats");
        assert_eq!(en.tool("look"), Some("Let me look at your screen."));
        assert_eq!(en.tool("rate_relation"), None);
        assert_eq!(en.tool("nope"), None);
        assert!(FILLER_GAPS.windows(2).all(|w| w[0] < w[1]), "the gap grows");
    }
}
