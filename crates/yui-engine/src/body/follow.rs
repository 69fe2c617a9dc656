//! Following the pointer where it is known only relative to her own window
//! (a native Wayland pet: no global pointer).
//!
//! Three things make that harder than adding the page's point to the
//! window's place:
//! - Compositors differ in what a point during a press is relative to.
//!   The protocol says the surface as it is now ([`Reference::Current`]),
//!   but sway measures every motion of a press against where the surface
//!   was when the button went down ([`Reference::Press`]): taking such a
//!   point on the window's newest place sends her flying off.
//! - On the current surface, a hold moves the window, and an event measured before the
//!   compositor applied the newest place is relative to an older one: added
//!   to the newest place it overshoots by the move still in flight, and the
//!   overshoot feeds itself (she flies off). So after each move the events
//!   of a short settling time ([`crate::limits::PAGE_POINTER_SETTLE_MS`])
//!   are let go by, and the next one is taken on the newest place: the
//!   window follows in steps of that rate, never ahead of the hand.
//! - The page's point is in logical (CSS) pixels, and the desk is each
//!   output's logical rectangle times its scale: outputs of different
//!   scales leave gaps and overlaps between them in desk pixels. So the
//!   point is followed in logical pixels and put back on the desk through
//!   the output it is on, where her window takes that output's scale.

use super::geometry::{Pt, Rect};
use crate::limits::PAGE_POINTER_SETTLE_MS;

/// One output: its desk rectangle (physical pixels) and scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Output {
    /// The output on the desk, physical pixels.
    pub desk: Rect,
    /// Physical pixels per logical pixel.
    pub scale: f64,
}

impl Output {
    fn scale(&self) -> f64 {
        if self.scale.is_finite() && self.scale > 0.0 {
            self.scale
        } else {
            1.0
        }
    }

    /// The output's logical rectangle's corner.
    fn logical_corner(&self) -> (f64, f64) {
        (f64::from(self.desk.x) / self.scale(), f64::from(self.desk.y) / self.scale())
    }

    fn logical_holds(&self, x: f64, y: f64) -> bool {
        let (lx, ly) = self.logical_corner();
        let (w, h) = (f64::from(self.desk.width) / self.scale(), f64::from(self.desk.height) / self.scale());
        x >= lx && y >= ly && x < lx + w && y < ly + h
    }

    fn logical_distance(&self, x: f64, y: f64) -> f64 {
        let (lx, ly) = self.logical_corner();
        let (w, h) = (f64::from(self.desk.width) / self.scale(), f64::from(self.desk.height) / self.scale());
        let dx = (lx - x).max(0.0).max(x - (lx + w));
        let dy = (ly - y).max(0.0).max(y - (ly + h));
        dx * dx + dy * dy
    }
}

/// What the compositor measures a point during a press against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Reference {
    /// The surface where it is now (the protocol's word).
    #[default]
    Current,
    /// The surface where it was when the button went down (sway).
    Press,
}

impl Reference {
    /// The reference of the compositor this session runs under: sway
    /// (`$SWAYSOCK` set) measures against the press.
    pub fn of_session(swaysock: Option<&str>) -> Self {
        if swaysock.is_some_and(|s| !s.is_empty()) {
            Self::Press
        } else {
            Self::Current
        }
    }

    /// [`Reference::of_session`] for this process, read once.
    pub fn here() -> Self {
        static HERE: std::sync::OnceLock<Reference> = std::sync::OnceLock::new();
        *HERE.get_or_init(|| Self::of_session(std::env::var("SWAYSOCK").ok().as_deref()))
    }
}

/// The pointer of a hold, rebuilt from window-relative points.
#[derive(Debug, Clone, Default)]
pub struct PagePointer {
    reference: Reference,
    /// Where the window was when the hold began, desk pixels.
    pressed: Option<Pt>,
    outputs: Vec<Output>,
    place: Option<Pt>,
    placed_at_ms: i64,
    /// The grab's point on her window, logical pixels.
    grab_at: (f64, f64),
    /// The grab's offset from the window's corner, desk pixels (what the
    /// posture machine subtracts from the pointer).
    offset: Pt,
    last: Option<Pt>,
}

