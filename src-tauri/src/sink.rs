//! The sink that carries the core's events to a character's windows.

use crate::streams::Streams;
use crate::window::WindowId;
use std::sync::Arc;
use tauri::{AppHandle, EventTarget, Manager};
use yui_core::{SharedSink, UiEvent};

/// The event name core events are emitted under, to their character's
/// windows only, while a window's page has no event channel yet.
pub const EVENT_NAME: &str = <UiEvent as crate::shell_events::ShellEvent>::NAME;

/// A sink that sends each event to window `id` and every window that shares
/// its session (the pet's reach its chat and settings windows too), and no
/// other window: down each page's event channel (`streams.rs`), or as a
/// window event to a page that has not registered one.
pub fn window_sink(app: AppHandle, id: WindowId) -> SharedSink {
    let streams = app.state::<Streams>().inner().clone();
    Arc::new(move |event: UiEvent| {
        let reached = streams.send_event(id, &event);
        let rest = |w: WindowId| w.session() == id && !reached.contains(&w);
        // Emit only when an open window of the session still lacks a channel.
        if !app.webview_windows().keys().any(|label| WindowId::from_label(label).is_some_and(rest)) {
            return;
        }
        let reaches = |target: &EventTarget| match target {
            EventTarget::WebviewWindow { label } => WindowId::from_label(label).is_some_and(rest),
            _ => false,
        };
        if let Err(e) = crate::shell_events::emit_filter(&app, &event, reaches) {
            tracing::warn!(record = "emit_failed", window = id.label(), error = %e);
        }
    })
}

/// The sink of character `name` in pet window `id`: her windows get each
/// event as [`window_sink`] sends it and, when she is not main, the chat
/// window's one view of every character gets it too, with her name.
pub fn member_sink(app: AppHandle, id: WindowId, name: &str) -> SharedSink {
    let own = window_sink(app.clone(), id);
    if id == WindowId::Pet {
        return own;
    }
    let streams = app.state::<Streams>().inner().clone();
    let name = name.to_string();
    Arc::new(move |event: UiEvent| {
        streams.send_cast(&name, &event);
        own.emit(event);
    })
}
