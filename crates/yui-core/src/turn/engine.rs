//! [`Engine`]: the turn state machine. See the module doc of `crate::turn`.

use super::recent::RecentSet;
use super::{speaks, BACKEND_EVENT, FAILURE_LINE, USER_EVENT};
use crate::command::UserCommand;
use crate::context::{Outcome, PreviousTurn};
use crate::error::ErrorCode;
use crate::event::{TurnOutcome, UiEvent};
use crate::limits::{ERROR_MESSAGE_SHOWN, RECENT_TURN_IDS};
use crate::model::{Segment, Usage, Vocabulary};
use crate::transport::{Inbound, Outbound, ReplyPart, ToolCall, ToolResult};
use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;
use tokio::time::Instant;

/// The time of one call: tokio's clock for waits, the wall clock for records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Now {
    /// For deadlines.
    pub at: Instant,
    /// Epoch milliseconds, for outcome records.
    pub wall_ms: i64,
}

/// A turn the engine started: the driver samples and renders its
/// client_context block and sends [`Outbound::Turn`].
#[derive(Debug, Clone, PartialEq)]
pub struct Begin {
    /// The new turn id.
    pub turn_id: String,
    /// What the user typed.
    pub text: String,
    /// The event bus name of what fired the turn.
    pub event_name: String,
    /// The previous-turn record the block carries.
    pub previous: Option<PreviousTurn>,
}

/// One thing for the driver to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Emit a UI event.
    Ui(UiEvent),
    /// Hand a message to the transport.
    Send(Outbound),
    /// Render and send a new turn.
    Begin(Begin),
    /// Persist the previous-turn record.
    Save(PreviousTurn),
    /// Run a client tool; answer with [`Engine::on_tool_result`].
    RunTool(ToolCall),
    /// These turns were stopped without a stop sent (a newer user turn
    /// stopped them): their running and queued tool calls end. A sent
    /// `Outbound::Stop` or `Outbound::Abandon` says the same for its turns.
    StopTools(Vec<String>),
}

/// The effects of one call, in order.
pub type Effects = Vec<Effect>;

/// How an engine is set up.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    /// The transport's name, for logs: `push`, `responses`, `chat_completions`.
    pub transport: &'static str,
    /// The wait per turn: push's frame wait, the request transports' idle
    /// gap after any event but speech (240 s).
    pub frame_wait: Duration,
    /// The request transports' idle gap after assistant speech (45 s);
    /// `None` on push, whose frame wait does not depend on it. Its presence
    /// also means a turn whose wait passes is abandoned, not kept outstanding.
    pub speech_wait: Option<Duration>,
    /// The first client turn id (the wall clock when the run started).
    pub first_turn_id: u64,
    /// The card's greetings; one is performed after each reset.
    pub greetings: Vec<String>,
    /// The previous-turn record stored when the session started.
    pub previous: Option<PreviousTurn>,
    /// What the character renders when the session starts.
    pub vocabulary: Vocabulary,
}

#[derive(Debug)]
struct Turn {
    id: String,
    event_name: String,
    /// The speech shown so far, for the previous-turn record.
    spoken: String,
    first_render: bool,
    /// The wait; `None` once it has passed or the transport left ready.
    deadline: Option<Instant>,
    error: Option<String>,
}

/// The book of outstanding turns on one chat. See the module doc.
pub struct Engine {
    cfg: EngineConfig,
    turns: Vec<Turn>,
    stopped: RecentSet,
    running: Option<String>,
    queue: VecDeque<String>,
    next_id: u64,
    ready: bool,
    previous: Option<PreviousTurn>,
    vocabulary: Vocabulary,
    greeting: usize,
    /// Turns the backend started on its own with no end yet: stop names them.
    backend_turns: RecentSet,
    /// Speech of those turns, for their outcome record.
    backend_spoken: HashMap<String, String>,
    /// Tool calls queued or running, by id.
    calls: HashSet<String>,
}

