//! Screen transitions: when what the user does on their screen becomes a
//! proactive turn (the `recent switches` line in `docs/client-context.md`, the markers `proactive.screen_app_switched` and
//! `proactive.screen_long_session`; `docs/triggers.md`, "Screen transitions").
//!
//! Pure: no clock, no I/O. The caller hands [`ScreenWatch::observe`] the
//! frontmost app the `FrontmostTracker` (`yui_core::world`)
//! reports, once a sample (every second), and calls [`ScreenWatch::poll`]
//! after it with whether the global proactive pacer is open. A poll returns
//! at most one turn's [`Trigger`].
//!
//! # Stints
//!
//! A *stint* is one app holding the foreground: it starts when the watch
//! first sees that app frontmost and ends when it sees another (or none).
//! Its clock is the watch's own (the first observation), not the tracker's
//! `since`: an app already frontmost when the watch starts, or when the
//! user comes back, starts at zero, so nothing fires the moment YUI starts.
//! The tracker already absorbs brief clears (under its 5-minute grace it
//! keeps reporting the held app), so an observed `None` is a real absence:
//! the stint ends and nothing before it counts as the app "left" (coming
//! back from an absence is not a switch). An empty or blank app name is an
//! absence too.
//!
//! # `app_switched`
//!
//! - A stint *settles* once it has lasted [`ScreenSettings::settle_s`]
//!   (default [`SCREEN_SETTLE_S`], 60 seconds), measured from the first
//!   sample that showed the app. An app left before that is a *flick*.
//! - The *origin* is the last settled stint the user left. Flicks leave it
//!   in place, so `Chrome (20min) → Slack (5s) → Finder (3s) → VS Code`
//!   is one switch from Chrome, due when VS Code settles; the flicks in
//!   between are never named.
//! - When the current stint settles and the origin was held at least
//!   [`ScreenSettings::hold_min`] (default [`SCREEN_HOLD_MIN`], 10 minutes;
//!   held = from its first sample to the sample that showed another app),
//!   an `app_switched` is due: `from_app` the origin, `from_dwell_min` how
//!   long it was held, `dwell_min` (at the poll that fires it) how long the
//!   settled app has been frontmost. The origin is used up either way, so
//!   a switch is due at most once per settled stint.
//! - A switch back to the origin before anything settled (`VS Code (30min)
//!   → Slack (20s) → VS Code`) is no switch: nothing fires, and the origin
//!   stint resumes with its original start and its `long_session` schedule,
//!   the flick counted in its dwell. A glance at a chat window does not
//!   reset a long session.
//!
//! # `long_session`
//!
//! - Due when the current stint has lasted
//!   [`ScreenSettings::long_session_min`] (default
//!   [`SCREEN_LONG_SESSION_MIN`], 45 minutes); `dwell_min` is the stint's
//!   age at the poll. It never carries a `from_app`.
//! - After a mark, fired or suppressed by the pacer, the next is due
//!   [`ScreenSettings::long_session_repeat_min`] (default
//!   [`SCREEN_LONG_SESSION_REPEAT_MIN`], 45 minutes) later; `0` marks a
//!   stint once. A `long_session_min` of `0` turns `long_session` off
//!   (a zero-minute session would fire on every app).
//! - When both kinds are due at one poll, `app_switched` goes first; the
//!   `long_session` stays due for the next poll.
//!
//! # The pacer and `recent switches`
//!
//! - A poll with `pacer_open` false suppresses what is due. A suppressed
//!   `app_switched` goes into the recent buffer as one [`ScreenSwitch`]
//!   (`from_app`, its `dwell_min` = the origin's held minutes, `to_app`);
//!   past [`ScreenSettings::recent_cap`] (default [`SCREEN_RECENT_CAP`], 5)
//!   the oldest is dropped. A suppressed `long_session` mark is not a
//!   transition: it is dropped, not buffered, and the next mark waits for
//!   another repeat stretch (see above).
//! - The next turn that fires, either kind, carries the whole buffer, oldest
//!   first, as `screen.recent` (the `recent switches:` line), and the buffer
//!   clears the instant it ships.
//! - A due `app_switched` no poll has seen by the time its app is left (or
//!   a newer switch is due) is history, not a turn: it goes into the buffer
//!   like a suppressed one. With a poll after every observation this does
//!   not happen.
//!
//! # Clearing
//!
//! - [`ScreenWatch::presence_lapse`] (the user stepped away) drops the stint
//!   clocks, the origin, a due switch and the recent buffer: an
//!   overnight-stale path never ships on the first morning fire. Call it on
//!   the away edge; it is idempotent, so a caller that keeps sampling while
//!   the user stays away calls it on every sample (or stops observing), and
//!   the clocks start over at the return.
//! - [`ScreenWatch::set_enabled`]`(false)` (the feature turned off mid-hold)
//!   drops the same. While off, observations are ignored and polls return
//!   nothing; turned back on, the clocks start at the next observation.
//!
//! # Defaults
//!
//! Chosen so a new user is not spammed: an `app_switched` needs ten minutes
//! in one app and a minute settled in the next, so at most one fires per
//! ten minutes of work, and none while the user flicks between windows; a
//! `long_session` fires at most once per 45 minutes; and every fire still
//! waits for the global pacer.

