//! yui-core's integration tests:
//! one test binary, linked once; each module is one former test file.

mod common;
mod voice;

mod agent_chat;
mod audio;
mod bed_session;
mod body_action;
mod card;
mod chat_completions;
mod chat_delete;
mod chat_long;
mod chat_session;
mod delegations;
mod history;
mod ingress;
mod listen;
mod module_graph;
mod outcome;
mod persist_loop;
mod presets_cast;
mod push_faults;
mod push_happy;
mod request_faults;
mod request_mock;
mod request_session;
mod responses;
mod rust_alone;
mod stt;
mod tool_asks;
mod tools;
mod tts;
mod vad;
mod voice_turn;
mod world_sway;
mod x11_world;
