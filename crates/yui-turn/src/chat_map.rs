//! [`ChatMap`]: every transport onto the eleven chat events. Pure: the
//! driver feeds it what it sees (the engine's UI events, the transport's
//! reply parts, the client's own tool calls and results, each with the time)
//! and emits what it returns.
//!
//! The chat's `msg_id` is the turn id (a backend turn's own id for the
//! backend's turns), and so is `run_id`. Per turn:
//!
//! - `start` when a turn the user started starts (`turn_started` with
//!   text or files); for a turn nobody typed (her own initiative) or one the
//!   backend began on its own, at the first thing it shows: a turn that
//!   stays silent, or is stopped before it showed anything, leaves the chat
//!   as it was (no message at all);
//! - `delta` for each piece of reply text as it arrives: push `speech` and
//!   `render` segments (a render that repeats text already shown adds only
//!   its new part), the request transports' finished sentences, or
//!   `agent_chat`'s own deltas. A segment whose speech is empty or the bare
//!   `[SILENT]` shows nothing (its cues still play), and neither does an
//!   `agent_chat` reply that is exactly `[SILENT]` (its deltas are held
//!   while they could still be it). Text a request transport still held
//!   when a stop, a stall or an error ended the turn (`unsaid`) is shown
//!   too, after the `cancelled` or `error` already sent when it comes late;
//! - `reasoning` for reasoning text (a push render's whole reasoning adds
//!   only its new part);
//! - `tool_call` / `tool_result` for the client's own tools (with their
//!   arguments and output) and for the backend's `tool_status` (name only,
//!   paired by name);
//! - `agent_chat`'s `tool_drafting`, `tool_call`, `tool_result` and
//!   `approval_request` pass through as sent; once a turn has its own events
//!   the derived ones (sentences, reasoning parts, tool status) are not
//!   mapped again;
//! - at the end: `cancelled` for a stop (and nothing else); `error` for a
//!   failure (`auth` after a refused key, `rate_limit` after HTTP 429,
//!   `internal` otherwise); for a reply that ended with no text, nothing
//!   when no tool ran (deliberate silence: no "No output" card, also not
//!   for `agent_chat`'s own `empty` error), nothing either when tools ran
//!   and the reply said `[SILENT]`, and `error` `no_answer` when tools ran
//!   and no text came; then
//!   `usage` (characters, seconds, time to first token, tokens, the context
//!   window, the latency breakdown; on `agent_chat` the engine's own
//!   characters, seconds and time to first token, and no tokens) and `end`.

use super::speaks;
use crate::contract::{ReplyPart, ToolCall, ToolResult, GENERIC_FAILURE};
use std::collections::HashMap;
use yui_protocol::chat::vocabulary::{ChatErrorKind, ChatEvent, Latency, NO_ANSWER, NO_OUTPUT};
use yui_protocol::event::{TurnOutcome, UiEvent};
use yui_protocol::model::{ToolState, Usage};

/// `agent_chat`'s `end` as sent: user index, assistant index, versions,
/// active version (each may be absent).
type ServerEnd = (Option<u64>, Option<u64>, Option<u64>, Option<u64>);

/// Turns the map remembers at most (finished ones are forgotten first).
const TURNS_KEPT: usize = 64;

#[derive(Debug, Default)]
struct TurnMap {
    /// A turn the client started (its end comes as `turn_ended`).
    client: bool,
    started_ms: i64,
    /// The reply text so far.
    text: String,
    reasoning: String,
    /// The turn has `agent_chat` events of its own.
    wire: bool,
    /// Backend tool calls running, by name: the call ids given to them.
    backend_calls: Vec<(String, String, i64)>,
    /// Client tool calls running: id → (tool name, started).
    client_calls: HashMap<String, (String, i64)>,
    tools: u32,
    tools_ok: u32,
    error: Option<String>,
    latency: Latency,
    /// `agent_chat`'s own `end`: the server's indices and versions.
    server_end: Option<ServerEnd>,
    /// `agent_chat`'s own `usage`: characters, seconds, time to first token.
    server_usage: Option<(u64, f64, Option<f64>)>,
    /// `agent_chat`'s own `error` kind: the card's kind when the turn fails.
    server_error: Option<ChatErrorKind>,
    ended: bool,
    /// Its `start` went out: the chat shows the turn.
    shown: bool,
    /// `agent_chat` deltas held while the reply could still be exactly
    /// `[SILENT]`.
    held: String,
    /// The reply said `[SILENT]`: a deliberate silence, also after tools ran.
    said_silent: bool,
    /// The end of a turn that ended before it showed anything (silent, or
    /// stopped): sent after `start` if text comes late (`unsaid`).
    hidden_end: Vec<ChatEvent>,
}