use std::collections::VecDeque;

use crate::context::{minutes_since, ScreenSwitch, ScreenTransition, Trigger, TriggerKind};
use crate::limits::{SCREEN_HOLD_MIN, SCREEN_LONG_SESSION_MIN, SCREEN_LONG_SESSION_REPEAT_MIN, SCREEN_RECENT_CAP, SCREEN_SETTLE_S};

/// The event name (and background marker) of an `app_switched` turn.
pub const APP_SWITCHED_EVENT: &str = "proactive.screen_app_switched";
/// The event name (and background marker) of a `long_session` turn.
pub const LONG_SESSION_EVENT: &str = "proactive.screen_long_session";

/// The screen-transition settings. See the module documentation for how
/// each is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScreenSettings {
    /// Screen transitions fire at all (default on: the thresholds and the
    /// pacer keep them rare).
    pub enabled: bool,
    /// Minutes the app the user left must have been held for the switch to
    /// count (default [`SCREEN_HOLD_MIN`], 10).
    pub hold_min: u32,
    /// Seconds the new app must stay frontmost before the switch counts as
    /// settled (default [`SCREEN_SETTLE_S`], 60).
    pub settle_s: u32,
    /// Minutes one app must hold the foreground for a `long_session`
    /// (default [`SCREEN_LONG_SESSION_MIN`], 45); `0` turns it off.
    pub long_session_min: u32,
    /// Minutes after a `long_session` mark before the same stint marks
    /// again (default [`SCREEN_LONG_SESSION_REPEAT_MIN`], 45); `0` marks a
    /// stint once.
    pub long_session_repeat_min: u32,
    /// Held `app_switched` transitions kept for `recent switches` (default
    /// [`SCREEN_RECENT_CAP`], 5); the oldest is dropped past it.
    pub recent_cap: usize,
}

impl Default for ScreenSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            hold_min: SCREEN_HOLD_MIN,
            settle_s: SCREEN_SETTLE_S,
            long_session_min: SCREEN_LONG_SESSION_MIN,
            long_session_repeat_min: SCREEN_LONG_SESSION_REPEAT_MIN,
            recent_cap: SCREEN_RECENT_CAP,
        }
    }
}

impl ScreenSettings {
    fn hold_ms(&self) -> i64 {
        i64::from(self.hold_min) * 60_000
    }

    fn settle_ms(&self) -> i64 {
        i64::from(self.settle_s) * 1_000
    }

