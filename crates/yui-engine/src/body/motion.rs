//! The posture machine: one posture at a time, every move through it. It
//! takes the user's grab, drag and release, the backend's `body_action`s,
//! the desktop's changes and time, and answers with steps: where the window
//! goes, the posture, cues, and each action's answer. Pure over epoch ms.

use super::geometry::{Frame, Pt, Scene, Surface};
use super::path::{Gait, Path};
use super::plan::{self, PeekPlace, Refusal, Side, Spot};
use super::BodyTunables;
use crate::context::PostureState;
use crate::triggers::cues::TouchKind;

/// A `body_action` that moves her (the bed's two are the driver's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyMove {
    /// `sit_on_window { app }`.
    SitOnWindow {
        /// The app whose frontmost window she sits on.
        app: String,
    },
    /// `peek { side }`.
    Peek {
        /// The side she peeks out of.
        side: Side,
    },
    /// `move_to { spot, monitor? }`.
    MoveTo {
        /// Where on the display.
        spot: Spot,
        /// The display index (`look`'s), else hers.
        monitor: Option<usize>,
    },
    /// `stand_down`.
    StandDown,
}

/// One `body_action` call (`docs/client-tools.md`, "The tools").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyAction {
    /// A move on the desktop.
    Move(BodyMove),
    /// `go_to_bed`: lie down on a bed where she stands.
    GoToBed,
    /// `get_up`: get up from the bed with the wake clip (no wake turn).
    GetUp,
}

/// Why an action failed: the reasons of `docs/client-tools.md` (`body_action`),
/// word for word by `as_str`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionError {
    /// No such window or display.
    NotFound,
    /// No room there.
    Blocked,
    /// The user grabbed her: the user wins.
    Interrupted,
    /// Another action is running.
    Busy,
    /// Not possible on this platform or window manager.
    Unsupported,
}

impl ActionError {
    /// The reason as the answer says it.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionError::NotFound => "not_found",
            ActionError::Blocked => "blocked",
            ActionError::Interrupted => "interrupted",
            ActionError::Busy => "busy",
            ActionError::Unsupported => "unsupported",
        }
    }
}

impl From<Refusal> for ActionError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::NotFound => ActionError::NotFound,
            Refusal::Blocked => ActionError::Blocked,
        }
    }
}

/// What the machine asks of the world after an input.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyStep {
    /// Put the pet window's origin here.
    Place(Pt),
    /// The posture changed (or what she is perched on, or her gait).
    Posture,
    /// A user-caused cue: `drag_held`, `window_sit`, `peek`, `dropped`.
    Cue(TouchKind),
    /// The running action ended: `Ok` once the move finished.
    Answer(Result<(), ActionError>),
}

/// A move under way.
#[derive(Debug, Clone)]
struct Running {
    path: Path,
    started_ms: i64,
    /// The posture at the end, and what it is perched on or peeks from.
    ends: End,
    /// The posture while it runs.
    during: PostureState,
    /// A `body_action` waits for it.
    action: bool,
}

/// How a move ends.
#[derive(Debug, Clone, PartialEq)]
enum End {
    Stand,
    Sit(Surface, Option<TouchKind>),
    Peek(PeekPlace, Option<TouchKind>),
    /// Standing, and the fall was long enough to be a drop.
    Dropped,
}

/// The user's hold.
#[derive(Debug, Clone, Copy)]
struct Grab {
    offset: Pt,
    since_ms: i64,
    cued: bool,
}

/// The posture machine.
#[derive(Debug, Clone)]
pub struct Body {
    t: BodyTunables,
    posture: PostureState,
    since_ms: i64,
    origin: Option<Pt>,
    perch: Option<Surface>,
    peek: Option<PeekPlace>,
    running: Option<Running>,
    grab: Option<Grab>,
    gait: Option<Gait>,
    next_ambient_ms: i64,
}

/// The body as the page draws it and the turns read it.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyNow {
    /// The posture.
    pub posture: PostureState,
    /// Since when (epoch ms).
    pub since_ms: i64,
    /// The window she sits on or peeks from.
    pub perch: Option<Surface>,
    /// The peek, while she peeks.
    pub peek: Option<PeekPlace>,
    /// The gait of the move under way.
    pub gait: Option<Gait>,
    /// Where the window is, as far as the machine knows.
    pub origin: Option<Pt>,
}

