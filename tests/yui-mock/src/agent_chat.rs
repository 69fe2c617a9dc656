//! A fake of the `agent_chat` engine (seed `004`): a small but real engine
//! that keeps conversations, waits for approvals and honours cancels.
//!
//! * `POST /chat` `{message, conversation_id?, regenerate_of?}`: records the
//!   request (JSON body, `Authorization`), checks the key like the other SSE
//!   endpoints (401 JSON), then answers a `text/event-stream` of the
//!   eleven-event protocol, each event as `event: <type>` plus
//!   `data: <json with "type">`. What the turn does depends on the user's
//!   text (the part after `</client_context>` when the message has one),
//!   see [`Plan`]:
//!   - plain: `start → reasoning → delta ×N → tool_drafting → tool_call →
//!     tool_result → usage → end`;
//!   - "approve": `start → reasoning → tool_drafting → approval_request`,
//!     then the stream WAITS for `POST /approve/{aid}` (or the approval
//!     timeout, [`MockConfig::approval_timeout`](crate::MockConfig),
//!     default [`APPROVAL_TIMEOUT`] = the seed's 300 s). `allow` / `always`
//!     → `tool_call → tool_result ok → delta ×N`; `deny` → `tool_result
//!     ok=false "denied"`, timeout → `tool_result ok=false "approval timed
//!     out"`, then the short [`DENIED_REPLY`]; then `usage → end`. The mock
//!     keeps no always-allow list: `always` acts as `allow`;
//!   - "approve twice": two `tool_drafting → approval_request` pairs
//!     (`apr-N-a`, `apr-N-b`) before anything runs; both must be answered;
//!     each allowed call then runs, each denied one fails;
//!   - "fail": `start → reasoning → error kind internal` (no `end`);
//!   - "empty": `start → error kind empty` (no `end`).
//!
//!   Delays are [`EVENT_DELAY_MS`] × `MockConfig::pace` before each event.
//!   Conversations are kept per `conversation_id` (none:
//!   [`DEFAULT_CONVERSATION`]): a turn files its user message at `2k` and its
//!   answer at `2k + 1` when the request comes, and `end` reports those
//!   indices with `versions: 1, active: 0`. `regenerate_of: idx` files the
//!   answer as a new version of assistant message `idx` (no new user
//!   message): `end` has `user_index = idx - 1`, `assistant_index = idx`,
//!   `versions` = the count and `active` = the newest (0-based). A
//!   `regenerate_of` that names no assistant message answers `start →
//!   error kind internal`.
//! * `POST /approve/{aid}` `{decision, run_id}`: releases the waiting run
//!   (`200 {"ok": true}`); an aid nobody waits for → 404, a `run_id` that is
//!   not the asking run's → 409 (the run keeps waiting), a decision other
//!   than allow / always / deny → 400.
//! * `POST /cancel` `{run_id}`: the live run sends `cancelled {msg_id,
//!   run_id}` and its stream ends (no `end`); `200 {"ok": true}`, or
//!   `200 {"ok": false}` when no such run is live.
//! * `POST /fork/{cid}/{idx}` → `200 {"conversation_id": "<cid>-fork-<n>"}`,
//!   a new conversation holding messages `0..=idx` (`n` counts forks, from
//!   1); `POST /version/{cid}/{idx}/{n}` makes version `n` (0-based) the
//!   active one → `200 {"ok": true}`; `DELETE /messages/{cid}/{idx}` →
//!   `200 {"ok": true}` (the message is marked deleted; later messages
//!   keep their indices). A conversation, message or version that does not
//!   exist (or a deleted message) → 404; an index that is not a number → 400.
//!
//! Every request to these endpoints is recorded first
//! ([`MockServer::requests`](crate::MockServer::requests)), whatever the
//! answer; the side endpoints check the key too. The conversations can be
//! read back with [`MockServer::conversation`](crate::MockServer::conversation).
//!
//! [`events`] builds every event with the seed's exact names, for test
//! authors.

use crate::http::RecordedRequest;
use crate::server::Shared;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use yui_demo::agent_chat::Decision;
use yui_demo::http::{check_bearer, parse_body, HttpReply, SseEvent};

