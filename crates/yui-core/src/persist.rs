//! The ordered background writer: per-turn persistence (the previous-turn
//! record, relations, the delegation history, transcripts, the activity
//! log, where she stood) leaves the session loop as jobs run one at a time,
//! in the order they were sent, on a thread of their own. The loop clones
//! what it must and sends; no file is opened, written or serialized whole on
//! its path from a transport event to the UI event it causes (see
//! `docs/performance.md`).
//!
//! Guarantees:
//!
//! - **Order.** Jobs run in submission order, so two whole-file writes of
//!   the same file land last-one-wins and appends stay in order.
//! - **Gathered.** The thread runs the jobs that came within
//!   [`crate::limits::PERSIST_WRITE_LINGER`] of the first together; a
//!   whole-file write ([`Writer::submit_whole`]) superseded by a later one
//!   of the same file in that window is skipped (the file is written once
//!   per window, not once per turn). A flush ends the window at once.
//! - **Read after write.** Whoever reads a file a job writes calls
//!   [`Writer::flush`] first (the stores do it when they open), or keeps its
//!   in-memory copy authoritative (the transcript, the delegation history).
//! - **Nothing acknowledged is lost.** A write is acknowledged when its job
//!   ran; [`Writer::flush`] waits for every job sent before it, and a
//!   session's close flushes. Each job writes as before (a whole file
//!   through a sibling temporary file and a rename, or an append), so a
//!   kill -9 mid-job leaves the old file or a torn tail the reader repairs.
//! - **A gone thread never loses a job:** it runs on the caller instead.

use crate::limits::PERSIST_WRITE_LINGER;
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

type Job = Box<dyn FnOnce() + Send + 'static>;

enum Message {
    /// A job; with a key, a whole-file write that a later one with the same
    /// key supersedes.
    Run(Option<String>, Job),
    Barrier(mpsc::SyncSender<()>),
}

/// A handle on one writer thread; clones share the thread and its order.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Message>,
    /// The writer thread, woken by a flush while it gathers jobs.
    thread: Option<std::thread::Thread>,
}

impl Default for Writer {
    /// The process's writer ([`Writer::global`]).
    fn default() -> Self {
        Self::global()
    }
}

impl Writer {
    /// A writer on a new thread named `name`. The thread ends when every
    /// handle is dropped, after running what was sent.
    ///
    /// The thread gathers the jobs that come within
    /// [`PERSIST_WRITE_LINGER`] of the first (a flush ends the wait at
    /// once), then runs them in order; of several keyed jobs with one key
    /// and no flush between them, only the last runs (see
    /// [`Writer::submit_whole`]). A sender wakes the thread only for the
    /// first job of a window: the session loop's sends cost no context
    /// switch.
    pub fn spawn(name: &str) -> Self {
        let (tx, rx) = mpsc::channel::<Message>();
        let spawned = std::thread::Builder::new().name(name.to_string()).spawn(move || {
            background_thread();
            while let Ok(first) = rx.recv() {
                run_batch(window(first, &rx));
            }
        });
        let thread = match spawned {
            Ok(handle) => Some(handle.thread().clone()),
            Err(e) => {
                tracing::warn!(record = "persist_thread_failed", error = %e, "writes run on the caller");
                None
            }
        };
        Self { tx, thread }
    }

    /// The one writer of this process, started on first use. Every store
    /// uses it unless given another.
    pub fn global() -> Self {
        static GLOBAL: OnceLock<Writer> = OnceLock::new();
        GLOBAL.get_or_init(|| Writer::spawn("yui-persist")).clone()
    }

    /// Run `job` after every job sent before it, off the caller's thread.
    /// Never blocks.
    pub fn submit(&self, job: impl FnOnce() + Send + 'static) {
        self.send(None, Box::new(job));
    }

    /// [`Writer::submit`] for a job that writes a whole file (`key`, its
    /// path): it supersedes a job of the same key still waiting (with no
    /// flush sent between them), which then never runs. Appends use
    /// [`Writer::submit`].
    pub fn submit_whole(&self, key: &std::path::Path, job: impl FnOnce() + Send + 'static) {
        self.send(Some(key.to_string_lossy().into_owned()), Box::new(job));
    }