impl Body {
    /// A body standing since `now_ms`.
    pub fn new(t: BodyTunables, now_ms: i64) -> Self {
        let next_ambient_ms = now_ms + t.ambient_walk_every_ms as i64;
        Body {
            t,
            posture: PostureState::Standing,
            since_ms: now_ms,
            origin: None,
            perch: None,
            peek: None,
            running: None,
            grab: None,
            gait: None,
            next_ambient_ms,
        }
    }

    /// The tunables.
    pub fn tunables(&self) -> &BodyTunables {
        &self.t
    }

    /// What the body is now.
    pub fn now(&self) -> BodyNow {
        BodyNow { posture: self.posture, since_ms: self.since_ms, perch: self.perch.clone(), peek: self.peek.clone(), gait: self.gait, origin: self.origin }
    }

    /// Whether a move runs (and the driver should tick at frame rate).
    pub fn moving(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the user holds her.
    pub fn held(&self) -> bool {
        self.grab.is_some()
    }

    /// Whether a `body_action` waits for its move.
    pub fn acting(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.action)
    }

    /// Whether she is on another window (sitting or peeking from one).
    pub fn perched(&self) -> bool {
        self.perch.is_some() || self.peek.as_ref().is_some_and(|p| p.from.is_some())
    }

    /// The bed took or gave back the body (`lying` or `standing`).
    pub fn set_lying(&mut self, lying: bool, now_ms: i64) -> Vec<BodyStep> {
        let mut steps = self.stop_running(ActionError::Interrupted);
        let state = if lying { PostureState::Lying } else { PostureState::Standing };
        self.perch = None;
        self.peek = None;
        self.set(state, now_ms, &mut steps);
        steps
    }

    /// The window is where the desktop says (a move by other means, or the
    /// first reading).
    pub fn located(&mut self, origin: Pt) {
        if self.running.is_none() && self.grab.is_none() {
            self.origin = Some(origin);
        }
    }

    /// A `body_action` move. Refused at once with `busy` while another
    /// action runs, `interrupted` while the user holds her, or the plan's
    /// reason; otherwise the answer comes as a step when the move ends.
    pub fn act(&mut self, mv: &BodyMove, scene: &Scene, frame: &Frame, origin: Pt, now_ms: i64) -> Result<Vec<BodyStep>, ActionError> {
        if self.grab.is_some() {
            return Err(ActionError::Interrupted);
        }
        if self.acting() {
            return Err(ActionError::Busy);
        }
        if self.posture == PostureState::Lying {
            return Err(ActionError::Busy);
        }
        // An ambient walk gives way.
        let mut steps = self.stop_running(ActionError::Interrupted);
        let origin = self.origin.filter(|_| !steps.is_empty()).unwrap_or(origin);
        self.origin = Some(origin);
        let t = self.t.clone();
        let sitting = self.perch.is_some();
        let (path, ends, during) = match mv {
            BodyMove::SitOnWindow { app } => {
                let (path, w) = plan::sit_on(scene, frame, &t, origin, sitting, app)?;
                let climbs = path.legs.iter().any(|l| l.gait == Gait::Climb);
                (path, End::Sit(w, None), if climbs { PostureState::Climbing } else { PostureState::Walking })
            }
            BodyMove::Peek { side } => {
                let (path, place) = plan::peek(scene, frame, &t, origin, self.perch.as_ref(), *side)?;
                (path, End::Peek(place, None), PostureState::Walking)
            }
            BodyMove::MoveTo { spot, monitor } => (plan::move_to(scene, frame, &t, origin, *spot, *monitor)?, End::Stand, PostureState::Walking),
            BodyMove::StandDown => {
                if self.perch.is_none() && self.peek.is_none() {
                    (Path::default(), End::Stand, PostureState::Standing)
                } else {
                    (plan::stand_down(scene, frame, &t, origin, self.peek.as_ref()), End::Stand, PostureState::Walking)
                }
            }
        };
        self.perch = None;
        self.peek = None;
        self.running = Some(Running { path, started_ms: now_ms, ends, during, action: true });
        steps.extend(self.tick(now_ms));
        Ok(steps)
    }

    /// The user pressed on her and moved: she is held. A running move ends
    /// (its action answers `interrupted`).
    pub fn grab(&mut self, pointer: Pt, origin: Pt, now_ms: i64) -> Vec<BodyStep> {
        let mut steps = self.stop_running(ActionError::Interrupted);
        let origin = if steps.is_empty() { origin } else { self.origin.unwrap_or(origin) };
        self.origin = Some(origin);
        self.grab = Some(Grab { offset: Pt::new(pointer.x - origin.x, pointer.y - origin.y), since_ms: now_ms, cued: false });
        self.perch = None;
        self.peek = None;
        self.set(PostureState::Dragging, now_ms, &mut steps);
        steps
    }