/// Base delay before each event, in milliseconds (scaled by the pace).
pub const EVENT_DELAY_MS: f64 = 40.0;

/// How long a run waits for an approval before it denies the call (the
/// seed's 300 s); `MockConfig::approval_timeout` overrides it.
pub const APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

/// The tool the plain script calls.
pub const SCRIPT_TOOL: &str = "get_time";
/// The tool the approval script asks about.
pub const APPROVAL_TOOL: &str = "execute_command";

/// The reply text the script streams, one `delta` per word.
pub const SCRIPT_REPLY: &str = "The sea is calm tonight.";

/// The reply when every asked call was denied (or timed out).
pub const DENIED_REPLY: &str = "Okay, I won't run it.";

/// `tool_result.output` of a denied call.
pub const DENIED_OUTPUT: &str = "denied";

/// `tool_result.output` of a call whose approval timed out.
pub const TIMED_OUT_OUTPUT: &str = "approval timed out";

/// `error.message` of a "fail" turn (kind `internal`).
pub const FAIL_MESSAGE: &str = "The engine failed (yui-mock).";

/// `error.message` of an "empty" turn (kind `empty`).
pub const EMPTY_MESSAGE: &str = "No output";

/// The conversation of a `POST /chat` without `conversation_id`.
pub const DEFAULT_CONVERSATION: &str = "default";

/// Builders for the eleven events, with the seed's names and fields (the
/// demo engine's, [`yui_demo::agent_chat::events`]).
pub use yui_demo::agent_chat::events;

/// The ids one turn uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnIds {
    /// `msg_id` of every event.
    pub msg_id: String,
    /// `run_id` of `start`.
    pub run_id: String,
    /// `call_id` of the tool call (the second of "approve twice" ends in
    /// `-b`, the first in `-a`).
    pub call_id: String,
    /// `approval_id` of the approval request (`-a` / `-b` as above).
    pub approval_id: String,
}

impl TurnIds {
    /// Ids ending in `-<n>`.
    pub fn numbered(n: u64) -> TurnIds {
        TurnIds { msg_id: format!("msg-{n}"), run_id: format!("run-{n}"), call_id: format!("call-{n}"), approval_id: format!("apr-{n}") }
    }
}

/// What a turn does, decided from the user's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Reply, then call [`SCRIPT_TOOL`].
    Plain,
    /// "approve": ask one approval for [`APPROVAL_TOOL`] and wait.
    Approve,
    /// "approve twice": ask two approvals, wait for both.
    ApproveTwice,
    /// "fail": `error kind internal`.
    Fail,
    /// "empty": `error kind empty`.
    Empty,
}

impl Plan {
    /// The plan for a `message`: its text after `</client_context>` (the
    /// whole message without one) is searched for "approve twice",
    /// "approve", "fail", "empty", in that order.
    pub fn of(message: &str) -> Plan {
        let text = message.rsplit_once("</client_context>").map_or(message, |(_, t)| t);
        if text.contains("approve twice") {
            Plan::ApproveTwice
        } else if text.contains("approve") {
            Plan::Approve
        } else if text.contains("fail") {
            Plan::Fail
        } else if text.contains("empty") {
            Plan::Empty
        } else {
            Plan::Plain
        }
    }
}

// ---- Conversations ----

/// The conversations are the demo engine's store.
pub use yui_demo::agent_chat::store::{Conversations, Message, Slot};

/// A regenerate of assistant message `idx`: its new version's slot (see
/// [`Conversations::regenerate`]); `None` when `idx` is no live answer. Unlike
/// the demo engine, the mock does not take a user message's index for its
/// answer.
pub fn regenerate_answer(conversations: &mut Conversations, cid: &str, idx: usize) -> Option<Slot> {
    if conversations.get(cid)?.get(idx)?.role != "assistant" {
        return None;
    }
    conversations.regenerate(cid, idx).map(|(slot, _)| slot)
}

// ---- The engine's live state ----

struct Pending {
    run_id: String,
    answer: oneshot::Sender<Decision>,
}

/// What the engine keeps between requests (lives in `Shared`).
#[derive(Default)]
pub(crate) struct Engine {
    state: Mutex<EngineState>,
}

