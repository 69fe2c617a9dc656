//! The character's own initiative in the session: screen transitions, the
//! schedule and idle cues, and the day's first-activity milestone, each
//! asked in turn when the session may start a turn nobody typed. The rules
//! are the pure modules' (`triggers::{screen, cues, milestone, pacing}`);
//! this holds their state and reads the local clock for them.

use crate::command::Touch;
use crate::context::{Trigger, Wake, WakeCause};
use crate::settings::ReactionsSettings;
use crate::triggers::cues::{touch_trigger, CueConfig, IdleCues, Schedule, Taps, TouchKind};
use crate::triggers::milestone::{self, MilestoneLatch};
use crate::triggers::pacing::{Hold, Source};
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

/// What [`Proactive::next`] found.
#[derive(Debug, Clone, PartialEq)]
pub enum Due {
    /// Fire this turn now; the pacer hears it as `source`.
    Fire(Box<Trigger>, Source),
    /// A turn named `event` was due and the pacer held it (a held screen
    /// switch went into `recent switches`; a cue waits for the next poll).
    Held {
        /// The held turn's event name.
        event: String,
        /// Why.
        hold: Hold,
    },
}

/// See the module doc.
pub struct Proactive {
    screen: ScreenWatch,
    schedule: Schedule,
    idle: IdleCues,
    latch: Option<MilestoneLatch>,
    /// When the last turn (anyone's) started: the idle cues count from it.
    last_turn_ms: i64,
    /// The cue config (touch cues read their labels and contexts from it).
    cues: CueConfig,
    /// Pokes, for `tap_bored`.
    taps: Taps,
}

