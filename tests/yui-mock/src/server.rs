//! The HTTP server: binding, routing, shared state and the test-facing
//! [`MockServer`] handle.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::routing::{get, post};
use serde_json::Value;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use yui_demo::serve::{routes, Serving};

use crate::http::RecordedRequest;
use crate::push::Out;
use crate::MockConfig;

/// `GET` answers every frame received on `/ws` so far, as a JSON array
/// (for tests that run the mock as a separate process).
pub const RECEIVED_PATH: &str = "/__mock/received";
/// `GET` here answers every HTTP request the mock recorded (path and body;
/// the Authorization header is left out), oldest first.
pub const REQUESTS_PATH: &str = "/__mock/requests";
/// `POST` a JSON frame here to push it to every ready client on `/ws` (what
/// [`MockServer::push`] does, for out-of-process tests): 200 when it went
/// to at least one, 409 when no client was ready.
pub const PUSH_PATH: &str = "/__mock/push";

/// One open `/ws` connection as the server sees it.
struct ConnHandle {
    out: Out,
    ready: Arc<AtomicBool>,
}

/// State shared by the server task, every connection and the [`MockServer`].
pub(crate) struct Shared {
    pub(crate) config: MockConfig,
    /// Cancelled when the server stops; every connection and stream ends on it.
    pub(crate) cancel: CancellationToken,
    received: Mutex<Vec<Value>>,
    failures: Mutex<Vec<String>>,
    conns: Mutex<HashMap<u64, ConnHandle>>,
    accepted: AtomicUsize,
    /// Every request to the SSE endpoints, in arrival order.
    requests: Mutex<Vec<RecordedRequest>>,
    /// Id counter shared with the demo agent (bg-<n>, d-<n>, resp ids, …).
    pub(crate) ids: Arc<yui_demo::push::Ids>,
    /// Bumped on every recorded frame and connection change; waiters watch it.
    changed: watch::Sender<u64>,
    /// The `agent_chat` engine's conversations, runs and open approvals.
    pub(crate) agent: crate::agent_chat::Engine,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    fn new(config: MockConfig) -> Shared {
        Shared {
            config,
            cancel: CancellationToken::new(),
            received: Mutex::new(Vec::new()),
            failures: Mutex::new(Vec::new()),
            conns: Mutex::new(HashMap::new()),
            accepted: AtomicUsize::new(0),
            requests: Mutex::new(Vec::new()),
            ids: Arc::new(yui_demo::push::Ids::default()),
            changed: watch::Sender::new(0),
            agent: crate::agent_chat::Engine::default(),
        }
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// A server-wide counter for minted ids (connection ids, …).
    pub(crate) fn next_seq(&self) -> u64 {
        self.ids.next()
    }

    /// Records an SSE request; returns its 1-based index across both endpoints.
    pub(crate) fn record_request(&self, request: RecordedRequest) -> usize {
        let n = {
            let mut requests = lock(&self.requests);
            requests.push(request);
            requests.len()
        };
        self.bump();
        n
    }

    /// Records a JSON frame a client sent on `/ws`.
    pub(crate) fn record(&self, frame: Value) {
        lock(&self.received).push(frame);
        self.bump();
    }

    /// Records a scenario failure (expectation not met).
    pub(crate) fn fail(&self, msg: String) {
        tracing::warn!(event = "scenario_failure", "{msg}");
        lock(&self.failures).push(msg);
    }

    /// Registers an accepted connection; returns its id and its 0-based
    /// index among all connections accepted so far.
    pub(crate) fn register(&self, out: Out, ready: Arc<AtomicBool>) -> (u64, usize) {
        let id = self.next_seq();
        let index = self.accepted.fetch_add(1, Ordering::SeqCst);
        lock(&self.conns).insert(id, ConnHandle { out, ready });
        self.bump();
        (id, index)
    }

    /// Forgets a closed connection.
    pub(crate) fn unregister(&self, id: u64) {
        lock(&self.conns).remove(&id);
        self.bump();
    }

    fn open(&self) -> usize {
        lock(&self.conns).len()
    }

    /// Waits until `check` holds or `timeout` passes; returns the last value of `check`.
    async fn wait_until<T>(&self, timeout: Duration, mut check: impl FnMut() -> Option<T>) -> Option<T> {
        let mut rx = self.changed.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(v) = check() {
                return Some(v);
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                _ => return check(),
            }
        }
    }
}

