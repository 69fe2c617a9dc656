//! The macOS desktop: the frontmost app from `NSWorkspace`
//! (`frontmostApplication`: its localized name and pid) and the idle time
//! from `CGEventSourceSecondsSinceLastEventType` (any input, combined
//! session state).
//!
//! The window title is not read: `CGWindowListCopyWindowInfo` gives other
//! apps' titles only with the Screen Recording permission, so the title is
//! empty; fullscreen is not read yet (false).
//!
//! Written but not yet compiled or run on macOS (this repository's CI
//! builds Linux).

use super::{DesktopFacts, Sample};
use objc2_app_kit::NSWorkspace;
use objc2_core_graphics::{CGEventSource, CGEventSourceStateID, CGEventType};

/// `kCGAnyInputEventType`: every kind of input event.
const ANY_INPUT: CGEventType = CGEventType(u32::MAX);

/// The macOS desktop reader. Holds nothing: every call asks the system.
#[derive(Debug, Clone, Copy, Default)]
pub struct MacDesktop;

impl MacDesktop {
    /// The reader.
    pub const fn new() -> Self {
        Self
    }
}

impl DesktopFacts for MacDesktop {
    fn frontmost(&self) -> Option<Sample> {
        let app = NSWorkspace::sharedWorkspace().frontmostApplication()?;
        let name = app.localizedName().map(|n| n.to_string()).unwrap_or_default();
        let pid = u32::try_from(app.processIdentifier()).ok().filter(|&p| p != 0);
        Some(Sample { app: name, title: String::new(), pid, fullscreen: false })
    }

    fn idle_ms(&self) -> Option<u64> {
        let seconds = CGEventSource::seconds_since_last_event_type(CGEventSourceStateID::CombinedSessionState, ANY_INPUT);
        (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0) as u64)
    }
}
