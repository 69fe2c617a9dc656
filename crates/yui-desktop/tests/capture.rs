//! Capture against a real X server. Ignored by default: they need `DISPLAY`
//! (an Xvfb without a window manager is best; `scripts/test.sh` starts one):
//!
//! ```sh
//! Xvfb :77 -screen 0 1280x800x24 -noreset -nolisten tcp &
//! DISPLAY=:77 cargo test -p yui-desktop --test capture -- --ignored
//! ```
//!
//! The window-list test plays the window manager: it sets
//! `_NET_CLIENT_LIST_STACKING` / `_NET_CLIENT_LIST` on the root for windows it
//! created, with `_NET_WM_PID` naming another process (pid 1) or this one.
#![cfg(all(target_os = "linux", not(target_env = "ohos")))]

use std::sync::Mutex;
use xcb::{x, Xid};
use yui_desktop::picture::capture::{capture_display, capture_window, display_at, displays, windows, CaptureError};
use yui_desktop::picture::Picture;

/// The tests share one X server and its root properties: one at a time.
static X: Mutex<()> = Mutex::new(());

struct Conn {
    conn: xcb::Connection,
    root: x::Window,
    root_w: u32,
    root_h: u32,
}

fn connect() -> Option<Conn> {
    if std::env::var_os("DISPLAY").is_none() {
        eprintln!("DISPLAY not set: skipping");
        return None;
    }
    std::env::remove_var("WAYLAND_DISPLAY");
    std::env::set_var("XDG_SESSION_TYPE", "x11");
    let (conn, screen) = xcb::Connection::connect(None).expect("X connection");
    let scr = conn.get_setup().roots().nth(screen as usize).expect("screen").to_owned();
    Some(Conn { root: scr.root(), root_w: u32::from(scr.width_in_pixels()), root_h: u32::from(scr.height_in_pixels()), conn })
}

impl Conn {
    fn atom(&self, name: &str) -> x::Atom {
        self.conn.wait_for_reply(self.conn.send_request(&x::InternAtom { only_if_exists: false, name: name.as_bytes() })).unwrap().atom()
    }

    /// A top-level window filled with `rgb`, mapped; override-redirect ones
    /// stay where they are put whatever a window manager thinks.
    fn window(&self, (x0, y0, w, h): (i16, i16, u16, u16), rgb: u32, override_redirect: bool) -> x::Window {
        let win: x::Window = self.conn.generate_id();
        self.conn.send_request(&x::CreateWindow {
            depth: x::COPY_FROM_PARENT as u8,
            wid: win,
            parent: self.root,
            x: x0,
            y: y0,
            width: w,
            height: h,
            border_width: 0,
            class: x::WindowClass::InputOutput,
            visual: x::COPY_FROM_PARENT,
            value_list: &[x::Cw::BackPixel(rgb), x::Cw::OverrideRedirect(override_redirect)],
        });
        win
    }

