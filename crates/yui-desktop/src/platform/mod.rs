//! The platform layer: the code that talks to the desktop's system, one
//! module per system, serving both the desktop facts (`yui_core::world`) and
//! the capture (`crate::picture`). It names neither of them: they import it
//! (`docs/architecture.md`, "Modules and their order").
//!
//! - [`x11`]: one X11 module for both: the active window and idle time
//!   ([`x11::X11Desktop`]), the stage facts, the display and window capture
//!   and the window manager's client list, on the same xcb helpers.
//! - [`sway`]: the i3 IPC of sway and its kin: the focused window, and the
//!   windows shown (for the window list under Wayland).
//! - [`mod@wayland`], [`wayland_idle`]: the Wayland desktop reader (sway's
//!   focus plus the compositor's idle protocol).
//! - [`win32`], `macos`: the Windows and macOS desktop readers.
//! - [`gdk_backend`]: which GDK backend the app picks under Wayland.
//!
//! The types the readers answer in live here too: [`Sample`] and the port
//! [`DesktopFacts`] (re-exported by `world`), [`Display`], `RawWindow`,
//! [`Rgba`] and [`CaptureError`] (re-exported by `picture::capture`).
//!
//! Platforms: X11 reads EWMH `_NET_ACTIVE_WINDOW` and the MIT-SCREEN-SAVER
//! idle time ([`x11::X11Desktop`]). Wayland has no general way for a client
//! to learn the focused window of other programs (each compositor offers its
//! own protocol, or none): under sway (or another compositor speaking the i3
//! IPC on `$SWAYSOCK`) the focused window is read from its IPC
//! ([`sway::SwayDesktop`]); under other compositors the frontmost line is
//! left out. Idle time comes from the compositor's idle protocol
//! (`ext_idle_notifier_v1` or `org_kde_kwin_idle`, [`wayland_idle`]) where
//! it offers one, and is unknown otherwise (unknown idle counts as
//! present). [`DesktopFacts::limitation`] carries the reason for the
//! settings to show. Windows reads the foreground window and the last
//! input time ([`win32`]); macOS the frontmost app and idle time
//! (`macos`, no window title); both written but not yet compiled or run on
//! those systems. Other systems answer `None` for now.

pub mod gdk_backend;
#[cfg(target_os = "macos")]
pub mod macos;
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub mod sway;
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub mod wayland;
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub mod wayland_idle;
pub mod win32;
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub mod x11;

use serde::Serialize;
use std::sync::Arc;
use ts_rs::TS;

/// One raw frontmost sample, as the OS reports it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sample {
    /// The app's name (X11: the class part of `WM_CLASS`, else the
    /// instance). Empty when the window names none.
    pub app: String,
    /// The window title (X11: `_NET_WM_NAME`, else `WM_NAME`). Empty when
    /// the window has none.
    pub title: String,
    /// The owning process, when the window says (X11: `_NET_WM_PID`).
    pub pid: Option<u32>,
    /// True when the window covers its whole display as a fullscreen app
    /// (X11: `_NET_WM_STATE_FULLSCREEN`); the pacer's do-not-disturb reads
    /// it. False when the system cannot tell.
    pub fullscreen: bool,
}

/// The desktop facts a session samples. Blocking calls (they may talk to a
/// display server); call them off the async runtime's worker threads.
pub trait DesktopFacts: Send + Sync {
    /// The window in the foreground now; `None` when there is none or the
    /// system cannot tell.
    fn frontmost(&self) -> Option<Sample>;

    /// Milliseconds since the user's last keyboard or pointer input; `None`
    /// when the system cannot tell (which counts as present).
    fn idle_ms(&self) -> Option<u64>;

    /// Why this platform gives no frontmost line or idle time, for the
    /// settings to show; `None` when it gives both.
    fn limitation(&self) -> Option<&'static str> {
        None
    }
}

/// The desktop of a system YUI cannot read: every answer is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoDesktop {
    reason: &'static str,
}

/// The reason a Wayland session gives no frontmost line.
pub const WAYLAND_LIMITATION: &str = "Wayland offers no general way to see which window has the focus or how long the user has been idle; the frontmost line is left out and the user counts as present.";

