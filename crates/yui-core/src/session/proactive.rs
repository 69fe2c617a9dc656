//! The character's own initiative in the session: screen transitions, the
//! schedule and idle cues, and the day's first-activity milestone, each
//! asked in turn when the session may start a turn nobody typed. The rules
//! are the pure modules' (`triggers::{screen, cues, milestone, pacing}`);
//! this holds their state and reads the local clock for them.

use crate::context::Trigger;
use crate::settings::ReactionsSettings;
use crate::triggers::cues::{CueConfig, IdleCues, Schedule};
use crate::triggers::milestone::MilestoneLatch;
use crate::triggers::pacing::Source;
use crate::triggers::screen::{ScreenSettings, ScreenWatch};
use crate::triggers::Inbox;
use crate::world::PresenceChange;
use std::path::PathBuf;

/// The local calendar at one moment, as the cues and the milestone read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalTime {
    /// `YYYY-MM-DD`.
    pub day: String,
    /// Minutes since local midnight.
    pub minutes: u32,
    /// `HH:MM`.
    pub hhmm: String,
}

impl LocalTime {
    /// The local calendar at `now_ms` in this machine's zone.
    pub fn at(now_ms: i64) -> LocalTime {
        use chrono::{TimeZone, Timelike};
        let t = chrono::Local.timestamp_millis_opt(now_ms).single().unwrap_or_else(chrono::Local::now);
        LocalTime { day: t.format("%Y-%m-%d").to_string(), minutes: t.hour() * 60 + t.minute(), hhmm: t.format("%H:%M").to_string() }
    }
}

/// See the module doc.
pub struct Proactive {
    screen: ScreenWatch,
    schedule: Schedule,
    idle: IdleCues,
    latch: Option<MilestoneLatch>,
    /// When the last turn (anyone's) started: the idle cues count from it.
    last_turn_ms: i64,
}

impl Proactive {
    /// The state at session start: cues from `cues`, the milestone latch
    /// kept at `latch_path` (none: the milestone never fires), `now_ms`.
    pub fn new(cues: &CueConfig, latch_path: Option<PathBuf>, now_ms: i64) -> Self {
        let latch = latch_path.and_then(|p| MilestoneLatch::load(&p).map_err(|e| tracing::warn!(record = "milestone_latch_unreadable", error = %e)).ok());
        Self { screen: ScreenWatch::new(ScreenSettings::default()), schedule: Schedule::new(cues), idle: IdleCues::new(cues), latch, last_turn_ms: now_ms }
    }

    /// A world reading: the frontmost app (None: cleared or unknown) and
    /// the presence edge it crossed.
    pub fn observe(&mut self, app: Option<&str>, change: Option<PresenceChange>, now_ms: i64, settings: &ReactionsSettings) {
        self.screen.set_enabled(settings.screen_transitions && settings.frontmost);
        match change {
            Some(PresenceChange::Left) => self.screen.presence_lapse(),
            Some(PresenceChange::Returned { .. }) => {
                self.idle.new_session();
                self.last_turn_ms = now_ms;
            }
            None => {}
        }
        self.screen.observe(app, now_ms);
    }

    /// A turn started (anyone's): the idle clock restarts.
    pub fn turn_started(&mut self, now_ms: i64) {
        self.last_turn_ms = now_ms;
    }

