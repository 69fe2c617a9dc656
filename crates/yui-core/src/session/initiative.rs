//! Turns nobody typed, on the driver: what the inbox holds (signals, agent
//! events), a wake to report, her own initiative (the milestone, cues,
//! screen transitions) and touches. Every candidate goes through
//! [`Driver::try_fire`]: the engine must be silent and the pacer open; a
//! fire is logged as `trigger_fired`, a hold as `trigger_skipped` with its
//! reason (once per event name and reason, not on every pass).

use super::driver::Driver;
use super::proactive::{Due, LocalTime};
use crate::command::Touch;
use crate::context::Trigger;
use crate::event::UiEvent;
use crate::triggers::pacing::{Hold, Source};
use crate::turn::Effects;

impl Driver {
    /// Whether a turn of `source` may start now: the bed, the engine's
    /// silence and the pacer, in that order.
    fn may_fire(&self, source: Source, now_ms: i64) -> Result<(), Hold> {
        if self.bed.is_some() && source != Source::Touch {
            return Err(Hold::OnBed);
        }
        if !self.engine.can_fire() {
            return Err(Hold::Busy);
        }
        let pacing = self.live.read(|s| s.user.reactions.pacing.clone());
        self.pacer.check(source, now_ms, self.world.fullscreen(), &pacing)
    }

    /// Log a held turn: once per event name until its reason changes.
    pub(super) fn held(&mut self, event: &str, hold: Hold) {
        let reason = hold.reason();
        if self.holds.get(event) != Some(&reason) {
            tracing::info!(record = "trigger_skipped", event_name = %event, reason, "held");
            self.holds.insert(event.to_string(), reason);
        }
    }

    /// Fire `trigger` as `source` now (the caller checked [`Driver::may_fire`]).
    /// True when the turn began.
    fn try_fire(&mut self, trigger: Trigger, source: Source, fx: &mut Effects) -> bool {
        let now = self.now();
        let event_name = trigger.event_name.clone().unwrap_or_default();
        if !self.engine.fire(trigger, now, fx) {
            self.held(&event_name, Hold::Busy);
            return false;
        }
        self.holds.remove(&event_name);
        tracing::info!(record = "trigger_fired", event_name = %event_name, source = source.name());
        self.pacer.fired(source, now.wall_ms);
        true
    }

    /// After each pass of the loop: a wake still to report, then what the
    /// inbox has due. One turn at most. True when a turn began.
    pub(super) fn fire_waiting(&mut self, fx: &mut Effects) -> bool {
        self.fire_wake(fx) || self.pump_inbox(fx)
    }

    /// Report a wake by a click or the timeout, as soon as the engine is
    /// silent (a turn still running finishes first).
    fn fire_wake(&mut self, fx: &mut Effects) -> bool {
        let Some(cause) = self.pending_wake else { return false };
        if !self.engine.can_fire() {
            return false;
        }
        self.pending_wake = None;
        let now_ms = self.clock.now_ms();
        let reactions = self.live.read(|s| s.user.reactions.clone());
        let trigger = self.proactive.wake(cause, &LocalTime::at(now_ms), &mut self.inbox, &reactions);
        self.try_fire(trigger, Source::Asked, fx)
    }

    /// Let the inbox fire what is due: one turn at most, only into silence
    /// while the user is present (the world's last reading; unknown idle
    /// counts as present) and she is up. True when a turn began.
    fn pump_inbox(&mut self, fx: &mut Effects) -> bool {
        if self.inbox.is_empty() {
            return false;
        }
        let now_ms = self.clock.now_ms();
        let paced = self.may_fire(Source::Asked, now_ms);
        if let Err(hold) = paced {
            if hold != Hold::Busy {
                self.held("inbox", hold);
            }
        }
        let ready = crate::triggers::Readiness { present: self.world.present(), idle: paced.is_ok() };
        let Some(trigger) = self.inbox.poll(now_ms, ready) else { return false };
        self.try_fire(trigger, Source::Asked, fx)
    }

    /// Her own initiative, asked once a world reading: the milestone, the
    /// schedule, screen transitions, idle cues, each as the pacer allows.
    /// True when a turn began.
    pub(super) fn take_initiative(&mut self, fx: &mut Effects) -> bool {
        let now_ms = self.clock.now_ms();
        let reactions = self.live.read(|s| s.user.reactions.clone());
        let local = LocalTime::at(now_ms);
        let checks: Vec<(Source, Result<(), Hold>)> = [Source::Asked, Source::Screen, Source::Cue].into_iter().map(|s| (s, self.may_fire(s, now_ms))).collect();
        let check = |source: Source| checks.iter().find(|(s, _)| *s == source).map_or(Ok(()), |(_, r)| *r);
        match self.proactive.next(now_ms, &local, self.world.present(), self.world.idle_known(), check, &mut self.inbox, &reactions) {
            Some(Due::Fire(trigger, source)) => self.try_fire(*trigger, source, fx),
            Some(Due::Held { event, hold }) => {
                self.held(&event, hold);
                false
            }
            None => false,
        }
    }

    /// A touch on the pet window: on the bed it wakes her (a click, the
    /// press that starts a head pat, a click on the bed); up, it may make a
    /// touch cue's turn, debounced, only into silence.
    pub(super) fn touch(&mut self, touch: &Touch, fx: &mut Effects) {
        if self.bed.is_some() {
            tracing::info!(record = "touch", touch = ?touch, "on the bed: a wake, not a cue");
            self.wake_by(crate::body::WakeBy::Click, fx);
            return;
        }
        let now_ms = self.clock.now_ms();
        let Some(trigger) = self.proactive.touch(touch, now_ms) else { return };
        self.touch_cue(trigger, fx);
    }

    /// A cue of what the user did with her body (held, dropped, set on a
    /// window or at its side): the same path as a touch.
    pub(super) fn body_cue(&mut self, kind: &crate::triggers::cues::TouchKind, fx: &mut Effects) {
        if self.bed.is_some() {
            return;
        }
        let trigger = self.proactive.body_cue(kind);
        self.touch_cue(trigger, fx);
    }

    fn touch_cue(&mut self, trigger: Trigger, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        let event = trigger.event_name.clone().unwrap_or_default();
        match self.may_fire(Source::Touch, now_ms) {
            Ok(()) => {
                if !self.try_fire(trigger, Source::Touch, fx) {
                    self.proactive.touch_dropped();
                }
            }
            // A touch is not kept: she answers the next one.
            Err(hold) => {
                tracing::info!(record = "trigger_skipped", event_name = %event, reason = hold.reason(), "touch dropped");
                self.proactive.touch_dropped();
            }
        }
    }

    /// What the pacer hears of the turns: the user's own, and each piece of
    /// a reply that shows.
    pub(super) fn pace(&mut self, event: &UiEvent) {
        let now_ms = self.clock.now_ms();
        match event {
            UiEvent::TurnStarted { text, files, .. } => {
                self.proactive.turn_started(now_ms);
                if !text.is_empty() || !files.is_empty() {
                    self.pacer.user_turn(now_ms);
                }
            }
            UiEvent::Speech { turn_id, text, .. } => {
                if self.reply_chars.0 != *turn_id {
                    self.reply_chars = (turn_id.clone(), 0);
                }
                self.reply_chars.1 += text.chars().count();
                self.pacer.reply_shown(self.reply_chars.1, now_ms);
            }
            _ => {}
        }
    }
}
