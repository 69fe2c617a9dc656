//! Screen and window capture. All blocking: async callers run these on
//! `tokio::task::spawn_blocking`.
//!
//! - The display list comes from xcap everywhere (`Monitor::all()` order).
//! - On X11 (Linux without a Wayland session) displays and windows are
//!   captured, and windows listed, by our own xcb code (`platform/x11/`): one
//!   connection, pipelined requests, a vectorised pixel conversion. xcap's
//!   own X11 capture converts pixel by pixel through a function pointer and
//!   opens a connection per property, too slow for the 35 ms budget.
//! - On Wayland xcap captures through the screenshot portal or
//!   wlr-screencopy; on Windows and macOS xcap does everything.
//!
//! The app's own windows: the app hides them for the shot; the window list
//! leaves out every window of this process (by pid).

use super::Picture;
pub(crate) use crate::platform::RawWindow;
pub use crate::platform::{CaptureError, Display};
use serde::Serialize;
use std::sync::Arc;

/// One visible top-level window of another app, in logical pixels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WindowInfo {
    /// The app: X11 `WM_CLASS` class (else instance), elsewhere the app's name.
    pub app: String,
    /// The window's title.
    pub title: String,
    /// Index of the display holding the window's centre (see [`display_at`]).
    pub monitor: usize,
    /// Left edge on the virtual desktop.
    pub x: i32,
    /// Top edge on the virtual desktop.
    pub y: i32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// Whether the X11 paths apply: Linux outside a Wayland session.
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
fn use_x11() -> bool {
    let session = std::env::var("XDG_SESSION_TYPE").unwrap_or_default();
    let wayland = std::env::var("WAYLAND_DISPLAY").unwrap_or_default();
    !session.eq_ignore_ascii_case("wayland") && wayland.is_empty()
}

/// Whether the app's own windows are X11 windows inside a Wayland session
/// (XWayland: `GDK_BACKEND=x11`, chosen by the user or by
/// [`crate::platform::gdk_backend`]): the pet is placed in the X server's
/// coordinates, so the displays and the windows she walks on come from X11
/// too (which lists X11 windows only). Screenshots keep the Wayland path,
/// which sees every window.
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
fn xwayland_geometry() -> bool {
    let var = |k: &str| std::env::var(k).ok();
    !use_x11() && crate::platform::placement_for(var("GDK_BACKEND").as_deref(), var("DISPLAY").as_deref(), var("WAYLAND_DISPLAY").as_deref())
}

fn xcap_error(e: xcap::XCapError) -> CaptureError {
    CaptureError::Failed(e.to_string())
}

/// Run an xcap call, turning a panic inside it into an error: on some
/// compositors its Wayland path panics instead of failing (weston 10: an
/// xdg-output version it does not offer), which must not take the session
/// down with it.
fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, CaptureError>) -> Result<T, CaptureError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let reason =
                panic.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| panic.downcast_ref::<String>().cloned()).unwrap_or_else(|| "no message".into());
            tracing::warn!(record = "capture_panicked", what, reason = %reason, "the screenshot library failed on this desktop");
            Err(CaptureError::Failed(format!("{what}: the screenshot library failed on this desktop ({reason})")))
        }
    }
}

/// The displays, in xcap's `Monitor::all()` order (index = position).
pub fn displays() -> Result<Vec<Display>, CaptureError> {
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    if use_x11() && std::env::var_os("DISPLAY").is_none() {
        return Err(CaptureError::NoDisplay);
    }
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    if xwayland_geometry() {
        return crate::platform::x11::displays();
    }
    guarded("listing the displays", xcap_displays)
}

fn xcap_displays() -> Result<Vec<Display>, CaptureError> {
    let monitors = xcap::Monitor::all().map_err(|e| {
        tracing::debug!(error = %e, "xcap could not list monitors");
        CaptureError::NoDisplay
    })?;
    if monitors.is_empty() {
        return Err(CaptureError::NoDisplay);
    }
    monitors
        .iter()
        .enumerate()
        .map(|(index, m)| {
            let name = m.name().unwrap_or_default();
            let label = m.friendly_name().ok().filter(|s| !s.trim().is_empty()).unwrap_or(name);
            Ok(Display {
                index,
                label,
                x: m.x().map_err(xcap_error)?,
                y: m.y().map_err(xcap_error)?,
                width: m.width().map_err(xcap_error)?,
                height: m.height().map_err(xcap_error)?,
                scale: m.scale_factor().unwrap_or(1.0),
                primary: m.is_primary().unwrap_or(false),
            })
        })
        .collect()
}

