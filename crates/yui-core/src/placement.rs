//! Desktop geometry decisions for the pet window.

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
    fn overlap(&self, o: &Rect) -> i64 {
        let w = (self.x + self.width).min(o.x + o.width) - self.x.max(o.x);
        let h = (self.y + self.height).min(o.y + o.height) - self.y.max(o.y);
        if w <= 0 || h <= 0 { 0 } else { w as i64 * h as i64 }
    }
}

/// Where to move a window that the user calls back: `None` when at least a
/// third of it is on some display already; otherwise the bottom-right corner
/// area of the first display (the primary), inset by 5% of its size.
pub fn bring_back_position(window: Rect, monitors: &[Rect]) -> Option<(i32, i32)> {
    let area = window.width as i64 * window.height as i64;
    let visible: i64 = monitors.iter().map(|m| window.overlap(m)).max().unwrap_or(0);
    if area > 0 && visible * 3 >= area {
        return None;
    }
    let m = monitors.first()?;
    let x = m.x + m.width - window.width - m.width / 20;
    let y = m.y + m.height - window.height - m.height / 20;
    Some((x.max(m.x), y.max(m.y)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCREEN: Rect = Rect { x: 0, y: 0, width: 1280, height: 800 };

    #[test]
    fn a_visible_window_stays_and_a_lost_one_comes_back() {
        let win = Rect { x: 100, y: 100, width: 360, height: 520 };
        assert_eq!(bring_back_position(win, &[SCREEN]), None);
        let lost = Rect { x: 5000, y: -3000, ..win };
        let (x, y) = bring_back_position(lost, &[SCREEN]).unwrap();
        let back = Rect { x, y, ..win };
        assert_eq!(back.overlap(&SCREEN), 360 * 520, "fully on screen: {back:?}");
        let mostly_off = Rect { x: 1200, y: 100, ..win };
        assert!(bring_back_position(mostly_off, &[SCREEN]).is_some());
        assert_eq!(bring_back_position(lost, &[]), None, "no display: nothing to do");
    }
}
