//! The `agent_chat` transport (`chat_api: "agent_chat"`): a
//! local agent engine (the PraisonAI desktop engine, protocol version 2, is
//! the reference; `docs/transports.md`) that streams one assistant turn per
//! `POST <base>/chat` as server-sent events, eleven event types scoped by
//! `msg_id`, with side endpoints to answer an approval, cancel a run, fork a
//! conversation, pick a version, delete an exchange or a conversation.
//! [`wire`] holds the events, the request bodies and the endpoint URLs.
//!
//! [`run`] is a request transport (`CONTRACT.md` beside the parent module),
//! with these differences, all because the engine owns the agent:
//!
//! * one `POST /chat` per turn, never a follow-up: the engine runs its own
//!   tools and loops itself. The client declares no tools and keeps no
//!   transcript; the engine keeps the conversation. The card's instructions
//!   are not sent.
//! * the body is [`ChatRequest`]: `prompt` is the rendered
//!   `<client_context>` block, a blank line and the user's input (the one
//!   field the engine gives the model, so the block rides in it);
//!   `chat_id` and `session` are both the chat window's conversation (its
//!   server id after a fork), else the client's chat id, so each
//!   conversation keeps its own agent history; `run_id` is made here, fresh
//!   for every run; `regenerate_of` is the user message's index on a
//!   Regenerate; `tools` is true; `attachments` carries the turn's pictures
//!   and PDFs as `{name, url: "data:..."}` and its text files (the turn's
//!   files with a `text/*` MIME type) as `{name, text}`.
//! * [`SideRequest`]s go in the background (logged with their status, never
//!   awaited): `POST /fork/{cid}/{user_index + 1}` (its `{ok, id}` answer is
//!   reported as [`Inbound::Forked`]), `POST /version/{cid}/{user_index}/{n}`,
//!   `POST /messages/{cid}/{user_index}`, `DELETE /chats/{cid}`, and
//!   `POST /approve/{aid}` `{"choice"}` (a 404 is reported as
//!   [`Inbound::ApprovalGone`]: the engine no longer waited).
//! * events map onto [`ReplyPart`]s: `reasoning` → `Reasoning`; `delta` →
//!   one `Speech` per finished sentence, then `Alive { after_speech: true }`;
//!   `tool_drafting` and `tool_call` → `ToolStatus Running`, `tool_result`
//!   → `Done` or `Failed` (its `ok`); `usage` is kept for `End`; `error` →
//!   `Error` then `End`; `cancelled` → `End`; `end` → the last sentence,
//!   then `End { usage }`. Every event reports something (an `Alive` when
//!   it has nothing else), so the engine's stream deadlines reset on each;
//!   a malformed event is logged and skipped. Every event is also reported
//!   whole as [`ReplyPart::Chat`], for the chat window (`crate::chat`).
//! * `Outbound::Stop` / `Abandon` of the turn in flight (or a newer turn)
//!   end the turn at once (`End`), and the old stream goes on being read in
//!   the background: `POST /cancel/{run_id}` goes once the engine has
//!   started the run (`start` seen), then the approvals the run waits for
//!   are denied (a run blocked on one would never reach the point between
//!   chunks where the engine checks cancels; denied after the cancel, the
//!   run stops at its next chunk), and the engine's `cancelled` within
//!   [`AgentChatConfig::stop_wait`] is reported as
//!   [`Inbound::StopConfirmed`] `confirmed: true`; a 404 from `/cancel`, a
//!   stream that ends otherwise, or the wait passing is `confirmed: false`.
//! * `usage` carries characters and seconds, not tokens: [`usage`] estimates
//!   output tokens as a quarter of the characters, input as 0.

pub mod wire;

pub use wire::{
    parse_event, ApprovalDecision, ApproveRequest, ChatErrorKind, ChatEvent, ChatRequest, Endpoints, EventError, Latency, WireAttachment, EVENT_TYPES,
};

use crate::error::ErrorCode;
use crate::event::Status;
use crate::model::{ToolState, Usage};
use crate::transport::express::Segmenter;
use crate::transport::sse::{self, EventStream, RequestError, SseEvent};
use crate::transport::{Inbound, Link, Outbound, ReplyPart, SideRequest, TurnRequest};
use futures_util::StreamExt;
use std::future::Future;
use std::pin::Pin;

