//! The `agent_chat` transport (`chat_api: "agent_chat"`, seed `004`): a
//! local agent engine that streams one assistant turn per `POST <base>/chat`
//! as server-sent events, eleven event types scoped by `msg_id` (and
//! `run_id` on `start`), with side endpoints to answer an approval, cancel a
//! run, fork a conversation, pick a message version and delete a message.
//! [`wire`] holds the events, the request bodies and the endpoint URLs.
//!
//! [`run`] is a request transport (`CONTRACT.md` beside the parent module),
//! with these differences, all because the engine owns the agent:
//!
//! * one `POST /chat` per turn, never a follow-up: the engine runs its own
//!   tools and loops itself. The client declares no tools (neither
//!   `generate_express` nor the client tools) and keeps no transcript; the
//!   engine keeps the conversation. The card's instructions are not sent.
//! * the body is [`ChatRequest`]: `message` is the rendered
//!   `<client_context>` block, a blank line and the user's input (as the
//!   Responses user item, without the post-history block);
//!   `conversation_id` is the chat window's conversation (its server id
//!   after a fork), else the client's chat id; `regenerate_of` is the
//!   server index of the message a Regenerate makes again; `attachments`
//!   carries the turn's pictures (the screenshot, attached images) and files
//!   as `{name, mime, data}` with base64 data (the seed names the field,
//!   not its items).
//! * [`SideRequest::Fork`], [`SideRequest::PickVersion`] and
//!   [`SideRequest::DeleteMessage`] go as `POST /fork/{cid}/{idx}`,
//!   `POST /version/{cid}/{idx}/{n}` and `DELETE /messages/{cid}/{idx}` in
//!   the background (logged, never awaited). A fork's answer that names a
//!   `conversation_id` is reported as [`Inbound::Forked`].
//! * events map onto [`ReplyPart`]s: `start` keeps the run id (for
//!   `/cancel`); `reasoning` → `Reasoning`; `delta` → one `Speech` per
//!   finished sentence, then `Alive { after_speech: true }`; `tool_drafting`
//!   and `tool_call` → `ToolStatus Running`, `tool_result` → `Done` or
//!   `Failed` (its `ok`); `usage` is kept for `End`; `error` → `Error` then
//!   `End`; `cancelled` → `End`; `end` → the last sentence, then
//!   `End { usage }`. Every event reports something (an `Alive` when it has
//!   nothing else), so the engine's stream deadlines reset on each.
//! * every event is also reported whole as [`ReplyPart::Chat`], for the
//!   chat window (`crate::chat`).
//! * `approval_request` shows as an approval card; [`SideRequest::Approve`]
//!   answers it with `POST /approve/{aid}` `{decision, run_id}`, the run id
//!   of the `start` of the turn that asked (kept per approval, so an answer
//!   after a newer turn started still names the right run). Unanswered, the
//!   engine's own timeout ([`crate::limits::AGENT_CHAT_APPROVAL_TIMEOUT`],
//!   300 s) denies the call; the card counts down to it.
//! * `Outbound::Stop` / `Abandon` of the turn in flight drop the stream,
//!   end the turn, and send `POST /cancel {run_id}` in the background
//!   (logged, never awaited; no run id yet: nothing is sent).
//! * `usage` carries characters and seconds, not tokens: [`usage`] estimates
//!   output tokens as a quarter of the characters, input as 0.

pub mod wire;

pub use wire::{
    parse_event, ApprovalDecision, ApproveRequest, CancelRequest, ChatErrorKind, ChatEvent, ChatRequest, Endpoints, EventError, Latency,
    EVENT_TYPES,
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

/// What an `error` of kind `empty` shows (the seed's text).
pub const NO_OUTPUT: &str = "No output";

/// What an `error` of kind `no_answer` shows (the seed's text).
pub const NO_ANSWER: &str = "The tools ran, but no answer came back";

/// Everything the transport needs for a session.
#[derive(Clone)]
pub struct AgentChatConfig {
    /// The engine's base URL (`http://127.0.0.1:PORT`, maybe with a path).
    pub base_url: String,
    /// Sent as `Authorization: Bearer` when not empty. Never logged.
    pub key: String,
    /// The client's chat id, sent as `conversation_id`; `None` sends none.
    pub conversation_id: Option<String>,
}

impl std::fmt::Debug for AgentChatConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentChatConfig")
            .field("base_url", &self.base_url)
            .field("key", &if self.key.is_empty() { "" } else { "<redacted>" })
            .field("conversation_id", &self.conversation_id)
            .finish()
    }
}

