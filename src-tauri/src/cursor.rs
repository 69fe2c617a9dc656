//! Watches the mouse for the pet window, so its page can hit-test the
//! rendered alpha even while the OS window ignores the mouse. Positions go
//! down the page's cursor channel (`streams.rs`).

use crate::streams::{CursorPoint, Streams};
use crate::window::WindowId;
use std::time::Duration;
use tauri::{AppHandle, Manager};
use tokio_util::sync::CancellationToken;

/// How often the cursor is read.
const POLL: Duration = Duration::from_millis(33);

/// Poll the cursor every 33 ms until `cancel` fires and send its position,
/// relative to window `id` in CSS pixels, whenever it changes. Until the
/// page registers its channel nothing is sent (and the change is not kept,
/// so the first position after registering goes out).
pub fn watch(app: AppHandle, id: WindowId, cancel: CancellationToken) {
    tauri::async_runtime::spawn(async move {
        let mut last: Option<Option<CursorPoint>> = None;
        let streams = app.state::<Streams>().inner().clone();
        let mut tick = tokio::time::interval(POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                _ = cancel.cancelled() => break,
                _ = tick.tick() => {}
            }
            let Some(window) = app.get_webview_window(id.label()) else {
                continue;
            };
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
                inside.then_some(CursorPoint { x: x / scale, y: y / scale })
            })();
            if last != Some(point) && streams.send_cursor(id, point) {
                last = Some(point);
            }
        }
    });
}
