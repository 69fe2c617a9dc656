//! The demo's `agent_chat` engine (seed 004): `POST /chat` streams one
//! assistant turn as the eleven typed events, and the side endpoints answer
//! approvals, cancel runs and edit the kept conversations.
//!
//! * `POST /chat` `{message, conversation_id?, regenerate_of?,
//!   attachments?}` → `text/event-stream`, each event as `event: <type>` +
//!   `data: <json with "type">`. The reply is [`demo_reply`](crate::demo_reply)
//!   to the user's text (the `<client_context>` block is skipped):
//!   `start → reasoning ×2 → delta ×~3 → usage → end`. Asked the time, a
//!   `get_time` tool runs before the text (`tool_drafting → tool_call →
//!   tool_result`). Asked to "run" something or to list files, it drafts a
//!   harmless `list_files` call, sends `approval_request` and WAITS for
//!   `POST /approve/{aid}` or [`APPROVAL_TIMEOUT`]: allow / always →
//!   `tool_call → tool_result ok` and the reply names the (pretend) files;
//!   deny or timeout → `tool_result ok:false` and a polite reply. After
//!   `always`, later `list_files` calls run without asking. "fail" →
//!   `error kind rate_limit` (no `end`).
//! * Conversations are kept per `conversation_id` (absent:
//!   [`DEFAULT_CONVERSATION`]): the user message at `2k`, the answer at
//!   `2k + 1`; `end` reports them with `versions` and `active` (0-based).
//!   `regenerate_of: idx` files the answer as a new version of message
//!   `idx` (no new user message) and makes it the active one.
//! * `POST /approve/{aid}` `{decision, run_id?}` → `200 {"ok": true}`; an
//!   approval nobody waits for → 404, another run's `run_id` → 409, a
//!   decision other than allow / always / deny → 400.
//! * `POST /cancel` `{run_id}`: the live run sends `cancelled {msg_id,
//!   run_id}` and its stream ends; `200 {"ok": <was it live>}`.
//! * `POST /fork/{cid}/{idx}` → `200 {"conversation_id": "<cid>-fork-<n>"}`;
//!   `POST /version/{cid}/{idx}/{n}` and `DELETE /messages/{cid}/{idx}` →
//!   `200 {"ok": true}`. A missing conversation, message or version → 404,
//!   an index that is not a number → 400.
//!
//! With a key set, every route needs `Authorization: Bearer <key>` (else
//! 401 JSON), as the demo's other HTTP routes.

pub mod events;
mod run;
pub mod store;

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::http::{check_bearer, parse_body, HttpReply, SseEvent};
use crate::reply::{local_time_hhmm, strip_context};
use crate::server::Shared;
use run::{Run, Stop};
use store::Conversations;

/// How long a run waits for an approval before it denies the call (the
/// seed's 300 s).
pub const APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

/// The conversation of a `POST /chat` without `conversation_id`.
pub const DEFAULT_CONVERSATION: &str = "default";

/// The tool a question about the time runs.
pub const TIME_TOOL: &str = "get_time";

/// The tool that needs an approval (it lists a pretend folder).
pub const FILES_TOOL: &str = "list_files";

/// An approval answer, the `decision` of `POST /approve/{aid}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// `"allow"`: run this call.
    Allow,
    /// `"always"`: run this call and later calls of the same tool.
    Always,
    /// `"deny"`: do not run it.
    Deny,
}

impl Decision {
    /// The decision spelled `s` (`allow`, `always` or `deny`, exactly);
    /// `None` for anything else.
    pub fn parse(s: &str) -> Option<Decision> {
        match s {
            "allow" => Some(Decision::Allow),
            "always" => Some(Decision::Always),
            "deny" => Some(Decision::Deny),
            _ => None,
        }
    }
}

/// A run waiting for one approval.
struct Pending {
    run_id: String,
    answer: oneshot::Sender<Decision>,
}

/// What the engine keeps between requests (lives in the server's state).
#[derive(Default)]
pub(crate) struct Engine {
    state: Mutex<EngineState>,
}

