//! Serving on `127.0.0.1`, shared by [`DemoServer`](crate::DemoServer) and
//! `yui-mock`'s server, and the startup both binaries share ([`run_binary`]).

use std::future::Future;
use std::io::Write as _;
use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context as _;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, MethodRouter};
use axum::Router;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// The routes every YUI backend fake serves: `/ws`, `/v1/responses`,
/// `/v1/chat/completions` with the given handlers, `GET /health` → `ok`, and
/// request bodies up to 64 MiB.
pub fn routes<S: Clone + Send + Sync + 'static>(ws: MethodRouter<S>, responses: MethodRouter<S>, chat_completions: MethodRouter<S>, state: S) -> Router {
    Router::new()
        .route("/ws", ws)
        .route("/v1/responses", responses)
        .route("/v1/chat/completions", chat_completions)
        .route("/health", get(|| async { "ok" }))
        .layer(DefaultBodyLimit::max(64 * 1024 * 1024))
        .with_state(state)
}

/// A router served on `127.0.0.1` in a spawned task until its cancellation
/// token fires. Dropping it cancels the token (and so stops the server).
#[derive(Debug)]
pub struct Serving {
    addr: SocketAddr,
    cancel: CancellationToken,
    task: Option<JoinHandle<()>>,
}

impl Serving {
    /// Binds `127.0.0.1:<port>` (0 = any free port) and serves `app` in a
    /// spawned task until `cancel` fires (call it inside a Tokio runtime).
    pub async fn start(port: u16, app: Router, cancel: CancellationToken) -> anyhow::Result<Serving> {
        let listener = TcpListener::bind(("127.0.0.1", port)).await.with_context(|| format!("binding 127.0.0.1:{port}"))?;
        let addr = listener.local_addr()?;
        let stop = cancel.clone();
        let task = tokio::spawn(async move {
            let served = axum::serve(listener, app).with_graceful_shutdown(stop.cancelled_owned()).await;
            if let Err(e) = served {
                tracing::error!(event = "serve_error", error = %e);
            }
        });
        Ok(Serving { addr, cancel, task: Some(task) })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Cancels the token and waits (up to 3 s, then aborts) for the server
    /// task: open sockets are closed and in-flight streams end.
    pub async fn shutdown(mut self) {
        self.cancel.cancel();
        if let Some(mut task) = self.task.take() {
            if tokio::time::timeout(Duration::from_secs(3), &mut task).await.is_err() {
                task.abort();
            }
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// A running server a binary serves until a signal: see [`run_binary`].
pub trait Server {
    /// `http://127.0.0.1:PORT`, printed on stdout.
    fn base_url(&self) -> String;
    /// Stops serving.
    fn shutdown(self) -> impl Future<Output = ()>;
}

/// The body of a server binary's `main`: sets up logging to stderr
/// (`RUST_LOG` filters, default `info`; ANSI colours on a terminal), awaits
/// `start`, prints exactly one line to stdout, `listening on
/// http://127.0.0.1:PORT`, serves until Ctrl-C (or SIGTERM on Unix), logs
/// `stopping` as the event and shuts the server down. An error from `start`
/// is returned before anything is printed.
pub async fn run_binary<S: Server>(start: impl Future<Output = anyhow::Result<S>>, stopping: &'static str) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")))
        .init();
    // The handlers are in place before the address is printed: whoever reads
    // the line may signal at once.
    let signalled = shutdown_signal()?;
    let server = start.await?;
    {
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "listening on {}", server.base_url())?;
        stdout.flush()?;
    }
    signalled.await;
    tracing::info!(event = stopping);
    server.shutdown().await;
    Ok(())
}

/// Install the Ctrl-C and (on Unix) SIGTERM handlers now; the answer
/// resolves when either arrives.
fn shutdown_signal() -> anyhow::Result<impl Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        Ok(async move {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async move {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