impl Proactive {
    /// The state at session start: cues from `cues`, the milestone latch
    /// kept at `latch_path` (none: the milestone never fires), `now_ms`.
    pub fn new(cues: &CueConfig, latch_path: Option<PathBuf>, now_ms: i64) -> Self {
        let latch = latch_path.and_then(|p| MilestoneLatch::load(&p).map_err(|e| tracing::warn!(record = "milestone_latch_unreadable", error = %e)).ok());
        Self {
            screen: ScreenWatch::new(ScreenSettings::default()),
            schedule: Schedule::new(cues),
            idle: IdleCues::new(cues),
            latch,
            last_turn_ms: now_ms,
            cues: cues.clone(),
            taps: Taps::new(),
        }
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

    /// The next turn of her own that is due, if any. `present`: the user
    /// is; `ticked`: the presence came from the OS idle time (the milestone
    /// fires only on such an `os_idle_tick`, never on presence merely
    /// assumed); `check(source)`: whether the pacer and the engine let a
    /// turn of that source start now. The milestone drains the inbox's
    /// signals. Asked in order: the milestone, the schedule, screen
    /// transitions, idle cues; the first one due answers, fired or held.
    #[allow(clippy::too_many_arguments)]
    pub fn next(
        &mut self,
        now_ms: i64,
        local: &LocalTime,
        present: bool,
        ticked: bool,
        check: impl Fn(Source) -> Result<(), Hold>,
        inbox: &mut Inbox,
        settings: &ReactionsSettings,
    ) -> Option<Due> {
        if !present {
            return None;
        }
        if ticked && self.milestone_owed(local, settings) {
            if let Err(hold) = check(Source::Asked) {
                return Some(Due::Held { event: milestone::EVENT_NAME.to_string(), hold });
            }
            return Some(Due::Fire(Box::new(self.fire_milestone(local, inbox)), Source::Asked));
        }
        if settings.schedule {
            if let Some(event) = self.schedule.due(&local.day, local.minutes) {
                if let Err(hold) = check(Source::Cue) {
                    return Some(Due::Held { event, hold });
                }
                return self.schedule.poll(&local.day, local.minutes).map(|t| Due::Fire(Box::new(t), Source::Cue));
            }
        }
        if let Some(event) = self.screen.due(now_ms) {
            let open = check(Source::Screen);
            let fired = self.screen.poll(now_ms, open.is_ok());
            return match (fired, open) {
                (Some(t), _) => Some(Due::Fire(Box::new(t), Source::Screen)),
                (None, Err(hold)) => Some(Due::Held { event: event.to_string(), hold }),
                (None, Ok(())) => None,
            };
        }
        if settings.idle_cues {
            let idle_min = (now_ms - self.last_turn_ms).max(0) / 60_000;
            if let Some(event) = self.idle.due(idle_min) {
                if let Err(hold) = check(Source::Cue) {
                    return Some(Due::Held { event, hold });
                }
                return self.idle.poll(idle_min).map(|t| Due::Fire(Box::new(t), Source::Cue));
            }
        }
        None
    }

    /// True when the day's first-activity milestone is still owed (the
    /// schedule setting on, not fired on `local`'s day).
    pub fn milestone_owed(&self, local: &LocalTime, settings: &ReactionsSettings) -> bool {
        self.latch.as_ref().is_some_and(|l| l.due(&local.day, true, settings.schedule))
    }

    /// Fire the milestone now: latched and saved, the inbox's signals drained
    /// into it.
    fn fire_milestone(&mut self, local: &LocalTime, inbox: &mut Inbox) -> Trigger {
        let Some(latch) = self.latch.as_mut() else { return Trigger::new(crate::context::TriggerKind::Milestone, Some(milestone::EVENT_NAME.to_string())) };
        let trigger = latch.fire(&local.day, &local.hhmm, inbox.drain());
        if let Err(e) = latch.save() {
            tracing::warn!(record = "milestone_latch_unwritable", error = %e);
        }
        trigger
    }

    /// The turn that reports a wake by a click or the timeout (`docs/triggers.md`,
    /// "Wake and the bed scene"): `proactive.wake` with its cause, or, when the day's
    /// milestone is still owed, the milestone riding it (latched, the
    /// signals drained).
    pub fn wake(&mut self, cause: WakeCause, local: &LocalTime, inbox: &mut Inbox, settings: &ReactionsSettings) -> Trigger {
        let mut trigger = if self.milestone_owed(local, settings) {
            self.fire_milestone(local, inbox)
        } else {
            Trigger::new(crate::context::TriggerKind::Proactive, Some("proactive.wake".to_string()))
        };
        trigger.wake = Some(Wake { cause: Some(cause) });
        trigger
    }

    /// A touch on the pet window at `now_ms`: the touch cue it makes, if
    /// any (a poke's streak makes one on its first tap and `tap_bored` on
    /// the fourth within 3 s; a head pat one each; a click on an empty bed
    /// none).
    pub fn touch(&mut self, touch: &Touch, now_ms: i64) -> Option<Trigger> {
        match touch {
            Touch::Poke { region } => self.taps.tap(now_ms, region, &self.cues),
            Touch::HeadPat => Some(touch_trigger(&TouchKind::HeadPat, &self.cues)),
            Touch::Bed => None,
        }
    }

    /// The cue of something the user did with her body (`drag_held`,
    /// `window_sit`, `peek`, `dropped`), with the user's context.
    pub fn body_cue(&self, kind: &TouchKind) -> Trigger {
        touch_trigger(kind, &self.cues)
    }

    /// The touch cue [`Proactive::touch`] made was dropped (she was busy or
    /// the debounce held it): a poke's streak makes its cue again on the next
    /// tap.
    pub fn touch_dropped(&mut self) {
        self.taps.unanswered();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(day: &str, minutes: u32) -> LocalTime {
        LocalTime { day: day.into(), minutes, hhmm: format!("{:02}:{:02}", minutes / 60, minutes % 60) }
    }

    fn fired(due: Option<Due>) -> Option<(Trigger, Source)> {
        match due {
            Some(Due::Fire(t, s)) => Some((*t, s)),
            _ => None,
        }
    }

    #[test]
    fn the_milestone_fires_first_once_a_day_and_drains_the_signals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("milestone-fired");
        let settings = ReactionsSettings::default();
        let mut p = Proactive::new(&CueConfig::shipped(), Some(path.clone()), 0);
        let mut inbox = Inbox::new();
        inbox.arrive(
            crate::triggers::Arrival::Signals { group: crate::context::SignalGroup { envelope: None, items: vec![serde_json::json!(1)] }, received_ms: 0 },
            0,
        );
        assert!(p.next(0, &local("2026-12-01", 8 * 60), false, true, |_| Ok(()), &mut inbox, &settings).is_none(), "nothing while away");
        assert!(p.next(0, &local("2026-12-01", 8 * 60), true, false, |_| Ok(()), &mut inbox, &settings).is_none(), "presence only assumed: no os_idle_tick");
        let (t, source) = fired(p.next(0, &local("2026-12-01", 8 * 60 + 12), true, true, |_| Ok(()), &mut inbox, &settings)).expect("the day's first activity");
        assert_eq!(source, Source::Asked);
        assert_eq!(t.event_name.as_deref(), Some("time_milestone.first_activity"));
        assert_eq!(t.milestone.as_ref().and_then(|m| m.fired_at.as_deref()), Some("08:12"));
        assert_eq!(t.signals.as_ref().map(Vec::len), Some(1), "the waiting signal rides along");
        assert!(inbox.is_empty());
        // A restart the same day fires nothing; the next day fires again.
        let mut again = Proactive::new(&CueConfig::shipped(), Some(path), 0);
        assert!(again.next(0, &local("2026-12-01", 9 * 60), true, true, |_| Ok(()), &mut inbox, &settings).is_none());
        assert!(again.next(0, &local("2026-12-02", 9 * 60), true, true, |_| Ok(()), &mut inbox, &settings).is_some());
    }

    #[test]
    fn the_shipped_idle_cue_waits_an_hour_after_the_last_turn_and_the_pacer() {
        let settings = ReactionsSettings::default();
        let mut p = Proactive::new(&CueConfig::shipped(), None, 0);
        let mut inbox = Inbox::new();
        let day = local("2026-12-01", 600);
        assert!(p.next(59 * 60_000, &day, true, true, |_| Ok(()), &mut inbox, &settings).is_none());
        let held = p.next(60 * 60_000, &day, true, true, |s| if s == Source::Asked { Ok(()) } else { Err(Hold::QuietGap { until: 0 }) }, &mut inbox, &settings);
        assert_eq!(
            held,
            Some(Due::Held { event: "proactive.focus_break".into(), hold: Hold::QuietGap { until: 0 } }),
            "the pacer holds her own initiative, and says which"
        );
        let (t, source) = fired(p.next(60 * 60_000, &day, true, true, |_| Ok(()), &mut inbox, &settings)).expect("the focus-break cue, still owed");
        assert_eq!(source, Source::Cue);
        assert_eq!(t.idle_elapsed_min, Some(60));
        assert!(p.next(200 * 60_000, &day, true, true, |_| Ok(()), &mut inbox, &settings).is_none(), "once per session");
        p.observe(None, Some(PresenceChange::Returned { away_ms: 1 }), 300 * 60_000, &settings);
        assert!(p.next(359 * 60_000, &day, true, true, |_| Ok(()), &mut inbox, &settings).is_none(), "a new session counts from the return");
        assert!(p.next(360 * 60_000, &day, true, true, |_| Ok(()), &mut inbox, &settings).is_some());
    }

    #[test]
    fn switches_off_are_off() {
        let settings = ReactionsSettings { idle_cues: false, schedule: false, ..ReactionsSettings::default() };
        let dir = tempfile::tempdir().unwrap();
        let mut p = Proactive::new(&CueConfig::shipped(), Some(dir.path().join("m")), 0);
        let mut inbox = Inbox::new();
        assert!(
            p.next(600 * 60_000, &local("2026-12-01", 600), true, true, |_| Ok(()), &mut inbox, &settings).is_none(),
            "no milestone without the schedule switch, no idle cue"
        );
    }

    #[test]
    fn a_wake_reports_its_cause_and_the_owed_milestone_rides_it() {
        let dir = tempfile::tempdir().unwrap();
        let settings = ReactionsSettings::default();
        let mut p = Proactive::new(&CueConfig::shipped(), Some(dir.path().join("m")), 0);
        let mut inbox = Inbox::new();
        inbox.arrive(
            crate::triggers::Arrival::Signals { group: crate::context::SignalGroup { envelope: None, items: vec![serde_json::json!(1)] }, received_ms: 0 },
            0,
        );
        let day = local("2026-12-01", 7 * 60 + 5);
        let t = p.wake(WakeCause::Timeout, &day, &mut inbox, &settings);
        assert_eq!(t.event_name.as_deref(), Some("time_milestone.first_activity"), "the milestone rides the wake");
        assert_eq!(t.wake, Some(Wake { cause: Some(WakeCause::Timeout) }));
        assert_eq!(t.signals.as_ref().map(Vec::len), Some(1), "the waiting signals drain into it");
        assert!(!p.milestone_owed(&day, &settings), "latched: the wake turn was the day's first activity");
        let t = p.wake(WakeCause::Click, &day, &mut inbox, &settings);
        assert_eq!(t.event_name.as_deref(), Some("proactive.wake"));
        assert_eq!(t.wake, Some(Wake { cause: Some(WakeCause::Click) }));
        let block = crate::context::render(&ctx_with(t), 0);
        assert!(block.contains("trigger: wake\nwake: the character just woke from the bed, woken by the user's click"), "{block}");
    }

    fn ctx_with(t: Trigger) -> crate::context::ClientContext {
        let mut ctx = crate::context::ClientContext::user_message("", 0);
        ctx.trigger = t;
        ctx.user_text = None;
        ctx
    }

    #[test]
    fn touches_make_their_cues() {
        let mut p = Proactive::new(&CueConfig::shipped(), None, 0);
        let poke = Touch::Poke { region: "head".into() };
        assert_eq!(p.touch(&poke, 0).and_then(|t| t.event_name), Some("proactive.touch_head".into()));
        assert!(p.touch(&poke, 500).is_none());
        assert!(p.touch(&poke, 1_000).is_none());
        assert_eq!(p.touch(&poke, 1_500).and_then(|t| t.event_name), Some("proactive.tap_bored".into()), "4 taps in 3 s");
        assert_eq!(p.touch(&Touch::HeadPat, 9_000).and_then(|t| t.event_name), Some("proactive.head_pat".into()));
        assert!(p.touch(&Touch::Bed, 9_000).is_none(), "a click on an empty bed says nothing");
        // A poke whose cue was dropped (she was talking): the streak's next
        // tap makes it again, once.
        assert!(p.touch(&poke, 20_000).is_some());
        p.touch_dropped();
        assert_eq!(p.touch(&poke, 21_000).and_then(|t| t.event_name), Some("proactive.touch_head".into()));
        assert!(p.touch(&poke, 22_000).is_none());
    }

    #[test]
    fn a_held_screen_switch_is_named_and_kept_for_recent_switches() {
        let settings = ReactionsSettings::default();
        let mut p = Proactive::new(&CueConfig { idle: Vec::new(), ..CueConfig::shipped() }, None, 0);
        let mut inbox = Inbox::new();
        let day = local("2026-12-01", 600);
        const MIN: i64 = 60_000;
        p.observe(Some("Editor"), None, 0, &settings);
        p.observe(Some("Browser"), None, 11 * MIN, &settings);
        p.observe(Some("Browser"), None, 12 * MIN + 1_000, &settings);
        let held = p.next(12 * MIN + 1_000, &day, true, true, |_| Err(Hold::Fullscreen), &mut inbox, &settings);
        assert_eq!(held, Some(Due::Held { event: "proactive.screen_app_switched".into(), hold: Hold::Fullscreen }));
        assert_eq!(p.screen.held().count(), 1, "kept for recent switches");
    }
}
