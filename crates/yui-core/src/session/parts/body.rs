//! The body part: the posture machine ([`crate::body::Body`]) and the bed
//! scene, the `body_action` waiting for its move, the perch check, the
//! hold's pointer rebuilt from the page, whether the window stays above,
//! where each character stood last, and the body's state as the turns read
//! it and as the page draws it. The desktop is read and moved through the
//! [`Desk`] port, passed in by the driver.

use crate::body::bed::BedTimes;
use crate::body::{ActionError, Bed, BedStep, BodyMove, BodyStep, Frame, Output, PagePointer, Pt, Scene, Surface, WakeBy};
use crate::command::{DragPhase, PagePoint};
use crate::context::{BodyState, PostureState};
use crate::event::UiEvent;
use crate::placement::{PlaceBook, Rect};
use crate::tools::{Desk, PetWindow};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::oneshot;

/// How often a move under way (or a hold) is stepped: about 30 frames a second.
pub const BODY_FRAME_MS: i64 = 33;

/// The body as the page draws it: what the last `body` event said.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyView {
    /// The posture.
    pub posture: PostureState,
    /// The bed scene, while it runs.
    pub bed: Option<crate::body::BedView>,
    /// The gait of the move under way.
    pub gait: Option<crate::body::Gait>,
    /// The peek, while she peeks.
    pub peek: Option<crate::event::PeekView>,
    /// CSS px of her window below the display she is on.
    pub below: Option<f64>,
}

impl BodyView {
    /// A body standing still.
    pub fn standing() -> Self {
        BodyView { posture: PostureState::Standing, bed: None, gait: None, peek: None, below: None }
    }

    /// The `body` event that says this.
    pub fn event(&self) -> UiEvent {
        UiEvent::Body { posture: self.posture, bed: self.bed, gait: self.gait, peek: self.peek, below: self.below }
    }
}

/// A `body_action` waiting for its move (or the bed's phase) to end.
struct Acting {
    reply: oneshot::Sender<String>,
    until: Until,
}

/// What ends an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::session) enum Until {
    /// The machine's move answers.
    Move,
    /// She is asleep on the bed (`go_to_bed`).
    Asleep,
    /// She stands again (`get_up`).
    Up,
}

/// Her body and everything that follows it.
pub(in crate::session) struct Body {
    /// The posture machine: every move of the body goes through it.
    motion: crate::body::Body,
    /// The bed scene, while it runs.
    bed: Option<Bed>,
    /// The `body_action` waiting for its move, if any.
    acting: Option<Acting>,
    /// When the window she is perched on is checked next (epoch ms).
    perch_check_at: i64,
    /// A hold's pointer rebuilt from the page's points, where the desktop
    /// gives no global pointer.
    page_pointer: PagePointer,
    /// Whether the pet window is kept above others (not while a fullscreen
    /// app is frontmost).
    above: bool,
    /// Where each character stood last, and this one's name.
    places: (PlaceBook, String),
    /// The body's state the turns read.
    state: Arc<Mutex<BodyState>>,
    /// The body as the page draws it (read when a page loads).
    view: Arc<Mutex<BodyView>>,
}

impl Body {
    /// A body standing, kept above, writing its state to `state` and
    /// `view`, remembering its place in `places` under `character`.
    pub fn new(motion: crate::body::Body, state: Arc<Mutex<BodyState>>, view: Arc<Mutex<BodyView>>, places: PlaceBook, character: String) -> Self {
        Body { motion, bed: None, acting: None, perch_check_at: 0, page_pointer: PagePointer::default(), above: true, places: (places, character), state, view }
    }

    /// The body state the turns read, locked.
    fn state(&self) -> MutexGuard<'_, BodyState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether she is on the bed.
    pub fn on_bed(&self) -> bool {
        self.bed.is_some()
    }