impl PagePointer {
    /// The hold starts with the window at `origin` (desk pixels) and the
    /// pointer at `at` on it (logical pixels), on `outputs`; answers the
    /// pointer on the desk.
    pub fn grab(&mut self, origin: Pt, at: (f64, f64), outputs: Vec<Output>, reference: Reference, now_ms: i64) -> Pt {
        self.outputs = outputs;
        self.reference = reference;
        self.pressed = Some(origin);
        let s = self.output_of_desk(origin).map_or(1.0, |o| o.scale());
        self.grab_at = at;
        self.offset = Pt::new((at.0 * s).round() as i32, (at.1 * s).round() as i32);
        self.place = Some(origin);
        self.placed_at_ms = now_ms - PAGE_POINTER_SETTLE_MS;
        let p = Pt::new(origin.x + self.offset.x, origin.y + self.offset.y);
        self.last = Some(p);
        p
    }

    /// The window was put at `origin` at `now_ms` during the hold.
    pub fn placed(&mut self, origin: Pt, now_ms: i64) {
        if self.place != Some(origin) {
            self.place = Some(origin);
            self.placed_at_ms = now_ms;
        }
    }

    /// The pointer to give the posture machine for a point `at` (logical)
    /// on the window at `now_ms`, such that the window lands with the grab
    /// point under the hand on whichever output the hand is; `None` while a
    /// move may still be in flight (the event is let go by).
    pub fn pointer(&mut self, at: (f64, f64), now_ms: i64) -> Option<Pt> {
        let place = match self.reference {
            Reference::Press => self.pressed?,
            Reference::Current => {
                let place = self.place?;
                if now_ms - self.placed_at_ms < PAGE_POINTER_SETTLE_MS {
                    return None;
                }
                place
            }
        };
        // The hand in logical pixels: the place's logical corner plus `at`.
        let s0 = self.output_of_desk(place).map_or(1.0, |o| o.scale());
        let hand = (f64::from(place.x) / s0 + at.0, f64::from(place.y) / s0 + at.1);
        // The window's corner for it, on the desk through the hand's output.
        let corner = (hand.0 - self.grab_at.0, hand.1 - self.grab_at.1);
        let s = self.output_of_logical(hand).map_or(1.0, |o| o.scale());
        let origin = Pt::new((corner.0 * s).round() as i32, (corner.1 * s).round() as i32);
        let p = Pt::new(origin.x + self.offset.x, origin.y + self.offset.y);
        self.last = Some(p);
        Some(p)
    }

    /// The last pointer taken (where a hold that ends mid-settle lets go).
    pub fn last(&self) -> Option<Pt> {
        self.last
    }

    fn output_of_desk(&self, p: Pt) -> Option<&Output> {
        let inside = |o: &&Output| {
            let d = o.desk;
            p.x >= d.x && p.y >= d.y && p.x < d.x + d.width && p.y < d.y + d.height
        };
        self.outputs.iter().find(inside).or_else(|| {
            let (x, y) = (f64::from(p.x), f64::from(p.y));
            self.outputs.iter().min_by(|a, b| {
                let da = a.logical_distance(x / a.scale(), y / a.scale());
                let db = b.logical_distance(x / b.scale(), y / b.scale());
                da.total_cmp(&db)
            })
        })
    }

