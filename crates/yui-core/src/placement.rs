//! Desktop geometry decisions for the pet window.

pub use crate::body::geometry::Rect;

// A display's `Rect` comes from `platform::Display` (`From`, beside it).

/// Where each character's pet window stood last, by character name:
/// `<data dir>/pet-places.json`. A missing or broken file remembers
/// nothing (logged); a failed save is logged and changes nothing else.
/// Saves run on [`crate::persist::Writer::global`]; opening flushes it.
#[derive(Debug, Clone)]
pub struct PlaceBook {
    path: std::path::PathBuf,
    places: std::collections::BTreeMap<String, (i32, i32)>,
}

/// The file [`PlaceBook`] keeps.
pub const PLACES_FILE: &str = "pet-places.json";

impl PlaceBook {
    /// The book of `data_dir`.
    pub fn open(data_dir: &crate::data_dir::DataDir) -> Self {
        let path = data_dir.root().join(PLACES_FILE);
        // A place saved a moment ago is on disk before it is read.
        crate::persist::Writer::global().flush();
        let places = match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).unwrap_or_else(|e| {
                tracing::warn!(record = "pet_places_unreadable", path = %path.display(), error = %e);
                Default::default()
            }),
            Err(_) => Default::default(),
        };
        Self { path, places }
    }

    /// Where `character` stood last.
    pub fn recall(&self, character: &str) -> Option<(i32, i32)> {
        self.places.get(character).copied()
    }

    /// `character` stands at (`x`, `y`) now; saved when it moved.
    pub fn remember(&mut self, character: &str, x: i32, y: i32) {
        if self.places.get(character) == Some(&(x, y)) {
            return;
        }
        self.places.insert(character.to_string(), (x, y));
        // Written on the process's writer, off the session loop.
        let (places, path) = (self.places.clone(), self.path.clone());
        crate::persist::Writer::global().submit_whole(&self.path, move || {
            let json = serde_json::to_vec_pretty(&places).expect("places serialize");
            if let Err(e) = crate::data_dir::write_atomic(&path, &json) {
                tracing::warn!(record = "pet_place_save_failed", error = %e);
            }
        });
    }
}

/// Where to put a window of `size` remembered at `at` when it starts:
/// there when at least a third of it is on some display, else nowhere
/// (it starts where the app puts it).
pub fn restore_position(at: (i32, i32), size: (i32, i32), monitors: &[Rect]) -> Option<(i32, i32)> {
    let rect = Rect { x: at.0, y: at.1, width: size.0, height: size.1 };
    (!monitors.is_empty() && bring_back_position(rect, monitors).is_none()).then_some(at)
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

    #[test]
    fn each_character_has_its_place_and_a_place_off_every_display_is_not_restored() {
        let dir = tempfile::tempdir().unwrap();
        let data = crate::data_dir::DataDir::new(dir.path()).unwrap();
        let mut book = PlaceBook::open(&data);
        assert_eq!(book.recall("Yui"), None);
        book.remember("Yui", 700, 280);
        book.remember("Mio", 10, 20);
        let again = PlaceBook::open(&data);
        assert_eq!((again.recall("Yui"), again.recall("Mio")), (Some((700, 280)), Some((10, 20))));
        assert_eq!(restore_position((700, 280), (360, 520), &[SCREEN]), Some((700, 280)));
        assert_eq!(restore_position((3000, 280), (360, 520), &[SCREEN]), None, "that display is gone");
        std::fs::write(dir.path().join(PLACES_FILE), "{broken").unwrap();
        assert_eq!(PlaceBook::open(&data).recall("Yui"), None, "a broken file remembers nothing");
    }
}
