//! The session driver: the one loop over commands, transport events, tool
//! results, the engine's next deadline and cancellation. It carries out the
//! engine's effects: events into the sink, messages to the transport, turns
//! rendered and sent, tools run, records saved.
//!
//! The loop's state lives in owned parts (`session/parts/`: the link to the
//! transport, the records, the voice, the asks, the initiative, the body);
//! the driver holds them with what every part may be handed (engine, sink,
//! clock, live settings, desk, tools, chat log) and calls their methods.

use super::parts::asks::{Answered, Asks};
use super::parts::body::Body as BodyPart;
use super::parts::company::Company;
use super::parts::initiative::Initiative;
use super::parts::link::{HeldItem, Link};
use super::parts::records::Records;
use super::parts::voice::Voice;
use super::setup::TurnShot;
use crate::clock::SharedClock;
use crate::command::UserCommand;
use crate::context_log::SentContext;
use crate::event::UiEvent;
use crate::picture::Picture;
use crate::sink::SharedSink;
use crate::speech::speaker::Report;
use crate::tools::{Desk, Executor, Run, Toolbox};
use crate::transport::{Inbound, Outbound, ToolResult};
use crate::turn::{Begin, Effect, Effects, Engine, Now};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How many transport events one pass of the loop takes at most.
const INBOUND_BATCH: usize = 64;

/// A turn screenshot taken off the loop, ready to ride with its turn.
pub(super) struct TakenShot {
    begin: Begin,
    shot: TurnShot,
    images: Vec<Picture>,
}

/// Everything the loop owns: the owned parts (`parts/`), and what every
/// part may be handed (the engine, the sink, the clock, the live settings,
/// the desk and the tools).
pub(super) struct Driver {
    /// The turn engine.
    pub engine: Engine,
    /// Where the page's events go.
    pub sink: SharedSink,
    /// The wall clock.
    pub clock: SharedClock,
    /// The settings the session reads now.
    pub live: crate::settings::LiveSettings,
    /// What the client tools and the body may ask of the desktop.
    pub desk: Arc<dyn Desk>,
    /// The tools that run the calls.
    pub tools: Toolbox,
    /// The chat window's events and conversations.
    pub chat: Arc<std::sync::Mutex<crate::session::chat_log::ChatLog>>,
    /// The transport's side: outbound, held, status, activity.
    pub link: Link,
    /// The sampler and the stores of sent blocks, outcomes, delegations.
    pub records: Records,
    /// Her voice.
    pub voice: Voice,
    /// The client tools' questions.
    pub asks: Asks,
    /// What may start a turn nobody typed.
    pub initiative: Initiative,
    /// Her body and the bed.
    pub body: BodyPart,
    /// The other characters open beside her.
    pub company: Company,
}

/// What the loop listens to besides its own timers and tools.
pub(super) struct Inputs {
    /// The user's commands.
    pub cmds: mpsc::UnboundedReceiver<UserCommand>,
    /// The transport's events.
    pub inbound: mpsc::UnboundedReceiver<Inbound>,
    /// What other programs sent (the ingress).
    pub arrivals: mpsc::UnboundedReceiver<crate::triggers::Arrival>,
    /// The desktop's readings.
    pub world: mpsc::UnboundedReceiver<super::world::Reading>,
    /// `body_action` calls from the tools.
    pub body_rx: mpsc::UnboundedReceiver<crate::tools::BodyRequest>,
    /// Addressed turns other characters' replies made for her.
    pub notes: mpsc::UnboundedReceiver<crate::ensemble::AddressedNote>,
}

