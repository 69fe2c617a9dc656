//! The `guide:` block: the help request's instruction line, then the bundled guide.

use super::input::GuideKey;

/// The instruction line, word for word.
pub const GUIDE_INSTRUCTION: &str = "The user pressed the in-app help button. Answer from the guide below: start with the few most-used items, keep it short, and offer to go on; do not include links.";

/// `docs/guide/controls.md`, bundled.
pub const CONTROLS_GUIDE: &str = include_str!("../../../../docs/guide/controls.md");

/// `docs/guide/capabilities.md`, bundled.
pub const CAPABILITIES_GUIDE: &str = include_str!("../../../../docs/guide/capabilities.md");

/// The guide text for a key; None for an unknown key.
pub fn guide_text(key: GuideKey) -> Option<&'static str> {
    match key {
        GuideKey::Controls => Some(CONTROLS_GUIDE),
        GuideKey::Capabilities => Some(CAPABILITIES_GUIDE),
        GuideKey::Other => None,
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
pub(crate) fn lines(key: Option<GuideKey>) -> Option<String> {
    let text = guide_text(key?)?;
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
    fn bundled_guides_are_safe_to_embed() {
        for text in [CONTROLS_GUIDE, CAPABILITIES_GUIDE] {
            assert!(!text.contains("client_context>"), "a guide must not carry the block's tags");
            assert!(!text.contains(OPEN_TAG) && !text.contains(CLOSE_TAG));
            assert!(!text.contains("http://") && !text.contains("https://") && !text.contains("]("), "no links");
            assert!(text.len() > 200);
        }
    }
}
