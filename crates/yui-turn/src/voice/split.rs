//! The streaming sentence splitter (`docs/voice.md`): the request transports
//! feed it the reply text as it streams in, and each sentence goes to TTS the
//! moment it is known to be complete.
//!
//! # Rules
//!
//! A *tail* is a maximal run of terminators and closers. Terminators:
//!
//! - "Spaced" terminators `.` `!` `?` `…` and the fullwidth full stop `．`:
//!   a tail holding one ends a sentence only when whitespace (or the end of
//!   the stream) follows it. So `3.14`, `v1.2`, `e.g.x` and `Hello.World` are
//!   not split (abbreviations followed by a space, like `e.g. this`, are: the
//!   splitter knows no words). `．` is here rather than with the CJK marks
//!   because it also appears inside fullwidth numbers (`３．１４`).
//! - CJK terminators `。` `！` `？` and the halfwidth `｡`: a tail holding one
//!   ends a sentence at once, no whitespace needed (`こんにちは。元気？`
//!   is two sentences).
//!
//! Runs are kept together (`?!`, `...`, `！？`, `……`), and closers
//! (`"` `'` `”` `’` `)` `]` `」` `』` `）` `】` `»` `》` `〉` `〕` `］` `〗`)
//! anywhere in the tail stay with the sentence: `"Really?!") Next` splits
//! after `)`, and `「元気？」次` after `」`.
//!
//! A line break (`\n`, `\r`, U+2028, U+2029) ends a sentence too, whatever
//! precedes it.
//!
//! # Whitespace
//!
//! The whitespace (Unicode `White_Space`, so U+3000 too) after a sentence goes
//! at the **end of that sentence**, newlines included: `"Hi. There"` is
//! `["Hi. ", "There"]`, `"Title\n\nBody"` is `["Title\n\n", "Body"]`. Nothing
//! is trimmed (callers trim for TTS), and the sentences plus
//! [`Splitter::finish`] join back to the input byte for byte. The one
//! exception: an input that is whitespace only yields no sentence at all.
//! Whitespace before the first sentence starts it; no sentence is ever
//! whitespace only (one may be punctuation only, like `". "`).
//!
//! # When a sentence is emitted
//!
//! Because the whitespace belongs to the sentence before it, and because a
//! tail may continue (`?` then `!`, `。` then `」`), a sentence is emitted
//! when the first character that cannot belong to it arrives: the first
//! non-whitespace character after its whitespace, or the first character
//! after a CJK tail. That is one character of look-ahead, which may span
//! deltas (a delta ending in `.` decides nothing until the next delta or
//! [`Splitter::finish`]). Decisions only ever look backwards from that
//! character, so the result does not depend on how the stream was cut into
//! deltas: pushing any chunking gives exactly [`sentences`] of the whole.
//! Deltas are `&str`, so a multi-byte character (or emoji) is never cut.
//! Work is linear in the input.

/// Cuts streamed text into sentences as it arrives (rules in the module doc).
///
/// Feed deltas with [`push`](Self::push), end with
/// [`finish`](Self::finish); after `finish` the splitter is empty and may be
/// reused for another stream.
#[derive(Debug, Default, Clone)]
pub struct Splitter {
    /// Text received but not yet emitted.
    pending: String,
    /// `pending` holds a non-whitespace character.
    has_content: bool,
    /// The current tail (the one just before the cursor, or just before the
    /// current whitespace run) holds a terminator.
    tail_term: bool,
    /// The current tail holds a CJK terminator.
    tail_cjk: bool,
    /// The cursor is in a whitespace run (after `pending`'s last
    /// non-whitespace character).
    in_ws: bool,
    /// The current whitespace run holds a line break.
    ws_break: bool,
}

impl Splitter {
    /// An empty splitter.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed a delta; returns the sentences it completed, in order (each with
    /// its own trailing/inner text exactly as received, so that the sentences
    /// plus [`finish`](Self::finish) join back to the whole input byte for
    /// byte). A sentence ending at the very end of `delta` is held until the
    /// next character (or `finish`) shows it cannot continue.
    pub fn push(&mut self, delta: &str) -> Vec<String> {
        let mut done = Vec::new();
        self.pending.reserve(delta.len());
        for c in delta.chars() {
            if let Some(sentence) = self.step(c) {
                done.push(sentence);
            }
        }
        done
    }

