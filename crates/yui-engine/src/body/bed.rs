//! The bed scene (`docs/triggers.md`, "Wake and the bed scene"): a pure
//! machine over epoch ms.
//!
//! Two entries: the launch scene ([`BedEntry::Launch`], she starts asleep)
//! and `go_to_bed` ([`BedEntry::Command`], she lies down on the spot, the
//! lie-down clip first). Both sleep until the wake timeout, a click on her
//! or the bed (or the press that starts a head pat), a chat or voice
//! message, or the backend's own stand ([`WakeBy`]).
//!
//! - A wake from sleep starts the wake clip ([`BedPhase::Waking`]); she
//!   reads `lying` through it and `standing` when it ends. A click or the
//!   timeout report it as `proactive.wake`; a message rides that message's
//!   own turn; the backend's stand reports nothing (it sent it).
//! - A wake before the lie-down clip has ended ends the scene with no wake
//!   clip and no wake signal: the bed fades out ([`BedPhase::Leaving`]) as
//!   she returns to standing.
//! - Another motion taking the body, a VRM swap, or a clip or the bed
//!   failing to load end the scene the same quiet way ([`Bed::end`]).
//!
//! The caller drops the touch, head-pat, tap-bored and drag-held cues while
//! [`Bed::drops_touches`], speaks no thinking filler while [`Bed::lying`],
//! and holds the day's milestone (it rides a click's or the timeout's wake
//! turn when still owed).

use crate::context::WakeCause;
use serde::{Deserialize, Serialize};

/// How she got onto the bed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum BedEntry {
    /// The launch bed scene: she starts asleep.
    Launch,
    /// A `go_to_bed` command: she lies down where she stands.
    Command,
}

/// Where the scene is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum BedPhase {
    /// The lie-down clip plays.
    LyingDown,
    /// She sleeps.
    Asleep,
    /// The wake clip plays: she sits up, stretches and stands.
    Waking,
    /// The scene ends without a wake clip: the bed fades out as she stands.
    Leaving,
}

/// What ends her sleep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WakeBy {
    /// A click on her or the bed, or the press that starts a head pat.
    Click,
    /// A chat or voice message.
    Message,
    /// The wake timeout.
    Timeout,
    /// The backend's own stand (`get_up`).
    Backend,
}

/// The scene as the page draws it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BedView {
    /// How she got there.
    pub entry: BedEntry,
    /// Where the scene is.
    pub phase: BedPhase,
    /// How long this phase's clip runs, in ms (0: until something wakes her).
    pub phase_ms: u32,
}

/// What a step of the scene asks of the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BedStep {
    /// The phase changed; the scene goes on.
    Phase(BedPhase),
    /// Her wake clip started; report it with this cause (`None`: nothing to
    /// report, the backend stood her up).
    Woke(Option<WakeCause>),
    /// The scene is over: she stands.
    Over,
}

/// Clip lengths and the wake timeout, in ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BedTimes {
    /// The lie-down clip.
    pub lie_down_ms: u32,
    /// The wake clip (sit up, stretch, stand).
    pub wake_ms: u32,
    /// The bed fading out when the scene ends without a wake clip.
    pub fade_ms: u32,
    /// Sleep ends by itself this long after she got onto the bed.
    pub timeout_ms: i64,
}

impl BedTimes {
    /// The clip lengths of [`crate::limits`] and a wake timeout of
    /// `timeout_min` minutes (at least one).
    pub fn with_timeout_min(timeout_min: u32) -> BedTimes {
        BedTimes {
            lie_down_ms: crate::limits::BED_LIE_DOWN_MS,
            wake_ms: crate::limits::BED_WAKE_CLIP_MS,
            fade_ms: crate::limits::BED_FADE_MS,
            timeout_ms: i64::from(timeout_min.max(1)) * 60_000,
        }
    }
}

/// The bed scene (`docs/character.md`): the launch entry's switch and the wake
/// timeout that ends either entry's sleep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(default)]
pub struct BedSettings {
    /// Start asleep on a bed when YUI starts (default off). Governs the
    /// launch entry only; `go_to_bed` works either way.
    pub at_launch: bool,
    /// Minutes she sleeps before she wakes by herself (default 30; 1 to 480).
    pub wake_timeout_min: u32,
}

impl Default for BedSettings {
    fn default() -> Self {
        Self { at_launch: false, wake_timeout_min: crate::limits::BED_WAKE_TIMEOUT_MIN_DEFAULT }
    }
}