impl Driver {
    /// Run until `cancel` fires or the command channel closes.
    pub async fn run(mut self, inputs: Inputs, launch_bed: bool, cancel: CancellationToken) {
        let Inputs { mut cmds, mut inbound, mut arrivals, mut world, mut body_rx, mut notes } = inputs;
        let (tool_tx, mut tool_rx) = mpsc::unbounded_channel::<ToolResult>();
        let (shot_tx, mut shot_rx) = mpsc::unbounded_channel::<TakenShot>();
        // The tools run on a task of their own; dropped with this loop.
        let (ask_tx, mut ask_rx) = mpsc::unbounded_channel::<crate::tools::Ask>();
        let tools = Executor::spawn_asking(Arc::new(self.tools.clone()), tool_tx, self.link.prefit(), Some(ask_tx));
        let mut fx: Effects = Vec::with_capacity(16);
        self.restore_place();
        if launch_bed {
            self.go_to_bed(crate::body::BedEntry::Launch, &mut fx);
        }
        loop {
            let deadline = self.engine.next_deadline();
            let inbox_due = self.inbox_deadline();
            let bed_due = self.bed_deadline();
            let body_due = self.body_deadline();
            tokio::select! {
                biased;
                _ = cancel.cancelled() => break,
                // A user's stop never waits behind a flood of server events.
                cmd = cmds.recv() => match cmd {
                    Some(cmd) => {
                        self.link.applied();
                        self.command(cmd, &mut fx);
                    }
                    None => break,
                },
                event = inbound.recv() => match event {
                    Some(event) => {
                        self.inbound(event, &mut fx);
                        // Take a few more that already arrived in the same pass.
                        for _ in 1..INBOUND_BATCH {
                            match inbound.try_recv() {
                                Ok(event) => self.inbound(event, &mut fx),
                                Err(_) => break,
                            }
                        }
                    }
                    None => break,
                },
                Some(result) = tool_rx.recv() => {
                    let chat = self.chat_log().tool_result(&result, self.clock.now_ms());
                    self.emit_all(chat);
                    self.engine.on_tool_result(result, &mut fx)
                }
                Some(shot) = shot_rx.recv() => self.shot_taken(shot, &shot_tx),
                Some(ask) = ask_rx.recv() => self.ask(ask, &mut fx),
                report = self.voice.next() => self.report(report, &mut fx),
                _ = sleep_opt(deadline) => self.engine.tick(self.now(), &mut fx),
                Some(arrival) = arrivals.recv() => self.initiative.arrive(arrival, self.clock.now_ms()),
                Some((sample, folded)) = world.recv() => {
                    let reactions = self.live.read(|s| s.user.reactions.clone());
                    let now_ms = self.clock.now_ms();
                    let change = self.initiative.observe_world(sample, reactions.away_after_ms(), now_ms);
                    self.stay_out_of_fullscreen();
                    self.bed_tick(&mut fx);
                    self.initiative.observe_proactive(change, now_ms, &reactions);
                    if self.take_initiative(&mut fx) {
                        self.apply(&mut fx, &tools, &shot_tx);
                    }
                    // A fed reading's feeder learns it is folded (and any turn it began, begun).
                    if let Some(folded) = folded {
                        let _ = folded.send(());
                    }
                }
                _ = sleep_opt(inbox_due) => {}
                _ = sleep_opt(bed_due) => self.bed_tick(&mut fx),
                Some(req) = body_rx.recv() => self.body_request(req, &mut fx),
                _ = sleep_opt(body_due) => self.body_tick(&mut fx),
                Some(note) = notes.recv() => self.company.owe(note),
                // Her reply waited for another's voice: it may go now.
                _ = self.company.floor_change() => fx.extend(self.company.floor_changed()),
            }
            self.apply(&mut fx, &tools, &shot_tx);
            if self.fire_waiting(&mut fx) {
                self.apply(&mut fx, &tools, &shot_tx);
            }
        }
        // The window (or its replacement) is not told; only the watch is.
        self.link.close();
        self.company.leave();
    }