/// The transport's name in logs.
pub const NAME: &str = "agent_chat";

pub use crate::chat::vocabulary::{NO_ANSWER, NO_OUTPUT};

/// Everything the transport needs for a session.
#[derive(Debug, Clone)]
pub struct AgentChatConfig {
    /// The engine's base URL (`http://127.0.0.1:PORT`, maybe with a path).
    pub base_url: String,
    /// Sent as `Authorization: Bearer` when not empty. Never logged.
    pub key: crate::settings::Secret,
    /// The client's chat id, the `chat_id` and `session` of a turn that
    /// names no conversation of its own.
    pub conversation_id: Option<String>,
    /// After a Stop, how long the stopped run's stream is read for the
    /// engine's `cancelled` ([`crate::limits::AGENT_CHAT_STOP_CONFIRM_WAIT`]).
    pub stop_wait: std::time::Duration,
}

/// The `prompt` of a turn's `POST /chat`: the block, a blank line, the input.
pub fn prompt(turn: &TurnRequest) -> String {
    format!("{}\n\n{}", turn.block, turn.input)
}

/// The turn's pictures (as encoded) and PDFs as `{name, url}` data URLs, and
/// its text files (`text/*`) as `{name, text}`.
pub fn attachments(turn: &TurnRequest) -> Vec<WireAttachment> {
    use base64::Engine as _;
    let pictures = crate::transport::request::urls(&turn.images).into_iter().enumerate().map(|(i, url)| {
        let ext = url.strip_prefix("data:image/").and_then(|r| r.split([';', ','].as_ref()).next()).unwrap_or("png").to_string();
        let name = if i == 0 && turn.images.len() == 1 { format!("image.{ext}") } else { format!("image-{}.{ext}", i + 1) };
        WireAttachment::Media { name, url }
    });
    let files = turn.files.iter().filter_map(|f| {
        if f.mime.starts_with("text/") {
            match base64::engine::general_purpose::STANDARD.decode(f.data_base64.trim()).map(String::from_utf8) {
                Ok(Ok(text)) => Some(WireAttachment::Text { name: f.name.clone(), text }),
                _ => {
                    tracing::warn!(record = "attachment_refused", transport = NAME, name = %f.name, "a text file that is not UTF-8 base64 was left out");
                    None
                }
            }
        } else {
            Some(WireAttachment::Media { name: f.name.clone(), url: f.data_url() })
        }
    });
    pictures.chain(files).collect()
}

/// A fresh run id: unique in this process and across restarts.
pub fn new_run_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0);
    format!("yui-{t:x}-{}-{n}", std::process::id())
}

/// A `usage` event as [`Usage`]: the engine gives characters, not tokens, so
/// output tokens are estimated as `ceil(chars / 4)`; input is unknown (0).
pub fn usage(chars: u64) -> Usage {
    Usage::from_parts(0, chars.div_ceil(4), None)
}

/// The text an `error` event shows: the fixed texts for `empty` and
/// `no_answer`, the engine's message (one line) otherwise.
pub fn shown(kind: &ChatErrorKind, message: &str) -> String {
    match kind {
        ChatErrorKind::Empty => NO_OUTPUT.to_string(),
        ChatErrorKind::NoAnswer => NO_ANSWER.to_string(),
        _ => {
            let line = message.split_whitespace().collect::<Vec<_>>().join(" ");
            if line.is_empty() {
                crate::transport::request::GENERIC_FAILURE.to_string()
            } else {
                line.chars().take(crate::limits::ERROR_MESSAGE_SHOWN).collect()
            }
        }
    }
}

type Connecting = Pin<Box<dyn Future<Output = Result<EventStream, RequestError>> + Send>>;

enum Wire {
    Connecting(Connecting),
    Streaming(EventStream),
}

struct Flight {
    turn_id: String,
    /// The run id this client made for the request.
    run_id: String,
    /// The engine's `start` came: the run is live on the engine.
    started: bool,
    seg: Segmenter,
    usage: Option<Usage>,
    wire: Wire,
}

