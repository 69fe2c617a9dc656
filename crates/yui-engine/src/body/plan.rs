//! Where each move goes and how it gets there: landings under gravity, a
//! sit on a window's top edge, a peek from its side, a spot on a display,
//! an ambient walk. Pure geometry over a [`Scene`] and a [`Frame`].

use super::geometry::{contains, Frame, Pt, Rect, Scene, Surface};
use super::path::{Gait, Leg, Path};
use super::BodyTunables;
use serde::{Deserialize, Serialize};

/// A side of a window or a display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The left side.
    Left,
    /// The right side.
    Right,
}

/// A spot of `move_to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spot {
    /// The display's centre.
    Center,
    /// The top-left corner.
    TopLeft,
    /// The top-right corner.
    TopRight,
    /// The bottom-left corner, on the floor.
    BottomLeft,
    /// The bottom-right corner, on the floor.
    BottomRight,
}

impl Spot {
    /// The spot named as in `docs/client-tools.md` (`top-left`…).
    pub fn parse(s: &str) -> Option<Spot> {
        Some(match s {
            "center" => Spot::Center,
            "top-left" => Spot::TopLeft,
            "top-right" => Spot::TopRight,
            "bottom-left" => Spot::BottomLeft,
            "bottom-right" => Spot::BottomRight,
            _ => return None,
        })
    }
}

/// Why a move cannot be made (the reasons of `docs/client-tools.md`, `body_action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// No such window or display.
    NotFound,
    /// No room there.
    Blocked,
}

/// Where a fall or a release ends.
#[derive(Debug, Clone, PartialEq)]
pub struct Landing {
    /// The window origin there.
    pub origin: Pt,
    /// The window whose top edge she sits on, or none: the floor.
    pub on: Option<Surface>,
}

/// A peek: the window origin and the edge she peeks around.
#[derive(Debug, Clone, PartialEq)]
pub struct PeekPlace {
    /// The window origin.
    pub origin: Pt,
    /// The side she peeks out of.
    pub side: Side,
    /// The window she peeks from (none: a display's edge).
    pub from: Option<Surface>,
    /// The edge's x on the desktop.
    pub edge_x: i32,
}

/// Where her feet may stand on display `d` so that her whole window (and
/// the controls at its edges) stays on it: half a window in from each
/// side, or half her body where the display is narrower than the window.
fn standing_span(d: Rect, frame: &Frame) -> (i32, i32) {
    let half = if d.width >= frame.width { frame.width / 2 } else { frame.body / 2 };
    (d.x + half, d.x + d.width - half)
}

/// Where she first stands when no place is remembered: on the floor of
/// `display`, towards its right, her whole window on it (a twentieth of
/// the display in from its right edge).
pub fn home(display: Rect, frame: &Frame) -> Pt {
    let (lo, hi) = standing_span(display, frame);
    let x = (display.x + display.width - display.width / 20 - frame.width / 2).clamp(lo, hi.max(lo));
    frame.origin_for_feet(Pt::new(x, display.y + display.height))
}

/// Where the character at `place` of the open characters (0: main) first
/// stands: main at [`home`], each next one a window's width to the left,
/// so no window stands on another; when the floor is full the row starts
/// again at home.
pub fn home_beside(display: Rect, frame: &Frame, place: usize) -> Pt {
    let first = home(display, frame);
    if place == 0 || frame.width <= 0 {
        return first;
    }
    let (lo, _) = standing_span(display, frame);
    let feet = first.x + frame.width / 2;
    let fit = ((feet - lo) / frame.width + 1).max(1) as usize;
    Pt::new(first.x - (place % fit) as i32 * frame.width, first.y)
}

/// The floor under `x`: the bottom edge of the display holding it.
pub fn floor_y(scene: &Scene, x: i32, y: i32) -> Option<i32> {
    scene.display_at(Pt::new(x, y)).map(|d| d.y + d.height)
}

/// A free spot on `w`'s top edge near `x` where her width fits, uncovered
/// by the windows in front of it (`index` is `w`'s place in the list).
fn free_seat(scene: &Scene, w: &Surface, index: usize, x: i32, frame: &Frame) -> Option<i32> {
    let half = frame.body / 2;
    let (lo, hi) = (w.rect.x + half, w.rect.x + w.rect.width - half);
    if lo > hi {
        return None;
    }
    let free = |cx: i32| -> bool { [cx - half, cx, cx + half - 1].iter().all(|&px| !scene.covered(Pt::new(px, w.rect.y), index)) };
    // The nearest free place to `x`, searched outward in body-width steps.
    let start = x.clamp(lo, hi);
    let step = (half / 2).max(8);
    (0..=((hi - lo) / step + 1)).flat_map(|k| [start - k * step, start + k * step]).map(|cx| cx.clamp(lo, hi)).find(|&cx| free(cx))
}

