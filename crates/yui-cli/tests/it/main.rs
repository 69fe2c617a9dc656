//! yui-cli's integration tests (the binary, driven as a user would):
//! one test binary, linked once; each module is one former test file.

mod common;

mod cli;
mod cli_agent_chat;
mod cli_cast;
mod cli_ingress;
mod cli_request;
mod cli_voice;
mod cli_world;
