//! A fake of the `agent_chat` engine that speaks the real engine's wire
//! (the PraisonAI desktop engine, protocol version 2; `docs/transports.md`):
//! conversations stored per `chat_id`, one agent history per `session`,
//! approvals that block the run, cancels checked between chunks.
//!
//! * `POST /chat` `{prompt, chat_id, session, run_id, regenerate_of, tools,
//!   attachments}`: the request is recorded (JSON body, `Authorization`),
//!   the key checked like the other endpoints (401 JSON; the real engine
//!   ignores it), a body that is not JSON is a 400. `chat_id` defaults to
//!   `session`, `session` to `"default"`. Of the attachments (first 5), an
//!   item whose `url` is a `data:` URL is a picture or PDF (counted in
//!   [`MockServer::media`](crate::MockServer::media)); any other item's
//!   `text` is appended to the prompt as `--- attached: <name> ---`. The
//!   answer is `text/event-stream` with `Connection: close`, each event as
//!   `event: <name>` + `data: <json>` with `msg_id` and no `"type"` key
//!   ([`events`]). What the turn does depends on the user's text (the part
//!   after `</client_context>`), see [`Plan`]:
//!   - plain: `start → reasoning → delta ×N → tool_drafting → tool_call →
//!     tool_result → usage → end`;
//!   - "history": the reply is [`history_reply`]: how many messages the
//!     session's agent had seen before this turn;
//!   - "approve": `start → reasoning → approval_request`, then the run
//!     BLOCKS until `POST /approve/{aid}` or the approval timeout
//!     ([`MockConfig::approval_timeout`](crate::MockConfig), default 300 s,
//!     a deny). Allowed (or always allowed before): the tool runs; denied:
//!     it answers [`DENIED_OUTPUT`] (still `ok: true`). Then `tool_drafting
//!     → tool_call → tool_result` together, with the call id
//!     `c_<n>_<tool>`, NOT the approval's `call_id`; then the reply
//!     ([`SCRIPT_REPLY`], or [`DENIED_REPLY`] when nothing was allowed);
//!   - "approve twice": two approvals, one after the other (the second is
//!     asked once the first tool ran), then both tools' events;
//!   - "fail": `error kind internal` (no `end`, no `usage`);
//!   - "empty": `error kind empty` (no `end`, no `usage`);
//!   - "quoted": the tool's `output` is a JSON-quoted string and its
//!     `seconds` `null`;
//!   - "unsaved": the exchange is not saved: `end` has `null` indices.
//!
//!   Delays are [`EVENT_DELAY_MS`] × `MockConfig::pace` before each chunk.
//!   A cancel is seen only between chunks (never while a run waits for an
//!   approval): the run sends `cancelled {run_id}` and ends, with no
//!   `usage`, no `end`, nothing saved. On success the exchange is saved
//!   (`regenerate_of: u` files a new version of the answer to user message
//!   `u`), then `usage`, then `end {user_index, assistant_index, versions,
//!   active}`.
//! * `POST /approve/{aid}` `{"choice": "allow"|"always"|"deny"}`: a missing
//!   or other choice is a deny; "always" allows and remembers the tool.
//!   `200 {"ok": true, "error": null}`, or 404 `{"ok": false, "error": "no
//!   such pending approval"}`.
//! * `POST /cancel/{run_id}` (no body): `200 {"ok": true, "run_id", "error":
//!   null}` for a live run, else 404 `{"ok": false, "run_id", "error": "no
//!   such active run"}`.
//! * `POST /fork/{cid}/{idx}` → `{"ok": true, "id": "<cid>-f<n>"}` with
//!   messages `..=idx`; `POST /version/{cid}/{u}/{n}` → `{ok, active,
//!   count, content}`; `POST /messages/{cid}/{u}` deletes messages `u` and
//!   `u + 1` → `{ok, remaining}`; `DELETE /chats/{cid}` → `{ok: true}`;
//!   `GET /chats/{cid}` the stored chat (versioned answers shown as their
//!   active text with `version_count` and `version_active`); `GET /chats`;
//!   `POST /reset {session}` drops a session's history, which its next turn
//!   seeds again from the stored conversation, as the engine does (`GET /health` is
//!   the shared one of every mock route: `ok`). Unknown conversations and
//!   messages → 404.
//!
//! Every request is recorded first ([`MockServer::requests`](crate::MockServer::requests)).