#[derive(Default)]
struct EngineState {
    conversations: Conversations,
    /// Approval id → the run waiting for it.
    approvals: HashMap<String, Pending>,
    /// Run id → its cancel token, while the run streams.
    runs: HashMap<String, CancellationToken>,
}

impl Engine {
    fn lock(&self) -> MutexGuard<'_, EngineState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The messages of `cid` as JSON (see [`Message::to_json`]).
    pub(crate) fn conversation(&self, cid: &str) -> Option<Vec<Value>> {
        self.lock().conversations.get(cid).map(|l| l.iter().map(Message::to_json).collect())
    }
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

/// Why a run stopped early.
enum Stop {
    /// `POST /cancel`: send `cancelled`.
    Cancelled,
    /// The client went away or the server stops: send nothing more.
    Gone,
}

/// One streaming run.
struct Run {
    shared: Arc<Shared>,
    ids: TurnIds,
    cid: String,
    tx: mpsc::Sender<String>,
    cancel: CancellationToken,
}

impl Run {
    fn m(&self) -> &str {
        &self.ids.msg_id
    }

    /// Waits `fut` unless the run is cancelled or its client or the server goes.
    async fn guard<T>(&self, fut: impl std::future::Future<Output = T>) -> Result<T, Stop> {
        tokio::select! {
            biased;
            _ = self.cancel.cancelled() => Err(Stop::Cancelled),
            _ = self.shared.cancel.cancelled() => Err(Stop::Gone),
            _ = self.tx.closed() => Err(Stop::Gone),
            v = fut => Ok(v),
        }
    }

    /// Sends one event after its delay.
    async fn emit(&self, event: Value) -> Result<(), Stop> {
        let ms = EVENT_DELAY_MS * self.shared.config.pace.max(0.0);
        if ms >= 1.0 {
            self.guard(tokio::time::sleep(Duration::from_millis(ms as u64))).await?;
        }
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let wire = SseEvent::named(0.0, &event).wire();
        self.tx.send(wire).await.map_err(|_| Stop::Gone)
    }

    async fn say(&self, text: &str) -> Result<(), Stop> {
        for word in text.split_inclusive(' ') {
            self.emit(events::delta(self.m(), word)).await?;
        }
        Ok(())
    }

    async fn finish(&self, slot: Slot, text: &str) -> Result<(), Stop> {
        self.emit(events::usage(self.m(), text.chars().count() as u64, 0.5, 0.1)).await?;
        let (versions, active) = {
            let mut st = self.shared.agent.lock();
            st.conversations.finish(&self.cid, slot, text);
            st.conversations.versions(&self.cid, slot.assistant_index).unwrap_or((1, 0))
        };
        self.emit(events::end(self.m(), slot.user_index, slot.assistant_index, versions, active)).await
    }

    /// Asks the approvals `(approval_id, call_id, args)` and waits for every
    /// answer (or the timeout); `Some(true)` allowed, `Some(false)` denied,
    /// `None` timed out, in order.
    async fn ask(&self, asks: &[(String, String, Value)]) -> Result<Vec<Option<bool>>, Stop> {
        let mut waiting = Vec::new();
        for (aid, call_id, args) in asks {
            let (tx, rx) = oneshot::channel();
            self.shared.agent.lock().approvals.insert(aid.clone(), Pending { run_id: self.ids.run_id.clone(), answer: tx });
            waiting.push((aid.clone(), rx));
            self.emit(events::tool_drafting(self.m(), APPROVAL_TOOL)).await?;
            self.emit(events::approval_request(self.m(), aid, call_id, APPROVAL_TOOL, args)).await?;
        }
        let deadline = tokio::time::Instant::now() + self.shared.config.approval_timeout;
        let mut answers = Vec::new();
        for (aid, rx) in waiting {
            let answer = match self.guard(tokio::time::timeout_at(deadline, rx)).await? {
                Ok(Ok(d)) => Some(d != Decision::Deny),
                Ok(Err(_)) => return Err(Stop::Gone),
                Err(_) => {
                    self.shared.agent.lock().approvals.remove(&aid);
                    None
                }
            };
            tracing::info!(event = "agent_chat_approval", approval_id = %aid, answer = ?answer);
            answers.push(answer);
        }
        Ok(answers)
    }

