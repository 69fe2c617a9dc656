//! The Responses transport (`chat_api: "responses"`): one streamed
//! `POST /v1/responses` per round, chained by `previous_response_id`.
//!
//! [`run`] is the task. It reports [`Status::Stateless`] once, then takes
//! [`Outbound`] messages in order: one turn at a time, with the resets and
//! greetings that arrive meanwhile kept for after it. During a turn it
//! answers `Stop` and `Abandon` at once (the request is dropped) and gathers
//! the engine's tool results. A new turn arriving meanwhile aborts the one in
//! flight (its request is dropped and it ends with `End { usage: None }`),
//! then starts after the messages kept before it.
//!
//! Every parsed stream event is reported (the engine's stream deadline
//! restarts on each); `response.completed` and the sending of a follow-up
//! request report [`ReplyPart::Alive`] with `after_speech: false`, so the
//! long budget covers the tool wait and the follow-up's first byte.
//!
//! A turn is up to [`MAX_ROUND_TRIPS`] requests:
//!
//! 1. the first carries the chain's leading items ([`Chain::leading_items`])
//!    and the user item ([`body::user_item`]);
//! 2. a round whose response called a client tool, or called only
//!    `generate_express` without a word spoken in the turn, is followed by a
//!    request chained to that response whose input is the round's
//!    `function_call_output` items: `generate_express` answers first, then
//!    the client tools' results, each in call order;
//! 3. the last round's response becomes the chain head, with its unsent
//!    outputs pending for the next turn. On the round that reaches the cap,
//!    the client tools still run and their results ride as pending outputs.
//!
//! Failures end the turn with [`ReplyPart::Error`] (the text the transport
//! table gives, see [`RequestError::shown`]) and [`ReplyPart::End`]; the chain
//! stays as it was. A 401 or 403 also reports an [`ErrorCode::Auth`] notice.
//! A 404 on the first request of a turn that continued a chain means the
//! server lost the conversation: an [`ErrorCode::ContextReset`] notice, and
//! the turn is sent once more on a fresh chain.

pub mod body;
pub mod chain;
pub mod reader;
pub mod wire;

use crate::error::ErrorCode;
use crate::event::Status;
use crate::model::{Usage, Vocabulary};
use crate::transport::request::{RequestConfig, GENERIC_FAILURE, MAX_ROUND_TRIPS};
use crate::transport::sse::{self, EventStream, RequestError};
use crate::transport::{endpoint, Inbound, Link, Outbound, ReplyPart, ToolResult, TurnRequest};
use chain::Chain;
use futures_util::StreamExt;
use reader::{Call, Reader, Step, TurnText};
use serde_json::Value;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use wire::StreamEvent;

/// The notice shown when the server no longer had the chained conversation.
pub const CONTEXT_RESET_NOTICE: &str = "The conversation context was reset: the server no longer had it.";

/// The notice shown when the server refused the key (401, 403).
pub const AUTH_NOTICE: &str = "The model server refused the API key.";

/// The transport's name in log records.
const NAME: &str = "responses";

/// At most this many characters of a failure's (scrubbed) text are logged.
const LOGGED_DETAIL: usize = 300;

/// `text` on one line with every occurrence of `key` replaced by `<key>`
/// (nothing replaced for an empty key).
fn scrub(text: &str, key: &str) -> String {
    let one = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match key.trim() {
        "" => one,
        key => one.replace(key, "<key>"),
    }
}

/// At most `max` characters of `s`, `…` marking a cut.
fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The kind of a failure, as logged.
fn error_kind(e: &RequestError) -> &'static str {
    match e {
        RequestError::Connect { .. } => "connect",
        RequestError::Http { .. } => "http",
        RequestError::Stream { .. } => "stream",
        RequestError::Decode { .. } => "decode",
    }
}

