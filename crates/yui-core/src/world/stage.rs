//! The desktop self-test: whether this desktop gives the pet window what it
//! needs (transparency, click-through, always-on-top, placing itself), and
//! which fallback is active where it does not. The facts are read from the
//! desktop (X11: the compositing manager's selection, the window manager's
//! `_NET_SUPPORTED`, the SHAPE extension); the report is pure.

use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the app made the pet window a layer-shell surface.
static LAYER_SHELL: AtomicBool = AtomicBool::new(false);

/// Tell the core whether the pet window is a layer-shell surface
/// (`zwlr_layer_shell_v1` on the overlay layer): the app says so once, when
/// it set the window up. On that path a native Wayland pet stays above and
/// places herself (see [`report`] and [`super::can_place_windows`]).
pub fn set_layer_shell(on: bool) {
    LAYER_SHELL.store(on, Ordering::Relaxed);
}

/// What the app last told [`set_layer_shell`] (false until it says).
pub fn layer_shell() -> bool {
    LAYER_SHELL.load(Ordering::Relaxed)
}

/// The kind of desktop session the app runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum StageSession {
    /// An X11 session.
    X11,
    /// A Wayland session, the app on XWayland (`GDK_BACKEND=x11`).
    Xwayland,
    /// A Wayland session, the app a native Wayland client.
    Wayland,
    /// Windows.
    Windows,
    /// macOS.
    Macos,
    /// No display.
    None,
}

/// What was read of the desktop (`None`: could not be read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageFacts {
    /// The session.
    pub session: StageSession,
    /// A compositing manager runs (X11 `_NET_WM_CM_S<n>` has an owner).
    pub compositor: Option<bool>,
    /// The window manager keeps windows above (`_NET_WM_STATE_ABOVE` in
    /// `_NET_SUPPORTED`).
    pub above: Option<bool>,
    /// The server shapes input (the SHAPE extension), which click-through
    /// needs.
    pub input_shape: Option<bool>,
    /// The pet window is a layer-shell surface on the overlay layer (native
    /// Wayland, a compositor with `zwlr_layer_shell_v1`).
    pub layer_shell: bool,
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct StageCheck {
    /// It works here.
    pub ok: bool,
    /// What that means for the user: the fallback when it does not.
    pub note: String,
}

/// The self-test's report, shown in settings and, when something is
/// missing, once as a notice on the first run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct StageReport {
    /// The session the app runs in.
    pub session: StageSession,
    /// The path in words (`X11`, `XWayland`, `Wayland (layer-shell)`,
    /// `Wayland (no layer-shell)`…).
    pub path: String,
    /// The see-through window.
    pub transparency: StageCheck,
    /// Clicks on empty pixels reaching the window behind.
    pub click_through: StageCheck,
    /// Staying above other windows.
    pub always_on_top: StageCheck,
    /// Placing her own window (walks, sits, drags).
    pub placement: StageCheck,
    /// Click-through follows the drawn shape instead of the pointer: the
    /// pet page sends the shape of what it draws ([`InputRect`]s) and the
    /// window's input region becomes that shape, so the compositor routes
    /// clicks on empty pixels to the window behind. True on native
    /// Wayland, where no client learns where the pointer is outside its
    /// own surfaces; elsewhere the page follows the polled pointer and
    /// switches the whole window.
    pub input_by_shape: bool,
}

/// One rectangle of the pet window's input region, in CSS pixels from the
/// window's top-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, Serialize, ts_rs::TS)]
pub struct InputRect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub width: i32,
    /// Height.
    pub height: i32,
}

/// The largest number of rectangles an input region may have (our own
/// choice): a shape drawn in 8 px cells over a 360×520 window merges into a
/// few dozen; more is a page bug and is refused.
pub const INPUT_RECTS_MAX: usize = 2_000;

