//! The coding-agent side of the inbox (`docs/triggers.md`, "The signals
//! ingress", `POST /agent-event`): the
//! event names a single event picks, and the catch-up buffer with its
//! same-session replacement and its caps.

use std::collections::VecDeque;

use crate::context::{AgentCatchup, AgentEvent};
use crate::limits::{AGENT_CATCHUP_ITEMS, AGENT_CATCHUP_PER_TOOL};

/// The event name of a single-event turn: `agent.needs_input` for phase
/// `needs_input`, `agent.done` for everything else (the ingress only passes
/// `done` and `needs_input`; an event it could not read still fires, and
/// `agent.done` is the marker whose unnamed fallback fits it best).
pub fn event_name(event: &AgentEvent) -> &'static str {
    match event.phase.as_deref().map(str::trim) {
        Some("needs_input") => "agent.needs_input",
        _ => "agent.done",
    }
}

/// The event name of a catch-up burst.
pub const CATCHUP_EVENT: &str = "agent.catchup";

/// An agent event waiting for its turn, with its arrival number (shared
/// with the signal groups, so the inbox can order the two).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pending {
    pub(crate) seq: u64,
    pub(crate) event: AgentEvent,
}

/// The agent events not yet turned into a turn, oldest first.
///
/// `held` is set once the inbox saw them while the user was away or the
/// character busy: from then on they leave as one catch-up burst.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct AgentBuffer {
    items: VecDeque<Pending>,
    pub(crate) held: bool,
}

impl AgentBuffer {
    /// No event waits.
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Buffer `event`. One with the same non-empty `session_id` and the same
    /// `phase` as a buffered one replaces it in place (it keeps the slot and
    /// the slot's arrival number); otherwise it is appended, and the caps
    /// drop the oldest: first the tool's own oldest past
    /// [`AGENT_CATCHUP_PER_TOOL`], then the oldest of all past
    /// [`AGENT_CATCHUP_ITEMS`].
    pub(crate) fn push(&mut self, seq: u64, event: AgentEvent) {
        if let Some(slot) = self.items.iter_mut().find(|p| same_session_and_phase(&p.event, &event)) {
            tracing::debug!(record = "agent_event_replaced", tool = ?event.tool, phase = ?event.phase, "a newer event of the same session and phase replaced the buffered one");
            slot.event = event;
            return;
        }
        let tool = tool_key(&event).map(str::to_string);
        self.items.push_back(Pending { seq, event });
        let of_tool = self.items.iter().filter(|p| tool_key(&p.event) == tool.as_deref()).count();
        if of_tool > AGENT_CATCHUP_PER_TOOL {
            if let Some(i) = self.items.iter().position(|p| tool_key(&p.event) == tool.as_deref()) {
                if let Some(dropped) = self.items.remove(i) {
                    log_drop(&dropped.event, "per_tool");
                }
            }
        }
        while self.items.len() > AGENT_CATCHUP_ITEMS {
            if let Some(dropped) = self.items.pop_front() {
                log_drop(&dropped.event, "total");
            }
        }
    }

    /// The arrival number of the oldest waiting event.
    pub(crate) fn first_seq(&self) -> Option<u64> {
        self.items.iter().map(|p| p.seq).min()
    }

    /// The oldest waiting event, taken out.
    pub(crate) fn pop_front(&mut self) -> Option<AgentEvent> {
        let event = self.items.pop_front().map(|p| p.event);
        if self.items.is_empty() {
            self.held = false;
        }
        event
    }

    /// Everything, as a catch-up burst in buffer order (oldest first),
    /// each item without its `cwd` (catch-up items carry none). None when
    /// nothing waits.
    pub(crate) fn take_catchup(&mut self) -> Option<AgentCatchup> {
        self.held = false;
        if self.items.is_empty() {
            return None;
        }
        let items = self.items.drain(..).map(|p| AgentEvent { cwd: None, ..p.event }).collect();
        Some(AgentCatchup { items })
    }
}

/// The tool an event counts against in the per-tool cap.
fn tool_key(event: &AgentEvent) -> Option<&str> {
    event.tool.as_deref().map(str::trim)
}

/// Same non-empty `session_id` and same `phase`.
fn same_session_and_phase(a: &AgentEvent, b: &AgentEvent) -> bool {
    let session = |e: &AgentEvent| e.session_id.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
    let phase = |e: &AgentEvent| e.phase.as_deref().map(str::trim).map(str::to_string);
    session(a).is_some() && session(a) == session(b) && phase(a) == phase(b)
}

fn log_drop(event: &AgentEvent, cap: &'static str) {
    tracing::warn!(record = "agent_event_dropped", cap, tool = ?event.tool, phase = ?event.phase, project = ?event.project, "agent catch-up buffer full: dropped the oldest event");
}
