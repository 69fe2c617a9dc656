//! # yui-desktop
//!
//! How YUI reaches the desktop: `platform`, the code that talks to each
//! system (one module per system: X11, sway, Wayland and its idle time,
//! Windows, macOS, the GDK backend choice) for both the desktop facts and
//! the screen, with the types they answer in; and `picture`, the capture of
//! a display or a window and the fitter that scales and encodes what the
//! eyes see; and `keystore`, where the API key is kept (the OS keychain,
//! else a file only the user reads). It decides nothing about a turn: `yui-core`'s `world` and tools
//! read through it, and re-export its modules at their old paths
//! (`yui_core::platform`, `yui_core::picture`, `yui_core::keystore`). `docs/architecture.md` has
//! the map of the crates.
#![deny(missing_docs)]

pub mod keystore;
pub mod picture;
pub mod platform;

// The one table of limits, at the path the modules name it by (only the
// Linux desktop modules read it).
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub(crate) use yui_engine::limits;
