//! The `guide:` block: the help request's instruction line, then the bundled guide.

use super::input::GuideKey;
use serde::{Deserialize, Serialize};

/// The instruction line, word for word.
pub const GUIDE_INSTRUCTION: &str = "The user pressed the in-app help button. Answer from the guide below: start with the few most-used items, keep it short, and offer to go on; do not include links.";

/// `docs/guide/controls.md`, bundled.
pub const CONTROLS_GUIDE: &str = include_str!("../../../../docs/guide/controls.md");

/// `docs/guide/capabilities.md`, bundled.
pub const CAPABILITIES_GUIDE: &str = include_str!("../../../../docs/guide/capabilities.md");

/// The languages the guides are written in (`docs/guide/`, `docs/guide/ja/`,
/// `docs/guide/ko/`): the UI language's is sent, English for any other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GuideLanguage {
    /// English (`docs/guide/`).
    #[default]
    En,
    /// Japanese (`docs/guide/ja/`).
    Ja,
    /// Korean (`docs/guide/ko/`).
    Ko,
}

impl GuideLanguage {
    /// The guides' language for the UI language `tag` (`en`, `ja`, `ko`, …).
    pub fn of(tag: &str) -> Self {
        match tag.trim().to_ascii_lowercase().get(..2) {
            Some("ja") => GuideLanguage::Ja,
            Some("ko") => GuideLanguage::Ko,
            _ => GuideLanguage::En,
        }
    }

    /// True for English (what a record leaves out).
    pub fn is_en(&self) -> bool {
        *self == GuideLanguage::En
    }
}

/// The guide text for a key in `language`; None for an unknown key.
pub fn guide_text(key: GuideKey, language: GuideLanguage) -> Option<&'static str> {
    use GuideLanguage::{En, Ja, Ko};
    match (key, language) {
        (GuideKey::Controls, En) => Some(CONTROLS_GUIDE),
        (GuideKey::Capabilities, En) => Some(CAPABILITIES_GUIDE),
        (GuideKey::Controls, Ja) => Some(include_str!("../../../../docs/guide/ja/controls.md")),
        (GuideKey::Capabilities, Ja) => Some(include_str!("../../../../docs/guide/ja/capabilities.md")),
        (GuideKey::Controls, Ko) => Some(include_str!("../../../../docs/guide/ko/controls.md")),
        (GuideKey::Capabilities, Ko) => Some(include_str!("../../../../docs/guide/ko/capabilities.md")),
        (GuideKey::Other, _) => None,
    }
}

/// The short request a help button sends as the user's message, in the UI
/// language `language` (`en`, `ja`, `ko`; English for any other).
pub fn help_request(key: GuideKey, language: &str) -> &'static str {
    let capabilities = matches!(key, GuideKey::Capabilities);
    match (language, capabilities) {
        ("ja", false) => "使い方を教えて。",
        ("ja", true) => "何ができるの？",
        ("ko", false) => "어떻게 사용하면 돼?",
        ("ko", true) => "뭘 할 수 있어?",
        (_, false) => "How do I use you?",
        (_, true) => "What can you do?",
    }
}

/// `guide:`, the instruction line, a blank line, then the guide's Markdown
/// (its trailing newlines trimmed).
pub(crate) fn lines(key: Option<GuideKey>, language: GuideLanguage) -> Option<String> {
    let text = guide_text(key?, language)?;
    Some(format!("guide:\n{GUIDE_INSTRUCTION}\n\n{}", text.trim_end()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{CLOSE_TAG, OPEN_TAG};

    #[test]
    fn the_help_request_is_short_and_in_the_ui_language() {
        assert_eq!(help_request(GuideKey::Controls, "en"), "How do I use you?");
        assert_eq!(help_request(GuideKey::Capabilities, "fr"), "What can you do?", "English for a language without its own");
        assert_eq!(help_request(GuideKey::Controls, "ja"), "使い方を教えて。");
        assert_eq!(help_request(GuideKey::Capabilities, "ko"), "뭘 할 수 있어?");
    }

    #[test]
    fn the_guide_of_the_ui_language_is_sent_and_english_otherwise() {
        assert_eq!(GuideLanguage::of("ja"), GuideLanguage::Ja);
        assert_eq!(GuideLanguage::of("ko-KR"), GuideLanguage::Ko);
        assert_eq!(GuideLanguage::of("fr"), GuideLanguage::En);
        assert_eq!(guide_text(GuideKey::Controls, GuideLanguage::En), Some(CONTROLS_GUIDE));
        let ja = guide_text(GuideKey::Controls, GuideLanguage::Ja).unwrap();
        let ko = guide_text(GuideKey::Capabilities, GuideLanguage::Ko).unwrap();
        assert!(ja.starts_with("# 操作") && ko.starts_with("# "), "{ja:.20} {ko:.20}");
        assert_ne!(ja, CONTROLS_GUIDE);
        assert_eq!(guide_text(GuideKey::Other, GuideLanguage::Ja), None);
    }

    #[test]
    fn bundled_guides_are_safe_to_embed() {
        let all = [GuideLanguage::En, GuideLanguage::Ja, GuideLanguage::Ko]
            .into_iter()
            .flat_map(|l| [GuideKey::Controls, GuideKey::Capabilities].map(|k| guide_text(k, l).unwrap()));
        for text in all {
            assert!(!text.contains("client_context>"), "a guide must not carry the block's tags");
            assert!(!text.contains(OPEN_TAG) && !text.contains(CLOSE_TAG));
            assert!(!text.contains("http://") && !text.contains("https://") && !text.contains("]("), "no links");
            assert!(text.len() > 200);
        }
    }
}