    async fn body(&self, plan: Plan, slot: Result<Slot, String>) -> Result<(), Stop> {
        let m = self.m();
        self.emit(events::start(m, &self.ids.run_id)).await?;
        let slot = match slot {
            Ok(s) => s,
            Err(why) => return self.emit(events::error(m, &why, "internal")).await,
        };
        if plan == Plan::Empty {
            return self.emit(events::error(m, EMPTY_MESSAGE, "empty")).await;
        }
        self.emit(events::reasoning(m, "Thinking about the sea.")).await?;
        match plan {
            Plan::Fail => self.emit(events::error(m, FAIL_MESSAGE, "internal")).await,
            Plan::Plain | Plan::Empty => {
                self.say(SCRIPT_REPLY).await?;
                let call = &self.ids.call_id;
                self.emit(events::tool_drafting(m, SCRIPT_TOOL)).await?;
                self.emit(events::tool_call(m, call, SCRIPT_TOOL, &json!({}))).await?;
                self.emit(events::tool_result(m, call, SCRIPT_TOOL, true, "21:00", 0.01)).await?;
                self.finish(slot, SCRIPT_REPLY).await
            }
            Plan::Approve | Plan::ApproveTwice => {
                let ids = &self.ids;
                let asks: Vec<(String, String, Value)> = if plan == Plan::Approve {
                    vec![(ids.approval_id.clone(), ids.call_id.clone(), json!({"command": "ls"}))]
                } else {
                    vec![
                        (format!("{}-a", ids.approval_id), format!("{}-a", ids.call_id), json!({"command": "ls"})),
                        (format!("{}-b", ids.approval_id), format!("{}-b", ids.call_id), json!({"command": "pwd"})),
                    ]
                };
                let answers = self.ask(&asks).await?;
                for ((_, call, args), answer) in asks.iter().zip(&answers) {
                    match answer {
                        Some(true) => {
                            self.emit(events::tool_call(m, call, APPROVAL_TOOL, args)).await?;
                            self.emit(events::tool_result(m, call, APPROVAL_TOOL, true, "notes.txt\n", 0.05)).await?;
                        }
                        Some(false) => self.emit(events::tool_result(m, call, APPROVAL_TOOL, false, DENIED_OUTPUT, 0.0)).await?,
                        None => self.emit(events::tool_result(m, call, APPROVAL_TOOL, false, TIMED_OUT_OUTPUT, 0.0)).await?,
                    }
                }
                let reply = if answers.contains(&Some(true)) { SCRIPT_REPLY } else { DENIED_REPLY };
                self.say(reply).await?;
                self.finish(slot, reply).await
            }
        }
    }
}

// ---- Handlers ----

fn auth(headers: &HeaderMap) -> Option<String> {
    headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_string)
}

fn record(shared: &Shared, path: String, headers: &HeaderMap, body: &[u8]) -> (usize, Result<Value, HttpReply>) {
    let parsed = parse_body(body);
    let kept = parsed.clone().unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()));
    let n = shared.record_request(RecordedRequest { path, body: kept, authorization: auth(headers) });
    (n, parsed)
}

fn answer(status: StatusCode, body: Value) -> Response {
    (status, axum::Json(body)).into_response()
}

fn not_found(what: String) -> Response {
    answer(StatusCode::NOT_FOUND, json!({"error": what}))
}

/// The indices of a side request's path; `Err` is the 400 to send.
fn indices<const N: usize>(parts: [&str; N]) -> Result<[usize; N], Box<Response>> {
    let mut out = [0; N];
    for (o, s) in out.iter_mut().zip(parts) {
        *o = s.parse().map_err(|_| Box::new(answer(StatusCode::BAD_REQUEST, json!({"error": format!("{s:?} is not a message index")}))))?;
    }
    Ok(out)
}

/// Records, then checks the key; `Err` is the 401 to send.
fn side(shared: &Shared, path: String, headers: &HeaderMap, body: &[u8]) -> Result<(), Box<Response>> {
    let _ = record(shared, path, headers, body);
    check_bearer(shared.config.key.as_deref(), headers).map_err(|r| Box::new(r.into_response(0.0, shared.cancel.clone())))
}