/// The whole of display `index` (as numbered by [`displays`]) as
/// [`Picture::Rgba`], in physical pixels.
pub fn capture_display(index: usize) -> Result<Picture, CaptureError> {
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    if use_x11() {
        return crate::platform::x11::capture_display(index).map(Picture::from);
    }
    guarded("capturing a display", || {
        let monitors = xcap::Monitor::all().map_err(|_| CaptureError::NoDisplay)?;
        let count = monitors.len();
        let monitor = monitors.into_iter().nth(index).ok_or_else(|| {
            if count == 0 {
                CaptureError::NoDisplay
            } else {
                CaptureError::NotFound(format!("display {index} (there are {count})"))
            }
        })?;
        rgba_picture(monitor.capture_image().map_err(xcap_error)?)
    })
}

fn rgba_picture(img: image::RgbaImage) -> Result<Picture, CaptureError> {
    let (width, height) = img.dimensions();
    Ok(Picture::Rgba { width, height, pixels: Arc::new(img.into_raw()) })
}

/// The first window, front to back, whose app matches `app` (ignoring
/// case) and whose title contains `title` (empty = any), as
/// [`Picture::Rgba`]. Only windows [`windows`] lists are candidates.
pub fn capture_window(app: &str, title: &str) -> Result<Picture, CaptureError> {
    let listed = listed_windows()?;
    let &(id, _) = pick_window(&listed, app, title).ok_or_else(|| CaptureError::NotFound(format!("no window of {app:?} with a title containing {title:?}")))?;
    // The windows listed under XWayland are X11 windows, by X11 id.
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    if use_x11() || xwayland_geometry() {
        return crate::platform::x11::capture_window(id).map(Picture::from);
    }
    guarded("capturing a window", || {
        let all = xcap::Window::all().map_err(xcap_error)?;
        let window = all.into_iter().find(|w| w.id().ok() == Some(id)).ok_or_else(|| CaptureError::NotFound(format!("window of {app:?} closed")))?;
        rgba_picture(window.capture_image().map_err(xcap_error)?)
    })
}

/// The first of `listed` (front to back) matching `app` and `title`.
pub(crate) fn pick_window<'a>(listed: &'a [(u32, WindowInfo)], app: &str, title: &str) -> Option<&'a (u32, WindowInfo)> {
    let app = app.to_lowercase();
    listed.iter().find(|(_, w)| w.app.to_lowercase() == app && w.title.contains(title))
}

/// Other apps' windows front to back, without this process's own windows (by pid), without minimized or zero-size ones;
/// `monitor` = index of the display holding the window's centre. X11: the window manager's client list; with no WM (empty/absent list) returns Ok(empty) and logs one tracing::info line.
pub fn windows() -> Result<Vec<WindowInfo>, CaptureError> {
    Ok(listed_windows()?.into_iter().map(|(_, w)| w).collect())
}

/// [`windows`] with each window's platform id.
fn listed_windows() -> Result<Vec<(u32, WindowInfo)>, CaptureError> {
    // sway (and i3-IPC compositors) tell their windows' layout rects, which
    // no Wayland protocol does; logical pixels already. The screenshot
    // path's displays only number them here (it may see no outputs).
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    if let Some(sock) = std::env::var("SWAYSOCK").ok().filter(|s| !s.is_empty() && !use_x11() && !xwayland_geometry()) {
        let raw = crate::platform::sway::SwayDesktop::new(sock).windows().map_err(CaptureError::Failed)?;
        return Ok(select_windows(raw, std::process::id(), &displays().unwrap_or_default(), 1.0));
    }
    let displays = displays()?;
    // Window geometry is physical; displays are logical.
    #[cfg_attr(not(all(target_os = "linux", not(target_env = "ohos"))), allow(unused_variables))]
    let scale = displays.first().map(|d| d.scale).unwrap_or(1.0);
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    if use_x11() || xwayland_geometry() {
        let Some(mut raw) = crate::platform::x11::client_windows()? else {
            tracing::info!("no window manager client list (_NET_CLIENT_LIST) on the X root: no windows to list");
            return Ok(Vec::new());
        };
        raw.reverse(); // the list is bottom to top
        return Ok(select_windows(raw, std::process::id(), &displays, scale));
    }
    // xcap lists front to back.
    let raw = guarded("listing the windows", || xcap::Window::all().map_err(xcap_error))?
        .into_iter()
        .filter_map(|w| {
            Some(RawWindow {
                id: w.id().ok()?,
                pid: w.pid().ok(),
                app: w.app_name().unwrap_or_default(),
                title: w.title().unwrap_or_default(),
                x: w.x().ok()?,
                y: w.y().ok()?,
                width: w.width().ok()?,
                height: w.height().ok()?,
                minimized: w.is_minimized().unwrap_or(false),
            })
        })
        .collect();
    Ok(select_windows(raw, std::process::id(), &displays, 1.0))
}

