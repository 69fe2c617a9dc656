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
//! - **Read after write.** Whoever reads a file a job writes calls
//!   [`Writer::flush`] first (the stores do it when they open), or keeps its
//!   in-memory copy authoritative (the transcript, the delegation history).
//! - **Nothing acknowledged is lost.** A write is acknowledged when its job
//!   ran; [`Writer::flush`] waits for every job sent before it, and a
//!   session's close flushes. Each job writes as before (a whole file
//!   through a sibling temporary file and a rename, or an append), so a
//!   kill -9 mid-job leaves the old file or a torn tail the reader repairs.
//! - **A gone thread never loses a job:** it runs on the caller instead.

use std::sync::mpsc;
use std::sync::OnceLock;

type Job = Box<dyn FnOnce() + Send + 'static>;

enum Message {
    Run(Job),
    Barrier(mpsc::SyncSender<()>),
}

/// A handle on one writer thread; clones share the thread and its order.
#[derive(Clone, Debug)]
pub struct Writer {
    tx: mpsc::Sender<Message>,
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
    pub fn spawn(name: &str) -> Self {
        let (tx, rx) = mpsc::channel::<Message>();
        let spawned = std::thread::Builder::new().name(name.to_string()).spawn(move || {
            background_thread();
            for message in rx {
                match message {
                    Message::Run(job) => {
                        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
                            tracing::warn!(record = "persist_job_panicked", "a write job panicked; the writer goes on");
                        }
                    }
                    Message::Barrier(done) => {
                        let _ = done.send(());
                    }
                }
            }
        });
        if let Err(e) = spawned {
            tracing::warn!(record = "persist_thread_failed", error = %e, "writes run on the caller");
        }
        Self { tx }
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
        if let Err(mpsc::SendError(Message::Run(job))) = self.tx.send(Message::Run(Box::new(job))) {
            tracing::warn!(record = "persist_thread_gone", "a write runs on the caller");
            job();
        }
    }

    /// Wait until every job sent before this call has run. Blocks: not on
    /// the session loop (see [`Writer::flush_async`]).
    pub fn flush(&self) {
        let (done_tx, done_rx) = mpsc::sync_channel(1);
        if self.tx.send(Message::Barrier(done_tx)).is_ok() {
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
