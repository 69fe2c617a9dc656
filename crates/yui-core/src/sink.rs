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

    /// Deliver several events, in order: the events of one pass of the
    /// session loop ([`PassSink`]). A sink that pays per delivery (a pipe
    /// write, a message to a window) may deliver them in one go; the
    /// default delivers them one by one.
    fn emit_all(&self, events: Vec<UiEvent>) {
        for event in events {
            self.emit(event);
        }
    }
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

/// The session's sink around the host's: while the session loop handles
/// one wake-up (a frame, a command, a timer), every event, the loop's and
/// any other task's, waits in call order and goes to the host's sink in one
/// [`EventSink::emit_all`] when the pass ends; between passes an event goes
/// at once. So the events one frame causes cost the host one delivery, and
/// the order is the order of the calls.
pub struct PassSink {
    inner: SharedSink,
    /// Whether a pass is open, and the events it holds.
    held: Mutex<(bool, Vec<UiEvent>)>,
}

impl PassSink {
    /// A pass sink delivering to `inner`.
    pub fn new(inner: SharedSink) -> Self {
        Self { inner, held: Mutex::new((false, Vec::new())) }
    }

    /// The session loop's own handle: its first event opens the pass (so a
    /// wake-up that emits nothing opens none), and every event it emits
    /// waits for [`PassSink::release`].
    pub fn opener(self: &Arc<Self>) -> SharedSink {
        Arc::new(Opener(self.clone()))
    }

    /// A pass opens: events wait until [`PassSink::release`].
    pub fn hold(&self) {
        self.held.lock().unwrap_or_else(|p| p.into_inner()).0 = true;
    }

    /// The pass ends: what it held goes to the host's sink, in order, and
    /// events go at once again. (Delivered under the lock, so an event
    /// emitted meanwhile by another task comes after them.)
    pub fn release(&self) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        held.0 = false;
        if !held.1.is_empty() {
            let events = std::mem::take(&mut held.1);
            self.inner.emit_all(events);
        }
    }
}

/// See [`PassSink::opener`].
struct Opener(Arc<PassSink>);

impl EventSink for Opener {
    fn emit(&self, event: UiEvent) {
        let mut held = self.0.held.lock().unwrap_or_else(|p| p.into_inner());
        held.0 = true;
        held.1.push(event);
    }
}

impl EventSink for PassSink {
    fn emit(&self, event: UiEvent) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        if held.0 {
            held.1.push(event);
        } else {
            // Under the lock: never before what a release is delivering.
            self.inner.emit(event);
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Status;

    /// A host sink that records each delivery (one event, or a batch) as
    /// the attempt numbers of its `Connecting` statuses.
    #[derive(Default)]
    struct Deliveries(Mutex<Vec<Vec<u32>>>);

    impl EventSink for Deliveries {
        fn emit(&self, event: UiEvent) {
            self.emit_all(vec![event]);
        }
        fn emit_all(&self, events: Vec<UiEvent>) {
            let attempts = events
                .iter()
                .map(|e| match e {
                    UiEvent::Status { status: Status::Connecting { attempt } } => *attempt,
                    _ => u32::MAX,
                })
                .collect();
            self.0.lock().unwrap().push(attempts);
        }
    }

    fn event(attempt: u32) -> UiEvent {
        UiEvent::Status { status: Status::Connecting { attempt } }
    }

    #[test]
    fn a_pass_delivers_its_events_in_one_go_in_order_and_between_passes_each_goes_at_once() {
        let host = Arc::new(Deliveries::default());
        let sink = Arc::new(PassSink::new(host.clone()));
        sink.emit(event(0));
        sink.hold();
        sink.emit(event(1));
        let other = sink.clone();
        std::thread::spawn(move || other.emit(event(2))).join().unwrap();
        sink.emit(event(3));
        assert_eq!(host.0.lock().unwrap().len(), 1, "nothing delivered while the pass is open");
        sink.release();
        sink.release();
        sink.emit(event(4));
        assert_eq!(
            *host.0.lock().unwrap(),
            vec![vec![0], vec![1, 2, 3], vec![4]],
            "one delivery for the pass, in call order (another thread's event included); an empty release delivers nothing"
        );
    }

    #[test]
    fn the_loops_first_event_opens_the_pass() {
        let host = Arc::new(Deliveries::default());
        let sink = Arc::new(PassSink::new(host.clone()));
        let lp = sink.opener();
        sink.emit(event(0));
        lp.emit(event(1));
        sink.emit(event(2));
        lp.emit(event(3));
        assert_eq!(*host.0.lock().unwrap(), vec![vec![0]], "the loop's events and what follows them wait");
        sink.release();
        sink.emit(event(4));
        assert_eq!(*host.0.lock().unwrap(), vec![vec![0], vec![1, 2, 3], vec![4]]);
    }
}
