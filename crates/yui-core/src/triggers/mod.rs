//! What fires a turn nobody typed: the world coming to the character (seed
//! `003`, "trigger"; `shared/spec/signals-ingress.md`). Sources hand their
//! news in as [`Arrival`]s; the inbox decides when each becomes a turn's
//! [`Trigger`](crate::context::Trigger). Everything here is pure: time
//! comes in as epoch milliseconds, nothing reads a clock or a socket.

pub mod agent;
pub mod cues;
pub mod inbox;
pub mod pacing;
pub mod screen;
pub mod milestone;
#[cfg(test)]
mod tests;

pub use inbox::{Inbox, Readiness};

use crate::context::{AgentEvent, SignalGroup};

/// Something another program handed the character, stamped when it arrived.
#[derive(Debug, Clone, PartialEq)]
pub enum Arrival {
    /// A `POST /signals` body: one group. A legacy group (no envelope, or an
    /// invalid one) has `envelope: None` and is delivered `immediate`.
    Signals {
        /// The group, its envelope sanitized.
        group: SignalGroup,
        /// When the ingress received it (epoch ms).
        received_ms: i64,
    },
    /// A `POST /agent-event` body (deprecated): one coding-agent event, its
    /// `summary` and `detail` already cut to their limits.
    Agent {
        /// The event.
        event: AgentEvent,
        /// When the ingress received it (epoch ms).
        received_ms: i64,
    },
}
