//! The Chat Completions transport (`chat_api: "chat_completions"`): one
//! streamed `POST /v1/chat/completions` per round, with the conversation
//! transcript kept by the client (`CONTRACT.md` beside the parent module).
//!
//! Tool progress: the transport table says "done for a tool the backend
//! runs", but the standard Chat Completions wire has no event for it, so
//! this transport reports no `ToolStatus`.

pub mod calls;
pub mod layout;
pub mod transcript;
pub mod wire;

use crate::error::ErrorCode;
use crate::event::Status;
use crate::model::Usage;
use crate::transport::express::{self, Segmenter};
use crate::transport::request::{RequestConfig, MAX_ROUND_TRIPS};
use crate::transport::sse::{self, EventStream, RequestError, SseEvent};
use crate::transport::{endpoint, Inbound, Link, Outbound, ReplyPart, ToolCall, TurnRequest};
use calls::{Assembled, Calls};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::future::Future;
use std::pin::Pin;
use transcript::{CallRecord, Entry, Transcript};

/// The transport's name in logs.
pub const NAME: &str = "chat_completions";

/// The answer recorded for a client call whose result never came.
pub const NO_ANSWER: &str = "error: no answer";

type Connecting = Pin<Box<dyn Future<Output = Result<EventStream, RequestError>> + Send>>;

enum Wire {
    Connecting(Connecting),
    Streaming(EventStream),
    Waiting,
}

struct CallRec {
    record: CallRecord,
    answer: Option<String>,
    images: Vec<String>,
}

#[derive(Default)]
struct Round {
    text: String,
    calls: Vec<CallRec>,
}

impl Round {
    fn entries(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        if self.calls.is_empty() && self.text.is_empty() {
            return out;
        }
        out.push(Entry::Assistant { content: self.text.clone(), tool_calls: self.calls.iter().map(|c| c.record.clone()).collect() });
        for c in &self.calls {
            out.push(Entry::Tool { tool_call_id: c.record.id.clone(), content: c.answer.clone().unwrap_or_else(|| NO_ANSWER.into()) });
        }
        out
    }

    fn images(&self) -> Vec<String> {
        self.calls.iter().flat_map(|c| c.images.iter().cloned()).collect()
    }
}

struct Flight {
    turn: TurnRequest,
    request: usize,
    done: Vec<Round>,
    round: Round,
    seg: Segmenter,
    calls: Calls,
    usage: Option<Usage>,
    /// A choice of the current request carried a `finish_reason`: the
    /// stream ended properly (a usage chunk may follow it).
    finished: bool,
    /// The last round asked for a follow-up request.
    follow: bool,
    wire: Wire,
}

impl Flight {
    fn pending(&self) -> bool {
        self.done.iter().chain(std::iter::once(&self.round)).flat_map(|r| &r.calls).any(|c| c.answer.is_none())
    }

    fn said(&self) -> String {
        self.done.iter().chain(std::iter::once(&self.round)).map(|r| r.text.as_str()).collect()
    }
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
        Wire::Waiting => std::future::pending().await,
    }
}

struct Session {
    cfg: RequestConfig,
    client: reqwest::Client,
    transcript: Transcript,
    flight: Option<Flight>,
}

/// Run the transport until the link's token fires or its outbound channel
/// closes.
pub async fn run(cfg: RequestConfig, mut link: Link) {
    link.report(Inbound::Status(Status::Stateless));
    let transcript = Transcript::load(&cfg.transcript_path);
    let mut s = Session { cfg, client: sse::client(), transcript, flight: None };
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
            Step::Connected(Err(e)) | Step::Item(Some(Err(e))) => {
                let kind = kind_of(&e);
                s.fail(e, kind, &link)
            }
            Step::Item(Some(Ok(ev))) => s.event(&ev, &link),
            Step::Item(None) => s.stream_ended(&link),
        }
    }
}

