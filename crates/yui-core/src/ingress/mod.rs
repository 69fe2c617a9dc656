//! The signals ingress (`docs/triggers.md`, "The signals ingress"): a small HTTP
//! server on `127.0.0.1` that lets other local programs hand the character
//! something to react to. What arrives is handed on as an
//! [`Arrival`] through an [`IngressPort`]; the
//! inbox decides when it becomes a turn.
//!
//! - [`envelope`]: the bodies, parsed and checked (pure).
//! - [`guard`]: the Host / Origin / token rules every request passes (pure).
//! - [`token`]: the per-installation token in the data directory.
//! - [`serve`]: the listener; `handler` routes one request.

pub mod envelope;
pub mod guard;
mod handler;
mod server;
pub mod token;

pub use envelope::{parse_agent_event, parse_relations, parse_signals, BadBody, Invalid, ParsedAgent, ParsedSignals};
pub use server::{serve, Ingress};

use crate::limits::{INGRESS_BIND_RETRIES, INGRESS_BIND_RETRY_INTERVAL, INGRESS_PORT_DEFAULT};
use crate::triggers::Arrival;
use std::time::Duration;

/// Why the relations store did not answer a `/relations/<character>` call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RelationsError {
    /// No character is running.
    #[error("no character is running")]
    NoCharacter,
    /// No open character has that name.
    #[error("no character named {asked:?} here (open: {here})")]
    NotHere {
        /// The name asked for.
        asked: String,
        /// The open characters' names, comma-separated, main first.
        here: String,
    },
    /// A record the store cannot take (the serde error).
    #[error("a record needs target and value: {0}")]
    BadRecord(String),
    /// The store failed (its own words).
    #[error("{0}")]
    Store(String),
}

/// What the ingress needs from the app (or a session): where arrivals go,
/// the receive clock, and the relations store. Tests fake it.
pub trait IngressPort: Send + Sync {
    /// A `/signals` group or an `/agent-event` arrived (already checked and
    /// stamped). Called on the server's task: it must not block.
    fn arrived(&self, arrival: Arrival);
    /// Now, epoch milliseconds: the receive stamp. The ingress reads no
    /// other clock.
    fn now_ms(&self) -> i64;
    /// `GET /relations/<character>`: the character's relation records as
    /// JSON. An error answers 404 with the message.
    fn relations(&self, character: &str) -> Result<serde_json::Value, RelationsError>;
    /// `PUT /relations/<character>`: replace the records (an array whose
    /// notes the ingress has checked) and answer what is now stored. An
    /// error answers 400 with the message.
    fn set_relations(&self, character: &str, records: serde_json::Value) -> Result<serde_json::Value, RelationsError>;
}

/// How the ingress listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IngressConfig {
    /// The port on `127.0.0.1` (0 picks a free one; tests).
    pub port: u16,
    /// Answer 401 to a request without `Authorization: Bearer <token>`.
    pub require_token: bool,
    /// The installation's token (see [`token::load_or_create`]).
    pub token: crate::settings::Secret,
    /// Bind attempts after the first that failed: 8 by default.
    pub bind_retries: u32,
    /// The wait between bind attempts: 500 ms by default.
    pub bind_retry_interval: Duration,
}

impl IngressConfig {
    /// The listener of `docs/triggers.md` on `port`, with its bind retries.
    pub fn new(port: u16, require_token: bool, token: impl Into<crate::settings::Secret>) -> Self {
        Self { port, require_token, token: token.into(), bind_retries: INGRESS_BIND_RETRIES, bind_retry_interval: INGRESS_BIND_RETRY_INTERVAL }
    }
}

impl Default for IngressConfig {
    /// Port 8770, no token required, no token.
    fn default() -> Self {
        Self::new(INGRESS_PORT_DEFAULT, false, String::new())
    }
}

/// Why the ingress did not start.
#[derive(Debug, thiserror::Error)]
pub enum IngressError {
    /// Every bind attempt failed: the app shows the ingress as down and names the port.
    #[error("the signals ingress could not listen on 127.0.0.1:{port} after {attempts} attempts: {source}")]
    Bind {
        /// The port asked for.
        port: u16,
        /// Attempts made (the first and the retries).
        attempts: u32,
        /// The last attempt's error.
        source: std::io::Error,
    },
    /// The cancel token fired while the ingress was still trying to bind.
    #[error("the signals ingress was stopped before it could listen on 127.0.0.1:{port}")]
    Cancelled {
        /// The port asked for.
        port: u16,
    },
}