/// Run the Responses transport on `link` until its cancellation token fires
/// or its outbound channel closes.
pub async fn run(cfg: RequestConfig, link: Link) {
    let vocab = cfg.vocabulary.clone();
    let mut task = Task { cfg, vocab, chain: Chain::new(), client: sse::client(), link, deferred: VecDeque::new(), results: HashMap::new() };
    task.link.report(Inbound::Status(Status::Stateless));
    loop {
        let msg = match task.deferred.pop_front() {
            Some(m) => m,
            None => tokio::select! {
                _ = task.link.cancel.cancelled() => return,
                m = task.link.outbound.recv() => match m {
                    Some(m) => m,
                    None => return,
                },
            },
        };
        match msg {
            Outbound::Turn(turn) => {
                if task.turn(turn).await.is_err() {
                    return;
                }
            }
            Outbound::Reset => task.chain.reset(),
            Outbound::Greeting { text } => task.chain.greet(text),
            Outbound::Vocabulary(v) => task.vocab = v,
            // Nothing is running: a stale stop, abandon or tool result.
            Outbound::Stop { .. } | Outbound::Abandon { .. } | Outbound::ToolResult(_) => {}
            // Push only.
            Outbound::Playback { .. } | Outbound::Reconnect | Outbound::Side(_) => {}
        }
    }
}

/// The session is over; the task ends.
#[derive(Debug)]
struct Closed;

/// Why a wait inside a turn ended early.
#[derive(Debug)]
enum Interrupt {
    /// The user stopped the turn.
    Stopped,
    /// The engine gave up on the turn.
    Abandoned,
    /// A newer turn arrived; it waits at the back of the deferred queue.
    Superseded,
    /// The session ended.
    Closed,
}

/// How one round ended.
enum RoundEnd {
    /// `response.completed`.
    Completed { id: Option<String>, usage: Option<Usage>, calls: Vec<Call> },
    /// The request or its stream failed.
    Failed(RequestError),
}

struct Task {
    cfg: RequestConfig,
    vocab: Vocabulary,
    chain: Chain,
    client: reqwest::Client,
    link: Link,
    /// Messages that wait for the running turn to end.
    deferred: VecDeque<Outbound>,
    /// Tool results of the running turn, by call id.
    results: HashMap<String, ToolResult>,
}

impl Task {
    fn reply(&self, turn_id: &str, part: ReplyPart) {
        self.link.reply(turn_id, part);
    }

    /// `text` fit for the log: on one line, the key replaced by `<key>`.
    fn scrub(&self, text: &str) -> String {
        scrub(text, self.cfg.key.expose())
    }

    /// Take one outbound message while `turn_id` runs: answer it, keep it
    /// for later, or say the turn is interrupted.
    fn during_turn(&mut self, turn_id: &str, msg: Option<Outbound>) -> Option<Interrupt> {
        let Some(msg) = msg else { return Some(Interrupt::Closed) };
        match msg {
            Outbound::Stop { turn_ids } => {
                // Queued turns the stop names never start; they end here.
                let mut kept = VecDeque::new();
                for m in self.deferred.drain(..) {
                    match m {
                        Outbound::Turn(t) if turn_ids.contains(&t.turn_id) => self.link.reply(&t.turn_id, ReplyPart::End { usage: None }),
                        other => kept.push_back(other),
                    }
                }
                self.deferred = kept;
                if turn_ids.iter().any(|t| t == turn_id) {
                    return Some(Interrupt::Stopped);
                }
            }
            Outbound::Abandon { turn_id: t } if t == turn_id => return Some(Interrupt::Abandoned),
            Outbound::Abandon { turn_id: t } => self.deferred.retain(|m| !matches!(m, Outbound::Turn(q) if q.turn_id == t)),
            Outbound::ToolResult(r) if r.turn_id == turn_id => {
                self.results.insert(r.id.clone(), r);
            }
            Outbound::ToolResult(_) => {}
            Outbound::Vocabulary(v) => self.vocab = v,
            Outbound::Playback { .. } | Outbound::Reconnect | Outbound::Side(_) => {}
            // One turn in flight: the newer one aborts this one and starts
            // after what was kept before it.
            turn @ Outbound::Turn(_) => {
                self.deferred.push_back(turn);
                return Some(Interrupt::Superseded);
            }
            other @ (Outbound::Reset | Outbound::Greeting { .. }) => self.deferred.push_back(other),
        }
        None
    }