pub mod events;
mod run;
pub mod store;

use crate::http::RecordedRequest;
use crate::server::Shared;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use yui_demo::http::check_bearer;

pub use store::Conversations;

/// The engine's protocol version this fake follows.
pub const PROTOCOL_VERSION: u64 = 2;

/// Base delay before each chunk, in milliseconds (scaled by the pace).
pub const EVENT_DELAY_MS: f64 = 40.0;

/// How long a run waits for an approval before it denies the call (300 s);
/// `MockConfig::approval_timeout` overrides it.
pub const APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

/// The tool the plain script calls.
pub const SCRIPT_TOOL: &str = "get_time";
/// The tool the approval script asks about.
pub const APPROVAL_TOOL: &str = "execute_command";

/// The reply text the script streams, one `delta` per word.
pub const SCRIPT_REPLY: &str = "The sea is calm tonight.";

/// The reply when every asked call was denied (or timed out).
pub const DENIED_REPLY: &str = "Okay, I won't run it.";

/// `tool_result.output` of a denied call (the engine's text; `ok` stays true).
pub const DENIED_OUTPUT: &str = "The user declined this tool call.";

/// `tool_result.output` of a call whose approval timed out: a deny.
pub const TIMED_OUT_OUTPUT: &str = DENIED_OUTPUT;

/// `tool_result.output` of an allowed call.
pub const TOOL_OUTPUT: &str = "notes.txt\n";

/// `error.message` of a "fail" turn (kind `internal`).
pub const FAIL_MESSAGE: &str = "RuntimeError: the engine failed (yui-mock)";

/// `error.message` of an "empty" turn (kind `empty`): the engine's text.
pub const EMPTY_MESSAGE: &str = "the engine produced no output";

/// The session (and chat) of a `POST /chat` that names none.
pub const DEFAULT_CONVERSATION: &str = "default";

/// The reply of a "history" turn: how many messages the session's agent
/// had before this turn.
pub fn history_reply(prior: usize) -> String {
    format!("I remember {prior} earlier messages.")
}

/// What a turn does, decided from the user's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Reply, then call [`SCRIPT_TOOL`].
    Plain,
    /// "history": say how much history the agent has.
    History,
    /// "approve": ask one approval for [`APPROVAL_TOOL`] and wait.
    Approve,
    /// "approve twice": ask two approvals, one after the other.
    ApproveTwice,
    /// "fail": `error kind internal`.
    Fail,
    /// "empty": `error kind empty`.
    Empty,
    /// "quoted": plain, with a JSON-quoted tool output and `seconds: null`.
    Quoted,
    /// "unsaved": plain, but the exchange is not saved (`end` indices null).
    Unsaved,
}

impl Plan {
    /// The plan for a `prompt`: its text after `</client_context>` (the
    /// whole prompt without one) is searched for "approve twice",
    /// "approve", "fail", "empty", "history", "quoted", "unsaved", in that
    /// order.
    pub fn of(prompt: &str) -> Plan {
        let text = prompt.rsplit_once("</client_context>").map_or(prompt, |(_, t)| t);
        let text = text.split("\n\n--- attached: ").next().unwrap_or(text);
        [
            ("approve twice", Plan::ApproveTwice),
            ("approve", Plan::Approve),
            ("fail", Plan::Fail),
            ("empty", Plan::Empty),
            ("history", Plan::History),
            ("quoted", Plan::Quoted),
            ("unsaved", Plan::Unsaved),
        ]
        .into_iter()
        .find(|(word, _)| text.contains(word))
        .map_or(Plan::Plain, |(_, p)| p)
    }
}

// ---- The engine's live state ----

pub(crate) struct Pending {
    run_id: String,
    tool: String,
    answer: oneshot::Sender<bool>,
}

/// What the engine keeps between requests (lives in `Shared`).
#[derive(Default)]
pub(crate) struct Engine {
    state: Mutex<EngineState>,
}

