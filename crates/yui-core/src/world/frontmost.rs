//! The frontmost tracker: raw [`Sample`]s in, the [`Frontmost`] the block
//! renders and the app transitions the activity log keeps out. Pure: the
//! caller passes the time (epoch ms) with every sample.
//!
//! The rules (`docs/triggers.md`, "The world"; the `frontmost:` line of
//! `docs/client-context.md`): the duration is minutes since the
//! last frontmost transition, so `since` stays while the same app holds the
//! foreground (a new window title in the same app is no transition) and is
//! stamped anew when another app takes it. A *clear* is a sample with
//! nothing to report: no window, YUI's own window, or shell chrome (the
//! desktop, a panel, a dock). A clear lasting under the grace window
//! ([`FRONTMOST_CLEAR_GRACE`], 5 minutes: brief focus churn) is not a
//! transition: the held app keeps rendering, and keeps its original `since`
//! when it comes back. A longer clear is a real absence: the line goes away,
//! and whatever comes next gets a fresh `since`.
//!
//! Transitions name apps (the app name, or the title when the app did not
//! resolve), `None` for the absence. A clear that turns into a real absence
//! is stamped with the moment the clear began; a switch that comes through
//! a short clear is one transition, stamped when the new app showed.

use super::Sample;
use crate::context::Frontmost;
use crate::limits::FRONTMOST_CLEAR_GRACE;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// YUI's own app names (`WM_CLASS` of the Tauri shell: instance `yui`,
/// class `Yui`), compared without case.
pub const OWN_APPS: &[&str] = &["yui"];

/// Shell chrome: desktops, panels and docks, by app name (compared without
/// case). The sample is platform-neutral, so window types (`_NET_WM_WINDOW_TYPE_DESKTOP`
/// and the like) are out of reach; these are the common Linux desktops' own
/// surfaces that can take the focus.
pub const SHELL_CHROME_APPS: &[&str] = &[
    "Xfdesktop",
    "Xfce4-panel",
    "plasmashell",
    "gnome-shell",
    "Nautilus-desktop",
    "Nemo-desktop",
    "Lxpanel",
    "lxqt-panel",
    "Mate-panel",
    "Budgie-panel",
    "Polybar",
    "Tint2",
    "Plank",
    "Cairo-dock",
    "Conky",
];

/// One change of the frontmost app, for the activity log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transition {
    /// When it happened, epoch ms.
    pub at_ms: i64,
    /// The app left; `None` when coming back from an absence.
    pub from: Option<String>,
    /// The app taken up; `None` for a real absence.
    pub to: Option<String>,
}

/// What one [`FrontmostTracker::observe`] yields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observation {
    /// What the `frontmost` line renders now; `None` leaves it out.
    pub frontmost: Option<Frontmost>,
    /// Transitions this sample completed, oldest first (at most two: an
    /// absence found only now, then the app that ends it).
    pub transitions: Vec<Transition>,
}

#[derive(Debug, Clone)]
struct Held {
    app: String,
    title: String,
    since: i64,
}

impl Held {
    /// The name transitions use, and the identity "the same app" compares:
    /// the app name, else the title.
    fn label(&self) -> &str {
        if self.app.is_empty() {
            &self.title
        } else {
            &self.app
        }
    }

    fn frontmost(&self) -> Frontmost {
        let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
        Frontmost { app: some(&self.app), window_title: some(&self.title), since: Some(self.since) }
    }
}

/// Applies the `since` rules (`docs/triggers.md`, "The world") to a stream of samples. See the module
/// documentation.
#[derive(Debug, Clone)]
pub struct FrontmostTracker {
    own_pid: Option<u32>,
    ignored: Vec<String>,
    grace_ms: i64,
    held: Option<Held>,
    cleared_at: Option<i64>,
}

impl FrontmostTracker {
    /// A tracker that ignores windows of `own_pid`, [`OWN_APPS`] and
    /// [`SHELL_CHROME_APPS`], with the 5-minute grace window.
    pub fn new(own_pid: Option<u32>) -> Self {
        Self {
            own_pid,
            ignored: OWN_APPS.iter().chain(SHELL_CHROME_APPS).map(|s| s.to_lowercase()).collect(),
            grace_ms: FRONTMOST_CLEAR_GRACE.as_millis() as i64,
            held: None,
            cleared_at: None,
        }
    }

    /// A tracker for this process: its own pid is ignored.
    pub fn for_this_process() -> Self {
        Self::new(Some(std::process::id()))
    }

    /// Also ignore the app named `app` (compared without case).
    pub fn ignore_app(mut self, app: &str) -> Self {
        self.ignored.push(app.to_lowercase());
        self
    }

