//! Our own X11 paths, on one xcb connection per call: the display capture
//! (GetImage ZPixmap of the monitor's rectangle of the root window, converted
//! with a tight loop), the window list from the window manager's client list
//! (every property request pipelined), and window capture.
//!
//! xcap does the same things with one X connection per property and a
//! per-pixel call through a function pointer, which costs tens of
//! milliseconds on a 1080p screen; xcap is still used for the display list,
//! Wayland and other systems.

use super::pixels::{x_stride, x_to_rgba, XLayout};
use super::{app_from_wm_class, get_property, intern_atoms};
use crate::platform::{CaptureError, Display, RawWindow, Rgba};
use xcb::{randr, x, Xid};

fn connect() -> Result<(xcb::Connection, i32), CaptureError> {
    xcb::Connection::connect_with_extensions(None, &[], &[xcb::Extension::RandR]).map_err(|e| {
        tracing::debug!(error = %e, "no X connection");
        CaptureError::NoDisplay
    })
}

fn failed(what: &str, e: impl std::fmt::Display) -> CaptureError {
    CaptureError::Failed(format!("{what}: {e}"))
}

fn root_of(conn: &xcb::Connection, screen: i32) -> Result<x::Window, CaptureError> {
    conn.get_setup().roots().nth(screen.max(0) as usize).map(|s| s.root()).ok_or(CaptureError::NoDisplay)
}

/// A RandR monitor as the paths here use it: its name atom, whether it is
/// the primary, and its physical rectangle.
struct Monitor {
    name: x::Atom,
    primary: bool,
    rect: (i32, i32, u32, u32),
}

/// The RandR monitors, one entry per output: xcap's `Monitor::all()` order.
fn monitors(conn: &xcb::Connection, root: x::Window) -> Result<Vec<Monitor>, CaptureError> {
    let reply = conn.wait_for_reply(conn.send_request(&randr::GetMonitors { window: root, get_active: true })).map_err(|e| failed("RandR GetMonitors", e))?;
    let mut out = Vec::new();
    for m in reply.monitors() {
        for _ in m.outputs() {
            out.push(Monitor { name: m.name(), primary: m.primary(), rect: (i32::from(m.x()), i32::from(m.y()), u32::from(m.width()), u32::from(m.height())) });
        }
    }
    Ok(out)
}

/// Physical rectangles of the monitors, in xcap's `Monitor::all()` order.
fn monitor_rects(conn: &xcb::Connection, root: x::Window) -> Result<Vec<(i32, i32, u32, u32)>, CaptureError> {
    Ok(monitors(conn, root)?.into_iter().map(|m| m.rect).collect())
}

/// The displays as the X server lays them out ([`monitors`]' order), named
/// by their RandR names. Used where the app's windows are X11 windows
/// inside a Wayland session (XWayland): the pet is placed in the X server's
/// coordinates, so its displays come from there too. Scale 1: XWayland's
/// coordinates are the ones her window uses.
pub(crate) fn displays() -> Result<Vec<Display>, CaptureError> {
    let (conn, screen) = connect()?;
    let root = root_of(&conn, screen)?;
    let out: Vec<_> = monitors(&conn, root)?
        .into_iter()
        .enumerate()
        .map(|(index, m)| {
            let name = conn.wait_for_reply(conn.send_request(&x::GetAtomName { atom: m.name })).map(|r| r.name().to_string()).unwrap_or_default();
            let (x, y, width, height) = m.rect;
            Display { index, label: if name.is_empty() { format!("display {}", index + 1) } else { name }, x, y, width, height, scale: 1.0, primary: m.primary }
        })
        .collect();
    if out.is_empty() {
        return Err(CaptureError::NoDisplay);
    }
    Ok(out)
}

/// The pixel layout of a `depth`-deep ZPixmap `w` pixels wide.
fn layout_for(conn: &xcb::Connection, depth: u8, w: u32) -> Result<XLayout, CaptureError> {
    let setup = conn.get_setup();
    let format =
        setup.pixmap_formats().iter().find(|f| f.depth() == depth).ok_or_else(|| CaptureError::Failed(format!("no pixmap format for depth {depth}")))?;
    Ok(XLayout {
        bits_per_pixel: format.bits_per_pixel(),
        stride: x_stride(w, format.bits_per_pixel(), format.scanline_pad()),
        lsb_first: setup.image_byte_order() == x::ImageOrder::LsbFirst,
    })
}

fn unsupported(depth: u8, layout: XLayout) -> CaptureError {
    CaptureError::Failed(format!("unsupported X image: depth {depth}, {} bits per pixel", layout.bits_per_pixel))
}

/// The contents of `drawable`'s rectangle as RGBA, by GetImage over the
/// socket. (MIT-SHM was tried: with a segment set up per call it measured
/// 3-4x slower on a 1080p screen than the socket, page faults included.)
fn get_image(conn: &xcb::Connection, drawable: x::Drawable, (x0, y0, w, h): (i32, i32, u32, u32)) -> Result<Rgba, CaptureError> {
    if w == 0 || h == 0 {
        return Err(CaptureError::Failed(format!("nothing to capture: {w}x{h}")));
    }
    let reply = conn
        .wait_for_reply(conn.send_request(&x::GetImage {
            format: x::ImageFormat::ZPixmap,
            drawable,
            x: x0 as i16,
            y: y0 as i16,
            width: w as u16,
            height: h as u16,
            plane_mask: u32::MAX,
        }))
        .map_err(|e| failed("X GetImage", e))?;
    let depth = reply.depth();
    let layout = layout_for(conn, depth, w)?;
    let pixels = x_to_rgba(reply.data(), w, h, layout).ok_or_else(|| unsupported(depth, layout))?;
    Ok(Rgba { width: w, height: h, pixels })
}

