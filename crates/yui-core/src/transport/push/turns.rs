//! The push turn state machine: which turns are outstanding, running, stopped,
//! and what each arriving frame does. Pure: no socket, no clock of its own.

use super::frames::{parse_delegations, parse_usage, ClientFrame, Segment, ServerFrame};
use crate::context::Outcome;
use crate::error::ErrorCode;
use crate::event::{TurnOutcome, UiEvent};
use crate::limits::ERROR_MESSAGE_SHOWN;
use std::collections::{HashSet, VecDeque};
use std::time::Duration;
use tokio::time::Instant;

/// The line the character speaks when a turn fails before any reply.
pub const FAILURE_LINE: &str = "Sorry, I couldn't get a reply through just now.";

use crate::turn::SILENT;

/// What the book wants done: events for the sink, frames for the socket.
#[derive(Debug, Default)]
pub struct Effects {
    /// Events to emit, in order.
    pub events: Vec<UiEvent>,
    /// Frames to send, in order.
    pub frames: Vec<ClientFrame>,
}

#[derive(Debug)]
struct Turn {
    id: String,
    /// The speech shown so far, for the previous-turn record.
    spoken: String,
    first_render: bool,
    /// The frame wait; None once it has passed or the socket left ready.
    deadline: Option<Instant>,
    error: Option<String>,
}

/// The book of outstanding turns on one chat.
pub struct TurnBook {
    frame_wait: Duration,
    turns: Vec<Turn>,
    stopped: HashSet<String>,
    running: Option<String>,
    queue: VecDeque<String>,
    next_id: u64,
    ready: bool,
    context: Box<dyn FnMut() -> String + Send>,
    sent: std::sync::Arc<crate::context_log::ContextLog>,
    outcomes: Option<crate::outcome::OutcomeStore>,
    /// Speech of turns the backend started on its own, by turn id.
    backend_spoken: std::collections::HashMap<String, String>,
    /// Turns the backend started on its own that have no turn_end yet: the
    /// stop button and a typed turn stop them too.
    backend_turns: HashSet<String>,
}

/// The event name of a typed user turn, as the previous-turn line names it.
const USER_EVENT: &str = "user.text_submitted";

impl TurnBook {
    /// A new book. `context` renders the client_context block for a new turn.
    pub fn new(frame_wait: Duration, context: Box<dyn FnMut() -> String + Send>) -> Self {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(1);
        Self {
            frame_wait,
            turns: Vec::new(),
            stopped: HashSet::new(),
            running: None,
            queue: VecDeque::new(),
            next_id: seed,
            ready: false,
            context,
            sent: Default::default(),
            outcomes: None,
            backend_spoken: Default::default(),
            backend_turns: HashSet::new(),
        }
    }

    /// Write previous-turn records into `store`.
    pub fn with_outcomes(mut self, store: crate::outcome::OutcomeStore) -> Self {
        self.outcomes = Some(store);
        self
    }

    /// Record how a turn ended; a failed client turn also goes to the backend
    /// as a playback frame while connected.
    fn write_outcome(&mut self, outcome: Outcome, event_name: &str, turn_id: &str, spoken: &str, fx: &mut Effects) {
        let Some(store) = &self.outcomes else { return };
        store.save(&crate::outcome::record(outcome, event_name, turn_id, crate::session::now_ms(), spoken, ""));
        if outcome == Outcome::Failed && self.ready && event_name != "backend" {
            fx.frames.push(ClientFrame::Playback { turn_id: turn_id.to_string(), ended: "failed".into() });
        }
    }

    /// Record every sent block into `log` (the context inspector's source).
    pub fn with_context_log(mut self, log: std::sync::Arc<crate::context_log::ContextLog>) -> Self {
        self.sent = log;
        self
    }

    /// True while a turn runs or messages wait.
    pub fn busy(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty()
    }