/// Maps one session's turns onto chat events. See the module doc.
#[derive(Debug, Default)]
pub struct ChatMap {
    turns: HashMap<String, TurnMap>,
    order: Vec<String>,
    /// The model's context window, shown beside the tokens.
    context_window: Option<u64>,
    /// The last notice's code, for the next failure's kind.
    last_notice: Option<yui_protocol::ErrorCode>,
    tool_seq: u64,
}

impl ChatMap {
    /// A map whose usage lines show `context_window` beside the tokens.
    pub fn new(context_window: Option<u64>) -> Self {
        Self { context_window, ..Self::default() }
    }

    /// The turn, remembered from now on (a backend turn's first part): its
    /// `start` waits for the first thing it shows ([`TurnMap::show`]).
    fn turn(&mut self, turn_id: &str, now_ms: i64) -> &mut TurnMap {
        if !self.turns.contains_key(turn_id) {
            self.remember(turn_id, TurnMap { started_ms: now_ms, ..TurnMap::default() });
        }
        self.turns.get_mut(turn_id).expect("just inserted")
    }

    fn remember(&mut self, turn_id: &str, t: TurnMap) {
        self.turns.insert(turn_id.to_string(), t);
        self.order.push(turn_id.to_string());
        while self.order.len() > TURNS_KEPT {
            let pos = self.order.iter().position(|id| self.turns.get(id).is_none_or(|t| t.ended)).unwrap_or(0);
            let id = self.order.remove(pos);
            self.turns.remove(&id);
        }
    }

    /// An engine UI event: turn starts and ends, speech starting to play
    /// (the latency's first audio), notices, greetings.
    pub fn ui(&mut self, event: &UiEvent, now_ms: i64) -> Vec<ChatEvent> {
        let mut out = Vec::new();
        match event {
            UiEvent::TurnStarted { turn_id, text, files, .. } => {
                // A turn nobody typed (her own initiative) shows only once
                // it has something to show.
                let typed = !text.trim().is_empty() || !files.is_empty();
                let mut t = TurnMap { client: true, started_ms: now_ms, ..TurnMap::default() };
                if typed {
                    t.show(turn_id, &mut out);
                }
                self.remember(turn_id, t);
            }
            UiEvent::Speech { turn_id, text } => {
                if turn_id.starts_with("greeting-") {
                    let fresh = !self.turns.contains_key(turn_id);
                    let t = self.turn(turn_id, now_ms);
                    t.show(turn_id, &mut out);
                    if !t.text.is_empty() {
                        t.text.push(' ');
                    }
                    t.text.push_str(text);
                    out.push(ChatEvent::Delta { msg_id: turn_id.clone(), text: if fresh { text.clone() } else { format!(" {text}") } });
                    if fresh {
                        self.finish(turn_id, TurnOutcome::Complete, None, None, now_ms, &mut out);
                    }
                } else if let Some(t) = self.turns.get_mut(turn_id) {
                    t.latency.first_audio_ms.get_or_insert(since(t.started_ms, now_ms));
                }
            }
            UiEvent::Notice { code, .. } => self.last_notice = Some(*code),
            // A new conversation: what comes late for the old one's turns
            // (text a stop left unsaid) does not land in it.
            UiEvent::SessionReset => {
                self.turns.clear();
                self.order.clear();
            }
            UiEvent::TurnEnded { turn_id, outcome, usage, error } if self.turns.get(turn_id).is_some_and(|t| !t.ended) => {
                self.finish(turn_id, *outcome, *usage, error.clone(), now_ms, &mut out);
            }
            _ => {}
        }
        out
    }

