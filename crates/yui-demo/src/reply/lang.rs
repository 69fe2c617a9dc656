//! Which language the demo answers in: the language the user wrote in.

use super::lines::{Lines, EN, JA, KO};

/// A language the demo speaks; its reply follows the user's utterance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Lang {
    /// English: the default, for Latin text, empty turns and background markers.
    #[default]
    En,
    /// Japanese: the utterance has kana, or is mostly CJK ideographs.
    Ja,
    /// Korean: the utterance has Hangul.
    Ko,
}

impl Lang {
    /// The language of a UI language code (`ja`, `ko`; anything else English).
    pub fn from_code(code: &str) -> Lang {
        match code {
            "ja" => Lang::Ja,
            "ko" => Lang::Ko,
            _ => Lang::En,
        }
    }

    /// What goes between two sentences of one reply: a space, or nothing in
    /// Japanese (its sentences end on `。`, `！`, `？`).
    pub fn sentence_gap(self) -> &'static str {
        match self {
            Lang::Ja => "",
            Lang::En | Lang::Ko => " ",
        }
    }

    /// The scripted lines in this language.
    pub(crate) fn lines(self) -> &'static Lines {
        match self {
            Lang::En => &EN,
            Lang::Ja => &JA,
            Lang::Ko => &KO,
        }
    }
}

/// Hiragana, katakana (the long-vowel mark included, the middle dot not),
/// katakana extensions and half-width katakana.
fn is_kana(c: char) -> bool {
    matches!(c, '\u{3041}'..='\u{309F}' | '\u{30A1}'..='\u{30FA}' | '\u{30FC}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}')
}

/// Hangul syllables and jamo (conjoining, compatibility, extended).
fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7A3}' | '\u{1100}'..='\u{11FF}' | '\u{3131}'..='\u{318E}' | '\u{A960}'..='\u{A97F}' | '\u{D7B0}'..='\u{D7FF}')
}

/// CJK unified ideographs (extension A and the supplementary planes
/// included) and compatibility ideographs.
fn is_ideograph(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{3FFFF}')
}

/// The language of `utterance`: Korean when it has Hangul, Japanese when it
/// has kana, and when it has both, whichever script has more characters (a
/// tie is Japanese). Without either, Japanese when CJK ideographs outnumber
/// the other letters (`今何時`), else English — an empty text too.
pub fn language_of(utterance: &str) -> Lang {
    let (mut kana, mut hangul, mut han, mut other) = (0usize, 0usize, 0usize, 0usize);
    for c in utterance.chars() {
        if is_kana(c) {
            kana += 1;
        } else if is_hangul(c) {
            hangul += 1;
        } else if is_ideograph(c) {
            han += 1;
        } else if c.is_alphabetic() {
            other += 1;
        }
    }
    match (kana, hangul) {
        (0, 0) if han > other => Lang::Ja,
        (0, 0) => Lang::En,
        (k, h) if h > k => Lang::Ko,
        _ => Lang::Ja,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_japanese_korean_and_english() {
        for ja in ["こんにちは", "カタカナだけ", "今何時？", "使い方を教えて。", "ﾃｽﾄ", "天気"] {
            assert_eq!(language_of(ja), Lang::Ja, "{ja}");
        }
        for ko in ["안녕하세요", "지금 몇 시야?", "어떻게 사용하면 돼?", "ㅋㅋㅋ"] {
            assert_eq!(language_of(ko), Lang::Ko, "{ko}");
        }
        for en in ["hello there", "what time is it?", "12:00", "¿Qué hora es?", "a・b", "", "   ", "(I just poked you)"] {
            assert_eq!(language_of(en), Lang::En, "{en:?}");
        }
    }

    #[test]
    fn mixed_text_follows_its_main_script() {
        // Any kana or Hangul in Latin text decides.
        assert_eq!(language_of("remind me to buy 牛乳 and パン"), Lang::Ja);
        assert_eq!(language_of("what does 안녕 mean?"), Lang::Ko);
        // A few ideographs in English stay English; mostly ideographs is Japanese.
        assert_eq!(language_of("what does 漢字 mean?"), Lang::En);
        assert_eq!(language_of("明日の予定 ok"), Lang::Ja);
        assert_eq!(language_of("東京駅 ok"), Lang::Ja);
        // Kana and Hangul together: the larger count wins, a tie is Japanese.
        assert_eq!(language_of("안녕ってどういう意味？"), Lang::Ja);
        assert_eq!(language_of("ありがとう가 무슨 뜻이에요?"), Lang::Ko);
        assert_eq!(language_of("あ가"), Lang::Ja);
    }

    #[test]
    fn sentence_gaps() {
        assert_eq!((Lang::En.sentence_gap(), Lang::Ja.sentence_gap(), Lang::Ko.sentence_gap()), (" ", "", " "));
        assert_eq!(Lang::default(), Lang::En);
    }
}