#[derive(Default)]
pub(crate) struct EngineState {
    pub(crate) conversations: Conversations,
    /// Session → the agent's history (user and assistant texts).
    pub(crate) sessions: HashMap<String, Vec<String>>,
    /// Approval id → the run waiting for it.
    pub(crate) approvals: HashMap<String, Pending>,
    /// Tools the user always allows.
    pub(crate) always: HashSet<String>,
    /// Live run id → its cancel flag.
    pub(crate) runs: HashMap<String, Arc<AtomicBool>>,
    /// Data-URL attachments received, per request, in order.
    pub(crate) media: Vec<Vec<String>>,
    seq: u64,
}

impl EngineState {
    pub(crate) fn next(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }
}

impl Engine {
    pub(crate) fn lock(&self) -> MutexGuard<'_, EngineState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The stored messages of `cid` as JSON (see [`store::Message::stored`]).
    pub(crate) fn conversation(&self, cid: &str) -> Option<Vec<Value>> {
        self.lock().conversations.get(cid).map(|c| c.messages.iter().map(store::Message::stored).collect())
    }

    /// How many messages the agent of `session` holds.
    pub(crate) fn history(&self, session: &str) -> usize {
        self.lock().sessions.get(session).map_or(0, Vec::len)
    }

    /// The data URLs of every `/chat` request so far, one list per request.
    pub(crate) fn media(&self) -> Vec<Vec<String>> {
        self.lock().media.clone()
    }
}

// ---- Handlers ----

fn auth(headers: &HeaderMap) -> Option<String> {
    headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_string)
}

/// Records the request (a body that is not JSON is kept as a JSON string,
/// an empty one as `null`), then checks the key; `Err` is the 401 to send.
fn record(shared: &Shared, path: String, headers: &HeaderMap, body: &[u8]) -> Result<Option<Value>, Box<Response>> {
    let parsed: Option<Value> = if body.is_empty() { None } else { serde_json::from_slice(body).ok() };
    let kept = match (&parsed, body.is_empty()) {
        (Some(v), _) => v.clone(),
        (None, true) => Value::Null,
        (None, false) => Value::String(String::from_utf8_lossy(body).into_owned()),
    };
    shared.record_request(RecordedRequest { path, body: kept, authorization: auth(headers) });
    check_bearer(shared.config.key.as_deref(), headers).map_err(|r| Box::new(r.into_response(0.0, shared.cancel.clone())))?;
    Ok(parsed)
}

fn answer(status: StatusCode, body: Value) -> Response {
    (status, axum::Json(body)).into_response()
}

pub(crate) async fn chat(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let payload = match record(&shared, "/chat".into(), &headers, &body) {
        Ok(Some(p)) if p.is_object() => p,
        Ok(_) => return answer(StatusCode::BAD_REQUEST, json!({"ok": false, "error": "the body is not a JSON object"})),
        Err(r) => return *r,
    };
    let mut prompt = payload["prompt"].as_str().unwrap_or("").to_string();
    let run_id = match &payload["run_id"] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let session = payload["session"].as_str().unwrap_or(DEFAULT_CONVERSATION).to_string();
    let chat_id = payload["chat_id"].as_str().filter(|c| !c.is_empty()).map_or_else(|| session.clone(), str::to_string);
    let regenerate_of = payload["regenerate_of"].as_u64().map(|u| u as usize);
    let mut media = Vec::new();
    for att in payload["attachments"].as_array().map(|a| &a[..a.len().min(5)]).unwrap_or(&[]) {
        let name: String = att["name"].as_str().unwrap_or("file").chars().take(120).collect();
        match att["url"].as_str() {
            Some(url) if url.starts_with("data:") => media.push(url.to_string()),
            _ => {
                let text: String = att["text"].as_str().unwrap_or("").chars().take(100_000).collect();
                prompt = format!("{prompt}\n\n--- attached: {name} ---\n{text}");
            }
        }
    }
    let plan = Plan::of(&prompt);
    let (msg_id, cancel, prior) = {
        let mut st = shared.agent.lock();
        st.media.push(media);
        let n = st.next();
        let cancel = Arc::new(AtomicBool::new(false));
        if !run_id.is_empty() {
            st.runs.insert(run_id.clone(), cancel.clone());
        }
        // As the engine: a session with no agent yet (new, or reset) is
        // seeded from the stored conversation's non-empty messages.
        if !st.sessions.contains_key(&session) {
            let seeded = st
                .conversations
                .get(&chat_id)
                .map(|c| c.messages.iter().map(|m| m.content.clone()).filter(|t| !t.trim().is_empty()).collect())
                .unwrap_or_default();
            st.sessions.insert(session.clone(), seeded);
        }
        let prior = st.sessions.get(&session).map_or(0, Vec::len);
        (format!("m_{:x}", 0x018c_0000_0000_u64 + n), cancel, prior)
    };
    tracing::info!(event = "agent_chat_request", msg_id = %msg_id, run_id = %run_id, chat_id = %chat_id, session = %session, plan = ?plan);
    let (tx, rx) = mpsc::channel::<String>(64);
    let r = run::Run { shared: shared.clone(), msg_id, run_id, chat_id, session, prompt, regenerate_of, prior, cancel, tx };
    tokio::spawn(r.go(plan));
    let stream = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|s| (Ok::<_, Infallible>(s), rx)) });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .header(header::CONNECTION, "close")
        .body(Body::from_stream(stream))
        .expect("static response parts")
}