    /// The turn's request left (after its screenshot, when it took one).
    pub fn sent(&mut self, turn_id: &str, now_ms: i64) {
        if let Some(t) = self.turns.get_mut(turn_id) {
            t.latency.request_sent_ms.get_or_insert(since(t.started_ms, now_ms));
        }
    }

    /// A reply part the engine accepted (not one of a stopped turn).
    ///
    /// [`ReplyPart::Unsaid`] also comes for a turn already ended (stopped,
    /// or abandoned after a stall): its text is shown after the end.
    pub fn reply(&mut self, turn_id: &str, part: &ReplyPart, now_ms: i64) -> Vec<ChatEvent> {
        let mut out = Vec::new();
        if matches!(part, ReplyPart::Alive { .. } | ReplyPart::Unsaid { .. }) && !self.turns.contains_key(turn_id) {
            return out;
        }
        let t = self.turn(turn_id, now_ms);
        if let ReplyPart::Unsaid { text } = part {
            if !speaks(text) {
                return out;
            }
            let piece = if t.text.is_empty() || text.starts_with(char::is_whitespace) { text.clone() } else { format!(" {text}") };
            t.show(turn_id, &mut out);
            t.text.push_str(&piece);
            out.push(ChatEvent::Delta { msg_id: turn_id.to_string(), text: piece });
            // A turn that ended before it showed anything gets its end now.
            out.append(&mut t.hidden_end);
            return out;
        }
        if t.ended {
            return out;
        }
        if !matches!(part, ReplyPart::End { .. }) {
            t.latency.first_token_ms.get_or_insert(since(t.started_ms, now_ms));
        }
        let msg_id = turn_id.to_string();
        match part {
            ReplyPart::Speech { segments } | ReplyPart::Render { segments, .. } if !t.wire => {
                // A silent segment (empty or the bare `[SILENT]`) shows nothing.
                t.said_silent |= segments.iter().any(|s| s.speech.trim() == super::SILENT);
                let text = joined(segments.iter().map(|s| s.speech.trim()).filter(|s| speaks(s)));
                if !text.is_empty() {
                    t.latency.first_sentence_ms.get_or_insert(since(t.started_ms, now_ms));
                }
                let add = if matches!(part, ReplyPart::Render { .. }) { new_part(&t.text, &text) } else { Some(text) };
                if let Some(add) = add.filter(|a| !a.is_empty()) {
                    let piece = if t.text.is_empty() || add.starts_with(' ') { add } else { format!(" {add}") };
                    t.show(turn_id, &mut out);
                    t.text.push_str(&piece);
                    out.push(ChatEvent::Delta { msg_id: msg_id.clone(), text: piece });
                }
                if let ReplyPart::Render { reasoning: Some(r), .. } = part {
                    if let Some(add) = new_part(&t.reasoning, r).filter(|a| !a.is_empty()) {
                        t.show(turn_id, &mut out);
                        t.reasoning.push_str(&add);
                        out.push(ChatEvent::Reasoning { msg_id, text: add });
                    }
                }
            }
            ReplyPart::Reasoning { delta } if !t.wire => {
                t.show(turn_id, &mut out);
                t.reasoning.push_str(delta);
                out.push(ChatEvent::Reasoning { msg_id, text: delta.clone() });
            }
            ReplyPart::ToolStatus { state, tool_id } if !t.wire => match state {
                ToolState::Running => {
                    t.show(turn_id, &mut out);
                    self.tool_seq += 1;
                    let call_id = format!("{tool_id}#{}", self.tool_seq);
                    let t = self.turns.get_mut(turn_id).expect("present");
                    t.backend_calls.push((tool_id.clone(), call_id.clone(), now_ms));
                    t.tools += 1;
                    out.push(ChatEvent::ToolCall { msg_id, call_id, name: tool_id.clone(), args: serde_json::Value::Null });
                }
                ToolState::Done | ToolState::Failed => {
                    let ok = *state == ToolState::Done;
                    let found = t.backend_calls.iter().position(|(n, _, _)| n == tool_id).map(|i| t.backend_calls.remove(i));
                    let (call_id, started) = match found {
                        Some((_, id, at)) => (id, at),
                        None => {
                            // A result with no call seen: the card still shows.
                            t.tools += 1;
                            self.tool_seq += 1;
                            (format!("{tool_id}#{}", self.tool_seq), now_ms)
                        }
                    };
                    let t = self.turns.get_mut(turn_id).expect("present");
                    t.show(turn_id, &mut out);
                    t.tools_ok += u32::from(ok);
                    out.push(ChatEvent::ToolResult { msg_id, call_id, name: tool_id.clone(), ok, output: String::new(), seconds: Some(secs(started, now_ms)) });
                }
            },
            ReplyPart::Error { message } => t.error = Some(message.clone()),
            ReplyPart::End { usage } if !t.client => {
                self.finish(turn_id, TurnOutcome::Complete, *usage, None, now_ms, &mut out);
            }
            _ => {}
        }
        out
    }