impl BedSettings {
    /// The clip lengths and this wake timeout (clamped to 1..=480 minutes).
    pub fn times(&self) -> BedTimes {
        BedTimes::with_timeout_min(self.wake_timeout_min.clamp(1, crate::limits::BED_WAKE_TIMEOUT_MIN_MAX))
    }
}

/// See the module doc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bed {
    entry: BedEntry,
    phase: BedPhase,
    /// When she got onto the bed (the body's `since`).
    entered_ms: i64,
    /// When the current phase started.
    phase_at: i64,
    times: BedTimes,
}

impl Bed {
    /// She gets onto the bed at `now_ms`: asleep at once at launch, lying
    /// down first on a command.
    pub fn enter(entry: BedEntry, now_ms: i64, times: BedTimes) -> Bed {
        let phase = match entry {
            BedEntry::Launch => BedPhase::Asleep,
            BedEntry::Command => BedPhase::LyingDown,
        };
        Bed { entry, phase, entered_ms: now_ms, phase_at: now_ms, times }
    }

    /// Where the scene is.
    pub fn phase(&self) -> BedPhase {
        self.phase
    }

    /// When she got onto the bed.
    pub fn entered_ms(&self) -> i64 {
        self.entered_ms
    }

    /// The scene as the page draws it.
    pub fn view(&self) -> BedView {
        let phase_ms = match self.phase {
            BedPhase::LyingDown => self.times.lie_down_ms,
            BedPhase::Asleep => 0,
            BedPhase::Waking => self.times.wake_ms,
            BedPhase::Leaving => self.times.fade_ms,
        };
        BedView { entry: self.entry, phase: self.phase, phase_ms }
    }

    /// True while the body reads `lying`: from the lie-down (or sleep) clip
    /// through the wake clip. The fade-out reads `standing`.
    pub fn lying(&self) -> bool {
        self.phase != BedPhase::Leaving
    }

    /// True while the touch, head-pat, tap-bored and drag-held cues are
    /// dropped: the whole scene.
    pub fn drops_touches(&self) -> bool {
        true
    }

    /// True while she sleeps (a wake now would be reported).
    pub fn asleep(&self) -> bool {
        self.phase == BedPhase::Asleep
    }

    /// Something tries to wake her at `now_ms`. `None`: nothing changes (she
    /// is already getting up). A wake during the lie-down clip ends the
    /// scene quietly.
    pub fn wake(&mut self, by: WakeBy, now_ms: i64) -> Option<BedStep> {
        match self.phase {
            BedPhase::LyingDown => {
                self.set(BedPhase::Leaving, now_ms);
                Some(BedStep::Phase(BedPhase::Leaving))
            }
            BedPhase::Asleep => {
                self.set(BedPhase::Waking, now_ms);
                let cause = match by {
                    WakeBy::Click => Some(WakeCause::Click),
                    WakeBy::Message => Some(WakeCause::Message),
                    WakeBy::Timeout => Some(WakeCause::Timeout),
                    WakeBy::Backend => None,
                };
                Some(BedStep::Woke(cause))
            }
            BedPhase::Waking | BedPhase::Leaving => None,
        }
    }

    /// The scene ends without a wake signal at `now_ms` (another motion took
    /// the body, the VRM was swapped, a clip or the bed failed to load): she
    /// stands at once.
    pub fn end(&mut self, now_ms: i64) -> BedStep {
        self.set(BedPhase::Leaving, now_ms);
        self.phase_at = now_ms - i64::from(self.times.fade_ms);
        BedStep::Over
    }

    /// When the scene next moves by itself, epoch ms.
    pub fn next_deadline(&self) -> i64 {
        match self.phase {
            BedPhase::LyingDown => self.phase_at + i64::from(self.times.lie_down_ms),
            BedPhase::Asleep => self.entered_ms + self.times.timeout_ms,
            BedPhase::Waking => self.phase_at + i64::from(self.times.wake_ms),
            BedPhase::Leaving => self.phase_at + i64::from(self.times.fade_ms),
        }
    }

    /// Let time pass to `now_ms`: at most one step per call (call again
    /// while it answers one).
    pub fn tick(&mut self, now_ms: i64) -> Option<BedStep> {
        if now_ms < self.next_deadline() {
            return None;
        }
        match self.phase {
            BedPhase::LyingDown => {
                self.set(BedPhase::Asleep, now_ms);
                Some(BedStep::Phase(BedPhase::Asleep))
            }
            BedPhase::Asleep => self.wake(WakeBy::Timeout, now_ms),
            BedPhase::Waking | BedPhase::Leaving => Some(BedStep::Over),
        }
    }