impl Session {
    fn outbound(&mut self, m: Outbound, link: &Link) {
        match m {
            Outbound::Turn(turn) => {
                self.abort(link);
                tracing::info!(record = "turn", transport = NAME, turn_id = %turn.turn_id, spoke_text = false);
                self.flight = Some(Flight {
                    turn,
                    request: 0,
                    done: Vec::new(),
                    round: Round::default(),
                    seg: Segmenter::new(),
                    calls: Calls::new(),
                    usage: None,
                    finished: false,
                    follow: false,
                    wire: Wire::Waiting,
                });
                self.send(link);
            }
            Outbound::Stop { turn_ids } => {
                if self.flight.as_ref().is_some_and(|f| turn_ids.contains(&f.turn.turn_id)) {
                    self.abort(link);
                }
            }
            Outbound::Abandon { turn_id } => {
                if self.flight.as_ref().is_some_and(|f| f.turn.turn_id == turn_id) {
                    self.abort(link);
                }
            }
            Outbound::ToolResult(r) => {
                let Some(f) = self.flight.as_mut().filter(|f| f.turn.turn_id == r.turn_id) else { return };
                let call = f
                    .done
                    .iter_mut()
                    .chain(std::iter::once(&mut f.round))
                    .flat_map(|round| round.calls.iter_mut())
                    .find(|c| c.record.id == r.id && c.answer.is_none());
                let Some(call) = call else { return };
                call.answer = Some(r.result);
                call.images = crate::transport::request::urls(&r.images);
                if matches!(f.wire, Wire::Waiting) {
                    self.proceed(link);
                }
            }
            Outbound::Reset => self.transcript.reset(),
            Outbound::Greeting { text } => self.transcript.commit(vec![Entry::Assistant { content: text, tool_calls: Vec::new() }]),
            Outbound::Vocabulary(v) => self.cfg.vocabulary = v,
            Outbound::Playback { .. } | Outbound::Reconnect | Outbound::Side(_) => {}
        }
    }

    /// Send the flight's next request (the first, or a follow-up with the
    /// turn's earlier rounds). A follow-up first reports the turn alive
    /// without speech: the engine's deadline resets on each report, and the
    /// new request's first wait is the long one, not the 45 s after speech.
    fn send(&mut self, link: &Link) {
        let Some(f) = self.flight.as_mut() else { return };
        f.request += 1;
        if f.request > 1 {
            link.reply(&f.turn.turn_id, ReplyPart::Alive { after_speech: false });
        }
        let mut rounds = Vec::new();
        for r in &f.done {
            rounds.extend(r.entries().iter().flat_map(Entry::messages));
            let images = r.images();
            if !images.is_empty() {
                let parts: Vec<Value> = images.iter().map(|u| json!({ "type": "image_url", "image_url": { "url": u } })).collect();
                rounds.push(json!({ "role": "user", "content": parts }));
            }
        }
        let messages = layout::messages(&self.cfg, &mut self.transcript, &f.turn, &rounds);
        tracing::info!(record = "chat_completions.request", turn_id = %f.turn.turn_id, round = f.request, messages = messages.len(), replay_from = self.transcript.cursor());
        let body = layout::body(&self.cfg, messages);
        let (client, url, key) = (self.client.clone(), endpoint(&self.cfg.base_url, "chat/completions"), self.cfg.key.expose().to_string());
        f.seg = Segmenter::new();
        f.calls = Calls::new();
        f.usage = None;
        f.finished = false;
        f.wire = Wire::Connecting(Box::pin(async move { sse::post_stream(&client, &url, &key, &body).await }));
    }

    /// Stop, abandon or a newer turn: drop the request, keep the user entry
    /// and the text said so far, report what the segmenter still held as
    /// unsaid (shown, recorded as never spoken, not played), then the end.
    fn abort(&mut self, link: &Link) {
        let Some(mut f) = self.flight.take() else { return };
        let mut entries = vec![Entry::User { input: f.turn.input.clone(), guide: f.turn.guide, language: f.turn.guide_language }];
        let said = f.said();
        if !said.is_empty() {
            entries.push(Entry::Assistant { content: said, tool_calls: Vec::new() });
        }
        self.transcript.commit(entries);
        let held: String = f.calls.take_back().into_iter().chain(f.seg.unsaid()).collect();
        tracing::info!(record = "chat_completions.interrupted", turn_id = %f.turn.turn_id, unsaid = held.chars().count());
        if !held.trim().is_empty() {
            link.reply(&f.turn.turn_id, ReplyPart::Unsaid { text: held });
        }
        link.reply(&f.turn.turn_id, ReplyPart::End { usage: None });
    }