    /// The held pointer moved: the window follows it.
    pub fn drag_to(&mut self, pointer: Pt, now_ms: i64) -> Vec<BodyStep> {
        let Some(g) = self.grab else { return Vec::new() };
        let origin = Pt::new(pointer.x - g.offset.x, pointer.y - g.offset.y);
        let mut steps = Vec::new();
        if self.origin != Some(origin) {
            self.origin = Some(origin);
            steps.push(BodyStep::Place(origin));
        }
        steps.extend(self.held_cue(now_ms));
        steps
    }

    /// The user let go: she sits on a window top just under her, peeks from
    /// a window side at her, or falls to the next surface below.
    pub fn release(&mut self, scene: &Scene, frame: &Frame, now_ms: i64) -> Vec<BodyStep> {
        if self.grab.take().is_none() {
            return Vec::new();
        }
        let Some(origin) = self.origin else {
            let mut steps = Vec::new();
            self.set(PostureState::Standing, now_ms, &mut steps);
            return steps;
        };
        let (path, ends) = match plan::release_peek(scene, frame, &self.t, origin) {
            Some(place) => {
                let path = Path::of([super::path::Leg::at_speed(Gait::Walk, origin, place.origin, self.t.walk_speed * frame.scale * 2.0)]);
                (path, End::Peek(place, Some(TouchKind::Peek)))
            }
            None => {
                let (path, land) = plan::fall(scene, frame, &self.t, origin);
                let drop = (land.origin.y - origin.y) as f64 / frame.scale;
                let ends = match land.on {
                    Some(w) => End::Sit(w, Some(TouchKind::WindowSit)),
                    None if drop >= self.t.drop_min => End::Dropped,
                    None => End::Stand,
                };
                (path, ends)
            }
        };
        self.running = Some(Running { path, started_ms: now_ms, ends, during: PostureState::Standing, action: false });
        self.tick(now_ms)
    }

    /// Time passes: the move goes on (or ends), a long hold cues, an idle
    /// stand may start an ambient walk (`idle`: nothing else is going on;
    /// `pick` in 0..1 chooses it).
    pub fn tick(&mut self, now_ms: i64) -> Vec<BodyStep> {
        let mut steps = self.held_cue(now_ms);
        let Some(run) = &self.running else { return steps };
        let elapsed = u32::try_from(now_ms.saturating_sub(run.started_ms)).unwrap_or(u32::MAX);
        let (at, gait, done) = run.path.at(elapsed);
        if let Some(at) = at.filter(|at| self.origin != Some(*at)) {
            self.origin = Some(at);
            steps.push(BodyStep::Place(at));
        }
        if !done {
            if self.posture != run.during || self.gait != gait {
                self.gait = gait;
                let during = run.during;
                self.force(during, now_ms, &mut steps);
            }
            return steps;
        }
        let run = self.running.take().expect("a move runs");
        self.gait = None;
        let (state, cue) = match run.ends {
            End::Stand => (PostureState::Standing, None),
            End::Dropped => (PostureState::Standing, Some(TouchKind::Dropped)),
            End::Sit(w, cue) => {
                self.perch = Some(w);
                (PostureState::Sitting, cue)
            }
            End::Peek(p, cue) => {
                self.perch = p.from.clone();
                self.peek = Some(p);
                (PostureState::Peeking, cue)
            }
        };
        self.force(state, now_ms, &mut steps);
        if let Some(cue) = cue {
            steps.push(BodyStep::Cue(cue));
        }
        if run.action {
            steps.push(BodyStep::Answer(Ok(())));
        }
        self.next_ambient_ms = now_ms + self.t.ambient_walk_every_ms as i64;
        steps
    }

    /// When an idle stand may stroll (none when ambient walks are off or
    /// she is not standing still).
    pub fn ambient_due(&self) -> Option<i64> {
        let still = matches!(self.posture, PostureState::Standing | PostureState::Sitting);
        (self.t.ambient_walk_every_ms > 0.0 && still && self.running.is_none() && self.grab.is_none()).then_some(self.next_ambient_ms)
    }

