//! Where the pet window goes when the user calls it back.

use tauri::{PhysicalPosition, WebviewWindow};

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
        .map(|m| yui_core::placement::Rect {
            x: m.position().x,
            y: m.position().y,
            width: m.size().width as i32,
            height: m.size().height as i32,
        })
        .collect();
    if let (Ok(pos), Ok(size)) = (window.outer_position(), window.outer_size()) {
        let rect = yui_core::placement::Rect {
            x: pos.x,
            y: pos.y,
            width: size.width as i32,
            height: size.height as i32,
        };
        if let Some((x, y)) = yui_core::placement::bring_back_position(rect, &monitors) {
            if crate::layer::active() {
                crate::layer::place(window, x, y);
            } else {
                let _ = window.set_position(PhysicalPosition::new(x, y));
            }
            tracing::info!(record = "pet_moved_back", x, y);
        }
    }
    let _ = window.set_focus();
}