    /// The request or its stream failed. What the segmenter held is
    /// reported: a complete sentence as the last speech (as the stream's end
    /// would have made it), an unfinished fragment as unsaid. A turn that
    /// streamed text keeps its user entry and that text in the transcript;
    /// one that streamed none records nothing. The log line names the status
    /// and the kind of failure only: an error's text can carry the server's
    /// body, and a 401 body often repeats the key.
    fn fail(&mut self, e: RequestError, kind: &'static str, link: &Link) {
        let Some(mut f) = self.flight.take() else { return };
        tracing::warn!(record = "http_error", transport = NAME, turn_id = %f.turn.turn_id, status = ?e.status(), kind);
        if let Some(status @ (401 | 403)) = e.status().filter(|_| matches!(e, RequestError::Http { .. })) {
            link.report(Inbound::Notice {
                code: ErrorCode::Auth,
                message: format!("The server refused the key (HTTP {status}). Check the key in settings."),
                phrase: Some(crate::event::Phrase::new("notice-key-refused-http").arg("status", status)),
            });
        }
        let mut parts = Vec::new();
        if let Some(taken) = f.calls.take_back() {
            for seg in f.seg.put_back(taken) {
                parts.push(ReplyPart::Speech { segments: vec![seg] });
            }
        }
        let (last, unsaid) = f.seg.cut_short();
        parts.extend(last.map(|seg| ReplyPart::Speech { segments: vec![seg] }));
        parts.extend(unsaid.map(|text| ReplyPart::Unsaid { text }));
        let said = f.said();
        if !said.trim().is_empty() {
            let mut entries = vec![Entry::User { input: f.turn.input.clone(), guide: f.turn.guide, language: f.turn.guide_language }];
            for r in &f.done {
                entries.extend(r.entries());
            }
            entries.push(Entry::Assistant { content: f.round.text.clone(), tool_calls: Vec::new() });
            entries.retain(|e| !matches!(e, Entry::Assistant { content, tool_calls } if content.is_empty() && tool_calls.is_empty()));
            self.transcript.commit(entries);
        }
        for p in parts {
            link.reply(&f.turn.turn_id, p);
        }
        link.reply(&f.turn.turn_id, ReplyPart::Error { message: e.shown() });
        link.reply(&f.turn.turn_id, ReplyPart::End { usage: None });
    }

    fn event(&mut self, ev: &SseEvent, link: &Link) {
        // An error written into the stream: a chunk's `error`, an `event:
        // error` frame or a typed error event (`sse::error_envelope`).
        if let Some(err) = sse::error_envelope(&ev.event, &ev.data) {
            return self.fail(err, "stream_error", link);
        }
        let chunk = match wire::parse(&ev.data) {
            Ok(c) => c,
            Err(e) => {
                let (event, error) = (scrub(self.cfg.key.expose(), &ev.event), scrub(self.cfg.key.expose(), &e.to_string()));
                tracing::warn!(record = "sse_malformed", transport = NAME, event = %event, error = %error);
                if let Some(f) = &self.flight {
                    link.reply(&f.turn.turn_id, ReplyPart::Alive { after_speech: false });
                }
                return;
            }
        };
        if let Some(err) = chunk.error {
            return self.fail(err.into_request_error(&ev.data), "stream_error", link);
        }
        let Some(f) = self.flight.as_mut() else { return };
        if chunk.choices.iter().any(|c| c.finish_reason.is_some()) {
            f.finished = true;
        }
        let mut parts = Vec::new();
        if let Some(u) = chunk.usage {
            f.usage = Some(u.into());
        }
        if let Some(choice) = chunk.choices.into_iter().next() {
            let d = choice.delta;
            if let Some(r) = d.reasoning_content.filter(|s| !s.is_empty()).or(d.reasoning.filter(|s| !s.is_empty())) {
                parts.push(ReplyPart::Reasoning { delta: r });
            }
            for piece in &d.tool_calls {
                if let Some(done) = f.calls.piece(piece, &mut f.seg) {
                    complete(&self.cfg, f, done, &mut parts, link);
                }
            }
            if let Some(text) = d.content.filter(|s| !s.is_empty()) {
                if let Some(done) = f.calls.finish() {
                    complete(&self.cfg, f, done, &mut parts, link);
                }
                for seg in f.seg.text(&text) {
                    parts.push(ReplyPart::Speech { segments: vec![seg] });
                }
                f.round.text.push_str(&text);
                parts.push(ReplyPart::Alive { after_speech: true });
            }
            if choice.finish_reason.is_some() {
                if let Some(done) = f.calls.finish() {
                    complete(&self.cfg, f, done, &mut parts, link);
                }
            }
        }
        if parts.is_empty() {
            parts.push(ReplyPart::Alive { after_speech: false });
        }
        for p in parts {
            link.reply(&f.turn.turn_id, p);
        }
    }

