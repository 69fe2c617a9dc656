//! The demo agent's integration tests:
//! one test binary, linked once; each module is one former test file.

mod client;
mod common;

mod agent_chat;
mod agent_chat_edits;
mod bin;
mod push;
mod sse;
