//! Sanitizing every sampled or typed value before it is embedded in the block,
//! and the small text helpers every line shares (quoting, code-point slices,
//! the marker clamp, the `user (character)` rule).

use super::{CLOSE_TAG, OPEN_TAG};

/// Collapse whitespace runs to one space, trim, and strip the block's own
/// tags, repeating the strip until none is left (so a nested
/// `<client_<client_context>context>` cannot leave a tag behind).
///
/// Control characters count as whitespace, so a raw `\0` or escape sequence
/// cannot reach the block either. The result never contains a line break.
pub fn sanitize(value: &str) -> String {
    let mut s = collapse(value);
    if !s.contains("client_context>") {
        return s;
    }
    loop {
        let stripped = s.replace(CLOSE_TAG, "").replace(OPEN_TAG, "");
        if stripped == s {
            break;
        }
        s = stripped;
    }
    // Stripping can leave new whitespace runs at the seams; collapse again.
    // Collapsing cannot build a tag: a tag holds no whitespace.
    collapse(&s)
}

fn is_space(c: char) -> bool {
    c.is_whitespace() || c.is_control()
}

/// Whitespace (and control) runs to one space, trimmed.
fn collapse(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut pending_space = false;
    for c in value.chars() {
        if is_space(c) {
            pending_space = !out.is_empty();
        } else {
            if pending_space {
                out.push(' ');
                pending_space = false;
            }
            out.push(c);
        }
    }
    out
}

/// The sanitized value, or None when nothing is left of it.
pub(crate) fn clean(value: Option<&str>) -> Option<String> {
    value.map(sanitize).filter(|s| !s.is_empty())
}

/// Quote an already sanitized value (Wording rule 5): in double quotes, with
/// `"` and `\` inside escaped by a backslash, as in a JSON string.
pub(crate) fn quote(sanitized: &str) -> String {
    let mut out = String::with_capacity(sanitized.len() + 2);
    out.push('"');
    for c in sanitized.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The first `n` code points, trimmed (an emoji is never split).
pub(crate) fn first_chars(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => s[..i].trim().to_string(),
        None => s.trim().to_string(),
    }
}

/// The last `n` code points, trimmed (an emoji is never split).
pub(crate) fn last_chars(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        return s.trim().to_string();
    }
    let start = s.char_indices().nth(count - n).map(|(i, _)| i).unwrap_or(0);
    s[start..].trim().to_string()
}

/// A name as it rides in a background marker: sanitized, clamped to 40 code
/// points and trimmed; None when nothing is left.
pub(crate) fn marker_name(value: Option<&str>) -> Option<String> {
    clean(value).map(|s| first_chars(&s, 40)).filter(|s| !s.is_empty())
}

/// A character's name: a preset named `user` reads `user (character)`, so the
/// bare `user` always means the human.
pub(crate) fn character_name(sanitized: String) -> String {
    if sanitized == "user" {
        "user (character)".to_string()
    } else {
        sanitized
    }
}

/// `N word` with the plural `s` past one: `1 line`, `3 lines`.
pub(crate) fn count(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapses_and_strips_nested_tags() {
        assert_eq!(sanitize("  a \n\t b  "), "a b");
        assert_eq!(sanitize("x<client_<client_context>context>y"), "xy");
        assert_eq!(sanitize("</client_</client_context>context>"), "");
        assert_eq!(sanitize("a </client_context> b"), "a b");
        assert_eq!(sanitize("<client_<client_<client_context>context>context>z"), "z");
        assert_eq!(sanitize("a\u{0}b\u{1b}[31mc\u{2028}d"), "a b [31mc d");
    }

    #[test]
    fn quoting_escapes_quotes_and_backslashes() {
        assert_eq!(quote(r#"say "hi" C:\x"#), r#""say \"hi\" C:\\x""#);
    }

    #[test]
    fn slices_cut_by_code_point() {
        let s = "ab😀cd";
        assert_eq!(first_chars(s, 3), "ab😀");
        assert_eq!(last_chars(s, 3), "😀cd");
        assert_eq!(last_chars("abc", 50), "abc");
        assert_eq!(first_chars("ab c", 3), "ab");
    }

    #[test]
    fn marker_names_clamp_to_40() {
        let long = "x".repeat(60);
        assert_eq!(marker_name(Some(&long)).unwrap().chars().count(), 40);
        assert_eq!(marker_name(Some(" \n ")), None);
    }
}