enum Step {
    Out(Option<Outbound>),
    Connected(Result<EventStream, RequestError>),
    Item(Option<Result<SseEvent, RequestError>>),
}

async fn next_step(flight: &mut Option<Flight>) -> Step {
    let Some(f) = flight.as_mut() else { return std::future::pending().await };
    match &mut f.wire {
        Wire::Connecting(fut) => Step::Connected(fut.await),
        Wire::Streaming(s) => Step::Item(s.next().await),
    }
}

struct Session {
    cfg: AgentChatConfig,
    endpoints: Endpoints,
    client: reqwest::Client,
    flight: Option<Flight>,
    /// Approvals asked and not yet answered: approval id → turn id.
    approvals: std::collections::HashMap<String, String>,
    /// Approvals already answered (a second answer is not sent: its 404
    /// would mark a card whose first answer landed).
    answered: std::collections::VecDeque<String>,
}

/// Run the transport until the link's token fires or its outbound channel
/// closes.
pub async fn run(cfg: AgentChatConfig, mut link: Link) {
    link.report(Inbound::Status(Status::Stateless));
    let endpoints = Endpoints::new(&cfg.base_url);
    let mut s = Session { cfg, endpoints, client: sse::client(), flight: None, approvals: Default::default(), answered: Default::default() };
    loop {
        let step = tokio::select! {
            _ = link.cancel.cancelled() => return,
            m = link.outbound.recv() => Step::Out(m),
            st = next_step(&mut s.flight) => st,
        };
        match step {
            Step::Out(None) => return,
            Step::Out(Some(m)) => s.outbound(m, &link),
            Step::Connected(Ok(stream)) => {
                if let Some(f) = s.flight.as_mut() {
                    f.wire = Wire::Streaming(stream);
                }
            }
            Step::Connected(Err(e)) | Step::Item(Some(Err(e))) => s.fail(e, &link),
            Step::Item(Some(Ok(ev))) => s.event(&ev, &link),
            Step::Item(None) => {
                let e = RequestError::Stream { status: None, message: "the stream ended before an end event".into(), raw: String::new() };
                s.fail(e, &link)
            }
        }
    }
}