pub(crate) async fn approve(State(shared): State<Arc<Shared>>, Path(aid): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    let payload = match record(&shared, format!("/approve/{aid}"), &headers, &body) {
        Ok(p) => p.unwrap_or(Value::Null),
        Err(r) => return *r,
    };
    // A missing or malformed body, or any other choice, is a deny.
    let choice = payload.get("choice").and_then(Value::as_str).unwrap_or("deny");
    let allow = matches!(choice, "allow" | "always");
    let mut st = shared.agent.lock();
    let Some(pending) = st.approvals.remove(&aid) else {
        return answer(StatusCode::NOT_FOUND, json!({"ok": false, "error": "no such pending approval"}));
    };
    if choice == "always" {
        st.always.insert(pending.tool.clone());
    }
    tracing::info!(event = "agent_chat_approve", approval_id = %aid, run_id = %pending.run_id, choice, allow);
    let _ = pending.answer.send(allow);
    answer(StatusCode::OK, json!({"ok": true, "error": null}))
}

pub(crate) async fn cancel(State(shared): State<Arc<Shared>>, Path(run_id): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(r) = record(&shared, format!("/cancel/{run_id}"), &headers, &body) {
        return *r;
    }
    let live = shared.agent.lock().runs.get(&run_id).cloned();
    tracing::info!(event = "agent_chat_cancel", run_id = %run_id, live = live.is_some());
    match live {
        Some(flag) => {
            flag.store(true, Ordering::SeqCst);
            answer(StatusCode::OK, json!({"ok": true, "run_id": run_id, "error": null}))
        }
        None => answer(StatusCode::NOT_FOUND, json!({"ok": false, "run_id": run_id, "error": "no such active run"})),
    }
}

pub(crate) async fn fork(State(shared): State<Arc<Shared>>, Path((cid, idx)): Path<(String, String)>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(r) = record(&shared, format!("/fork/{cid}/{idx}"), &headers, &body) {
        return *r;
    }
    let mut st = shared.agent.lock();
    if st.conversations.get(&cid).is_none() {
        return answer(StatusCode::NOT_FOUND, json!({"ok": false, "error": "no such conversation"}));
    }
    let Ok(idx) = idx.parse::<usize>() else {
        return answer(StatusCode::NOT_FOUND, json!({"ok": false, "error": "cannot fork"}));
    };
    match st.conversations.fork(&cid, idx) {
        Some(id) => answer(StatusCode::OK, json!({"ok": true, "id": id})),
        None => answer(StatusCode::NOT_FOUND, json!({"ok": false, "error": "cannot fork"})),
    }
}

