//! The listener: bind `127.0.0.1:<port>` (with the retries of `docs/triggers.md`), accept
//! connections and serve each over HTTP/1.1 until the cancel token fires.

use super::handler::{handle, Shared};
use super::{IngressConfig, IngressError, IngressPort};
use crate::limits::INGRESS_HEADER_READ_WAIT;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;

/// How long an open connection may take to finish its request once the
/// ingress is stopping.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// A running ingress. It stops when the cancel token given to [`serve`]
/// fires (dropping this handle does not stop it).
#[derive(Debug)]
pub struct Ingress {
    local_addr: SocketAddr,
    task: JoinHandle<()>,
}

impl Ingress {
    /// The address it listens on (the real port when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Wait until it has stopped (after the cancel token fired): the
    /// listener is closed and every connection ended.
    pub async fn stopped(self) {
        let _ = self.task.await;
    }
}

/// Start the ingress on `127.0.0.1:<config.port>`. A failed bind is retried
/// `config.bind_retries` times, `config.bind_retry_interval` apart; then the
/// error names the port. Must be called inside a Tokio runtime.
pub async fn serve(config: IngressConfig, port: Arc<dyn IngressPort>, cancel: CancellationToken) -> Result<Ingress, IngressError> {
    let listener = bind(&config, &cancel).await?;
    let local_addr = listener.local_addr().map_err(|source| IngressError::Bind { port: config.port, attempts: 1, source })?;
    tracing::info!(record = "ingress_listening", addr = %local_addr, require_token = config.require_token);
    let shared = Arc::new(Shared { config, port });
    let task = tokio::spawn(accept_loop(listener, shared, cancel));
    Ok(Ingress { local_addr, task })
}

async fn bind(config: &IngressConfig, cancel: &CancellationToken) -> Result<TcpListener, IngressError> {
    let attempts = config.bind_retries.saturating_add(1);
    let mut attempt = 1;
    loop {
        match TcpListener::bind((Ipv4Addr::LOCALHOST, config.port)).await {
            Ok(listener) => return Ok(listener),
            Err(source) if attempt >= attempts => {
                tracing::warn!(record = "ingress_down", port = config.port, attempts, error = %source);
                return Err(IngressError::Bind { port: config.port, attempts, source });
            }
            Err(e) => {
                tracing::debug!(record = "ingress_bind_retry", port = config.port, attempt, error = %e);
                tokio::select! {
                    () = cancel.cancelled() => return Err(IngressError::Cancelled { port: config.port }),
                    () = tokio::time::sleep(config.bind_retry_interval) => {}
                }
                attempt += 1;
            }
        }
    }
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>, cancel: CancellationToken) {
    let mut connections = JoinSet::new();
    loop {
        while connections.try_join_next().is_some() {}
        let stream = tokio::select! {
            () = cancel.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors and the like: wait a little instead of spinning.
                    tracing::warn!(record = "ingress_accept_failed", error = %e);
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        connections.spawn(connection(stream, shared.clone(), cancel.clone()));
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
    tracing::info!(record = "ingress_stopped");
}

async fn connection(stream: tokio::net::TcpStream, shared: Arc<Shared>, cancel: CancellationToken) {
    let service = service_fn(move |req| {
        let shared = shared.clone();
        async move { Ok::<_, Infallible>(handle(req, &shared).await) }
    });
    let conn = http1::Builder::new().timer(TokioTimer::new()).header_read_timeout(INGRESS_HEADER_READ_WAIT).serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    tokio::select! {
        result = conn.as_mut() => {
            if let Err(e) = result {
                tracing::debug!(record = "ingress_connection_error", error = %e);
            }
        }
        () = cancel.cancelled() => {
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(SHUTDOWN_GRACE, conn).await;
        }
    }
}
