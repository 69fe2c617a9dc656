//! The posture machine ([`crate::body::Body`]) on the driver: the user's
//! hold, `body_action` calls and their answers, ambient walks, perches
//! checked against the desktop, and the window placed where the machine
//! says. The desktop is read and moved through the [`crate::tools::Desk`]
//! port.

use super::driver::Driver;
use crate::body::{ActionError, BodyAction, BodyStep, Frame, Output, Pt, Scene, Surface};
use crate::command::DragPhase;
use crate::context::PostureState;
use crate::placement::Rect;
use crate::tools::BodyRequest;
use crate::turn::Effects;
use tokio::sync::oneshot;
use tokio::time::Instant;

/// How often a move under way (or a hold) is stepped: about 30 frames a second.
pub const BODY_FRAME_MS: i64 = 33;

/// A `body_action` waiting for its move (or the bed's phase) to end.
pub(super) struct Acting {
    reply: oneshot::Sender<String>,
    until: Until,
}

/// What ends an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Until {
    /// The machine's move answers.
    Move,
    /// She is asleep on the bed (`go_to_bed`).
    Asleep,
    /// She stands again (`get_up`).
    Up,
}

impl Driver {
    /// A `body_action` call from the tools.
    pub(super) fn body_request(&mut self, req: BodyRequest, fx: &mut Effects) {
        if self.acting.as_ref().is_some_and(|a| !a.reply.is_closed()) {
            return answer(req.reply, Err(ActionError::Busy), "");
        }
        let BodyRequest { action, reply } = req;
        tracing::info!(record = "body_action", action = ?action, pet = ?self.desk.pet_window(), displays = ?self.desk.displays().map(|ds| ds.iter().map(|d| (d.x, d.y, d.width, d.height, d.scale)).collect::<Vec<_>>()));
        match action {
            BodyAction::GoToBed => {
                if self.bed.is_some() {
                    return answer(reply, Ok(()), "lying");
                }
                if self.motion.held() {
                    return answer(reply, Err(ActionError::Interrupted), "");
                }
                if matches!(self.motion.now().posture, PostureState::Sitting | PostureState::Peeking) {
                    return answer(reply, Err(ActionError::Blocked), "");
                }
                self.acting = Some(Acting { reply, until: Until::Asleep });
                self.go_to_bed(crate::body::BedEntry::Command, fx);
            }
            BodyAction::GetUp => {
                if self.bed.is_none() {
                    let state = self.body_line();
                    return answer(reply, Ok(()), &state);
                }
                self.acting = Some(Acting { reply, until: Until::Up });
                self.wake_by(crate::body::WakeBy::Backend, fx);
            }
            BodyAction::Move(mv) => {
                if !self.desk.can_place() {
                    return answer(reply, Err(ActionError::Unsupported), "");
                }
                let Some((scene, frame, origin)) = self.desk_now() else {
                    return answer(reply, Err(ActionError::Unsupported), "");
                };
                let now_ms = self.clock.now_ms();
                match self.motion.act(&mv, &scene, &frame, origin, now_ms) {
                    Ok(steps) => {
                        self.acting = Some(Acting { reply, until: Until::Move });
                        self.body_steps(steps, fx);
                    }
                    Err(e) => answer(reply, Err(e), ""),
                }
            }
        }
    }

