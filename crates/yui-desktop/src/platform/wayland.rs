//! A Wayland session's desktop facts, from what its compositor offers: the
//! focused window from sway's IPC ([`super::sway::SwayDesktop`]) and the
//! idle time from an idle protocol ([`super::wayland_idle::IdleWatch`]).
//! Either may be missing; [`DesktopFacts::limitation`] then says which.

use super::sway::{SwayDesktop, SWAY_LIMITATION};
use super::wayland_idle::IdleWatch;
use super::{DesktopFacts, Sample, WAYLAND_LIMITATION};

/// The reason a compositor with an idle protocol but no sway IPC gives no
/// frontmost line.
pub const IDLE_ONLY_LIMITATION: &str =
    "This compositor tells YUI how long the user has been idle but not which window has the focus; the frontmost line is left out.";

/// A Wayland session's reader: each half present when the compositor
/// offers it.
#[derive(Debug)]
pub struct WaylandDesktop {
    sway: Option<SwayDesktop>,
    idle: Option<&'static IdleWatch>,
}

impl WaylandDesktop {
    /// A reader of these halves.
    pub fn new(sway: Option<SwayDesktop>, idle: Option<&'static IdleWatch>) -> Self {
        Self { sway, idle }
    }
}

impl DesktopFacts for WaylandDesktop {
    fn frontmost(&self) -> Option<Sample> {
        self.sway.as_ref()?.frontmost()
    }

    fn idle_ms(&self) -> Option<u64> {
        self.idle?.idle_ms()
    }

    fn limitation(&self) -> Option<&'static str> {
        match (self.sway.is_some(), self.idle.is_some()) {
            (true, true) => None,
            (true, false) => Some(SWAY_LIMITATION),
            (false, true) => Some(IDLE_ONLY_LIMITATION),
            (false, false) => Some(WAYLAND_LIMITATION),
        }
    }
}
