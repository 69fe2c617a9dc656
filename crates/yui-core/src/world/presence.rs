//! Presence: the user is present while their idle time (since the last
//! keyboard or pointer input) is under the configured limit. Pure: the
//! caller passes the idle time and the clock.
//!
//! An unknown idle time (a system that cannot tell, or a broken display
//! connection) counts as present, so a platform without an idle source
//! never holds turns back as if the user were away.

/// True when the user counts as present: idle time under `limit_ms`, or
/// unknown.
pub fn present(idle_ms: Option<u64>, limit_ms: u64) -> bool {
    idle_ms.is_none_or(|idle| idle < limit_ms)
}

/// A presence edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PresenceChange {
    /// The user's idle time reached the limit: they are away.
    Left,
    /// The user is back after `away_ms`: from their last input before they
    /// left to their first input since (as far as the idle times tell).
    Returned {
        /// How long the user was away, in ms.
        away_ms: u64,
    },
}

/// Turns a stream of idle readings into [`PresenceChange`] edges. Starts
/// present (the user just started YUI).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PresenceEdges {
    /// The epoch ms of the last input before the user left; `Some` while away.
    away_since: Option<i64>,
}

impl PresenceEdges {
    /// A detector that starts present.
    pub fn new() -> Self {
        Self::default()
    }

    /// True while the last reading found the user present.
    pub fn is_present(&self) -> bool {
        self.away_since.is_none()
    }

    /// Epoch ms of the user's last input before they left, while away.
    pub fn away_since(&self) -> Option<i64> {
        self.away_since
    }

    /// Feed the idle time read at `now_ms`; answers the edge it crosses, if any.
    pub fn update(&mut self, idle_ms: Option<u64>, limit_ms: u64, now_ms: i64) -> Option<PresenceChange> {
        let last_input = now_ms.saturating_sub(idle_ms.unwrap_or(0).min(i64::MAX as u64) as i64);
        match (self.away_since, present(idle_ms, limit_ms)) {
            (None, false) => {
                self.away_since = Some(last_input);
                Some(PresenceChange::Left)
            }
            (Some(since), true) => {
                self.away_since = None;
                Some(PresenceChange::Returned { away_ms: last_input.saturating_sub(since).max(0) as u64 })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;

    #[test]
    fn present_under_the_limit_or_unknown() {
        assert!(present(None, MIN));
        assert!(present(Some(0), MIN));
        assert!(present(Some(MIN - 1), MIN));
        assert!(!present(Some(MIN), MIN));
        assert!(!present(Some(10 * MIN), MIN));
    }

    #[test]
    fn edges_leave_and_return_once_each() {
        let limit = 5 * MIN;
        let mut p = PresenceEdges::new();
        assert!(p.is_present());
        assert_eq!(p.update(Some(1_000), limit, 1_000_000), None);
        assert_eq!(p.update(Some(4 * MIN), limit, 1_000_000 + 4 * MIN as i64), None);
        // Last input at 1_000_000; idle reaches the limit five minutes later.
        assert_eq!(p.update(Some(5 * MIN), limit, 1_000_000 + 5 * MIN as i64), Some(PresenceChange::Left));
        assert!(!p.is_present());
        assert_eq!(p.away_since(), Some(1_000_000));
        assert_eq!(p.update(Some(20 * MIN), limit, 1_000_000 + 20 * MIN as i64), None, "still away: no edge");
        // Input 2 s before this reading, 30 minutes after the last one.
        let now = 1_000_000 + 30 * MIN as i64 + 2_000;
        assert_eq!(p.update(Some(2_000), limit, now), Some(PresenceChange::Returned { away_ms: 30 * MIN }));
        assert!(p.is_present());
        assert_eq!(p.update(Some(0), limit, now + 1_000), None);
    }

    #[test]
    fn unknown_idle_counts_as_a_return() {
        let mut p = PresenceEdges::new();
        assert_eq!(p.update(None, MIN, 0), None);
        assert_eq!(p.update(Some(2 * MIN), MIN, 10 * MIN as i64), Some(PresenceChange::Left));
        assert_eq!(p.update(None, MIN, 20 * MIN as i64), Some(PresenceChange::Returned { away_ms: 12 * MIN }));
    }
}
