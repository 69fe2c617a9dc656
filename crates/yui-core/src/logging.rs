//! tracing to a daily file in the app's log directory.
//!
//! Records are named by a `record` field as `docs/push-protocol.md` ("Log records") names them (`ws_open`,
//! `ws_ready`, `ws_close`, `turn`, `push.render`, …). The API key is never a
//! field of any record.
//!
//! The hot path only formats a record into a memory buffer: a background
//! thread writes the buffer to the file every [`FLUSH_EVERY`], so no frame
//! waits on a file write or wakes another thread per record.

use crate::error::CoreError;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter, Layer};

/// How often the buffered records reach the file.
pub const FLUSH_EVERY: Duration = Duration::from_millis(250);

/// Records formatted but not yet written, and whether the writer should stop.
#[derive(Default)]
struct Pending {
    buf: Mutex<(Vec<u8>, bool)>,
    wake: Condvar,
}

/// The `MakeWriter` of the file layer: appends to the shared buffer.
#[derive(Clone)]
struct BufferWriter(Arc<Pending>);

impl Write for BufferWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut guard = self.0.buf.lock().unwrap_or_else(|p| p.into_inner());
        guard.0.extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> fmt::MakeWriter<'a> for BufferWriter {
    type Writer = BufferWriter;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// Keeps the background log writer alive; drop it at exit to flush.
pub struct LogGuard {
    pending: Arc<Pending>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for LogGuard {
    fn drop(&mut self) {
        self.pending.buf.lock().unwrap_or_else(|p| p.into_inner()).1 = true;
        self.pending.wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Write what is pending to `file` every [`FLUSH_EVERY`] until stopped.
/// Two buffers swap places, so the hot path appends into memory that is
/// already allocated and never waits on a reallocation copy.
fn write_loop(pending: Arc<Pending>, mut file: tracing_appender::rolling::RollingFileAppender) {
    let mut spare: Vec<u8> = Vec::with_capacity(INITIAL_BUFFER);
    loop {
        let stop = {
            let guard = pending.buf.lock().unwrap_or_else(|p| p.into_inner());
            let (mut guard, _) = pending.wake.wait_timeout(guard, FLUSH_EVERY).unwrap_or_else(|p| p.into_inner());
            std::mem::swap(&mut guard.0, &mut spare);
            guard.1
        };
        if !spare.is_empty() {
            let _ = file.write_all(&spare);
            let _ = file.flush();
            spare.clear();
        }
        if stop {
            return;
        }
    }
}

/// Room for a quarter second of a busy stream's records.
const INITIAL_BUFFER: usize = 1 << 20;

/// Install the global subscriber: a daily file `yui.log.<date>` in `log_dir`
/// at info level, plus stderr at `stderr_level` (e.g. "warn") when given.
/// `RUST_LOG` overrides both filters. Calling it twice keeps the first.
pub fn init(log_dir: &Path, stderr_level: Option<&str>) -> Result<LogGuard, CoreError> {
    std::fs::create_dir_all(log_dir).map_err(|source| CoreError::Storage { path: log_dir.to_path_buf(), source })?;
    let appender = tracing_appender::rolling::daily(log_dir, "yui.log");
    let pending = Arc::new(Pending { buf: Mutex::new((Vec::with_capacity(INITIAL_BUFFER), false)), wake: Condvar::new() });
    let writer = BufferWriter(pending.clone());
    let thread = {
        let pending = pending.clone();
        std::thread::Builder::new()
            .name("yui-log".into())
            .spawn(move || {
                crate::persist::background_thread();
                write_loop(pending, appender)
            })
            .map_err(|source| CoreError::Storage { path: log_dir.to_path_buf(), source })?
    };
    // The WebSocket crates trace whole frames, hello and its key included:
    // they never log below info, whatever RUST_LOG says.
    let quiet = |f: EnvFilter| {
        f.add_directive("tungstenite=info".parse().expect("directive"))
            .add_directive("tokio_tungstenite=info".parse().expect("directive"))
            .add_directive("reqwest=info".parse().expect("directive"))
            .add_directive("hyper=info".parse().expect("directive"))
            .add_directive("hyper_util=info".parse().expect("directive"))
    };
    let file_filter = quiet(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")));
    let file = fmt::layer().with_writer(writer).with_ansi(false).with_target(true).with_filter(file_filter);
    let stderr = stderr_level.map(|lvl| {
        let f = quiet(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(lvl)));
        fmt::layer().with_writer(std::io::stderr).with_target(false).with_filter(f)
    });
    let _ = tracing_subscriber::registry().with(file).with(stderr).try_init();
    Ok(LogGuard { pending, thread: Some(thread) })
}
