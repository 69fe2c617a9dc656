//! The `previous turn:` line: only for a turn that ended badly.

use super::input::{Outcome, PreviousTurn};
use super::minutes_since;
use super::sanitize::{clean, first_chars, last_chars, quote};

/// How many code points of each spoken part ride in the line.
const SPOKEN_CHARS: usize = 50;

/// `previous turn: the reply to <event> was cut off mid-speech (Nmin ago),
/// already spoken: "…", never spoken: "…"`, or `… failed before speaking (Nmin ago)`.
/// Omitted for `complete` and for an unknown outcome.
pub(crate) fn line(prev: Option<&PreviousTurn>, now_ms: i64) -> Option<String> {
    let prev = prev?;
    let what = match prev.outcome {
        Outcome::Interrupted => "was cut off mid-speech",
        Outcome::Failed => "failed before speaking",
        Outcome::Complete | Outcome::Other => return None,
    };
    let mut s = String::from("previous turn: the reply");
    if let Some(event) = clean(prev.event_name.as_deref()) {
        s.push_str(" to ");
        s.push_str(&event);
    }
    s.push(' ');
    s.push_str(what);
    if let Some(at) = prev.at {
        s.push_str(&format!(" ({}min ago)", minutes_since(now_ms, at)));
    }
    if prev.outcome == Outcome::Interrupted {
        let heard = clean(prev.already_spoken.as_deref()).map(|t| last_chars(&t, SPOKEN_CHARS));
        if let Some(heard) = heard.filter(|t| !t.is_empty()) {
            s.push_str(", already spoken: ");
            s.push_str(&quote(&heard));
        }
        let owed = clean(prev.never_spoken.as_deref()).map(|t| first_chars(&t, SPOKEN_CHARS));
        if let Some(owed) = owed.filter(|t| !t.is_empty()) {
            s.push_str(", never spoken: ");
            s.push_str(&quote(&owed));
        }
    }
    Some(s)
}
