//! `yui-demo`: the YUI demo agent, a tiny local backend the app and the CLI
//! start when no backend is configured, so the pet talks out of the box.
//!
//! It serves, on `127.0.0.1`, whichever chat protocol the user picked:
//!
//! * `GET /ws` — the push WebSocket protocol: hello / ready, then per turn
//!   `reasoning`, `tool_status`, `delegations`, `speech`, `render`,
//!   `turn_end`; `stop` and `reset` (see [`push`]);
//! * `POST /v1/responses` — an OpenAI Responses SSE stream placing one
//!   `generate_express` function call after each sentence (see [`http`]);
//! * `POST /v1/chat/completions` — an OpenAI Chat Completions SSE stream
//!   with `generate_express` tool-call deltas;
//! * `POST /chat` (+ `/approve/{aid}`, `/cancel/{run_id}`, `/fork/…`,
//!   `/version/…`, `/messages/…`, `/chats/…`, `/reset`) — the `agent_chat`
//!   protocol on the PraisonAI desktop engine's wire: named SSE events per
//!   turn, approvals, cancel, stored conversations with versions (see
//!   [`agent_chat`]);
//! * `GET /health` — `ok`.
//!
//! What it says is [`demo_reply`]: a greeting, the time, an echo, a task,
//! in the language the user wrote in ([`language_of`]: English, Japanese or
//! Korean).
//!
//! ```no_run
//! # async fn demo() -> anyhow::Result<()> {
//! use yui_demo::{DemoConfig, DemoServer};
//! let server = DemoServer::start(DemoConfig::default()).await?;
//! println!("point the client at {}", server.base_url());
//! server.shutdown().await;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

pub mod agent_chat;
pub mod http;
pub mod openai;
pub mod push;
mod reply;
pub mod serve;
mod server;
#[cfg(feature = "test-client")]
pub mod test_client;
mod ws;

pub use reply::{
    chunks, cut_chars, demo_reply, demo_reply_in, language_of, local_time_hhmm, strip_context, tokens, DemoReply, DemoSentence, Lang, EMOTIONS, MOTIONS,
    SUMMARY_MAX_CHARS, TITLE_MAX_CHARS,
};
pub use server::DemoServer;
pub use ws::{MAX_FRAME_BYTES, MAX_TURN_BYTES};

/// The language the demo speaks when the user's words do not tell it (a
/// background turn has none): the app's UI language. Clones share it, so
/// the app can change it while the demo runs.
#[derive(Debug, Clone, Default)]
pub struct QuietLanguage(std::sync::Arc<std::sync::atomic::AtomicU8>);

impl QuietLanguage {
    /// Speak `lang` from now on.
    pub fn set(&self, lang: Lang) {
        let code = match lang {
            Lang::En => 0,
            Lang::Ja => 1,
            Lang::Ko => 2,
        };
        self.0.store(code, std::sync::atomic::Ordering::Relaxed);
    }

    /// The language now.
    pub fn get(&self) -> Lang {
        match self.0.load(std::sync::atomic::Ordering::Relaxed) {
            1 => Lang::Ja,
            2 => Lang::Ko,
            _ => Lang::En,
        }
    }
}

/// How a [`DemoServer`] behaves.
#[derive(Debug, Clone)]
pub struct DemoConfig {
    /// Port to bind on 127.0.0.1; 0 = any free port.
    pub port: u16,
    /// Delay multiplier (1.0 = human-pleasant pacing; tests use 0.0).
    pub pace: f64,
    /// When set, hello must carry this key (else close 4401) and the HTTP
    /// routes need `Authorization: Bearer <key>` (else 401 JSON).
    pub key: Option<String>,
    /// The language of a background turn's remark (push), shared with the
    /// caller.
    pub quiet_language: QuietLanguage,
}

impl Default for DemoConfig {
    /// Any free port, pace 1.0, no key, English.
    fn default() -> Self {
        DemoConfig { port: 0, pace: 1.0, key: None, quiet_language: QuietLanguage::default() }
    }
}
