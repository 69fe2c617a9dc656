//! The `overheard:` blocks: what other open characters exchanged with the user.

use super::input::{Overheard, Role};
use super::minutes_since;
use super::sanitize::{character_name, clean, count, quote};

/// Most lines one block carries: the newest.
const MAX_LINES: usize = crate::limits::OVERHEARD_LINES;

/// One block per preset with a line to tell: a header, then each entry
/// indented two spaces, oldest first, quoted.
pub(crate) fn lines(blocks: &[Overheard], now_ms: i64) -> Vec<String> {
    let mut out = Vec::new();
    for block in blocks {
        let name =
            clean(block.name.as_deref()).or_else(|| clean(block.preset.as_deref())).map(character_name).unwrap_or_else(|| "another character".to_string());
        let entries: Vec<(&str, String, Option<i64>)> = block
            .entries
            .iter()
            .filter_map(|e| {
                let speaker = match e.role {
                    Role::User => "user",
                    Role::Assistant => name.as_str(),
                    Role::Other => return None,
                };
                clean(Some(&e.text)).map(|t| (speaker, t, e.ts))
            })
            .collect();
        if entries.is_empty() {
            continue;
        }
        let kept = &entries[entries.len().saturating_sub(MAX_LINES)..];
        let mut header = format!("overheard: {name} ↔ user, {}", count(kept.len(), "line"));
        if let Some(newest) = kept.iter().filter_map(|(_, _, ts)| *ts).max() {
            header.push_str(&format!(" ({}min ago)", minutes_since(now_ms, newest)));
        }
        out.push(header);
        for (speaker, text, _) in kept {
            out.push(format!("  {speaker}: {}", quote(text)));
        }
    }
    out
}
