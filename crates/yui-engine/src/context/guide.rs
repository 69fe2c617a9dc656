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
    fn bundled_guides_are_safe_to_embed() {
        for text in [CONTROLS_GUIDE, CAPABILITIES_GUIDE] {
            assert!(!text.contains("client_context>"), "a guide must not carry the block's tags");
            assert!(!text.contains(OPEN_TAG) && !text.contains(CLOSE_TAG));
            assert!(!text.contains("http://") && !text.contains("https://") && !text.contains("]("), "no links");
            assert!(text.len() > 200);
        }
    }
}
