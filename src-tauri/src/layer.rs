//! The pet window as a layer-shell surface (`zwlr_layer_shell_v1`, through
//! gtk-layer-shell) when the app is a native Wayland client and the
//! compositor has the protocol: on the overlay layer, above windows, anchored
//! to an output's top-left corner with margins as her position. A plain
//! Wayland toplevel can neither stay above nor place itself. Elsewhere
//! (X11, XWayland, Windows, macOS, a compositor without layer-shell) nothing
//! here does anything.

use tauri::{PhysicalPosition, WebviewWindow};

/// Make `pet` a layer-shell surface when this is the native Wayland path with
/// layer-shell; it must not be mapped yet (the pet window is created hidden).
/// Tells the core which path is active and returns where she stands, in
/// physical pixels, when she is a layer surface.
pub fn install(pet: &WebviewWindow) -> Option<PhysicalPosition<i32>> {
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

#[cfg(target_os = "linux")]
mod imp {
    use gtk::gdk;
    use gtk::prelude::*;
    use gtk_layer_shell::{Edge, KeyboardMode, Layer, LayerShell};
    use tauri::{PhysicalPosition, WebviewWindow};

    pub fn install(pet: &WebviewWindow) -> Option<PhysicalPosition<i32>> {
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
        window.set_keyboard_mode(KeyboardMode::OnDemand);
        // She starts in the middle of the first output.
        let monitor = display.monitor(0)?;
        let (area, scale) = (monitor.geometry(), monitor.scale_factor());
        let (left, top) = ((area.width() - width).max(0) / 2, (area.height() - height).max(0) / 2);
        window.set_monitor(&monitor);
        window.set_layer_shell_margin(Edge::Left, left);
        window.set_layer_shell_margin(Edge::Top, top);
        Some(PhysicalPosition::new((area.x() + left) * scale, (area.y() + top) * scale))
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
}

#[cfg(not(target_os = "linux"))]
mod imp {
    use tauri::{PhysicalPosition, WebviewWindow};

    pub fn install(_pet: &WebviewWindow) -> Option<PhysicalPosition<i32>> {
        None
    }

    pub fn place(_pet: &WebviewWindow, _x: i32, _y: i32) {}
}