    /// One of `agent_chat`'s own events for `turn_id`. Its text, reasoning,
    /// tools and approvals pass through under the turn's id; its start and
    /// terminal events are the turn's own (the engine's end decides them).
    pub fn wire(&mut self, turn_id: &str, event: &ChatEvent, now_ms: i64) -> Vec<ChatEvent> {
        let mut out = Vec::new();
        let t = self.turn(turn_id, now_ms);
        if t.ended {
            return out;
        }
        t.wire = true;
        if !matches!(
            event,
            ChatEvent::End { .. }
                | ChatEvent::Usage { .. }
                | ChatEvent::Start { .. }
                | ChatEvent::Cancelled { .. }
                | ChatEvent::Error { .. }
                | ChatEvent::Delta { .. }
        ) {
            t.show(turn_id, &mut out);
        }
        t.latency.first_token_ms.get_or_insert(since(t.started_ms, now_ms));
        let msg_id = turn_id.to_string();
        match event.clone() {
            ChatEvent::Reasoning { text, .. } => {
                t.reasoning.push_str(&text);
                out.push(ChatEvent::Reasoning { msg_id, text });
            }
            ChatEvent::Delta { text, .. } => {
                // Held while the reply so far could still be exactly `[SILENT]`.
                if t.text.is_empty() && could_be_silent(&format!("{}{text}", t.held)) {
                    t.held.push_str(&text);
                    return out;
                }
                let text = format!("{}{text}", std::mem::take(&mut t.held));
                if t.latency.first_sentence_ms.is_none() && text.contains(['.', '!', '?', '。', '！', '？', '\n']) {
                    t.latency.first_sentence_ms = Some(since(t.started_ms, now_ms));
                }
                t.show(turn_id, &mut out);
                t.text.push_str(&text);
                out.push(ChatEvent::Delta { msg_id, text });
            }
            ChatEvent::ToolDrafting { name, .. } => out.push(ChatEvent::ToolDrafting { msg_id, name }),
            ChatEvent::ToolCall { call_id, name, args, .. } => {
                t.tools += 1;
                out.push(ChatEvent::ToolCall { msg_id, call_id, name, args });
            }
            ChatEvent::ToolResult { call_id, name, ok, output, seconds, .. } => {
                t.tools_ok += u32::from(ok);
                out.push(ChatEvent::ToolResult { msg_id, call_id, name, ok, output, seconds });
            }
            ChatEvent::ApprovalRequest { approval_id, call_id, name, args, .. } => {
                out.push(ChatEvent::ApprovalRequest { msg_id, approval_id, call_id, name, args });
            }
            ChatEvent::End { user_index, assistant_index, versions, active, .. } => {
                // Kept for the end the engine's turn end writes.
                t.server_end = Some((user_index, assistant_index, versions, active));
            }
            ChatEvent::Usage { chars, seconds, ttft, .. } => t.server_usage = Some((chars, seconds, ttft)),
            ChatEvent::Error { kind, .. } => t.server_error = Some(kind),
            ChatEvent::Start { .. } | ChatEvent::Cancelled { .. } => {}
        }
        out
    }