    /// The stream ended: the rest as a last sentence when it has any
    /// non-whitespace (trailing whitespace included, untrimmed). The splitter
    /// is empty afterwards.
    pub fn finish(&mut self) -> Option<String> {
        let has_content = self.has_content;
        let rest = std::mem::take(&mut self.pending);
        *self = Self::default();
        has_content.then_some(rest)
    }

    /// True when the text held so far ends a sentence by the rules above
    /// and only waits for the character that proves it (a closer or more
    /// terminators could still join its tail): its tail holds a terminator,
    /// or a line break follows it. False for an unfinished fragment, and
    /// when nothing is held.
    pub fn holds_sentence(&self) -> bool {
        self.has_content && (self.tail_term || (self.in_ws && self.ws_break))
    }

    /// Take one character; returns the sentence it proves complete, if any
    /// (`c` itself then starts the next one).
    fn step(&mut self, c: char) -> Option<String> {
        if c.is_whitespace() {
            if !self.in_ws {
                self.in_ws = true;
                self.ws_break = false;
            }
            self.ws_break |= is_line_break(c);
            self.pending.push(c);
            return None;
        }
        let tail_char = is_terminator(c) || is_closer(c);
        let cut = self.has_content && if self.in_ws { self.ws_break || self.tail_term } else { self.tail_cjk && !tail_char };
        let sentence = if cut {
            self.has_content = false;
            Some(std::mem::take(&mut self.pending))
        } else {
            None
        };
        // Whitespace or a plain character ends the tail.
        if self.in_ws || !tail_char {
            self.tail_term = false;
            self.tail_cjk = false;
        }
        self.in_ws = false;
        self.ws_break = false;
        if tail_char {
            self.tail_term |= is_terminator(c);
            self.tail_cjk |= is_cjk_terminator(c);
        }
        self.has_content = true;
        self.pending.push(c);
        sentence
    }
}

/// Split a whole text at once (push + finish).
pub fn sentences(text: &str) -> Vec<String> {
    let mut splitter = Splitter::new();
    let mut out = splitter.push(text);
    out.extend(splitter.finish());
    out
}

/// Terminators that end a sentence only before whitespace or the end.
fn is_spaced_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '．')
}

/// Terminators that end a sentence at once.
fn is_cjk_terminator(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '｡')
}

fn is_terminator(c: char) -> bool {
    is_spaced_terminator(c) || is_cjk_terminator(c)
}