/// The reason other systems give no frontmost line yet.
pub const UNSUPPORTED_LIMITATION: &str =
    "The frontmost window and idle time are not read on this system yet; the frontmost line is left out and the user counts as present.";

/// The reason an X11 session without a display gives no frontmost line.
pub const NO_DISPLAY_LIMITATION: &str =
    "No display to read: neither DISPLAY nor WAYLAND_DISPLAY is set; the frontmost line is left out and the user counts as present.";

impl NoDesktop {
    /// A desktop that answers `None`, for `reason` (shown in the settings).
    pub const fn new(reason: &'static str) -> Self {
        Self { reason }
    }
}

impl DesktopFacts for NoDesktop {
    fn frontmost(&self) -> Option<Sample> {
        None
    }

    fn idle_ms(&self) -> Option<u64> {
        None
    }

    fn limitation(&self) -> Option<&'static str> {
        Some(self.reason)
    }
}

/// Which desktop [`platform`] picks for a pair of `DISPLAY` and
/// `WAYLAND_DISPLAY` values (empty counts as unset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An X11 session: `DISPLAY` set, `WAYLAND_DISPLAY` not.
    X11,
    /// A Wayland session (whether or not XWayland also sets `DISPLAY`:
    /// XWayland sees only X clients, so its active window would be wrong
    /// whenever a native Wayland window has the focus).
    Wayland,
    /// No display at all, or a system without a reader.
    None,
}

/// The backend for these environment values, on Linux.
pub fn backend_for(display: Option<&str>, wayland_display: Option<&str>) -> Backend {
    let set = |v: Option<&str>| v.is_some_and(|s| !s.is_empty());
    match (set(display), set(wayland_display)) {
        (_, true) => Backend::Wayland,
        (true, false) => Backend::X11,
        (false, false) => Backend::None,
    }
}

/// Whether the app's own windows are X11 windows it can place
/// (`world::can_place_windows`' X half) for these environment values, on
/// Linux: `GDK_BACKEND`'s first choice, else X11 only without Wayland.
pub fn placement_for(gdk_backend: Option<&str>, display: Option<&str>, wayland_display: Option<&str>) -> bool {
    let set = |v: Option<&str>| v.is_some_and(|s| !s.is_empty());
    let first = gdk_backend.and_then(|b| b.split(',').next()).map(str::trim).filter(|b| !b.is_empty() && *b != "*");
    match first {
        Some("x11") => set(display),
        Some(_) => false,
        None => !set(wayland_display) && set(display),
    }
}

/// One display (monitor), in logical pixels.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct Display {
    /// Position in `picture::capture::displays`' list: what
    /// `picture::capture::capture_display` takes.
    pub index: usize,
    /// The display's friendly name, else its system name (e.g. `HDMI-1`).
    pub label: String,
    /// Left edge on the virtual desktop.
    pub x: i32,
    /// Top edge on the virtual desktop.
    pub y: i32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Physical pixels per logical pixel.
    pub scale: f32,
    /// The system's primary display.
    pub primary: bool,
}

impl From<&Display> for yui_engine::body::geometry::Rect {
    /// A display's place on the desktop.
    fn from(d: &Display) -> Self {
        yui_engine::body::geometry::Rect { x: d.x, y: d.y, width: d.width as i32, height: d.height as i32 }
    }
}

/// Why a capture or a listing failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaptureError {
    /// No display server to talk to, or it reports no display.
    #[error("no display to capture (no X server or Wayland session reachable)")]
    NoDisplay,
    /// The display or window asked for is not there.
    #[error("not found: {0}")]
    NotFound(String),
    /// The system refused or failed the capture (portal denied, X error...).
    #[error("screen capture failed: {0}")]
    Failed(String),
}

/// A window as a platform lists it, before filtering; physical pixels.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawWindow {
    /// The platform's window id (X11: the window's XID).
    pub id: u32,
    /// The owning process, when known.
    pub pid: Option<u32>,
    pub app: String,
    pub title: String,
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    /// Minimized, or otherwise not shown (unmapped).
    pub minimized: bool,
}

/// Pixels a platform captured: 8-bit RGBA, row-major, rows top to bottom
/// (`picture::Picture::Rgba` once handed up).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rgba {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, R G B A per pixel.
    pub pixels: Vec<u8>,
}

