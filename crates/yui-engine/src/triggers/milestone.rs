//! The daily milestone `first_activity` (`docs/triggers.md`, "The
//! first-activity milestone" and "Wake and the bed scene").
//!
//! It fires once per local day, on the first presence tick that finds the
//! user present with the schedule setting on. The day key it fired on is
//! latched in a small file ([`FILE_NAME`] in the data directory), so a
//! same-day restart fires nothing and an app left running overnight fires
//! again on the first present tick after midnight. The inbox's buffered
//! signal groups drain into the turn ([`Inbox::drain`](super::Inbox::drain)).
//!
//! Pure but for [`MilestoneLatch::load`] and [`MilestoneLatch::save`]: the
//! caller passes the local day key (e.g. `2026-06-15`) and clock (`HH:MM`).
//! While the character is on the bed the caller holds the milestone back;
//! a wake turn that finds it [`due`](MilestoneLatch::due) carries it
//! instead (it sets the returned trigger's `wake`).

use std::path::{Path, PathBuf};

use crate::context::{Milestone, SignalGroup, Trigger, TriggerKind};

/// The latch file's name in the data directory.
pub const FILE_NAME: &str = "milestone-fired";
/// The milestone's name (`trigger: milestone first_activity`).
pub const NAME: &str = "first_activity";
/// Its event name (the marker `(I've just started my day)`).
pub const EVENT_NAME: &str = "time_milestone.first_activity";

/// The longest day key the file may hold; anything else reads as no latch.
const DAY_KEY_CHARS: usize = 64;

/// The latch file could not be read or written (the message is the
/// storage error's: `storage error at <path>: <cause>`).
#[derive(Debug, thiserror::Error)]
#[error("storage error at {path}: {source}")]
pub struct MilestoneError {
    /// The latch file.
    pub path: PathBuf,
    /// The underlying I/O error.
    #[source]
    pub source: std::io::Error,
}

/// The day `first_activity` last fired on, and the file that keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct MilestoneLatch {
    /// The latch file.
    path: PathBuf,
    /// The latched day key.
    day: Option<String>,
}

impl MilestoneLatch {
    /// Read the latch at `path` (usually `<data dir>/`[`FILE_NAME`]). A
    /// missing file, or one holding no day key, is a latch that never fired;
    /// an unreadable file is an error.
    pub fn load(path: &Path) -> Result<MilestoneLatch, MilestoneError> {
        let day = match std::fs::read_to_string(path) {
            Ok(text) => {
                let day = text.trim();
                (!day.is_empty() && !day.contains(char::is_whitespace) && day.chars().count() <= DAY_KEY_CHARS).then(|| day.to_string())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => return Err(MilestoneError { path: path.to_path_buf(), source }),
        };
        Ok(MilestoneLatch { path: path.to_path_buf(), day })
    }

    /// Write the latched day key (nothing when none is latched), through a
    /// temporary file so a crash leaves the old key or the new one.
    pub fn save(&self) -> Result<(), MilestoneError> {
        let Some(day) = &self.day else { return Ok(()) };
        let tmp = self.path.with_extension("tmp");
        std::fs::write(&tmp, format!("{day}\n"))
            .and_then(|()| std::fs::rename(&tmp, &self.path))
            .map_err(|source| MilestoneError { path: self.path.clone(), source })
    }

    /// The latched day key, if any.
    pub fn day(&self) -> Option<&str> {
        self.day.as_deref()
    }

    /// The milestone is owed: the user is present, the schedule setting is
    /// on, and it has not fired on `day`.
    pub fn due(&self, day: &str, present: bool, schedule_enabled: bool) -> bool {
        present && schedule_enabled && self.day.as_deref() != Some(day)
    }

    /// Fire it: latch `day` (the caller then [`save`](Self::save)s) and
    /// return the `milestone` trigger, `fired_at` the local `HH:MM`, the
    /// drained signal groups (when any) riding along.
    pub fn fire(&mut self, day: &str, local_hhmm: &str, drained: Option<Vec<SignalGroup>>) -> Trigger {
        self.day = Some(day.to_string());
        let mut t = Trigger::new(TriggerKind::Milestone, Some(EVENT_NAME.to_string()));
        t.milestone = Some(Milestone { name: Some(NAME.to_string()), fired_at: Some(local_hhmm.to_string()) });
        t.signals = drained.filter(|g| !g.is_empty());
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{Wake, WakeCause};

    use crate::triggers::rendered;

    fn reminder() -> SignalGroup {
        serde_json::from_str(
            r#"{"envelope":{"source":"calendar","event_type":"reminder","event_id":"reminder-118",
                "occurred_at":1789165800000},"items":[{"title":"standup","at":"09:30"}]}"#,
        )
        .unwrap()
    }

    #[test]
    fn latched_across_a_restart_and_due_again_the_next_day() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let mut latch = MilestoneLatch::load(&path).unwrap();
        assert_eq!(latch.day(), None);
        assert!(!latch.due("2026-06-15", false, true));
        assert!(!latch.due("2026-06-15", true, false));
        assert!(latch.due("2026-06-15", true, true));
        let t = latch.fire("2026-06-15", "08:12", None);
        assert_eq!(t.kind, TriggerKind::Milestone);
        assert_eq!(t.signals, None);
        assert!(!latch.due("2026-06-15", true, true));
        latch.save().unwrap();

        // Restart the same day: nothing.
        let latch = MilestoneLatch::load(&path).unwrap();
        assert_eq!(latch.day(), Some("2026-06-15"));
        assert!(!latch.due("2026-06-15", true, true));
        // Overnight: owed again.
        assert!(latch.due("2026-06-16", true, true));
    }

    #[test]
    fn an_unusable_file_is_no_latch_and_an_unreadable_one_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, "  \n").unwrap();
        assert!(MilestoneLatch::load(&path).unwrap().due("2026-06-15", true, true));
        std::fs::write(&path, "two words").unwrap();
        assert_eq!(MilestoneLatch::load(&path).unwrap().day(), None);
        assert!(MilestoneLatch::load(dir.path()).is_err());
        // Saving with nothing latched writes nothing.
        let fresh = MilestoneLatch::load(&dir.path().join("other")).unwrap();
        fresh.save().unwrap();
        assert!(!dir.path().join("other").exists());
    }

    #[test]
    fn renders_the_seed_milestone_with_drained_signals() {
        let dir = tempfile::tempdir().unwrap();
        let mut latch = MilestoneLatch::load(&dir.path().join(FILE_NAME)).unwrap();
        let t = latch.fire("2026-06-15", "08:12", Some(vec![reminder()]));
        assert_eq!(t.event_name.as_deref(), Some("time_milestone.first_activity"));
        let (lines, marker) = rendered(t.clone());
        assert_eq!(
            lines,
            [
                "trigger: milestone first_activity (fired at 08:12)",
                "signal [calendar/reminder @2026-09-11T22:30:00.000Z, id reminder-118]: {\"title\":\"standup\",\"at\":\"09:30\"}",
            ]
        );
        assert_eq!(marker, "(I've just started my day)");

        // The wake turn that carries it.
        let mut wake = latch.fire("2026-06-16", "08:12", Some(Vec::new()));
        assert_eq!(wake.signals, None);
        wake.wake = Some(Wake { cause: Some(WakeCause::Timeout) });
        let (lines, _) = rendered(wake);
        assert_eq!(lines, ["trigger: milestone first_activity (fired at 08:12)", "wake: the character just woke from the bed, woken by the wake timeout",]);
    }
}