/// The listable windows of `front_to_back`: not `own_pid`'s, not minimized,
/// not zero-size; geometry divided by `scale` into logical pixels, and the
/// display holding each centre.
pub(crate) fn select_windows(front_to_back: Vec<RawWindow>, own_pid: u32, displays: &[Display], scale: f32) -> Vec<(u32, WindowInfo)> {
    let scale = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
    let logical_i = |v: i32| (v as f32 / scale).round() as i32;
    let logical_u = |v: u32| (v as f32 / scale).round() as u32;
    front_to_back
        .into_iter()
        .filter(|w| w.pid != Some(own_pid) && !w.minimized && w.width > 0 && w.height > 0)
        .map(|w| {
            let (x, y, width, height) = (logical_i(w.x), logical_i(w.y), logical_u(w.width), logical_u(w.height));
            let monitor = display_at(displays, x + (width / 2) as i32, y + (height / 2) as i32);
            (w.id, WindowInfo { app: w.app, title: w.title, monitor, x, y, width, height })
        })
        .filter(|(_, w)| w.width > 0 && w.height > 0)
        .collect()
}

/// The display index holding point (x,y), or the primary, or 0.
pub fn display_at(displays: &[Display], x: i32, y: i32) -> usize {
    let inside =
        |d: &&Display| x >= d.x && y >= d.y && i64::from(x) < i64::from(d.x) + i64::from(d.width) && i64::from(y) < i64::from(d.y) + i64::from(d.height);
    displays.iter().find(inside).or_else(|| displays.iter().find(|d| d.primary)).map(|d| d.index).unwrap_or(0)
}