/// `rects` as an input region: each clipped to a window of `width` ×
/// `height` CSS pixels, empty ones dropped. `Err` when there are more than
/// [`INPUT_RECTS_MAX`].
pub fn input_region(rects: &[InputRect], width: i32, height: i32) -> Result<Vec<InputRect>, String> {
    if rects.len() > INPUT_RECTS_MAX {
        return Err(format!("{} input rectangles (at most {INPUT_RECTS_MAX})", rects.len()));
    }
    Ok(rects
        .iter()
        .filter_map(|r| {
            let (x0, y0) = (r.x.clamp(0, width), r.y.clamp(0, height));
            let (x1, y1) = (r.x.saturating_add(r.width.max(0)).clamp(0, width), r.y.saturating_add(r.height.max(0)).clamp(0, height));
            (x1 > x0 && y1 > y0).then_some(InputRect { x: x0, y: y0, width: x1 - x0, height: y1 - y0 })
        })
        .collect())
}

impl StageReport {
    /// The checks that failed, one line each (`transparency: …`).
    pub fn problems(&self) -> Vec<String> {
        [
            ("transparency", &self.transparency),
            ("click-through", &self.click_through),
            ("always on top", &self.always_on_top),
            ("moving her window", &self.placement),
        ]
        .into_iter()
        .filter(|(_, c)| !c.ok)
        .map(|(name, c)| format!("{name}: {}", c.note))
        .collect()
    }
}

fn check(ok: bool, yes: &str, no: &str) -> StageCheck {
    StageCheck { ok, note: if ok { yes } else { no }.to_string() }
}

/// The click-through note of a native Wayland session: how it works there,
/// and the way back, since Wayland gives an app no global shortcut.
pub const WAYLAND_CLICK_THROUGH: &str = "the compositor takes her input region: the shape she draws; Wayland gives apps no global shortcut, so to bring her back start YUI again (bind `yui` to a key in your compositor) or use the tray's Bring back";

/// The report for `facts`. An unreadable fact counts as working (nothing
/// is claimed broken that was not seen broken).
pub fn report(facts: &StageFacts) -> StageReport {
    use StageSession as S;
    let seen = |v: Option<bool>| v.unwrap_or(true);
    let (path, transparency, click_through, always_on_top, placement) = match facts.session {
        S::X11 | S::Xwayland => (
            if facts.session == S::X11 { "X11" } else { "XWayland (GDK_BACKEND=x11)" },
            check(seen(facts.compositor), "a compositing manager runs", "no compositing manager runs, so her window shows a dark box; start one (picom, xcompmgr) or turn compositing on in your window manager"),
            check(seen(facts.input_shape), "the X server shapes input", "the X server has no SHAPE extension, so her whole window takes the mouse"),
            check(seen(facts.above), "the window manager keeps her above", "the window manager cannot keep windows above, so others may cover her; the tray's Bring back and Ctrl+Shift+Y show her"),
            check(true, "she places her own window", ""),
        ),
        S::Wayland if facts.layer_shell => (
            "Wayland (layer-shell)",
            check(true, "the compositor blends her window", ""),
            check(true, WAYLAND_CLICK_THROUGH, ""),
            check(true, "she is on the compositor's overlay layer, above windows", ""),
            check(true, "she places her own window (layer-shell margins)", ""),
        ),
        S::Wayland => (
            "Wayland (no layer-shell)",
            check(true, "the compositor blends her window", ""),
            check(true, WAYLAND_CLICK_THROUGH, ""),
            check(false, "", "a Wayland client cannot keep itself above; run YUI with GDK_BACKEND=x11 to use XWayland, where it can"),
            check(false, "", "a Wayland client cannot place itself, so she does not walk, sit or fall and body_action answers unsupported; GDK_BACKEND=x11 gives her the desktop"),
        ),
        S::Windows | S::Macos => (
            if facts.session == S::Windows { "Windows" } else { "macOS" },
            check(true, "the system blends her window", ""),
            check(true, "the system passes clicks through", ""),
            check(true, "the system keeps her above", ""),
            check(true, "she places her own window", ""),
        ),
        S::None => (
            "no display",
            check(false, "", "no display to show her on"),
            check(false, "", "no display"),
            check(false, "", "no display"),
            check(false, "", "no display"),
        ),
    };
    let input_by_shape = facts.session == S::Wayland;
    StageReport { session: facts.session, path: path.to_string(), transparency, click_through, always_on_top, placement, input_by_shape }
}

/// Where the problems last told to the user are kept.
pub const CHECK_FILE: &str = "desktop-check.json";

