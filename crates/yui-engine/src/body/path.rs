//! A move as a timeline: legs of walking, climbing, hopping and falling,
//! each from one window origin to the next. Pure: the position at any
//! moment is a function of the elapsed time.

use super::geometry::Pt;
use serde::{Deserialize, Serialize};

/// How one leg moves; the page plays its clip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Gait {
    /// Along the floor or a window top (or straight through the air).
    Walk,
    /// Up or down a window's side.
    Climb,
    /// A jump in an arc.
    Hop,
    /// Falling under gravity.
    Fall,
}

/// One leg of a move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leg {
    /// How it moves.
    pub gait: Gait,
    /// The window origin it starts from.
    pub from: Pt,
    /// The window origin it ends at.
    pub to: Pt,
    /// How long it takes.
    pub ms: u32,
    /// For a hop, how far the arc rises above the higher end (px).
    pub rise: i32,
}

impl Leg {
    /// A leg at `speed` px/s (at least one frame long).
    pub fn at_speed(gait: Gait, from: Pt, to: Pt, speed: f64) -> Self {
        let ms = (from.dist(to) / speed.max(1.0) * 1000.0).round().max(1.0) as u32;
        Leg { gait, from, to, ms, rise: 0 }
    }

    /// A hop of `ms` rising `rise` px above the higher end.
    pub fn hop(from: Pt, to: Pt, ms: u32, rise: i32) -> Self {
        Leg { gait: Gait::Hop, from, to, ms: ms.max(1), rise }
    }

    /// A fall from `from` to `to` under `gravity` px/s² (starting at rest).
    pub fn fall(from: Pt, to: Pt, gravity: f64) -> Self {
        let drop = (to.y - from.y).max(0) as f64;
        let ms = ((2.0 * drop / gravity.max(1.0)).sqrt() * 1000.0).round().max(1.0) as u32;
        Leg { gait: Gait::Fall, from, to, ms, rise: 0 }
    }

    /// Where the window is `t` ms into this leg.
    pub fn at(&self, t: u32) -> Pt {
        let s = (t.min(self.ms) as f64) / self.ms as f64;
        let lerp = |a: i32, b: i32, s: f64| a + ((b - a) as f64 * s).round() as i32;
        match self.gait {
            Gait::Walk | Gait::Climb => Pt::new(lerp(self.from.x, self.to.x, s), lerp(self.from.y, self.to.y, s)),
            Gait::Hop => {
                // A parabola through both ends, `rise` above the higher one.
                let top = self.from.y.min(self.to.y) - self.rise;
                let (a, b) = ((self.from.y - top) as f64, (self.to.y - top) as f64);
                // y(s) = top + (√a(1−s) − √b s)² keeps y(0)=from, y(1)=to, min=top.
                let r = a.sqrt() * (1.0 - s) - b.sqrt() * s;
                Pt::new(lerp(self.from.x, self.to.x, s), top + (r * r).round() as i32)
            }
            Gait::Fall => Pt::new(lerp(self.from.x, self.to.x, s), lerp(self.from.y, self.to.y, s * s)),
        }
    }
}

/// A whole move: its legs in order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Path {
    /// The legs; an empty path is already there.
    pub legs: Vec<Leg>,
}

impl Path {
    /// A path of `legs`, leaving out legs that go nowhere.
    pub fn of(legs: impl IntoIterator<Item = Leg>) -> Self {
        Self { legs: legs.into_iter().filter(|l| l.from != l.to).collect() }
    }

    /// The whole path's length in ms.
    pub fn ms(&self) -> u32 {
        self.legs.iter().map(|l| l.ms).sum()
    }

    /// Squeeze the path into `max_ms`, every leg in proportion.
    pub fn within(mut self, max_ms: u32) -> Self {
        let total = self.ms();
        if total > max_ms && total > 0 {
            for leg in &mut self.legs {
                leg.ms = ((leg.ms as u64 * max_ms as u64) / total as u64).max(1) as u32;
            }
        }
        self
    }

    /// Where the window is `t` ms into the path, the gait then, and whether
    /// the path has ended.
    pub fn at(&self, mut t: u32) -> (Option<Pt>, Option<Gait>, bool) {
        for leg in &self.legs {
            if t < leg.ms {
                return (Some(leg.at(t)), Some(leg.gait), false);
            }
            t -= leg.ms;
        }
        (self.legs.last().map(|l| l.to), None, true)
    }

    /// Where the path ends (none when empty).
    pub fn end(&self) -> Option<Pt> {
        self.legs.last().map(|l| l.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hop_starts_and_ends_on_its_points_and_rises_above_both() {
        let hop = Leg::hop(Pt::new(0, 500), Pt::new(300, 300), 600, 80);
        assert_eq!(hop.at(0), Pt::new(0, 500));
        assert_eq!(hop.at(600), Pt::new(300, 300));
        let highest = (0..=600).map(|t| hop.at(t).y).min().unwrap();
        assert!((218..=222).contains(&highest), "rises 80 above the higher end: {highest}");
    }

    #[test]
    fn a_fall_accelerates_and_lasts_as_gravity_says() {
        let fall = Leg::fall(Pt::new(0, 0), Pt::new(0, 1300), 2600.0);
        assert_eq!(fall.ms, 1000, "√(2·1300/2600) s");
        let first_half = fall.at(500).y;
        assert_eq!(first_half, 325, "a quarter of the drop in the first half");
        assert_eq!(fall.at(1000).y, 1300);
    }

    #[test]
    fn a_path_walks_its_legs_in_order_and_squeezes_into_its_limit() {
        let a = Pt::new(0, 0);
        let b = Pt::new(100, 0);
        let c = Pt::new(100, -200);
        let path = Path::of([Leg::at_speed(Gait::Walk, a, b, 100.0), Leg::at_speed(Gait::Climb, b, c, 100.0), Leg::at_speed(Gait::Walk, c, c, 1.0)]);
        assert_eq!(path.legs.len(), 2, "a leg that goes nowhere is left out");
        assert_eq!(path.ms(), 3000);
        assert_eq!(path.at(500), (Some(Pt::new(50, 0)), Some(Gait::Walk), false));
        assert_eq!(path.at(2000), (Some(Pt::new(100, -100)), Some(Gait::Climb), false));
        assert_eq!(path.at(3000), (Some(c), None, true));
        let quick = path.clone().within(1500);
        assert_eq!(quick.ms(), 1500);
        assert_eq!(quick.end(), Some(c));
    }
}
