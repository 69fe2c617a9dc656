//! The high-rate routes to a page: each window's ordered event channel (every
//! core event of its session, text deltas included), the chat window's cast
//! channel (every event of the other open characters, each with her name:
//! `docs/characters.md`, "The chat window") and the pet's cursor channel. A page registers its channels once; a new registration replaces
//! the old one (a reloaded page), and a window's channels go with it.

use crate::commands::{caller, CommandError};
use crate::window::WindowId;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use tauri::ipc::Channel;
use tauri::{State, WebviewWindow};
use yui_core::{ErrorCode, UiEvent};

/// A cursor position in the pet window's CSS pixels, from its top-left.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ts_rs::TS)]
pub struct CursorPoint {
    /// Right of the window's left edge.
    pub x: f64,
    /// Below the window's top edge.
    pub y: f64,
}

/// One event of an open character other than main, for the chat window's
/// one view of them all (main's come down its own event channel).
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct CastEvent {
    /// Her name, as `character_names` gives it.
    pub character: String,
    /// The event, as her own windows get it.
    pub event: UiEvent,
}

#[derive(Default)]
struct Routes {
    events: HashMap<WindowId, Channel<UiEvent>>,
    cast: Option<Channel<CastEvent>>,
    cursor: HashMap<WindowId, Channel<Option<CursorPoint>>>,
}

/// Every page's registered channels, by window.
#[derive(Default, Clone)]
pub struct Streams(Arc<Mutex<Routes>>);

impl Streams {
    fn lock(&self) -> MutexGuard<'_, Routes> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Route window `id`'s events down `channel` from now on.
    pub fn register_events(&self, id: WindowId, channel: Channel<UiEvent>) {
        self.lock().events.insert(id, channel);
    }

    /// Route window `id`'s cursor positions down `channel` from now on.
    pub fn register_cursor(&self, id: WindowId, channel: Channel<Option<CursorPoint>>) {
        self.lock().cursor.insert(id, channel);
    }

    /// Route the other characters' events down the chat window's `channel`
    /// from now on.
    pub fn register_cast(&self, channel: Channel<CastEvent>) {
        self.lock().cast = Some(channel);
    }

    /// Window `id` is gone: drop its channels.
    pub fn forget(&self, id: WindowId) {
        let mut routes = self.lock();
        routes.events.remove(&id);
        routes.cursor.remove(&id);
        if id == WindowId::Chat {
            routes.cast = None;
        }
    }

    /// Send character `name`'s `event` down the chat window's cast channel;
    /// false when there is none (the window is closed: it loads what it
    /// missed when it opens) or it failed, and was dropped.
    pub fn send_cast(&self, name: &str, event: &UiEvent) -> bool {
        let mut routes = self.lock();
        let Some(channel) = &routes.cast else { return false };
        let sent = channel.send(CastEvent { character: name.to_string(), event: event.clone() });
        if let Err(e) = sent {
            tracing::warn!(record = "emit_failed", window = WindowId::Chat.label(), character = name, error = %e);
            routes.cast = None;
            return false;
        }
        true
    }

    /// Send `event` down the channel of every window of session `session`
    /// that has one; the windows reached, for the caller to emit to the rest.
    /// A channel that fails (its page went away) is dropped and not counted.
    pub fn send_event(&self, session: WindowId, event: &UiEvent) -> Vec<WindowId> {
        let mut routes = self.lock();
        let mut reached = Vec::new();
        routes.events.retain(|id, channel| {
            if id.session() != session {
                return true;
            }
            match channel.send(event.clone()) {
                Ok(()) => {
                    reached.push(*id);
                    true
                }
                Err(e) => {
                    tracing::warn!(record = "emit_failed", window = id.label(), error = %e);
                    false
                }
            }
        });
        reached
    }

    /// Send a cursor position to window `id`'s page; false when it has no
    /// cursor channel (or it failed, and was dropped).
    pub fn send_cursor(&self, id: WindowId, point: Option<CursorPoint>) -> bool {
        let mut routes = self.lock();
        let Some(channel) = routes.cursor.get(&id) else {
            return false;
        };
        if channel.send(point).is_ok() {
            return true;
        }
        routes.cursor.remove(&id);
        false
    }
}

/// Register the calling page's event channel: from now on every core event
/// of its session comes down it, in order, instead of as a window event.
///
/// Errors: the caller is not a window with a session (`closed`).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn event_channel(window: WebviewWindow, streams: State<'_, Streams>, channel: Channel<UiEvent>) -> Result<(), CommandError> {
    let id = caller(&window)?;
    if id == WindowId::Browser {
        return Err(CommandError::new(ErrorCode::Closed, "the browser window gets no events"));
    }
    streams.register_events(id, channel);
    Ok(())
}

/// Register the chat window's cast channel: from now on every core event of
/// the open characters other than main comes down it, in order per
/// character, with her name.
///
/// Errors: the caller is not the chat window (`closed`).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn cast_channel(window: WebviewWindow, streams: State<'_, Streams>, channel: Channel<CastEvent>) -> Result<(), CommandError> {
    if caller(&window)? != WindowId::Chat {
        return Err(CommandError::new(ErrorCode::Closed, "only the chat window shows every character"));
    }
    streams.register_cast(channel);
    Ok(())
}

