//! The seam between the turn engine and the wire.
//!
//! A transport is a task that turns [`Outbound`] messages into wire traffic
//! and wire traffic into [`Inbound`] events. The engine (`crate::turn`) never
//! sees a frame, a request or an SSE event; a transport never decides what a
//! turn means. Four transports sit behind this seam:
//!
//! * [`push`]: the per-window WebSocket of `docs/push-protocol.md`, with its
//!   reconnect loop;
//! * `responses`: one streamed `POST /v1/responses` per round, chained by
//!   `previous_response_id`;
//! * `chat_completions`: one streamed `POST /v1/chat/completions` per round,
//!   with the transcript kept by the client;
//! * [`agent_chat`]: one streamed `POST <base>/chat` per turn to a local
//!   agent engine that keeps the conversation and runs its own tools.
//!
//! Every transport runs as one task over a [`Link`] and ends when the link's
//! cancellation token fires or its outbound channel closes. The request
//! transports follow `CONTRACT.md` beside this file (READ IT FIRST).

pub mod agent_chat;
pub mod chat_completions;
pub mod express;
pub mod push;
pub mod request;
pub mod responses;
pub mod sse;

pub use crate::contract::{endpoint, Inbound, Link, Outbound, ReplyPart, SideRequest, ToolCall, ToolResult, TurnRequest};

/// Fit `pictures` into `room` bytes of a JSON array of data URLs
/// ([`crate::picture::fit`]) on a blocking thread: encoding is CPU work.
pub(crate) async fn fit_pictures(pictures: Vec<crate::picture::Picture>, room: usize) -> Result<Vec<String>, crate::picture::FitError> {
    if pictures.is_empty() {
        return Ok(Vec::new());
    }
    let started = std::time::Instant::now();
    let n = pictures.len();
    let fitted = tokio::task::spawn_blocking(move || crate::picture::fit(&pictures, room)).await.unwrap_or(Err(crate::picture::FitError::TooLarge));
    match &fitted {
        Ok(urls) => tracing::info!(
            record = "images_fitted",
            count = n,
            room,
            bytes = urls.iter().map(String::len).sum::<usize>(),
            ms = started.elapsed().as_millis() as u64
        ),
        Err(e) => tracing::warn!(record = "images_unfittable", count = n, room, error = %e),
    }
    fitted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_never_doubles_v1() {
        assert_eq!(endpoint("http://127.0.0.1:11434", "responses"), "http://127.0.0.1:11434/v1/responses");
        assert_eq!(endpoint("https://api.openai.com/v1", "responses"), "https://api.openai.com/v1/responses");
        assert_eq!(endpoint("https://api.openai.com/v1/", "/chat/completions"), "https://api.openai.com/v1/chat/completions");
        assert_eq!(endpoint(" http://h/proxy/ ", "chat/completions"), "http://h/proxy/v1/chat/completions");
        assert_eq!(
            endpoint("https://generativelanguage.googleapis.com/v1beta/openai/", "chat/completions"),
            "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions",
            "a path that names its version is taken as it is"
        );
        assert_eq!(endpoint("https://openrouter.ai/api/v1", "chat/completions"), "https://openrouter.ai/api/v1/chat/completions");
        assert_eq!(endpoint("http://v1host:8000", "responses"), "http://v1host:8000/v1/responses", "a host is not a path");
        assert_eq!(endpoint("https://llm.corp/v2/gateway", "chat/completions"), "https://llm.corp/v2/gateway/v1/chat/completions", "a proxy's mount as before");
        assert_eq!(endpoint("https://h/v1alpha2/x", "models"), "https://h/v1alpha2/x/models");
    }
}
