//! The sink that carries the core's events to a character's windows.

use crate::window::WindowId;
use std::sync::Arc;
use tauri::{AppHandle, Emitter, EventTarget};
use yui_core::{SharedSink, UiEvent};

/// The event name every core event is emitted under, to its character's
/// windows only.
pub const EVENT_NAME: &str = "yui://event";

/// A sink that emits each event to window `id` and every window that shares
/// its session (the pet's reach its chat window too), and no other window.
pub fn window_sink(app: AppHandle, id: WindowId) -> SharedSink {
    Arc::new(move |event: UiEvent| {
        let reaches = |target: &EventTarget| match target {
            EventTarget::WebviewWindow { label } => WindowId::from_label(label).is_some_and(|w| w.session() == id),
            _ => false,
        };
        if let Err(e) = app.emit_filter(EVENT_NAME, &event, reaches) {
            tracing::warn!(record = "emit_failed", window = id.label(), error = %e);
        }
    })
}