/// Register the pet page's cursor channel: the cursor position (or null
/// outside the window) whenever it changes, polled every 33 ms.
///
/// Errors: the caller is not the pet window (`closed`).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn cursor_channel(window: WebviewWindow, streams: State<'_, Streams>, channel: Channel<Option<CursorPoint>>) -> Result<(), CommandError> {
    let id = caller(&window)?;
    if !id.is_pet() {
        return Err(CommandError::new(ErrorCode::Closed, "only a pet window follows the cursor"));
    }
    streams.register_cursor(id, channel);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tauri::ipc::InvokeResponseBody;

    type Seen = Arc<Mutex<Vec<String>>>;

    fn recording<T: tauri::ipc::IpcResponse>(fail: bool) -> (Channel<T>, Seen) {
        let seen = Seen::default();
        let log = seen.clone();
        let channel = Channel::new(move |body| {
            if fail {
                return Err(tauri::Error::WebviewNotFound);
            }
            if let InvokeResponseBody::Json(json) = body {
                log.lock().unwrap().push(json);
            }
            Ok(())
        });
        (channel, seen)
    }

    #[test]
    fn events_reach_the_registered_windows_of_the_session_in_order() {
        let streams = Streams::default();
        let event = |n: u32| UiEvent::TurnQueued { queued: n, text: format!("m{n}") };
        assert!(streams.send_event(WindowId::Pet, &event(0)).is_empty(), "nothing registered: the caller emits");
        let (pet, pet_seen) = recording(false);
        let (chat, chat_seen) = recording(false);
        streams.register_events(WindowId::Pet, pet);
        streams.register_events(WindowId::Chat, chat);
        for n in 1..=3 {
            let mut reached = streams.send_event(WindowId::Pet, &event(n));
            reached.sort_by_key(|w| w.label());
            assert_eq!(reached, vec![WindowId::Chat, WindowId::Pet]);
        }
        let pet_seen = pet_seen.lock().unwrap().clone();
        assert_eq!(pet_seen.len(), 3);
        assert!(pet_seen[0].contains("\"m1\"") && pet_seen[2].contains("\"m3\""), "{pet_seen:?}");
        assert_eq!(*chat_seen.lock().unwrap(), pet_seen);
        // Another session's events do not reach them.
        assert!(streams.send_event(WindowId::Browser, &event(9)).is_empty());
        streams.forget(WindowId::Chat);
        assert_eq!(streams.send_event(WindowId::Pet, &event(4)), vec![WindowId::Pet]);
    }

    #[test]
    fn a_failed_channel_is_dropped_and_the_window_gets_emits_again() {
        let streams = Streams::default();
        let (dead, _) = recording(true);
        streams.register_events(WindowId::Pet, dead);
        let event = UiEvent::TurnQueued { queued: 1, text: "x".into() };
        assert!(streams.send_event(WindowId::Pet, &event).is_empty());
        let (cursor, _) = recording(true);
        streams.register_cursor(WindowId::Pet, cursor);
        assert!(!streams.send_cursor(WindowId::Pet, None));
        assert!(!streams.send_cursor(WindowId::Pet, None), "dropped after failing");
    }

    #[test]
    fn the_other_characters_events_reach_the_chat_window_with_their_names() {
        let streams = Streams::default();
        let event = UiEvent::TurnQueued { queued: 1, text: "hi".into() };
        assert!(!streams.send_cast("Ann", &event), "no chat window: nothing is sent");
        let (cast, seen) = recording(false);
        streams.register_cast(cast);
        assert!(streams.send_cast("Ann", &event));
        assert!(streams.send_cast("Mio", &event));
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 2);
        assert!(seen[0].starts_with("{\"character\":\"Ann\",\"event\":{\"type\":\"turn_queued\""), "{seen:?}");
        assert!(seen[1].contains("\"Mio\""), "{seen:?}");
        // The chat window closed: its channel goes with it.
        streams.forget(WindowId::Chat);
        assert!(!streams.send_cast("Ann", &event));
        let (dead, _) = recording(true);
        streams.register_cast(dead);
        assert!(!streams.send_cast("Ann", &event), "a failed channel is dropped");
    }

    #[test]
    fn the_cursor_goes_to_the_pet_page_as_a_point_or_null() {
        let streams = Streams::default();
        assert!(!streams.send_cursor(WindowId::Pet, None));
        let (cursor, seen) = recording(false);
        streams.register_cursor(WindowId::Pet, cursor);
        assert!(streams.send_cursor(WindowId::Pet, Some(CursorPoint { x: 1.5, y: 2.0 })));
        assert!(streams.send_cursor(WindowId::Pet, None));
        assert_eq!(*seen.lock().unwrap(), vec!["{\"x\":1.5,\"y\":2.0}".to_string(), "null".to_string()]);
    }
}
