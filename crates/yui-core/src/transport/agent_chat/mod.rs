//! The `agent_chat` protocol (seed `004`): a local agent engine that streams
//! one assistant turn per `POST <base>/chat` as server-sent events, eleven
//! event types scoped by `msg_id` (and `run_id` on `start`), with side
//! endpoints to answer an approval, cancel a run, fork a conversation, pick a
//! message version and delete a message.
//!
//! This module holds the wire only ([`wire`]): the events, the request
//! bodies and the endpoint URLs, as the seed names them. The transport itself
//! (a task behind [`crate::transport::Link`] that opens `POST /chat`, maps the
//! events onto [`crate::transport::Inbound`], sends approvals and cancels) is
//! NOT wired yet; nothing in the crate uses this module so far.

pub mod wire;

pub use wire::{
    parse_event, ApprovalDecision, ApproveRequest, CancelRequest, ChatErrorKind, ChatEvent, ChatRequest, Endpoints, EventError, EVENT_TYPES,
};
