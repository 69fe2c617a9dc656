//! The chat window's vocabulary and data: the events every transport maps
//! onto ([`vocabulary`]: the eleven events, error kinds, latency, approval
//! answers) and the conversations they fold into ([`model`], [`fold`]).
//! The fold sits beside the conversation types because it is their own
//! method set; the store that keeps them is `yui_core::chat`.

pub mod attachment;
pub mod fold;
pub mod model;
pub mod vocabulary;

pub use model::*;
pub use vocabulary::{ApprovalDecision, ChatErrorKind, ChatEvent, Latency};
