//! What fires a turn nobody typed: the world coming to the character
//! (`docs/triggers.md`). Sources hand their
//! news in as [`Arrival`]s; the inbox decides when each becomes a turn's
//! [`Trigger`](crate::context::Trigger). Everything here is pure: time
//! comes in as epoch milliseconds, nothing reads a clock or a socket.

pub mod agent;
pub mod cues;
pub mod inbox;
pub mod milestone;
pub mod pacing;
pub mod screen;
#[cfg(test)]
mod tests;

/// The cue and milestone tests' rendering: a trigger in a fixed block
/// (2026-06-15 19:30 in Seoul, standing), as its lines after the header
/// and the user input (the background marker).
#[cfg(test)]
pub(crate) fn rendered(trigger: crate::context::Trigger) -> (Vec<String>, String) {
    use crate::context::{render, user_input, ClientContext};
    let mut c: ClientContext = serde_json::from_str(
        r#"{"env":{"timestamp":"2026-06-15T19:30:00+09:00","timezone":"Asia/Seoul"},
            "body_state":{"posture":{"state":"standing"},"since":1786999280000},
            "trigger":{"kind":"user"}}"#,
    )
    .unwrap();
    c.trigger = trigger;
    let block = render(&c, 1_787_000_000_000);
    let lines = block.lines().skip(4).filter(|l| *l != "</client_context>").map(str::to_string).collect();
    (lines, user_input(&c))
}

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
