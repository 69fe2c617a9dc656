//! tracing to a daily file in the app's log directory.
//!
//! Records are named by a `record` field as the seed names them (`ws_open`,
//! `ws_ready`, `ws_close`, `turn`, `push.render`, …). The API key is never a
//! field of any record.

use crate::error::CoreError;
use std::path::Path;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter, Layer};

/// Keeps the background log writer alive; drop it at exit to flush.
pub struct LogGuard {
    _guard: tracing_appender::non_blocking::WorkerGuard,
}

/// Install the global subscriber: a daily file `yui.log.<date>` in `log_dir`
/// at info level, plus stderr at `stderr_level` (e.g. "warn") when given.
/// `RUST_LOG` overrides both filters. Calling it twice keeps the first.
pub fn init(log_dir: &Path, stderr_level: Option<&str>) -> Result<LogGuard, CoreError> {
    std::fs::create_dir_all(log_dir).map_err(|source| CoreError::Storage { path: log_dir.to_path_buf(), source })?;
    let appender = tracing_appender::rolling::daily(log_dir, "yui.log");
    let (writer, guard) = tracing_appender::non_blocking(appender);
    // The WebSocket crates trace whole frames, hello and its key included:
    // they never log below info, whatever RUST_LOG says.
    let quiet = |f: EnvFilter| {
        f.add_directive("tungstenite=info".parse().expect("directive"))
            .add_directive("tokio_tungstenite=info".parse().expect("directive"))
    };
    let file_filter = quiet(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")));
    let file = fmt::layer().with_writer(writer).with_ansi(false).with_target(true).with_filter(file_filter);
    let stderr = stderr_level.map(|lvl| {
        let f = quiet(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(lvl)));
        fmt::layer().with_writer(std::io::stderr).with_target(false).with_filter(f)
    });
    let _ = tracing_subscriber::registry().with(file).with(stderr).try_init();
    Ok(LogGuard { _guard: guard })
}
