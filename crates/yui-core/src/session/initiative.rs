//! Turns nobody typed, on the driver: what the inbox holds (signals, agent
//! events), a wake to report, her own initiative (the milestone, cues,
//! screen transitions) and touches. Every candidate goes through
//! [`Driver::try_fire`]: the engine must be silent and the pacer open; a
//! fire is logged as `trigger_fired`, a hold as `trigger_skipped` with its
//! reason (once per event name and reason, not on every pass). The state
//! is the initiative part's (`parts/initiative.rs`); the bed's is the body
//! part's.

use super::driver::Driver;
use super::proactive::Due;
use crate::command::Touch;
use crate::context::Trigger;
use crate::event::UiEvent;
use crate::triggers::pacing::{Hold, Source};
use crate::turn::Effects;

impl Driver {
    /// Whether a turn of `source` may start now: the bed, the engine's
    /// silence and the pacer, in that order.
    fn may_fire(&self, source: Source, now_ms: i64) -> Result<(), Hold> {
        let pacing = self.live.read(|s| s.user.reactions.pacing.clone());
        self.initiative.may_fire(source, now_ms, self.body.on_bed(), self.engine.can_fire(), &pacing)
    }

    /// Fire `trigger` as `source` now (the caller checked [`Driver::may_fire`]).
    /// True when the turn began.
    fn try_fire(&mut self, trigger: Trigger, source: Source, fx: &mut Effects) -> bool {
        let now = self.now();
        let event_name = trigger.event_name.clone().unwrap_or_default();
        if !self.engine.fire(trigger, now, fx) {
            self.initiative.held(&event_name, Hold::Busy);
            return false;
        }
        self.initiative.fired(&event_name, source, now.wall_ms);
        true
    }

    /// After each pass of the loop: a wake still to report, then what the
    /// inbox has due. One turn at most. True when a turn began.
    pub(super) fn fire_waiting(&mut self, fx: &mut Effects) -> bool {
        self.fire_wake(fx) || self.fire_addressed(fx) || self.pump_inbox(fx)
    }

    /// Another character's reply spoke to her: her addressed turn, as soon
    /// as the engine is silent (no pacer: it is a conversation, not her
    /// initiative).
    fn fire_addressed(&mut self, fx: &mut Effects) -> bool {
        if !self.company.owes() || !self.engine.can_fire() {
            return false;
        }
        let Some(trigger) = self.company.next_addressed() else { return false };
        let now = self.now();
        if !self.engine.fire(trigger.clone(), now, fx) {
            self.company.not_fired(trigger);
            return false;
        }
        self.initiative.fired("addressed", Source::Asked, now.wall_ms);
        true
    }

    /// Report a wake by a click or the timeout, as soon as the engine is
    /// silent (a turn still running finishes first).
    fn fire_wake(&mut self, fx: &mut Effects) -> bool {
        if !self.initiative.wake_owed() || !self.engine.can_fire() {
            return false;
        }
        let now_ms = self.clock.now_ms();
        let reactions = self.live.read(|s| s.user.reactions.clone());
        let Some(trigger) = self.initiative.take_wake(now_ms, &reactions) else { return false };
        self.try_fire(trigger, Source::Asked, fx)
    }

    /// Let the inbox fire what is due: one turn at most, only into silence
    /// while the user is present (the world's last reading; unknown idle
    /// counts as present) and she is up. True when a turn began.
    fn pump_inbox(&mut self, fx: &mut Effects) -> bool {
        if self.initiative.inbox_empty() {
            return false;
        }
        let now_ms = self.clock.now_ms();
        let paced = self.may_fire(Source::Asked, now_ms);
        if let Err(hold) = paced {
            if hold != Hold::Busy {
                self.initiative.held("inbox", hold);
            }
        }
        let Some(trigger) = self.initiative.poll_inbox(now_ms, paced.is_ok()) else { return false };
        self.try_fire(trigger, Source::Asked, fx)
    }

    /// Her own initiative, asked once a world reading: the milestone, the
    /// schedule, screen transitions, idle cues, each as the pacer allows.
    /// True when a turn began.
    pub(super) fn take_initiative(&mut self, fx: &mut Effects) -> bool {
        let now_ms = self.clock.now_ms();
        let reactions = self.live.read(|s| s.user.reactions.clone());
        let checks: Vec<(Source, Result<(), Hold>)> = [Source::Asked, Source::Screen, Source::Cue].into_iter().map(|s| (s, self.may_fire(s, now_ms))).collect();
        let check = |source: Source| checks.iter().find(|(s, _)| *s == source).map_or(Ok(()), |(_, r)| *r);
        match self.initiative.next(now_ms, check, &reactions) {
            Some(Due::Fire(trigger, source)) => self.try_fire(*trigger, source, fx),
            Some(Due::Held { event, hold }) => {
                self.initiative.held(&event, hold);
                false
            }
            None => false,
        }
    }

    /// A touch on the pet window: on the bed it wakes her (a click, the
    /// press that starts a head pat, a click on the bed); up, it may make a
    /// touch cue's turn, debounced, only into silence.
    pub(super) fn touch(&mut self, touch: &Touch, fx: &mut Effects) {
        if self.body.on_bed() {
            tracing::info!(record = "touch", touch = ?touch, "on the bed: a wake, not a cue");
            self.wake_by(crate::body::WakeBy::Click, fx);
            return;
        }
        let now_ms = self.clock.now_ms();
        let Some(trigger) = self.initiative.touch(touch, now_ms) else { return };
        self.touch_cue(trigger, fx);
    }

    /// A cue of what the user did with her body (held, dropped, set on a
    /// window or at its side): the same path as a touch.
    pub(super) fn body_cue(&mut self, kind: &crate::triggers::cues::TouchKind, fx: &mut Effects) {
        if self.body.on_bed() {
            return;
        }
        let trigger = self.initiative.body_cue(kind);
        self.touch_cue(trigger, fx);
    }

    fn touch_cue(&mut self, trigger: Trigger, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        let event = trigger.event_name.clone().unwrap_or_default();
        match self.may_fire(Source::Touch, now_ms) {
            Ok(()) => {
                if !self.try_fire(trigger, Source::Touch, fx) {
                    self.initiative.touch_dropped();
                }
            }
            // A touch is not kept: she answers the next one.
            Err(hold) => {
                tracing::info!(record = "trigger_skipped", event_name = %event, reason = hold.reason(), "touch dropped");
                self.initiative.touch_dropped();
            }
        }
    }

    /// What the pacer hears of the turns.
    pub(super) fn pace(&mut self, event: &UiEvent) {
        let now_ms = self.clock.now_ms();
        self.initiative.pace(event, now_ms);
    }
}
