//! The push transport: a per-window WebSocket (`docs/push-protocol.md`).
//!
//! `frames` is the wire, `inbound` maps backend frames onto the engine's
//! events, `connection` holds the socket and owns reconnect and backoff.

pub mod connection;
pub mod frames;
pub mod inbound;

pub use connection::{run, Backoff, PushConfig};
pub use frames::{ClientFrame, ServerFrame};
