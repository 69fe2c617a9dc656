//! The demo's `agent_chat` engine: the wire of the PraisonAI desktop engine
//! (see `docs/transports.md`), with the demo's own replies.
//!
//! * `POST /chat` `{prompt, chat_id, session, run_id, regenerate_of, tools,
//!   attachments}` → `text/event-stream` (`Connection: close`), each event
//!   `event: <name>` + `data: <json>` with no `type` key. `chat_id` (default:
//!   `session`, default `default`) is the stored conversation; `session`
//!   keeps the in-memory history (the reasoning recalls its last
//!   utterance). The reply is [`demo_reply`](crate::demo_reply) to the
//!   prompt (its `<client_context>` block skipped): `start {run_id}` (the
//!   client's, `""` when none), `reasoning`s, `delta`s, then on success the
//!   exchange is stored and `usage`, `end {user_index, assistant_index,
//!   versions, active}` follow. Asked the time, the `get_time` tool's
//!   `tool_drafting`, `tool_call`, `tool_result` come first. Asked to "run"
//!   something or to list files, `approval_request {approval_id, call_id}`
//!   goes out and the run WAITS for `POST /approve/{aid}` or
//!   [`APPROVAL_TIMEOUT`]; then the trio comes, with a call id of its own
//!   (`c_<k>_list_files`): allowed, the tool lists the pretend files;
//!   denied or timed out, it returns "The user declined this tool call."
//!   (still `ok`). "fail" → `error kind rate_limit`. `error` and
//!   `cancelled` end a run with no `usage` and no `end`, and store nothing.
//!   `regenerate_of: u` with an answer at `u + 1` files the answer as its
//!   newest version; any other `u` appends a new exchange. Attachments (the
//!   first 5): `{name, url: "data:…"}` is media, `{name, text}` is folded
//!   into the prompt as `--- attached: <name> ---`.
//! * `POST /approve/{aid}` `{choice}`: `allow`, `always` (remembered: later
//!   `list_files` calls run without asking), anything else or nothing =
//!   deny → `200 {ok: true, error: null}`; no such pending approval → 404.
//! * `POST /cancel/{run_id}` → `200 {ok, run_id, error}`, 404 when the run is
//!   not live; the run sends `cancelled {run_id}` at its next event.
//! * `POST /version/{cid}/{u}/{n}` → `{ok, active, count, content}`;
//!   `POST /fork/{cid}/{idx}` → `{ok, id}` (messages `..=idx`);
//!   `POST /messages/{cid}/{u}` deletes the exchange → `{ok, remaining}`;
//!   `DELETE /chats/{cid}` → `{ok: true}`; `GET /chats` → `{chats}`;
//!   `GET /chats/{cid}` → the stored conversation; `POST /reset {session}`
//!   forgets the session's history. Refusals are 404 `{ok: false, error}`.
//!
//! With a key set, every route needs `Authorization: Bearer <key>` (else
//! 401 JSON), as the demo's other HTTP routes (the engine itself ignores
//! the header).

pub mod chats;
pub mod events;
mod run;

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use crate::http::{check_bearer, parse_body, HttpReply};
use crate::reply::{cut_chars, local_time_hhmm, strip_context};
use crate::server::Shared;
use chats::{Chats, Refused};
use run::{Ask, Run, Stop};

/// How long a run waits for an approval before it denies the call (the
/// engine's default 300 s).
pub const APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

/// The session (and conversation) of a `POST /chat` that names neither.
pub const DEFAULT_CONVERSATION: &str = "default";

/// The tool a question about the time runs.
pub const TIME_TOOL: &str = "get_time";

/// The tool that needs an approval (it lists a pretend folder).
pub const FILES_TOOL: &str = "list_files";

/// How many attachments a turn takes (the rest are ignored).
pub const MAX_ATTACHMENTS: usize = 5;

/// How many characters of a text attachment go into the prompt.
pub const ATTACHMENT_TEXT_CHARS: usize = 100_000;

/// How many characters of an attachment's name are kept.
pub const ATTACHMENT_NAME_CHARS: usize = 120;

/// An approval answer, the `choice` of `POST /approve/{aid}`.
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

    /// The decision a `POST /approve` body carries, as the engine reads it:
    /// `choice` `allow` or `always`; anything else, a missing choice or a
    /// body that is not JSON is a deny.
    pub fn of_body(body: &[u8]) -> Decision {
        let choice = serde_json::from_slice::<Value>(body).ok().and_then(|b| b.get("choice").and_then(Value::as_str).map(str::to_string));
        match choice.as_deref().and_then(Decision::parse) {
            Some(Decision::Always) => Decision::Always,
            Some(Decision::Allow) => Decision::Allow,
            _ => Decision::Deny,
        }
    }
}

/// A run waiting for one approval.
struct Pending {
    /// The run's number.
    run: u64,
    answer: oneshot::Sender<Decision>,
}

/// What the engine keeps between requests (lives in the server's state).
#[derive(Default)]
pub(crate) struct Engine {
    state: Mutex<EngineState>,
}