    fn set_text(&self, win: x::Window, prop: x::Atom, ty: x::Atom, value: &[u8]) {
        self.conn.send_request(&x::ChangeProperty { mode: x::PropMode::Replace, window: win, property: prop, r#type: ty, data: value });
    }

    fn set_u32s(&self, win: x::Window, prop: &str, ty: x::Atom, value: &[u32]) {
        let prop = self.atom(prop);
        self.conn.send_request(&x::ChangeProperty { mode: x::PropMode::Replace, window: win, property: prop, r#type: ty, data: value });
    }

    /// An app window as a client would make it: class, title and pid.
    fn app_window(&self, rect: (i16, i16, u16, u16), rgb: u32, class: &str, title: &str, pid: u32) -> x::Window {
        let win = self.window(rect, rgb, false);
        self.set_text(win, x::ATOM_WM_CLASS, x::ATOM_STRING, format!("{}\0{class}\0", class.to_lowercase()).as_bytes());
        let utf8 = self.atom("UTF8_STRING");
        self.set_text(win, self.atom("_NET_WM_NAME"), utf8, title.as_bytes());
        self.set_u32s(win, "_NET_WM_PID", x::ATOM_CARDINAL, &[pid]);
        win
    }

    fn sync(&self) {
        self.conn.flush().unwrap();
        let _ = self.conn.wait_for_reply(self.conn.send_request(&x::GetInputFocus {}));
        std::thread::sleep(std::time::Duration::from_millis(100));
    }

    fn clear_client_lists(&self) {
        for name in ["_NET_CLIENT_LIST_STACKING", "_NET_CLIENT_LIST"] {
            let property = self.atom(name);
            self.conn.send_request(&x::DeleteProperty { window: self.root, property });
        }
        self.sync();
    }
}

fn rgba(pic: &Picture) -> (u32, u32, &[u8]) {
    match pic {
        Picture::Rgba { width, height, pixels } => (*width, *height, pixels.as_slice()),
        other => panic!("expected RGBA, got {other:?}"),
    }
}

fn pixel(pic: &Picture, x: u32, y: u32) -> [u8; 4] {
    let (w, _, px) = rgba(pic);
    let i = ((y * w + x) * 4) as usize;
    [px[i], px[i + 1], px[i + 2], px[i + 3]]
}

#[test]
#[ignore = "needs an X display (DISPLAY)"]
fn displays_describe_the_screen() {
    let _x = X.lock().unwrap_or_else(|e| e.into_inner());
    let Some(c) = connect() else { return };
    let ds = displays().expect("displays");
    assert!(!ds.is_empty());
    let d = &ds[0];
    assert_eq!(d.index, 0);
    assert!(!d.label.is_empty());
    assert!(d.scale > 0.0);
    assert_eq!((d.x, d.y), (0, 0));
    assert_eq!(((d.width as f32 * d.scale).round() as u32, (d.height as f32 * d.scale).round() as u32), (c.root_w, c.root_h));
    for (i, d) in ds.iter().enumerate() {
        assert_eq!(d.index, i);
    }
    assert_eq!(display_at(&ds, 5, 5), 0);
    assert!(matches!(capture_display(ds.len() + 3), Err(CaptureError::NotFound(_))));
}

#[test]
#[ignore = "needs an X display (DISPLAY)"]
fn capture_display_sees_four_quadrants() {
    let _x = X.lock().unwrap_or_else(|e| e.into_inner());
    let Some(c) = connect() else { return };
    let (hw, hh) = ((c.root_w / 2) as u16, (c.root_h / 2) as u16);
    let colours = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00];
    let rects = [(0, 0), (hw as i16, 0), (0, hh as i16), (hw as i16, hh as i16)];
    let wins: Vec<x::Window> = rects.iter().zip(colours).map(|(&(x0, y0), rgb)| c.window((x0, y0, hw, hh), rgb, true)).collect();
    for &w in &wins {
        c.conn.send_request(&x::MapWindow { window: w });
    }
    c.sync();

    let pic = capture_display(0).expect("capture");
    let (w, h, px) = rgba(&pic);
    assert_eq!((w, h), (c.root_w, c.root_h));
    assert_eq!(px.len(), (w * h * 4) as usize);
    let probes = [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)];
    let expect = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]];
    for ((x0, y0), e) in probes.into_iter().zip(expect) {
        assert_eq!(pixel(&pic, x0, y0), e, "at {x0},{y0}");
    }
    // The edges between quadrants are exact.
    assert_eq!(pixel(&pic, u32::from(hw) - 1, 0), [255, 0, 0, 255]);
    assert_eq!(pixel(&pic, u32::from(hw), 0), [0, 255, 0, 255]);
    assert_eq!(pixel(&pic, 0, u32::from(hh)), [0, 0, 255, 255]);

    for w in wins {
        c.conn.send_request(&x::DestroyWindow { window: w });
    }
    c.sync();
}