/// A running mock backend. Dropping it stops the server.
pub struct MockServer {
    shared: Arc<Shared>,
    serving: Serving,
}

impl std::fmt::Debug for MockServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockServer").field("addr", &self.addr()).finish_non_exhaustive()
    }
}

impl MockServer {
    /// Binds `127.0.0.1:<config.port>` and serves in a spawned task.
    /// A scenario carrying both `steps` and `connections` is refused.
    pub async fn start(config: MockConfig) -> anyhow::Result<MockServer> {
        if let crate::Mode::Scenario(scenario) = &config.mode {
            scenario.validate()?;
        }
        let port = config.port;
        let shared = Arc::new(Shared::new(config));
        let recorded = shared.clone();
        let app = routes(get(crate::push::ws_handler), post(crate::http::responses), post(crate::http::chat_completions), shared.clone())
            // What out-of-process tests read back (the e2e tests): every frame
            // received on `/ws` so far, as one JSON array.
            .route("/v1/models", get(crate::http::models).with_state(shared.clone()))
            .route("/v1/audio/speech", axum::routing::post(crate::audio::speech).with_state(shared.clone()))
            .route("/v1/audio/voices", get(crate::audio::voices))
            .route("/v1/audio/transcriptions", axum::routing::post(crate::audio::transcriptions).with_state(shared.clone()))
            .route("/chat", axum::routing::post(crate::agent_chat::chat).with_state(shared.clone()))
            .route("/approve/{aid}", axum::routing::post(crate::agent_chat::approve).with_state(shared.clone()))
            .route("/cancel/{run_id}", axum::routing::post(crate::agent_chat::cancel).with_state(shared.clone()))
            .route("/fork/{cid}/{idx}", axum::routing::post(crate::agent_chat::fork).with_state(shared.clone()))
            .route("/version/{cid}/{idx}/{n}", axum::routing::post(crate::agent_chat::version).with_state(shared.clone()))
            .route("/messages/{cid}/{idx}", axum::routing::post(crate::agent_chat::delete_exchange).with_state(shared.clone()))
            .route("/chats", get(crate::agent_chat::list_chats).with_state(shared.clone()))
            .route("/chats/{cid}", get(crate::agent_chat::get_chat).delete(crate::agent_chat::delete_chat).with_state(shared.clone()))
            .route("/reset", axum::routing::post(crate::agent_chat::reset).with_state(shared.clone()))
            .route(REQUESTS_PATH, {
                let shared = shared.clone();
                get(move || {
                    let list: Vec<Value> = lock(&shared.requests).iter().map(|r| serde_json::json!({"path": r.path, "body": r.body})).collect();
                    async move { axum::Json(list) }
                })
            })
            .route(PUSH_PATH, {
                let shared = shared.clone();
                axum::routing::post(move |axum::Json(frame): axum::Json<Value>| {
                    let sent = push_to(&shared, frame);
                    async move {
                        if sent {
                            axum::http::StatusCode::OK
                        } else {
                            axum::http::StatusCode::CONFLICT
                        }
                    }
                })
            })
            .route(
                RECEIVED_PATH,
                get(move || {
                    let frames = lock(&recorded.received).clone();
                    async move { axum::Json(frames) }
                }),
            );
        let serving = Serving::start(port, app, shared.cancel.clone()).await?;
        tracing::info!(event = "mock_listening", addr = %serving.addr());
        Ok(MockServer { shared, serving })
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.serving.addr()
    }

    /// `http://127.0.0.1:PORT` (the client appends `/ws` itself).
    pub fn base_url(&self) -> String {
        self.serving.base_url()
    }

    /// Every JSON frame any client sent on `/ws`, in arrival order, across
    /// connections (hello included; malformed and oversize frames excluded).
    pub fn received(&self) -> Vec<Value> {
        lock(&self.shared.received).clone()
    }