impl Session {
    fn outbound(&mut self, m: Outbound, link: &Link) {
        match m {
            Outbound::Turn(turn) => {
                self.abort(link);
                tracing::info!(record = "turn", transport = NAME, turn_id = %turn.turn_id, spoke_text = false);
                let chat_id = turn.conversation_id.clone().or_else(|| self.cfg.conversation_id.clone()).unwrap_or_else(|| "default".into());
                let run_id = new_run_id();
                let body = ChatRequest {
                    prompt: prompt(&turn),
                    session: chat_id.clone(),
                    chat_id,
                    run_id: run_id.clone(),
                    regenerate_of: turn.regenerate_of,
                    tools: true,
                    attachments: attachments(&turn),
                };
                tracing::info!(
                    record = "agent_chat.request",
                    turn_id = %turn.turn_id,
                    run_id = %run_id,
                    chat_id = %body.chat_id,
                    regenerate_of = ?body.regenerate_of,
                    attachments = body.attachments.len(),
                    chars = body.prompt.chars().count()
                );
                let body = serde_json::to_value(&body).unwrap_or_default();
                let (client, url, key) = (self.client.clone(), self.endpoints.chat(), self.cfg.key.expose().to_string());
                self.flight = Some(Flight {
                    turn_id: turn.turn_id,
                    run_id,
                    started: false,
                    seg: Segmenter::new(),
                    usage: None,
                    wire: Wire::Connecting(Box::pin(async move { sse::post_stream(&client, &url, &key, &body).await })),
                });
            }
            Outbound::Stop { turn_ids } => {
                if self.flight.as_ref().is_some_and(|f| turn_ids.contains(&f.turn_id)) {
                    self.abort(link);
                }
            }
            Outbound::Abandon { turn_id } => {
                if self.flight.as_ref().is_some_and(|f| f.turn_id == turn_id) {
                    self.abort(link);
                }
            }
            Outbound::Side(SideRequest::Approve { approval_id, decision }) => self.approve(approval_id, decision, link),
            Outbound::Side(SideRequest::Fork { conversation_id, index, local_id }) => {
                let url = self.endpoints.fork(&conversation_id, index);
                let inbound = link.inbound.clone();
                self.side(reqwest::Method::POST, url, "agent_chat_fork", move |answer| match answer.get("id").and_then(|v| v.as_str()) {
                    Some(server_id) => {
                        let _ = inbound.send(Inbound::Forked { local_id, server_id: server_id.to_string() });
                    }
                    None => tracing::warn!(record = "agent_chat_fork", local_id = %local_id, "the answer named no id; the fork stays local"),
                });
            }
            Outbound::Side(SideRequest::PickVersion { conversation_id, index, n }) => {
                let url = self.endpoints.version(&conversation_id, index, u64::from(n));
                self.side(reqwest::Method::POST, url, "agent_chat_version", |_| {});
            }
            Outbound::Side(SideRequest::DeleteMessage { conversation_id, index }) => {
                let url = self.endpoints.delete_exchange(&conversation_id, index);
                // The engine's in-memory agent still holds the deleted
                // exchange; a reset of its session makes the next turn seed
                // it again from the stored conversation, without it.
                let (client, key, reset) = (self.client.clone(), self.cfg.key.expose().to_string(), self.endpoints.reset());
                self.side(reqwest::Method::POST, url, "agent_chat_delete", move |_| {
                    tokio::spawn(async move {
                        let body = serde_json::json!({ "session": conversation_id });
                        match send(&client, reqwest::Method::POST, &reset, &key, Some(&body)).await {
                            Ok((status, _)) => tracing::info!(record = "agent_chat_reset", session = %conversation_id, status),
                            Err(e) => tracing::warn!(record = "agent_chat_reset", session = %conversation_id, error = %e),
                        }
                    });
                });
            }
            Outbound::Side(SideRequest::DeleteConversation { conversation_id }) => {
                let url = self.endpoints.conversation(&conversation_id);
                self.side(reqwest::Method::DELETE, url, "agent_chat_delete_conversation", |_| {});
            }
            // The engine keeps the conversation and runs its own tools.
            Outbound::ToolResult(_)
            | Outbound::Reset
            | Outbound::Greeting { .. }
            | Outbound::Vocabulary(_)
            | Outbound::Playback { .. }
            | Outbound::Reconnect => {}
        }
    }

    /// A side request in the background: logged with its status, never
    /// awaited; `then` gets the answer's JSON body (or `null`) when the
    /// status is a success.
    fn side(&self, method: reqwest::Method, url: String, record: &'static str, then: impl FnOnce(serde_json::Value) + Send + 'static) {
        let (client, key) = (self.client.clone(), self.cfg.key.expose().to_string());
        tokio::spawn(async move {
            match send(&client, method.clone(), &url, &key, None).await {
                Ok((status, body)) if (200..300).contains(&status) => {
                    tracing::info!(record, method = %method, url = %url, status);
                    then(body);
                }
                Ok((status, body)) => tracing::warn!(record, method = %method, url = %url, status, answer = %body, "the engine refused"),
                Err(e) => tracing::warn!(record, method = %method, url = %url, error = %e, "the engine could not be reached"),
            }
        });
    }

    /// Answer an approval in the background: `POST /approve/{aid}`
    /// `{"choice"}`; a 404 (the engine no longer waits) is reported.
    fn approve(&mut self, approval_id: String, decision: ApprovalDecision, link: &Link) {
        if self.answered.contains(&approval_id) {
            tracing::info!(record = "agent_chat_approve", approval_id = %approval_id, sent = false, "already answered");
            return;
        }
        self.answered.push_back(approval_id.clone());
        if self.answered.len() > 256 {
            self.answered.pop_front();
        }
        if self.approvals.remove(&approval_id).is_none() {
            tracing::info!(record = "agent_chat_approve", approval_id = %approval_id, "not asked on this stream (or already answered); sent anyway");
        }
        let url = self.endpoints.approve(&approval_id);
        let body = serde_json::to_value(ApproveRequest { choice: decision }).unwrap_or_default();
        let (client, key, inbound) = (self.client.clone(), self.cfg.key.expose().to_string(), link.inbound.clone());
        tokio::spawn(async move {
            let choice = body["choice"].as_str().unwrap_or("").to_string();
            match send(&client, reqwest::Method::POST, &url, &key, Some(&body)).await {
                Ok((404, answer)) => {
                    tracing::warn!(record = "agent_chat_approve", approval_id = %approval_id, choice, status = 404, answer = %answer, "the engine no longer waited for this approval");
                    let _ = inbound.send(Inbound::ApprovalGone { approval_id });
                }
                Ok((status, _)) => tracing::info!(record = "agent_chat_approve", approval_id = %approval_id, choice, status),
                Err(e) => tracing::warn!(record = "agent_chat_approve", approval_id = %approval_id, choice, error = %e),
            }
        });
    }