    /// Whether the bed scene has her lying.
    pub fn bed_lying(&self) -> bool {
        self.bed.as_ref().is_some_and(Bed::lying)
    }

    /// Whether the user holds her.
    pub fn held(&self) -> bool {
        self.motion.held()
    }

    /// Whether she sits on an edge or peeks (no bed from there).
    pub fn sitting_or_peeking(&self) -> bool {
        matches!(self.motion.now().posture, PostureState::Sitting | PostureState::Peeking)
    }

    /// Whether a `body_action` still waits for its move.
    pub fn acting(&self) -> bool {
        self.acting.as_ref().is_some_and(|a| !a.reply.is_closed())
    }

    /// A `body_action` now waits for `until`.
    pub fn act(&mut self, reply: oneshot::Sender<String>, until: Until) {
        self.acting = Some(Acting { reply, until });
    }

    /// She gets onto the bed.
    pub fn enter_bed(&mut self, entry: crate::body::BedEntry, now_ms: i64, times: BedTimes) {
        self.bed = Some(Bed::enter(entry, now_ms, times));
    }

    /// The bed scene is over.
    pub fn leave_bed(&mut self) {
        self.bed = None;
    }

    /// When the bed scene moves by itself next (epoch ms).
    pub fn bed_deadline(&self) -> Option<i64> {
        Some(self.bed.as_ref()?.next_deadline())
    }

    /// The bed's next step by its own clock, if one is due.
    pub fn bed_tick(&mut self, now_ms: i64) -> Option<BedStep> {
        self.bed.as_mut().and_then(|b| b.tick(now_ms))
    }

    /// The bed's step when something wakes her.
    pub fn bed_wake(&mut self, by: WakeBy, now_ms: i64) -> Option<BedStep> {
        self.bed.as_mut().and_then(|b| b.wake(by, now_ms))
    }

    /// The bed's step when the scene ends with no wake.
    pub fn bed_end(&mut self, now_ms: i64) -> Option<BedStep> {
        self.bed.as_mut().map(|b| b.end(now_ms))
    }

    /// A move asked by `body_action`: the machine's steps, or why not.
    pub fn act_move(&mut self, mv: &BodyMove, desk: &dyn Desk, now_ms: i64) -> Result<Vec<BodyStep>, ActionError> {
        let Some((scene, frame, origin)) = self.desk_now(desk) else { return Err(ActionError::Unsupported) };
        self.motion.act(mv, &scene, &frame, origin, now_ms)
    }