    /// Waits until the `nth` (0-based) received frame whose `"type"` is
    /// `frame_type` has arrived and returns it; `None` on timeout.
    pub async fn wait_for_frame(&self, frame_type: &str, nth: usize, timeout: Duration) -> Option<Value> {
        self.shared
            .wait_until(timeout, || lock(&self.shared.received).iter().filter(|f| f.get("type").and_then(Value::as_str) == Some(frame_type)).nth(nth).cloned())
            .await
    }

    /// Every request sent to the HTTP endpoints (`/v1/…`, and the
    /// `agent_chat` ones: `/chat`, `/approve/{aid}`, `/cancel/{run_id}`,
    /// `/fork/{cid}/{idx}`, `/version/{cid}/{u}/{n}`, `/messages/{cid}/{u}`,
    /// `/chats/{cid}`, `/chats`, `/reset`), in arrival order (recorded
    /// before the key check and the answer).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared.requests).clone()
    }

    /// Waits until the `nth` (0-based) request to `path` (e.g.
    /// `"/v1/responses"`) has arrived and returns it; `None` on timeout.
    pub async fn wait_for_request(&self, path: &str, nth: usize, timeout: Duration) -> Option<RecordedRequest> {
        self.shared.wait_until(timeout, || lock(&self.shared.requests).iter().filter(|r| r.path == path).nth(nth).cloned()).await
    }

    /// The `agent_chat` conversation stored as `chat_id` `cid`, one JSON
    /// object per message as the engine stores it: `{role, content}`, plus
    /// `versions` and `active` (0-based) once regenerated; `None` when the
    /// engine has no such conversation.
    pub fn conversation(&self, cid: &str) -> Option<Vec<Value>> {
        self.shared.agent.conversation(cid)
    }

    /// How many messages the `agent_chat` agent of `session` has in its
    /// history (a prompt and a reply per finished run).
    pub fn agent_history(&self, session: &str) -> usize {
        self.shared.agent.history(session)
    }

    /// The `data:` URL attachments of every `/chat` request so far, one
    /// list per request, in arrival order.
    pub fn media(&self) -> Vec<Vec<String>> {
        self.shared.agent.media()
    }

    /// How many `/ws` connections were accepted so far (closed ones included).
    pub fn connections(&self) -> usize {
        self.shared.accepted.load(Ordering::SeqCst)
    }

    /// How many `/ws` connections are open right now.
    pub fn open_connections(&self) -> usize {
        self.shared.open()
    }

    /// Waits until at least `n` `/ws` connections were accepted in total;
    /// returns whether that happened inside `timeout`.
    pub async fn wait_for_connections(&self, n: usize, timeout: Duration) -> bool {
        self.shared.wait_until(timeout, || (self.connections() >= n).then_some(())).await.is_some()
    }

    /// Sends an unsolicited frame to every connected client that got its
    /// ready (for backend-initiated renders in tests); `false` if none.
    pub async fn push(&self, frame: Value) -> bool {
        push_to(&self.shared, frame)
    }

    /// Closes every connected socket with `code` (fault injection).
    pub fn close_all(&self, code: u16) {
        for conn in lock(&self.shared.conns).values() {
            conn.out.close(code);
        }
    }

    /// Scenario expectations that were not met (`expect` timeouts and `match`
    /// mismatches), in the order they happened, across connections.
    pub fn failures(&self) -> Vec<String> {
        lock(&self.shared.failures).clone()
    }

    /// Stops serving: open sockets are closed and in-flight streams end.
    pub async fn shutdown(self) {
        self.serving.shutdown().await;
    }
}

impl yui_demo::serve::Server for MockServer {
    fn base_url(&self) -> String {
        MockServer::base_url(self)
    }

    async fn shutdown(self) {
        MockServer::shutdown(self).await;
    }
}

/// Send `frame` to every connected client that got its ready; false if none.
fn push_to(shared: &Shared, frame: Value) -> bool {
    let conns = lock(&shared.conns);
    let mut sent = false;
    for conn in conns.values() {
        if conn.ready.load(Ordering::SeqCst) && conn.out.frame(frame.clone()) {
            sent = true;
        }
    }
    sent
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_handle_can_live_in_app_state() {
        fn send_sync<T: Send + Sync + 'static>() {}
        send_sync::<super::MockServer>();
        send_sync::<crate::MockConfig>();
    }
}
