//! The one way the core talks to the outside: events into an injected sink.

use crate::event::UiEvent;
use std::sync::{Arc, Mutex};

/// Receives every event the core produces. The app's sink emits to a window,
/// the CLI's prints a JSON line, tests collect into a Vec.
///
/// `emit` is called from the core's tasks and must not block for long.
pub trait EventSink: Send + Sync + 'static {
    /// Deliver one event.
    fn emit(&self, event: UiEvent);
}

impl<F> EventSink for F
where
    F: Fn(UiEvent) + Send + Sync + 'static,
{
    fn emit(&self, event: UiEvent) {
        self(event)
    }
}

/// A shared sink handle.
pub type SharedSink = Arc<dyn EventSink>;

/// A sink that keeps every event, for tests and tools.
#[derive(Clone, Default)]
pub struct CollectingSink {
    events: Arc<Mutex<Vec<UiEvent>>>,
    notify: Arc<tokio::sync::Notify>,
}

impl CollectingSink {
    /// A new empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// A copy of every event so far, in order.
    pub fn events(&self) -> Vec<UiEvent> {
        self.events.lock().expect("sink lock").clone()
    }

    /// Wait until an event satisfying `pred` has arrived, or the timeout passes.
    /// Returns the first matching event.
    pub async fn wait_for(&self, timeout: std::time::Duration, pred: impl Fn(&UiEvent) -> bool) -> Option<UiEvent> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.notify.notified();
            if let Some(e) = self.events().into_iter().find(|e| pred(e)) {
                return Some(e);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return None;
            }
        }
    }
}

impl EventSink for CollectingSink {
    fn emit(&self, event: UiEvent) {
        self.events.lock().expect("sink lock").push(event);
        self.notify.notify_waiters();
    }
}