    /// Stop, abandon or a newer turn: the turn ends now; the stopped run's
    /// stream is read on in the background until the engine confirms.
    fn abort(&mut self, link: &Link) {
        let Some(f) = self.flight.take() else { return };
        let denials: Vec<String> = self.approvals.iter().filter(|(_, t)| **t == f.turn_id).map(|(a, _)| a.clone()).collect();
        self.approvals.retain(|_, t| *t != f.turn_id);
        self.answered.extend(denials.iter().cloned());
        if f.run_id.is_empty() {
            tracing::warn!(record = "agent_chat_cancel", turn_id = %f.turn_id, sent = false, "no run id; no cancel was sent");
        } else {
            let stopping = Stopping {
                client: self.client.clone(),
                endpoints: self.endpoints.clone(),
                key: self.cfg.key.expose().to_string(),
                inbound: link.inbound.clone(),
                turn_id: f.turn_id.clone(),
                run_id: f.run_id.clone(),
                started: f.started,
                denials,
                wait: self.cfg.stop_wait,
            };
            tokio::spawn(stopping.run(f.wire));
        }
        link.reply(&f.turn_id, ReplyPart::End { usage: None });
    }

    /// The request or its stream failed: as the other request transports.
    fn fail(&mut self, e: RequestError, link: &Link) {
        let Some(f) = self.flight.take() else { return };
        tracing::warn!(record = "http_error", transport = NAME, turn_id = %f.turn_id, status = ?e.status(), code = ?e.code());
        if let Some(status @ (401 | 403)) = e.status().filter(|_| matches!(e, RequestError::Http { .. })) {
            link.report(Inbound::Notice {
                code: ErrorCode::Auth,
                message: format!("The server refused the key (HTTP {status}). Check the key in settings."),
                phrase: Some(crate::event::Phrase::new("notice-key-refused-http").arg("status", status)),
            });
        }
        link.reply(&f.turn_id, ReplyPart::Error { message: e.shown() });
        link.reply(&f.turn_id, ReplyPart::End { usage: None });
    }

