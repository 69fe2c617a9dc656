//! The previous-turn record an ending makes (the store that keeps it is
//! `yui_core::outcome`).

use yui_engine::context::{Outcome, PreviousTurn};

/// A record of `outcome` for the utterance `event_name` of turn `turn_id`,
/// recorded at `at_ms`, with what was heard and what was still owed.
pub fn record(outcome: Outcome, event_name: &str, turn_id: &str, at_ms: i64, spoken: &str, owed: &str) -> PreviousTurn {
    let keep = |s: &str| Some(s.trim().to_string()).filter(|s| !s.is_empty() && outcome == Outcome::Interrupted);
    PreviousTurn {
        outcome,
        event_name: Some(event_name.to_string()),
        at: Some(at_ms),
        already_spoken: keep(spoken),
        never_spoken: keep(owed),
        turn_id: Some(turn_id.to_string()),
    }
}
