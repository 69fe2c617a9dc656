//! The pet window as a layer-shell surface (`zwlr_layer_shell_v1`, through
//! gtk-layer-shell) when the app is a native Wayland client and the
//! compositor has the protocol: on the overlay layer, above windows, anchored
//! to an output's top-left corner with margins as her position. A plain
//! Wayland toplevel can neither stay above nor place itself. Elsewhere
//! (X11, XWayland, Windows, macOS, a compositor without layer-shell) nothing
//! here does anything.

use tauri::{LogicalSize, PhysicalPosition, WebviewWindow};

/// Make `pet` a layer-shell surface when this is the native Wayland path with
/// layer-shell; it must not be mapped yet (the pet window is created hidden).
/// Tells the core which path is active and returns where she stands, in
/// physical pixels, and her size in logical pixels, when she is a layer
/// surface (GTK reports no size for it until it maps, and none of its own
/// later).
pub fn install(pet: &WebviewWindow) -> Option<(PhysicalPosition<i32>, LogicalSize<u32>)> {
    let placed = imp::install(pet);
    yui_core::world::stage::set_layer_shell(placed.is_some());
    tracing::info!(record = "layer_shell", active = placed.is_some());
    placed
}

/// Whether the pet is a layer-shell surface (then [`place`] moves her).
pub fn active() -> bool {
    yui_core::world::stage::layer_shell()
}

/// Move the layer-surface pet so her top-left corner is at (`x`, `y`), in
/// physical desktop pixels: onto the output there, margins from its corner.
/// Runs on the main thread (GTK).
pub fn place(pet: &WebviewWindow, x: i32, y: i32) {
    let window = pet.clone();
    if let Err(e) = pet.run_on_main_thread(move || imp::place(&window, x, y)) {
        tracing::warn!(record = "pet_place_failed", x, y, error = %e);
    }
}

/// Set the pet window's input region to `rects` (CSS = GTK logical
/// pixels), or back to the whole window (`None`). Where the system has no
/// input regions (Windows, macOS) it does nothing: the page only sends a
/// shape on native Wayland. Runs on the main thread (GTK).
pub fn set_input_shape(pet: &WebviewWindow, rects: Option<Vec<yui_core::world::stage::InputRect>>) {
    let window = pet.clone();
    let count = rects.as_ref().map(Vec::len);
    if let Err(e) = pet.run_on_main_thread(move || imp::set_input_shape(&window, rects)) {
        tracing::warn!(record = "input_shape_failed", rects = ?count, error = %e);
    }
}

/// Keep the layer-shell pet above every window (`above`: the overlay
/// layer) or let a fullscreen app cover her (the top layer, which
/// compositors draw under fullscreen windows). Does nothing off the
/// layer-shell path.
pub fn set_above(pet: &WebviewWindow, above: bool) {
    if !active() {
        return;
    }
    let window = pet.clone();
    if let Err(e) = pet.run_on_main_thread(move || imp::set_above(&window, above)) {
        tracing::warn!(record = "pet_above_failed", above, error = %e);
    }
}

/// Give the layer-shell pet the keyboard (`on`: the user pressed into her
/// composer) or hand it back to the windows. Does nothing off the
/// layer-shell path, where the window manager gives focus on click.
pub fn set_keyboard(pet: &WebviewWindow, on: bool) {
    if !active() {
        return;
    }
    let window = pet.clone();
    if let Err(e) = pet.run_on_main_thread(move || imp::set_keyboard(&window, on)) {
        tracing::warn!(record = "pet_keyboard_failed", on, error = %e);
    }
}

#[cfg(target_os = "linux")]
mod imp {
    use gtk::gdk;
    use gtk::prelude::*;
    use gtk_layer_shell::{Edge, KeyboardMode, Layer, LayerShell};
    use tauri::{LogicalSize, PhysicalPosition, WebviewWindow};

