//! The X11 desktop reader against a real X server: our own Xvfb on a free
//! display, openbox as the EWMH window manager, and two windows this test
//! creates with xcb. Skips (with a note) only when Xvfb is not installed;
//! `scripts/setup.sh` installs Xvfb, openbox and xdotool.
#![cfg(all(target_os = "linux", not(target_env = "ohos")))]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use xcb::{x, Xid};
use yui_core::world::x11::X11Desktop;
use yui_core::world::{DesktopFacts, FrontmostTracker, Sample};

/// Kills the processes it holds (window manager first, then the server).
struct Procs(Vec<Child>);

impl Drop for Procs {
    fn drop(&mut self) {
        for child in self.0.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn installed(program: &str) -> bool {
    std::env::var_os("PATH").map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file())).unwrap_or(false)
}

fn wait_until<T>(what: &str, limit: Duration, mut probe: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = probe() {
            return v;
        }
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Start Xvfb on the first free display from a pid-based base; answers
/// the server and its display name.
fn start_xvfb() -> (Child, String) {
    // Each test of this file takes its own block of displays (they run in parallel).
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let base = 300 + std::process::id() % 400 + 50 * NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    for n in base..base + 40 {
        if Path::new(&format!("/tmp/.X{n}-lock")).exists() || Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
            continue;
        }
        let display = format!(":{n}");
        let mut child = Command::new("Xvfb")
            .args([display.as_str(), "-screen", "0", "1280x800x24", "-noreset", "-nolisten", "tcp"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn Xvfb");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if child.try_wait().ok().flatten().is_some() {
                break; // lost the race for this display: try the next one
            }
            if xcb::Connection::connect(Some(&display)).is_ok() {
                return (child, display);
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    panic!("no free display for Xvfb");
}

fn atom(conn: &xcb::Connection, name: &str) -> x::Atom {
    conn.wait_for_reply(conn.send_request(&x::InternAtom { only_if_exists: false, name: name.as_bytes() })).unwrap().atom()
}

fn set_text(conn: &xcb::Connection, window: x::Window, property: x::Atom, r#type: x::Atom, text: &[u8]) {
    conn.send_and_check_request(&x::ChangeProperty { mode: x::PropMode::Replace, window, property, r#type, data: text }).unwrap();
}

/// A 300x200 window (not mapped yet) with `WM_CLASS`, `_NET_WM_NAME` and `_NET_WM_PID`.
fn window(conn: &xcb::Connection, screen: &x::Screen, x0: i16, class: &[u8], title: &str) -> x::Window {
    let window: x::Window = conn.generate_id();
    conn.send_and_check_request(&x::CreateWindow {
        depth: x::COPY_FROM_PARENT as u8,
        wid: window,
        parent: screen.root(),
        x: x0,
        y: 100,
        width: 300,
        height: 200,
        border_width: 0,
        class: x::WindowClass::InputOutput,
        visual: screen.root_visual(),
        value_list: &[x::Cw::BackPixel(screen.white_pixel())],
    })
    .unwrap();
    set_text(conn, window, x::ATOM_WM_CLASS, x::ATOM_STRING, class);
    set_text(conn, window, atom(conn, "_NET_WM_NAME"), atom(conn, "UTF8_STRING"), title.as_bytes());
    conn.send_and_check_request(&x::ChangeProperty {
        mode: x::PropMode::Replace,
        window,
        property: atom(conn, "_NET_WM_PID"),
        r#type: x::ATOM_CARDINAL,
        data: &[std::process::id()],
    })
    .unwrap();
    window
}

/// Map `window` and wait until the window manager manages it (it is in
/// `_NET_CLIENT_LIST`). The map is asked again now and then: a window
/// manager still starting up can drop a map request.
fn managed(conn: &xcb::Connection, root: x::Window, window: x::Window) {
    let list = atom(conn, "_NET_CLIENT_LIST");
    let mut asked = Instant::now() - Duration::from_secs(1);
    wait_until("the window manager to manage the window", Duration::from_secs(5), || {
        if asked.elapsed() >= Duration::from_millis(500) {
            conn.send_and_check_request(&x::MapWindow { window }).unwrap();
            asked = Instant::now();
        }
        let reply = conn
            .wait_for_reply(conn.send_request(&x::GetProperty {
                delete: false,
                window: root,
                property: list,
                r#type: x::ATOM_WINDOW,
                long_offset: 0,
                long_length: 1024,
            }))
            .ok()?;
        reply.value::<x::Window>().contains(&window).then_some(())
    });
}

/// Ask the window manager to activate `window` (EWMH, as a pager would).
fn activate(conn: &xcb::Connection, root: x::Window, window: x::Window) {
    let event = x::ClientMessageEvent::new(window, atom(conn, "_NET_ACTIVE_WINDOW"), x::ClientMessageData::Data32([2, 0, 0, 0, 0]));
    conn.send_and_check_request(&x::SendEvent {
        propagate: false,
        destination: x::SendEventDest::Window(root),
        event_mask: x::EventMask::SUBSTRUCTURE_NOTIFY | x::EventMask::SUBSTRUCTURE_REDIRECT,
        event: &event,
    })
    .unwrap();
}

/// Ask the window manager to make `window` fullscreen (EWMH
/// `_NET_WM_STATE` client message, action `_NET_WM_STATE_ADD`, source: an
/// application).
fn make_fullscreen(conn: &xcb::Connection, root: x::Window, window: x::Window) {
    let fullscreen = atom(conn, "_NET_WM_STATE_FULLSCREEN").resource_id();
    let event = x::ClientMessageEvent::new(window, atom(conn, "_NET_WM_STATE"), x::ClientMessageData::Data32([1, fullscreen, 0, 1, 0]));
    conn.send_and_check_request(&x::SendEvent {
        propagate: false,
        destination: x::SendEventDest::Window(root),
        event_mask: x::EventMask::SUBSTRUCTURE_NOTIFY | x::EventMask::SUBSTRUCTURE_REDIRECT,
        event: &event,
    })
    .unwrap();
}

fn frontmost_becomes(desktop: &X11Desktop, app: &str, title: &str) -> Sample {
    let start = Instant::now();
    loop {
        let seen = desktop.frontmost();
        if let Some(s) = seen.as_ref().filter(|s| s.app == app && s.title == title) {
            return s.clone();
        }
        assert!(start.elapsed() < Duration::from_secs(5), "timed out waiting for frontmost {app} — {title}; last seen {seen:?}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn frontmost_and_idle_under_xvfb_and_openbox() {
    if !installed("Xvfb") {
        eprintln!("x11_world: Xvfb is not installed; skipping (scripts/setup.sh installs it)");
        return;
    }
    assert!(installed("openbox"), "openbox is not installed: run scripts/setup.sh");
    assert!(installed("xdotool"), "xdotool is not installed: run scripts/setup.sh");
    let (xvfb, display) = start_xvfb();
    let mut procs = Procs(vec![xvfb]);
    let desktop = X11Desktop::new(Some(&display));
    assert_eq!(desktop.frontmost(), None, "no window manager, no active window");

    let home = tempfile::tempdir().unwrap();
    let wm = Command::new("openbox")
        .arg("--sm-disable")
        .env("DISPLAY", &display)
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn openbox");
    procs.0.push(wm);

    let (conn, screen_num) = xcb::Connection::connect(Some(&display)).unwrap();
    let screen = conn.get_setup().roots().nth(screen_num as usize).unwrap().to_owned();
    let root = screen.root();
    let check = atom(&conn, "_NET_SUPPORTING_WM_CHECK");
    wait_until("openbox to manage the screen", Duration::from_secs(10), || {
        let reply = conn
            .wait_for_reply(conn.send_request(&x::GetProperty {
                delete: false,
                window: root,
                property: check,
                r#type: x::ATOM_WINDOW,
                long_offset: 0,
                long_length: 1,
            }))
            .ok()?;
        reply.value::<x::Window>().first().filter(|w| !w.is_none()).copied()
    });
    assert_eq!(desktop.frontmost(), None, "a window manager with no windows: nothing active");

    let first = window(&conn, &screen, 50, b"first\0First\0", "Première fenêtre");
    let second = window(&conn, &screen, 500, b"second\0Second\0", "Second window");
    managed(&conn, root, first);
    managed(&conn, root, second);

    activate(&conn, root, first);
    let sample = frontmost_becomes(&desktop, "First", "Première fenêtre");
    assert_eq!(sample.pid, Some(std::process::id()), "_NET_WM_PID");
    assert!(!sample.fullscreen, "a plain window is not fullscreen");
    let mut tracker = FrontmostTracker::new(None);
    let seen = tracker.observe(Some(sample), 1_000).frontmost.unwrap();
    assert_eq!((seen.app.as_deref(), seen.since), (Some("First"), Some(1_000)));

    activate(&conn, root, second);
    let sample = frontmost_becomes(&desktop, "Second", "Second window");
    let obs = tracker.observe(Some(sample), 2_000);
    assert_eq!(obs.frontmost.unwrap().since, Some(2_000), "another app stamps since");
    assert_eq!(obs.transitions.len(), 1);

    // A new title is seen; without _NET_WM_NAME, WM_NAME is the title.
    set_text(&conn, second, atom(&conn, "_NET_WM_NAME"), atom(&conn, "UTF8_STRING"), "Renamed — ok".as_bytes());
    let sample = frontmost_becomes(&desktop, "Second", "Renamed — ok");
    assert_eq!(tracker.observe(Some(sample), 3_000).frontmost.unwrap().since, Some(2_000), "same app keeps since");
    conn.send_and_check_request(&x::DeleteProperty { window: second, property: atom(&conn, "_NET_WM_NAME") }).unwrap();
    set_text(&conn, second, x::ATOM_WM_NAME, x::ATOM_STRING, b"plain name");
    frontmost_becomes(&desktop, "Second", "plain name");

    activate(&conn, root, first);
    frontmost_becomes(&desktop, "First", "Première fenêtre");

    // Fullscreen: the window manager sets _NET_WM_STATE_FULLSCREEN on the
    // first window; the second stays a plain window.
    make_fullscreen(&conn, root, first);
    let sample = wait_until("the first window to be fullscreen", Duration::from_secs(5), || desktop.frontmost().filter(|s| s.app == "First" && s.fullscreen));
    assert_eq!(sample.title, "Première fenêtre");
    activate(&conn, root, second);
    let sample = frontmost_becomes(&desktop, "Second", "plain name");
    assert!(!sample.fullscreen, "the second window is not fullscreen");
    activate(&conn, root, first);
    assert!(frontmost_becomes(&desktop, "First", "Première fenêtre").fullscreen, "the first window stays fullscreen");

    // Idle time grows while nothing happens, and drops after input.
    let before = desktop.idle_ms().expect("Xvfb has MIT-SCREEN-SAVER");
    std::thread::sleep(Duration::from_millis(1_500));
    let later = desktop.idle_ms().unwrap();
    assert!(later >= before + 1_000, "idle grows: {before} then {later}");
    for (x0, y0) in [("400", "300"), ("410", "310")] {
        let status = Command::new("xdotool").env("DISPLAY", &display).args(["mousemove", x0, y0]).status().unwrap();
        assert!(status.success(), "xdotool mousemove");
    }
    let after = desktop.idle_ms().unwrap();
    assert!(after < 1_000 && after < later, "idle drops after input: {later} then {after}");

    // The window going away: nothing active any more.
    conn.send_and_check_request(&x::DestroyWindow { window: first }).unwrap();
    conn.send_and_check_request(&x::DestroyWindow { window: second }).unwrap();
    wait_until("no active window", Duration::from_secs(5), || desktop.frontmost().is_none().then_some(()));
    drop(procs);
}

/// Start `program` on `display` with a private HOME (openbox reads its config there).
fn spawn_on(program: &str, display: &str, home: &Path) -> Child {
    Command::new(program)
        .env("DISPLAY", display)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {program}: {e}"))
}

#[test]
fn the_desktop_self_test_sees_the_window_manager_and_the_compositor_arrive() {
    if !installed("Xvfb") {
        eprintln!("x11_world: Xvfb is not installed; skipping (scripts/setup.sh installs it)");
        return;
    }
    assert!(installed("openbox") && installed("xcompmgr"), "openbox and xcompmgr: run scripts/setup.sh");
    let (xvfb, display) = start_xvfb();
    let mut procs = Procs(vec![xvfb]);
    let facts = || yui_core::world::x11::stage_facts(Some(&display));
    assert_eq!(facts(), Some((false, None, true)), "a bare server: no compositor, no window manager to ask, SHAPE");
    let home = tempfile::tempdir().unwrap();
    procs.0.push(spawn_on("openbox", &display, home.path()));
    wait_until("openbox to list _NET_WM_STATE_ABOVE", Duration::from_secs(10), || facts().filter(|f| f.1 == Some(true)).map(|_| ()));
    assert_eq!(facts(), Some((false, Some(true), true)));
    procs.0.push(spawn_on("xcompmgr", &display, home.path()));
    wait_until("xcompmgr to own _NET_WM_CM_S0", Duration::from_secs(10), || facts().filter(|f| f.0).map(|_| ()));
    let facts = yui_core::world::stage::StageFacts {
        session: yui_core::world::stage::StageSession::X11,
        compositor: Some(true),
        above: Some(true),
        input_shape: Some(true),
        layer_shell: false,
    };
    assert!(yui_core::world::stage::report(&facts).problems().is_empty());
    assert_eq!(yui_core::world::x11::stage_facts(Some(":65001")), None, "an unreachable display reads nothing");
}
