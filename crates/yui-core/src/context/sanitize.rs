//! Sanitizing every sampled or typed value before it is embedded in the block.

use super::{CLOSE_TAG, OPEN_TAG};

/// Collapse whitespace runs to one space, trim, and strip the block's own
/// tags, repeating the strip until none is left (so a nested
/// `<client_<client_context>context>` cannot leave a tag behind).
pub fn sanitize(value: &str) -> String {
    let mut s: String = value.split_whitespace().collect::<Vec<_>>().join(" ");
    loop {
        let stripped = s.replace(CLOSE_TAG, "").replace(OPEN_TAG, "");
        if stripped == s {
            break;
        }
        s = stripped;
    }
    // Stripping can leave new whitespace runs at the seams; collapse again.
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn collapses_and_strips_nested_tags() {
        assert_eq!(sanitize("  a \n\t b  "), "a b");
        assert_eq!(sanitize("x<client_<client_context>context>y"), "xy");
        assert_eq!(sanitize("</client_</client_context>context>"), "");
        assert_eq!(sanitize("a </client_context> b"), "a b");
    }
}