/// Closing quotes and brackets, which stay with the sentence they close.
fn is_closer(c: char) -> bool {
    matches!(c, '"' | '\'' | '”' | '’' | ')' | ']' | '」' | '』' | '）' | '】' | '»' | '》' | '〉' | '〕' | '］' | '〗')
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_held_sentence_is_known_complete_and_a_fragment_is_not() {
        let held = |text: &str| {
            let mut s = Splitter::new();
            let done = s.push(text);
            (done.len(), s.holds_sentence())
        };
        assert_eq!(held(""), (0, false));
        assert_eq!(held("Before it stopped. "), (0, true));
        assert_eq!(held("Before it stopped."), (0, true), "the end of the stream would end it");
        assert_eq!(held("He said \"no.\""), (0, true));
        assert_eq!(held("Title\n"), (0, true), "a line break ends a sentence");
        assert_eq!(held("Hi. Before it sto"), (1, false));
        assert_eq!(held("Wait "), (0, false));
        assert_eq!(held("元気？"), (0, true));
    }

    /// Table of whole texts and their sentences.
    const CASES: &[(&str, &[&str])] = &[
        // English, whitespace goes with the sentence before it.
        ("Hello there. How are you?", &["Hello there. ", "How are you?"]),
        ("One! Two? Three.", &["One! ", "Two? ", "Three."]),
        ("Hi.   Spaces stay.  ", &["Hi.   ", "Spaces stay.  "]),
        ("  Leading space. Next", &["  Leading space. ", "Next"]),
        ("no terminator at all", &["no terminator at all"]),
        // Not split without whitespace after.
        ("Pi is 3.14 roughly.", &["Pi is 3.14 roughly."]),
        ("Use v1.2 or e.g.x now", &["Use v1.2 or e.g.x now"]),
        ("Hello.World", &["Hello.World"]),
        ("Abbrev e.g. this", &["Abbrev e.g. ", "this"]),
        // Ellipsis, runs.
        ("Wait... what? Oh.", &["Wait... ", "what? ", "Oh."]),
        ("Wait… what", &["Wait… ", "what"]),
        ("Wait…what", &["Wait…what"]),
        ("Really?! Yes!!! Ok?", &["Really?! ", "Yes!!! ", "Ok?"]),
        // Quotes and brackets.
        ("He said \"hi.\" Then left.", &["He said \"hi.\" ", "Then left."]),
        ("(Quietly.) Then", &["(Quietly.) ", "Then"]),
        ("[Done!] Next", &["[Done!] ", "Next"]),
        ("She said ‘no.’ He said “yes.” End", &["She said ‘no.’ ", "He said “yes.” ", "End"]),
        ("\"Really?!\") Next", &["\"Really?!\") ", "Next"]),
        ("He said \"hi\" and left", &["He said \"hi\" and left"]),
        ("It's x.\"y\" z", &["It's x.\"y\" z"]),
        // CJK: at once, closers kept, runs kept.
        ("こんにちは。元気？", &["こんにちは。", "元気？"]),
        ("「元気？」はい。", &["「元気？」", "はい。"]),
        ("『本当！』（笑）。次【注】", &["『本当！』", "（笑）。", "次【注】"]),
        ("本当！？うん。", &["本当！？", "うん。"]),
        ("你好。我很好！谢谢？", &["你好。", "我很好！", "谢谢？"]),
        ("はい。 次", &["はい。 ", "次"]),
        ("はい。\u{3000}次", &["はい。\u{3000}", "次"]),
        ("ｶﾀｶﾅ｡次", &["ｶﾀｶﾅ｡", "次"]),
        ("３．１４です", &["３．１４です"]),
        ("終わり． 次", &["終わり． ", "次"]),
        ("等等……好吧", &["等等……好吧"]),
        // Korean uses spaced periods.
        ("안녕하세요. 반가워요. 잘 지내요?", &["안녕하세요. ", "반가워요. ", "잘 지내요?"]),
        ("버전 1.2 입니다.", &["버전 1.2 입니다."]),
        // Newlines end a sentence and stay with it.
        ("Title\nBody text", &["Title\n", "Body text"]),
        ("Title\n\nBody", &["Title\n\n", "Body"]),
        ("Line one.\nLine two", &["Line one.\n", "Line two"]),
        ("a \n b", &["a \n ", "b"]),
        ("crlf\r\nnext", &["crlf\r\n", "next"]),
        ("\n\nFirst", &["\n\nFirst"]),
        ("end\n", &["end\n"]),
        ("一行目\n二行目", &["一行目\n", "二行目"]),
        // Emoji are plain characters and are never cut.
        ("Great! 😀 Next.", &["Great! ", "😀 Next."]),
        ("Nice 👍🏽. Family 👨‍👩‍👧 too!", &["Nice 👍🏽. ", "Family 👨‍👩‍👧 too!"]),
        ("😀。😀", &["😀。", "😀"]),
        // Punctuation-only sentences may happen; whitespace-only ones never.
        (". x", &[". ", "x"]),
        ("", &[]),
        ("   ", &[]),
        (" \n\t ", &[]),
    ];

    #[test]
    fn table() {
        for (text, want) in CASES {
            assert_eq!(sentences(text), *want, "text {text:?}");
        }
    }

    /// Every char-boundary cut, and every char-by-char feed, give the
    /// whole-text result; sentences are emitted as soon as the next character
    /// arrives.
    #[test]
    fn streaming_equals_whole() {
        for (text, want) in CASES {
            let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            for &i in &bounds {
                for &j in bounds.iter().filter(|&&j| j >= i) {
                    let got = feed(&[&text[..i], &text[i..j], &text[j..]]);
                    assert_eq!(got, *want, "text {text:?} cut at {i}, {j}");
                }
            }
            let chars: Vec<String> = text.chars().map(String::from).collect();
            let chars: Vec<&str> = chars.iter().map(String::as_str).collect();
            assert_eq!(feed(&chars), *want, "text {text:?} char by char");
        }
    }

    #[test]
    fn emits_as_soon_as_decidable() {
        let mut s = Splitter::new();
        assert!(s.push("Hello.").is_empty(), "may still be 3.14-like");
        assert!(s.push(" ").is_empty(), "more whitespace may follow");
        assert_eq!(s.push("W"), ["Hello. "]);
        assert_eq!(s.push("orld? 元気"), ["World? "]);
        assert!(s.push("？").is_empty(), "a closer may follow");
        assert_eq!(s.push("」x"), ["元気？」"]);
        assert!(s.push("\n").is_empty());
        assert_eq!(s.push("y"), ["x\n"]);
        assert_eq!(s.finish().as_deref(), Some("y"));
        assert_eq!(s.finish(), None, "empty after finish");
        // Reusable after finish, no state leaks across streams.
        assert!(s.push("a.").is_empty());
        assert_eq!(s.finish().as_deref(), Some("a."));
        assert!(s.push("  ").is_empty());
        assert_eq!(s.finish(), None);
        assert!(s.push("b").is_empty());
        assert_eq!(s.finish().as_deref(), Some("b"));
    }

    /// Push the deltas in order, then finish.
    fn feed(deltas: &[&str]) -> Vec<String> {
        let mut s = Splitter::new();
        let mut out = Vec::new();
        for d in deltas {
            out.extend(s.push(d));
        }
        out.extend(s.finish());
        out
    }

    /// An independent statement of the rules over a whole text: the byte
    /// offsets where a sentence starts (besides 0), found by looking back
    /// from each non-whitespace character.
    fn reference_cuts(text: &str) -> Vec<usize> {
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let mut cuts = Vec::new();
        let mut last = 0; // char index where the current sentence starts
        for (k, &(byte, c)) in chars.iter().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            let mut i = k;
            while i > last && chars[i - 1].1.is_whitespace() {
                i -= 1;
            }
            let ws = &chars[i..k];
            let mut t = i;
            while t > last && (is_terminator(chars[t - 1].1) || is_closer(chars[t - 1].1)) {
                t -= 1;
            }
            let tail = &chars[t..i];
            let content = chars[last..k].iter().any(|&(_, c)| !c.is_whitespace());
            let is_cut = content
                && if ws.is_empty() {
                    tail.iter().any(|&(_, c)| is_cjk_terminator(c)) && !is_terminator(c) && !is_closer(c)
                } else {
                    ws.iter().any(|&(_, c)| is_line_break(c)) || tail.iter().any(|&(_, c)| is_terminator(c))
                };
            if is_cut {
                cuts.push(byte);
                last = k;
            }
        }
        cuts
    }

    fn text_strategy() -> impl Strategy<Value = String> {
        let interesting = prop::sample::select(vec![
            'a', 'Z', '1', ' ', ' ', '\n', '\r', '\t', '\u{3000}', '.', '.', '!', '?', '…', '．', '。', '！', '？', '｡', '"', '\'', '”', '’', ')', ']', '」',
            '』', '）', '】', 'é', 'あ', '한', '😀', '\u{200d}',
        ]);
        prop::collection::vec(prop_oneof![4 => interesting, 1 => any::<char>()], 0..48).prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Any text, any chunking: the sentences join back to the input
        /// (nothing at all for whitespace-only input), none is whitespace
        /// only, the chunking changes nothing, and the cuts are those of the
        /// reference statement of the rules.
        #[test]
        fn join_is_exact(text in text_strategy(), picks in prop::collection::vec(any::<prop::sample::Index>(), 0..6)) {
            let bounds: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            let mut at: Vec<usize> = picks.iter().map(|p| bounds[p.index(bounds.len())]).collect();
            at.sort_unstable();
            let mut deltas = Vec::new();
            let mut from = 0;
            for &to in &at {
                deltas.push(&text[from..to]);
                from = to;
            }
            deltas.push(&text[from..]);
            let got = feed(&deltas);

            if text.chars().all(char::is_whitespace) {
                prop_assert!(got.is_empty());
            } else {
                prop_assert_eq!(got.concat(), text.clone());
            }
            for s in &got {
                prop_assert!(!s.chars().all(char::is_whitespace), "whitespace-only sentence {:?}", s);
            }
            prop_assert_eq!(&got, &sentences(&text));

            let mut starts = Vec::new();
            let mut off = 0;
            for s in got.iter().take(got.len().saturating_sub(1)) {
                off += s.len();
                starts.push(off);
            }
            prop_assert_eq!(starts, reference_cuts(&text));
        }
    }
}