/// Display `index` (xcap's order), captured from the root window.
pub(crate) fn capture_display(index: usize) -> Result<Rgba, CaptureError> {
    let (conn, screen) = connect()?;
    let root = root_of(&conn, screen)?;
    let rects = monitor_rects(&conn, root)?;
    let rect = *rects.get(index).ok_or_else(|| {
        if rects.is_empty() {
            CaptureError::NoDisplay
        } else {
            CaptureError::NotFound(format!("display {index} (there are {})", rects.len()))
        }
    })?;
    get_image(&conn, x::Drawable::Window(root), rect)
}

/// The contents of window `id` (its own pixels; parts covered by other
/// windows may show them when no compositor keeps window contents).
pub(crate) fn capture_window(id: u32) -> Result<Rgba, CaptureError> {
    let (conn, _) = connect()?;
    let window: x::Window = <x::Window as xcb::XidNew>::new(id);
    let geometry = conn.wait_for_reply(conn.send_request(&x::GetGeometry { drawable: x::Drawable::Window(window) })).map_err(|e| failed("X GetGeometry", e))?;
    get_image(&conn, x::Drawable::Window(window), (0, 0, u32::from(geometry.width()), u32::from(geometry.height())))
}

fn text(reply: &Result<x::GetPropertyReply, xcb::Error>) -> String {
    match reply {
        Ok(r) if r.format() == 8 => String::from_utf8_lossy(r.value::<u8>()).into_owned(),
        _ => String::new(),
    }
}

/// The window manager's client windows, bottom to top
/// (`_NET_CLIENT_LIST_STACKING`, else `_NET_CLIENT_LIST`). `Ok(None)` when
/// there is no such list (no window manager).
pub(crate) fn client_windows() -> Result<Option<Vec<RawWindow>>, CaptureError> {
    let (conn, screen) = connect()?;
    let root = root_of(&conn, screen)?;
    let names = ["_NET_CLIENT_LIST_STACKING", "_NET_CLIENT_LIST", "_NET_WM_PID", "_NET_WM_NAME", "_NET_WM_STATE", "_NET_WM_STATE_HIDDEN"];
    let atoms = intern_atoms(&conn, &names).map_err(|e| failed("X InternAtom", e))?;
    let [stacking, client_list, pid_atom, net_name, state_atom, hidden] = atoms[..] else { unreachable!("six atoms") };

    let mut ids: Vec<x::Window> = Vec::new();
    for list in [stacking, client_list] {
        if let Ok(r) = conn.wait_for_reply(get_property(&conn, root, list)) {
            if r.format() == 32 {
                ids = r.value::<x::Window>().to_vec();
            }
        }
        if !ids.is_empty() {
            break;
        }
    }
    if ids.is_empty() {
        return Ok(None);
    }

    // Pipeline every request for every window, then collect.
    struct Pending {
        id: x::Window,
        class: x::GetPropertyCookie,
        net_name: x::GetPropertyCookie,
        name: x::GetPropertyCookie,
        pid: x::GetPropertyCookie,
        state: x::GetPropertyCookie,
        attrs: x::GetWindowAttributesCookie,
        geometry: x::GetGeometryCookie,
        origin: x::TranslateCoordinatesCookie,
    }
    let pending: Vec<Pending> = ids
        .iter()
        .map(|&id| Pending {
            id,
            class: get_property(&conn, id, x::ATOM_WM_CLASS),
            net_name: get_property(&conn, id, net_name),
            name: get_property(&conn, id, x::ATOM_WM_NAME),
            pid: get_property(&conn, id, pid_atom),
            state: get_property(&conn, id, state_atom),
            attrs: conn.send_request(&x::GetWindowAttributes { window: id }),
            geometry: conn.send_request(&x::GetGeometry { drawable: x::Drawable::Window(id) }),
            origin: conn.send_request(&x::TranslateCoordinates { src_window: id, dst_window: root, src_x: 0, src_y: 0 }),
        })
        .collect();

    let mut out = Vec::with_capacity(pending.len());
    for p in pending {
        let class = text(&conn.wait_for_reply(p.class));
        let net_name = text(&conn.wait_for_reply(p.net_name));
        let name = text(&conn.wait_for_reply(p.name));
        let pid = conn.wait_for_reply(p.pid).ok().and_then(|r| if r.format() == 32 { r.value::<u32>().first().copied() } else { None });
        let hidden_state = conn.wait_for_reply(p.state).ok().map(|r| r.format() == 32 && r.value::<x::Atom>().contains(&hidden)).unwrap_or(false);
        let viewable = conn.wait_for_reply(p.attrs).map(|a| a.map_state() == x::MapState::Viewable).unwrap_or(false);
        let geometry = conn.wait_for_reply(p.geometry);
        let origin = conn.wait_for_reply(p.origin);
        // A window destroyed since the list was read answers with errors: skip it.
        let (Ok(geometry), Ok(origin)) = (geometry, origin) else { continue };
        out.push(RawWindow {
            id: p.id.resource_id(),
            pid,
            app: app_from_wm_class(&class),
            title: if net_name.is_empty() { name } else { net_name },
            x: i32::from(origin.dst_x()),
            y: i32::from(origin.dst_y()),
            width: u32::from(geometry.width()),
            height: u32::from(geometry.height()),
            minimized: hidden_state || !viewable,
        });
    }
    Ok(Some(out))
}