pub(crate) async fn chat(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let (_, parsed) = record(&shared, "/chat".into(), &headers, &body);
    if let Err(reply) = check_bearer(shared.config.key.as_deref(), &headers) {
        return reply.into_response(0.0, shared.cancel.clone());
    }
    let body = match parsed {
        Ok(b) => b,
        Err(reply) => return reply.into_response(0.0, shared.cancel.clone()),
    };
    let message = body["message"].as_str().unwrap_or("");
    let cid = body["conversation_id"].as_str().filter(|c| !c.is_empty()).unwrap_or(DEFAULT_CONVERSATION).to_string();
    let plan = Plan::of(message);
    let ids = TurnIds::numbered(shared.next_seq());
    let cancel = CancellationToken::new();
    let slot = {
        let mut st = shared.agent.lock();
        st.runs.insert(ids.run_id.clone(), cancel.clone());
        match body.get("regenerate_of").filter(|v| !v.is_null()) {
            None => Ok(st.conversations.begin(&cid, message)),
            Some(v) => v
                .as_u64()
                .and_then(|idx| regenerate_answer(&mut st.conversations, &cid, idx as usize))
                .ok_or_else(|| format!("no answer {v} to regenerate in conversation {cid}")),
        }
    };
    tracing::info!(event = "agent_chat_request", msg_id = %ids.msg_id, run_id = %ids.run_id, conversation_id = %cid, plan = ?plan, slot = ?slot);
    let (tx, rx) = mpsc::channel::<String>(64);
    let guard = RunGuard { shared: shared.clone(), run_id: ids.run_id.clone() };
    let run = Run { shared: shared.clone(), ids, cid, tx, cancel };
    tokio::spawn(async move {
        let _guard = guard;
        if let Err(Stop::Cancelled) = run.body(plan, slot).await {
            let _ = run.tx.send(SseEvent::named(0.0, &events::cancelled(run.m(), &run.ids.run_id)).wire()).await;
            tracing::info!(event = "agent_chat_cancelled", run_id = %run.ids.run_id);
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|s| (Ok::<_, Infallible>(s), rx)) });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(stream))
        .expect("static response parts")
}

pub(crate) async fn approve(State(shared): State<Arc<Shared>>, Path(aid): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    let (_, parsed) = record(&shared, format!("/approve/{aid}"), &headers, &body);
    if let Err(reply) = check_bearer(shared.config.key.as_deref(), &headers) {
        return reply.into_response(0.0, shared.cancel.clone());
    }
    let body = match parsed {
        Ok(b) => b,
        Err(reply) => return reply.into_response(0.0, shared.cancel.clone()),
    };
    let mut st = shared.agent.lock();
    let Some(pending) = st.approvals.get(&aid) else {
        return not_found(format!("no approval {aid} is waiting"));
    };
    if body["run_id"].as_str() != Some(pending.run_id.as_str()) {
        tracing::warn!(event = "agent_chat_approve_conflict", approval_id = %aid, run_id = ?body["run_id"]);
        return answer(StatusCode::CONFLICT, json!({"error": format!("approval {aid} belongs to another run")}));
    }
    let Some(decision) = body["decision"].as_str().and_then(Decision::parse) else {
        return answer(StatusCode::BAD_REQUEST, json!({"error": "decision must be allow, always or deny"}));
    };
    if let Some(pending) = st.approvals.remove(&aid) {
        let _ = pending.answer.send(decision);
    }
    axum::Json(json!({"ok": true})).into_response()
}

pub(crate) async fn cancel(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let (_, parsed) = record(&shared, "/cancel".into(), &headers, &body);
    if let Err(reply) = check_bearer(shared.config.key.as_deref(), &headers) {
        return reply.into_response(0.0, shared.cancel.clone());
    }
    let run_id = parsed.ok().and_then(|b| b["run_id"].as_str().map(str::to_string)).unwrap_or_default();
    let live = shared.agent.lock().runs.get(&run_id).cloned();
    tracing::info!(event = "agent_chat_cancel", run_id = %run_id, live = live.is_some());
    if let Some(token) = &live {
        token.cancel();
    }
    axum::Json(json!({"ok": live.is_some()})).into_response()
}