    /// When a stint that started at `since` first marks a long session.
    fn first_long_at(&self, since: i64) -> i64 {
        match self.long_session_min {
            0 => i64::MAX,
            min => since.saturating_add(i64::from(min) * 60_000),
        }
    }

    /// When the stint marks again after a mark at `now`.
    fn next_long_at(&self, now: i64) -> i64 {
        match (self.long_session_min, self.long_session_repeat_min) {
            (0, _) | (_, 0) => i64::MAX,
            (_, min) => now.saturating_add(i64::from(min) * 60_000),
        }
    }
}

/// One app holding the foreground.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stint {
    app: String,
    /// First sample that showed it (epoch ms).
    since: i64,
    /// When its next `long_session` mark is due (epoch ms).
    long_at: i64,
}

/// A settled stint the user left.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Left {
    stint: Stint,
    /// The sample that showed another app (epoch ms).
    left_at: i64,
}

/// An `app_switched` waiting for a poll.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Due {
    from_app: String,
    from_dwell_min: i64,
    to_app: String,
    /// When the settled app came frontmost (epoch ms).
    to_since: i64,
}

/// Watches the frontmost app and decides when a screen transition fires.
/// See the module documentation for every rule.
#[derive(Debug, Clone, PartialEq)]
pub struct ScreenWatch {
    settings: ScreenSettings,
    current: Option<Stint>,
    origin: Option<Left>,
    due: Option<Due>,
    recent: VecDeque<ScreenSwitch>,
}

impl Default for ScreenWatch {
    fn default() -> Self {
        Self::new(ScreenSettings::default())
    }
}

impl ScreenWatch {
    /// A watch with `settings` that has seen nothing yet.
    pub fn new(settings: ScreenSettings) -> Self {
        Self { settings, current: None, origin: None, due: None, recent: VecDeque::new() }
    }

    /// The settings in use.
    pub fn settings(&self) -> &ScreenSettings {
        &self.settings
    }

    /// Replace the settings. Turning the feature off clears as
    /// [`ScreenWatch::set_enabled`] does; a smaller `recent_cap` drops the
    /// oldest held switches past it. Running clocks keep their start; a
    /// scheduled `long_session` mark keeps its time.
    pub fn set_settings(&mut self, settings: ScreenSettings) {
        self.settings = settings;
        if !settings.enabled {
            self.clear();
        }
        self.trim_recent();
    }

    /// Turn screen transitions on or off. Off clears the clocks, a due
    /// switch and the held `recent switches`.
    pub fn set_enabled(&mut self, enabled: bool) {
        self.settings.enabled = enabled;
        if !enabled {
            self.clear();
        }
    }

    /// Whether screen transitions are on.
    pub fn is_enabled(&self) -> bool {
        self.settings.enabled
    }

    /// The held switches the next fire will carry, oldest first.
    pub fn held(&self) -> impl Iterator<Item = &ScreenSwitch> {
        self.recent.iter()
    }

    /// One frontmost sample at `now_ms`: the tracker's current app, `None`
    /// when the frontmost line is absent (a real absence).
    pub fn observe(&mut self, frontmost_app: Option<&str>, now_ms: i64) {
        if !self.settings.enabled {
            return;
        }
        let app = frontmost_app.map(str::trim).filter(|a| !a.is_empty());
        self.settle(now_ms);
        if self.current.as_ref().map(|c| c.app.as_str()) == app {
            return;
        }
        // The app changed: a switch no poll shipped is history now.
        if let Some(stale) = self.due.take() {
            self.hold(stale);
        }
        if let Some(left) = self.current.take() {
            if now_ms.saturating_sub(left.since) >= self.settings.settle_ms() {
                self.origin = Some(Left { stint: left, left_at: now_ms });
            }
            // A flick leaves the origin as it was.
        }
        let Some(app) = app else {
            // An absence: whatever comes next is not a switch from before it.
            self.origin = None;
            return;
        };
        if self.origin.as_ref().is_some_and(|o| o.stint.app == app) {
            // Back to the origin before anything settled: it resumes.
            self.current = self.origin.take().map(|o| o.stint);
        } else {
            let long_at = self.settings.first_long_at(now_ms);
            self.current = Some(Stint { app: app.to_string(), since: now_ms, long_at });
        }
    }