#[derive(Default)]
pub(crate) struct EngineState {
    /// The stored conversations, by `chat_id`.
    chats: Chats,
    /// Each session's utterances so far (its agent's history).
    sessions: HashMap<String, Vec<String>>,
    /// Approval id → the run waiting for it.
    approvals: HashMap<String, Pending>,
    /// The client's run id → (the run's number, its cancel token), while
    /// the run streams.
    runs: HashMap<String, (u64, CancellationToken)>,
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
        .route("/cancel/{run_id}", post(cancel))
        .route("/fork/{cid}/{idx}", post(fork))
        .route("/version/{cid}/{idx}/{n}", post(version))
        .route("/messages/{cid}/{idx}", post(delete_exchange))
        .route("/chats", get(list_chats))
        .route("/chats/{cid}", get(get_chat).delete(delete_chat))
        .route("/reset", post(reset))
        .with_state(shared)
}

/// Forgets a run (and its open approvals) when its task ends, however.
struct RunGuard {
    shared: Arc<Shared>,
    n: u64,
    run_id: String,
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        let mut st = self.shared.agent.lock();
        if st.runs.get(&self.run_id).is_some_and(|(n, _)| *n == self.n) {
            st.runs.remove(&self.run_id);
        }
        st.approvals.retain(|_, p| p.run != self.n);
    }
}

fn reply(shared: &Shared, reply: HttpReply) -> Response {
    reply.into_response(0.0, shared.cancel.clone())
}

fn answer(status: StatusCode, body: Value) -> Response {
    (status, Json(body)).into_response()
}

fn refused(why: Refused) -> Response {
    answer(StatusCode::NOT_FOUND, json!({ "ok": false, "error": why.message() }))
}

/// Checks the key; `Some` is the 401 to answer.
fn keyed(shared: &Shared, headers: &HeaderMap) -> Option<Response> {
    check_bearer(shared.config.key.as_deref(), headers).err().map(|r| reply(shared, r))
}

/// The `POST /chat` body read as the engine reads it.
fn read_ask(body: &Value) -> Ask {
    let text = |k: &str| body.get(k).and_then(Value::as_str).unwrap_or_default();
    let session = Some(text("session")).filter(|s| !s.is_empty()).unwrap_or(DEFAULT_CONVERSATION).to_string();
    let chat_id = Some(text("chat_id")).filter(|s| !s.is_empty()).map_or_else(|| session.clone(), str::to_string);
    let run_id = match body.get("run_id") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let typed = text("prompt").to_string();
    let mut prompt = typed.clone();
    let mut attached = Vec::new();
    let items = body.get("attachments").and_then(Value::as_array);
    for item in items.into_iter().flatten().take(MAX_ATTACHMENTS) {
        let name = item.get("name").and_then(Value::as_str).unwrap_or("file");
        let name = cut_chars(name, ATTACHMENT_NAME_CHARS);
        let url = item.get("url").and_then(Value::as_str);
        if !url.is_some_and(|u| u.starts_with("data:")) {
            let text = item.get("text").and_then(Value::as_str).unwrap_or_default();
            let text = cut_chars(text, ATTACHMENT_TEXT_CHARS);
            prompt.push_str(&format!("\n\n--- attached: {name} ---\n{text}"));
        }
        attached.push(name);
    }
    Ask {
        chat_id,
        session,
        run_id,
        regenerate_of: body.get("regenerate_of").and_then(Value::as_u64),
        tools: body.get("tools") != Some(&Value::Bool(false)),
        prompt,
        utterance: strip_context(&typed),
        attached,
    }
}

async fn chat(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let began = Instant::now();
    let body = match check_bearer(shared.config.key.as_deref(), &headers).and_then(|()| parse_body(&body)) {
        Ok(b) if b.is_object() => b,
        Ok(_) => {
            let r = HttpReply::error(400, "the body must be a JSON object", "invalid_request_error", "invalid_json");
            return reply(&shared, r);
        }
        Err(r) => return reply(&shared, r),
    };
    let mut ask = read_ask(&body);
    let n = shared.ids.next();
    let cancel = CancellationToken::new();
    let history = {
        let mut st = shared.agent.lock();
        if !ask.run_id.is_empty() {
            st.runs.insert(ask.run_id.clone(), (n, cancel.clone()));
        }
        // A regenerate with no text answers the stored question again.
        if let Some(u) = ask.regenerate_of.and_then(|u| usize::try_from(u).ok()) {
            if ask.utterance.is_empty() {
                if let Some(kept) = st.chats.user_text(&ask.chat_id, u) {
                    ask.utterance = strip_context(kept);
                    ask.prompt = kept.to_string();
                }
            }
        }
        st.sessions.get(&ask.session).cloned().unwrap_or_default()
    };
    tracing::info!(
        event = "agent_chat_request", run_id = %ask.run_id, chat_id = %ask.chat_id,
        session = %ask.session, regenerate_of = ?ask.regenerate_of, tools = ask.tools,
        attachments = ask.attached.len(),
    );
    let (tx, rx) = mpsc::channel::<String>(64);
    let guard = RunGuard { shared: shared.clone(), n, run_id: ask.run_id.clone() };
    let run = Run { shared: shared.clone(), n, ask, tx, cancel, began, first: OnceLock::new(), calls: Default::default() };
    tokio::spawn(async move {
        let _guard = guard;
        if let Err(Stop::Cancelled) = run.play(&history, &local_time_hhmm()).await {
            let cancelled = events::cancelled(&run.msg_id(), &run.ask.run_id);
            let _ = run.tx.send(events::frame(&cancelled)).await;
            tracing::info!(event = "agent_chat_cancelled", run_id = %run.ask.run_id);
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|s| (Ok::<_, Infallible>(s), rx)) });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .header(header::CONNECTION, "close")
        .body(Body::from_stream(stream))
        .expect("static response parts")
}