/// The `message` of a turn's `POST /chat`: the block, a blank line, the input.
pub fn message(turn: &TurnRequest) -> String {
    format!("{}\n\n{}", turn.block, turn.input)
}

/// The turn's pictures (as encoded) and files as `attachments` items.
pub fn attachments(turn: &TurnRequest) -> Vec<wire::WireAttachment> {
    let pictures = crate::transport::request::urls(&turn.images).into_iter().filter_map(|url| {
        let rest = url.strip_prefix("data:")?;
        let (mime, data) = rest.split_once(";base64,")?;
        Some(wire::WireAttachment { name: format!("image.{}", mime.trim_start_matches("image/")), mime: mime.to_string(), data: data.to_string() })
    });
    let files = turn.files.iter().map(|f| wire::WireAttachment { name: f.name.clone(), mime: f.mime.clone(), data: f.data_base64.clone() });
    pictures.chain(files).collect()
}

/// A `usage` event as [`Usage`]: the seed gives characters, not tokens, so
/// output tokens are estimated as `ceil(chars / 4)`; input is unknown (0).
pub fn usage(chars: u64) -> Usage {
    Usage::from_parts(0, chars.div_ceil(4), None)
}

/// The text an `error` event shows: the seed's texts for `empty` and
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
    run_id: Option<String>,
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
    /// Approvals asked and not yet answered: approval id → run id.
    approvals: std::collections::HashMap<String, Option<String>>,
}