impl Engine {
    /// A new engine; not ready until the transport says so.
    pub fn new(cfg: EngineConfig) -> Self {
        Self {
            turns: Vec::new(),
            stopped: RecentSet::new(RECENT_TURN_IDS),
            running: None,
            queue: VecDeque::new(),
            next_id: cfg.first_turn_id,
            ready: false,
            previous: cfg.previous.clone(),
            vocabulary: cfg.vocabulary.clone(),
            greeting: 0,
            backend_turns: RecentSet::new(RECENT_TURN_IDS),
            backend_spoken: HashMap::new(),
            calls: HashSet::new(),
            cfg,
        }
    }

    /// True while a turn runs or messages wait.
    pub fn busy(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty()
    }

    /// True while turns can go out.
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// The earliest per-turn wait still running.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.turns.iter().filter_map(|t| t.deadline).min()
    }

    /// True when the user stopped `turn_id` and its end has not come yet.
    pub fn is_stopped(&self, turn_id: &str) -> bool {
        self.stopped.contains(turn_id)
    }

    /// How many stopped turns still wait for their end.
    pub fn stopped_count(&self) -> usize {
        self.stopped.len()
    }

    /// The previous-turn record as it stands.
    pub fn previous(&self) -> Option<&PreviousTurn> {
        self.previous.as_ref()
    }

    /// Apply a user action.
    pub fn on_command(&mut self, cmd: UserCommand, now: Now, fx: &mut Effects) {
        match cmd {
            UserCommand::SendText { text } => self.send_text(text, now, fx),
            UserCommand::Stop => self.stop(now, fx),
            UserCommand::Reset => self.reset(now, fx),
            UserCommand::Reconnect => fx.push(Effect::Send(Outbound::Reconnect)),
            UserCommand::SetVocabulary { vocabulary } => {
                if vocabulary != self.vocabulary {
                    self.vocabulary = vocabulary.clone();
                    fx.push(Effect::Send(Outbound::Vocabulary(vocabulary)));
                }
            }
        }
    }

    /// Apply one transport event.
    pub fn on_inbound(&mut self, event: Inbound, now: Now, fx: &mut Effects) {
        match event {
            Inbound::Status(status) => {
                let ready = status.is_ready();
                if self.ready && !ready {
                    self.left_ready(now, fx);
                }
                self.ready = ready;
            }
            Inbound::Notice { code, message } => fx.push(Effect::Ui(UiEvent::Notice { code, message })),
            Inbound::Reply { turn_id, part } => self.on_reply(turn_id, part, now, fx),
            Inbound::ToolCall(call) => self.on_tool_call(call, now, fx),
            Inbound::Delegations(items) => fx.push(Effect::Ui(UiEvent::Delegations { items })),
            Inbound::Rejected { turn_id, code, reason } => self.abort_unsent(&turn_id, code, &reason, now, fx),
            // The driver keeps these for the inspector; they change no turn.
            Inbound::ImagesSent { .. } => {}
        }
    }

    /// A client tool finished: its answer goes out.
    pub fn on_tool_result(&mut self, result: ToolResult, fx: &mut Effects) {
        self.calls.remove(&result.id);
        fx.push(Effect::Send(Outbound::ToolResult(result)));
    }

    /// Waits that have passed by `now`.
    pub fn tick(&mut self, now: Now, fx: &mut Effects) {
        let ids: Vec<String> =
            self.turns.iter().filter(|t| t.deadline.is_some_and(|d| d <= now.at)).map(|t| t.id.clone()).collect();
        for id in ids {
            self.end_wait(&id, "network_stall", now, fx);
        }
    }

    fn send_text(&mut self, text: String, now: Now, fx: &mut Effects) {
        if self.running.is_some() {
            self.queue.push_back(text.clone());
            fx.push(Effect::Ui(UiEvent::TurnQueued { text, queued: self.queue.len() as u32 }));
            return;
        }
        self.start(text, now, fx);
    }

    fn start(&mut self, text: String, now: Now, fx: &mut Effects) {
        let turn_id = self.next_id.to_string();
        self.next_id += 1;
        fx.push(Effect::Ui(UiEvent::TurnStarted { turn_id: turn_id.clone(), text: text.clone() }));
        if !self.ready {
            tracing::warn!(record = "network_drop", stage = "push_wait", turn_id = %turn_id, "turn started before ready");
            fx.push(Effect::Ui(UiEvent::Notice { code: ErrorCode::Network, message: "Not connected to the backend.".into() }));
            self.write_outcome(Outcome::Failed, USER_EVENT, &turn_id, "", now, fx);
            self.fail_unsent(turn_id, now, fx);
            return;
        }
        // A turn the user typed stops the speech of every older outstanding turn.
        let older: Vec<String> = self.turns.drain(..).map(|t| t.id).chain(self.backend_turns.drain()).collect();
        for id in &older {
            self.stop_id(id.clone());
        }
        if !older.is_empty() {
            fx.push(Effect::StopTools(older));
        }
        tracing::info!(record = "turn", transport = self.cfg.transport, turn_id = %turn_id, spoke_text = false, chars = text.chars().count(), "turn");
        fx.push(Effect::Begin(Begin {
            turn_id: turn_id.clone(),
            text,
            event_name: USER_EVENT.into(),
            previous: self.previous.clone(),
        }));
        self.turns.push(Turn {
            id: turn_id.clone(),
            event_name: USER_EVENT.into(),
            spoken: String::new(),
            first_render: false,
            deadline: Some(now.at + self.cfg.frame_wait),
            error: None,
        });
        self.running = Some(turn_id);
    }

    fn stop_id(&mut self, id: String) {
        self.backend_spoken.remove(&id);
        if let Some(old) = self.stopped.insert(id) {
            tracing::info!(record = "stopped_forgotten", turn_id = %old, "a stopped turn never got its end");
        }
    }

    fn reset(&mut self, now: Now, fx: &mut Effects) {
        if !self.ready {
            fx.push(Effect::Ui(UiEvent::Notice { code: ErrorCode::Network, message: "Not connected; the reset was not sent.".into() }));
            return;
        }
        // The old conversation's turns end with it: nothing of them plays
        // after the reset or lands in the new transcript.
        self.stop(now, fx);
        fx.push(Effect::Send(Outbound::Reset));
        fx.push(Effect::Ui(UiEvent::SessionReset));
        if self.cfg.greetings.is_empty() {
            return;
        }
        let text = self.cfg.greetings[self.greeting % self.cfg.greetings.len()].clone();
        self.greeting += 1;
        let turn_id = format!("greeting-{}", self.greeting);
        fx.push(Effect::Ui(UiEvent::Speech { turn_id, text: text.clone() }));
        fx.push(Effect::Send(Outbound::Greeting { text }));
    }

    fn fail_unsent(&mut self, turn_id: String, now: Now, fx: &mut Effects) {
        fx.push(Effect::Ui(UiEvent::FailureLine { turn_id: turn_id.clone(), text: FAILURE_LINE.into() }));
        fx.push(Effect::Ui(UiEvent::TurnEnded { turn_id, outcome: TurnOutcome::Failed, usage: None, error: None }));
        self.drain_queue(now, fx);
    }

    /// A turn that could not be sent (too large, not connected): it fails now.
    fn abort_unsent(&mut self, turn_id: &str, code: ErrorCode, message: &str, now: Now, fx: &mut Effects) {
        let known = self.turns.iter().any(|t| t.id == turn_id);
        self.turns.retain(|t| t.id != turn_id);
        if !known {
            return;
        }
        if self.running.as_deref() == Some(turn_id) {
            self.running = None;
        }
        fx.push(Effect::Ui(UiEvent::Notice { code, message: message.into() }));
        self.write_outcome(Outcome::Failed, USER_EVENT, turn_id, "", now, fx);
        self.fail_unsent(turn_id.to_string(), now, fx);
    }

    /// The stop button: every outstanding turn is stopped and the queue cleared.
    fn stop(&mut self, now: Now, fx: &mut Effects) {
        self.queue.clear();
        let cut = self
            .running
            .as_ref()
            .and_then(|id| self.turns.iter().find(|t| &t.id == id))
            .filter(|t| !t.spoken.is_empty())
            .map(|t| (t.id.clone(), t.event_name.clone(), t.spoken.clone()));
        if let Some((id, event, spoken)) = cut {
            self.write_outcome(Outcome::Interrupted, &event, &id, &spoken, now, fx);
        }
        let ids: Vec<String> = self.turns.drain(..).map(|t| t.id).chain(self.backend_turns.drain()).collect();
        if ids.is_empty() {
            return;
        }
        for id in &ids {
            self.stop_id(id.clone());
        }
        if self.ready {
            tracing::info!(record = "push.stop", transport = self.cfg.transport, turns = ids.len(), "stop");
            fx.push(Effect::Send(Outbound::Stop { turn_ids: ids }));
        }
        if let Some(id) = self.running.take() {
            fx.push(Effect::Ui(UiEvent::TurnEnded { turn_id: id, outcome: TurnOutcome::Stopped, usage: None, error: None }));
        }
    }

    /// The transport left ready: every running wait ends at once.
    fn left_ready(&mut self, now: Now, fx: &mut Effects) {
        self.ready = false;
        let ids: Vec<String> = self.turns.iter().filter(|t| t.deadline.is_some()).map(|t| t.id.clone()).collect();
        for id in ids {
            self.end_wait(&id, "network_drop", now, fx);
        }
    }

    fn end_wait(&mut self, id: &str, record: &'static str, now: Now, fx: &mut Effects) {
        let Some(t) = self.turns.iter_mut().find(|t| t.id == id) else { return };
        t.deadline = None;
        let delivered = t.first_render;
        let spoken = t.spoken.clone();
        let event = t.event_name.clone();
        let stage = if delivered { "push_turn_end" } else { "push_wait" };
        if record == "network_stall" {
            tracing::warn!(record = "network_stall", stage, transport = self.cfg.transport, turn_id = %id, "the turn's wait passed");
        } else {
            tracing::warn!(record = "network_drop", stage, transport = self.cfg.transport, turn_id = %id, "the transport left ready");
        }
        let request = self.cfg.speech_wait.is_some();
        if request {
            // A request transport aborts a stalled stream: the turn is over.
            // Its events still in flight are dropped until the transport's End.
            self.turns.retain(|t| t.id != id);
            self.stop_id(id.to_string());
            fx.push(Effect::Send(Outbound::Abandon { turn_id: id.to_string() }));
        }
        if self.running.as_deref() != Some(id) {
            return;
        }
        self.running = None;
        let outcome = if spoken.is_empty() { Outcome::Failed } else { Outcome::Interrupted };
        self.write_outcome(outcome, &event, id, &spoken, now, fx);
        if delivered && !request {
            fx.push(Effect::Ui(UiEvent::TurnEnded { turn_id: id.into(), outcome: TurnOutcome::Complete, usage: None, error: None }));
            self.drain_queue(now, fx);
            return;
        }
        let (code, message) = if record == "network_stall" {
            (ErrorCode::Stall, "The backend did not answer in time.")
        } else {
            (ErrorCode::Network, "The connection dropped before the reply.")
        };
        fx.push(Effect::Ui(UiEvent::Notice { code, message: message.into() }));
        if delivered {
            fx.push(Effect::Ui(UiEvent::TurnEnded {
                turn_id: id.into(),
                outcome: TurnOutcome::Failed,
                usage: None,
                error: Some("The reply stalled.".into()),
            }));
            self.drain_queue(now, fx);
        } else {
            self.fail_unsent(id.to_string(), now, fx);
        }
    }

    fn drain_queue(&mut self, now: Now, fx: &mut Effects) {
        if self.running.is_none() {
            if let Some(text) = self.queue.pop_front() {
                self.start(text, now, fx);
            }
        }
    }

    /// Record how a turn ended; a failed client turn also goes out as a
    /// playback frame while ready.
    fn write_outcome(&mut self, outcome: Outcome, event_name: &str, turn_id: &str, spoken: &str, now: Now, fx: &mut Effects) {
        let record = crate::outcome::record(outcome, event_name, turn_id, now.wall_ms, spoken, "");
        self.previous = Some(record.clone());
        fx.push(Effect::Save(record));
        if outcome == Outcome::Failed && self.ready && event_name != BACKEND_EVENT {
            fx.push(Effect::Send(Outbound::Playback { turn_id: turn_id.to_string() }));
        }
    }

    /// Restart the wait of `id`'s turn; `rendered` marks its first render.
    fn touch(&mut self, id: &str, now: Now, rendered: bool, after_speech: bool) {
        let wait = match (after_speech, self.cfg.speech_wait) {
            (true, Some(w)) => w,
            _ => self.cfg.frame_wait,
        };
        if let Some(t) = self.turns.iter_mut().find(|t| t.id == id) {
            if t.deadline.is_some() {
                t.deadline = Some(now.at + wait);
            }
            t.first_render |= rendered;
        }
    }

    /// True when a frame of `id` is dropped (its turn was stopped). An id
    /// the client never issued and does not hold is a backend turn.
    fn dropped(&mut self, id: &str, record: &'static str) -> bool {
        if self.stopped.contains(id) {
            let stopped_count = self.stopped.len();
            tracing::info!(record, turn_id = %id, dropped = "cut_turn", stopped_count, "frame of a stopped turn dropped");
            return true;
        }
        if !self.turns.iter().any(|t| t.id == id) && !self.is_client_id(id) {
            if let Some(old) = self.backend_turns.insert(id.to_string()) {
                self.backend_spoken.remove(&old);
            }
        }
        false
    }

    /// True for an id this run issued (a late frame of a turn already closed).
    fn is_client_id(&self, id: &str) -> bool {
        id.parse::<u64>().is_ok_and(|n| n >= self.cfg.first_turn_id && n < self.next_id)
    }

    fn on_reply(&mut self, turn_id: String, part: ReplyPart, now: Now, fx: &mut Effects) {
        let push = self.cfg.transport == "push";
        match part {
            ReplyPart::Render { source, segments, reasoning } => {
                if self.dropped(&turn_id, "push.render") {
                    return;
                }
                let spoke = segments.iter().any(|s| speaks(&s.speech));
                tracing::info!(record = "push.render", transport = self.cfg.transport, source = source.as_deref().unwrap_or(""),
                    turn_id = %turn_id, segments = segments.len(), spoke, owed = false, "render");
                self.touch(&turn_id, now, true, false);
                if let Some(text) = reasoning.filter(|r| !r.is_empty()) {
                    fx.push(Effect::Ui(UiEvent::ReasoningFull { turn_id: turn_id.clone(), text }));
                }
                self.play(&turn_id, segments, fx);
            }
            ReplyPart::Speech { segments } => {
                if self.dropped(&turn_id, "push.speech") {
                    return;
                }
                if push {
                    tracing::info!(record = "push.speech", turn_id = %turn_id, segments = segments.len(), "speech");
                }
                self.touch(&turn_id, now, true, false);
                self.play(&turn_id, segments, fx);
            }
            ReplyPart::Reasoning { delta } => {
                if self.dropped(&turn_id, "push.reasoning") {
                    return;
                }
                self.touch(&turn_id, now, false, false);
                fx.push(Effect::Ui(UiEvent::Reasoning { turn_id, delta }));
            }
            ReplyPart::ToolStatus { state, tool_id } => {
                if self.dropped(&turn_id, "push.tool_status") {
                    return;
                }
                tracing::info!(record = "push.tool_status", transport = self.cfg.transport, turn_id = %turn_id, state = ?state, tool_id = %tool_id, "tool_status");
                self.touch(&turn_id, now, false, false);
                // The client runs browser itself and shows its state locally.
                if tool_id != "browser" {
                    fx.push(Effect::Ui(UiEvent::ToolStatus { turn_id, state, tool_id }));
                }
            }
            ReplyPart::Error { message } => {
                if self.dropped(&turn_id, "push.error") {
                    return;
                }
                tracing::info!(record = "push.error", transport = self.cfg.transport, turn_id = %turn_id, message = %message, "error");
                self.touch(&turn_id, now, false, false);
                let one_line = message.split_whitespace().collect::<Vec<_>>().join(" ");
                if let Some(t) = self.turns.iter_mut().find(|t| t.id == turn_id) {
                    t.error = Some(crate::transport::push::frames::cut_chars(&one_line, ERROR_MESSAGE_SHOWN));
                }
            }
            ReplyPart::Alive { after_speech } => {
                if !self.stopped.contains(&turn_id) {
                    self.touch(&turn_id, now, false, after_speech);
                }
            }
            ReplyPart::End { usage } => self.on_end(turn_id, usage, now, fx),
        }
    }

    fn on_end(&mut self, turn_id: String, usage: Option<Usage>, now: Now, fx: &mut Effects) {
        tracing::info!(record = "push.turn_end", transport = self.cfg.transport, turn_id = %turn_id, "turn_end");
        self.backend_turns.remove(&turn_id);
        if self.stopped.remove(&turn_id) {
            return;
        }
        if let Some(spoken) = self.backend_spoken.remove(&turn_id) {
            if !spoken.is_empty() {
                self.write_outcome(Outcome::Complete, BACKEND_EVENT, &turn_id, &spoken, now, fx);
            }
        }
        let Some(pos) = self.turns.iter().position(|t| t.id == turn_id) else { return };
        let turn = self.turns.remove(pos);
        if self.running.as_deref() != Some(turn_id.as_str()) {
            return;
        }
        self.running = None;
        match (&turn.error, turn.spoken.is_empty()) {
            (Some(_), true) => self.write_outcome(Outcome::Failed, &turn.event_name, &turn_id, "", now, fx),
            (Some(_), false) => self.write_outcome(Outcome::Interrupted, &turn.event_name, &turn_id, &turn.spoken, now, fx),
            (None, false) => self.write_outcome(Outcome::Complete, &turn.event_name, &turn_id, &turn.spoken, now, fx),
            (None, true) => {} // a silent reply leaves the record as it was
        }
        match turn.error {
            Some(message) => {
                fx.push(Effect::Ui(UiEvent::FailureLine { turn_id: turn_id.clone(), text: FAILURE_LINE.into() }));
                fx.push(Effect::Ui(UiEvent::TurnEnded { turn_id, outcome: TurnOutcome::Failed, usage, error: Some(message) }));
            }
            None => fx.push(Effect::Ui(UiEvent::TurnEnded { turn_id, outcome: TurnOutcome::Complete, usage, error: None })),
        }
        self.drain_queue(now, fx);
    }

    fn on_tool_call(&mut self, call: ToolCall, now: Now, fx: &mut Effects) {
        if self.calls.contains(&call.id) {
            tracing::warn!(record = "tool_call_repeated", id = %call.id, turn_id = %call.turn_id, "a repeated call id is dropped");
            return;
        }
        tracing::info!(record = "push.tool_call", transport = self.cfg.transport, id = %call.id, turn_id = %call.turn_id, name = %call.name, "tool_call");
        if self.stopped.contains(&call.turn_id) {
            let result = ToolResult { id: call.id, turn_id: call.turn_id, result: "error: turn stopped".into(), images: Vec::new() };
            fx.push(Effect::Send(Outbound::ToolResult(result)));
            return;
        }
        // It counts as a frame of the turn for the wait.
        self.touch(&call.turn_id, now, false, false);
        self.calls.insert(call.id.clone());
        fx.push(Effect::RunTool(call));
    }

    /// Emit the segments' cues and speech in order, and note what was said.
    fn play(&mut self, turn_id: &str, segments: Vec<Segment>, fx: &mut Effects) {
        let mut said = String::new();
        for seg in segments {
            for cue in seg.cues {
                fx.push(Effect::Ui(UiEvent::Cue { turn_id: turn_id.to_string(), cue }));
            }
            if speaks(&seg.speech) {
                let text = seg.speech.trim().to_string();
                if !said.is_empty() {
                    said.push(' ');
                }
                said.push_str(&text);
                fx.push(Effect::Ui(UiEvent::Speech { turn_id: turn_id.to_string(), text }));
            }
        }
        if said.is_empty() {
            return;
        }
        let buf = match self.turns.iter_mut().find(|t| t.id == turn_id) {
            Some(t) => &mut t.spoken,
            None if self.backend_turns.contains(turn_id) => self.backend_spoken.entry(turn_id.to_string()).or_default(),
            None => return,
        };
        if !buf.is_empty() {
            buf.push(' ');
        }
        buf.push_str(&said);
    }
}