    fn chat_log(&self) -> std::sync::MutexGuard<'_, crate::session::chat_log::ChatLog> {
        self.chat.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Emit an event, and the chat events it makes after it.
    pub(super) fn emit(&self, mut event: UiEvent) {
        let chat = {
            let mut log = self.chat_log();
            log.annotate(&mut event);
            log.ui(&event, self.clock.now_ms())
        };
        self.sink.emit(event);
        self.emit_all(chat);
    }

    fn emit_all(&self, events: Vec<UiEvent>) {
        for e in events {
            self.sink.emit(e);
        }
    }

    /// A user command: the chat log takes the conversation's own (versions,
    /// fork, delete, regenerate), the engine the rest.
    fn command(&mut self, cmd: UserCommand, fx: &mut Effects) {
        match &cmd {
            UserCommand::Touch { touch } => return self.touch(touch, fx),
            UserCommand::GoToBed => return self.go_to_bed(crate::body::BedEntry::Command, fx),
            UserCommand::Drag { phase, at } => return self.drag(*phase, *at, fx),
            UserCommand::BodyInterrupted { reason } => {
                tracing::info!(record = "body_interrupted", reason = %reason);
                return self.end_bed("interrupted", fx);
            }
            UserCommand::SendText { .. } | UserCommand::SendAddressed { .. } | UserCommand::SendVoice { .. } | UserCommand::SendMessage { .. } => {
                // A user message ends every exchange of characters.
                self.company.user_spoke();
                self.message_wakes(fx)
            }
            UserCommand::AskHelp { guide } => {
                self.company.user_spoke();
                self.message_wakes(fx);
                // Asked in the UI language.
                let language = self.live.read(|s| s.user.language.clone());
                tracing::info!(record = "help_asked", guide = ?guide, language = %language);
                return self.engine.ask_help((*guide).into(), &language, self.now(), fx);
            }
            UserCommand::ShowOffers => return self.tools.offers().repeat(self.clock.now_ms()),
            UserCommand::SwitchOn { switch } => {
                if !self.tools.switch_on(switch) {
                    self.emit(UiEvent::notice_said(
                        crate::error::ErrorCode::Settings,
                        format!("There is no tool switch named {switch}."),
                        crate::event::Phrase::new("notice-no-switch").arg("switch", switch),
                    ));
                }
                return;
            }
            _ => {}
        }
        if let UserCommand::Approve { approval_id, decision } = &cmd {
            let shown = self.chat_log().approval_answered(approval_id, (*decision).into());
            self.emit_all(shown.into_iter().collect());
            // One of the client's own asks: answered here, not by the backend.
            // After its call answered, the answer applies to the next call.
            match self.asks.answer(approval_id, *decision) {
                Answered::NotOurs => {}
                Answered::Delivered => return,
                Answered::Late(tool, decision) => {
                    tracing::info!(record = "tool_approval_late", approval_id = %approval_id, "the call it was for has answered");
                    self.tools.answered_late(&tool, decision);
                    return;
                }
            }
        }
        // Files over a limit (or of a kind this transport cannot take)
        // refuse the whole message before anything is sent.
        if let UserCommand::SendMessage { attachments, .. } = &cmd {
            let limits = self.live.read(|s| s.user.chat.clone());
            if let Err(refused) = crate::chat::attach::prepare(attachments, &limits, self.link.carries_files()) {
                tracing::warn!(record = "attachment_refused", reason = %refused);
                self.emit(UiEvent::notice(crate::error::ErrorCode::Unsupported, refused.to_string()));
                return;
            }
        }
        let busy = self.engine.busy();
        let handled = self.chat_log().command(cmd, busy, self.clock.now_ms());
        self.emit_all(handled.events);
        for out in handled.outbound {
            self.send_in_order(out);
        }
        if let Some(cmd) = handled.engine {
            self.engine.on_command(cmd, self.now(), fx);
        }
    }

