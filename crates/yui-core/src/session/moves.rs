//! The body's moves on the driver: the user's hold, `body_action` calls
//! and their answers, ambient walks, perches checked against the desktop,
//! and the window placed where the machine says. The state is the body
//! part's (`parts/body.rs`); these flows meet it with the engine, the
//! initiative (a body cue may start a turn) and the page.

use super::driver::Driver;
use super::parts::body::{answer, Until};
use crate::body::{ActionError, BodyAction, BodyStep};
use crate::command::DragPhase;
use crate::tools::BodyRequest;
use crate::turn::Effects;
use tokio::time::Instant;

impl Driver {
    /// A `body_action` call from the tools.
    pub(super) fn body_request(&mut self, req: BodyRequest, fx: &mut Effects) {
        if self.body.acting() {
            return answer(req.reply, Err(ActionError::Busy), "");
        }
        let BodyRequest { action, reply } = req;
        tracing::info!(record = "body_action", action = ?action, pet = ?self.desk.pet_window(), displays = ?self.desk.displays().map(|ds| ds.iter().map(|d| (d.x, d.y, d.width, d.height, d.scale)).collect::<Vec<_>>()));
        match action {
            BodyAction::GoToBed => {
                if self.body.on_bed() {
                    return answer(reply, Ok(()), "lying");
                }
                if self.body.held() {
                    return answer(reply, Err(ActionError::Interrupted), "");
                }
                if self.body.sitting_or_peeking() {
                    return answer(reply, Err(ActionError::Blocked), "");
                }
                self.body.act(reply, Until::Asleep);
                self.go_to_bed(crate::body::BedEntry::Command, fx);
            }
            BodyAction::GetUp => {
                if !self.body.on_bed() {
                    let state = self.body.line(self.clock.now_ms());
                    return answer(reply, Ok(()), &state);
                }
                self.body.act(reply, Until::Up);
                self.wake_by(crate::body::WakeBy::Backend, fx);
            }
            BodyAction::Move(mv) => {
                if !self.desk.can_place() {
                    return answer(reply, Err(ActionError::Unsupported), "");
                }
                let now_ms = self.clock.now_ms();
                match self.body.act_move(&mv, &*self.desk, now_ms) {
                    Ok(steps) => {
                        self.body.act(reply, Until::Move);
                        self.body_steps(steps, fx);
                    }
                    Err(e) => answer(reply, Err(e), ""),
                }
            }
        }
    }

    /// The user's hold: grab, follow the pointer, let go.
    pub(super) fn drag(&mut self, phase: DragPhase, at: Option<crate::command::PagePoint>, fx: &mut Effects) {
        if self.body.on_bed() {
            return;
        }
        if !self.desk.can_place() {
            // The system moves the window itself (no posture, no fall).
            if phase == DragPhase::Start {
                self.emit(crate::event::UiEvent::DragBySystem);
            }
            return;
        }
        let now_ms = self.clock.now_ms();
        let Some(pointer) = self.body.drag_pointer(phase, at, &*self.desk, now_ms) else { return };
        if phase != DragPhase::Move {
            tracing::info!(record = "drag", phase = ?phase, at = ?at, pointer = ?pointer);
        }
        let steps = match (phase, pointer) {
            (DragPhase::Start, Some(p)) => {
                let Some(steps) = self.body.grab(p, &*self.desk, now_ms) else { return };
                steps
            }
            (DragPhase::Move, Some(p)) => self.body.drag_to(p, now_ms),
            (DragPhase::End, p) => {
                if let Some(p) = p {
                    let steps = self.body.drag_to(p, now_ms);
                    self.body_steps(steps, fx);
                }
                self.body.release(&*self.desk, now_ms)
            }
            (_, None) => {
                tracing::warn!(record = "drag_no_pointer", phase = ?phase, "the pointer cannot be read");
                return;
            }
        };
        self.body_steps(steps, fx);
    }

    /// When the body next needs the loop: every frame while a move runs or
    /// she is held, at the next perch check while she is on a window, at
    /// the next ambient walk while she stands idle.
    pub(super) fn body_deadline(&self) -> Option<Instant> {
        self.instant_of(self.body.next_due(self.desk.can_place(), self.clock.now_ms())?)
    }

    /// Let the body's time run: the move goes on, a perch is checked, an
    /// idle stand may stroll.
    pub(super) fn body_tick(&mut self, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        if let Some(steps) = self.body.tick_move(now_ms) {
            return self.body_steps(steps, fx);
        }
        if let Some(steps) = self.body.check_perch(&*self.desk, now_ms) {
            self.body_steps(steps, fx);
        }
        if self.body.ambient_due(now_ms) {
            if self.engine.busy() || self.engine.speaking() || self.body.on_bed() {
                return self.body.not_idle(now_ms);
            }
            if let Some(steps) = self.body.ambient(&*self.desk, now_ms) {
                self.body_steps(steps, fx);
            }
        }
    }

    /// Carry out the machine's steps.
    pub(super) fn body_steps(&mut self, steps: Vec<BodyStep>, fx: &mut Effects) {
        for step in steps {
            match step {
                BodyStep::Place(at) => self.body.place(at, &*self.desk, self.clock.now_ms()),
                BodyStep::Posture => {
                    self.body.posture_changed();
                    self.publish_body();
                    self.body.settled(self.clock.now_ms());
                }
                BodyStep::Cue(kind) => {
                    tracing::info!(record = "body_cue", cue = %kind.name());
                    self.body_cue(&kind, fx);
                }
                BodyStep::Answer(result) => self.body.move_answered(result, self.clock.now_ms()),
            }
        }
    }

    /// Put the pet window where this character stood last (or at home),
    /// and tell the page when her window hangs below the display.
    pub(super) fn restore_place(&mut self) {
        if self.body.restore_place(&*self.desk, self.company.place()) {
            self.publish_body();
        }
    }

    /// While a fullscreen app is frontmost she stops staying above it (a
    /// film or a game covers her); she comes back on top when it leaves.
    pub(super) fn stay_out_of_fullscreen(&mut self) {
        let above = !self.initiative.fullscreen();
        self.body.keep_above(above, &*self.desk);
    }

    /// The bed took the body, or gave it back.
    pub(super) fn body_lying(&mut self, lying: bool, fx: &mut Effects) {
        let steps = self.body.set_lying(lying, self.clock.now_ms());
        let told = steps.contains(&BodyStep::Posture);
        self.body_steps(steps, fx);
        // The bed's phase changed even when the posture did not.
        if !told {
            self.body.sync_state();
            self.publish_body();
        }
    }

    /// Tell the page what the body looks like now.
    pub(super) fn publish_body(&mut self) {
        let view = self.body.view(&*self.desk);
        self.emit(view.event());
    }
}