    fn event(&mut self, ev: &SseEvent, link: &Link) {
        let Some(f) = self.flight.as_mut() else { return };
        let event = match wire::from_sse(ev) {
            Ok(e) => e,
            Err(e) => {
                e.log();
                return link.reply(&f.turn_id, ReplyPart::Alive { after_speech: false });
            }
        };
        let mut parts = vec![ReplyPart::Chat { event: event.clone() }];
        let mut over = false;
        match event {
            ChatEvent::Start { msg_id, run_id } => {
                tracing::info!(record = "agent_chat_start", turn_id = %f.turn_id, msg_id = %msg_id, run_id = %run_id, sent_run_id = %f.run_id);
                if !run_id.is_empty() && run_id != f.run_id {
                    tracing::warn!(record = "agent_chat_start", turn_id = %f.turn_id, "the engine echoed another run id; cancels use the one sent");
                }
                f.started = true;
            }
            ChatEvent::Reasoning { text, .. } => {
                if !text.is_empty() {
                    parts.push(ReplyPart::Reasoning { delta: text });
                }
            }
            ChatEvent::Delta { text, .. } => {
                for seg in f.seg.text(&text) {
                    parts.push(ReplyPart::Speech { segments: vec![seg] });
                }
                parts.push(ReplyPart::Alive { after_speech: true });
            }
            ChatEvent::ToolDrafting { name, .. } | ChatEvent::ToolCall { name, .. } => {
                parts.push(ReplyPart::ToolStatus { state: ToolState::Running, tool_id: name });
            }
            ChatEvent::ToolResult { name, ok, .. } => {
                let state = if ok { ToolState::Done } else { ToolState::Failed };
                parts.push(ReplyPart::ToolStatus { state, tool_id: name });
            }
            ChatEvent::ApprovalRequest { approval_id, call_id, name, .. } => {
                tracing::info!(record = "agent_chat_approval", turn_id = %f.turn_id, approval_id = %approval_id, call_id = %call_id, tool = %name);
                self.approvals.insert(approval_id, f.turn_id.clone());
            }
            ChatEvent::Usage { chars, .. } => f.usage = Some(usage(chars)),
            ChatEvent::Cancelled { run_id, .. } => {
                tracing::info!(record = "agent_chat_cancelled", turn_id = %f.turn_id, run_id = %run_id);
                parts.push(ReplyPart::End { usage: None });
                over = true;
            }
            ChatEvent::Error { kind: ChatErrorKind::Empty, .. } => {
                // The engine's word for a reply with no text: deliberate
                // silence shows and says nothing (`docs/transports.md`).
                tracing::warn!(record = "agent_chat_error", turn_id = %f.turn_id, kind = "empty", "a reply with no text ends quietly");
                parts.push(ReplyPart::End { usage: None });
                over = true;
            }
            ChatEvent::Error { message, kind, .. } => {
                tracing::warn!(record = "agent_chat_error", turn_id = %f.turn_id, kind = %String::from(kind.clone()));
                parts.push(ReplyPart::Error { message: shown(&kind, &message) });
                parts.push(ReplyPart::End { usage: None });
                over = true;
            }
            ChatEvent::End { .. } => {
                if let Some(seg) = f.seg.finish() {
                    parts.push(ReplyPart::Speech { segments: vec![seg] });
                }
                parts.push(ReplyPart::End { usage: f.usage });
                over = true;
            }
        }
        for p in parts {
            link.reply(&f.turn_id, p);
        }
        if over {
            // Its run's approvals can no longer be answered.
            if let Some(f) = self.flight.take() {
                self.approvals.retain(|_, t| *t != f.turn_id);
            }
        }
    }
}

/// One side request: `(status, JSON body or null)`, or why it never got
/// an answer (one line).
async fn send(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    key: &str,
    body: Option<&serde_json::Value>,
) -> Result<(u16, serde_json::Value), String> {
    let mut req = client.request(method, url).timeout(crate::limits::AGENT_CHAT_STOP_CONFIRM_WAIT);
    if !key.is_empty() {
        req = req.bearer_auth(key);
    }
    if let Some(body) = body {
        req = req.json(body);
    }
    let r = req.send().await.map_err(|e| crate::error::error_chain(&e))?;
    let status = r.status().as_u16();
    let body = r.bytes().await.ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
    Ok((status, body))
}

/// A stopped run, confirmed in the background.
struct Stopping {
    client: reqwest::Client,
    endpoints: Endpoints,
    key: String,
    inbound: tokio::sync::mpsc::UnboundedSender<Inbound>,
    turn_id: String,
    run_id: String,
    started: bool,
    /// Approvals the run still waits for: denied first.
    denials: Vec<String>,
    wait: std::time::Duration,
}

impl Stopping {
    async fn run(self, wire: Wire) {
        let confirmed = match tokio::time::timeout(self.wait, self.confirm(wire)).await {
            Ok(Ok(())) => true,
            Ok(Err(why)) => {
                tracing::warn!(record = "agent_chat_stop_unconfirmed", turn_id = %self.turn_id, run_id = %self.run_id, reason = %why);
                false
            }
            Err(_) => {
                tracing::warn!(record = "agent_chat_stop_unconfirmed", turn_id = %self.turn_id, run_id = %self.run_id, wait_ms = self.wait.as_millis() as u64, reason = "no cancelled within the wait");
                false
            }
        };
        if confirmed {
            tracing::info!(record = "agent_chat_stop_confirmed", turn_id = %self.turn_id, run_id = %self.run_id);
        }
        let _ = self.inbound.send(Inbound::StopConfirmed { turn_id: self.turn_id.clone(), confirmed });
    }