    fn send(&self, key: Option<String>, job: Job) {
        if let Err(mpsc::SendError(Message::Run(_, job))) = self.tx.send(Message::Run(key, job)) {
            tracing::warn!(record = "persist_thread_gone", "a write runs on the caller");
            job();
        }
    }

    /// Wait until every job sent before this call has run. Blocks: not on
    /// the session loop (see [`Writer::flush_async`]).
    pub fn flush(&self) {
        let (done_tx, done_rx) = mpsc::sync_channel(1);
        if self.tx.send(Message::Barrier(done_tx)).is_ok() {
            if let Some(thread) = &self.thread {
                thread.unpark();
            }
            let _ = done_rx.recv();
        }
    }

    /// [`Writer::flush`] from async code, on a blocking thread.
    pub async fn flush_async(&self) {
        let writer = self.clone();
        if tokio::runtime::Handle::try_current().is_ok() {
            let _ = tokio::task::spawn_blocking(move || writer.flush()).await;
        } else {
            writer.flush();
        }
    }
}

/// The items of one window of a writer thread: `first`, then what comes
/// within `linger` of it, up to `most` items; an item `closes` says someone
/// waits on (a flush) closes the window at once, and so does every sender
/// gone. The thread parks meanwhile, so a send does not wake it; whoever
/// sends an item that closes unparks it. The ordered writer gathers its
/// jobs with it, the history's writer its writes.
pub fn gather<T>(first: T, rx: &mpsc::Receiver<T>, linger: Duration, most: usize, closes: impl Fn(&T) -> bool) -> Vec<T> {
    let deadline = Instant::now() + linger;
    let mut batch = vec![first];
    while batch.len() < most && !batch.last().is_some_and(&closes) {
        match rx.try_recv() {
            Ok(item) => batch.push(item),
            Err(mpsc::TryRecvError::Disconnected) => break,
            Err(mpsc::TryRecvError::Empty) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    break;
                }
                std::thread::park_timeout(left);
            }
        }
    }
    batch
}

/// The ordered writer's window: its jobs within [`PERSIST_WRITE_LINGER`],
/// closed by a flush.
fn window(first: Message, rx: &mpsc::Receiver<Message>) -> Vec<Message> {
    gather(first, rx, PERSIST_WRITE_LINGER, usize::MAX, |m| matches!(m, Message::Barrier(_)))
}

/// Run a window's jobs in order, skipping a keyed job that a later one of
/// the same key supersedes before the next barrier; answer each barrier
/// once everything before it ran.
fn run_batch(batch: Vec<Message>) {
    let mut superseded = vec![false; batch.len()];
    let mut later: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (i, message) in batch.iter().enumerate().rev() {
        match message {
            Message::Barrier(_) => later.clear(),
            Message::Run(Some(key), _) => superseded[i] = !later.insert(key.as_str()),
            Message::Run(None, _) => {}
        }
    }
    for (message, superseded) in batch.into_iter().zip(superseded) {
        match message {
            Message::Run(_, _) if superseded => {}
            Message::Run(_, job) => {
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
                    tracing::warn!(record = "persist_job_panicked", "a write job panicked; the writer goes on");
                }
            }
            Message::Barrier(done) => {
                let _ = done.send(());
            }
        }
    }
}