/// Whether her whole window fits on some display when her hips sit at `seat`
/// (her head must not be cut off by the top of the screen).
fn head_room(scene: &Scene, frame: &Frame, seat: Pt) -> bool {
    let origin = frame.origin_for_seat(seat);
    scene.display_at(seat).is_some_and(|d| origin.y >= d.y - frame.height / 10)
}

/// Where she lands when let go with her window at `origin`: the first
/// uncovered window top under her soles (within `snap` above them), else
/// the floor.
pub fn landing(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt) -> Landing {
    let feet = frame.feet_of(origin);
    let snap = (t.snap * frame.scale) as i32;
    let floor = floor_y(scene, feet.x, feet.y).unwrap_or(feet.y);
    let mut best: Option<(i32, usize)> = None;
    for (i, w) in scene.windows.iter().enumerate() {
        let top = w.rect.y;
        let under = feet.x >= w.rect.x && feet.x < w.rect.x + w.rect.width;
        if under && top >= feet.y - snap && top < floor && !scene.covered(Pt::new(feet.x, top), i) && best.is_none_or(|(y, _)| top < y) {
            best = Some((top, i));
        }
    }
    if let Some((top, i)) = best {
        let seat = Pt::new(feet.x, top);
        if head_room(scene, frame, seat) {
            return Landing { origin: frame.origin_for_seat(seat), on: Some(scene.windows[i].clone()) };
        }
    }
    Landing { origin: frame.origin_for_feet(Pt::new(feet.x, floor)), on: None }
}

/// The fall from `origin` to where she lands.
pub fn fall(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt) -> (Path, Landing) {
    let land = landing(scene, frame, t, origin);
    let leg = if land.origin.y >= origin.y {
        Leg::fall(origin, land.origin, t.gravity * frame.scale)
    } else {
        // Released just under an edge: she hops up onto it.
        Leg::hop(origin, land.origin, (t.hop_ms / 2.0) as u32, 0)
    };
    (Path::of([leg]), land)
}

/// Whether a release at `origin` is a peek: her centre within `snap` of a
/// window's side, her soles within its height.
pub fn release_peek(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt) -> Option<PeekPlace> {
    let feet = frame.feet_of(origin);
    let snap = (t.snap * frame.scale) as i32;
    scene.windows.iter().find_map(|w| {
        if feet.y <= w.rect.y || feet.y > w.rect.y + w.rect.height {
            return None;
        }
        let side = if (feet.x - w.rect.x).abs() <= snap {
            Side::Left
        } else if (feet.x - (w.rect.x + w.rect.width)).abs() <= snap {
            Side::Right
        } else {
            return None;
        };
        let edge_x = if side == Side::Left { w.rect.x } else { w.rect.x + w.rect.width };
        Some(PeekPlace { origin: frame.origin_for_feet(Pt::new(edge_x, feet.y)), side, from: Some(w.clone()), edge_x })
    })
}

/// `sit_on_window { app }`: to the top edge of that app's frontmost visible
/// window. From the floor she walks to the window's nearer side, climbs it
/// and hops onto the top; from another window's top she hops across.
pub fn sit_on(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt, sitting: bool, app: &str) -> Result<(Path, Surface), Refusal> {
    let want = app.trim().to_lowercase();
    let (index, _) = scene.windows.iter().enumerate().find(|(_, w)| w.app.to_lowercase() == want).ok_or(Refusal::NotFound)?;
    sit_on_index(scene, frame, t, origin, sitting, index)
}

/// The sit onto window number `index` of the scene.
fn sit_on_index(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt, sitting: bool, index: usize) -> Result<(Path, Surface), Refusal> {
    let w = &scene.windows[index];
    let here = frame.feet_of(origin);
    let cx = free_seat(scene, w, index, here.x, frame).ok_or(Refusal::Blocked)?;
    let seat = Pt::new(cx, w.rect.y);
    if !head_room(scene, frame, seat) {
        return Err(Refusal::Blocked);
    }
    let end = frame.origin_for_seat(seat);
    let s = frame.scale;
    let path = if sitting {
        Path::of([Leg::hop(origin, end, t.hop_ms as u32, (t.hop_height * s) as i32)])
    } else {
        // Beside the nearer side, then up (or down) it, then onto the top.
        let left = (here.x - w.rect.x).abs() <= (here.x - (w.rect.x + w.rect.width)).abs();
        let side_x = if left { w.rect.x - frame.body / 2 } else { w.rect.x + w.rect.width + frame.body / 2 };
        let at_side = frame.origin_for_feet(Pt::new(side_x, here.y));
        let up = frame.origin_for_feet(Pt::new(side_x, w.rect.y));
        Path::of([
            Leg::at_speed(Gait::Walk, origin, at_side, t.walk_speed * s),
            Leg::at_speed(Gait::Climb, at_side, up, t.climb_speed * s),
            Leg::hop(up, end, (t.hop_ms * 0.7) as u32, (t.hop_height * s * 0.5) as i32),
        ])
    };
    Ok((path.within(t.move_max_ms as u32), w.clone()))
}

