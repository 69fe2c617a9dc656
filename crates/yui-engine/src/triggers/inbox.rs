//! The inbox: when what other programs sent becomes a turn
//! (`docs/triggers.md`, "The signals ingress": `POST /signals` delivery and
//! `POST /agent-event`; the markers in `docs/client-context.md`).
//!
//! Pure: no clock, no I/O. The caller hands every [`Arrival`] to
//! [`Inbox::arrive`], then calls [`Inbox::poll`] after each arrival, when the
//! user's presence or the character's business changes, and at
//! [`Inbox::next_deadline`]. A poll returns at most one turn's
//! [`Trigger`]; call it again for the next. The caller starts the turn it
//! gets and reports the character busy from then on.
//!
//! # Signals
//!
//! - Routing. A group is *batched* when its envelope says `delivery:
//!   "batched"` and does not mark it `urgent: true`; everything else is
//!   *immediate*: `immediate`, a missing delivery, a legacy group (no
//!   envelope), and every urgent group. Decision: an urgent group never
//!   waits for a batch window, since it is urgent; it still waits for the
//!   user and for the character to be idle, like every group.
//! - Immediate groups go to the away buffer. At a poll that finds the user
//!   present and the character idle (*ready*), the oldest one fires alone as
//!   `signals.push` (`signals.urgent` when urgent): one turn per group, as
//!   `docs/triggers.md` says "fires".
//! - Batched groups go to the batch buffer. The first batched group that
//!   finds no window open opens one: it ends
//!   [`SIGNALS_BATCH_WINDOW`] after its receive time (clamped to the
//!   arrival's `now_ms`, so a stamp from the future holds nothing longer).
//!   At the first poll at or past the end, the window closes; when that
//!   poll is ready, everything in the batch buffer fires as one
//!   `signals.batch` turn, otherwise it stays buffered for the catch-up.
//! - Catch-up. Every group a poll sees while not ready is *held* (both
//!   buffers, an open window's groups included). The next ready poll, the
//!   return-to-present or busy-to-idle edge, flushes both buffers as one
//!   `signals.catchup` turn in arrival order (`signals.urgent_catchup` when
//!   any of its groups is urgent), and closes an open window. Decision: a
//!   busy-to-idle edge while the user is away does not flush; only the edge
//!   into "present and idle" does, so nothing fires at an empty room.
//!   Decision: an immediate group that arrives together with the edge (no
//!   poll saw it yet) rides the catch-up instead of a turn of its own.
//! - Caps. Each buffer holds at most [`SIGNALS_BUFFER_GROUPS`] groups; a
//!   sixth drops that buffer's oldest, logged as `signals_group_dropped`.
//!   Urgent groups are dropped like any other: `docs/triggers.md` says "oldest".
//! - [`Inbox::drain`] hands both buffers to the first-activity milestone or
//!   the `tap_bored` cue (their `trigger.signals`), in arrival order, and
//!   closes the window.
//!
//! # Agent events
//!
//! - One event at a ready poll fires a single `agent` turn: `trigger.agent`
//!   set, `agent.needs_input` for phase `needs_input`, `agent.done`
//!   otherwise (see [`agent::event_name`]). Two events arriving between two
//!   polls fire two turns, one per call, the oldest first.
//! - A poll that is not ready holds every waiting event; the next ready
//!   poll fires them all as one `agent.catchup` burst
//!   (`trigger.agent_catchup`, buffer order, `cwd` left out of each item, as
//!   `docs/client-context.md`'s `agent event:` line has it), even a burst of
//!   one ("1 event" is a headline).
//! - A new event with the same non-empty `session_id` and the same `phase`
//!   as a waiting one replaces it in place (same slot, same place in the
//!   arrival order).
//! - Caps. `docs/triggers.md` names a per-tool cap; its size is ours: at most
//!   [`AGENT_CATCHUP_PER_TOOL`](crate::limits::AGENT_CATCHUP_PER_TOOL) (5, like a signals buffer) events per tool,
//!   dropping that tool's oldest; and, since the tool name is whatever the
//!   poster says, at most [`AGENT_CATCHUP_ITEMS`](crate::limits::AGENT_CATCHUP_ITEMS) in all, dropping the
//!   oldest. Both logged as `agent_event_dropped`.
//! - [`Inbox::drain`] leaves agent events alone: the renderer draws agent
//!   lines on `agent` turns only, so a milestone or `tap_bored` turn that
//!   took them would lose them. [`Inbox::drain_agents`] exists for a caller
//!   that must empty the inbox.
//!
//! # Signals and agent news together
//!
//! They never share a turn (the renderer has one headline, and an `agent`
//! turn's marker would hide the signals). When both have a turn due at the
//! same poll, the one whose oldest item arrived first goes first; the next
//! call returns the other while the state still allows it.

