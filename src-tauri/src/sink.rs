//! The sink that carries the core's events to one window.

use crate::window::WindowId;
use std::sync::Arc;
use tauri::{AppHandle, Emitter, EventTarget};
use yui_core::{SharedSink, UiEvent};

/// The event name every core event is emitted under, to its own window only.
pub const EVENT_NAME: &str = "yui://event";

/// A sink that emits each event to window `id` (and no other window).
pub fn window_sink(app: AppHandle, id: WindowId) -> SharedSink {
    Arc::new(move |event: UiEvent| {
        if let Err(e) = app.emit_to(EventTarget::webview_window(id.label()), EVENT_NAME, &event) {
            tracing::warn!(record = "emit_failed", window = id.label(), error = %e);
        }
    })
}