    /// The client asks the user before one of its own tools runs: an
    /// approval card for the call.
    pub fn ask(&mut self, turn_id: &str, approval_id: &str, call_id: &str, name: &str, args: &serde_json::Value, now_ms: i64) -> Vec<ChatEvent> {
        let mut out = Vec::new();
        let t = self.turn(turn_id, now_ms);
        if t.ended {
            return out;
        }
        t.show(turn_id, &mut out);
        out.push(ChatEvent::ApprovalRequest {
            msg_id: turn_id.to_string(),
            approval_id: approval_id.to_string(),
            call_id: call_id.to_string(),
            name: name.to_string(),
            args: args.clone(),
        });
        out
    }

    /// A client tool call started.
    pub fn tool_call(&mut self, call: &ToolCall, now_ms: i64) -> Vec<ChatEvent> {
        let mut out = Vec::new();
        let t = self.turn(&call.turn_id, now_ms);
        if t.ended {
            return out;
        }
        t.show(&call.turn_id, &mut out);
        t.latency.first_token_ms.get_or_insert(since(t.started_ms, now_ms));
        t.client_calls.insert(call.id.clone(), (call.name.clone(), now_ms));
        t.tools += 1;
        out.push(ChatEvent::ToolCall { msg_id: call.turn_id.clone(), call_id: call.id.clone(), name: call.name.clone(), args: call.arguments.clone() });
        out
    }

    /// A client tool call finished.
    pub fn tool_result(&mut self, result: &ToolResult, now_ms: i64) -> Vec<ChatEvent> {
        let mut out = Vec::new();
        let Some(t) = self.turns.get_mut(&result.turn_id) else { return out };
        let Some((name, started)) = t.client_calls.remove(&result.id) else { return out };
        let ok = !result.result.starts_with("error");
        t.show(&result.turn_id, &mut out);
        t.tools_ok += u32::from(ok);
        out.push(ChatEvent::ToolResult {
            msg_id: result.turn_id.clone(),
            call_id: result.id.clone(),
            name,
            ok,
            output: result.result.clone(),
            seconds: Some(secs(started, now_ms)),
        });
        out
    }

    fn finish(&mut self, turn_id: &str, outcome: TurnOutcome, tokens: Option<Usage>, error: Option<String>, now_ms: i64, out: &mut Vec<ChatEvent>) {
        let notice = self.last_notice.take();
        let context_window = self.context_window;
        let Some(t) = self.turns.get_mut(turn_id) else { return };
        t.ended = true;
        let msg_id = turn_id.to_string();
        // `agent_chat` deltas held as a possible `[SILENT]` that turned out
        // to be something else (`[SIL`) are shown; the bare token is not.
        t.said_silent |= t.held.trim() == super::SILENT;
        if speaks(&t.held) {
            let text = std::mem::take(&mut t.held);
            t.show(turn_id, out);
            t.text.push_str(&text);
            out.push(ChatEvent::Delta { msg_id: msg_id.clone(), text });
        }
        let silent = t.text.trim().is_empty() && t.tools == 0;
        // Ends that show nothing wait, unsent, in case text comes late.
        let mut end = Vec::new();
        if outcome == TurnOutcome::Stopped {
            end.push(ChatEvent::Cancelled { msg_id, run_id: turn_id.into() });
            t.conclude(turn_id, end, false, out);
            return;
        }
        let failure = match outcome {
            TurnOutcome::Failed => {
                let message = error.or(t.error.take()).unwrap_or_else(|| failure_text(notice));
                let kind = match notice {
                    // The engine said what kind of failure it was.
                    _ if t.server_error.is_some() => t.server_error.take().unwrap_or(ChatErrorKind::Internal),
                    Some(yui_protocol::ErrorCode::Auth) => ChatErrorKind::Auth,
                    _ if message.contains("429") || message.to_lowercase().contains("rate limit") => ChatErrorKind::RateLimit,
                    _ => ChatErrorKind::Internal,
                };
                // `agent_chat`'s engine reports a reply with nothing in it as
                // its `empty` error: that is silence too.
                (!(silent && message == NO_OUTPUT)).then_some((kind, message))
            }
            // Deliberate silence: nothing to show, no card (a `[SILENT]`
            // after tools ran too: the character chose not to speak).
            _ if silent || (t.said_silent && t.text.trim().is_empty()) => None,
            _ if t.text.trim().is_empty() => Some((ChatErrorKind::NoAnswer, NO_ANSWER.to_string())),
            _ => None,
        };
        let ttft = t.latency.first_token_ms.map(|ms| ms as f64 / 1000.0);
        // agent_chat counts characters, not tokens: its own figures, and no
        // token readout (the transport's token figure is only an estimate).
        let (chars, seconds, ttft, tokens) = match t.server_usage {
            Some((chars, seconds, server_ttft)) if t.wire => (chars, seconds, server_ttft.or(ttft), None),
            _ => (t.text.chars().count() as u64, secs(t.started_ms, now_ms), ttft, tokens),
        };
        end.push(ChatEvent::Usage {
            msg_id: msg_id.clone(),
            chars,
            seconds,
            ttft,
            tokens,
            context_window: tokens.and(context_window),
            latency: Some(t.latency),
        });
        tracing::info!(
            record = "latency",
            turn_id = %turn_id,
            request_sent_ms = ?t.latency.request_sent_ms,
            first_token_ms = ?t.latency.first_token_ms,
            first_sentence_ms = ?t.latency.first_sentence_ms,
            first_audio_ms = ?t.latency.first_audio_ms,
            total_ms = since(t.started_ms, now_ms)
        );
        let failed = failure.is_some();
        if let Some((kind, message)) = failure {
            end.push(ChatEvent::Error { msg_id: msg_id.clone(), message, kind });
        }
        let (user_index, assistant_index, versions, active) = t.server_end.take().unwrap_or((None, None, None, None));
        end.push(ChatEvent::End { msg_id, user_index, assistant_index, versions, active });
        t.conclude(turn_id, end, failed, out);
    }
}

