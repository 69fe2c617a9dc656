//! The signals headline and the `signal` lines.

use super::input::{SignalEnvelope, SignalGroup};
use super::sanitize::{count, sanitize};

/// `trigger: signals (N signals)`, counting items across every group;
/// `trigger: signals` when the turn carries no group at all.
pub(crate) fn headline(groups: Option<&[SignalGroup]>) -> String {
    match groups {
        Some(groups) if !groups.is_empty() => {
            let n: usize = groups.iter().map(|g| g.items.len()).sum();
            format!("trigger: signals ({})", count(n, "signal"))
        }
        _ => "trigger: signals".to_string(),
    }
}

/// One line per item, groups in arrival order:
/// `signal [<source>/<event_type> @<UTC time>, id <event_id>]: <compact JSON>`.
/// A legacy group (no envelope, or an envelope with nothing to say) drops the
/// bracket: `signal: <JSON>`. A group with no items renders one `(no payload)` line.
pub(crate) fn lines(groups: &[SignalGroup], out: &mut Vec<String>) {
    for group in groups {
        let prefix = match group.envelope.as_ref().map(bracket).filter(|b| !b.is_empty()) {
            Some(b) => format!("signal [{b}]: "),
            None => "signal: ".to_string(),
        };
        if group.items.is_empty() {
            out.push(format!("{prefix}(no payload)"));
        }
        for item in &group.items {
            // Compact JSON escapes every line break inside a string; the
            // sanitizer still strips the block's tags and odd whitespace.
            let json = serde_json::to_string(item).unwrap_or_default();
            out.push(format!("{prefix}{}", sanitize(&json)));
        }
    }
}

/// `github/push @2026-08-23T01:36:40.000Z, id delivery-42`, each part left
/// out when absent.
fn bracket(e: &SignalEnvelope) -> String {
    let kind = [e.source.as_deref(), e.event_type.as_deref()].into_iter().flatten().map(sanitize).filter(|s| !s.is_empty()).collect::<Vec<_>>().join("/");
    let mut parts: Vec<String> = Vec::with_capacity(2);
    let mut head = kind;
    if let Some(at) = e.occurred_at.and_then(utc) {
        if !head.is_empty() {
            head.push(' ');
        }
        head.push('@');
        head.push_str(&at);
    }
    if !head.is_empty() {
        parts.push(head);
    }
    if let Some(id) = e.event_id.as_deref().map(sanitize).filter(|s| !s.is_empty()) {
        parts.push(format!("id {id}"));
    }
    parts.join(", ")
}

/// Epoch ms as `2026-08-23T01:36:40.000Z`; None outside chrono's range.
fn utc(ms: i64) -> Option<String> {
    chrono::DateTime::from_timestamp_millis(ms).map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn utc_format_and_range() {
        assert_eq!(utc(1787449000000).as_deref(), Some("2026-08-23T01:36:40.000Z"));
        assert_eq!(utc(i64::MAX), None);
    }
}