/// Mark the calling thread as background work: the writer threads (this
/// one, the history's, the log's) persist what the session loop already
/// decided, and must never keep the loop, or the program reading its
/// output, from a core. On Linux the thread joins the `SCHED_IDLE` class
/// (Linux keeps a policy per thread): any ordinary thread woken by a frame
/// preempts it at once, and it still gets a small share of a busy machine
/// (a writer never stalls, it only waits for a quiet moment). Where that is
/// refused, its nice value becomes [`crate::limits::WRITER_NICE`]. Elsewhere
/// nothing changes. A refusal is logged.
pub fn background_thread() {
    #[cfg(all(target_os = "linux", not(target_env = "ohos")))]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: sched_setscheduler with pid 0 changes only the calling
        // thread's policy; it reads `param` and keeps no pointer to it.
        if unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) } == 0 {
            return;
        }
        let idle = std::io::Error::last_os_error();
        // SAFETY: setpriority with PRIO_PROCESS and 0 changes only the
        // calling thread's nice value; it touches no memory of ours.
        let rc = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, crate::limits::WRITER_NICE) };
        if rc != 0 {
            tracing::debug!(record = "writer_priority", idle = %idle, error = %std::io::Error::last_os_error(), "the writer thread keeps its priority");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[cfg(target_os = "linux")]
    #[test]
    fn a_background_thread_yields_to_the_others_and_only_it() {
        // SAFETY: both calls only read the calling thread's scheduling state.
        let policy = || unsafe { libc::sched_getscheduler(0) };
        let nice = || unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let (before, nice_before) = (policy(), nice());
        let (after, nice_after) = std::thread::spawn(move || {
            background_thread();
            (policy(), nice())
        })
        .join()
        .unwrap();
        assert!(after == libc::SCHED_IDLE || nice_after == crate::limits::WRITER_NICE, "policy {after}, nice {nice_after}");
        assert_eq!((policy(), nice()), (before, nice_before), "the calling thread keeps its own");
        assert_ne!(before, libc::SCHED_IDLE);
    }

    #[test]
    fn jobs_run_in_order_off_the_caller_and_flush_waits_for_them() {
        let w = Writer::spawn("test-persist");
        let seen = Arc::new(Mutex::new(Vec::new()));
        let caller = std::thread::current().id();
        for i in 0..100 {
            let seen = seen.clone();
            w.submit(move || {
                assert_ne!(std::thread::current().id(), caller);
                seen.lock().unwrap().push(i);
            });
        }
        w.flush();
        assert_eq!(*seen.lock().unwrap(), (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn a_whole_file_write_superseded_in_its_window_is_skipped_but_never_across_a_flush() {
        let (tx, rx) = mpsc::channel::<Message>();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let job = |name: &'static str| -> Job {
            let seen = seen.clone();
            Box::new(move || seen.lock().unwrap().push(name))
        };
        let (done_tx, done_rx) = mpsc::sync_channel(1);
        for m in [
            Message::Run(Some("a".into()), job("a1")),
            Message::Run(None, job("log1")),
            Message::Run(Some("b".into()), job("b1")),
            Message::Run(Some("a".into()), job("a2")),
            Message::Barrier(done_tx),
            Message::Run(Some("a".into()), job("a3")),
            Message::Run(Some("a".into()), job("a4")),
        ] {
            tx.send(m).unwrap();
        }
        let first = rx.recv().unwrap();
        let batch = window(first, &rx);
        assert_eq!(batch.len(), 5, "a flush closes the window");
        run_batch(batch);
        assert!(done_rx.try_recv().is_ok(), "the flush answered");
        assert_eq!(*seen.lock().unwrap(), ["log1", "b1", "a2"], "a1 superseded by a2; appends and other files kept, in order");
        drop(tx);
        let first = rx.recv().unwrap();
        run_batch(window(first, &rx));
        assert_eq!(*seen.lock().unwrap(), ["log1", "b1", "a2", "a4"], "a2 is not superseded across the flush; a3 is by a4");
    }

    #[test]
    fn whole_file_writes_of_one_window_land_once_before_the_flush_returns() {
        let w = Writer::spawn("test-persist-whole");
        let seen = Arc::new(Mutex::new(Vec::new()));
        for i in 0..10 {
            let seen = seen.clone();
            w.submit_whole(std::path::Path::new("/f"), move || seen.lock().unwrap().push(i));
        }
        w.flush();
        assert_eq!(*seen.lock().unwrap(), [9], "only the last write of the window ran, before the flush returned");
    }

    #[test]
    fn a_blocked_job_does_not_block_the_sender() {
        let w = Writer::spawn("test-persist-blocked");
        let (release_tx, release_rx) = mpsc::channel::<()>();
        w.submit(move || {
            let _ = release_rx.recv();
        });
        let ran = Arc::new(Mutex::new(false));
        let r = ran.clone();
        let started = std::time::Instant::now();
        w.submit(move || *r.lock().unwrap() = true);
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "submit returned at once");
        assert!(!*ran.lock().unwrap(), "queued behind the blocked job");
        release_tx.send(()).unwrap();
        w.flush();
        assert!(*ran.lock().unwrap());
    }

    #[test]
    fn a_panicking_job_does_not_stop_the_writer() {
        let w = Writer::spawn("test-persist-panic");
        w.submit(|| panic!("boom"));
        let ran = Arc::new(Mutex::new(false));
        let r = ran.clone();
        w.submit(move || *r.lock().unwrap() = true);
        w.flush();
        assert!(*ran.lock().unwrap());
    }
}