    /// A client tool asks the user first: an approval card, and a line.
    fn ask(&mut self, ask: crate::tools::Ask, fx: &mut Effects) {
        let crate::tools::Ask { turn_id, call_id, name, args, tool, reply } = ask;
        let approval_id = self.asks.ask(reply, tool);
        let chat = self.chat_log().ask(&turn_id, &approval_id, &call_id, &name, &args, self.clock.now_ms());
        self.announce_approvals(&chat, fx);
        self.emit_all(chat);
    }

    /// For each approval card among `events`, she says what she asks.
    fn announce_approvals(&mut self, events: &[UiEvent], fx: &mut Effects) {
        for e in events {
            if let UiEvent::Chat { event: crate::transport::agent_chat::ChatEvent::ApprovalRequest { msg_id, name, args, .. } } = e {
                let line = crate::chat::approval_line(name, args);
                let now = self.now();
                self.engine.announce(msg_id, &line, now, fx);
            }
        }
    }

    /// When the inbox's batch window closes, on the loop's clock.
    fn inbox_deadline(&self) -> Option<Instant> {
        self.instant_of(self.initiative.inbox_deadline()?)
    }

    /// A wall-clock moment (epoch ms) on the loop's clock.
    pub(super) fn instant_of(&self, wall_ms: i64) -> Option<Instant> {
        let wait = u64::try_from(wall_ms.saturating_sub(self.clock.now_ms())).unwrap_or(0);
        Some(Instant::now() + std::time::Duration::from_millis(wait))
    }

    pub(super) fn now(&self) -> Now {
        Now { at: Instant::now(), wall_ms: self.clock.now_ms() }
    }

    fn inbound(&mut self, event: Inbound, fx: &mut Effects) {
        if let Inbound::ImagesSent { turn_id, images } = event {
            self.records.images_sent(&turn_id, images.clone());
            self.sink.emit(UiEvent::ImagesSent { turn_id, images });
            return;
        }
        if let Inbound::Forked { local_id, server_id } = &event {
            self.chat_log().forked(local_id, server_id);
        }
        if let Inbound::StopConfirmed { turn_id, confirmed } = &event {
            let shown = self.chat_log().stop_confirmed(turn_id, *confirmed);
            self.emit_all(shown.into_iter().collect());
        }
        if let Inbound::ApprovalGone { approval_id } = &event {
            let shown = self.chat_log().approval_gone(approval_id);
            self.emit_all(shown.into_iter().collect());
        }
        if let Inbound::Delegations(items) = &event {
            let now = self.clock.now_ms();
            self.records.delegations(items, now);
        }
        if let Inbound::Status(status) = &event {
            if self.link.set_status(status) {
                self.emit(UiEvent::Status { status: status.clone() });
            }
        }
        // The chat sees what the engine will take (not a stopped turn's).
        let wall = self.clock.now_ms();
        let chat = match &event {
            // Text a stop or a stall left unsaid comes after the turn stopped.
            Inbound::Reply { turn_id, part } if !self.engine.is_stopped(turn_id) || matches!(part, crate::transport::ReplyPart::Unsaid { .. }) => match part {
                crate::transport::ReplyPart::Chat { event } => self.chat_log().wire(turn_id, event, wall),
                part => self.chat_log().reply(turn_id, part, wall),
            },
            Inbound::ToolCall(call) if !self.engine.is_stopped(&call.turn_id) => self.chat_log().tool_call(call, wall),
            _ => Vec::new(),
        };
        self.announce_approvals(&chat, fx);
        self.emit_all(chat);
        let now = self.now();
        self.engine.on_inbound(event, now, fx);
    }

    fn report(&mut self, report: Report, fx: &mut Effects) {
        let now = self.now();
        match report {
            Report::Sink(event) => self.engine.on_sink(event, now, fx),
            Report::NoAudio(item_id) => self.engine.on_synth_failed(item_id, now, fx),
        }
    }