/// The first-run notice for `report`: its problems in one message, when
/// there are some and they differ from the ones last told (kept in
/// `<data dir>/desktop-check.json`, written here). None otherwise.
pub fn notice_due(data_dir: &crate::data_dir::DataDir, report: &StageReport) -> Option<String> {
    let path = data_dir.root().join(CHECK_FILE);
    let problems = report.problems();
    let told: Vec<String> = std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
    if problems == told {
        return None;
    }
    let json = serde_json::to_vec(&problems).expect("strings serialize");
    if let Err(e) = crate::data_dir::write_atomic(&path, &json) {
        tracing::warn!(record = "desktop_check_save_failed", error = %e);
    }
    (!problems.is_empty())
        .then(|| format!("This desktop ({}) cannot give her everything. {}. Settings > Startup shows the desktop check.", report.path, problems.join("; ")))
}

/// Read this machine's desktop and report.
pub fn check_desktop() -> StageReport {
    let mut r = report(&facts());
    if r.session == StageSession::Xwayland && crate::platform::gdk_backend::chosen() == Some(crate::platform::gdk_backend::BackendChoice::Xwayland) {
        // The app chose XWayland itself (super::gdk_backend): say why.
        r.path = XWAYLAND_FALLBACK_PATH.to_string();
    }
    r
}

/// The path the self-test names when the app chose XWayland itself because
/// the compositor has no layer-shell.
pub const XWAYLAND_FALLBACK_PATH: &str = "XWayland (this compositor has no layer-shell)";

#[cfg(any(target_os = "windows", target_os = "macos"))]
fn facts() -> StageFacts {
    StageFacts { session: session(), compositor: Some(true), above: Some(true), input_shape: Some(true), layer_shell: false }
}

/// Whether this app can read the pointer anywhere on the desktop: not as a
/// native Wayland client, which hears of the pointer only over its own
/// surfaces (GTK's answer there is a stale surface position, not a desktop
/// one). Where it cannot, a drag follows the page's point instead.
pub fn global_pointer() -> bool {
    session() != StageSession::Wayland
}

/// Whether the pet's click-through goes by the drawn shape here
/// ([`StageReport::input_by_shape`]), without reading the desktop: the
/// session alone decides it.
pub fn input_by_shape() -> bool {
    session() == StageSession::Wayland
}

#[cfg(any(target_os = "windows", target_os = "macos"))]
fn session() -> StageSession {
    if cfg!(target_os = "windows") {
        StageSession::Windows
    } else {
        StageSession::Macos
    }
}

#[cfg(not(any(target_os = "windows", target_os = "macos")))]
fn session() -> StageSession {
    let var = |k: &str| std::env::var(k).ok();
    let wayland = var("WAYLAND_DISPLAY");
    let x = crate::platform::placement_for(var("GDK_BACKEND").as_deref(), var("DISPLAY").as_deref(), wayland.as_deref());
    match (x, wayland.as_deref().is_some_and(|w| !w.is_empty())) {
        (true, false) => StageSession::X11,
        (true, true) => StageSession::Xwayland,
        (false, true) => StageSession::Wayland,
        (false, false) => StageSession::None,
    }
}

