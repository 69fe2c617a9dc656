//! Watches the mouse for the pet window, so its page can hit-test the
//! rendered alpha even while the OS window ignores the mouse.

use crate::window::WindowId;
use serde::Serialize;
use std::time::Duration;
use tauri::{AppHandle, Emitter, EventTarget, Manager};
use tokio_util::sync::CancellationToken;

/// The event carrying the cursor position (or null when outside).
pub const CURSOR_EVENT: &str = "yui://cursor";

/// How often the cursor is read.
const POLL: Duration = Duration::from_millis(33);

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
struct Point {
    x: f64,
    y: f64,
}

/// Poll the cursor every 33 ms until `cancel` fires and send its position,
/// relative to window `id` in CSS pixels, whenever it changes.
pub fn watch(app: AppHandle, id: WindowId, cancel: CancellationToken) {
    tauri::async_runtime::spawn(async move {
        let mut last: Option<Option<Point>> = None;
        let mut tick = tokio::time::interval(POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                _ = cancel.cancelled() => break,
                _ = tick.tick() => {}
            }
            let Some(window) = app.get_webview_window(id.label()) else { continue };
            if !window.is_visible().unwrap_or(false) {
                continue;
            }
            let point = (|| {
                let cursor = app.cursor_position().ok()?;
                let origin = window.inner_position().ok()?;
                let size = window.inner_size().ok()?;
                let scale = window.scale_factor().ok()?;
                let (x, y) = (cursor.x - origin.x as f64, cursor.y - origin.y as f64);
                let inside = x >= 0.0 && y >= 0.0 && x < size.width as f64 && y < size.height as f64;
                inside.then_some(Point { x: x / scale, y: y / scale })
            })();
            if last != Some(point) {
                last = Some(point);
                let _ = app.emit_to(EventTarget::webview_window(id.label()), CURSOR_EVENT, point);
            }
        }
    });
}
