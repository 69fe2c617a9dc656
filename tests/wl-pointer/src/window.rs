//! A solid-colour xdg toplevel on a shared-memory buffer.

use std::io::Write;
use std::os::fd::AsFd;
use wayland_client::globals::{registry_queue_init, GlobalListContents};
use wayland_client::protocol::{wl_buffer, wl_compositor, wl_registry, wl_shm, wl_shm_pool, wl_surface};
use wayland_client::{Connection, Dispatch, QueueHandle};
use wayland_protocols::xdg::shell::client::{xdg_surface, xdg_toplevel, xdg_wm_base};

/// What the event handlers track.
struct State {
    configured: bool,
    closed: bool,
}

impl Dispatch<wl_registry::WlRegistry, GlobalListContents> for State {
    fn event(_: &mut Self, _: &wl_registry::WlRegistry, _: wl_registry::Event, _: &GlobalListContents, _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<wl_compositor::WlCompositor, ()> for State {
    fn event(_: &mut Self, _: &wl_compositor::WlCompositor, _: wl_compositor::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<wl_surface::WlSurface, ()> for State {
    fn event(_: &mut Self, _: &wl_surface::WlSurface, _: wl_surface::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<wl_shm::WlShm, ()> for State {
    fn event(_: &mut Self, _: &wl_shm::WlShm, _: wl_shm::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<wl_shm_pool::WlShmPool, ()> for State {
    fn event(_: &mut Self, _: &wl_shm_pool::WlShmPool, _: wl_shm_pool::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<wl_buffer::WlBuffer, ()> for State {
    fn event(_: &mut Self, _: &wl_buffer::WlBuffer, _: wl_buffer::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<xdg_wm_base::XdgWmBase, ()> for State {
    fn event(_: &mut Self, base: &xdg_wm_base::XdgWmBase, event: xdg_wm_base::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {
        if let xdg_wm_base::Event::Ping { serial } = event {
            base.pong(serial);
        }
    }
}
impl Dispatch<xdg_surface::XdgSurface, ()> for State {
    fn event(state: &mut Self, surface: &xdg_surface::XdgSurface, event: xdg_surface::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {
        if let xdg_surface::Event::Configure { serial } = event {
            surface.ack_configure(serial);
            state.configured = true;
        }
    }
}
impl Dispatch<xdg_toplevel::XdgToplevel, ()> for State {
    fn event(state: &mut Self, _: &xdg_toplevel::XdgToplevel, event: xdg_toplevel::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {
        if let xdg_toplevel::Event::Close = event {
            state.closed = true;
        }
    }
}

/// Show the window `args` name (see the binary's doc) until the compositor
/// closes it or the connection ends.
pub fn run(args: &[String]) -> Result<(), String> {
    let [title, w, h, rest @ ..] = args else {
        return Err("usage: yui-wl-window TITLE WIDTH HEIGHT [RRGGBB [APP_ID]]".into());
    };
    let (w, h): (u32, u32) = (w.parse().map_err(|e| format!("WIDTH: {e}"))?, h.parse().map_err(|e| format!("HEIGHT: {e}"))?);
    let rgb = u32::from_str_radix(rest.first().map_or("d0d0c8", String::as_str), 16).map_err(|e| format!("RRGGBB: {e}"))?;
    let conn = Connection::connect_to_env().map_err(|e| format!("no Wayland compositor: {e}"))?;
    let (globals, mut queue) = registry_queue_init::<State>(&conn).map_err(|e| format!("registry: {e}"))?;
    let qh = queue.handle();
    let compositor: wl_compositor::WlCompositor = globals.bind(&qh, 1..=4, ()).map_err(|e| format!("no wl_compositor: {e}"))?;
    let shm: wl_shm::WlShm = globals.bind(&qh, 1..=1, ()).map_err(|e| format!("no wl_shm: {e}"))?;
    let base: xdg_wm_base::XdgWmBase = globals.bind(&qh, 1..=2, ()).map_err(|e| format!("no xdg_wm_base: {e}"))?;

    // The pixels: one opaque colour, XRGB8888.
    let stride = w * 4;
    let size = (stride * h) as usize;
    let dir = std::env::var_os("XDG_RUNTIME_DIR").ok_or("XDG_RUNTIME_DIR is not set")?;
    let path = std::path::Path::new(&dir).join(format!("yui-wl-window-{}", std::process::id()));
    let mut file = std::fs::OpenOptions::new().read(true).write(true).create_new(true).open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let _ = std::fs::remove_file(&path);
    let pixel = (0xff00_0000 | rgb).to_le_bytes();
    let mut pixels = Vec::with_capacity(size);
    for _ in 0..(w * h) {
        pixels.extend_from_slice(&pixel);
    }
    file.write_all(&pixels).map_err(|e| format!("shm: {e}"))?;
    let pool = shm.create_pool(file.as_fd(), size as i32, &qh, ());
    let buffer = pool.create_buffer(0, w as i32, h as i32, stride as i32, wl_shm::Format::Xrgb8888, &qh, ());

    let surface = compositor.create_surface(&qh, ());
    let xdg = base.get_xdg_surface(&surface, &qh, ());
    let toplevel = xdg.get_toplevel(&qh, ());
    toplevel.set_title(title.clone());
    toplevel.set_app_id(rest.get(1).cloned().unwrap_or_else(|| "yui-test".into()));
    surface.commit();
    let mut state = State { configured: false, closed: false };
    while !state.configured {
        queue.blocking_dispatch(&mut state).map_err(|e| format!("dispatch: {e}"))?;
    }
    surface.attach(Some(&buffer), 0, 0);
    surface.damage(0, 0, w as i32, h as i32);
    surface.commit();
    while !state.closed {
        if queue.blocking_dispatch(&mut state).is_err() {
            break;
        }
    }
    Ok(())
}