    fn set(&mut self, phase: BedPhase, now_ms: i64) {
        self.phase = phase;
        self.phase_at = now_ms;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;

    fn times() -> BedTimes {
        BedTimes { lie_down_ms: 2_000, wake_ms: 3_000, fade_ms: 500, timeout_ms: 30 * MIN }
    }

    /// Run the clock from `from` to `to` in 100 ms steps; answers the steps.
    fn run(bed: &mut Bed, from: i64, to: i64) -> Vec<(i64, BedStep)> {
        let mut out = Vec::new();
        let mut t = from;
        while t <= to {
            while let Some(step) = bed.tick(t) {
                out.push((t, step));
                if step == BedStep::Over {
                    return out;
                }
            }
            t += 100;
        }
        out
    }

    #[test]
    fn go_to_bed_lies_down_sleeps_and_the_timeout_wakes_her() {
        let mut bed = Bed::enter(BedEntry::Command, 0, times());
        assert_eq!(bed.phase(), BedPhase::LyingDown);
        assert!(bed.lying() && bed.drops_touches());
        assert_eq!(bed.view().phase_ms, 2_000);
        let steps = run(&mut bed, 0, 40 * MIN);
        assert_eq!(
            steps,
            vec![(2_000, BedStep::Phase(BedPhase::Asleep)), (30 * MIN, BedStep::Woke(Some(WakeCause::Timeout))), (30 * MIN + 3_000, BedStep::Over)]
        );
    }

    #[test]
    fn the_launch_scene_starts_asleep_and_a_click_wakes_her() {
        let mut bed = Bed::enter(BedEntry::Launch, 1_000, times());
        assert!(bed.asleep());
        assert_eq!(bed.tick(5 * MIN), None, "sleeps until something wakes her");
        assert_eq!(bed.wake(WakeBy::Click, 5 * MIN), Some(BedStep::Woke(Some(WakeCause::Click))));
        assert_eq!(bed.phase(), BedPhase::Waking);
        assert!(bed.lying(), "lying through the wake clip");
        assert_eq!(bed.wake(WakeBy::Click, 5 * MIN + 100), None, "a second click while getting up does nothing");
        assert_eq!(bed.tick(5 * MIN + 2_999), None);
        assert_eq!(bed.tick(5 * MIN + 3_000), Some(BedStep::Over));
    }

    #[test]
    fn a_message_wakes_her_on_its_own_turn_and_the_backends_stand_reports_nothing() {
        let mut bed = Bed::enter(BedEntry::Launch, 0, times());
        assert_eq!(bed.wake(WakeBy::Message, MIN), Some(BedStep::Woke(Some(WakeCause::Message))));
        let mut bed = Bed::enter(BedEntry::Command, 0, times());
        bed.tick(2_000);
        assert_eq!(bed.wake(WakeBy::Backend, MIN), Some(BedStep::Woke(None)));
        assert_eq!(bed.tick(MIN + 3_000), Some(BedStep::Over));
    }

    #[test]
    fn a_wake_during_the_lie_down_clip_ends_the_scene_quietly() {
        let mut bed = Bed::enter(BedEntry::Command, 0, times());
        assert_eq!(bed.wake(WakeBy::Click, 1_000), Some(BedStep::Phase(BedPhase::Leaving)));
        assert!(!bed.lying(), "she reads standing while the bed fades");
        let steps = run(&mut bed, 1_000, 10_000);
        assert_eq!(steps, vec![(1_500, BedStep::Over)], "no wake clip, no wake signal");
    }

    #[test]
    fn another_motion_ends_the_scene_at_once_without_a_signal() {
        let mut bed = Bed::enter(BedEntry::Launch, 0, times());
        assert_eq!(bed.end(MIN), BedStep::Over);
        assert_eq!(bed.tick(MIN), Some(BedStep::Over), "over at once");
        assert_eq!(bed.wake(WakeBy::Click, MIN), None);
    }

    #[test]
    fn the_timeout_counts_from_getting_onto_the_bed() {
        let t = BedTimes::with_timeout_min(0);
        assert_eq!(t.timeout_ms, MIN, "at least a minute");
        let bed = Bed::enter(BedEntry::Command, 10_000, times());
        assert_eq!(bed.next_deadline(), 12_000);
        let mut bed = bed;
        bed.tick(12_000);
        assert_eq!(bed.next_deadline(), 10_000 + 30 * MIN);
    }
}