    /// Await `fut` while answering outbound messages for `turn_id`.
    async fn wait<F: Future>(&mut self, turn_id: &str, fut: F) -> Result<F::Output, Interrupt> {
        tokio::pin!(fut);
        loop {
            tokio::select! {
                biased;
                _ = self.link.cancel.cancelled() => return Err(Interrupt::Closed),
                msg = self.link.outbound.recv() => {
                    if let Some(i) = self.during_turn(turn_id, msg) {
                        return Err(i);
                    }
                }
                out = &mut fut => return Ok(out),
            }
        }
    }

    /// Wait until every client call of `calls` has its result.
    async fn wait_results(&mut self, turn_id: &str, calls: &[Call]) -> Result<(), Interrupt> {
        while calls.iter().any(|c| c.answer.is_none() && !self.results.contains_key(&c.call_id)) {
            let msg = tokio::select! {
                _ = self.link.cancel.cancelled() => return Err(Interrupt::Closed),
                msg = self.link.outbound.recv() => msg,
            };
            if let Some(i) = self.during_turn(turn_id, msg) {
                return Err(i);
            }
        }
        Ok(())
    }

    /// The `function_call_output` items of a round: `generate_express`
    /// answers first, then the client tools' results, each in call order.
    fn outputs(&mut self, calls: &[Call]) -> Vec<Value> {
        let mut out: Vec<Value> = calls.iter().filter_map(|c| c.answer.as_ref().map(|a| body::call_output(&c.call_id, a, &[]))).collect();
        for c in calls.iter().filter(|c| c.answer.is_none()) {
            if let Some(r) = self.results.remove(&c.call_id) {
                out.push(body::call_output(&c.call_id, &r.result, &crate::transport::request::urls(&r.images)));
            }
        }
        out
    }

    /// Run one turn to its end. `Err` only when the session ended.
    async fn turn(&mut self, turn: TurnRequest) -> Result<(), Closed> {
        self.results.clear();
        let turn_id = turn.turn_id.clone();
        tracing::info!(record = "turn", transport = NAME, turn_id = %turn_id, spoke_text = false);
        let mut text = TurnText::default();
        let result = self.turn_rounds(&turn, &mut text).await;
        self.results.clear();
        match result {
            Ok(()) => Ok(()),
            Err(Interrupt::Closed) => Err(Closed),
            // Stopped, abandoned (the engine gave up on it: a stall) or
            // aborted by a newer turn: the request is dropped. What the
            // segmenter still held is reported unsaid (shown, recorded as
            // never spoken, not played); the exchange rides into the next
            // request, since no completed response holds it; then the end
            // (the engine forgets a stopped or abandoned turn on it).
            Err(why) => {
                tracing::info!(record = "responses.interrupted", turn_id = %turn_id, why = ?why, streamed = text.streamed.chars().count());
                if let Some(unsaid) = text.segmenter.unsaid() {
                    self.reply(&turn_id, ReplyPart::Unsaid { text: unsaid });
                }
                self.carry(&turn, &text);
                self.reply(&turn_id, ReplyPart::End { usage: None });
                Ok(())
            }
        }
    }

    /// Keep a turn no completed response holds (cut short after its request
    /// left) for the next request: its user item as text and what streamed
    /// of the reply ([`Chain::carry`]).
    fn carry(&mut self, turn: &TurnRequest, text: &TurnText) {
        let user = serde_json::json!({ "role": "user", "content": body::user_text(self.cfg.post_history.as_deref(), turn) });
        let mut items = vec![user];
        if !text.streamed.trim().is_empty() {
            items.push(serde_json::json!({ "role": "assistant", "content": text.streamed }));
        }
        self.chain.carry(items);
    }