    /// Where the user's hold points: the desktop's pointer, else the
    /// page's point on her window (a native Wayland pet has no global
    /// pointer), placed on the window place it was measured against.
    /// `None` when this phase is to be ignored (measured against a place
    /// that may be gone); `Some(None)` when no pointer can be read.
    pub fn drag_pointer(&mut self, phase: DragPhase, at: Option<PagePoint>, desk: &dyn Desk, now_ms: i64) -> Option<Option<Pt>> {
        Some(match (desk.pointer(), at, desk.pet_window()) {
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
                        let outputs = desk.displays().unwrap_or_default().iter().map(|d| Output { desk: Rect::from(d), scale: f64::from(d.scale) }).collect();
                        let reference = crate::body::Reference::here();
                        Some(self.page_pointer.grab(Pt::new(w.x, w.y), at, outputs, reference, now_ms))
                    }
                    DragPhase::Move => Some(self.page_pointer.pointer(at, now_ms)?),
                    DragPhase::End => self.page_pointer.pointer(at, now_ms).or(self.page_pointer.last()),
                }
            }
            _ => None,
        })
    }

    /// The user grabs her at `p`; `None` when her window cannot be read.
    pub fn grab(&mut self, p: Pt, desk: &dyn Desk, now_ms: i64) -> Option<Vec<BodyStep>> {
        let w = desk.pet_window()?;
        self.motion.not_idle(now_ms);
        Some(self.motion.grab(p, Pt::new(w.x, w.y), now_ms))
    }

    /// The hold follows the pointer to `p`.
    pub fn drag_to(&mut self, p: Pt, now_ms: i64) -> Vec<BodyStep> {
        self.motion.drag_to(p, now_ms)
    }

    /// The user lets go.
    pub fn release(&mut self, desk: &dyn Desk, now_ms: i64) -> Vec<BodyStep> {
        match self.desk_now(desk) {
            Some((scene, frame, _)) => self.motion.release(&scene, &frame, now_ms),
            None => self.motion.release(&Scene::default(), &self.frame_guess(), now_ms),
        }
    }

    /// When the body next needs the loop (epoch ms): every frame while a
    /// move runs or she is held, at the next perch check while she is on a
    /// window, at the next ambient walk while she stands idle (`can_place`:
    /// the desk places her window).
    pub fn next_due(&self, can_place: bool, now_ms: i64) -> Option<i64> {
        if self.motion.moving() || self.motion.held() {
            return Some(now_ms + BODY_FRAME_MS);
        }
        let perch = self.motion.perched().then_some(self.perch_check_at.max(now_ms));
        let ambient = (can_place && self.bed.is_none()).then(|| self.motion.ambient_due()).flatten();
        perch.into_iter().chain(ambient).min()
    }

    /// The move under way (or the hold) goes on; `None` when none runs.
    pub fn tick_move(&mut self, now_ms: i64) -> Option<Vec<BodyStep>> {
        (self.motion.moving() || self.motion.held()).then(|| self.motion.tick(now_ms))
    }

    /// The window she is perched on, checked when due.
    pub fn check_perch(&mut self, desk: &dyn Desk, now_ms: i64) -> Option<Vec<BodyStep>> {
        if !self.motion.perched() || now_ms < self.perch_check_at {
            return None;
        }
        self.perch_check_at = now_ms + self.motion.tunables().perch_check_ms as i64;
        let (scene, frame, _) = self.desk_now(desk)?;
        Some(self.motion.scene_changed(&scene, &frame, now_ms))
    }

    /// Whether an ambient walk is due now (no move under way).
    pub fn ambient_due(&self, now_ms: i64) -> bool {
        !self.motion.moving() && self.motion.ambient_due().is_some_and(|due| now_ms >= due)
    }

    /// She was not idle: the next ambient walk waits.
    pub fn not_idle(&mut self, now_ms: i64) {
        self.motion.not_idle(now_ms)
    }

    /// An idle stand strolls.
    pub fn ambient(&mut self, desk: &dyn Desk, now_ms: i64) -> Option<Vec<BodyStep>> {
        let (scene, frame, origin) = self.desk_now(desk)?;
        // A pick that varies from walk to walk without a generator.
        let pick = ((now_ms / 7) % 1000) as f64 / 1000.0;
        Some(self.motion.ambient(&scene, &frame, origin, pick, now_ms))
    }

    /// The bed took the body, or gave it back.
    pub fn set_lying(&mut self, lying: bool, now_ms: i64) -> Vec<BodyStep> {
        self.motion.set_lying(lying, now_ms)
    }

    /// The machine places her window at `at`.
    pub fn place(&mut self, at: Pt, desk: &dyn Desk, now_ms: i64) {
        if self.motion.held() {
            self.page_pointer.placed(at, now_ms);
        }
        desk.place_pet(at.x, at.y)
    }

    /// The posture changed: logged, and the body's state for the turns
    /// follows (the machine's posture, what she is perched on, since when).
    pub fn posture_changed(&mut self) {
        let now = self.motion.now();
        let on = now.perch.as_ref().filter(|_| now.posture.carries_perch()).map(|w| w.app.as_str());
        let (x, y) = now.origin.map_or((None, None), |o| (Some(o.x), Some(o.y)));
        tracing::info!(record = "body_posture", posture = now.posture.as_str(), perched_on = on.unwrap_or(""), x, y);
        self.sync_state();
    }

    /// After a posture change: her place is remembered once she stands
    /// still, and a perch is checked from now.
    pub fn settled(&mut self, now_ms: i64) {
        if !self.motion.moving() && !self.motion.held() {
            self.remember_place();
        }
        if self.motion.perched() {
            self.perch_check_at = now_ms + self.motion.tunables().perch_check_ms as i64;
        }
    }

    /// The body's state for the turns: the machine's posture, what she is
    /// perched on, since when.
    pub fn sync_state(&mut self) {
        let now = self.motion.now();
        let mut body = self.state();
        let perched_on = now.perch.as_ref().filter(|_| now.posture.carries_perch()).map(|w| crate::context::Perch {
            app: Some(w.app.clone()).filter(|a| !a.is_empty()),
            window_title: Some(w.title.clone()).filter(|t| !t.is_empty()),
        });
        body.posture = crate::context::Posture { state: now.posture, perched_on };
        body.since = now.since_ms;
    }

    /// The machine's move answered: the waiting `body_action` hears it.
    pub fn move_answered(&mut self, result: Result<(), ActionError>, now_ms: i64) {
        if let Some(acting) = self.acting.take_if(|a| a.until == Until::Move) {
            let state = self.line(now_ms);
            answer(acting.reply, result, &state);
        }
    }

    /// The bed moved on: a `go_to_bed` answers once she is asleep, a
    /// `get_up` once she stands; a bed scene that ends early interrupts.
    pub fn bed_answers(&mut self, asleep: bool, over: bool, now_ms: i64) {
        let done = match self.acting.as_ref().map(|a| a.until) {
            Some(Until::Asleep) if asleep => Ok(()),
            Some(Until::Asleep) if over => Err(ActionError::Interrupted),
            Some(Until::Up) if over => Ok(()),
            _ => return,
        };
        if let Some(acting) = self.acting.take() {
            let state = self.line(now_ms);
            answer(acting.reply, done, &state);
        }
    }

    /// The state as `body_action` answers it: `sitting on Notes`.
    pub fn line(&self, now_ms: i64) -> String {
        let body = self.state().clone();
        let text = crate::context::body_text(&body, now_ms);
        // The answer is the posture; the line's "for …" tail is the turn's.
        text.split(" (").next().unwrap_or(&text).to_string()
    }

    /// A cue's `motion_id` is dropped while she sits, peeks or lies: a
    /// whole-body clip would tear her off the edge or the bed. Expressions
    /// and the voice tone still play.
    pub fn hold_still(&self, event: &mut UiEvent) {
        let UiEvent::Cue { cue, .. } = event else { return };
        let posture = self.motion.now().posture;
        if cue.motion_id.is_some() && matches!(posture, PostureState::Sitting | PostureState::Peeking | PostureState::Lying) {
            tracing::info!(record = "motion_dropped", motion_id = ?cue.motion_id, posture = posture.as_str());
            cue.motion_id = None;
        }
    }

    /// Put the pet window where this character stood last, when that place
    /// is still on a display; otherwise (a first start, or that place is
    /// gone) on the floor of the primary display, towards its right, the
    /// `place`-th from the right among several characters. True
    /// when the page must hear of the body (her window hangs below the
    /// display differently than it last heard).
    pub fn restore_place(&mut self, desk: &dyn Desk, place: usize) -> bool {
        if !desk.can_place() {
            return false;
        }
        let Some(w) = desk.pet_window() else { return false };
        let displays = desk.displays().unwrap_or_default();
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
                let Some(i) = displays.iter().position(|d| d.primary).or((!displays.is_empty()).then_some(0)) else { return false };
                let home = crate::body::plan::home_beside(monitors[i], &frame, place);
                tracing::info!(record = "pet_place_home", x = home.x, y = home.y);
                (home.x, home.y)
            }
        };
        desk.place_pet(x, y);
        self.motion.located(Pt::new(x, y));
        // Placed on the floor, the strip under her feet hangs below the
        // display: the page must lift her controls before she first moves.
        let below = self.hidden_below(desk);
        below != self.view.lock().unwrap_or_else(|p| p.into_inner()).below
    }

    /// Remember where she stands now, for the next start.
    fn remember_place(&mut self) {
        if let Some(o) = self.motion.now().origin {
            let (book, character) = &mut self.places;
            book.remember(character, o.x, o.y);
        }
    }

    /// Keep her window above others, or not (`above` false while a
    /// fullscreen app is frontmost: a film or a game covers her).
    pub fn keep_above(&mut self, above: bool, desk: &dyn Desk) {
        if above != self.above {
            self.above = above;
            tracing::info!(record = "pet_above", above, "a fullscreen app is frontmost: {}", if above { "no longer" } else { "she steps back" });
            desk.keep_above(above);
        }
    }

    /// The body as the page draws it now, kept for a page that loads.
    pub fn view(&self, desk: &dyn Desk) -> BodyView {
        let posture = self.state().posture.state;
        let view = BodyView {
            posture,
            bed: self.bed.as_ref().map(Bed::view),
            gait: self.motion.now().gait,
            peek: self.peek_view(desk),
            below: self.hidden_below(desk),
        };
        *self.view.lock().unwrap_or_else(|p| p.into_inner()) = view;
        view
    }

    /// The peek as the page draws it.
    fn peek_view(&self, desk: &dyn Desk) -> Option<crate::event::PeekView> {
        let now = self.motion.now();
        let peek = now.peek.filter(|_| now.posture == PostureState::Peeking)?;
        let scale = desk.pet_window().map_or(1.0, |w| w.scale);
        let edge = match (&peek.from, now.origin) {
            (Some(_), Some(o)) => Some((peek.edge_x - o.x) as f64 / scale),
            _ => None,
        };
        Some(crate::event::PeekView { side: peek.side, edge })
    }
    /// The frame of window `w`; early in the start, before it has its size,
    /// the frame guess.
    fn frame_or_guess(&self, w: &PetWindow) -> Frame {
        if w.width > 0 && w.height > 0 {
            Frame::new(w.width as i32, w.height as i32, w.scale, self.motion.tunables())
        } else {
            self.frame_guess()
        }
    }

    /// How far her window hangs below the display holding her feet, CSS
    /// px; `None` when it does not (or the desk cannot tell).
    fn hidden_below(&self, desk: &dyn Desk) -> Option<f64> {
        let w = desk.pet_window()?;
        if !desk.has_body() {
            return None;
        }
        let displays = desk.displays().ok()?;
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
    fn desk_now(&mut self, desk: &dyn Desk) -> Option<(Scene, Frame, Pt)> {
        let w = desk.pet_window()?;
        let windows = desk
            .windows()
            .map_err(|e| tracing::warn!(record = "body_windows_failed", error = %e))
            .unwrap_or_default()
            .into_iter()
            .map(|w| Surface { app: w.app, title: w.title, rect: Rect { x: w.x, y: w.y, width: w.width as i32, height: w.height as i32 } })
            .collect();
        let displays = desk
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

    /// Her frame before her window has a size.
    fn frame_guess(&self) -> Frame {
        Frame::new(360, 520, 1.0, self.motion.tunables())
    }
}

/// Send an action's answer: `ok: <posture>` or `error: <reason>`.
pub(in crate::session) fn answer(reply: oneshot::Sender<String>, result: Result<(), ActionError>, state: &str) {
    let text = match result {
        Ok(()) => format!("ok: {state}"),
        Err(e) => format!("error: {}", e.as_str()),
    };
    tracing::info!(record = "body_action_answer", answer = %text);
    if reply.send(text).is_err() {
        tracing::info!(record = "body_action_late", "the call ended before its move did");
    }
}
