//! The session driver: the one loop over commands, transport events, tool
//! results, the engine's next deadline and cancellation. It carries out the
//! engine's effects: events into the sink, messages to the transport, turns
//! rendered and sent, tools run, records saved.

use super::setup::Sampler;
use super::Activity;
use crate::clock::SharedClock;
use crate::command::UserCommand;
use crate::context_log::{ContextLog, SentContext};
use crate::event::{Status, UiEvent};
use crate::outcome::OutcomeStore;
use crate::sink::SharedSink;
use crate::tools::{Desk, Executor, Toolbox};
use crate::transport::{Inbound, Outbound, ToolResult};
use crate::turn::{Effect, Effects, Engine, Now};
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// How many transport events one pass of the loop takes at most.
const INBOUND_BATCH: usize = 64;

/// Everything the loop owns.
pub(super) struct Driver {
    pub engine: Engine,
    pub sink: SharedSink,
    pub status: watch::Sender<Status>,
    pub activity: watch::Sender<Activity>,
    pub outbound: mpsc::UnboundedSender<Outbound>,
    pub contexts: Arc<ContextLog>,
    pub outcomes: OutcomeStore,
    pub sampler: Sampler,
    pub clock: SharedClock,
    pub transport_name: &'static str,
    pub applied: u64,
    /// What the client tools may ask of the desktop.
    pub desk: Arc<dyn Desk>,
}

impl Driver {
    /// Run until `cancel` fires or the command channel closes.
    pub async fn run(
        mut self,
        mut cmds: mpsc::UnboundedReceiver<UserCommand>,
        mut inbound: mpsc::UnboundedReceiver<Inbound>,
        cancel: CancellationToken,
    ) {
        let (tool_tx, mut tool_rx) = mpsc::unbounded_channel::<ToolResult>();
        // The tools run on a task of their own; dropped with this loop.
        let tools = Executor::spawn(Arc::new(Toolbox::new(self.desk.clone())), tool_tx);
        let mut fx: Effects = Vec::with_capacity(16);
        loop {
            let deadline = self.engine.next_deadline();
            tokio::select! {
                biased;
                _ = cancel.cancelled() => break,
                // A user's stop never waits behind a flood of server events.
                cmd = cmds.recv() => match cmd {
                    Some(cmd) => {
                        self.applied += 1;
                        self.engine.on_command(cmd, self.now(), &mut fx);
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
                Some(result) = tool_rx.recv() => self.engine.on_tool_result(result, &mut fx),
                _ = sleep_opt(deadline) => self.engine.tick(self.now(), &mut fx),
            }
            self.apply(&mut fx, &tools);
        }
        // The window (or its replacement) is not told; only the watch is.
        self.status.send_replace(Status::Closed);
    }

    fn now(&self) -> Now {
        Now { at: Instant::now(), wall_ms: self.clock.now_ms() }
    }

    fn inbound(&mut self, event: Inbound, fx: &mut Effects) {
        if let Inbound::Status(status) = &event {
            let changed = self.status.send_if_modified(|cur| {
                if cur == status {
                    false
                } else {
                    *cur = status.clone();
                    true
                }
            });
            if changed {
                self.sink.emit(UiEvent::Status { status: status.clone() });
            }
        }
        let now = self.now();
        self.engine.on_inbound(event, now, fx);
    }

    fn apply(&mut self, fx: &mut Effects, tools: &Executor) {
        for effect in fx.drain(..) {
            match effect {
                Effect::Ui(event) => self.sink.emit(event),
                Effect::Send(out) => {
                    // A stopped or abandoned turn's tool calls end with it.
                    match &out {
                        Outbound::Stop { turn_ids } => tools.stop(turn_ids.clone()),
                        Outbound::Abandon { turn_id } => tools.stop(vec![turn_id.clone()]),
                        _ => {}
                    }
                    self.send(out);
                }
                Effect::Begin(begin) => {
                    let wall = self.clock.now_ms();
                    let turn = self.sampler.turn(&begin, wall);
                    self.contexts.push(SentContext {
                        turn_id: turn.turn_id.clone(),
                        transport: self.transport_name.into(),
                        sent_at: wall.max(0) as u64,
                        block: turn.block.clone(),
                    });
                    self.sink.emit(UiEvent::ContextSent {
                        turn_id: turn.turn_id.clone(),
                        transport: self.transport_name.into(),
                        block: turn.block.clone(),
                    });
                    self.send(Outbound::Turn(turn));
                }
                Effect::Save(record) => self.outcomes.save(&record),
                Effect::RunTool(call) => tools.run(call),
                Effect::StopTools(turn_ids) => tools.stop(turn_ids),
            }
        }
        let busy = self.engine.busy();
        let applied = self.applied;
        self.activity.send_if_modified(|a| {
            let next = Activity { busy, applied };
            if *a == next {
                false
            } else {
                *a = next;
                true
            }
        });
    }

    fn send(&self, out: Outbound) {
        if self.outbound.send(out).is_err() {
            tracing::warn!(record = "transport_gone", "the transport task has ended; a message was dropped");
        }
    }
}

async fn sleep_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}
