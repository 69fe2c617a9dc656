//! The world as the session sees it: a sampler task reads the desktop's
//! facts (frontmost window, idle time) off the loop every
//! [`WORLD_SAMPLE_INTERVAL`](crate::limits::WORLD_SAMPLE_INTERVAL) and hands
//! them to the driver, whose [`World`] folds them: the `frontmost:` line the
//! next turn carries, the user's presence (the inbox waits while they are
//! away), and the transitions-only activity log.

use crate::context::Frontmost;
use crate::settings::LiveSettings;
use crate::world::{ActivityLog, DesktopFacts, FrontmostTracker, PresenceChange, PresenceEdges, Sample};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// One reading of the desktop.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldSample {
    /// The foreground window; `None` when there is none, the platform cannot
    /// tell, or the `frontmost` setting is off (then it is not read).
    pub frontmost: Option<Sample>,
    /// Milliseconds since the user's last input; `None` when unknown.
    pub idle_ms: Option<u64>,
}

/// Where the session's world readings come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum WorldInput {
    /// The sampler reads [`SessionConfig::world`](super::SessionConfig::world)
    /// once a second (the default).
    #[default]
    Sampled,
    /// No sampler runs: the readings are only those handed to
    /// [`Session::feed_world`](super::Session::feed_world) (a scripted
    /// desktop, for headless runs and tests).
    Fed,
}

/// A reading on its way to the driver, with who waits for it to be folded
/// (a fed reading; the sampler's have none).
pub(super) type Reading = (WorldSample, Option<tokio::sync::oneshot::Sender<()>>);

/// Read `facts` every interval until `cancel` fires, off the async workers,
/// and send each reading. The frontmost window is read only while the
/// `frontmost` setting is on.
pub(super) fn spawn_sampler(facts: Arc<dyn DesktopFacts>, live: LiveSettings, tx: mpsc::UnboundedSender<Reading>, cancel: CancellationToken) {
    if let Some(why) = facts.limitation() {
        tracing::info!(record = "world_limited", reason = why);
    }
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(crate::limits::WORLD_SAMPLE_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                _ = cancel.cancelled() => break,
                _ = tick.tick() => {}
            }
            let read_front = live.read(|s| s.user.reactions.frontmost);
            let facts = facts.clone();
            let Ok(sample) =
                tokio::task::spawn_blocking(move || WorldSample { frontmost: if read_front { facts.frontmost() } else { None }, idle_ms: facts.idle_ms() })
                    .await
            else {
                break;
            };
            if tx.send((sample, None)).is_err() {
                break;
            }
        }
    });
}

/// What the driver keeps of the world. See the module doc.
pub struct World {
    tracker: FrontmostTracker,
    edges: PresenceEdges,
    log: Option<ActivityLog>,
    shown: Arc<Mutex<Option<Frontmost>>>,
    idle_known: bool,
    fullscreen: bool,
    /// Where the log's appends run, off the loop.
    writer: crate::persist::Writer,
}

impl World {
    /// A world with no reading yet (present, no frontmost line), writing
    /// transitions to `log`, publishing the line into `shown` (the sampler
    /// of turns reads it).
    pub fn new(log: Option<ActivityLog>, shown: Arc<Mutex<Option<Frontmost>>>) -> Self {
        Self {
            tracker: FrontmostTracker::for_this_process(),
            edges: PresenceEdges::new(),
            log,
            shown,
            idle_known: false,
            fullscreen: false,
            writer: crate::persist::Writer::global(),
        }
    }

    /// The same world, appending its log through `writer` (the session's).
    pub fn writing_through(mut self, writer: crate::persist::Writer) -> Self {
        self.writer = writer;
        self
    }

    /// The app the `frontmost:` line names now, if any.
    pub fn app(&self) -> Option<String> {
        self.tracker.current().and_then(|f| f.app)
    }

    /// True when the last reading had the OS idle time (an `os_idle_tick`):
    /// presence is then known, not assumed.
    pub fn idle_known(&self) -> bool {
        self.idle_known
    }

    /// True while the last reading found a fullscreen app frontmost (the
    /// pacer's do-not-disturb).
    pub fn fullscreen(&self) -> bool {
        self.fullscreen
    }

    /// True while the last reading found the user present.
    pub fn present(&self) -> bool {
        self.edges.is_present()
    }

    /// Fold a reading taken at `now_ms`, the user away after `away_ms` of
    /// no input; answers the presence edge it crossed, if any.
    pub fn observe(&mut self, sample: WorldSample, away_ms: u64, now_ms: i64) -> Option<PresenceChange> {
        self.fullscreen = sample.frontmost.as_ref().is_some_and(|f| f.fullscreen);
        let seen = self.tracker.observe(sample.frontmost, now_ms);
        *self.shown.lock().unwrap_or_else(|p| p.into_inner()) = seen.frontmost;
        for t in &seen.transitions {
            tracing::debug!(record = "frontmost_transition", from = ?t.from, to = ?t.to);
            if let Some(log) = &self.log {
                log.append_later(t.clone(), &self.writer);
            }
        }
        self.idle_known = sample.idle_ms.is_some();
        let change = self.edges.update(sample.idle_ms, away_ms, now_ms);
        match change {
            Some(PresenceChange::Left) => tracing::info!(record = "presence", state = "away"),
            Some(PresenceChange::Returned { away_ms }) => tracing::info!(record = "presence", state = "returned", away_min = away_ms / 60_000),
            None => {}
        }
        change
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(app: &str, idle_ms: u64) -> WorldSample {
        WorldSample { frontmost: Some(Sample { app: app.into(), title: format!("{app} window"), pid: None, fullscreen: false }), idle_ms: Some(idle_ms) }
    }

    #[test]
    fn readings_make_the_line_presence_and_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let log = ActivityLog::open_in(dir.path(), None, 0).unwrap();
        let shown = Arc::new(Mutex::new(None));
        let mut w = World::new(Some(log), shown.clone());
        assert!(w.present());
        assert_eq!(w.observe(sample("Editor", 0), 300_000, 1_000), None);
        let line = shown.lock().unwrap().clone().expect("a frontmost line");
        assert_eq!((line.app.as_deref(), line.since), (Some("Editor"), Some(1_000)));
        assert_eq!(w.observe(sample("Browser", 1_000), 300_000, 61_000), None);
        assert_eq!(shown.lock().unwrap().as_ref().and_then(|f| f.app.clone()).as_deref(), Some("Browser"));
        assert_eq!(w.observe(sample("Browser", 300_000), 300_000, 400_000), Some(PresenceChange::Left));
        assert!(!w.present());
        assert!(matches!(w.observe(sample("Browser", 10), 300_000, 900_000), Some(PresenceChange::Returned { .. })));
        assert!(w.present());
        crate::persist::Writer::global().flush();
        let logged = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| std::fs::read_to_string(e.path()).unwrap()).collect::<String>();
        assert!(logged.contains("Editor") && logged.contains("Browser"), "{logged}");
        // Nothing read (the setting off, or no desktop): a short clear keeps
        // the line, a long one is an absence and takes it away.
        w.observe(WorldSample { frontmost: None, idle_ms: None }, 300_000, 2_000_000);
        assert_eq!(shown.lock().unwrap().as_ref().and_then(|f| f.since), Some(61_000), "a short clear keeps since");
        w.observe(WorldSample { frontmost: None, idle_ms: None }, 300_000, 2_000_000 + 301_000);
        assert!(shown.lock().unwrap().is_none(), "a long clear is an absence");
        assert!(w.present(), "unknown idle counts as present");
    }
}
