//! # yui-protocol — what the UI and the core say to each other
//!
//! The types that cross the boundary between the core and every front-end
//! (the app's pages, `yui-cli`'s JSON lines, the tests): the events the core
//! emits ([`event`]), the commands it takes ([`command`]), the model types
//! they carry ([`model`]), the chat window's vocabulary and conversations
//! ([`chat`]), the error codes ([`ErrorCode`]) and what a character file is
//! ([`character`]). With the `ts` feature (`yui-core` turns it on) each
//! derives `ts_rs::TS`: `ui/src/bindings/` is generated from them
//! (`yui-core`'s `bindings` test); without it the crate needs serde alone.
//!
//! It names nothing of the core: only `yui-engine`'s body and context
//! types, which the events carry. `docs/architecture.md` has the map.
#![deny(missing_docs)]

pub mod character;
pub mod chat;
pub mod command;
mod error_code;
pub mod event;
pub mod model;
pub mod settings;

pub use command::UserCommand;
pub use error_code::{error_chain, ErrorCode};
pub use event::{Status, TurnOutcome, UiEvent};
pub use model::{Cue, DelegationItem, Segment, Usage, Vocabulary};