/// `peek { side }`: to that side of the window under her (or she sits on),
/// else of her display, half of her past the edge.
pub fn peek(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt, perch: Option<&Surface>, side: Side) -> Result<(Path, PeekPlace), Refusal> {
    let centre = frame.centre_of(origin);
    let display = scene.display_at(centre).ok_or(Refusal::NotFound)?;
    let under = perch.cloned().or_else(|| scene.window_at(centre).map(|(_, w)| w.clone()));
    let floor = display.y + display.height;
    let (edge_x, feet_y) = match &under {
        Some(w) => (if side == Side::Left { w.rect.x } else { w.rect.x + w.rect.width }, (w.rect.y + w.rect.height).min(floor)),
        None => (if side == Side::Left { display.x } else { display.x + display.width }, floor),
    };
    if under.is_some() && !(display.x..=display.x + display.width).contains(&edge_x) {
        return Err(Refusal::Blocked);
    }
    let end = frame.origin_for_feet(Pt::new(edge_x, feet_y));
    let s = frame.scale;
    let leg = if perch.is_some() || (end.y - origin.y).abs() > 4 {
        Leg::hop(origin, end, t.hop_ms as u32, (t.hop_height * s * 0.5) as i32)
    } else {
        Leg::at_speed(Gait::Walk, origin, end, t.walk_speed * s)
    };
    let place = PeekPlace { origin: end, side, from: under, edge_x };
    Ok((Path::of([leg]).within(t.move_max_ms as u32), place))
}

/// `move_to { spot, monitor? }`: the window origin there (display `monitor`,
/// else the one she is on), and a path to it.
pub fn move_to(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt, spot: Spot, monitor: Option<usize>) -> Result<Path, Refusal> {
    let d: Rect = match monitor {
        Some(i) => *scene.displays.get(i).ok_or(Refusal::NotFound)?,
        None => scene.display_at(frame.centre_of(origin)).ok_or(Refusal::NotFound)?,
    };
    if d.width < frame.width || d.height < frame.height - frame.feet {
        return Err(Refusal::Blocked);
    }
    let margin = d.width.min(d.height) / 40;
    let left = d.x + margin;
    let right = d.x + d.width - margin - frame.width;
    let top = d.y + margin;
    let floor = frame.origin_for_feet(Pt::new(0, d.y + d.height)).y;
    let end = match spot {
        Spot::Center => Pt::new(d.x + (d.width - frame.width) / 2, d.y + (d.height - frame.height) / 2),
        Spot::TopLeft => Pt::new(left, top),
        Spot::TopRight => Pt::new(right, top),
        Spot::BottomLeft => Pt::new(left, floor),
        Spot::BottomRight => Pt::new(right, floor),
    };
    let s = frame.scale;
    let leg = if (end.y - origin.y).abs() <= 4 {
        Leg::at_speed(Gait::Walk, origin, end, t.walk_speed * s)
    } else {
        // Far or up: long hops, quicker than walking.
        Leg::at_speed(Gait::Hop, origin, end, t.walk_speed * s * 3.0)
    };
    let leg = if leg.gait == Gait::Hop { Leg { rise: (t.hop_height * s) as i32, ..leg } } else { leg };
    Ok(Path::of([leg]).within(t.move_max_ms as u32))
}