use std::collections::VecDeque;

use super::agent::{self, AgentBuffer, CATCHUP_EVENT};
use super::Arrival;
use crate::context::{AgentCatchup, AgentEvent, SignalGroup, Trigger, TriggerKind};
use crate::limits::{SIGNALS_BATCH_WINDOW, SIGNALS_BUFFER_GROUPS};

/// What the inbox needs to know about the moment of a poll.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Readiness {
    /// The user is present (not away or idle at the OS level).
    pub present: bool,
    /// The character is idle: no turn running (no backend call in flight,
    /// no speech playing).
    pub idle: bool,
}

impl Readiness {
    /// Present and idle: a turn may fire.
    pub fn ready(self) -> bool {
        self.present && self.idle
    }
}

/// A signal group waiting for its turn, with its arrival number.
#[derive(Debug, Clone, PartialEq)]
struct Held {
    seq: u64,
    group: SignalGroup,
}

/// The turn a ready poll picked, before it is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Due {
    SignalsCatchup,
    SignalsBatch,
    SignalsPush,
    AgentCatchup,
    AgentSingle,
}

/// The pending news of other programs and the rules that turn it into turns.
/// See the module documentation for every rule.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inbox {
    /// Arrival counter, shared by signals and agent events.
    seq: u64,
    /// Immediate (and urgent) groups, oldest first.
    away: VecDeque<Held>,
    /// Batched groups, oldest first.
    batch: VecDeque<Held>,
    /// When the open batch window closes (epoch ms).
    window_end: Option<i64>,
    /// A poll saw signal groups while not ready: they leave as a catch-up.
    signals_held: bool,
    /// Agent events.
    agents: AgentBuffer,
}

impl Inbox {
    /// An empty inbox.
    pub fn new() -> Inbox {
        Inbox::default()
    }

    /// Nothing waits: no signal group and no agent event.
    pub fn is_empty(&self) -> bool {
        self.away.is_empty() && self.batch.is_empty() && self.agents.is_empty()
    }

    /// Take in one arrival. A batched group that finds no window open opens
    /// one; nothing fires here: [`poll`](Inbox::poll) decides.
    pub fn arrive(&mut self, arrival: Arrival, now_ms: i64) {
        self.seq += 1;
        let seq = self.seq;
        match arrival {
            Arrival::Signals { group, received_ms } => {
                if is_batched(&group) {
                    if self.window_end.is_none() {
                        let window = i64::try_from(SIGNALS_BATCH_WINDOW.as_millis()).unwrap_or(i64::MAX);
                        self.window_end = Some(received_ms.min(now_ms).saturating_add(window));
                    }
                    push_capped(&mut self.batch, Held { seq, group }, "batch");
                } else {
                    push_capped(&mut self.away, Held { seq, group }, "away");
                }
            }
            Arrival::Agent { event, .. } => self.agents.push(seq, event),
        }
    }

    /// Decide at `now_ms`: at most one turn's trigger (call again for the
    /// next). Closes a batch window whose end has come; when `state` is not
    /// ready, holds everything waiting for a catch-up and returns None.
    pub fn poll(&mut self, now_ms: i64, state: Readiness) -> Option<Trigger> {
        if self.window_end.is_some_and(|end| now_ms >= end) {
            self.window_end = None;
        }
        if !state.ready() {
            if !self.away.is_empty() || !self.batch.is_empty() {
                self.signals_held = true;
            }
            if !self.agents.is_empty() {
                self.agents.held = true;
            }
            return None;
        }
        let due = [self.signals_due(), self.agents_due()].into_iter().flatten().min_by_key(|(seq, _)| *seq)?.1;
        Some(match due {
            Due::SignalsCatchup => {
                let groups = self.take_signals();
                let urgent = groups.iter().any(is_urgent);
                signals_trigger(if urgent { "signals.urgent_catchup" } else { "signals.catchup" }, groups)
            }
            Due::SignalsBatch => {
                let groups: Vec<SignalGroup> = self.batch.drain(..).map(|h| h.group).collect();
                signals_trigger("signals.batch", groups)
            }
            Due::SignalsPush => {
                let group = self.away.pop_front()?.group;
                signals_trigger(if is_urgent(&group) { "signals.urgent" } else { "signals.push" }, vec![group])
            }
            Due::AgentCatchup => agent_catchup_trigger(self.agents.take_catchup()?),
            Due::AgentSingle => agent_trigger(self.agents.pop_front()?),
        })
    }