#[derive(Default)]
pub(crate) struct EngineState {
    conversations: Conversations,
    /// Approval id → the run waiting for it.
    approvals: HashMap<String, Pending>,
    /// Run id → its cancel token, while the run streams.
    runs: HashMap<String, CancellationToken>,
    /// Tools the user allowed for good ("always").
    always: HashSet<String>,
}

impl Engine {
    pub(crate) fn lock(&self) -> MutexGuard<'_, EngineState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The `agent_chat` routes on the demo's state.
pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/chat", post(chat))
        .route("/approve/{aid}", post(approve))
        .route("/cancel", post(cancel))
        .route("/fork/{cid}/{idx}", post(fork))
        .route("/version/{cid}/{idx}/{n}", post(version))
        .route("/messages/{cid}/{idx}", delete(delete_message))
        .with_state(shared)
}

/// Forgets a run (and its open approvals) when its task ends, however.
struct RunGuard {
    shared: Arc<Shared>,
    run_id: String,
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        let mut st = self.shared.agent.lock();
        st.runs.remove(&self.run_id);
        st.approvals.retain(|_, p| p.run_id != self.run_id);
    }
}

fn reply(shared: &Shared, reply: HttpReply) -> Response {
    reply.into_response(0.0, shared.cancel.clone())
}

fn answer(status: StatusCode, body: Value) -> Response {
    (status, Json(body)).into_response()
}

fn ok() -> Response {
    Json(json!({ "ok": true })).into_response()
}

fn not_found(what: String) -> Response {
    answer(StatusCode::NOT_FOUND, json!({ "error": what }))
}

/// Checks the key, then parses the path's indices; `Err` is the answer.
fn side<const N: usize>(
    shared: &Shared,
    headers: &HeaderMap,
    parts: [&str; N],
) -> Result<[usize; N], Box<Response>> {
    check_bearer(shared.config.key.as_deref(), headers).map_err(|r| Box::new(reply(shared, r)))?;
    let mut out = [0; N];
    for (o, s) in out.iter_mut().zip(parts) {
        *o = s.parse().map_err(|_| {
            let why = format!("{s:?} is not a message index");
            Box::new(answer(StatusCode::BAD_REQUEST, json!({ "error": why })))
        })?;
    }
    Ok(out)
}