/// Run the transport until the link's token fires or its outbound channel
/// closes.
pub async fn run(cfg: AgentChatConfig, mut link: Link) {
    link.report(Inbound::Status(Status::Stateless));
    let endpoints = Endpoints::new(&cfg.base_url);
    let mut s = Session { cfg, endpoints, client: sse::client(), flight: None, approvals: Default::default() };
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
                let conversation_id = turn.conversation_id.clone().or_else(|| self.cfg.conversation_id.clone());
                let body = ChatRequest { message: message(&turn), conversation_id, regenerate_of: turn.regenerate_of, attachments: attachments(&turn) };
                tracing::info!(record = "agent_chat.request", turn_id = %turn.turn_id, round = 1, chars = body.message.chars().count());
                let body = serde_json::to_value(&body).unwrap_or_default();
                let (client, url, key) = (self.client.clone(), self.endpoints.chat(), self.cfg.key.clone());
                self.flight = Some(Flight {
                    turn_id: turn.turn_id,
                    run_id: None,
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
            Outbound::Side(SideRequest::Approve { approval_id, decision }) => self.approve(approval_id, decision),
            Outbound::Side(SideRequest::Fork { conversation_id, index, local_id }) => {
                let url = self.endpoints.fork(&conversation_id, index);
                let inbound = link.inbound.clone();
                self.side(reqwest::Method::POST, url, "agent_chat_fork", move |answer| {
                    // The seed gives no answer shape: a `conversation_id` in it
                    // names the fork on the server.
                    if let Some(server_id) = answer.get("conversation_id").and_then(|v| v.as_str()) {
                        let _ = inbound.send(Inbound::Forked { local_id, server_id: server_id.to_string() });
                    }
                });
            }
            Outbound::Side(SideRequest::PickVersion { conversation_id, index, n }) => {
                let url = self.endpoints.version(&conversation_id, index, u64::from(n));
                self.side(reqwest::Method::POST, url, "agent_chat_version", |_| {});
            }
            Outbound::Side(SideRequest::DeleteMessage { conversation_id, index }) => {
                let url = self.endpoints.delete_message(&conversation_id, index);
                self.side(reqwest::Method::DELETE, url, "agent_chat_delete", |_| {});
            }
            Outbound::Side(SideRequest::DeleteConversation { conversation_id }) => {
                tracing::info!(record = "agent_chat_delete_conversation_skipped", conversation_id = %conversation_id, "not sent yet");
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

    /// A side request (fork, version, delete) in the background: logged,
    /// never awaited; `then` gets the answer's JSON body (or `null`) when
    /// the status is a success.
    fn side(&self, method: reqwest::Method, url: String, record: &'static str, then: impl FnOnce(serde_json::Value) + Send + 'static) {
        let (client, key) = (self.client.clone(), self.cfg.key.clone());
        tokio::spawn(async move {
            let mut req = client.request(method.clone(), &url);
            if !key.is_empty() {
                req = req.bearer_auth(&key);
            }
            match req.send().await {
                Ok(r) => {
                    let status = r.status().as_u16();
                    tracing::info!(record, method = %method, url = %url, status);
                    if r.status().is_success() {
                        let body = r.bytes().await.ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
                        then(body);
                    }
                }
                Err(e) => tracing::warn!(record, method = %method, url = %url, error = %crate::error::error_chain(&e)),
            }
        });
    }

    /// Answer an approval in the background (logged, never awaited).
    fn approve(&mut self, approval_id: String, decision: ApprovalDecision) {
        let run_id = match self.approvals.remove(&approval_id) {
            Some(run_id) => run_id,
            None => {
                tracing::warn!(record = "agent_chat_approve", approval_id = %approval_id, sent = false, "no such approval pending");
                return;
            }
        };
        let url = self.endpoints.approve(&approval_id);
        let body = ApproveRequest { decision, run_id: run_id.clone() };
        let (client, key) = (self.client.clone(), self.cfg.key.clone());
        tokio::spawn(async move {
            let mut req = client.post(&url).json(&body);
            if !key.is_empty() {
                req = req.bearer_auth(&key);
            }
            let decision = format!("{decision:?}").to_lowercase();
            match req.send().await {
                Ok(r) => tracing::info!(record = "agent_chat_approve", approval_id = %approval_id, run_id = ?run_id, decision, status = r.status().as_u16()),
                Err(e) => tracing::warn!(record = "agent_chat_approve", approval_id = %approval_id, decision, error = %crate::error::error_chain(&e)),
            }
        });
    }

    /// Stop, abandon or a newer turn: drop the stream, end the turn, and ask
    /// the engine to cancel the run in the background.
    fn abort(&mut self, link: &Link) {
        let Some(f) = self.flight.take() else { return };
        match f.run_id {
            Some(run_id) => {
                let (client, url, key) = (self.client.clone(), self.endpoints.cancel(), self.cfg.key.clone());
                let turn_id = f.turn_id.clone();
                tokio::spawn(async move {
                    let mut req = client.post(&url).json(&CancelRequest { run_id: run_id.clone() });
                    if !key.is_empty() {
                        req = req.bearer_auth(&key);
                    }
                    match req.send().await {
                        Ok(r) => tracing::info!(record = "agent_chat_cancel", turn_id = %turn_id, run_id = %run_id, status = r.status().as_u16()),
                        Err(e) => tracing::warn!(record = "agent_chat_cancel", turn_id = %turn_id, run_id = %run_id, error = %crate::error::error_chain(&e)),
                    }
                });
            }
            None => tracing::info!(record = "agent_chat_cancel", turn_id = %f.turn_id, sent = false, "no run id yet; the request was dropped"),
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
            });
        }
        link.reply(&f.turn_id, ReplyPart::Error { message: e.shown() });
        link.reply(&f.turn_id, ReplyPart::End { usage: None });
    }

    fn event(&mut self, ev: &SseEvent, link: &Link) {
        let Some(f) = self.flight.as_mut() else { return };
        let event = match ChatEvent::from_sse(ev) {
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
                tracing::info!(record = "agent_chat_start", turn_id = %f.turn_id, msg_id = %msg_id, run_id = %run_id);
                f.run_id = Some(run_id);
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
                self.approvals.insert(approval_id, f.run_id.clone());
            }
            ChatEvent::Usage { chars, .. } => f.usage = Some(usage(chars)),
            ChatEvent::Cancelled { run_id, .. } => {
                tracing::info!(record = "agent_chat_cancelled", turn_id = %f.turn_id, run_id = %run_id);
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
            let run = self.flight.take().and_then(|f| f.run_id);
            self.approvals.retain(|_, r| *r != run);
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
        let cfg = AgentChatConfig { base_url: "http://h".into(), key: "sk-secret".into(), conversation_id: None };
        assert!(!format!("{cfg:?}").contains("sk-secret"));
    }
}