/// The desktop reader of this machine: on Windows the foreground window
/// and last input ([`win32::WindowsDesktop`], not compiled by the Linux CI).
#[cfg(target_os = "windows")]
pub fn platform() -> Arc<dyn DesktopFacts> {
    Arc::new(win32::WindowsDesktop::new())
}

/// The desktop reader of this machine: on macOS the frontmost app and the
/// idle time (`macos::MacDesktop`, not compiled by the Linux CI).
#[cfg(target_os = "macos")]
pub fn platform() -> Arc<dyn DesktopFacts> {
    Arc::new(macos::MacDesktop::new())
}

/// The desktop reader of this machine: X11 when `DISPLAY` is set and
/// `WAYLAND_DISPLAY` is not; on Wayland, sway's IPC when `SWAYSOCK` names a
/// socket that connects; otherwise a [`NoDesktop`] with its reason.
#[cfg(not(any(target_os = "windows", target_os = "macos")))]
pub fn platform() -> Arc<dyn DesktopFacts> {
    if !cfg!(all(target_os = "linux", not(target_env = "ohos"))) {
        return Arc::new(NoDesktop::new(UNSUPPORTED_LIMITATION));
    }
    let var = |k: &str| std::env::var(k).ok();
    match backend_for(var("DISPLAY").as_deref(), var("WAYLAND_DISPLAY").as_deref()) {
        #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
        Backend::X11 => Arc::new(x11::X11Desktop::new(None)),
        #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
        Backend::Wayland => wayland(var("SWAYSOCK").as_deref()),
        _ => Arc::new(NoDesktop::new(NO_DISPLAY_LIMITATION)),
    }
}

/// The reader of a Wayland session whose `SWAYSOCK` is `swaysock`: the
/// focused window from sway's IPC when it names a socket that connects, and
/// the idle time from the compositor's idle protocol when it has one
/// ([`wayland_idle::IdleWatch::shared`]); [`WAYLAND_LIMITATION`] when it
/// offers neither.
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub fn wayland(swaysock: Option<&str>) -> Arc<dyn DesktopFacts> {
    wayland_with(swaysock, wayland_idle::IdleWatch::shared().ok())
}

/// [`wayland()`] with the idle half given (tests pass `None`).
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub fn wayland_with(swaysock: Option<&str>, idle: Option<&'static wayland_idle::IdleWatch>) -> Arc<dyn DesktopFacts> {
    let sway = swaysock.filter(|s| !s.is_empty()).and_then(sway::SwayDesktop::connect);
    Arc::new(wayland::WaylandDesktop::new(sway, idle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x11_only_without_wayland() {
        assert_eq!(backend_for(Some(":0"), None), Backend::X11);
        assert_eq!(backend_for(Some(":0"), Some("")), Backend::X11);
        assert_eq!(backend_for(Some(":0"), Some("wayland-0")), Backend::Wayland);
        assert_eq!(backend_for(None, Some("wayland-0")), Backend::Wayland);
        assert_eq!(backend_for(None, None), Backend::None);
        assert_eq!(backend_for(Some(""), None), Backend::None);
    }

    #[test]
    fn windows_are_placed_on_x11_and_xwayland_but_not_as_a_wayland_client() {
        assert!(placement_for(None, Some(":0"), None));
        assert!(!placement_for(None, Some(":0"), Some("wayland-1")), "GTK picks Wayland first");
        assert!(placement_for(Some("x11"), Some(":0"), Some("wayland-1")), "XWayland");
        assert!(!placement_for(Some("wayland"), Some(":0"), Some("wayland-1")));
        assert!(placement_for(Some("x11,wayland"), Some(":0"), None));
        assert!(!placement_for(Some("x11"), None, None), "no X server");
        assert!(!placement_for(None, None, None));
    }

    #[test]
    fn no_desktop_answers_none_with_its_reason() {
        let d = NoDesktop::new(WAYLAND_LIMITATION);
        assert_eq!(d.frontmost(), None);
        assert_eq!(d.idle_ms(), None);
        assert_eq!(d.limitation(), Some(WAYLAND_LIMITATION));
    }
}
