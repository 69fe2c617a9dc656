//! The body on the driver: the bed scene's entries, its clock and its
//! wakes (the pure machine is [`crate::body::Bed`]). Every change goes to
//! the body state the turns read, to the page as a `body` event, and to the
//! log.

use super::driver::{BodyView, Driver};
use crate::body::{Bed, BedEntry, BedStep, WakeBy};
use crate::context::WakeCause;
use crate::turn::Effects;
use tokio::time::Instant;

impl Driver {
    /// She gets onto the bed (`Launch`: asleep at once; `Command`: she lies
    /// down first). Nothing happens while she is already on it.
    pub(super) fn go_to_bed(&mut self, entry: BedEntry, fx: &mut Effects) {
        if self.bed.is_some() {
            tracing::info!(record = "bed", entry = ?entry, "already on the bed");
            return;
        }
        let now_ms = self.clock.now_ms();
        let times = self.live.read(|s| s.character.bed.times());
        self.bed = Some(Bed::enter(entry, now_ms, times));
        self.engine.set_on_bed(true);
        tracing::info!(record = "bed", entry = ?entry, wake_timeout_min = times.timeout_ms / 60_000, "on the bed");
        self.body_lying(true, fx);
    }

    /// When the bed scene moves by itself next, on the loop's clock.
    pub(super) fn bed_deadline(&self) -> Option<Instant> {
        self.instant_of(self.bed.as_ref()?.next_deadline())
    }

    /// Let the scene's clock run: clips end, the timeout wakes her.
    pub(super) fn bed_tick(&mut self, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        while let Some(step) = self.bed.as_mut().and_then(|b| b.tick(now_ms)) {
            self.bed_step(step, fx);
        }
    }

    /// Something wakes her (a click, the timeout, the backend's stand).
    pub(super) fn wake_by(&mut self, by: WakeBy, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        if let Some(step) = self.bed.as_mut().and_then(|b| b.wake(by, now_ms)) {
            self.bed_step(step, fx);
        }
    }

    /// A chat or voice message is being sent: on the bed, it wakes her, and
    /// a wake from sleep rides that message's own turn.
    pub(super) fn message_wakes(&mut self, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        if let Some(step) = self.bed.as_mut().and_then(|b| b.wake(WakeBy::Message, now_ms)) {
            if step == BedStep::Woke(Some(WakeCause::Message)) {
                self.engine.woken_by_message();
            }
            self.bed_step(step, fx);
        }
    }

    /// The scene ends with no wake signal (another motion took the body,
    /// the VRM was swapped): she stands.
    pub(super) fn end_bed(&mut self, why: &'static str, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        if let Some(step) = self.bed.as_mut().map(|b| b.end(now_ms)) {
            tracing::info!(record = "bed", reason = why, "the scene ends without a wake");
            self.bed_step(step, fx);
        }
    }

    fn bed_step(&mut self, step: BedStep, fx: &mut Effects) {
        match step {
            BedStep::Phase(phase) => {
                tracing::info!(record = "bed", phase = ?phase);
                // The fade-out reads standing; the body moved.
                let lying = self.bed.as_ref().is_some_and(Bed::lying);
                self.body_lying(lying, fx);
                self.bed_answers(phase == crate::body::BedPhase::Asleep, false);
            }
            BedStep::Woke(cause) => {
                tracing::info!(record = "bed_wake", cause = ?cause, "the wake clip starts");
                if matches!(cause, Some(WakeCause::Click | WakeCause::Timeout)) {
                    self.pending_wake = cause;
                }
                self.publish_body();
            }
            BedStep::Over => {
                self.bed = None;
                self.engine.set_on_bed(false);
                tracing::info!(record = "bed", phase = "over", "she stands");
                self.body_lying(false, fx);
                self.bed_answers(false, true);
            }
        }
    }

    /// Tell the page what the body looks like now.
    pub(super) fn publish_body(&mut self) {
        let posture = self.body.lock().unwrap_or_else(|p| p.into_inner()).posture.state;
        let view =
            BodyView { posture, bed: self.bed.as_ref().map(Bed::view), gait: self.motion.now().gait, peek: self.peek_view(), below: self.hidden_below() };
        *self.body_view.lock().unwrap_or_else(|p| p.into_inner()) = view;
        self.emit(view.event());
    }
}
