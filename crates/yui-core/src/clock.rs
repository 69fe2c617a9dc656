//! The wall clock, injectable so tests control ids and timestamps.
//!
//! Waits use tokio's clock (`tokio::time::Instant`), which tests pause and
//! advance; wall-clock readings (turn ids, outcome times, `time:` lines) come
//! from a [`WallClock`] the session is given.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

/// A source of epoch milliseconds.
pub trait WallClock: Send + Sync + 'static {
    /// Now, in epoch milliseconds.
    fn now_ms(&self) -> i64;
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl WallClock for SystemClock {
    fn now_ms(&self) -> i64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
    }
}

/// A clock that reads what the test set.
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    /// A clock reading `ms`.
    pub fn at(ms: i64) -> Arc<Self> {
        Arc::new(Self(AtomicI64::new(ms)))
    }
    /// Move the reading by `ms`.
    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl WallClock for ManualClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A shared clock handle.
pub type SharedClock = Arc<dyn WallClock>;

/// The system clock as a shared handle.
pub fn system() -> SharedClock {
    Arc::new(SystemClock)
}