    fn output_of_logical(&self, (x, y): (f64, f64)) -> Option<&Output> {
        self.outputs
            .iter()
            .find(|o| o.logical_holds(x, y))
            .or_else(|| self.outputs.iter().min_by(|a, b| a.logical_distance(x, y).total_cmp(&b.logical_distance(x, y))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one() -> Vec<Output> {
        vec![Output { desk: Rect { x: 0, y: 0, width: 1280, height: 800 }, scale: 1.0 }]
    }

    /// A hand rising 2 px a millisecond while the window follows it, each
    /// event measured against the place the compositor showed: the window
    /// never runs ahead of the hand and ends under it.
    #[test]
    fn the_window_follows_without_running_ahead() {
        let grab_at = Pt::new(180, 300);
        let mut f = PagePointer::default();
        let mut origin = Pt::new(0, 315);
        let mut shown = origin; // what the compositor shows
        let mut pending: Option<(Pt, i64)> = None; // a place not yet applied
        assert_eq!(f.grab(origin, (180.0, 300.0), one(), Reference::Current, 0), Pt::new(180, 615));
        for t in 1..=200i64 {
            // The compositor applies a place 20 ms after it was set.
            if let Some((p, at)) = pending {
                if t >= at + 20 {
                    shown = p;
                    pending = None;
                }
            }
            let truth = Pt::new(180, 615 - (t.min(100) * 2) as i32);
            let at = (f64::from(truth.x - shown.x), f64::from(truth.y - shown.y));
            if let Some(p) = f.pointer(at, t) {
                assert_eq!(p, truth, "taken at {t} ms: the hand exactly");
                let next = Pt::new(p.x - grab_at.x, p.y - grab_at.y);
                if next != origin {
                    origin = next;
                    f.placed(origin, t);
                    pending = Some((origin, t));
                }
            }
            assert!(origin.y >= truth.y - grab_at.y, "never ahead of the hand at {t} ms");
        }
        assert_eq!(origin, Pt::new(0, 615 - 200 - 300), "under the hand when it stops");
        assert_eq!(f.last(), Some(Pt::new(180, 415)));
    }

    /// Outputs at scales 1 and 2 side by side (logical 0..1280 and
    /// 1280..2560; desk 0..1280 and 2560..5120): a hand crossing onto the
    /// second puts her window on its desk rectangle, the grab point under it.
    #[test]
    fn a_hand_crossing_onto_a_scale_2_output_takes_her_there() {
        let outputs = vec![
            Output { desk: Rect { x: 0, y: 0, width: 1280, height: 800 }, scale: 1.0 },
            Output { desk: Rect { x: 2560, y: 0, width: 2560, height: 1600 }, scale: 2.0 },
        ];
        let mut f = PagePointer::default();
        let start = Pt::new(800, 200);
        f.grab(start, (180.0, 300.0), outputs, Reference::Current, 0);
        // The hand at logical (1900, 500): (1100, 300) on her window as it
        // still stands at (800, 200).
        let p = f.pointer((1100.0, 300.0), 100).unwrap();
        let origin = Pt::new(p.x - 180, p.y - 300); // what the machine does with it
        assert_eq!(origin, Pt::new((1900 - 180) * 2, (500 - 300) * 2), "her corner on the scale-2 output's desk");
        assert!(origin.x >= 2560, "not in the desk's gap between the outputs: {origin:?}");
        // Taken on the new place: the hand still, the window stays.
        f.placed(origin, 100);
        let again = f.pointer((180.0, 300.0), 200).unwrap();
        assert_eq!(Pt::new(again.x - 180, again.y - 300), origin);
    }

    /// sway: every point of the press is against the place at the press;
    /// the window's moves change nothing, no event is let go by.
    #[test]
    fn against_the_press_the_window_follows_every_event() {
        let mut f = PagePointer::default();
        let pressed = Pt::new(0, 315);
        assert_eq!(f.grab(pressed, (180.0, 300.0), one(), Reference::Press, 0), Pt::new(180, 615));
        for n in 1..=12 {
            let hand = Pt::new(180, 615 - 20 * n);
            let at = (f64::from(hand.x - pressed.x), f64::from(hand.y - pressed.y));
            let p = f.pointer(at, n as i64).expect("never let go by");
            assert_eq!(p, hand, "event {n}");
            f.placed(Pt::new(p.x - 180, p.y - 300), n as i64);
        }
        assert_eq!(Reference::of_session(Some("/run/sway-ipc.sock")), Reference::Press);
        assert_eq!(Reference::of_session(Some("")), Reference::Current);
        assert_eq!(Reference::of_session(None), Reference::Current);
    }

    #[test]
    fn nothing_before_a_grab_and_a_repeated_place_does_not_restart_the_settling() {
        let mut f = PagePointer::default();
        assert_eq!(f.pointer((5.0, 6.0), 100), None);
        f.grab(Pt::new(10, 10), (1.0, 1.0), one(), Reference::Current, 0);
        assert_eq!(f.pointer((2.0, 2.0), 0), Some(Pt::new(12, 12)), "the grab's own place has settled");
        f.placed(Pt::new(50, 50), 10);
        assert_eq!(f.pointer((2.0, 2.0), 10 + PAGE_POINTER_SETTLE_MS - 1), None);
        f.placed(Pt::new(50, 50), 30);
        assert_eq!(f.pointer((2.0, 2.0), 10 + PAGE_POINTER_SETTLE_MS), Some(Pt::new(52, 52)));
    }
}