pub(crate) async fn fork(State(shared): State<Arc<Shared>>, Path((cid, idx)): Path<(String, String)>, headers: HeaderMap, body: Bytes) -> Response {
    let [idx] = match side(&shared, format!("/fork/{cid}/{idx}"), &headers, &body).and_then(|()| indices([&idx])) {
        Ok(i) => i,
        Err(r) => return *r,
    };
    match shared.agent.lock().conversations.fork(&cid, idx) {
        Some(id) => axum::Json(json!({"conversation_id": id})).into_response(),
        None => not_found(format!("no message {idx} in conversation {cid}")),
    }
}

pub(crate) async fn version(
    State(shared): State<Arc<Shared>>,
    Path((cid, idx, n)): Path<(String, String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let [idx, n] = match side(&shared, format!("/version/{cid}/{idx}/{n}"), &headers, &body).and_then(|()| indices([&idx, &n])) {
        Ok(i) => i,
        Err(r) => return *r,
    };
    if shared.agent.lock().conversations.pick(&cid, idx, n) {
        axum::Json(json!({"ok": true})).into_response()
    } else {
        not_found(format!("no version {n} of message {idx} in conversation {cid}"))
    }
}

pub(crate) async fn delete_message(State(shared): State<Arc<Shared>>, Path((cid, idx)): Path<(String, String)>, headers: HeaderMap, body: Bytes) -> Response {
    let [idx] = match side(&shared, format!("/messages/{cid}/{idx}"), &headers, &body).and_then(|()| indices([&idx])) {
        Ok(i) => i,
        Err(r) => return *r,
    };
    if shared.agent.lock().conversations.delete(&cid, idx) {
        axum::Json(json!({"ok": true})).into_response()
    } else {
        not_found(format!("no message {idx} in conversation {cid}"))
    }
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
        assert_eq!(Plan::of("<client_context>\nclipboard: empty, approve\n</client_context>\n\nhello"), Plan::Plain);
        assert_eq!(Plan::of("<client_context>\n</client_context>\n\nplease approve"), Plan::Approve);
    }

    #[test]
    fn turns_file_pairs_and_regenerate_adds_versions() {
        let mut c = Conversations::default();
        assert_eq!(c.begin("c", "one"), Slot { user_index: 0, assistant_index: 1, version: 0 });
        let s = c.begin("c", "two");
        assert_eq!(s, Slot { user_index: 2, assistant_index: 3, version: 0 });
        c.finish("c", s, "answer two");
        assert_eq!(c.begin("other", "x").user_index, 0, "per conversation");
        let r = regenerate_answer(&mut c, "c", 3).unwrap();
        assert_eq!(r, Slot { user_index: 2, assistant_index: 3, version: 1 });
        c.finish("c", r, "answer two again");
        assert_eq!(c.versions("c", 3), Some((2, 1)));
        assert_eq!(c.get("c").unwrap().len(), 4, "no duplicate user message");
        assert_eq!(regenerate_answer(&mut c, "c", 2), None, "a user message");
        assert_eq!(regenerate_answer(&mut c, "c", 9), None);
        assert_eq!(regenerate_answer(&mut c, "nope", 1), None);

        assert!(c.pick("c", 3, 0));
        assert_eq!(c.get("c").unwrap()[3].to_json()["text"], "answer two");
        assert!(!c.pick("c", 3, 2));
        assert!(!c.pick("c", 7, 0));
    }

    #[test]
    fn fork_copies_up_to_the_index_and_delete_marks() {
        let mut c = Conversations::default();
        c.begin("c", "one");
        c.begin("c", "two");
        assert_eq!(c.fork("c", 1).as_deref(), Some("c-fork-1"));
        assert_eq!(c.get("c-fork-1").unwrap().len(), 2);
        assert_eq!(c.fork("c", 3).as_deref(), Some("c-fork-2"));
        assert_eq!(c.fork("c", 4), None);
        assert_eq!(c.fork("nope", 0), None);
        assert!(c.delete("c", 1));
        assert!(!c.delete("c", 1), "already deleted");
        assert!(!c.delete("c", 4));
        assert_eq!(c.get("c").unwrap().len(), 4, "indices stay");
        assert_eq!(regenerate_answer(&mut c, "c", 1), None, "a deleted answer");
    }
}
