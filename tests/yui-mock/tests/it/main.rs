//! yui-mock's integration tests:
//! one test binary, linked once; each module is one former test file.

mod common;

mod agent_chat;
mod bin;
mod drift;
mod http;
mod push;
mod scenario;