    /// When the open batch window closes (epoch ms), so the caller can
    /// sleep until then and poll; None when no window is open.
    pub fn next_deadline(&self) -> Option<i64> {
        self.window_end
    }

    /// Both signal buffers, in arrival order, for the turn that carries
    /// them instead of a signals turn (the first-activity milestone, the
    /// `tap_bored` cue): the inbox is left without signals and the window
    /// closed. None when no group waits. Agent events stay (see
    /// [`drain_agents`](Inbox::drain_agents)).
    pub fn drain(&mut self) -> Option<Vec<SignalGroup>> {
        let groups = self.take_signals();
        (!groups.is_empty()).then_some(groups)
    }

    /// Every waiting agent event, oldest first, as a catch-up burst (no
    /// `cwd`); None when none waits. Only for a caller that must empty the
    /// inbox: the renderer draws them on an `agent` turn only.
    pub fn drain_agents(&mut self) -> Option<AgentCatchup> {
        self.agents.take_catchup()
    }

    /// The signals turn due at a ready poll, with the arrival number of its
    /// oldest group.
    fn signals_due(&mut self) -> Option<(u64, Due)> {
        let away = self.away.front().map(|h| h.seq);
        let batch = self.batch.front().map(|h| h.seq);
        if self.signals_held {
            match away.into_iter().chain(batch).min() {
                Some(seq) => return Some((seq, Due::SignalsCatchup)),
                None => self.signals_held = false,
            }
        }
        let batch = batch.filter(|_| self.window_end.is_none()).map(|seq| (seq, Due::SignalsBatch));
        let push = away.map(|seq| (seq, Due::SignalsPush));
        [batch, push].into_iter().flatten().min_by_key(|(seq, _)| *seq)
    }

    /// The agent turn due at a ready poll, with the arrival number of its
    /// oldest event.
    fn agents_due(&self) -> Option<(u64, Due)> {
        let seq = self.agents.first_seq()?;
        Some((seq, if self.agents.held { Due::AgentCatchup } else { Due::AgentSingle }))
    }

    /// Both signal buffers merged in arrival order; the window closed.
    fn take_signals(&mut self) -> Vec<SignalGroup> {
        self.signals_held = false;
        self.window_end = None;
        let mut all: Vec<Held> = self.away.drain(..).chain(self.batch.drain(..)).collect();
        all.sort_by_key(|h| h.seq);
        all.into_iter().map(|h| h.group).collect()
    }
}

/// Marked `urgent: true` by its producer.
fn is_urgent(group: &SignalGroup) -> bool {
    group.envelope.as_ref().and_then(|e| e.urgent) == Some(true)
}

/// Waits for a batch window: `delivery: "batched"` and not urgent.
fn is_batched(group: &SignalGroup) -> bool {
    !is_urgent(group) && group.envelope.as_ref().and_then(|e| e.delivery.as_deref()).map(str::trim) == Some("batched")
}

/// Append, dropping the buffer's oldest past [`SIGNALS_BUFFER_GROUPS`].
fn push_capped(buffer: &mut VecDeque<Held>, held: Held, which: &'static str) {
    buffer.push_back(held);
    while buffer.len() > SIGNALS_BUFFER_GROUPS {
        if let Some(dropped) = buffer.pop_front() {
            let e = dropped.group.envelope.as_ref();
            tracing::warn!(
                record = "signals_group_dropped",
                buffer = which,
                source = ?e.and_then(|e| e.source.as_deref()),
                event_type = ?e.and_then(|e| e.event_type.as_deref()),
                event_id = ?e.and_then(|e| e.event_id.as_deref()),
                items = dropped.group.items.len(),
                "signals buffer full: dropped the oldest group"
            );
        }
    }
}

fn signals_trigger(event_name: &str, groups: Vec<SignalGroup>) -> Trigger {
    let mut t = Trigger::new(TriggerKind::Signals, Some(event_name.to_string()));
    t.signals = Some(groups);
    t
}

fn agent_trigger(event: AgentEvent) -> Trigger {
    let mut t = Trigger::new(TriggerKind::Agent, Some(agent::event_name(&event).to_string()));
    t.agent = Some(event);
    t
}

fn agent_catchup_trigger(burst: AgentCatchup) -> Trigger {
    let mut t = Trigger::new(TriggerKind::Agent, Some(CATCHUP_EVENT.to_string()));
    t.agent_catchup = Some(burst);
    t
}
