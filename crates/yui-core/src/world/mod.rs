//! Desktop facts: what the user has in the foreground and how long since
//! they last touched the keyboard or mouse (`docs/triggers.md`, "The world",
//! "Idle and presence").
//!
//! [`DesktopFacts`] is the port a session samples: raw OS facts, `None`
//! where the system cannot tell. The pure parts turn those samples into what
//! the block renders and records: [`FrontmostTracker`] applies the
//! `since` rules of `docs/triggers.md` ("The world") and yields [`Transition`]s, [`ActivityLog`] keeps those
//! transitions one file per local day, and [`presence`] says whether the
//! user is present and when they leave and return.
//!
//! The platform code (X11, sway, Wayland, Windows, macOS) lives in
//! `crate::platform`, shared with the capture; the port [`DesktopFacts`],
//! [`Sample`], the readers and the platform modules are re-exported here so
//! `world::x11`, `world::platform()` and the rest keep their paths.

pub mod activity;
pub mod frontmost;
pub mod presence;
pub mod stage;

#[cfg(target_os = "macos")]
pub use crate::platform::macos;
pub use crate::platform::{
    backend_for, gdk_backend, placement_for, platform, win32, Backend, DesktopFacts, NoDesktop, Sample, NO_DISPLAY_LIMITATION, UNSUPPORTED_LIMITATION,
    WAYLAND_LIMITATION,
};
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub use crate::platform::{sway, wayland, wayland_idle, wayland_with, x11};

pub use activity::ActivityLog;
pub use frontmost::{FrontmostTracker, Observation, Transition};
pub use presence::{present, PresenceChange, PresenceEdges};

/// Whether this app can put its own windows where the body goes: yes on
/// Windows, macOS, X11 and XWayland; as a native Wayland client (GTK
/// picks Wayland first when `WAYLAND_DISPLAY` is set, unless `GDK_BACKEND`
/// says `x11`) only when the app made the pet a layer-shell surface
/// ([`stage::set_layer_shell`]): a plain toplevel cannot place itself.
pub fn can_place_windows() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    let var = |k: &str| std::env::var(k).ok();
    placement_with(placement_for(var("GDK_BACKEND").as_deref(), var("DISPLAY").as_deref(), var("WAYLAND_DISPLAY").as_deref()), stage::layer_shell())
}

/// [`can_place_windows`] from its two facts: the app runs on X11/XWayland
/// (`x_placement`, [`placement_for`]), or the pet is a layer-shell surface.
pub fn placement_with(x_placement: bool, layer_shell: bool) -> bool {
    x_placement || layer_shell
}