    /// The user stepped away: drop the stint clocks, the origin, a due
    /// switch and the held `recent switches`. Idempotent.
    pub fn presence_lapse(&mut self) {
        self.clear();
    }

    /// The event name of the turn [`ScreenWatch::poll`] would fire at
    /// `now_ms`, if any (for the log of a held turn). Settles the current
    /// stint as a poll would.
    pub fn due(&mut self, now_ms: i64) -> Option<&'static str> {
        if !self.settings.enabled {
            return None;
        }
        self.settle(now_ms);
        if self.due.is_some() {
            return Some(APP_SWITCHED_EVENT);
        }
        self.current.as_ref().filter(|s| now_ms >= s.long_at).map(|_| LONG_SESSION_EVENT)
    }

    /// The turn due at `now_ms`, if any. With `pacer_open` false, a due
    /// `app_switched` is held for `recent switches` and a due `long_session`
    /// mark is dropped; nothing is returned.
    pub fn poll(&mut self, now_ms: i64, pacer_open: bool) -> Option<Trigger> {
        if !self.settings.enabled {
            return None;
        }
        self.settle(now_ms);
        if let Some(due) = self.due.take() {
            if !pacer_open {
                self.hold(due);
                return None;
            }
            let screen = ScreenTransition {
                transition: Some("app_switched".into()),
                from_app: Some(due.from_app),
                from_dwell_min: Some(due.from_dwell_min),
                dwell_min: Some(minutes_since(now_ms, due.to_since)),
                recent: self.recent.drain(..).collect(),
            };
            return Some(screen_trigger(APP_SWITCHED_EVENT, screen));
        }
        let next_long_at = self.settings.next_long_at(now_ms);
        let stint = self.current.as_mut()?;
        if now_ms < stint.long_at {
            return None;
        }
        stint.long_at = next_long_at;
        if !pacer_open {
            return None;
        }
        let screen = ScreenTransition {
            transition: Some("long_session".into()),
            from_app: None,
            from_dwell_min: None,
            dwell_min: Some(minutes_since(now_ms, stint.since)),
            recent: self.recent.drain(..).collect(),
        };
        Some(screen_trigger(LONG_SESSION_EVENT, screen))
    }

    /// When the current stint has settled, use up the origin: a switch is
    /// due when the origin was held long enough.
    fn settle(&mut self, now_ms: i64) {
        let Some(stint) = &self.current else { return };
        if now_ms.saturating_sub(stint.since) < self.settings.settle_ms() {
            return;
        }
        let Some(origin) = self.origin.take() else { return };
        let held = origin.left_at.saturating_sub(origin.stint.since);
        if held < self.settings.hold_ms() {
            return;
        }
        let due = Due {
            from_app: origin.stint.app,
            from_dwell_min: minutes_since(origin.left_at, origin.stint.since),
            to_app: stint.app.clone(),
            to_since: stint.since,
        };
        if let Some(stale) = self.due.replace(due) {
            self.hold(stale);
        }
    }

    /// Keep a switch that did not fire for `recent switches`.
    fn hold(&mut self, due: Due) {
        self.recent.push_back(ScreenSwitch { from_app: Some(due.from_app), dwell_min: Some(due.from_dwell_min), to_app: Some(due.to_app) });
        self.trim_recent();
    }

    fn trim_recent(&mut self) {
        while self.recent.len() > self.settings.recent_cap {
            self.recent.pop_front();
        }
    }

    fn clear(&mut self) {
        self.current = None;
        self.origin = None;
        self.due = None;
        self.recent.clear();
    }
}

