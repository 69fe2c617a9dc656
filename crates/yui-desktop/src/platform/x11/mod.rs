//! X11, one module for the desktop facts and the capture (both on the xcb
//! helpers below: [`get_property`], [`intern_atoms`], [`app_from_wm_class`]).
//! The capture paths (displays, display and window capture, the window
//! manager's client list) are in `capture.rs`, the pixel conversion in
//! `pixels.rs`; this file is the desktop reader.
//!
//! The X11 desktop: the active window from EWMH `_NET_ACTIVE_WINDOW` on the
//! root window, its `WM_CLASS`, title, pid and whether its `_NET_WM_STATE`
//! holds `_NET_WM_STATE_FULLSCREEN`, and the idle time from the
//! MIT-SCREEN-SAVER extension (`QueryInfo.ms_since_user_input`).
//!
//! One xcb connection is kept open between calls; a connection error drops
//! it and the call connects again once. A window that went away between the
//! reads (a protocol error) answers `None` for that call and keeps the
//! connection.

mod capture;
mod pixels;

use super::{DesktopFacts, Sample};
use std::sync::Mutex;
use xcb::{screensaver, x, Xid};

pub(crate) use capture::{capture_display, capture_window, client_windows, displays};

/// The X11 desktop reader. Connects lazily, on the first call.
pub struct X11Desktop {
    display: Option<String>,
    conn: Mutex<Option<Conn>>,
}

struct Conn {
    conn: xcb::Connection,
    root: x::Window,
    screensaver: bool,
    active_window: x::Atom,
    net_wm_name: x::Atom,
    net_wm_pid: x::Atom,
    net_wm_state: x::Atom,
    fullscreen: x::Atom,
}

/// Why one read failed.
enum Failure {
    /// The connection broke: drop it and connect again.
    Connection,
    /// The server refused a request (a window destroyed mid-read): answer
    /// `None` and keep the connection.
    Protocol,
}

impl From<xcb::Error> for Failure {
    fn from(e: xcb::Error) -> Self {
        match e {
            xcb::Error::Connection(_) => Failure::Connection,
            xcb::Error::Protocol(_) => Failure::Protocol,
        }
    }
}