impl TurnMap {
    /// Send the turn's `start` if it has not gone out yet.
    fn show(&mut self, turn_id: &str, out: &mut Vec<ChatEvent>) {
        if !self.shown {
            self.shown = true;
            out.push(ChatEvent::Start { msg_id: turn_id.into(), run_id: turn_id.into() });
        }
    }

    /// The turn's `end` events: sent when it shows (or `failed`: an error
    /// card shows it); kept unsent when it never showed anything (a silent
    /// or stopped turn nobody typed), in case text comes late.
    fn conclude(&mut self, turn_id: &str, end: Vec<ChatEvent>, failed: bool, out: &mut Vec<ChatEvent>) {
        if self.shown || failed {
            self.show(turn_id, out);
            out.extend(end);
        } else {
            self.hidden_end = end;
        }
    }
}

/// The message of a failure with no server text, from the notice before it.
fn failure_text(notice: Option<yui_protocol::ErrorCode>) -> String {
    use yui_protocol::ErrorCode;
    match notice {
        Some(ErrorCode::Stall) => "The backend did not answer in time.".into(),
        Some(ErrorCode::Network) => "Could not reach the backend.".into(),
        Some(ErrorCode::Auth) => "The server refused the key.".into(),
        _ => GENERIC_FAILURE.into(),
    }
}

/// True while `text` could still become exactly `[SILENT]` (blank, or a
/// start of the token after blanks): `agent_chat` deltas wait that long.
fn could_be_silent(text: &str) -> bool {
    super::SILENT.starts_with(text.trim())
}

fn since(start_ms: i64, now_ms: i64) -> u64 {
    (now_ms - start_ms).max(0) as u64
}

fn secs(start_ms: i64, now_ms: i64) -> f64 {
    since(start_ms, now_ms) as f64 / 1000.0
}

fn joined<'a>(pieces: impl Iterator<Item = &'a str>) -> String {
    pieces.filter(|p| !p.is_empty()).collect::<Vec<_>>().join(" ")
}

/// What `full` adds to `shown`: its rest when it starts with what shows,
/// nothing when what shows already holds it, all of it otherwise.
fn new_part(shown: &str, full: &str) -> Option<String> {
    let full = full.trim();
    if full.is_empty() {
        return None;
    }
    if let Some(rest) = full.strip_prefix(shown.trim()) {
        return Some(rest.to_string());
    }
    if shown.contains(full) {
        return None;
    }
    Some(full.to_string())
}

#[cfg(test)]
#[path = "chat_map_tests.rs"]
mod tests;
