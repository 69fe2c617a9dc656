//! The desktop as the body sees it: the pet window's frame, other apps'
//! windows as surfaces, and the displays. Physical pixels on the virtual
//! desktop throughout; the body's own sizes come from [`super::BodyTunables`]
//! in logical pixels and are scaled by the frame's scale factor.

use super::BodyTunables;

/// A rectangle in physical pixels on the virtual desktop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub width: i32,
    /// Height.
    pub height: i32,
}

impl Rect {
    /// The area `self` and `o` share, in square pixels (0 when they do
    /// not meet).
    pub fn overlap(&self, o: &Rect) -> i64 {
        let w = (self.x + self.width).min(o.x + o.width) - self.x.max(o.x);
        let h = (self.y + self.height).min(o.y + o.height) - self.y.max(o.y);
        if w <= 0 || h <= 0 {
            0
        } else {
            w as i64 * h as i64
        }
    }
}

/// A point on the virtual desktop, physical pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pt {
    /// Horizontal.
    pub x: i32,
    /// Vertical, growing down.
    pub y: i32,
}

impl Pt {
    /// A point.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// Straight-line distance to `o`.
    pub fn dist(self, o: Pt) -> f64 {
        (((self.x - o.x) as f64).powi(2) + ((self.y - o.y) as f64).powi(2)).sqrt()
    }
}

/// Another app's window, as a surface she may sit on or peek from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Surface {
    /// The owning app (as `look` lists it).
    pub app: String,
    /// The window's title.
    pub title: String,
    /// Where it is.
    pub rect: Rect,
}

impl Surface {
    /// The same window, by app and title (the window list has no ids).
    pub fn same_window(&self, o: &Surface) -> bool {
        self.app == o.app && self.title == o.title
    }
}

/// What the desktop looks like now: other windows front to back, and the
/// displays.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scene {
    /// Other apps' visible windows, front to back.
    pub windows: Vec<Surface>,
    /// The displays, in `look`'s order.
    pub displays: Vec<Rect>,
}

impl Scene {
    /// The display holding `p`, else the nearest one.
    pub fn display_at(&self, p: Pt) -> Option<Rect> {
        self.displays.iter().copied().min_by_key(|d| {
            let dx = (d.x - p.x).max(0).max(p.x - (d.x + d.width - 1));
            let dy = (d.y - p.y).max(0).max(p.y - (d.y + d.height - 1));
            dx as i64 * dx as i64 + dy as i64 * dy as i64
        })
    }

    /// Whether `p` is under some window in front of window number `index`
    /// (or, with `index` past the end, under any window).
    pub fn covered(&self, p: Pt, index: usize) -> bool {
        self.windows.iter().take(index).any(|w| contains(&w.rect, p))
    }

    /// The frontmost window that holds `p`, with its place in the list.
    pub fn window_at(&self, p: Pt) -> Option<(usize, &Surface)> {
        self.windows.iter().enumerate().find(|(_, w)| contains(&w.rect, p))
    }
}

/// Whether `r` holds `p`.
pub fn contains(r: &Rect, p: Pt) -> bool {
    p.x >= r.x && p.x < r.x + r.width && p.y >= r.y && p.y < r.y + r.height
}

/// The pet window's frame and the body's measures in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// The window's outer size, physical pixels.
    pub width: i32,
    /// Height, physical pixels.
    pub height: i32,
    /// Physical pixels per logical pixel.
    pub scale: f64,
    /// Soles above the window's bottom edge, physical.
    pub feet: i32,
    /// Hips above the window's bottom edge, physical (where she sits).
    pub seat: i32,
    /// Her width, centred in the window, physical.
    pub body: i32,
}

impl Frame {
    /// The frame of a `width` × `height` window at `scale` for `t`.
    pub fn new(width: i32, height: i32, scale: f64, t: &BodyTunables) -> Self {
        let px = |v: f64| (v * scale).round() as i32;
        Self { width, height, scale, feet: px(t.feet_from_bottom), seat: px(t.seat_from_bottom), body: px(t.body_width) }
    }

    /// The window origin that puts her soles' centre at `p`.
    pub fn origin_for_feet(&self, p: Pt) -> Pt {
        Pt::new(p.x - self.width / 2, p.y - (self.height - self.feet))
    }

    /// The window origin that puts her hips' centre at `p`.
    pub fn origin_for_seat(&self, p: Pt) -> Pt {
        Pt::new(p.x - self.width / 2, p.y - (self.height - self.seat))
    }

    /// Her soles' centre for a window at `origin`.
    pub fn feet_of(&self, origin: Pt) -> Pt {
        Pt::new(origin.x + self.width / 2, origin.y + self.height - self.feet)
    }

    /// Her hips' centre for a window at `origin`.
    pub fn seat_of(&self, origin: Pt) -> Pt {
        Pt::new(origin.x + self.width / 2, origin.y + self.height - self.seat)
    }

    /// Her centre for a window at `origin`.
    pub fn centre_of(&self, origin: Pt) -> Pt {
        Pt::new(origin.x + self.width / 2, origin.y + self.height / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feet_and_seat_round_trip_through_the_origin() {
        let f = Frame::new(720, 1040, 2.0, &BodyTunables::shipped());
        let o = Pt::new(100, 50);
        assert_eq!(f.origin_for_feet(f.feet_of(o)), o);
        assert_eq!(f.origin_for_seat(f.seat_of(o)), o);
        assert!(f.seat_of(o).y < f.feet_of(o).y, "hips above soles");
    }

    #[test]
    fn the_display_at_a_point_is_the_nearest_when_none_holds_it() {
        let a = Rect { x: 0, y: 0, width: 1000, height: 800 };
        let b = Rect { x: 1000, y: 0, width: 1000, height: 800 };
        let s = Scene { windows: vec![], displays: vec![a, b] };
        assert_eq!(s.display_at(Pt::new(1500, 10)), Some(b));
        assert_eq!(s.display_at(Pt::new(-50, 900)), Some(a));
    }
}
