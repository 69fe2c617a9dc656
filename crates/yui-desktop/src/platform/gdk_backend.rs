//! Which display backend GTK gets on Linux, decided before GTK starts.
//!
//! GTK opens a native Wayland window whenever `WAYLAND_DISPLAY` is set. As a
//! native client the pet only keeps herself above and places herself on a
//! compositor with layer-shell (`zwlr_layer_shell_v1`: sway, wlroots
//! compositors, KDE). Elsewhere (GNOME's mutter, weston) a plain toplevel
//! can do neither, while an XWayland window can do both: so there the app
//! asks GTK for X11 (`GDK_BACKEND=x11`) when XWayland is running
//! (`DISPLAY` set). A `GDK_BACKEND` the user set is always kept.
//!
//! [`choose`] is the decision from its facts; [`probe_layer_shell`] asks the
//! compositor; the app applies the choice (it sets the variable) and tells
//! [`set_chosen`], which the desktop self-test reads.

use std::sync::OnceLock;

/// What the app does about `GDK_BACKEND` before GTK starts, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendChoice {
    /// The user set `GDK_BACKEND`: kept as it is.
    AsSet,
    /// Not a Wayland session: GTK takes X11 (or nothing) by itself.
    NotWayland,
    /// The compositor has layer-shell: a native Wayland pet (overlay layer).
    LayerShell,
    /// No layer-shell, but no XWayland either (`DISPLAY` unset): a native
    /// toplevel is all there is.
    NoXwayland,
    /// The compositor could not be asked: GTK's own choice is left alone.
    Unknown,
    /// No layer-shell and XWayland runs: `GDK_BACKEND=x11`.
    Xwayland,
}

impl BackendChoice {
    /// Whether the app must set `GDK_BACKEND=x11`.
    pub fn forces_x11(self) -> bool {
        self == BackendChoice::Xwayland
    }

    /// One line for the log (`display_backend` record).
    pub fn reason(self) -> &'static str {
        match self {
            BackendChoice::AsSet => "GDK_BACKEND is set: kept",
            BackendChoice::NotWayland => "not a Wayland session",
            BackendChoice::LayerShell => "the compositor has layer-shell: a native Wayland overlay",
            BackendChoice::NoXwayland => {
                "the compositor has no layer-shell and XWayland does not run: a native toplevel (she cannot place herself or stay above)"
            }
            BackendChoice::Unknown => "the compositor could not be asked for layer-shell: GTK chooses",
            BackendChoice::Xwayland => "the compositor has no layer-shell: XWayland (GDK_BACKEND=x11), where she places herself and stays above",
        }
    }
}

/// The choice for these environment values; `layer_shell` asks the
/// compositor (`None` when it cannot be asked) and is only called when the
/// answer matters.
pub fn choose(gdk_backend: Option<&str>, display: Option<&str>, wayland_display: Option<&str>, layer_shell: impl FnOnce() -> Option<bool>) -> BackendChoice {
    let set = |v: Option<&str>| v.is_some_and(|s| !s.trim().is_empty());
    if set(gdk_backend) {
        return BackendChoice::AsSet;
    }
    if !set(wayland_display) {
        return BackendChoice::NotWayland;
    }
    match layer_shell() {
        Some(true) => BackendChoice::LayerShell,
        None => BackendChoice::Unknown,
        Some(false) if set(display) => BackendChoice::Xwayland,
        Some(false) => BackendChoice::NoXwayland,
    }
}

/// Whether the compositor at `WAYLAND_DISPLAY` announces
/// `zwlr_layer_shell_v1`; `None` when it cannot be reached. One registry
/// round trip on a connection of its own, closed on return.
#[cfg(all(target_os = "linux", not(target_env = "ohos")))]
pub fn probe_layer_shell() -> Option<bool> {
    use wayland_client::globals::{registry_queue_init, GlobalListContents};
    use wayland_client::protocol::wl_registry;
    use wayland_client::{Connection, Dispatch, QueueHandle};

    struct Probe;
    impl Dispatch<wl_registry::WlRegistry, GlobalListContents> for Probe {
        fn event(_: &mut Self, _: &wl_registry::WlRegistry, _: wl_registry::Event, _: &GlobalListContents, _: &Connection, _: &QueueHandle<Self>) {}
    }
    let conn = Connection::connect_to_env().ok()?;
    let (globals, _queue) = registry_queue_init::<Probe>(&conn).ok()?;
    let found = globals.contents().with_list(|list| list.iter().any(|g| g.interface == "zwlr_layer_shell_v1"));
    Some(found)
}

/// Elsewhere there is no Wayland to ask.
#[cfg(not(all(target_os = "linux", not(target_env = "ohos"))))]
pub fn probe_layer_shell() -> Option<bool> {
    None
}

/// The choice for this process's environment, asking the compositor when
/// it matters. Does not change the environment: the app applies it.
pub fn choose_here() -> BackendChoice {
    let var = |k: &str| std::env::var(k).ok();
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return BackendChoice::NotWayland;
    }
    choose(var("GDK_BACKEND").as_deref(), var("DISPLAY").as_deref(), var("WAYLAND_DISPLAY").as_deref(), probe_layer_shell)
}

static CHOSEN: OnceLock<BackendChoice> = OnceLock::new();

/// Record the choice the app applied (once; later calls are ignored).
pub fn set_chosen(choice: BackendChoice) {
    let _ = CHOSEN.set(choice);
}

/// The choice the app applied, if it said.
pub fn chosen() -> Option<BackendChoice> {
    CHOSEN.get().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xwayland_only_where_the_compositor_lacks_layer_shell_and_xwayland_runs() {
        let never = || -> Option<bool> { panic!("the compositor need not be asked") };
        assert_eq!(choose(Some("wayland"), Some(":0"), Some("wayland-0"), never), BackendChoice::AsSet, "the user's choice stands");
        assert_eq!(choose(Some("x11"), Some(":0"), Some("wayland-0"), never), BackendChoice::AsSet);
        assert_eq!(choose(None, Some(":0"), None, never), BackendChoice::NotWayland);
        assert_eq!(choose(Some(""), Some(":0"), Some(""), never), BackendChoice::NotWayland, "empty values count as unset");
        assert_eq!(choose(None, Some(":0"), Some("wayland-0"), || Some(true)), BackendChoice::LayerShell);
        assert_eq!(choose(None, Some(":0"), Some("wayland-0"), || Some(false)), BackendChoice::Xwayland);
        assert!(BackendChoice::Xwayland.forces_x11());
        assert_eq!(choose(None, None, Some("wayland-0"), || Some(false)), BackendChoice::NoXwayland);
        assert_eq!(choose(None, Some(":0"), Some("wayland-0"), || None), BackendChoice::Unknown, "a compositor that cannot be asked is left to GTK");
        for c in [BackendChoice::AsSet, BackendChoice::NotWayland, BackendChoice::LayerShell, BackendChoice::NoXwayland, BackendChoice::Unknown] {
            assert!(!c.forces_x11(), "{c:?}");
        }
    }
}
