//! `yui-mock`: a fake of a remote YUI chat backend, for tests and demos.
//!
//! It serves, on `127.0.0.1`:
//!
//! * `GET /ws` — the push WebSocket protocol (hello / ready / turn / render /
//!   speech / turn_end / error / tool_status / tool_call / tool_result /
//!   reasoning / delegations / stop / reset / playback / vocabulary). What the
//!   backend side says is decided by the [`Mode`]: a friendly scripted agent
//!   ([`Mode::Demo`]) or a scripted, fault-injecting [`Scenario`].
//! * `POST /v1/responses` and `POST /v1/chat/completions` — OpenAI-style SSE.
//!   Every request is recorded ([`MockServer::requests`]); a scenario's
//!   `"http"` list scripts the answers with fault injection (see
//!   [`script`]); without one the demo agent answers. [`openai`] builds
//!   the exact event shapes for test authors.
//! * `POST /v1/audio/speech` and `POST /v1/audio/transcriptions` — the
//!   OpenAI-compatible audio endpoints ([`audio`]): a tone per sentence,
//!   a fixed transcript; both recorded.
//! * `POST /chat`, `POST /approve/{aid}`, `POST /cancel/{run_id}`,
//!   `POST /fork/{cid}/{idx}`, `POST /version/{cid}/{u}/{n}`,
//!   `POST /messages/{cid}/{u}`, `GET`/`DELETE /chats/{cid}`, `GET /chats`,
//!   and `POST /reset` — the `agent_chat` engine, on the real
//!   engine's wire ([`agent_chat`]): scripted streams of its eleven events
//!   that block on approvals and honour cancels between chunks, over
//!   conversations it stores per `chat_id` (with versions, forks and
//!   deletes) and one agent history per `session`; every request recorded.
//! * `POST /__mock/push` ([`PUSH_PATH`]) — push a frame to the connected
//!   clients (what [`MockServer::push`] does), for out-of-process tests.
//! * `GET /__mock/requests` ([`REQUESTS_PATH`]) — every HTTP request
//!   recorded (path and JSON body).
//! * `GET /__mock/received` ([`RECEIVED_PATH`]) — every frame received on
//!   `/ws` so far as one JSON array, for tests that run the binary.
//!
//! The demo agent itself lives in the `yui-demo` crate; [`Mode::Demo`]
//! delegates to it. This crate does not depend on `yui-core`: it stands
//! alone as a fake of a remote backend, so the client is tested against the
//! wire, not against itself.
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use yui_mock::{MockConfig, MockServer};
//! let server = MockServer::start(MockConfig { pace: 0.0, ..MockConfig::default() }).await?;
//! println!("point the client at {}", server.base_url()); // the client appends /ws
//! server.shutdown().await;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

pub mod agent_chat;
pub mod audio;
mod http;
mod push;
mod scenario;
pub mod script;
mod server;

/// Builders for the exact OpenAI stream shapes (`responses::…`, `chat::…`),
/// shared with the demo agent; see `yui_demo::openai`.
pub mod openai {
    pub use yui_demo::openai::{chat, responses, MODEL};
}

pub use http::RecordedRequest;
pub use scenario::{Scenario, Step, DEFAULT_EXPECT_TIMEOUT_MS};
pub use script::{HttpScript, StreamStep};
pub use server::{MockServer, PUSH_PATH, RECEIVED_PATH, REQUESTS_PATH};
pub use yui_demo::{demo_reply, local_time_hhmm, DemoReply, DemoSentence, EMOTIONS, MOTIONS};

/// Largest text frame either side may send, in bytes (`docs/push-protocol.md`, "Limits").
pub const MAX_FRAME_BYTES: usize = 256 * 1024;

/// What the mock backend says on `/ws`.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // built once per mock; boxing buys nothing
pub enum Mode {
    /// A friendly scripted agent a person can talk to (see [`demo_reply`]).
    Demo,
    /// A scripted conversation with fault injection (see [`Scenario`]).
    Scenario(Scenario),
}

/// How a [`MockServer`] behaves.
#[derive(Debug, Clone)]
pub struct MockConfig {
    /// What the backend says on `/ws`.
    pub mode: Mode,
    /// Expected key in hello (and `Authorization: Bearer` on the SSE
    /// endpoints). `None` accepts any key. A wrong key closes the socket with
    /// code 4401 and sends nothing; over HTTP it gets 401 JSON (the request
    /// is still recorded).
    pub key: Option<String>,
    /// Port to bind on 127.0.0.1; 0 = ephemeral.
    pub port: u16,
    /// When `Some`, the ready frame carries `max_turn_bytes`, and turn /
    /// tool_result frames up to that size are accepted.
    pub max_turn_bytes: Option<u64>,
    /// Multiplier for demo delays (1.0 = human-pleasant pacing; tests use 0.0
    /// for no delays). Applies to the demo agent and its SSE answers;
    /// scenario `sleep_ms` steps (push and http) are exact and not scaled.
    pub pace: f64,
    /// What `POST /v1/audio/transcriptions` answers as `text`.
    pub transcript: String,
    /// How long an `agent_chat` run waits for `POST /approve/{aid}` before
    /// it denies the call (default the engine's 300 s, `docs/transports.md`,
    /// [`agent_chat::APPROVAL_TIMEOUT`]; not scaled by `pace`).
    pub approval_timeout: std::time::Duration,
}

impl Default for MockConfig {
    /// Demo mode, any key, ephemeral port, no `max_turn_bytes`, pace 1.0,
    /// approval timeout 300 s.
    fn default() -> Self {
        MockConfig {
            mode: Mode::Demo,
            key: None,
            port: 0,
            max_turn_bytes: None,
            pace: 1.0,
            transcript: "hello from the microphone".into(),
            approval_timeout: agent_chat::APPROVAL_TIMEOUT,
        }
    }
}