/// `stand_down`: from a sit, a hop down to the floor; from a peek, a step
/// out from behind the edge (past a window's side, or back onto the screen
/// from a display's edge) and down to the floor.
pub fn stand_down(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt, peek: Option<&PeekPlace>) -> Path {
    let feet = frame.feet_of(origin);
    let s = frame.scale;
    let out = match peek {
        Some(p) => {
            let outward = if p.side == Side::Left { -frame.body } else { frame.body };
            let x = if p.from.is_some() { feet.x + outward } else { feet.x - outward };
            match scene.display_at(feet) {
                Some(d) => {
                    let (lo, hi) = standing_span(d, frame);
                    x.clamp(lo, hi)
                }
                None => x,
            }
        }
        None => feet.x,
    };
    let floor = floor_y(scene, out, feet.y).unwrap_or(feet.y);
    let end = frame.origin_for_feet(Pt::new(out, floor));
    let leg = if (end.y - origin.y).abs() <= 4 {
        Leg::at_speed(Gait::Walk, origin, end, t.walk_speed * s)
    } else if end.y > origin.y {
        Leg::fall(origin, end, t.gravity * s)
    } else {
        Leg::hop(origin, end, t.hop_ms as u32, (t.hop_height * s) as i32)
    };
    Path::of([leg]).within(t.move_max_ms as u32)
}

/// An ambient walk along the floor (or the window top she stands on): up to
/// `ambient_walk_max` px to one side, turning back at the display's edge.
/// `pick` in 0..1 chooses the side and length.
pub fn ambient_walk(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt, pick: f64) -> Option<Path> {
    let feet = frame.feet_of(origin);
    let d = scene.display_at(feet)?;
    let s = frame.scale;
    let reach = (t.ambient_walk_max * s * (0.4 + 0.6 * pick.fract())) as i32;
    let (lo, hi) = standing_span(d, frame);
    let mut x = if pick < 0.5 { feet.x - reach } else { feet.x + reach };
    if !(lo..=hi).contains(&x) {
        x = if pick < 0.5 { feet.x + reach } else { feet.x - reach };
    }
    let x = x.clamp(lo, hi);
    let end = frame.origin_for_feet(Pt::new(x, feet.y));
    (end != origin).then(|| Path::of([Leg::at_speed(Gait::Walk, origin, end, t.walk_speed * s)]))
}

/// An ambient move from a window's top edge: now and then she hops over to
/// the nearest other window top she fits on, otherwise she scoots along the
/// edge she sits on. `pick` in 0..1 chooses.
pub fn ambient_from_edge(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt, perch: &Surface, pick: f64) -> Option<(Path, Surface)> {
    let here = frame.seat_of(origin);
    if pick < 0.4 {
        let mut others: Vec<(i64, usize)> = scene
            .windows
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.same_window(perch))
            .map(|(i, w)| {
                let dx = (w.rect.x + w.rect.width / 2 - here.x) as i64;
                let dy = (w.rect.y - here.y) as i64;
                (dx * dx + dy * dy, i)
            })
            .collect();
        others.sort();
        if let Some(hop) = others.into_iter().find_map(|(_, i)| sit_on_index(scene, frame, t, origin, true, i).ok()) {
            return Some(hop);
        }
    }
    let (index, w) = scene.windows.iter().enumerate().find(|(_, w)| w.same_window(perch))?;
    let reach = (t.ambient_walk_max * frame.scale * (0.3 + 0.4 * pick.fract())) as i32;
    let (first, second) = if pick < 0.7 { (here.x - reach, here.x + reach) } else { (here.x + reach, here.x - reach) };
    // Turned back by the window's end: the other way.
    let cx = [first, second].into_iter().filter_map(|want| free_seat(scene, w, index, want, frame)).find(|cx| (cx - here.x).abs() > 8)?;
    let end = frame.origin_for_seat(Pt::new(cx, w.rect.y));
    (end != origin).then(|| (Path::of([Leg::at_speed(Gait::Walk, origin, end, t.walk_speed * frame.scale * 0.6)]), w.clone()))
}

/// An ambient climb from the floor: onto the top of the nearest window she
/// fits on, up its side.
pub fn ambient_climb(scene: &Scene, frame: &Frame, t: &BodyTunables, origin: Pt) -> Option<(Path, Surface)> {
    let here = frame.feet_of(origin);
    let mut near: Vec<(i32, usize)> = scene.windows.iter().enumerate().map(|(i, w)| ((w.rect.x + w.rect.width / 2 - here.x).abs(), i)).collect();
    near.sort();
    near.into_iter().take(3).find_map(|(_, i)| sit_on_index(scene, frame, t, origin, false, i).ok())
}

/// Whether `perch` (as seen when she sat) is still where it was, still
/// open, and its edge under her still uncovered.
pub fn perch_holds(scene: &Scene, perch: &Surface, at_x: i32) -> bool {
    match scene.windows.iter().enumerate().find(|(_, w)| w.same_window(perch)) {
        Some((i, w)) => w.rect == perch.rect && !scene.covered(Pt::new(at_x, w.rect.y), i) && contains(&Rect { height: 1, ..w.rect }, Pt::new(at_x, w.rect.y)),
        None => false,
    }
}