    /// The stream ended: close the round, then follow up or end the turn. A
    /// stream that ends before any `finish_reason` (the connection closed
    /// mid-reply; `[DONE]` alone proves nothing) is a failure.
    fn stream_ended(&mut self, link: &Link) {
        let Some(f) = self.flight.as_mut() else { return };
        if !f.finished {
            let e = RequestError::Stream { status: None, message: "the stream ended before a finish_reason".into(), raw: String::new() };
            return self.fail(e, "incomplete", link);
        }
        let mut parts = Vec::new();
        if let Some(done) = f.calls.finish() {
            complete(&self.cfg, f, done, &mut parts, link);
        }
        if let Some(seg) = f.seg.finish() {
            parts.push(ReplyPart::Speech { segments: vec![seg] });
        }
        for p in parts {
            link.reply(&f.turn.turn_id, p);
        }
        let round = std::mem::take(&mut f.round);
        let client_called = round.calls.iter().any(|c| !express::is_express(&c.record.name));
        f.follow = client_called || (!f.seg.spoke() && !round.calls.is_empty());
        f.done.push(round);
        f.wire = Wire::Waiting;
        self.proceed(link);
    }

    /// Between requests: once every client call has its result, send the
    /// follow-up, or (no follow-up, or the round-trip cap reached) end the
    /// turn. Until then, wait; a Stop or Abandon still ends it at once.
    fn proceed(&mut self, link: &Link) {
        let Some(f) = self.flight.as_ref() else { return };
        if f.pending() {
            return;
        }
        if f.follow && f.request < MAX_ROUND_TRIPS {
            return self.send(link);
        }
        let Some(f) = self.flight.take() else { return };
        let mut entries = vec![Entry::User { input: f.turn.input.clone(), guide: f.turn.guide, language: f.turn.guide_language }];
        for r in &f.done {
            entries.extend(r.entries());
        }
        self.transcript.commit(entries);
        link.reply(&f.turn.turn_id, ReplyPart::End { usage: f.usage });
    }
}

/// The kind of a failure, for the log.
fn kind_of(e: &RequestError) -> &'static str {
    match e {
        RequestError::Connect { .. } => "connect",
        RequestError::Http { .. } => "http",
        RequestError::Stream { .. } => "stream",
        RequestError::Decode { .. } => "decode",
    }
}

/// `text` with the key replaced by `<key>` (an empty key replaces nothing).
fn scrub(key: &str, text: &str) -> String {
    if key.is_empty() {
        text.to_string()
    } else {
        text.replace(key, "<key>")
    }
}

/// The names of the client tools `cfg.tools` declares.
fn declared(cfg: &RequestConfig, name: &str) -> bool {
    cfg.tools.iter().any(|t| t.pointer("/function/name").or_else(|| t.get("name")).and_then(Value::as_str) == Some(name))
}

/// A call is complete: place its cue, or hand it to the client's executor.
fn complete(cfg: &RequestConfig, f: &mut Flight, a: Assembled, parts: &mut Vec<ReplyPart>, link: &Link) {
    let record = CallRecord { id: a.id.clone(), name: a.name.clone(), arguments: a.arguments.clone() };
    let answer = if express::is_express(&a.name) {
        match express::parse_cue(&a.arguments) {
            Ok(cue) => {
                let seg = f.seg.cue_taken(cue, a.taken.unwrap_or_default());
                parts.push(ReplyPart::Speech { segments: vec![seg] });
                Some(express::OK.to_string())
            }
            Err(answer) => {
                if let Some(t) = a.taken {
                    for seg in f.seg.put_back(t) {
                        parts.push(ReplyPart::Speech { segments: vec![seg] });
                    }
                }
                parts.push(ReplyPart::Alive { after_speech: false });
                Some(answer.to_string())
            }
        }
    } else if declared(cfg, &a.name) {
        let arguments = match serde_json::from_str::<Value>(&a.arguments) {
            Ok(v @ Value::Object(_)) => v,
            _ => Value::Null,
        };
        link.report(Inbound::ToolCall(ToolCall { id: a.id, turn_id: f.turn.turn_id.clone(), name: a.name, arguments }));
        None
    } else {
        Some("error: unknown tool".to_string())
    };
    f.round.calls.push(CallRec { record, answer, images: Vec::new() });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_scrubbed_and_an_empty_key_changes_nothing() {
        assert_eq!(scrub("sk-1", "Bearer sk-1 and sk-1x"), "Bearer <key> and <key>x");
        assert_eq!(scrub("", "nothing to hide"), "nothing to hide");
    }
}
