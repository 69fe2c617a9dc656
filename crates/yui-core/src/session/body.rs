//! The bed on the driver: the bed scene's entries, its clock and its
//! wakes (the pure machine is [`crate::body::Bed`], held by the body part,
//! `parts/body.rs`). Every change goes to the body state the turns read,
//! to the page as a `body` event, and to the log; the engine hears she is
//! on the bed, and a wake to report goes to the initiative part.

use super::driver::Driver;
use crate::body::{BedEntry, BedStep, WakeBy};
use crate::context::WakeCause;
use crate::turn::Effects;
use tokio::time::Instant;

impl Driver {
    /// She gets onto the bed (`Launch`: asleep at once; `Command`: she lies
    /// down first). Nothing happens while she is already on it.
    pub(super) fn go_to_bed(&mut self, entry: BedEntry, fx: &mut Effects) {
        if self.body.on_bed() {
            tracing::info!(record = "bed", entry = ?entry, "already on the bed");
            return;
        }
        let now_ms = self.clock.now_ms();
        let times = self.live.read(|s| s.character.bed.times());
        self.body.enter_bed(entry, now_ms, times);
        self.engine.set_on_bed(true);
        tracing::info!(record = "bed", entry = ?entry, wake_timeout_min = times.timeout_ms / 60_000, "on the bed");
        self.body_lying(true, fx);
    }

    /// When the bed scene moves by itself next, on the loop's clock.
    pub(super) fn bed_deadline(&self) -> Option<Instant> {
        self.instant_of(self.body.bed_deadline()?)
    }

    /// Let the scene's clock run: clips end, the timeout wakes her.
    pub(super) fn bed_tick(&mut self, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        while let Some(step) = self.body.bed_tick(now_ms) {
            self.bed_step(step, fx);
        }
    }

    /// Something wakes her (a click, the timeout, the backend's stand).
    pub(super) fn wake_by(&mut self, by: WakeBy, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        if let Some(step) = self.body.bed_wake(by, now_ms) {
            self.bed_step(step, fx);
        }
    }

    /// A chat or voice message is being sent: on the bed, it wakes her, and
    /// a wake from sleep rides that message's own turn.
    pub(super) fn message_wakes(&mut self, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        if let Some(step) = self.body.bed_wake(WakeBy::Message, now_ms) {
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
        if let Some(step) = self.body.bed_end(now_ms) {
            tracing::info!(record = "bed", reason = why, "the scene ends without a wake");
            self.bed_step(step, fx);
        }
    }

    fn bed_step(&mut self, step: BedStep, fx: &mut Effects) {
        match step {
            BedStep::Phase(phase) => {
                tracing::info!(record = "bed", phase = ?phase);
                // The fade-out reads standing; the body moved.
                let lying = self.body.bed_lying();
                self.body_lying(lying, fx);
                self.body.bed_answers(phase == crate::body::BedPhase::Asleep, false, self.clock.now_ms());
            }
            BedStep::Woke(cause) => {
                tracing::info!(record = "bed_wake", cause = ?cause, "the wake clip starts");
                if let Some(cause @ (WakeCause::Click | WakeCause::Timeout)) = cause {
                    self.initiative.owe_wake(cause);
                }
                self.publish_body();
            }
            BedStep::Over => {
                self.body.leave_bed();
                self.engine.set_on_bed(false);
                tracing::info!(record = "bed", phase = "over", "she stands");
                self.body_lying(false, fx);
                self.body.bed_answers(false, true, self.clock.now_ms());
            }
        }
    }
}