pub(crate) async fn version(
    State(shared): State<Arc<Shared>>,
    Path((cid, idx, n)): Path<(String, String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(r) = record(&shared, format!("/version/{cid}/{idx}/{n}"), &headers, &body) {
        return *r;
    }
    let picked = match (idx.parse::<usize>(), n.parse::<usize>()) {
        (Ok(u), Ok(n)) => shared.agent.lock().conversations.pick(&cid, u, n),
        _ => None,
    };
    match picked {
        Some((active, count, content)) => answer(StatusCode::OK, json!({"ok": true, "active": active, "count": count, "content": content})),
        None => answer(StatusCode::NOT_FOUND, json!({"ok": false, "error": "no such version"})),
    }
}

pub(crate) async fn delete_exchange(State(shared): State<Arc<Shared>>, Path((cid, idx)): Path<(String, String)>, headers: HeaderMap, body: Bytes) -> Response {
    if let Err(r) = record(&shared, format!("/messages/{cid}/{idx}"), &headers, &body) {
        return *r;
    }
    let mut st = shared.agent.lock();
    let result = match idx.parse::<usize>() {
        Ok(i) => st.conversations.delete_exchange(&cid, i),
        Err(_) if st.conversations.get(&cid).is_none() => Err("no such conversation"),
        Err(_) => Err("no such message"),
    };
    match result {
        Ok(remaining) => answer(StatusCode::OK, json!({"ok": true, "remaining": remaining})),
        Err(e) => answer(StatusCode::NOT_FOUND, json!({"ok": false, "error": e})),
    }
}

pub(crate) async fn get_chat(State(shared): State<Arc<Shared>>, Path(cid): Path<String>, headers: HeaderMap) -> Response {
    if let Err(r) = record(&shared, format!("/chats/{cid}"), &headers, &[]) {
        return *r;
    }
    let st = shared.agent.lock();
    match st.conversations.get(&cid) {
        Some(c) => {
            let messages: Vec<Value> = c.messages.iter().map(store::Message::shown).collect();
            answer(StatusCode::OK, json!({"id": c.id, "title": c.title, "messages": messages}))
        }
        None => answer(StatusCode::NOT_FOUND, json!({"ok": false, "error": "no such conversation"})),
    }
}

pub(crate) async fn delete_chat(State(shared): State<Arc<Shared>>, Path(cid): Path<String>, headers: HeaderMap) -> Response {
    if let Err(r) = record(&shared, format!("/chats/{cid}"), &headers, &[]) {
        return *r;
    }
    shared.agent.lock().conversations.remove(&cid);
    answer(StatusCode::OK, json!({"ok": true}))
}

pub(crate) async fn list_chats(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if let Err(r) = record(&shared, "/chats".into(), &headers, &[]) {
        return *r;
    }
    let chats = shared.agent.lock().conversations.list();
    answer(StatusCode::OK, json!({"chats": chats}))
}

pub(crate) async fn reset(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let payload = match record(&shared, "/reset".into(), &headers, &body) {
        Ok(p) => p.unwrap_or(Value::Null),
        Err(r) => return *r,
    };
    let session = payload.get("session").and_then(Value::as_str).unwrap_or(DEFAULT_CONVERSATION);
    shared.agent.lock().sessions.remove(session);
    answer(StatusCode::OK, json!({"ok": true}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_reads_the_users_text_only() {
        assert_eq!(Plan::of("hi"), Plan::Plain);
        assert_eq!(Plan::of("please approve ls"), Plan::Approve);
        assert_eq!(Plan::of("approve twice please"), Plan::ApproveTwice);
        assert_eq!(Plan::of("this will fail"), Plan::Fail);
        assert_eq!(Plan::of("say nothing, empty"), Plan::Empty);
        assert_eq!(Plan::of("what history do you have"), Plan::History);
        assert_eq!(Plan::of("quoted output"), Plan::Quoted);
        assert_eq!(Plan::of("an unsaved one"), Plan::Unsaved);
        assert_eq!(Plan::of("<client_context>\nclipboard: empty, approve\n</client_context>\n\nhello"), Plan::Plain);
        assert_eq!(Plan::of("<client_context>\n</client_context>\n\nplease approve"), Plan::Approve);
        assert_eq!(Plan::of("hello\n\n--- attached: a.txt ---\nplease fail"), Plan::Plain, "an attachment's text is not the user's");
    }
}