    fn apply(&mut self, fx: &mut Effects, tools: &Executor, shots: &mpsc::UnboundedSender<TakenShot>) {
        // Playing may answer at once (no audio), which adds effects.
        while !fx.is_empty() {
            let batch: Vec<Effect> = std::mem::take(fx);
            self.apply_batch(batch, fx, tools, shots);
        }
        // An addressed turn owed to her is a message waiting.
        self.link.publish(self.engine.busy() || self.company.owes(), self.engine.speaking());
        self.company.quiet(self.engine.speaking(), self.engine.busy());
    }

    fn apply_batch(&mut self, batch: Vec<Effect>, more: &mut Effects, tools: &Executor, shots: &mpsc::UnboundedSender<TakenShot>) {
        for effect in batch {
            // With other characters open, her voice waits for the floor.
            let Some(effect) = self.company.voice(effect) else { continue };
            match effect {
                Effect::Ui(mut event) => {
                    self.pace(&event);
                    self.company.heard(&event);
                    self.body.hold_still(&mut event);
                    self.emit(event)
                }
                Effect::Send(out) => {
                    // A stopped or abandoned turn's tool calls end with it.
                    match &out {
                        Outbound::Stop { turn_ids } => tools.stop(turn_ids.clone()),
                        Outbound::Abandon { turn_id } => tools.stop(vec![turn_id.clone()]),
                        _ => {}
                    }
                    self.send_in_order(out);
                }
                Effect::Begin(begin) => {
                    self.company.begun(&begin.turn_id);
                    if let Some(begin) = self.link.hold_begin(begin) {
                        self.begin(begin, shots)
                    }
                }
                Effect::Save(record) => {
                    self.company.played(&record, self.clock.now_ms());
                    self.records.save(record)
                }
                Effect::RunTool(call) => tools.run(call),
                Effect::StopTools(turn_ids) => tools.stop(turn_ids),
                Effect::Synth { item_id, request } => {
                    self.voice_changed();
                    self.voice.synth(item_id, request)
                }
                Effect::Play { item_id } => {
                    if let Some(report) = self.voice.play(item_id) {
                        self.report(report, more);
                    }
                }
                Effect::Halt => self.voice.halt(),
            }
        }
    }

    /// Before a sentence is made while nothing plays: rebuild the speaker
    /// when the voice settings changed (the settings window saved).
    fn voice_changed(&mut self) {
        if self.engine.speaking_other_than_new() {
            return;
        }
        if let Some(no_sound) = self.voice.follow(&self.live) {
            self.emit(super::no_sound_notice(&no_sound));
        }
    }

    /// Start a turn: at once, or after its screenshot is taken off the loop
    /// (everything sent meanwhile waits behind it, in order).
    fn begin(&mut self, begin: Begin, shots: &mpsc::UnboundedSender<TakenShot>) {
        let Some(shot) = self.records.turn_shot() else {
            self.send_turn(begin, None, Vec::new());
            return;
        };
        self.link.hold();
        let (desk, prefit, shots) = (self.desk.clone(), self.link.prefit(), shots.clone());
        tokio::spawn(async move {
            let started = std::time::Instant::now();
            let mut shot = shot;
            let taken = tokio::time::timeout(crate::limits::TURN_SCREENSHOT_WAIT, async {
                if let crate::tools::Shot::Display(index) = shot.shot {
                    let desk2 = desk.clone();
                    let labels = tokio::task::spawn_blocking(move || desk2.displays()).await;
                    if let Ok(Ok(displays)) = labels {
                        if let Some(d) = displays.iter().find(|d| d.index == index) {
                            shot.source = crate::context::ScreenSource::Monitor { index: Some(index as i64), label: Some(d.label.clone()) };
                        }
                    }
                }
                let picture = desk.capture(shot.shot.clone()).await.map_err(|e| e.to_string())?;
                if !prefit {
                    return Ok(vec![picture]);
                }
                tokio::task::spawn_blocking(move || crate::transport::request::prefit(&[picture])).await.map_err(|e| e.to_string())?.map_err(|e| e.to_string())
            })
            .await;
            let images = match taken {
                Ok(Ok(images)) => {
                    tracing::info!(record = "turn_screenshot", turn_id = %begin.turn_id, ms = started.elapsed().as_millis() as u64);
                    images
                }
                Ok(Err(e)) => {
                    tracing::warn!(record = "turn_screenshot_failed", turn_id = %begin.turn_id, error = %e, "the turn goes without its screenshot");
                    Vec::new()
                }
                Err(_) => {
                    tracing::warn!(record = "turn_screenshot_failed", turn_id = %begin.turn_id, error = "timed out", "the turn goes without its screenshot");
                    Vec::new()
                }
            };
            let _ = shots.send(TakenShot { begin, shot, images });
        });
    }