#[test]
#[ignore = "needs an X display (DISPLAY)"]
fn windows_follow_a_fake_window_manager() {
    let _x = X.lock().unwrap_or_else(|e| e.into_inner());
    let Some(c) = connect() else { return };
    let me = std::process::id();
    let other = 1; // init: never this test

    // No window manager: no list, no windows, no error.
    c.clear_client_lists();
    assert_eq!(windows().expect("windows without a WM"), vec![]);

    let alpha = c.app_window((10, 20, 200, 120), 0xC03020, "YuiTestAlpha", "alpha one", other);
    let mine = c.app_window((300, 20, 150, 100), 0x101010, "YuiTestMine", "the pet", me);
    let hidden = c.app_window((500, 20, 150, 100), 0x202020, "YuiTestHidden", "minimized", other);
    let beta = c.app_window((700, 300, 240, 160), 0x2040E0, "YuiTestBeta", "beta two", other);
    let unmapped = c.app_window((50, 400, 100, 100), 0x303030, "YuiTestUnmapped", "not shown", other);
    let hidden_atom = c.atom("_NET_WM_STATE_HIDDEN");
    c.set_u32s(hidden, "_NET_WM_STATE", x::ATOM_ATOM, &[hidden_atom.resource_id()]);
    for w in [alpha, mine, hidden, beta] {
        c.conn.send_request(&x::MapWindow { window: w });
    }
    // Bottom to top: alpha, mine, hidden, beta (beta in front).
    let ids = |ws: &[x::Window]| ws.iter().map(|w| w.resource_id()).collect::<Vec<u32>>();
    c.set_u32s(c.root, "_NET_CLIENT_LIST_STACKING", x::ATOM_WINDOW, &ids(&[alpha, mine, hidden, beta, unmapped]));
    c.set_u32s(c.root, "_NET_CLIENT_LIST", x::ATOM_WINDOW, &ids(&[beta, alpha, mine, hidden, unmapped]));
    c.sync();

    let listed = windows().expect("windows");
    let ours: Vec<_> = listed.iter().filter(|w| w.app.starts_with("YuiTest")).collect();
    let names: Vec<&str> = ours.iter().map(|w| w.app.as_str()).collect();
    assert_eq!(names, vec!["YuiTestBeta", "YuiTestAlpha"], "front to back, without own/minimized/unmapped: {listed:?}");
    let scale = displays().unwrap()[0].scale;
    let lg = |v: i32| (v as f32 / scale).round() as i32;
    assert_eq!((ours[0].title.as_str(), ours[0].x, ours[0].y), ("beta two", lg(700), lg(300)));
    assert_eq!((ours[1].x, ours[1].y, ours[1].width, ours[1].height), (lg(10), lg(20), lg(200) as u32, lg(120) as u32));
    assert_eq!(ours[1].monitor, 0);

    // Without the stacking list, the client list (mapping order) is used.
    let stacking = c.atom("_NET_CLIENT_LIST_STACKING");
    c.conn.send_request(&x::DeleteProperty { window: c.root, property: stacking });
    c.sync();
    let names: Vec<String> = windows().unwrap().into_iter().map(|w| w.app).filter(|a| a.starts_with("YuiTest")).collect();
    assert_eq!(names, vec!["YuiTestAlpha", "YuiTestBeta"]);

    // Capture by app (any case) and title substring.
    let pic = capture_window("yuitestalpha", "one").expect("capture alpha");
    let (w, h, _) = rgba(&pic);
    assert_eq!((w, h), (200, 120));
    assert_eq!(pixel(&pic, 100, 60), [0xC0, 0x30, 0x20, 255]);
    let pic = capture_window("YUITESTBETA", "").expect("capture beta");
    assert_eq!(rgba(&pic).0, 240);
    assert_eq!(pixel(&pic, 5, 5), [0x20, 0x40, 0xE0, 255]);
    assert!(matches!(capture_window("YuiTestAlpha", "two"), Err(CaptureError::NotFound(_))));
    assert!(matches!(capture_window("YuiTestMine", ""), Err(CaptureError::NotFound(_))), "own windows are not offered");

    for w in [alpha, mine, hidden, beta, unmapped] {
        c.conn.send_request(&x::DestroyWindow { window: w });
    }
    c.clear_client_lists();
    assert!(windows().unwrap().iter().all(|w| !w.app.starts_with("YuiTest")));
}