    /// Use `grace` instead of [`FRONTMOST_CLEAR_GRACE`].
    pub fn with_grace(mut self, grace: Duration) -> Self {
        self.grace_ms = grace.as_millis() as i64;
        self
    }

    /// True when `sample` has nothing to report: no app and no title, a
    /// window of this process, or an ignored app.
    pub fn is_clear(&self, sample: &Sample) -> bool {
        (sample.app.is_empty() && sample.title.is_empty())
            || (self.own_pid.is_some() && sample.pid == self.own_pid)
            || self.ignored.contains(&sample.app.to_lowercase())
    }

    /// What the `frontmost` line renders after the last sample.
    pub fn current(&self) -> Option<Frontmost> {
        self.held.as_ref().map(Held::frontmost)
    }

    /// Feed one sample taken at `now_ms` (`None`: no window, or the system
    /// cannot tell).
    pub fn observe(&mut self, sample: Option<Sample>, now_ms: i64) -> Observation {
        let mut transitions = Vec::new();
        let sample = sample.filter(|s| !self.is_clear(s));
        // A clear that began at least the grace window ago is a real absence.
        let absence_began = self.cleared_at.filter(|&c| now_ms.saturating_sub(c) >= self.grace_ms);
        match (sample, self.held.take()) {
            (None, None) => self.cleared_at = None,
            (None, Some(held)) => match absence_began {
                Some(began) => {
                    transitions.push(Transition { at_ms: began, from: Some(held.label().to_string()), to: None });
                    self.cleared_at = None;
                }
                None => {
                    self.cleared_at.get_or_insert(now_ms);
                    self.held = Some(held);
                }
            },
            (Some(s), held) => {
                let next = Held { app: s.app, title: s.title, since: now_ms };
                let to = Some(next.label().to_string());
                self.held = Some(match (held, absence_began) {
                    (None, _) => {
                        transitions.push(Transition { at_ms: now_ms, from: None, to });
                        next
                    }
                    (Some(held), Some(began)) => {
                        transitions.push(Transition { at_ms: began, from: Some(held.label().to_string()), to: None });
                        transitions.push(Transition { at_ms: now_ms, from: None, to });
                        next
                    }
                    (Some(held), None) if held.label() == next.label() => Held { since: held.since, ..next },
                    (Some(held), None) => {
                        transitions.push(Transition { at_ms: now_ms, from: Some(held.label().to_string()), to });
                        next
                    }
                });
                self.cleared_at = None;
            }
        }
        Observation { frontmost: self.current(), transitions }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;

    fn s(app: &str, title: &str) -> Option<Sample> {
        Some(Sample { app: app.into(), title: title.into(), pid: Some(4242), fullscreen: false })
    }

    fn t(at_ms: i64, from: Option<&str>, to: Option<&str>) -> Transition {
        Transition { at_ms, from: from.map(str::to_string), to: to.map(str::to_string) }
    }

    fn fm(app: &str, title: &str, since: i64) -> Option<Frontmost> {
        Some(Frontmost { app: Some(app.into()), window_title: Some(title.into()), since: Some(since) })
    }

    #[test]
    fn the_first_sample_starts_since_and_the_same_app_keeps_it() {
        let mut tr = FrontmostTracker::new(None);
        assert_eq!(tr.observe(None, 0), Observation::default(), "nothing before the first sample");
        let o = tr.observe(s("Firefox", "A"), 1_000);
        assert_eq!(o.frontmost, fm("Firefox", "A", 1_000));
        assert_eq!(o.transitions, vec![t(1_000, None, Some("Firefox"))]);
        let o = tr.observe(s("Firefox", "B"), 3 * MIN);
        assert_eq!(o.frontmost, fm("Firefox", "B", 1_000), "a new title in the same app keeps since");
        assert!(o.transitions.is_empty());
        assert_eq!(tr.current(), fm("Firefox", "B", 1_000));
    }

    #[test]
    fn a_change_stamps_since_and_a_transition() {
        let mut tr = FrontmostTracker::new(None);
        tr.observe(s("Firefox", "A"), 0);
        let o = tr.observe(s("Code", "main.rs"), 2 * MIN);
        assert_eq!(o.frontmost, fm("Code", "main.rs", 2 * MIN));
        assert_eq!(o.transitions, vec![t(2 * MIN, Some("Firefox"), Some("Code"))]);
    }

    #[test]
    fn a_short_clear_keeps_the_original_since() {
        let mut tr = FrontmostTracker::new(None);
        tr.observe(s("Firefox", "A"), 0);
        let o = tr.observe(None, 10 * MIN);
        assert_eq!(o.frontmost, fm("Firefox", "A", 0), "the held app renders through a short clear");
        assert!(o.transitions.is_empty());
        let o = tr.observe(None, 14 * MIN);
        assert!(o.transitions.is_empty());
        let o = tr.observe(s("Firefox", "A"), 14 * MIN + 59_999);
        assert_eq!(o.frontmost, fm("Firefox", "A", 0));
        assert!(o.transitions.is_empty());
    }

    #[test]
    fn a_long_clear_is_a_real_absence() {
        let mut tr = FrontmostTracker::new(None);
        tr.observe(s("Firefox", "A"), 0);
        tr.observe(None, MIN);
        let o = tr.observe(None, 6 * MIN);
        assert_eq!(o.frontmost, None);
        assert_eq!(o.transitions, vec![t(MIN, Some("Firefox"), None)], "stamped when the clear began");
        let o = tr.observe(s("Firefox", "A"), 7 * MIN);
        assert_eq!(o.frontmost, fm("Firefox", "A", 7 * MIN), "a fresh since");
        assert_eq!(o.transitions, vec![t(7 * MIN, None, Some("Firefox"))]);
    }

    #[test]
    fn a_long_clear_seen_only_when_the_app_returns_still_resets() {
        let mut tr = FrontmostTracker::new(None);
        tr.observe(s("Firefox", "A"), 0);
        tr.observe(None, MIN);
        let o = tr.observe(s("Firefox", "A"), 6 * MIN);
        assert_eq!(o.frontmost, fm("Firefox", "A", 6 * MIN));
        assert_eq!(o.transitions, vec![t(MIN, Some("Firefox"), None), t(6 * MIN, None, Some("Firefox"))]);
    }

    #[test]
    fn a_switch_through_a_short_clear_is_one_transition() {
        let mut tr = FrontmostTracker::new(None);
        tr.observe(s("Firefox", "A"), 0);
        tr.observe(None, MIN);
        let o = tr.observe(s("Code", "x"), 2 * MIN);
        assert_eq!(o.frontmost, fm("Code", "x", 2 * MIN));
        assert_eq!(o.transitions, vec![t(2 * MIN, Some("Firefox"), Some("Code"))]);
        // The clear is over: a later clear starts its own grace window.
        tr.observe(None, 10 * MIN);
        assert!(tr.observe(None, 14 * MIN).transitions.is_empty());
        assert_eq!(tr.observe(None, 15 * MIN).transitions, vec![t(10 * MIN, Some("Code"), None)]);
    }

    #[test]
    fn own_windows_and_shell_chrome_are_clears() {
        let mut tr = FrontmostTracker::new(Some(777)).ignore_app("yui-demo");
        tr.observe(s("Firefox", "A"), 0);
        let own_pid = Some(Sample { app: "Whatever".into(), title: "chat".into(), pid: Some(777), fullscreen: false });
        for (i, sample) in [own_pid, s("Yui", "YUI"), s("yui-demo", "d"), s("Xfdesktop", "Desktop"), s("plasmashell", ""), s("", "")].into_iter().enumerate() {
            let o = tr.observe(sample.clone(), (i as i64 + 1) * 10_000);
            assert_eq!(o.frontmost, fm("Firefox", "A", 0), "{sample:?} is a clear");
            assert!(o.transitions.is_empty(), "{sample:?}");
        }
        // Long enough, chrome alone is an absence.
        let o = tr.observe(s("gnome-shell", "top bar"), 5 * MIN + 10_000);
        assert_eq!(o.frontmost, None);
        assert_eq!(o.transitions, vec![t(10_000, Some("Firefox"), None)]);
        assert!(tr.is_clear(&Sample { app: "XFCE4-PANEL".into(), ..Default::default() }));
        assert!(!tr.is_clear(&Sample { app: "".into(), title: "untitled".into(), pid: None, fullscreen: false }));
    }

    #[test]
    fn an_app_without_a_name_goes_by_its_title() {
        let mut tr = FrontmostTracker::new(None);
        let o = tr.observe(s("", "Some Tool"), 0);
        assert_eq!(o.frontmost, Some(Frontmost { app: None, window_title: Some("Some Tool".into()), since: Some(0) }));
        assert_eq!(o.transitions, vec![t(0, None, Some("Some Tool"))]);
        let o = tr.observe(s("", "Other"), MIN);
        assert_eq!(o.transitions, vec![t(MIN, Some("Some Tool"), Some("Other"))]);
    }

    #[test]
    fn the_grace_window_can_shrink() {
        let mut tr = FrontmostTracker::new(None).with_grace(Duration::from_secs(1));
        tr.observe(s("A", "a"), 0);
        tr.observe(None, 100);
        assert_eq!(tr.observe(None, 1_100).transitions, vec![t(100, Some("A"), None)]);
    }
}
