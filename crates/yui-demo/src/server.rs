//! The demo's HTTP server: binding, routing, and the [`DemoServer`] handle.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};
use tokio_util::sync::CancellationToken;

use crate::http::{chat_reply, check_bearer, parse_body, responses_reply, HttpReply};
use crate::push::Ids;
use crate::reply::local_time_hhmm;
use crate::serve::{routes, Serving};
use crate::DemoConfig;

/// State shared by the server task and every connection.
pub(crate) struct Shared {
    pub(crate) config: DemoConfig,
    pub(crate) cancel: CancellationToken,
    pub(crate) ids: Arc<Ids>,
    /// The `agent_chat` engine's conversations, runs and open approvals.
    pub(crate) agent: crate::agent_chat::Engine,
}

/// A running demo agent on `127.0.0.1`. Dropping it stops the server.
pub struct DemoServer {
    serving: Serving,
}

impl std::fmt::Debug for DemoServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DemoServer").field("addr", &self.addr()).finish_non_exhaustive()
    }
}

impl DemoServer {
    /// Binds `127.0.0.1:<config.port>` and serves in a spawned task (call it
    /// inside a Tokio runtime).
    pub async fn start(config: DemoConfig) -> anyhow::Result<DemoServer> {
        if !(config.pace.is_finite() && config.pace >= 0.0) {
            anyhow::bail!("pace must be a finite number >= 0");
        }
        let port = config.port;
        let shared = Arc::new(Shared { config, cancel: CancellationToken::new(), ids: Arc::new(Ids::default()), agent: crate::agent_chat::Engine::default() });
        let app = routes(get(crate::ws::ws_handler), post(responses), post(chat_completions), shared.clone()).merge(crate::agent_chat::router(shared.clone()));
        let serving = Serving::start(port, app, shared.cancel.clone()).await?;
        tracing::info!(event = "demo_listening", addr = %serving.addr());
        Ok(DemoServer { serving })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.serving.addr()
    }

    /// `http://127.0.0.1:PORT`: the push client appends `/ws`, the request
    /// transports `/v1/responses` or `/v1/chat/completions`, the
    /// `agent_chat` client `/chat`.
    pub fn base_url(&self) -> String {
        self.serving.base_url()
    }

    /// Stops serving: open sockets are closed and in-flight streams end.
    pub async fn shutdown(self) {
        self.serving.shutdown().await;
    }
}

impl crate::serve::Server for DemoServer {
    fn base_url(&self) -> String {
        DemoServer::base_url(self)
    }

    async fn shutdown(self) {
        DemoServer::shutdown(self).await;
    }
}

fn answer(shared: &Shared, headers: &HeaderMap, body: &[u8], reply: fn(&serde_json::Value, &Ids, &str) -> HttpReply) -> Response {
    let reply = check_bearer(shared.config.key.as_deref(), headers)
        .and_then(|()| parse_body(body))
        .map_or_else(|e| e, |req| reply(&req, &shared.ids, &local_time_hhmm()));
    reply.into_response(shared.config.pace, shared.cancel.clone())
}

async fn responses(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    answer(&shared, &headers, &body, responses_reply)
}

async fn chat_completions(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    answer(&shared, &headers, &body, chat_reply)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_handle_can_live_in_app_state() {
        fn send_sync<T: Send + Sync + 'static>() {}
        send_sync::<super::DemoServer>();
    }
}
