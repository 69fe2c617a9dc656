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
}

impl StageReport {
    /// The checks that failed, one line each (`transparency: …`).
    pub fn problems(&self) -> Vec<String> {
        [("transparency", &self.transparency), ("click-through", &self.click_through), ("always on top", &self.always_on_top), ("moving her window", &self.placement)]
            .into_iter()
            .filter(|(_, c)| !c.ok)
            .map(|(name, c)| format!("{name}: {}", c.note))
            .collect()
    }
}

fn check(ok: bool, yes: &str, no: &str) -> StageCheck {
    StageCheck { ok, note: if ok { yes } else { no }.to_string() }
}

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
            check(true, "the compositor takes her input region", ""),
            check(true, "she is on the compositor's overlay layer, above windows", ""),
            check(true, "she places her own window (layer-shell margins)", ""),
        ),
        S::Wayland => (
            "Wayland (no layer-shell)",
            check(true, "the compositor blends her window", ""),
            check(true, "the compositor takes her input region", ""),
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
    StageReport { session: facts.session, path: path.to_string(), transparency, click_through, always_on_top, placement }
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
    (!problems.is_empty()).then(|| format!("This desktop ({}) cannot give her everything. {}. Settings > Startup shows the desktop check.", report.path, problems.join("; ")))
}

/// Read this machine's desktop and report.
pub fn check_desktop() -> StageReport {
    report(&facts())
}

#[cfg(any(target_os = "windows", target_os = "macos"))]
fn facts() -> StageFacts {
    let session = if cfg!(target_os = "windows") { StageSession::Windows } else { StageSession::Macos };
    StageFacts { session, compositor: Some(true), above: Some(true), input_shape: Some(true), layer_shell: false }
}

#[cfg(not(any(target_os = "windows", target_os = "macos")))]
fn facts() -> StageFacts {
    let var = |k: &str| std::env::var(k).ok();
    let (display, wayland) = (var("DISPLAY"), var("WAYLAND_DISPLAY"));
    let x = super::placement_for(var("GDK_BACKEND").as_deref(), display.as_deref(), wayland.as_deref());
    let wayland_set = wayland.as_deref().is_some_and(|w| !w.is_empty());
    let session = match (x, wayland_set) {
        (true, false) => StageSession::X11,
        (true, true) => StageSession::Xwayland,
        (false, true) => StageSession::Wayland,
        (false, false) => StageSession::None,
    };
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    if x {
        let (compositor, above, input_shape) = super::x11::stage_facts(display.as_deref()).map_or((None, None, None), |(c, a, s)| (Some(c), a, Some(s)));
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