    async fn turn_rounds(&mut self, turn: &TurnRequest, text: &mut TurnText) -> Result<(), Interrupt> {
        let turn_id = turn.turn_id.as_str();
        let mut retried = false;
        'fresh: loop {
            *text = TurnText::default();
            let mut previous = self.chain.previous_id().map(str::to_string);
            let mut input = self.chain.leading_items();
            input.push(body::user_item(self.cfg.post_history.as_deref(), turn));
            let mut round = 1;
            loop {
                let chained = previous.is_some();
                if round > 1 || retried {
                    // A request after the turn's first: the wait for it gets
                    // the long budget, whatever the last round ended on.
                    self.reply(turn_id, ReplyPart::Alive { after_speech: false });
                }
                tracing::info!(record = "responses.request", turn_id, round, chained);
                let request = body::request(&self.cfg, &self.vocab, previous.as_deref(), std::mem::take(&mut input));
                let (id, usage, calls) = match self.round(turn_id, &request, text).await? {
                    RoundEnd::Completed { id, usage, calls } => (id, usage, calls),
                    RoundEnd::Failed(e) => {
                        if e.status() == Some(404) && chained && round == 1 && !retried {
                            tracing::info!(turn_id, "responses: the chained response is gone; starting a fresh chain");
                            self.chain.lost();
                            self.link.report(Inbound::Notice {
                                code: ErrorCode::ContextReset,
                                message: CONTEXT_RESET_NOTICE.into(),
                                phrase: Some(crate::event::Phrase::new("notice-context-reset")),
                            });
                            retried = true;
                            continue 'fresh;
                        }
                        self.fail(turn, &e, text);
                        return Ok(());
                    }
                };
                let runs_tools = calls.iter().any(|c| c.answer.is_none());
                let rest = text.segmenter.finish();
                let silent = !text.segmenter.spoke();
                let follow = !calls.is_empty() && (runs_tools || silent) && round < MAX_ROUND_TRIPS && id.is_some();
                if runs_tools {
                    if let Some(seg) = rest.clone().filter(|_| follow) {
                        self.reply(turn_id, ReplyPart::Speech { segments: vec![seg] });
                    }
                    self.wait_results(turn_id, &calls).await?;
                }
                if follow {
                    if !runs_tools {
                        if let Some(seg) = rest {
                            self.reply(turn_id, ReplyPart::Speech { segments: vec![seg] });
                        }
                    }
                    input = self.outputs(&calls);
                    previous = id;
                    round += 1;
                    continue;
                }
                let pending = self.outputs(&calls);
                if let Some(id) = id {
                    self.chain.adopt(id, pending);
                }
                let reasoning = (!text.reasoning.is_empty()).then(|| text.reasoning.clone());
                if rest.is_some() || reasoning.is_some() {
                    let segments = rest.into_iter().collect();
                    self.reply(turn_id, ReplyPart::Render { source: Some(self.cfg.model.clone()), segments, reasoning });
                }
                self.reply(turn_id, ReplyPart::End { usage });
                return Ok(());
            }
        }
    }

    /// Send one request and read its stream to a terminal event.
    async fn round(&mut self, turn_id: &str, request: &Value, text: &mut TurnText) -> Result<RoundEnd, Interrupt> {
        let url = endpoint(&self.cfg.base_url, "responses");
        let client = self.client.clone();
        let key = self.cfg.key.expose().to_string();
        let post = async move { sse::post_stream(&client, &url, &key, request).await };
        let mut stream: EventStream = match self.wait(turn_id, post).await? {
            Ok(s) => s,
            Err(e) => return Ok(RoundEnd::Failed(e)),
        };
        let mut reader = Reader::new(turn_id);
        loop {
            let next = match self.wait(turn_id, stream.next()).await? {
                None => {
                    let e = RequestError::Stream { status: None, message: "the stream ended before response.completed".into(), raw: String::new() };
                    return Ok(RoundEnd::Failed(e));
                }
                Some(Err(e)) => return Ok(RoundEnd::Failed(e)),
                Some(Ok(ev)) => ev,
            };
            // An error a proxy writes into the stream (`{"error": {...}}`
            // with no type, an `event: error` frame) ends the round with its
            // status and text.
            if let Some(e) = sse::error_envelope(&next.event, &next.data) {
                return Ok(RoundEnd::Failed(e));
            }
            let event = match serde_json::from_str::<StreamEvent>(&next.data) {
                Ok(ev) => ev,
                Err(e) => {
                    // A malformed event is skipped; it still shows the stream is alive.
                    let (event, error) = (self.scrub(&next.event), self.scrub(&e.to_string()));
                    tracing::warn!(record = "sse_malformed", transport = NAME, turn_id, event = %event, error = %error, "responses: unreadable stream event skipped");
                    self.reply(turn_id, ReplyPart::Alive { after_speech: false });
                    continue;
                }
            };
            let step = reader.on_event(event, text);
            for ev in reader.drain() {
                self.link.report(ev);
            }
            match step {
                Step::Continue => {}
                Step::Completed { id, usage } => {
                    return Ok(RoundEnd::Completed { id, usage, calls: reader.calls().to_vec() });
                }
                Step::Failed => {
                    let e = RequestError::Stream { status: None, message: GENERIC_FAILURE.into(), raw: next.data };
                    return Ok(RoundEnd::Failed(e));
                }
                Step::Error(e) => return Ok(RoundEnd::Failed(e)),
            }
        }
    }

    /// End the turn on a failure: the notice for a refused key; what the
    /// segmenter held (a complete sentence is spoken, as the stream's end
    /// would have made it; an unfinished fragment is only unsaid); the
    /// shown text, then the end. A turn that streamed text is carried into
    /// the next request; one that streamed none leaves the chain as it was.
    fn fail(&mut self, turn: &TurnRequest, e: &RequestError, text: &mut TurnText) {
        let turn_id = turn.turn_id.as_str();
        let status = e.status();
        let kind = error_kind(e);
        if matches!(status, Some(401 | 403)) {
            // A refusal's body often repeats the key: nothing of it is logged.
            tracing::warn!(record = "http_error", transport = NAME, turn_id, status = ?status, kind, "responses: the turn failed");
        } else {
            let detail = cut(&self.scrub(&e.to_string()), LOGGED_DETAIL);
            tracing::warn!(record = "http_error", transport = NAME, turn_id, status = ?status, kind, detail = %detail, "responses: the turn failed");
        }
        if e.code() == ErrorCode::Auth {
            self.link.report(Inbound::Notice {
                code: ErrorCode::Auth,
                message: AUTH_NOTICE.into(),
                phrase: Some(crate::event::Phrase::new("notice-key-refused")),
            });
        }
        let (last, unsaid) = text.segmenter.cut_short();
        if let Some(segment) = last {
            self.reply(turn_id, ReplyPart::Speech { segments: vec![segment] });
        }
        if let Some(unsaid) = unsaid {
            self.reply(turn_id, ReplyPart::Unsaid { text: unsaid });
        }
        if !text.streamed.trim().is_empty() {
            self.carry(turn, text);
        }
        self.reply(turn_id, ReplyPart::Error { message: e.shown() });
        self.reply(turn_id, ReplyPart::End { usage: None });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrub_replaces_the_key_and_keeps_one_line() {
        assert_eq!(scrub("HTTP 500: key sk-1\n was bad sk-1", "sk-1"), "HTTP 500: key <key> was bad <key>");
        assert_eq!(scrub("nothing  here", ""), "nothing here");
        assert_eq!(scrub("nothing here", "  "), "nothing here");
    }

    #[test]
    fn failure_kinds() {
        assert_eq!(error_kind(&RequestError::Http { status: 401, body: String::new() }), "http");
        assert_eq!(error_kind(&RequestError::Connect { url: String::new(), message: String::new() }), "connect");
        assert_eq!(error_kind(&RequestError::Stream { status: None, message: String::new(), raw: String::new() }), "stream");
        assert_eq!(cut("abcdef", 3), "abc…");
        assert_eq!(cut("abc", 3), "abc");
    }
}