    /// The user's hold: grab, follow the pointer, let go.
    pub(super) fn drag(&mut self, phase: DragPhase, at: Option<crate::command::PagePoint>, fx: &mut Effects) {
        if self.bed.is_some() {
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
        // The desktop's pointer, else the page's point on her window (a
        // native Wayland pet has no global pointer), placed on the window
        // place it was measured against.
        let pointer = match (self.desk.pointer(), at, self.desk.pet_window()) {
            // The grab: where the button went down on her window, which has
            // not moved yet (by the time the command arrives the desktop
            // pointer may be further on, and she would trail the hand by that).
            (Some(_), Some(at), Some(w)) if phase == DragPhase::Start => {
                Some(Pt::new(w.x + (at.x as f64 * w.scale).round() as i32, w.y + (at.y as f64 * w.scale).round() as i32))
            }
            (Some((x, y)), _, _) => Some(Pt::new(x, y)),
            (None, Some(at), Some(w)) => {
                let at = (at.x as f64, at.y as f64);
                match phase {
                    DragPhase::Start => {
                        let outputs =
                            self.desk.displays().unwrap_or_default().iter().map(|d| Output { desk: Rect::from(d), scale: f64::from(d.scale) }).collect();
                        let reference = crate::body::Reference::here();
                        Some(self.page_pointer.grab(Pt::new(w.x, w.y), at, outputs, reference, now_ms))
                    }
                    DragPhase::Move => match self.page_pointer.pointer(at, now_ms) {
                        Some(p) => Some(p),
                        None => return, // measured against a place that may be gone
                    },
                    DragPhase::End => self.page_pointer.pointer(at, now_ms).or(self.page_pointer.last()),
                }
            }
            _ => None,
        };
        if phase != DragPhase::Move {
            tracing::info!(record = "drag", phase = ?phase, at = ?at, pointer = ?pointer);
        }
        let steps = match (phase, pointer) {
            (DragPhase::Start, Some(p)) => {
                let Some(w) = self.desk.pet_window() else { return };
                self.motion.not_idle(now_ms);
                self.motion.grab(p, Pt::new(w.x, w.y), now_ms)
            }
            (DragPhase::Move, Some(p)) => self.motion.drag_to(p, now_ms),
            (DragPhase::End, p) => {
                if let Some(p) = p {
                    let steps = self.motion.drag_to(p, now_ms);
                    self.body_steps(steps, fx);
                }
                match self.desk_now() {
                    Some((scene, frame, _)) => self.motion.release(&scene, &frame, now_ms),
                    None => self.motion.release(&Scene::default(), &self.frame_guess(), now_ms),
                }
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
        let now_ms = self.clock.now_ms();
        if self.motion.moving() || self.motion.held() {
            return self.instant_of(now_ms + BODY_FRAME_MS);
        }
        let perch = self.motion.perched().then_some(self.perch_check_at.max(now_ms));
        let ambient = (self.desk.can_place() && self.bed.is_none()).then(|| self.motion.ambient_due()).flatten();
        self.instant_of(perch.into_iter().chain(ambient).min()?)
    }

    /// Let the body's time run: the move goes on, a perch is checked, an
    /// idle stand may stroll.
    pub(super) fn body_tick(&mut self, fx: &mut Effects) {
        let now_ms = self.clock.now_ms();
        if self.motion.moving() || self.motion.held() {
            let steps = self.motion.tick(now_ms);
            return self.body_steps(steps, fx);
        }
        if self.motion.perched() && now_ms >= self.perch_check_at {
            self.perch_check_at = now_ms + self.motion.tunables().perch_check_ms as i64;
            if let Some((scene, frame, _)) = self.desk_now() {
                let steps = self.motion.scene_changed(&scene, &frame, now_ms);
                self.body_steps(steps, fx);
            }
        }
        if !self.motion.moving() && self.motion.ambient_due().is_some_and(|due| now_ms >= due) {
            if self.engine.busy() || self.engine.speaking() || self.bed.is_some() {
                return self.motion.not_idle(now_ms);
            }
            if let Some((scene, frame, origin)) = self.desk_now() {
                // A pick that varies from walk to walk without a generator.
                let pick = ((now_ms / 7) % 1000) as f64 / 1000.0;
                let steps = self.motion.ambient(&scene, &frame, origin, pick, now_ms);
                self.body_steps(steps, fx);
            }
        }
    }

    /// Carry out the machine's steps.
    pub(super) fn body_steps(&mut self, steps: Vec<BodyStep>, fx: &mut Effects) {
        for step in steps {
            match step {
                BodyStep::Place(at) => {
                    if self.motion.held() {
                        self.page_pointer.placed(at, self.clock.now_ms());
                    }
                    self.desk.place_pet(at.x, at.y)
                }
                BodyStep::Posture => {
                    let now = self.motion.now();
                    let on = now.perch.as_ref().filter(|_| now.posture.carries_perch()).map(|w| w.app.as_str());
                    let (x, y) = now.origin.map_or((None, None), |o| (Some(o.x), Some(o.y)));
                    tracing::info!(record = "body_posture", posture = now.posture.as_str(), perched_on = on.unwrap_or(""), x, y);
                    self.sync_body();
                    if !self.motion.moving() && !self.motion.held() {
                        self.remember_place();
                    }
                    if self.motion.perched() {
                        self.perch_check_at = self.clock.now_ms() + self.motion.tunables().perch_check_ms as i64;
                    }
                }
                BodyStep::Cue(kind) => {
                    tracing::info!(record = "body_cue", cue = %kind.name());
                    self.body_cue(&kind, fx);
                }
                BodyStep::Answer(result) => {
                    if let Some(acting) = self.acting.take_if(|a| a.until == Until::Move) {
                        let state = self.body_line();
                        answer(acting.reply, result, &state);
                    }
                }
            }
        }
    }

    /// A cue's `motion_id` is dropped while she sits, peeks or lies: a
    /// whole-body clip would tear her off the edge or the bed. Expressions
    /// and the voice tone still play.
    pub(super) fn hold_still(&self, event: &mut crate::event::UiEvent) {
        let crate::event::UiEvent::Cue { cue, .. } = event else { return };
        let posture = self.motion.now().posture;
        if cue.motion_id.is_some() && matches!(posture, PostureState::Sitting | PostureState::Peeking | PostureState::Lying) {
            tracing::info!(record = "motion_dropped", motion_id = ?cue.motion_id, posture = posture.as_str());
            cue.motion_id = None;
        }
    }

    /// Put the pet window where this character stood last, when that place
    /// is still on a display; otherwise (a first start, or that place is
    /// gone) on the floor of the primary display, towards its right.
    pub(super) fn restore_place(&mut self) {
        if !self.desk.can_place() {
            return;
        }
        let Some(w) = self.desk.pet_window() else { return };
        let displays = self.desk.displays().unwrap_or_default();
        let monitors: Vec<Rect> = displays.iter().map(Rect::from).collect();
        let frame = self.frame_or_guess(&w);
        let restored = self.places.0.recall(&self.places.1).and_then(|at| {
            let place = crate::placement::restore_position(at, (frame.width, frame.height), &monitors);
            if place.is_none() {
                tracing::info!(record = "pet_place_not_restored", x = at.0, y = at.1, "off every display now");
            }
            place
        });
        let (x, y) = match restored {
            Some(place) => {
                tracing::info!(record = "pet_place_restored", x = place.0, y = place.1);
                place
            }
            None => {
                // No place of hers yet: the floor of the primary display, towards the right.
                let Some(i) = displays.iter().position(|d| d.primary).or((!displays.is_empty()).then_some(0)) else { return };
                let home = crate::body::plan::home(monitors[i], &frame);
                tracing::info!(record = "pet_place_home", x = home.x, y = home.y);
                (home.x, home.y)
            }
        };
        self.desk.place_pet(x, y);
        self.motion.located(Pt::new(x, y));
        // Placed on the floor, the strip under her feet hangs below the
        // display: the page must lift her controls before she first moves.
        let below = self.hidden_below();
        if below != self.body_view.lock().unwrap_or_else(|p| p.into_inner()).below {
            self.publish_body();
        }
    }

    /// Remember where she stands now, for the next start.
    fn remember_place(&mut self) {
        if let Some(o) = self.motion.now().origin {
            let (book, character) = &mut self.places;
            book.remember(character, o.x, o.y);
        }
    }

    /// While a fullscreen app is frontmost she stops staying above it (a
    /// film or a game covers her); she comes back on top when it leaves.
    pub(super) fn stay_out_of_fullscreen(&mut self) {
        let above = !self.world.fullscreen();
        if above != self.above {
            self.above = above;
            tracing::info!(record = "pet_above", above, "a fullscreen app is frontmost: {}", if above { "no longer" } else { "she steps back" });
            self.desk.keep_above(above);
        }
    }

    /// The bed moved on: a `go_to_bed` answers once she is asleep, a
    /// `get_up` once she stands; a bed scene that ends early interrupts.
    pub(super) fn bed_answers(&mut self, asleep: bool, over: bool) {
        let done = match self.acting.as_ref().map(|a| a.until) {
            Some(Until::Asleep) if asleep => Ok(()),
            Some(Until::Asleep) if over => Err(ActionError::Interrupted),
            Some(Until::Up) if over => Ok(()),
            _ => return,
        };
        if let Some(acting) = self.acting.take() {
            let state = self.body_line();
            answer(acting.reply, done, &state);
        }
    }

    /// The bed took the body, or gave it back.
    pub(super) fn body_lying(&mut self, lying: bool, fx: &mut Effects) {
        let steps = self.motion.set_lying(lying, self.clock.now_ms());
        let told = steps.contains(&BodyStep::Posture);
        self.body_steps(steps, fx);
        // The bed's phase changed even when the posture did not.
        if !told {
            self.sync_body();
        }
    }

    /// The body's state for the turns: the machine's posture, what she is
    /// perched on, since when; then the page hears of it.
    fn sync_body(&mut self) {
        let now = self.motion.now();
        {
            let mut body = self.body.lock().unwrap_or_else(|p| p.into_inner());
            let perched_on = now.perch.as_ref().filter(|_| now.posture.carries_perch()).map(|w| crate::context::Perch {
                app: Some(w.app.clone()).filter(|a| !a.is_empty()),
                window_title: Some(w.title.clone()).filter(|t| !t.is_empty()),
            });
            body.posture = crate::context::Posture { state: now.posture, perched_on };
            body.since = now.since_ms;
        }
        self.publish_body();
    }

    /// The state as `body_action` answers it: `sitting on Notes`.
    fn body_line(&self) -> String {
        let body = self.body.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let text = crate::context::body_text(&body, self.clock.now_ms());
        // The answer is the posture; the line's "for …" tail is the turn's.
        text.split(" (").next().unwrap_or(&text).to_string()
    }

    /// The peek as the page draws it.
    pub(super) fn peek_view(&self) -> Option<crate::event::PeekView> {
        let now = self.motion.now();
        let peek = now.peek.filter(|_| now.posture == PostureState::Peeking)?;
        let scale = self.desk.pet_window().map_or(1.0, |w| w.scale);
        let edge = match (&peek.from, now.origin) {
            (Some(_), Some(o)) => Some((peek.edge_x - o.x) as f64 / scale),
            _ => None,
        };
        Some(crate::event::PeekView { side: peek.side, edge })
    }

    /// The frame of window `w`; early in the start, before it has its size,
    /// the frame guess.
    fn frame_or_guess(&self, w: &crate::tools::PetWindow) -> Frame {
        if w.width > 0 && w.height > 0 {
            Frame::new(w.width as i32, w.height as i32, w.scale, self.motion.tunables())
        } else {
            self.frame_guess()
        }
    }

    /// How far her window hangs below the display holding her feet, CSS
    /// px; `None` when it does not (or the desk cannot tell).
    pub(super) fn hidden_below(&self) -> Option<f64> {
        let w = self.desk.pet_window()?;
        if !self.desk.has_body() {
            return None;
        }
        let displays = self.desk.displays().ok()?;
        let frame = self.frame_or_guess(&w);
        // Where the body put her: the window may not have moved there yet
        // (placing is asynchronous on every desktop).
        let origin = self.motion.now().origin.unwrap_or(Pt::new(w.x, w.y));
        let feet = frame.feet_of(origin);
        let rects: Vec<Rect> = displays.iter().map(Rect::from).collect();
        let d = Scene { windows: Vec::new(), displays: rects }.display_at(feet)?;
        let below = (origin.y + frame.height) - (d.y + d.height);
        (below > 0 && feet.y <= d.y + d.height).then(|| f64::from(below) / frame.scale)
    }

    /// The desktop now: other windows, displays, the pet's frame and origin.
    fn desk_now(&mut self) -> Option<(Scene, Frame, Pt)> {
        let w = self.desk.pet_window()?;
        let windows = self
            .desk
            .windows()
            .map_err(|e| tracing::warn!(record = "body_windows_failed", error = %e))
            .unwrap_or_default()
            .into_iter()
            .map(|w| Surface { app: w.app, title: w.title, rect: Rect { x: w.x, y: w.y, width: w.width as i32, height: w.height as i32 } })
            .collect();
        let displays = self
            .desk
            .displays()
            .map_err(|e| tracing::warn!(record = "body_displays_failed", error = %e))
            .unwrap_or_default()
            .into_iter()
            .map(|d| Rect::from(&d))
            .collect();
        let frame = Frame::new(w.width as i32, w.height as i32, w.scale, self.motion.tunables());
        let origin = Pt::new(w.x, w.y);
        self.motion.located(origin);
        Some((Scene { windows, displays }, frame, origin))
    }

    fn frame_guess(&self) -> Frame {
        Frame::new(360, 520, 1.0, self.motion.tunables())
    }
}

/// Send an action's answer: `ok: <posture>` or `error: <reason>`.
fn answer(reply: oneshot::Sender<String>, result: Result<(), ActionError>, state: &str) {
    let text = match result {
        Ok(()) => format!("ok: {state}"),
        Err(e) => format!("error: {}", e.as_str()),
    };
    tracing::info!(record = "body_action_answer", answer = %text);
    if reply.send(text).is_err() {
        tracing::info!(record = "body_action_late", "the call ended before its move did");
    }
}