async fn chat(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let began = Instant::now();
    let body = match check_bearer(shared.config.key.as_deref(), &headers)
        .and_then(|()| parse_body(&body))
    {
        Ok(b) => b,
        Err(r) => return reply(&shared, r),
    };
    let message = body["message"].as_str().unwrap_or_default().to_string();
    let cid = body["conversation_id"]
        .as_str()
        .filter(|c| !c.is_empty())
        .unwrap_or(DEFAULT_CONVERSATION)
        .to_string();
    let n = shared.ids.next();
    let cancel = CancellationToken::new();
    let run_id = format!("run-{n}");
    let (slot, message) = {
        let mut st = shared.agent.lock();
        st.runs.insert(run_id.clone(), cancel.clone());
        match body.get("regenerate_of").filter(|v| !v.is_null()) {
            None => (
                Ok(st.conversations.begin(&cid, &strip_context(&message))),
                message,
            ),
            Some(v) => match v
                .as_u64()
                .and_then(|i| st.conversations.regenerate(&cid, i as usize))
            {
                // The answer is to the kept user message when none is sent.
                Some((slot, kept)) if strip_context(&message).is_empty() => (Ok(slot), kept),
                Some((slot, _)) => (Ok(slot), message),
                None => (
                    Err(format!("no answer {v} to regenerate in conversation {cid}")),
                    message,
                ),
            },
        }
    };
    let attachments = body["attachments"].as_array().map_or(0, Vec::len);
    tracing::info!(event = "agent_chat_request", run_id = %run_id, conversation_id = %cid, attachments, slot = ?slot);
    let (tx, rx) = mpsc::channel::<String>(64);
    let guard = RunGuard {
        shared: shared.clone(),
        run_id,
    };
    let run = Run {
        shared: shared.clone(),
        n,
        cid,
        tx,
        cancel,
        began,
        first: OnceLock::new(),
    };
    tokio::spawn(async move {
        let _guard = guard;
        if let Err(Stop::Cancelled) = run.play(&message, slot, &local_time_hhmm()).await {
            let cancelled = events::cancelled(&run.msg_id(), &run.run_id());
            let _ = run.tx.send(SseEvent::named(0.0, &cancelled).wire()).await;
            tracing::info!(event = "agent_chat_cancelled", run_id = %run.run_id());
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|s| (Ok::<_, Infallible>(s), rx))
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(stream))
        .expect("static response parts")
}

async fn approve(
    State(shared): State<Arc<Shared>>,
    Path(aid): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let body = match check_bearer(shared.config.key.as_deref(), &headers)
        .and_then(|()| parse_body(&body))
    {
        Ok(b) => b,
        Err(r) => return reply(&shared, r),
    };
    let mut st = shared.agent.lock();
    let Some(pending) = st.approvals.get(&aid) else {
        return not_found(format!("no approval {aid} is waiting"));
    };
    if let Some(run_id) = body["run_id"].as_str() {
        if run_id != pending.run_id {
            let why = format!("approval {aid} belongs to another run");
            return answer(StatusCode::CONFLICT, json!({ "error": why }));
        }
    }
    let Some(decision) = body["decision"].as_str().and_then(Decision::parse) else {
        let why = "decision must be allow, always or deny";
        return answer(StatusCode::BAD_REQUEST, json!({ "error": why }));
    };
    if let Some(pending) = st.approvals.remove(&aid) {
        let _ = pending.answer.send(decision);
    }
    ok()
}

async fn cancel(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(r) = check_bearer(shared.config.key.as_deref(), &headers) {
        return reply(&shared, r);
    }
    let run_id = parse_body(&body)
        .ok()
        .and_then(|b| b["run_id"].as_str().map(str::to_string))
        .unwrap_or_default();
    let live = shared.agent.lock().runs.get(&run_id).cloned();
    tracing::info!(event = "agent_chat_cancel", run_id = %run_id, live = live.is_some());
    if let Some(token) = &live {
        token.cancel();
    }
    Json(json!({ "ok": live.is_some() })).into_response()
}

async fn fork(
    State(shared): State<Arc<Shared>>,
    Path((cid, idx)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let [idx] = match side(&shared, &headers, [&idx]) {
        Ok(i) => i,
        Err(r) => return *r,
    };
    match shared.agent.lock().conversations.fork(&cid, idx) {
        Some(id) => Json(json!({ "conversation_id": id })).into_response(),
        None => not_found(format!("no message {idx} in conversation {cid}")),
    }
}

async fn version(
    State(shared): State<Arc<Shared>>,
    Path((cid, idx, n)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    let [idx, n] = match side(&shared, &headers, [&idx, &n]) {
        Ok(i) => i,
        Err(r) => return *r,
    };
    if shared.agent.lock().conversations.pick(&cid, idx, n) {
        ok()
    } else {
        not_found(format!(
            "no version {n} of message {idx} in conversation {cid}"
        ))
    }
}

async fn delete_message(
    State(shared): State<Arc<Shared>>,
    Path((cid, idx)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let [idx] = match side(&shared, &headers, [&idx]) {
        Ok(i) => i,
        Err(r) => return *r,
    };
    if shared.agent.lock().conversations.delete(&cid, idx) {
        ok()
    } else {
        not_found(format!("no message {idx} in conversation {cid}"))
    }
}

#[cfg(test)]
mod tests {
    use super::Decision;

    #[test]
    fn decisions_parse_exactly() {
        assert_eq!(Decision::parse("allow"), Some(Decision::Allow));
        assert_eq!(Decision::parse("always"), Some(Decision::Always));
        assert_eq!(Decision::parse("deny"), Some(Decision::Deny));
        for bad in ["", "Allow", "yes", " deny", "denied"] {
            assert_eq!(Decision::parse(bad), None, "{bad:?}");
        }
    }
}