async fn approve(State(shared): State<Arc<Shared>>, Path(aid): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let decision = Decision::of_body(&body);
    let pending = shared.agent.lock().approvals.remove(&aid);
    tracing::info!(event = "agent_chat_approve", approval_id = %aid, decision = ?decision, pending = pending.is_some());
    if pending.is_some_and(|p| p.answer.send(decision).is_ok()) {
        Json(json!({ "ok": true, "error": null })).into_response()
    } else {
        answer(StatusCode::NOT_FOUND, json!({ "ok": false, "error": "no such pending approval" }))
    }
}

async fn cancel(State(shared): State<Arc<Shared>>, Path(run_id): Path<String>, headers: HeaderMap) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let live = shared.agent.lock().runs.get(&run_id).map(|(_, t)| t.clone());
    tracing::info!(event = "agent_chat_cancel", run_id = %run_id, live = live.is_some());
    match live {
        Some(token) => {
            token.cancel();
            Json(json!({ "ok": true, "run_id": run_id, "error": null })).into_response()
        }
        None => answer(StatusCode::NOT_FOUND, json!({ "ok": false, "run_id": run_id, "error": "no such active run" })),
    }
}

async fn fork(State(shared): State<Arc<Shared>>, Path((cid, idx)): Path<(String, String)>, headers: HeaderMap) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let Ok(idx) = idx.parse() else {
        return refused(Refused::NoConversation);
    };
    let forked = shared.agent.lock().chats.fork(&cid, idx);
    match forked {
        Ok(id) => Json(json!({ "ok": true, "id": id })).into_response(),
        Err(why) => refused(why),
    }
}

async fn version(State(shared): State<Arc<Shared>>, Path((cid, idx, n)): Path<(String, String, String)>, headers: HeaderMap) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let (Ok(u), Ok(n)) = (idx.parse(), n.parse()) else {
        return refused(Refused::NoVersion);
    };
    let picked = shared.agent.lock().chats.pick_version(&cid, u, n);
    match picked {
        Ok((active, count, content)) => Json(json!({ "ok": true, "active": active, "count": count, "content": content })).into_response(),
        Err(why) => refused(why),
    }
}

async fn delete_exchange(State(shared): State<Arc<Shared>>, Path((cid, idx)): Path<(String, String)>, headers: HeaderMap) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let Ok(u) = idx.parse() else {
        return refused(Refused::NoMessage);
    };
    let deleted = shared.agent.lock().chats.delete_exchange(&cid, u);
    match deleted {
        Ok(remaining) => Json(json!({ "ok": true, "remaining": remaining })).into_response(),
        Err(why) => refused(why),
    }
}

async fn delete_chat(State(shared): State<Arc<Shared>>, Path(cid): Path<String>, headers: HeaderMap) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let existed = shared.agent.lock().chats.delete_chat(&cid);
    tracing::info!(event = "agent_chat_delete_chat", chat_id = %cid, existed);
    Json(json!({ "ok": true })).into_response()
}

async fn list_chats(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let chats = shared.agent.lock().chats.list();
    Json(json!({ "chats": chats })).into_response()
}

async fn get_chat(State(shared): State<Arc<Shared>>, Path(cid): Path<String>, headers: HeaderMap) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let chat = shared.agent.lock().chats.get(&cid).map(chats::Chat::to_json);
    match chat {
        Some(c) => Json(c).into_response(),
        None => refused(Refused::NoConversation),
    }
}

async fn reset(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    if let Some(r) = keyed(&shared, &headers) {
        return r;
    }
    let session = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|b| b.get("session").and_then(Value::as_str).map(str::to_string))
        .unwrap_or_else(|| DEFAULT_CONVERSATION.to_string());
    shared.agent.lock().sessions.remove(&session);
    Json(json!({ "ok": true })).into_response()
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

    #[test]
    fn a_body_without_allow_is_a_deny() {
        assert_eq!(Decision::of_body(br#"{"choice":"allow"}"#), Decision::Allow);
        assert_eq!(Decision::of_body(br#"{"choice":"always"}"#), Decision::Always);
        for deny in [&br#"{"choice":"deny"}"#[..], b"{}", b"", b"not json", br#"{"decision":"allow"}"#, br#"{"choice":"Allow"}"#] {
            assert_eq!(Decision::of_body(deny), Decision::Deny, "{:?}", String::from_utf8_lossy(deny));
        }
    }
}
