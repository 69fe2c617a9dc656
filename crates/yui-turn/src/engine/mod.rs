//! [`Engine`]: the turn state machine. See the crate doc.

mod queue;
mod speaking;

use crate::contract::{Inbound, Outbound, ReplyPart, SideRequest, ToolCall, ToolResult};
use crate::recent::RecentSet;
use crate::voice::filler::FillerLines;
use crate::voice::playback::{Kind, PlayEffects, Playback, SinkEvent, Stop};
use crate::voice::request::SpeechRequest;
pub use crate::Now;
use crate::{speaks, BACKEND_EVENT, USER_EVENT};
use queue::Outgoing;
use speaking::Failure;
use std::collections::{HashSet, VecDeque};
use std::time::Duration;
use tokio::time::Instant;
use yui_engine::context::AddressedTo;
use yui_engine::context::{Outcome, PreviousTurn};
use yui_engine::limits::{ERROR_MESSAGE_SHOWN, RECENT_TURN_IDS};
use yui_protocol::command::{Addressee, UserCommand};
use yui_protocol::event::{Phrase, TurnOutcome, UiEvent};
use yui_protocol::model::{Usage, Vocabulary};
use yui_protocol::ErrorCode;

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
    /// True when the user spoke the text (voice input) rather than typed it.
    pub spoken: bool,
    /// Files sent with the message (the chat window), checked already.
    pub attachments: Vec<yui_protocol::chat::Attachment>,
    /// What fired a turn nobody typed (a signal, a cue…); `None` for the
    /// user's own turns. The block carries it as its `trigger`.
    pub trigger: Option<Box<yui_engine::context::Trigger>>,
    /// A message that woke her from the bed: the block carries
    /// `wake: … woken by this message` and reads `lying, getting up now`.
    pub wake: Option<yui_engine::context::WakeCause>,
    /// Whom the user wrote to, from the chat of several characters: the
    /// block's trigger line ends `(addressed to the character)` or
    /// `(addressed to everyone)`. `None` for a message typed to her alone.
    pub addressed: Option<yui_engine::context::AddressedTo>,
    /// A help request: the bundled guide its block carries (`guide:`).
    pub guide: Option<yui_engine::context::GuideKey>,
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
    /// A sentence was queued for playback: synthesise it now, as `item_id`.
    Synth {
        /// The playback item.
        item_id: u64,
        /// What to say, with its caption and tone.
        request: SpeechRequest,
    },
    /// Playback reached `item_id`: hand its audio to the sink, then answer
    /// with [`Engine::on_sink`] (or [`Engine::on_synth_failed`]).
    Play {
        /// The playback item.
        item_id: u64,
    },
    /// Stop the sound at once and forget every sentence being synthesised.
    Halt,
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
    /// The thinking filler and failure lines in the user's language; `None`
    /// says no filler (the failure line is then [`crate::FAILURE_LINE`]).
    pub filler: Option<FillerLines>,
}

/// One outstanding turn.
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
    /// When the next thinking filler is due; `None` once the turn rendered.
    filler_at: Option<Instant>,
    /// Filler lines said so far (at most
    /// [`FILLER_GAPS`](crate::voice::filler::FILLER_GAPS)`.len()`).
    fillers: usize,
    /// Text of the reply streamed and was never spoken
    /// ([`ReplyPart::Unsaid`]): the turn is `interrupted`, not `failed`.
    unsaid: bool,
}