impl Conn {
    fn open(display: Option<&str>) -> Option<Conn> {
        let (conn, screen) = match xcb::Connection::connect_with_extensions(display, &[], &[xcb::Extension::ScreenSaver]) {
            Ok(c) => c,
            Err(e) => {
                tracing::debug!(error = %e, "world: no X connection");
                return None;
            }
        };
        let root = conn.get_setup().roots().nth(screen.max(0) as usize)?.root();
        let screensaver = conn.active_extensions().any(|e| e == xcb::Extension::ScreenSaver);
        let names = ["_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "_NET_WM_PID", "_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN"];
        let atoms = match intern_atoms(&conn, &names) {
            Ok(a) => a,
            Err(e) => {
                tracing::debug!(error = %e, "world: X InternAtom failed");
                return None;
            }
        };
        let [active_window, net_wm_name, net_wm_pid, net_wm_state, fullscreen] = atoms[..] else { unreachable!("five atoms") };
        if !screensaver {
            tracing::debug!("world: the X server has no MIT-SCREEN-SAVER; idle time is unknown");
        }
        Some(Conn { conn, root, screensaver, active_window, net_wm_name, net_wm_pid, net_wm_state, fullscreen })
    }

    fn property(&self, window: x::Window, property: x::Atom) -> x::GetPropertyCookie {
        get_property(&self.conn, window, property)
    }

    fn frontmost(&self) -> Result<Option<Sample>, Failure> {
        let reply = self.conn.wait_for_reply(self.property(self.root, self.active_window))?;
        let window = match reply.format() {
            32 => reply.value::<x::Window>().first().copied(),
            _ => None,
        };
        let Some(window) = window.filter(|w| !w.is_none()) else { return Ok(None) };
        // Pipeline the five reads, then collect.
        let class = self.property(window, x::ATOM_WM_CLASS);
        let net_name = self.property(window, self.net_wm_name);
        let name = self.property(window, x::ATOM_WM_NAME);
        let pid = self.property(window, self.net_wm_pid);
        let state = self.property(window, self.net_wm_state);
        let class = text(&self.conn.wait_for_reply(class)?);
        let net_name = text(&self.conn.wait_for_reply(net_name)?);
        let name = text(&self.conn.wait_for_reply(name)?);
        let pid = self.conn.wait_for_reply(pid)?;
        let pid = if pid.format() == 32 { pid.value::<u32>().first().copied().filter(|&p| p != 0) } else { None };
        let state = self.conn.wait_for_reply(state)?;
        let fullscreen = state.format() == 32 && state.value::<x::Atom>().contains(&self.fullscreen);
        Ok(Some(Sample { app: app_from_wm_class(&class), title: if net_name.is_empty() { name } else { net_name }, pid, fullscreen }))
    }

    fn idle_ms(&self) -> Result<Option<u64>, Failure> {
        if !self.screensaver {
            return Ok(None);
        }
        let reply = self.conn.wait_for_reply(self.conn.send_request(&screensaver::QueryInfo { drawable: x::Drawable::Window(self.root) }))?;
        Ok(Some(u64::from(reply.ms_since_user_input())))
    }
}

/// A text property's bytes as a string (format 8: `STRING`, `UTF8_STRING`
/// or `COMPOUND_TEXT`; Latin-1 beyond ASCII is read as lossy UTF-8).
fn text(reply: &x::GetPropertyReply) -> String {
    if reply.format() == 8 {
        String::from_utf8_lossy(reply.value::<u8>()).trim_end_matches('\0').to_string()
    } else {
        String::new()
    }
}

/// Ask for `property` of `window` (any type, up to 16 KiB); read the
/// reply with `conn.wait_for_reply`. Shared by the desktop and capture readers.
pub fn get_property(conn: &xcb::Connection, window: x::Window, property: x::Atom) -> x::GetPropertyCookie {
    conn.send_request(&x::GetProperty { delete: false, window, property, r#type: x::ATOM_ANY, long_offset: 0, long_length: 4096 })
}

/// Intern `names` in one round trip (every `InternAtom` sent, then every
/// reply read), in order; the first failure answers the error.
pub fn intern_atoms(conn: &xcb::Connection, names: &[&str]) -> Result<Vec<x::Atom>, xcb::Error> {
    let cookies: Vec<_> = names.iter().map(|n| conn.send_request(&x::InternAtom { only_if_exists: false, name: n.as_bytes() })).collect();
    cookies.into_iter().map(|c| Ok(conn.wait_for_reply(c)?.atom())).collect()
}

/// The app name from `WM_CLASS` (instance NUL class NUL): the class, else the instance.
pub fn app_from_wm_class(raw: &str) -> String {
    let mut parts = raw.split('\0');
    let instance = parts.next().unwrap_or("");
    let class = parts.next().unwrap_or("");
    if class.is_empty() { instance } else { class }.to_string()
}

impl X11Desktop {
    /// A reader of `display` (`None`: the `DISPLAY` variable). Nothing
    /// connects until the first call.
    pub fn new(display: Option<&str>) -> Self {
        Self { display: display.map(str::to_string), conn: Mutex::new(None) }
    }

    /// Run `read` on the open connection, connecting when there is none; a
    /// broken connection is dropped and `read` tried once more on a new one.
    fn with_conn<T>(&self, read: impl Fn(&Conn) -> Result<Option<T>, Failure>) -> Option<T> {
        let mut slot = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        for _ in 0..2 {
            if slot.is_none() {
                *slot = Conn::open(self.display.as_deref());
            }
            let conn = slot.as_ref()?;
            match read(conn) {
                Ok(v) => return v,
                Err(Failure::Protocol) => return None,
                Err(Failure::Connection) => {
                    tracing::debug!("world: the X connection broke; connecting again");
                    *slot = None;
                }
            }
        }
        None
    }
}

impl DesktopFacts for X11Desktop {
    fn frontmost(&self) -> Option<Sample> {
        self.with_conn(Conn::frontmost)
    }

    fn idle_ms(&self) -> Option<u64> {
        self.with_conn(Conn::idle_ms)
    }
}

/// What the desktop self-test reads of X display `display` (`None`: the
/// `DISPLAY` variable): whether a compositing manager owns
/// `_NET_WM_CM_S<screen>`, whether the window manager lists
/// `_NET_WM_STATE_ABOVE` in `_NET_SUPPORTED` (None with no EWMH window
/// manager at all: nothing restacks windows then), and whether the server
/// has the SHAPE extension. None when the display cannot be reached.
pub fn stage_facts(display: Option<&str>) -> Option<(bool, Option<bool>, bool)> {
    let (conn, screen) = xcb::Connection::connect(display).ok()?;
    let root = conn.get_setup().roots().nth(screen.max(0) as usize)?.root();
    let cm = format!("_NET_WM_CM_S{}", screen.max(0));
    let atoms = intern_atoms(&conn, &[cm.as_str(), "_NET_SUPPORTED", "_NET_WM_STATE_ABOVE"]).ok()?;
    let [cm, supported, above] = atoms[..] else { return None };
    let owner = conn.wait_for_reply(conn.send_request(&x::GetSelectionOwner { selection: cm })).ok()?;
    let compositor = !owner.owner().is_none();
    let listed = conn.wait_for_reply(get_property(&conn, root, supported)).ok()?;
    let keeps_above = (listed.r#type() != x::ATOM_NONE).then(|| listed.value::<x::Atom>().contains(&above));
    let shape = conn.wait_for_reply(conn.send_request(&x::QueryExtension { name: b"SHAPE" })).ok()?;
    Some((compositor, keeps_above, shape.present()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wm_class_gives_the_class_else_the_instance() {
        assert_eq!(app_from_wm_class("first\0First\0"), "First");
        assert_eq!(app_from_wm_class("firefox\0"), "firefox");
        assert_eq!(app_from_wm_class(""), "");
    }

    #[test]
    fn an_unreachable_display_answers_none() {
        let d = X11Desktop::new(Some(":65001"));
        assert_eq!(d.frontmost(), None);
        assert_eq!(d.idle_ms(), None);
        assert_eq!(d.limitation(), None);
    }
}