/// A proactive turn carrying `screen`.
fn screen_trigger(event_name: &str, screen: ScreenTransition) -> Trigger {
    let mut trigger = Trigger::new(TriggerKind::Proactive, Some(event_name.to_string()));
    trigger.screen = Some(screen);
    trigger
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::{render, user_input, ClientContext};

    const S: i64 = 1_000;
    /// An arbitrary epoch to start at.
    const T0: i64 = 1_787_000_000_000;

    /// A watch fed one sample a second, polled after each.
    struct Sim {
        w: ScreenWatch,
        t: i64,
    }

    impl Sim {
        fn new(settings: ScreenSettings) -> Sim {
            Sim { w: ScreenWatch::new(settings), t: T0 }
        }

        /// `app` frontmost for `secs` seconds; the triggers that fired.
        fn run(&mut self, app: Option<&str>, secs: i64, pacer_open: bool) -> Vec<Trigger> {
            let mut out = Vec::new();
            for _ in 0..secs {
                self.w.observe(app, self.t);
                out.extend(self.w.poll(self.t, pacer_open));
                self.t += S;
            }
            out
        }
    }

    fn screen(t: &Trigger) -> &ScreenTransition {
        t.screen.as_ref().expect("a screen trigger")
    }

    fn switch(from: &str, min: i64, to: &str) -> ScreenSwitch {
        ScreenSwitch { from_app: Some(from.into()), dwell_min: Some(min), to_app: Some(to.into()) }
    }

    fn held(w: &ScreenWatch) -> Vec<ScreenSwitch> {
        w.held().cloned().collect()
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let s = ScreenSettings::default();
        assert_eq!(s, ScreenSettings { enabled: true, hold_min: 10, settle_s: 60, long_session_min: 45, long_session_repeat_min: 45, recent_cap: 5 });
    }

    #[test]
    fn a_flick_through_apps_fires_nothing_and_settling_fires_once() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Google Chrome"), 12 * 60, true).is_empty());
        assert!(sim.run(Some("Slack"), 5, true).is_empty());
        assert!(sim.run(Some("Finder"), 3, true).is_empty());
        // VS Code settles on its 61st sample (60 s after the first).
        assert!(sim.run(Some("VS Code"), 60, true).is_empty());
        let fired = sim.run(Some("VS Code"), 5 * 60, true);
        assert_eq!(fired.len(), 1, "{fired:?}");
        let t = &fired[0];
        assert_eq!(t.kind, TriggerKind::Proactive);
        assert_eq!(t.event_name.as_deref(), Some(APP_SWITCHED_EVENT));
        assert_eq!(
            screen(t),
            &ScreenTransition {
                transition: Some("app_switched".into()),
                from_app: Some("Google Chrome".into()),
                from_dwell_min: Some(12),
                dwell_min: Some(1),
                recent: vec![],
            }
        );
    }

    #[test]
    fn an_app_held_under_hold_min_is_no_switch() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Terminal"), 9 * 60, true).is_empty());
        assert!(sim.run(Some("Firefox"), 5 * 60, true).is_empty());
        // Firefox (5min, settled) is the origin now, but under hold_min too.
        assert!(sim.run(Some("Terminal"), 5 * 60, true).is_empty());
    }

    #[test]
    fn a_quick_flick_between_flicks_never_settles() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("A"), 20 * 60, true).is_empty());
        for _ in 0..20 {
            assert!(sim.run(Some("B"), 30, true).is_empty());
            assert!(sim.run(Some("C"), 30, true).is_empty());
        }
        // C finally settles: one switch, from A.
        let fired = sim.run(Some("C"), 60, true);
        assert_eq!(fired.len(), 1);
        assert_eq!(screen(&fired[0]).from_app.as_deref(), Some("A"));
        assert_eq!(screen(&fired[0]).from_dwell_min, Some(20));
    }

    #[test]
    fn a_switch_back_within_the_settle_window_is_no_switch_and_keeps_the_session() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("VS Code"), 30 * 60, true).is_empty());
        assert!(sim.run(Some("Slack"), 20, true).is_empty());
        // Back in VS Code: its stint resumes from its first sample.
        assert!(sim.run(Some("VS Code"), 15 * 60 - 20, true).is_empty());
        let fired = sim.run(Some("VS Code"), 1, true);
        assert_eq!(fired.len(), 1);
        assert_eq!(fired[0].event_name.as_deref(), Some(LONG_SESSION_EVENT));
        assert_eq!(screen(&fired[0]).dwell_min, Some(45));
    }

    #[test]
    fn an_absence_breaks_the_chain() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Chrome"), 20 * 60, true).is_empty());
        assert!(sim.run(None, 10 * 60, true).is_empty());
        assert!(sim.run(Some("Mail"), 5 * 60, true).is_empty());
        // Blank names are absences too.
        assert!(sim.run(Some("  "), 2, true).is_empty());
        assert!(sim.run(Some("Mail"), 5 * 60, true).is_empty());
    }

    #[test]
    fn long_session_fires_at_45min_then_every_45min_more() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Blender"), 45 * 60, true).is_empty());
        let fired = sim.run(Some("Blender"), 45 * 60, true);
        assert_eq!(fired.len(), 1);
        let s = screen(&fired[0]);
        assert_eq!(fired[0].event_name.as_deref(), Some(LONG_SESSION_EVENT));
        assert_eq!(s.transition.as_deref(), Some("long_session"));
        assert_eq!((s.from_app.as_deref(), s.from_dwell_min, s.dwell_min), (None, None, Some(45)));
        let fired = sim.run(Some("Blender"), 1, true);
        assert_eq!(screen(&fired[0]).dwell_min, Some(90));
    }

    #[test]
    fn a_suppressed_long_session_is_dropped_not_buffered() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Blender"), 45 * 60, true).is_empty());
        // Due at 45min, the pacer closed: dropped, the next mark at 90min.
        assert!(sim.run(Some("Blender"), 10, false).is_empty());
        assert!(held(&sim.w).is_empty());
        assert!(sim.run(Some("Blender"), 45 * 60 - 10, true).is_empty());
        let fired = sim.run(Some("Blender"), 1, true);
        assert_eq!(screen(&fired[0]).dwell_min, Some(90));
        assert!(screen(&fired[0]).recent.is_empty());
    }

    #[test]
    fn zero_long_session_min_is_off_and_zero_repeat_marks_once() {
        let off = ScreenSettings { long_session_min: 0, ..ScreenSettings::default() };
        let mut sim = Sim::new(off);
        assert!(sim.run(Some("Blender"), 120 * 60, true).is_empty());
        let once = ScreenSettings { long_session_repeat_min: 0, ..ScreenSettings::default() };
        let mut sim = Sim::new(once);
        assert_eq!(sim.run(Some("Blender"), 200 * 60, true).len(), 1);
    }

    /// The `recent switches` example (the `seed_recent_switches` fixture): three apps held while the pacer is closed, then
    /// a fourth switch that fires.
    fn seed_chain() -> (Sim, Trigger) {
        let mut sim = Sim::new(ScreenSettings { hold_min: 3, settle_s: 120, ..ScreenSettings::default() });
        assert!(sim.run(Some("Cursor"), 10 * 60, true).is_empty());
        assert!(sim.run(Some("Slack"), 3 * 60, false).is_empty());
        assert_eq!(held(&sim.w), vec![switch("Cursor", 10, "Slack")]);
        assert!(sim.run(Some("VS Code"), 12 * 60, false).is_empty());
        assert_eq!(held(&sim.w), vec![switch("Cursor", 10, "Slack"), switch("Slack", 3, "VS Code")]);
        assert!(sim.run(Some("Zed"), 120, true).is_empty());
        let mut fired = sim.run(Some("Zed"), 1, true);
        assert_eq!(fired.len(), 1);
        (sim, fired.remove(0))
    }

    #[test]
    fn held_switches_ship_with_the_next_fire_then_clear() {
        let (mut sim, t) = seed_chain();
        let s = screen(&t);
        assert_eq!(s.from_app.as_deref(), Some("VS Code"));
        assert_eq!((s.from_dwell_min, s.dwell_min), (Some(12), Some(2)));
        assert_eq!(s.recent, vec![switch("Cursor", 10, "Slack"), switch("Slack", 3, "VS Code")]);
        assert!(held(&sim.w).is_empty());
        // A later fire with nothing held carries no chain.
        assert!(sim.run(Some("Zed"), 3 * 60, true).is_empty());
        let fired = sim.run(Some("Vim"), 121, true);
        assert_eq!(fired.len(), 1);
        assert!(screen(&fired[0]).recent.is_empty());
    }

    #[test]
    fn the_chain_rides_a_long_session_too() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Mail"), 10 * 60, true).is_empty());
        // Chrome's 45min mark comes while the pacer is closed.
        assert!(sim.run(Some("Chrome"), 45 * 60 + 1, false).is_empty());
        assert_eq!(held(&sim.w), vec![switch("Mail", 10, "Chrome")]);
        // The 90min one fires, carrying the chain.
        let fired = sim.run(Some("Chrome"), 45 * 60, true);
        assert_eq!(fired.len(), 1);
        assert_eq!(screen(&fired[0]).transition.as_deref(), Some("long_session"));
        assert_eq!(screen(&fired[0]).dwell_min, Some(90));
        assert_eq!(screen(&fired[0]).recent, vec![switch("Mail", 10, "Chrome")]);
        assert!(held(&sim.w).is_empty());
    }

    #[test]
    fn the_recent_buffer_keeps_the_newest_cap_in_order() {
        let mut sim = Sim::new(ScreenSettings { hold_min: 1, settle_s: 10, ..ScreenSettings::default() });
        let apps = ["A", "B", "C", "D", "E", "F", "G", "H"];
        for app in apps {
            assert!(sim.run(Some(app), 2 * 60, false).is_empty());
        }
        // Seven held switches (A→B … G→H), the oldest two dropped.
        assert_eq!(held(&sim.w), vec![switch("C", 2, "D"), switch("D", 2, "E"), switch("E", 2, "F"), switch("F", 2, "G"), switch("G", 2, "H")]);
        let fired = sim.run(Some("I"), 11, true);
        assert_eq!(fired.len(), 1);
        let s = screen(&fired[0]);
        assert_eq!((s.from_app.as_deref(), s.recent.len()), (Some("H"), 5));
        assert_eq!(s.recent[0], switch("C", 2, "D"));
        assert!(held(&sim.w).is_empty());
    }

    #[test]
    fn a_presence_lapse_clears_the_clocks_and_the_chain() {
        let (mut sim, _) = seed_chain();
        assert!(sim.run(Some("Zed"), 10 * 60, true).is_empty());
        assert!(sim.run(Some("Slack"), 3 * 60, false).is_empty());
        assert_eq!(held(&sim.w).len(), 1);
        sim.w.presence_lapse();
        sim.w.presence_lapse();
        assert!(held(&sim.w).is_empty());
        // Slack's clock starts over: 2 more minutes are under hold_min (3),
        // where 3 + 2 would have counted.
        assert!(sim.run(Some("Slack"), 2 * 60, true).is_empty());
        assert!(sim.run(Some("Mail"), 3 * 60, true).is_empty());
        // The session clock too: the mark comes 45min after the lapse.
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Blender"), 40 * 60, true).is_empty());
        sim.w.presence_lapse();
        assert!(sim.run(Some("Blender"), 45 * 60, true).is_empty());
        let fired = sim.run(Some("Blender"), 1, true);
        assert_eq!(screen(&fired[0]).dwell_min, Some(45));
    }

    #[test]
    fn turning_it_off_clears_and_ignores_until_on_again() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Mail"), 10 * 60, true).is_empty());
        assert!(sim.run(Some("Chrome"), 2 * 60, false).is_empty());
        assert_eq!(held(&sim.w).len(), 1);
        sim.w.set_enabled(false);
        assert!(!sim.w.is_enabled());
        assert!(held(&sim.w).is_empty());
        assert!(sim.run(Some("Chrome"), 60 * 60, true).is_empty());
        sim.w.set_enabled(true);
        // The clocks start at the first sample after.
        assert!(sim.run(Some("Chrome"), 45 * 60, true).is_empty());
        let fired = sim.run(Some("Chrome"), 1, true);
        assert_eq!(screen(&fired[0]).dwell_min, Some(45));
        assert!(screen(&fired[0]).recent.is_empty());
        // Through set_settings too.
        assert!(sim.run(Some("Mail"), 2 * 60, false).is_empty());
        assert_eq!(held(&sim.w).len(), 1);
        sim.w.set_settings(ScreenSettings { enabled: false, ..ScreenSettings::default() });
        assert!(held(&sim.w).is_empty());
    }

    /// The golden fixture `name` with its trigger replaced by `trigger`,
    /// rendered as `render-context` prints it.
    fn render_in(fixture: &str, trigger: Trigger) -> String {
        let doc: serde_json::Value = serde_json::from_str(fixture).unwrap();
        let mut ctx: ClientContext = serde_json::from_str(fixture).unwrap();
        assert_eq!(ctx.trigger, trigger, "the detector builds the fixture's trigger");
        ctx.trigger = trigger;
        format!("{}\n\n{}\n", render(&ctx, doc["now_ms"].as_i64().unwrap()), user_input(&ctx))
    }

    #[test]
    fn renders_the_seed_recent_switches_lines() {
        let (_, t) = seed_chain();
        let out = render_in(include_str!("../../tests/fixtures/context/seed_recent_switches.json"), t);
        assert_eq!(out, include_str!("../../tests/fixtures/context/seed_recent_switches.txt"));
        assert!(out.contains(
            "\ntrigger: screen app_switched; the user left VS Code after 12min and has been in the frontmost app for 2min\nrecent switches: Cursor (10min) then Slack (3min) then VS Code\n"
        ));
    }

    #[test]
    fn renders_the_seed_app_switched_line() {
        let mut sim = Sim::new(ScreenSettings { hold_min: 1, settle_s: 20, ..ScreenSettings::default() });
        assert!(sim.run(Some("Google Chrome"), 60, true).is_empty());
        assert!(sim.run(Some("Terminal"), 20, true).is_empty());
        let mut fired = sim.run(Some("Terminal"), 1, true);
        assert_eq!(fired.len(), 1);
        let out = render_in(include_str!("../../tests/fixtures/context/seed_screen_app_switched.json"), fired.remove(0));
        assert_eq!(out, include_str!("../../tests/fixtures/context/seed_screen_app_switched.txt"));
    }

    #[test]
    fn renders_the_seed_long_session_line() {
        let mut sim = Sim::new(ScreenSettings::default());
        assert!(sim.run(Some("Google Chrome"), 45 * 60, true).is_empty());
        let mut fired = sim.run(Some("Google Chrome"), 1, true);
        let out = render_in(include_str!("../../tests/fixtures/context/seed_screen_long_session.json"), fired.remove(0));
        assert_eq!(out, include_str!("../../tests/fixtures/context/seed_screen_long_session.txt"));
        assert!(out.contains("\ntrigger: screen long_session; the user has been in the frontmost app for 45min\n"));
    }
}