    /// Deny what the run waits for, cancel it once it is live on the
    /// engine, and read its stream to `cancelled`.
    async fn confirm(&self, wire: Wire) -> Result<(), String> {
        let mut stream = match wire {
            Wire::Connecting(fut) => fut.await.map_err(|e| format!("the request failed: {}", e.shown()))?,
            Wire::Streaming(s) => s,
        };
        // The cancel first: a denied call runs on at once, and the engine
        // must already know the run is cancelled at its next chunk.
        let mut cancel_sent = false;
        if self.started {
            self.cancel().await?;
            cancel_sent = true;
        }
        for aid in &self.denials {
            self.deny(aid).await;
        }
        while let Some(item) = stream.next().await {
            let ev = item.map_err(|e| format!("the stream failed: {}", e.shown()))?;
            match wire::from_sse(&ev) {
                Ok(ChatEvent::Start { .. }) if !cancel_sent => {
                    self.cancel().await?;
                    cancel_sent = true;
                }
                // Asked after the stop: nobody will answer it.
                Ok(ChatEvent::ApprovalRequest { approval_id, .. }) => self.deny(&approval_id).await,
                Ok(ChatEvent::Cancelled { .. }) => return Ok(()),
                Ok(e) if e.is_terminal() => return Err(format!("the run ended with {} instead of cancelled", e.kind())),
                Ok(_) => {}
                Err(e) => e.log(),
            }
        }
        Err("the stream ended without cancelled".into())
    }

    async fn deny(&self, aid: &str) {
        let body = serde_json::json!({"choice": "deny"});
        match send(&self.client, reqwest::Method::POST, &self.endpoints.approve(aid), &self.key, Some(&body)).await {
            Ok((status, _)) => tracing::info!(record = "agent_chat_approve", approval_id = %aid, choice = "deny", status, reason = "stop"),
            Err(e) => tracing::warn!(record = "agent_chat_approve", approval_id = %aid, choice = "deny", error = %e, reason = "stop"),
        }
    }

    async fn cancel(&self) -> Result<(), String> {
        let url = self.endpoints.cancel(&self.run_id);
        match send(&self.client, reqwest::Method::POST, &url, &self.key, None).await {
            Ok((status, _)) if (200..300).contains(&status) => {
                tracing::info!(record = "agent_chat_cancel", turn_id = %self.turn_id, run_id = %self.run_id, status);
                Ok(())
            }
            Ok((status, answer)) => {
                tracing::warn!(record = "agent_chat_cancel", turn_id = %self.turn_id, run_id = %self.run_id, status, answer = %answer);
                Err(format!("POST /cancel answered {status}"))
            }
            Err(e) => Err(format!("POST /cancel failed: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_texts_follow_the_seed() {
        assert_eq!(shown(&ChatErrorKind::Empty, "whatever"), "No output");
        assert_eq!(shown(&ChatErrorKind::NoAnswer, ""), "The tools ran, but no answer came back");
        assert_eq!(shown(&ChatErrorKind::RateLimit, "slow\ndown"), "slow down");
        assert_eq!(shown(&ChatErrorKind::Internal, "  "), crate::transport::request::GENERIC_FAILURE);
    }

    #[test]
    fn usage_estimates_tokens_from_characters() {
        assert_eq!(usage(0), Usage { input_tokens: 0, output_tokens: 0, total_tokens: 0 });
        assert_eq!(usage(25), Usage { input_tokens: 0, output_tokens: 7, total_tokens: 7 });
    }

    #[test]
    fn the_key_is_redacted() {
        let cfg = AgentChatConfig {
            base_url: "http://h".into(),
            key: "sk-secret".into(),
            conversation_id: None,
            stop_wait: crate::limits::AGENT_CHAT_STOP_CONFIRM_WAIT,
        };
        assert!(!format!("{cfg:?}").contains("sk-secret"));
    }
}