    /// A screenshot was taken: its turn leaves, then what waited behind it.
    fn shot_taken(&mut self, shot: TakenShot, shots: &mpsc::UnboundedSender<TakenShot>) {
        let TakenShot { begin, shot, images } = shot;
        // The line names the source even when the capture failed: the
        // setting is on; the pixels are simply absent.
        self.send_turn(begin, Some(&shot), images);
        let mut held = self.link.release();
        while let Some(item) = held.pop_front() {
            match item {
                HeldItem::Out(out) => self.link.send(out),
                HeldItem::Begin(begin) => {
                    self.begin(begin, shots);
                    if self.link.hold_rest(&mut held) {
                        return;
                    }
                }
            }
        }
    }

    /// Render and send a turn, and keep its block for the inspector.
    fn send_turn(&mut self, begin: Begin, shot: Option<&TurnShot>, images: Vec<Picture>) {
        let wall = self.clock.now_ms();
        self.chat_log().sent(&begin.turn_id, wall);
        let company = super::setup::TurnCompany { overheard: self.company.overheard(&begin.turn_id), others: self.company.others() };
        let mut turn = self.records.turn(&begin, wall, shot, images, company);
        let (conversation_id, regenerate_of) = self.chat_log().route(&begin.turn_id);
        turn.conversation_id = Some(conversation_id);
        turn.regenerate_of = regenerate_of;
        if !begin.attachments.is_empty() {
            // Checked when the message was sent; the limits may have changed
            // since, which only the log says.
            let limits = self.live.read(|s| s.user.chat.clone());
            match crate::chat::attach::prepare(&begin.attachments, &limits, self.link.carries_files()) {
                Ok(prepared) => {
                    turn.images.extend(prepared.pictures);
                    turn.files = prepared.files;
                    // agent_chat's engine takes text files as attachments of their own.
                    if self.link.name() == crate::transport::agent_chat::NAME {
                        turn.files.extend(prepared.texts);
                    } else {
                        turn.input.push_str(&prepared.folded);
                    }
                }
                Err(e) => tracing::warn!(record = "attachment_refused", turn_id = %turn.turn_id, reason = %e),
            }
        }
        self.records.sent(SentContext {
            turn_id: turn.turn_id.clone(),
            transport: self.link.name().into(),
            sent_at: wall.max(0) as u64,
            block: turn.block.clone(),
            images: Vec::new(),
        });
        self.sink.emit(UiEvent::ContextSent { turn_id: turn.turn_id.clone(), transport: self.link.name().into(), block: turn.block.clone() });
        if self.link.prefit() && !turn.images.is_empty() {
            // Already fitted: what is sent is known now.
            let urls = crate::transport::request::urls(&turn.images);
            self.records.images_sent(&turn.turn_id, urls.clone());
            self.sink.emit(UiEvent::ImagesSent { turn_id: turn.turn_id.clone(), images: urls });
        }
        self.send(Outbound::Turn(turn));
    }

    /// Send now, or after the turn whose screenshot is being taken.
    fn send_in_order(&mut self, out: Outbound) {
        self.link.send_in_order(out)
    }

    fn send(&self, out: Outbound) {
        self.link.send(out)
    }
}

async fn sleep_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}