/// `windows` in layout (logical) pixels, as sway lists them, moved into the
/// desk space of `displays`, where each output spans its logical rectangle
/// times its scale (the layer-shell pet's space: GTK's outputs as Tauri
/// reports them). Each window takes the scale of the output holding its
/// centre (the first when none does), and that output's index.
pub fn logical_to_desk(windows: Vec<WindowInfo>, displays: &[Display]) -> Vec<WindowInfo> {
    let logical = |d: &Display| {
        let s = if d.scale.is_finite() && d.scale > 0.0 { d.scale } else { 1.0 };
        let f = |v: f32| (v / s).round() as i64;
        (f(d.x as f32), f(d.y as f32), f(d.width as f32), f(d.height as f32), s)
    };
    windows
        .into_iter()
        .map(|w| {
            let (cx, cy) = (i64::from(w.x) + i64::from(w.width / 2), i64::from(w.y) + i64::from(w.height / 2));
            let holder = displays.iter().position(|d| {
                let (x, y, width, height, _) = logical(d);
                cx >= x && cy >= y && cx < x + width && cy < y + height
            });
            let Some(d) = holder.or((!displays.is_empty()).then_some(0)).map(|i| &displays[i]) else {
                return w;
            };
            let s = logical(d).4;
            let i = |v: i32| (v as f32 * s).round() as i32;
            let u = |v: u32| (v as f32 * s).round() as u32;
            WindowInfo { x: i(w.x), y: i(w.y), width: u(w.width), height: u(w.height), monitor: d.index, ..w }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_screenshot_library_is_an_error_not_a_crash() {
        let r: Result<(), CaptureError> = guarded("listing the displays", || panic!("UnsupportedVersion"));
        assert_eq!(r, Err(CaptureError::Failed("listing the displays: the screenshot library failed on this desktop (UnsupportedVersion)".into())));
        let owned = format!("v{}", 3);
        let r: Result<(), CaptureError> = guarded("capturing a display", move || panic!("{owned}"));
        assert!(matches!(r, Err(CaptureError::Failed(m)) if m.ends_with("(v3)")));
        assert_eq!(guarded("x", || Ok(7)), Ok(7), "an answer passes through");
        assert_eq!(guarded::<()>("x", || Err(CaptureError::NoDisplay)), Err(CaptureError::NoDisplay), "an error too");
    }

    #[test]
    fn logical_windows_take_their_outputs_scale() {
        let mut second = display(1, 2560, 0, 2560, 1600, false);
        second.scale = 2.0;
        let displays = [display(0, 0, 0, 1280, 800, true), second];
        let win = |x: i32| WindowInfo { app: "a".into(), title: "t".into(), monitor: 0, x, y: 300, width: 400, height: 200 };
        let out = logical_to_desk(vec![win(100), win(1500)], &displays);
        assert_eq!((out[0].x, out[0].y, out[0].width, out[0].monitor), (100, 300, 400, 0), "scale 1 stays");
        assert_eq!((out[1].x, out[1].y, out[1].width, out[1].height, out[1].monitor), (3000, 600, 800, 400, 1), "scale 2 doubles");
        assert_eq!(logical_to_desk(vec![win(5000)], &displays)[0].x, 5000, "off every output: the first output's scale");
        assert_eq!(logical_to_desk(vec![win(7)], &[])[0].x, 7);
    }

    fn display(index: usize, x: i32, y: i32, width: u32, height: u32, primary: bool) -> Display {
        Display { index, label: format!("D{index}"), x, y, width, height, scale: 1.0, primary }
    }

    fn raw(id: u32, pid: Option<u32>, app: &str, title: &str, rect: (i32, i32, u32, u32), minimized: bool) -> RawWindow {
        RawWindow { id, pid, app: app.into(), title: title.into(), x: rect.0, y: rect.1, width: rect.2, height: rect.3, minimized }
    }

    #[test]
    fn display_at_finds_the_display_then_the_primary_then_zero() {
        let ds = [display(0, 0, 0, 1920, 1080, false), display(1, 1920, 0, 1280, 1024, true)];
        assert_eq!(display_at(&ds, 10, 10), 0);
        assert_eq!(display_at(&ds, 1919, 1079), 0);
        assert_eq!(display_at(&ds, 1920, 0), 1);
        assert_eq!(display_at(&ds, 3199, 1023), 1);
        assert_eq!(display_at(&ds, -5, 5), 1, "outside: the primary");
        assert_eq!(display_at(&ds, 100, 1080), 1);
        let no_primary = [display(0, 0, 0, 100, 100, false), display(1, 100, 0, 100, 100, false)];
        assert_eq!(display_at(&no_primary, 500, 500), 0);
        assert_eq!(display_at(&[], 1, 1), 0);
        // Negative coordinates (a display left of the primary).
        let left = [display(0, 0, 0, 800, 600, true), display(1, -1024, 0, 1024, 768, false)];
        assert_eq!(display_at(&left, -1, 10), 1);
    }

    #[test]
    fn select_filters_own_minimized_and_empty_and_keeps_order() {
        let ds = [display(0, 0, 0, 1000, 1000, true), display(1, 1000, 0, 1000, 1000, false)];
        let list = vec![
            raw(1, Some(42), "Mine", "pet", (0, 0, 100, 100), false),
            raw(2, Some(7), "Editor", "a.rs", (1100, 10, 400, 300), false),
            raw(3, Some(7), "Editor", "b.rs", (10, 10, 400, 300), true),
            raw(4, None, "Term", "sh", (900, 0, 300, 100), false),
            raw(5, Some(8), "Zero", "z", (0, 0, 0, 50), false),
        ];
        let got = select_windows(list, 42, &ds, 1.0);
        let ids: Vec<u32> = got.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, vec![2, 4]);
        assert_eq!(got[0].1.monitor, 1);
        assert_eq!(got[1].1.monitor, 1, "centre x 1050 is on display 1");
        assert_eq!(got[1].1.app, "Term");
    }

    #[test]
    fn select_scales_to_logical_pixels() {
        let ds = [display(0, 0, 0, 960, 540, true)];
        let got = select_windows(vec![raw(9, None, "A", "t", (200, 100, 400, 2), false)], 1, &ds, 2.0);
        assert_eq!(got[0].1, WindowInfo { app: "A".into(), title: "t".into(), monitor: 0, x: 100, y: 50, width: 200, height: 1 });
    }

    #[test]
    fn pick_matches_app_ignoring_case_and_title_substring() {
        let w = |app: &str, title: &str| WindowInfo { app: app.into(), title: title.into(), monitor: 0, x: 0, y: 0, width: 1, height: 1 };
        let listed = vec![(1, w("Firefox", "Docs — Mozilla")), (2, w("firefox", "Mail")), (3, w("XTerm", "bash"))];
        assert_eq!(pick_window(&listed, "FIREFOX", "").unwrap().0, 1);
        assert_eq!(pick_window(&listed, "firefox", "Mail").unwrap().0, 2);
        assert_eq!(pick_window(&listed, "xterm", "ba").unwrap().0, 3);
        assert!(pick_window(&listed, "xterm", "zsh").is_none());
        assert!(pick_window(&listed, "Fire", "").is_none());
    }

    #[test]
    fn errors_read_as_one_line() {
        for e in [CaptureError::NoDisplay, CaptureError::NotFound("display 3 (there are 1)".into()), CaptureError::Failed("X GetImage: BadMatch".into())] {
            let s = e.to_string();
            assert!(!s.contains('\n') && !s.is_empty(), "{s}");
        }
    }
}