    /// Start an ambient walk if one is due (`pick` in 0..1 chooses it);
    /// otherwise push the next one back.
    pub fn ambient(&mut self, scene: &Scene, frame: &Frame, origin: Pt, pick: f64, now_ms: i64) -> Vec<BodyStep> {
        if self.ambient_due().is_none_or(|due| now_ms < due) {
            return Vec::new();
        }
        self.next_ambient_ms = now_ms + (self.t.ambient_walk_every_ms * (0.5 + pick)) as i64;
        // From an edge: scoot along it or hop to another window's top; from
        // the floor, now and then climb a window, else stroll.
        let planned = match &self.perch {
            Some(perch) => plan::ambient_from_edge(scene, frame, &self.t, origin, perch, pick).map(|(p, w)| (p, End::Sit(w, None))),
            None if pick > 0.85 => plan::ambient_climb(scene, frame, &self.t, origin).map(|(p, w)| (p, End::Sit(w, None))),
            None => None,
        };
        let planned =
            planned.or_else(|| (self.perch.is_none()).then(|| plan::ambient_walk(scene, frame, &self.t, origin, pick)).flatten().map(|p| (p, End::Stand)));
        let Some((path, ends)) = planned else { return Vec::new() };
        let during = if path.legs.iter().any(|l| l.gait == Gait::Climb) { PostureState::Climbing } else { PostureState::Walking };
        self.origin = Some(origin);
        self.perch = None;
        self.running = Some(Running { path, started_ms: now_ms, ends, during, action: false });
        self.tick(now_ms)
    }

    /// Idle time that is not idle (a turn, a touch): the next stroll waits.
    pub fn not_idle(&mut self, now_ms: i64) {
        self.next_ambient_ms = self.next_ambient_ms.max(now_ms + self.t.ambient_walk_every_ms as i64 / 2);
    }

    /// The desktop changed: a sit or peek whose window moved, closed or was
    /// covered ends, and she falls to what is under her.
    pub fn scene_changed(&mut self, scene: &Scene, frame: &Frame, now_ms: i64) -> Vec<BodyStep> {
        let (Some(origin), None, None) = (self.origin, &self.running, &self.grab) else { return Vec::new() };
        let holds = match (&self.perch, &self.peek, self.posture) {
            (Some(w), _, PostureState::Sitting) => plan::perch_holds(scene, w, frame.seat_of(origin).x),
            (_, Some(PeekPlace { from: Some(w), .. }), PostureState::Peeking) => scene.windows.iter().any(|o| o.same_window(w) && o.rect == w.rect),
            _ => true,
        };
        if holds {
            return Vec::new();
        }
        tracing::info!(record = "perch_released", posture = self.posture.as_str(), "the window under her moved, closed or was covered");
        self.perch = None;
        self.peek = None;
        let (path, land) = plan::fall(scene, frame, &self.t, origin);
        let ends = match land.on {
            Some(w) => End::Sit(w, None),
            None => End::Stand,
        };
        self.running = Some(Running { path, started_ms: now_ms, ends, during: PostureState::Standing, action: false });
        self.tick(now_ms)
    }

    fn held_cue(&mut self, now_ms: i64) -> Vec<BodyStep> {
        match &mut self.grab {
            Some(g) if !g.cued && (now_ms - g.since_ms) as f64 >= self.t.drag_held_ms => {
                g.cued = true;
                vec![BodyStep::Cue(TouchKind::DragHeld)]
            }
            _ => Vec::new(),
        }
    }

    /// End the move under way; its action answers `why`.
    fn stop_running(&mut self, why: ActionError) -> Vec<BodyStep> {
        match self.running.take() {
            Some(run) => {
                self.gait = None;
                if run.action {
                    vec![BodyStep::Place(self.origin.unwrap_or_default()), BodyStep::Answer(Err(why))]
                } else {
                    vec![BodyStep::Place(self.origin.unwrap_or_default())]
                }
            }
            None => Vec::new(),
        }
    }

    fn set(&mut self, state: PostureState, now_ms: i64, steps: &mut Vec<BodyStep>) {
        if self.posture != state {
            self.force(state, now_ms, steps);
        }
    }

    /// Take `state` and say so (even when only the perch or gait changed).
    fn force(&mut self, state: PostureState, now_ms: i64, steps: &mut Vec<BodyStep>) {
        if self.posture != state {
            self.since_ms = now_ms;
        }
        self.posture = state;
        steps.push(BodyStep::Posture);
    }
}
