//! Where the pet window goes when the user calls it back.

use tauri::{Manager, PhysicalPosition, WebviewWindow};
use yui_core::ports::Desk;

/// Show the pet window, make it take the mouse again, and move it back onto
/// a display when it is off every display. The geometry decision is
/// `yui_core::placement::bring_back_position`.
pub fn bring_back(window: &WebviewWindow) {
    let _ = window.show();
    let _ = window.unminimize();
    if let Err(e) = window.set_ignore_cursor_events(false) {
        tracing::warn!(record = "click_through_failed", error = %e);
    }
    let monitors: Vec<yui_core::placement::Rect> = window
        .available_monitors()
        .unwrap_or_default()
        .iter()
        .map(|m| yui_core::placement::Rect { x: m.position().x, y: m.position().y, width: m.size().width as i32, height: m.size().height as i32 })
        .collect();
    // A layer surface's place is the one the app gave it (GTK reports no
    // position for it): read it from the desk, as the core does.
    let id = crate::window::WindowId::from_label(window.label()).unwrap_or(crate::window::WindowId::Pet);
    let desk = crate::desk::AppDesk::of(window.app_handle().clone(), id, Vec::new());
    let frame = if crate::layer::active() {
        desk.pet_window().map(|w| (w.x, w.y, w.width, w.height))
    } else {
        (window.outer_position().ok().zip(window.outer_size().ok())).map(|(p, s)| (p.x, p.y, s.width, s.height))
    };
    if let Some((x, y, width, height)) = frame {
        let rect = yui_core::placement::Rect { x, y, width: width as i32, height: height as i32 };
        if let Some((x, y)) = yui_core::placement::bring_back_position(rect, &monitors) {
            if crate::layer::active() {
                desk.place_pet(x, y);
            } else {
                let _ = window.set_position(PhysicalPosition::new(x, y));
            }
            tracing::info!(record = "pet_moved_back", x, y);
        }
    }
    let _ = window.set_focus();
}