    /// The earliest frame wait still running.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.turns.iter().filter_map(|t| t.deadline).min()
    }

    /// The socket reached ready.
    pub fn set_ready(&mut self) {
        self.ready = true;
    }

    /// True while the socket is ready.
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// A turn frame that could not be sent (too large): the turn fails now.
    pub fn abort_unsent(&mut self, turn_id: &str, message: &str, now: Instant, fx: &mut Effects) {
        self.turns.retain(|t| t.id != turn_id);
        if self.running.as_deref() == Some(turn_id) {
            self.running = None;
        }
        fx.events.push(UiEvent::Notice { code: ErrorCode::FrameOversize, message: message.into() });
        self.write_outcome(Outcome::Failed, USER_EVENT, turn_id, "", fx);
        self.fail_unsent(turn_id.to_string(), now, fx);
    }

    /// A typed message: sent now, or queued behind the running turn.
    pub fn send_text(&mut self, text: String, now: Instant, fx: &mut Effects) {
        if self.running.is_some() {
            self.queue.push_back(text.clone());
            fx.events.push(UiEvent::TurnQueued { text, queued: self.queue.len() as u32 });
            return;
        }
        self.start(text, now, fx);
    }

    fn start(&mut self, text: String, now: Instant, fx: &mut Effects) {
        let turn_id = self.next_id.to_string();
        self.next_id += 1;
        fx.events.push(UiEvent::TurnStarted { turn_id: turn_id.clone(), text: text.clone() });
        if !self.ready {
            tracing::warn!(record = "network_drop", stage = "push_wait", turn_id = %turn_id, "turn started before ready");
            fx.events.push(UiEvent::Notice { code: ErrorCode::Network, message: "Not connected to the backend.".into() });
            self.write_outcome(Outcome::Failed, USER_EVENT, &turn_id, "", fx);
            self.fail_unsent(turn_id, now, fx);
            return;
        }
        // A turn the user typed stops the speech of every older outstanding turn.
        for t in self.turns.drain(..) {
            self.stopped.insert(t.id);
        }
        self.stopped.extend(self.backend_turns.drain());
        let client_context = (self.context)();
        tracing::info!(record = "turn", transport = "push", turn_id = %turn_id, spoke_text = false, chars = text.chars().count(), "turn");
        fx.events.push(UiEvent::ContextSent { turn_id: turn_id.clone(), transport: "push".into(), block: client_context.clone() });
        self.sent.push(crate::context_log::SentContext {
            turn_id: turn_id.clone(),
            transport: "push".into(),
            sent_at: crate::session::now_ms().max(0) as u64,
            block: client_context.clone(),
        });
        fx.frames.push(ClientFrame::Turn { turn_id: turn_id.clone(), client_context, text, images: None });
        self.turns.push(Turn { id: turn_id.clone(), spoken: String::new(), first_render: false, deadline: Some(now + self.frame_wait), error: None });
        self.running = Some(turn_id);
    }

    fn fail_unsent(&mut self, turn_id: String, now: Instant, fx: &mut Effects) {
        fx.events.push(UiEvent::FailureLine { turn_id: turn_id.clone(), text: FAILURE_LINE.into() });
        fx.events.push(UiEvent::TurnEnded { turn_id, outcome: TurnOutcome::Failed, usage: None, error: None });
        self.drain_queue(now, fx);
    }

    /// The stop button: every outstanding turn is stopped and the queue cleared.
    pub fn stop(&mut self, now: Instant, fx: &mut Effects) {
        let _ = now;
        self.queue.clear();
        let cut = self.running.as_ref().and_then(|id| self.turns.iter().find(|t| &t.id == id)).filter(|t| !t.spoken.is_empty()).map(|t| (t.id.clone(), t.spoken.clone()));
        if let Some((id, spoken)) = cut {
            self.write_outcome(Outcome::Interrupted, USER_EVENT, &id, &spoken, fx);
        }
        let mut ids: Vec<String> = self.turns.drain(..).map(|t| t.id).collect();
        let mut backend: Vec<String> = self.backend_turns.drain().collect();
        backend.sort();
        ids.extend(backend);
        if ids.is_empty() {
            return;
        }
        self.stopped.extend(ids.iter().cloned());
        if self.ready {
            tracing::info!(record = "push.stop", turns = ids.len(), "stop");
            fx.frames.push(ClientFrame::Stop { turn_ids: ids });
        }
        if let Some(id) = self.running.take() {
            fx.events.push(UiEvent::TurnEnded { turn_id: id, outcome: TurnOutcome::Stopped, usage: None, error: None });
        }
    }

    /// The socket left ready: every running wait ends at once.
    pub fn left_ready(&mut self, now: Instant, fx: &mut Effects) {
        self.ready = false;
        let ids: Vec<String> = self.turns.iter().filter(|t| t.deadline.is_some()).map(|t| t.id.clone()).collect();
        for id in ids {
            self.end_wait(&id, "network_drop", now, fx);
        }
    }

    /// Frame waits that have passed.
    pub fn tick(&mut self, now: Instant, fx: &mut Effects) {
        let ids: Vec<String> =
            self.turns.iter().filter(|t| t.deadline.is_some_and(|d| d <= now)).map(|t| t.id.clone()).collect();
        for id in ids {
            self.end_wait(&id, "network_stall", now, fx);
        }
    }

    fn end_wait(&mut self, id: &str, record: &'static str, now: Instant, fx: &mut Effects) {
        let Some(t) = self.turns.iter_mut().find(|t| t.id == id) else { return };
        t.deadline = None;
        let delivered = t.first_render;
        let spoken = t.spoken.clone();
        let stage = if delivered { "push_turn_end" } else { "push_wait" };
        if record == "network_stall" {
            tracing::warn!(record = "network_stall", stage, turn_id = %id, "frame wait passed");
        } else {
            tracing::warn!(record = "network_drop", stage, turn_id = %id, "socket left ready");
        }
        if self.running.as_deref() != Some(id) {
            return;
        }
        self.running = None;
        let outcome = if spoken.is_empty() { Outcome::Failed } else { Outcome::Interrupted };
        self.write_outcome(outcome, USER_EVENT, id, &spoken, fx);
        if delivered {
            fx.events.push(UiEvent::TurnEnded { turn_id: id.into(), outcome: TurnOutcome::Complete, usage: None, error: None });
            self.drain_queue(now, fx);
        } else {
            let (code, message) = if record == "network_stall" {
                (ErrorCode::Stall, "The backend did not answer in time.")
            } else {
                (ErrorCode::Network, "The connection dropped before the reply.")
            };
            fx.events.push(UiEvent::Notice { code, message: message.into() });
            self.fail_unsent(id.to_string(), now, fx);
        }
    }

    fn drain_queue(&mut self, now: Instant, fx: &mut Effects) {
        if self.running.is_none() {
            if let Some(text) = self.queue.pop_front() {
                self.start(text, now, fx);
            }
        }
    }

    fn touch(&mut self, id: &str, now: Instant, rendered: bool) {
        if let Some(t) = self.turns.iter_mut().find(|t| t.id == id) {
            if t.deadline.is_some() {
                t.deadline = Some(now + self.frame_wait);
            }
            t.first_render |= rendered;
        }
    }

    fn dropped(&mut self, id: &str, record: &'static str) -> bool {
        if !self.stopped.contains(id) {
            if !self.turns.iter().any(|t| t.id == id) {
                self.backend_turns.insert(id.to_string());
            }
            return false;
        }
        let stopped_count = self.stopped.len();
        tracing::info!(record, turn_id = %id, dropped = "cut_turn", stopped_count, "frame of a stopped turn dropped");
        true
    }

    /// Apply one frame from the backend.
    pub fn on_frame(&mut self, frame: ServerFrame, now: Instant, fx: &mut Effects) {
        match frame {
            ServerFrame::Ready { .. } => {}
            ServerFrame::Render { turn_id, source, segments, reasoning } => {
                if self.dropped(&turn_id, "push.render") {
                    return;
                }
                let spoke = segments.iter().any(|s| speaks(&s.speech));
                tracing::info!(record = "push.render", source = source.as_deref().unwrap_or(""), turn_id = %turn_id,
                    segments = segments.len(), spoke, owed = false, "render");
                self.touch(&turn_id, now, true);
                if let Some(text) = reasoning.filter(|r| !r.is_empty()) {
                    fx.events.push(UiEvent::ReasoningFull { turn_id: turn_id.clone(), text });
                }
                let said = play(&turn_id, segments, fx);
                self.note_spoken(&turn_id, &said);
            }
            ServerFrame::Speech { turn_id, segments } => {
                if self.dropped(&turn_id, "push.speech") {
                    return;
                }
                tracing::info!(record = "push.speech", turn_id = %turn_id, segments = segments.len(), "speech");
                self.touch(&turn_id, now, true);
                let said = play(&turn_id, segments, fx);
                self.note_spoken(&turn_id, &said);
            }
            ServerFrame::TurnEnd { turn_id, usage } => {
                tracing::info!(record = "push.turn_end", turn_id = %turn_id, "turn_end");
                self.backend_turns.remove(&turn_id);
                if self.stopped.remove(&turn_id) {
                    return;
                }
                if let Some(spoken) = self.backend_spoken.remove(&turn_id) {
                    if !spoken.is_empty() {
                        self.write_outcome(Outcome::Complete, "backend", &turn_id, &spoken, fx);
                    }
                }
                let Some(pos) = self.turns.iter().position(|t| t.id == turn_id) else { return };
                let turn = self.turns.remove(pos);
                if self.running.as_deref() != Some(turn_id.as_str()) {
                    return;
                }
                self.running = None;
                match (&turn.error, turn.spoken.is_empty()) {
                    (Some(_), true) => self.write_outcome(Outcome::Failed, USER_EVENT, &turn_id, "", fx),
                    (Some(_), false) => self.write_outcome(Outcome::Interrupted, USER_EVENT, &turn_id, &turn.spoken, fx),
                    (None, false) => self.write_outcome(Outcome::Complete, USER_EVENT, &turn_id, &turn.spoken, fx),
                    (None, true) => {} // a silent reply leaves the record as it was
                }
                let usage = parse_usage(usage.as_ref());
                match turn.error {
                    Some(message) => {
                        fx.events.push(UiEvent::FailureLine { turn_id: turn_id.clone(), text: FAILURE_LINE.into() });
                        fx.events.push(UiEvent::TurnEnded { turn_id, outcome: TurnOutcome::Failed, usage, error: Some(message) });
                    }
                    None => fx.events.push(UiEvent::TurnEnded { turn_id, outcome: TurnOutcome::Complete, usage, error: None }),
                }
                self.drain_queue(now, fx);
            }
            ServerFrame::Error { turn_id, message } => {
                if self.dropped(&turn_id, "push.error") {
                    return;
                }
                tracing::info!(record = "push.error", turn_id = %turn_id, message = %message, "error frame");
                self.touch(&turn_id, now, false);
                let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
                if let Some(t) = self.turns.iter_mut().find(|t| t.id == turn_id) {
                    t.error = Some(super::frames::cut_chars(&one_line, ERROR_MESSAGE_SHOWN));
                }
            }
            ServerFrame::ToolStatus { turn_id, state, tool_id } => {
                if self.dropped(&turn_id, "push.tool_status") {
                    return;
                }
                tracing::info!(record = "push.tool_status", turn_id = %turn_id, state = ?state, tool_id = %tool_id, "tool_status");
                self.touch(&turn_id, now, false);
                if tool_id != "browser" {
                    fx.events.push(UiEvent::ToolStatus { turn_id, state, tool_id });
                }
            }
            ServerFrame::Reasoning { turn_id, delta } => {
                if self.dropped(&turn_id, "push.reasoning") {
                    return;
                }
                self.touch(&turn_id, now, false);
                fx.events.push(UiEvent::Reasoning { turn_id, delta });
            }
            ServerFrame::Delegations { items } => {
                fx.events.push(UiEvent::Delegations { items: parse_delegations(&items) });
            }
            ServerFrame::ToolCall { turn_id, .. } => {
                // Answered by the tool executor; it still counts as a frame of the turn.
                self.touch(&turn_id, now, false);
            }
        }
    }

    fn note_spoken(&mut self, turn_id: &str, said: &str) {
        if said.is_empty() {
            return;
        }
        let buf = match self.turns.iter_mut().find(|t| t.id == turn_id) {
            Some(t) => &mut t.spoken,
            None => self.backend_spoken.entry(turn_id.to_string()).or_default(),
        };
        if !buf.is_empty() {
            buf.push(' ');
        }
        buf.push_str(said);
    }

    /// True when the turn was stopped by the user and still awaits its turn_end.
    pub fn is_stopped(&self, turn_id: &str) -> bool {
        self.stopped.contains(turn_id)
    }
}

fn speaks(speech: &str) -> bool {
    let t = speech.trim();
    !t.is_empty() && t != SILENT
}

/// Emit the segments' cues and speech in order; returns the speech, joined.
fn play(turn_id: &str, segments: Vec<Segment>, fx: &mut Effects) -> String {
    let mut said: Vec<String> = Vec::new();
    for seg in segments {
        for cue in seg.cues {
            fx.events.push(UiEvent::Cue { turn_id: turn_id.to_string(), cue });
        }
        if speaks(&seg.speech) {
            let text = seg.speech.trim().to_string();
            said.push(text.clone());
            fx.events.push(UiEvent::Speech { turn_id: turn_id.to_string(), text });
        }
    }
    said.join(" ")
}

#[cfg(test)]
#[path = "turns_tests.rs"]
mod tests;