    pub fn install(pet: &WebviewWindow) -> Option<(PhysicalPosition<i32>, LogicalSize<u32>)> {
        let display = gdk::Display::default()?;
        if display.type_().name() != "GdkWaylandDisplay" || !gtk_layer_shell::is_supported() {
            return None;
        }
        let window = pet.gtk_window().ok()?;
        if window.is_realized() {
            tracing::warn!(record = "layer_shell_too_late");
            return None;
        }
        // A layer surface takes its size from the size request (the webview
        // alone asks for none, and an unsized surface never draws).
        let (width, height) = window.size();
        window.set_size_request(width, height);
        window.init_layer_shell();
        window.set_namespace("yui");
        window.set_layer(Layer::Overlay);
        window.set_anchor(Edge::Top, true);
        window.set_anchor(Edge::Left, true);
        // No keyboard at rest: an overlay surface that asks for it takes it
        // from every window (sway 1.7 gives on-demand surfaces the focus as
        // if exclusive). The composer asks for it while in use
        // ([`super::set_keyboard`]).
        window.set_keyboard_mode(KeyboardMode::None);
        // She starts in the middle of the first output.
        let monitor = display.monitor(0)?;
        let (area, scale) = (monitor.geometry(), monitor.scale_factor());
        let (left, top) = ((area.width() - width).max(0) / 2, (area.height() - height).max(0) / 2);
        window.set_monitor(&monitor);
        window.set_layer_shell_margin(Edge::Left, left);
        window.set_layer_shell_margin(Edge::Top, top);
        Some((PhysicalPosition::new((area.x() + left) * scale, (area.y() + top) * scale), LogicalSize::new(width.max(0) as u32, height.max(0) as u32)))
    }

    pub fn place(pet: &WebviewWindow, x: i32, y: i32) {
        let (Ok(window), Some(display)) = (pet.gtk_window(), gdk::Display::default()) else {
            return;
        };
        // Outputs in physical pixels, the way Tauri reports monitors.
        let outputs: Vec<(gdk::Monitor, gdk::Rectangle, i32)> = (0..display.n_monitors())
            .filter_map(|i| display.monitor(i))
            .map(|m| {
                let (g, s) = (m.geometry(), m.scale_factor().max(1));
                (m, gdk::Rectangle::new(g.x() * s, g.y() * s, g.width() * s, g.height() * s), s)
            })
            .collect();
        let inside = |r: &gdk::Rectangle| x >= r.x() && x < r.x() + r.width() && y >= r.y() && y < r.y() + r.height();
        let Some((monitor, rect, scale)) = outputs.iter().find(|(_, r, _)| inside(r)).or(outputs.first()) else {
            return;
        };
        window.set_monitor(monitor);
        window.set_layer_shell_margin(Edge::Left, (x - rect.x()) / scale);
        window.set_layer_shell_margin(Edge::Top, (y - rect.y()) / scale);
    }

    pub fn set_above(pet: &WebviewWindow, above: bool) {
        if let Ok(window) = pet.gtk_window() {
            window.set_layer(if above { Layer::Overlay } else { Layer::Top });
        }
    }

    pub fn set_keyboard(pet: &WebviewWindow, on: bool) {
        if let Ok(window) = pet.gtk_window() {
            window.set_keyboard_mode(if on { KeyboardMode::Exclusive } else { KeyboardMode::None });
        }
    }

    pub fn set_input_shape(pet: &WebviewWindow, rects: Option<Vec<yui_core::world::stage::InputRect>>) {
        let Ok(window) = pet.gtk_window() else {
            return;
        };
        match rects {
            None => window.input_shape_combine_region(None),
            Some(rects) => {
                let cells: Vec<gtk::cairo::RectangleInt> = rects.iter().map(|r| gtk::cairo::RectangleInt::new(r.x, r.y, r.width, r.height)).collect();
                window.input_shape_combine_region(Some(&gtk::cairo::Region::create_rectangles(&cells)));
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use tauri::{LogicalSize, PhysicalPosition, WebviewWindow};

    pub fn install(_pet: &WebviewWindow) -> Option<(PhysicalPosition<i32>, LogicalSize<u32>)> {
        None
    }

    pub fn place(_pet: &WebviewWindow, _x: i32, _y: i32) {}

    pub fn set_input_shape(_pet: &WebviewWindow, _rects: Option<Vec<yui_core::world::stage::InputRect>>) {}

    pub fn set_keyboard(_pet: &WebviewWindow, _on: bool) {}

    pub fn set_above(_pet: &WebviewWindow, _above: bool) {}
}