/// The book of outstanding turns on one chat. See the module doc.
pub struct Engine {
    cfg: EngineConfig,
    turns: Vec<Turn>,
    stopped: RecentSet,
    /// The turn running now (the crate's tests read it).
    pub(crate) running: Option<String>,
    /// Messages waiting for the running turn, and whether each was spoken.
    queue: VecDeque<Outgoing>,
    next_id: u64,
    ready: bool,
    previous: Option<PreviousTurn>,
    vocabulary: Vocabulary,
    greeting: usize,
    /// Turns the backend started on its own with no end yet: stop names them.
    backend_turns: RecentSet,
    /// Tool calls queued or running, by id.
    calls: HashSet<String>,
    /// The character's playback queue: cues at playback boundaries, the
    /// sentences in order, the spoken records.
    playback: Playback,
    /// She is on the bed: no thinking filler is spoken (`docs/triggers.md`,
    /// "Wake and the bed scene").
    on_bed: bool,
    /// The next message the user sends woke her: its turn says so.
    woken_by_message: bool,
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
            calls: HashSet::new(),
            playback: Playback::new(),
            on_bed: false,
            woken_by_message: false,
            cfg,
        }
    }

    /// She is on the bed (`true`) or up again. While on the bed, turns speak
    /// no thinking filler; a filler phrase already submitted plays out.
    pub fn set_on_bed(&mut self, on: bool) {
        self.on_bed = on;
    }

    /// The message being sent now woke her from the bed: the next turn the
    /// user starts carries the wake.
    pub fn woken_by_message(&mut self) {
        self.woken_by_message = true;
    }

    /// True while a turn runs or messages wait.
    pub fn busy(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty()
    }

    /// True while turns can go out.
    pub fn is_ready(&self) -> bool {
        self.ready
    }

    /// True while a sentence plays or waits to.
    pub fn speaking(&self) -> bool {
        self.playback.busy()
    }

    /// True while a sentence other than the one just queued plays or waits
    /// (the speaker may only be replaced when this is false).
    pub fn speaking_other_than_new(&self) -> bool {
        self.playback.pending() > 1
    }

    /// The earliest per-turn wait or filler still running.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.turns.iter().flat_map(|t| [t.deadline, t.filler_at]).flatten().min()
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

    /// A help request (`UserCommand::AskHelp`): an ordinary user turn
    /// whose message is the short request in `language` and whose block
    /// carries the bundled guide `guide`.
    pub fn ask_help(&mut self, guide: yui_engine::context::GuideKey, language: &str, now: Now, fx: &mut Effects) {
        let text = yui_engine::context::help_request(guide, language).to_string();
        self.send_text(Outgoing { text, guide: Some(guide), ..Outgoing::default() }, now, fx)
    }

    /// Apply a user action.
    pub fn on_command(&mut self, cmd: UserCommand, now: Now, fx: &mut Effects) {
        match cmd {
            UserCommand::SendText { text } => self.send_text(Outgoing { text, ..Outgoing::default() }, now, fx),
            UserCommand::SendAddressed { text, to } => {
                let addressed = Some(match to {
                    Addressee::Character => AddressedTo::Character,
                    Addressee::Everyone => AddressedTo::Everyone,
                });
                self.send_text(Outgoing { text, addressed, ..Outgoing::default() }, now, fx)
            }
            UserCommand::SendVoice { text } => self.send_text(Outgoing { text, spoken: true, ..Outgoing::default() }, now, fx),
            // Asked in English here; the session asks in the UI language (`Engine::ask_help`).
            UserCommand::AskHelp { guide } => self.ask_help(guide.into(), "en", now, fx),
            UserCommand::Stop => self.stop(Stop::Button, now, fx),
            UserCommand::BargeIn => self.stop(Stop::BargeIn, now, fx),
            UserCommand::Reset => self.reset(now, fx),
            UserCommand::Reconnect => fx.push(Effect::Send(Outbound::Reconnect)),
            // The session's chat log carries these out (it owns the conversations).
            UserCommand::SendMessage { text, attachments } => self.send_text(Outgoing { text, attachments, ..Outgoing::default() }, now, fx),
            UserCommand::Regenerate { .. }
            | UserCommand::PickVersion { .. }
            | UserCommand::Fork { .. }
            | UserCommand::DeleteMessage { .. }
            | UserCommand::DeleteConversation { .. }
            | UserCommand::DeleteAllConversations => {}
            // The driver's: the body, not the turns.
            UserCommand::Touch { .. } | UserCommand::GoToBed | UserCommand::Drag { .. } | UserCommand::BodyInterrupted { .. } => {}
            // The driver's: the tools' switches.
            UserCommand::SwitchOn { .. } | UserCommand::ShowOffers => {}
            UserCommand::Approve { approval_id, decision } => fx.push(Effect::Send(Outbound::Side(SideRequest::Approve { approval_id, decision }))),
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
            Inbound::Notice { code, message, phrase } => fx.push(Effect::Ui(UiEvent::Notice { code, message, phrase })),
            Inbound::Reply { turn_id, part } => self.on_reply(turn_id, part, now, fx),
            Inbound::ToolCall(call) => self.on_tool_call(call, now, fx),
            Inbound::Delegations(items) => fx.push(Effect::Ui(UiEvent::Delegations { items })),
            Inbound::Rejected { turn_id, code, reason } => self.abort_unsent(&turn_id, code, &reason, now, fx),
            // The driver keeps these (the inspector, the chat log); they change no turn.
            Inbound::ImagesSent { .. } | Inbound::Forked { .. } | Inbound::StopConfirmed { .. } | Inbound::ApprovalGone { .. } => {}
        }
    }

    /// A client tool finished: its answer goes out.
    pub fn on_tool_result(&mut self, result: ToolResult, fx: &mut Effects) {
        self.calls.remove(&result.id);
        fx.push(Effect::Send(Outbound::ToolResult(result)));
    }

    /// The audio sink's report about a playback item.
    pub fn on_sink(&mut self, event: SinkEvent, now: Now, fx: &mut Effects) {
        let mut pfx = PlayEffects::new();
        self.playback.on_sink(event, now, &mut pfx);
        self.played(pfx, fx);
    }

    /// No audio could be made for `item_id`: it is skipped, its cue already
    /// fired and its text still shows.
    pub fn on_synth_failed(&mut self, item_id: u64, now: Now, fx: &mut Effects) {
        let mut pfx = PlayEffects::new();
        self.playback.failed(item_id, now, &mut pfx);
        self.played(pfx, fx);
    }

    /// Waits and fillers that are due by `now`.
    pub fn tick(&mut self, now: Now, fx: &mut Effects) {
        let ids: Vec<String> = self.turns.iter().filter(|t| t.deadline.is_some_and(|d| d <= now.at)).map(|t| t.id.clone()).collect();
        for id in ids {
            self.end_wait(&id, "network_stall", now, fx);
        }
        let due: Vec<String> = self.turns.iter().filter(|t| t.filler_at.is_some_and(|d| d <= now.at)).map(|t| t.id.clone()).collect();
        for id in due {
            self.filler(&id, None, now, fx);
        }
    }

    fn stop_id(&mut self, id: String) {
        if let Some(old) = self.stopped.insert(id) {
            tracing::info!(record = "stopped_forgotten", turn_id = %old, "a stopped turn never got its end");
        }
    }

    fn reset(&mut self, now: Now, fx: &mut Effects) {
        if !self.ready {
            fx.push(Effect::Ui(UiEvent::notice_said(ErrorCode::Network, "Not connected; the reset was not sent.", Phrase::new("notice-reset-not-sent"))));
            return;
        }
        // The old conversation's turns end with it: nothing of them plays
        // after the reset or lands in the new transcript.
        self.stop(Stop::Button, now, fx);
        fx.push(Effect::Send(Outbound::Reset));
        fx.push(Effect::Ui(UiEvent::SessionReset));
        if self.cfg.greetings.is_empty() {
            return;
        }
        let text = self.cfg.greetings[self.greeting % self.cfg.greetings.len()].clone();
        self.greeting += 1;
        let turn_id = format!("greeting-{}", self.greeting);
        let mut pfx = PlayEffects::new();
        self.playback.say(&turn_id, &text, now, &mut pfx);
        self.played(pfx, fx);
        fx.push(Effect::Send(Outbound::Greeting { text }));
    }

    fn fail_unsent(&mut self, turn_id: String, why: Failure, now: Now, fx: &mut Effects) {
        self.thinking_over(&turn_id, now, fx);
        self.failure_line(&turn_id, why, now, fx);
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
        fx.push(Effect::Ui(UiEvent::notice(code, message)));
        self.write_outcome(Outcome::Failed, USER_EVENT, turn_id, "", now, fx);
        self.fail_unsent(turn_id.to_string(), Failure::Error, now, fx);
    }

    /// The stop button or voice barge-in: speech stops at once (the
    /// interrupted record comes from playback), every outstanding turn is
    /// stopped and the queue cleared.
    fn stop(&mut self, reason: Stop, now: Now, fx: &mut Effects) {
        self.clear_queue();
        let mut pfx = PlayEffects::new();
        self.playback.stop(reason, now, &mut pfx);
        self.played(pfx, fx);
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
        t.filler_at = None;
        let delivered = t.first_render;
        let spoken = t.spoken.clone();
        let event = t.event_name.clone();
        let stage = if delivered { "push_turn_end" } else { "push_wait" };
        if record == "network_stall" {
            tracing::warn!(record = "network_stall", stage, transport = self.cfg.transport, turn_id = %id, "the turn's wait passed");
        } else {
            tracing::warn!(record = "network_drop", stage, transport = self.cfg.transport, turn_id = %id, "the transport left ready");
        }
        self.thinking_over(id, now, fx);
        if !spoken.is_empty() {
            // Speech had started: what is queued still plays, and the reply
            // records `interrupted` (a stall or drop cut it).
            let mut pfx = PlayEffects::new();
            self.playback.cut(id, now, &mut pfx);
            self.played(pfx, fx);
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
        if spoken.is_empty() {
            self.write_outcome(Outcome::Failed, &event, id, "", now, fx);
        }
        if delivered && !request {
            fx.push(Effect::Ui(UiEvent::TurnEnded { turn_id: id.into(), outcome: TurnOutcome::Complete, usage: None, error: None }));
            self.drain_queue(now, fx);
            return;
        }
        let (code, message, phrase) = if record == "network_stall" {
            (ErrorCode::Stall, "The backend did not answer in time.", "notice-stalled")
        } else {
            (ErrorCode::Network, "The connection dropped before the reply.", "notice-dropped")
        };
        fx.push(Effect::Ui(UiEvent::notice_said(code, message, Phrase::new(phrase))));
        if delivered {
            fx.push(Effect::Ui(UiEvent::TurnEnded { turn_id: id.into(), outcome: TurnOutcome::Failed, usage: None, error: Some("The reply stalled.".into()) }));
            self.drain_queue(now, fx);
        } else {
            let why = if record == "network_stall" { Failure::Timeout } else { Failure::Unreachable };
            self.fail_unsent(id.to_string(), why, now, fx);
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

    /// Restart the wait of `id`'s turn; `rendered` marks its first render
    /// (which ends its thinking motion and filler).
    fn touch(&mut self, id: &str, now: Now, rendered: bool, after_speech: bool) -> bool {
        let wait = match (after_speech, self.cfg.speech_wait) {
            (true, Some(w)) => w,
            _ => self.cfg.frame_wait,
        };
        let Some(t) = self.turns.iter_mut().find(|t| t.id == id) else { return false };
        if t.deadline.is_some() {
            t.deadline = Some(now.at + wait);
        }
        let first = rendered && !t.first_render;
        t.first_render |= rendered;
        if rendered {
            t.filler_at = None;
        }
        first
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
            self.backend_turns.insert(id.to_string());
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
                if self.touch(&turn_id, now, true, false) {
                    self.thinking_over(&turn_id, now, fx);
                }
                if let Some(text) = reasoning.filter(|r| !r.is_empty()) {
                    fx.push(Effect::Ui(UiEvent::ReasoningFull { turn_id: turn_id.clone(), text }));
                }
                self.play(&turn_id, segments, Kind::Render, now, fx);
            }
            ReplyPart::Speech { segments } => {
                if self.dropped(&turn_id, "push.speech") {
                    return;
                }
                if push {
                    tracing::info!(record = "push.speech", turn_id = %turn_id, segments = segments.len(), "speech");
                }
                if self.touch(&turn_id, now, true, false) {
                    self.thinking_over(&turn_id, now, fx);
                }
                self.play(&turn_id, segments, Kind::Speech, now, fx);
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
                    t.error = Some(crate::contract::cut_chars(&one_line, ERROR_MESSAGE_SHOWN));
                }
            }
            ReplyPart::Unsaid { text } => {
                // Also for a stopped or abandoned turn: a stop, a stall or a
                // stream error ended the wait for the character that proves
                // the text complete. It joins the turn's interrupted record
                // as never spoken; it is not played.
                tracing::info!(record = "unsaid", transport = self.cfg.transport, turn_id = %turn_id, chars = text.chars().count(), "text streamed and never spoken");
                if let Some(t) = self.turns.iter_mut().find(|t| t.id == turn_id) {
                    t.unsaid |= speaks(&text);
                }
                if speaks(&text) {
                    let mut pfx = PlayEffects::new();
                    self.playback.unsaid(&turn_id, &text, now, &mut pfx);
                    self.played(pfx, fx);
                }
            }
            ReplyPart::Alive { after_speech } => {
                if !self.stopped.contains(&turn_id) {
                    self.touch(&turn_id, now, false, after_speech);
                }
            }
            ReplyPart::Chat { event } => {
                if !self.stopped.contains(&turn_id) {
                    let after_speech = matches!(event, yui_protocol::chat::ChatEvent::Delta { .. });
                    self.touch(&turn_id, now, false, after_speech);
                }
            }
            ReplyPart::End { usage } => self.on_end(turn_id, usage, now, fx),
        }
    }

    fn on_end(&mut self, turn_id: String, usage: Option<Usage>, now: Now, fx: &mut Effects) {
        tracing::info!(record = "push.turn_end", transport = self.cfg.transport, turn_id = %turn_id, "turn_end");
        self.backend_turns.remove(&turn_id);
        self.thinking_over(&turn_id, now, fx);
        let error_after_speech = self.turns.iter().any(|t| t.id == turn_id && t.error.is_some() && !t.spoken.is_empty());
        if error_after_speech {
            // A stream error after speech cut the reply: `interrupted`.
            let mut pfx = PlayEffects::new();
            self.playback.cut(&turn_id, now, &mut pfx);
            self.played(pfx, fx);
        }
        // Playback closes the turn's utterance (it records `complete` when
        // its last sentence has played) and forgets a stop.
        let mut pfx = PlayEffects::new();
        self.playback.turn_end(&turn_id, now, &mut pfx);
        self.played(pfx, fx);
        if self.stopped.remove(&turn_id) {
            return;
        }
        let Some(pos) = self.turns.iter().position(|t| t.id == turn_id) else { return };
        let turn = self.turns.remove(pos);
        if self.running.as_deref() != Some(turn_id.as_str()) {
            return;
        }
        self.running = None;
        if turn.error.is_some() && turn.spoken.is_empty() && !turn.unsaid {
            self.write_outcome(Outcome::Failed, &turn.event_name, &turn_id, "", now, fx);
        }
        match turn.error {
            Some(message) => {
                self.failure_line(&turn_id, Failure::Error, now, fx);
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
        // It counts as a frame of the turn for the wait; before the first
        // reply it may have a filler line of its own.
        self.touch(&call.turn_id, now, false, false);
        let name = call.name.clone();
        self.filler(&call.turn_id, Some(&name), now, fx);
        self.calls.insert(call.id.clone());
        fx.push(Effect::RunTool(call));
    }
}