    /// The next turn of her own that is due, with its pacing source, if
    /// any. `present`: the user is; `ticked`: the presence came from the
    /// OS idle time (the milestone fires only on such an `os_idle_tick`,
    /// never on presence merely assumed); `open(source)`: the pacer and the engine
    /// let a turn of that source start now. The milestone drains the
    /// inbox's signals. Asked in order: the milestone, the schedule, screen
    /// transitions, idle cues.
    #[allow(clippy::too_many_arguments)]
    pub fn next(&mut self, now_ms: i64, local: &LocalTime, present: bool, ticked: bool, open: impl Fn(Source) -> bool, inbox: &mut Inbox, settings: &ReactionsSettings) -> Option<(Trigger, Source)> {
        if !present {
            return None;
        }
        if open(Source::Asked) {
            if let Some(latch) = self.latch.as_mut().filter(|l| ticked && l.due(&local.day, present, settings.schedule)) {
                let trigger = latch.fire(&local.day, &local.hhmm, inbox.drain());
                if let Err(e) = latch.save() {
                    tracing::warn!(record = "milestone_latch_unwritable", error = %e);
                }
                return Some((trigger, Source::Asked));
            }
            if settings.schedule {
                if let Some(t) = self.schedule.poll(&local.day, local.minutes) {
                    return Some((t, Source::Asked));
                }
            }
        }
        let proactive = open(Source::Proactive);
        if let Some(t) = self.screen.poll(now_ms, proactive) {
            return Some((t, Source::Proactive));
        }
        if proactive && settings.idle_cues {
            let idle_min = (now_ms - self.last_turn_ms).max(0) / 60_000;
            if let Some(t) = self.idle.poll(idle_min) {
                return Some((t, Source::Proactive));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(day: &str, minutes: u32) -> LocalTime {
        LocalTime { day: day.into(), minutes, hhmm: format!("{:02}:{:02}", minutes / 60, minutes % 60) }
    }

    #[test]
    fn the_milestone_fires_first_once_a_day_and_drains_the_signals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("milestone-fired");
        let settings = ReactionsSettings::default();
        let mut p = Proactive::new(&CueConfig::shipped(), Some(path.clone()), 0);
        let mut inbox = Inbox::new();
        inbox.arrive(crate::triggers::Arrival::Signals { group: crate::context::SignalGroup { envelope: None, items: vec![serde_json::json!(1)] }, received_ms: 0 }, 0);
        assert!(p.next(0, &local("2026-12-01", 8 * 60), false, true, |_| true, &mut inbox, &settings).is_none(), "nothing while away");
        assert!(p.next(0, &local("2026-12-01", 8 * 60), true, false, |_| true, &mut inbox, &settings).is_none(), "presence only assumed: no os_idle_tick");
        let (t, source) = p.next(0, &local("2026-12-01", 8 * 60 + 12), true, true, |_| true, &mut inbox, &settings).expect("the day's first activity");
        assert_eq!(source, Source::Asked);
        assert_eq!(t.event_name.as_deref(), Some("time_milestone.first_activity"));
        assert_eq!(t.milestone.as_ref().and_then(|m| m.fired_at.as_deref()), Some("08:12"));
        assert_eq!(t.signals.as_ref().map(Vec::len), Some(1), "the waiting signal rides along");
        assert!(inbox.is_empty());
        // A restart the same day fires nothing; the next day fires again.
        let mut again = Proactive::new(&CueConfig::shipped(), Some(path), 0);
        assert!(again.next(0, &local("2026-12-01", 9 * 60), true, true, |_| true, &mut inbox, &settings).is_none());
        assert!(again.next(0, &local("2026-12-02", 9 * 60), true, true, |_| true, &mut inbox, &settings).is_some());
    }

    #[test]
    fn the_shipped_idle_cue_waits_an_hour_after_the_last_turn_and_the_pacer() {
        let settings = ReactionsSettings::default();
        let mut p = Proactive::new(&CueConfig::shipped(), None, 0);
        let mut inbox = Inbox::new();
        let day = local("2026-12-01", 600);
        assert!(p.next(59 * 60_000, &day, true, true, |_| true, &mut inbox, &settings).is_none());
        assert!(p.next(60 * 60_000, &day, true, true, |s| s == Source::Asked, &mut inbox, &settings).is_none(), "the pacer holds her own initiative");
        let (t, source) = p.next(60 * 60_000, &day, true, true, |_| true, &mut inbox, &settings).expect("the focus-break cue");
        assert_eq!(source, Source::Proactive);
        assert_eq!(t.idle_elapsed_min, Some(60));
        assert!(p.next(200 * 60_000, &day, true, true, |_| true, &mut inbox, &settings).is_none(), "once per session");
        p.observe(None, Some(PresenceChange::Returned { away_ms: 1 }), 300 * 60_000, &settings);
        assert!(p.next(359 * 60_000, &day, true, true, |_| true, &mut inbox, &settings).is_none(), "a new session counts from the return");
        assert!(p.next(360 * 60_000, &day, true, true, |_| true, &mut inbox, &settings).is_some());
    }

    #[test]
    fn switches_off_are_off() {
        let settings = ReactionsSettings { idle_cues: false, schedule: false, ..ReactionsSettings::default() };
        let dir = tempfile::tempdir().unwrap();
        let mut p = Proactive::new(&CueConfig::shipped(), Some(dir.path().join("m")), 0);
        let mut inbox = Inbox::new();
        assert!(p.next(600 * 60_000, &local("2026-12-01", 600), true, true, |_| true, &mut inbox, &settings).is_none(), "no milestone without the schedule switch, no idle cue");
    }
}