#[cfg(not(any(target_os = "windows", target_os = "macos")))]
fn facts() -> StageFacts {
    let session = session();
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    if matches!(session, StageSession::X11 | StageSession::Xwayland) {
        let display = std::env::var("DISPLAY").ok();
        let (compositor, above, input_shape) =
            crate::platform::x11::stage_facts(display.as_deref()).map_or((None, None, None), |(c, a, s)| (Some(c), a, Some(s)));
        return StageFacts { session, compositor, above, input_shape, layer_shell: false };
    }
    StageFacts { session, compositor: None, above: None, input_shape: None, layer_shell: session == StageSession::Wayland && layer_shell() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x11(compositor: bool, above: bool, shape: bool) -> StageReport {
        report(&StageFacts { session: StageSession::X11, compositor: Some(compositor), above: Some(above), input_shape: Some(shape), layer_shell: false })
    }

    #[test]
    fn a_full_x11_desktop_has_no_problem_and_each_missing_piece_names_its_fallback() {
        assert_eq!(x11(true, true, true).problems(), Vec::<String>::new());
        let bare = x11(false, true, true).problems();
        assert_eq!(bare.len(), 1);
        assert!(bare[0].starts_with("transparency: no compositing manager"), "{bare:?}");
        assert!(x11(true, false, true).problems()[0].starts_with("always on top: the window manager cannot"));
        assert!(x11(true, true, false).problems()[0].starts_with("click-through:"));
        let unread = report(&StageFacts { session: StageSession::X11, compositor: None, above: None, input_shape: None, layer_shell: false });
        assert!(unread.problems().is_empty(), "nothing unseen is called broken");
    }

    #[test]
    fn the_notice_is_told_once_per_set_of_problems() {
        let dir = tempfile::tempdir().unwrap();
        let data = crate::data_dir::DataDir::new(dir.path()).unwrap();
        assert_eq!(notice_due(&data, &x11(true, true, true)), None, "nothing missing: nothing to tell");
        let bare = x11(false, true, true);
        let told = notice_due(&data, &bare).expect("first time");
        assert!(told.starts_with("This desktop (X11) cannot give her everything. transparency: no compositing manager"), "{told}");
        assert_eq!(notice_due(&data, &bare), None, "the same problems are not told again");
        assert!(notice_due(&data, &x11(false, false, true)).is_some(), "a new problem is told");
        assert_eq!(notice_due(&data, &x11(true, true, true)), None, "all fixed: nothing to tell");
        assert!(notice_due(&data, &bare).is_some(), "broken again after a fix: told again");
    }

    #[test]
    fn native_wayland_says_what_it_cannot_and_the_way_out() {
        let r = report(&StageFacts { session: StageSession::Wayland, compositor: None, above: None, input_shape: None, layer_shell: false });
        assert_eq!(r.path, "Wayland (no layer-shell)");
        let p = r.problems();
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p.iter().all(|l| l.contains("GDK_BACKEND=x11")), "{p:?}");
        assert!(r.transparency.ok && r.click_through.ok);
    }

    #[test]
    fn native_wayland_on_layer_shell_stays_above_and_places_herself() {
        let r = report(&StageFacts { session: StageSession::Wayland, compositor: None, above: None, input_shape: None, layer_shell: true });
        assert_eq!(r.path, "Wayland (layer-shell)");
        assert!(r.problems().is_empty(), "{:?}", r.problems());
        assert!(r.always_on_top.ok && r.placement.ok);
        assert!(r.input_by_shape, "no global pointer on Wayland: click-through by the drawn shape");
        assert!(r.click_through.note.contains("start YUI again"), "the way back without a global shortcut: {}", r.click_through.note);
        assert!(!x11(true, true, true).input_by_shape, "X11 follows the polled pointer");
    }

    #[test]
    fn an_input_region_is_clipped_to_the_window_and_capped() {
        let r = |x, y, width, height| InputRect { x, y, width, height };
        let region = input_region(&[r(-10, 5, 30, 10), r(350, 500, 40, 40), r(10, 10, 0, 5), r(400, 0, 10, 10), r(0, 0, -5, 9)], 360, 520).unwrap();
        assert_eq!(region, vec![r(0, 5, 20, 10), r(350, 500, 10, 20)]);
        assert_eq!(input_region(&[], 360, 520).unwrap(), vec![], "an empty region: every click goes through");
        let many = vec![r(0, 0, 1, 1); INPUT_RECTS_MAX + 1];
        assert!(input_region(&many, 360, 520).unwrap_err().contains("at most"));
        assert_eq!(input_region(&[r(i32::MAX - 1, 0, i32::MAX, 4)], 360, 520).unwrap(), vec![]);
    }

    #[test]
    fn layer_shell_counts_only_on_native_wayland_and_lets_her_place_herself() {
        // Only a native Wayland client can be a layer-shell surface.
        let x = report(&StageFacts { session: StageSession::X11, compositor: Some(true), above: Some(true), input_shape: Some(true), layer_shell: true });
        assert_eq!(x.path, "X11");
        assert!(!crate::world::placement_with(false, false));
        assert!(crate::world::placement_with(false, true));
        assert!(crate::world::placement_with(true, false));
    }
}
