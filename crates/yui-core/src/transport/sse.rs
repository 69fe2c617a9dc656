//! Server-sent events over one streamed `POST`, shared by the Responses and
//! Chat Completions transports (`reqwest` + `eventsource-stream`).
//!
//! [`post_stream`] sends the request and answers a stream of parsed
//! [`SseEvent`]s. SSE comment lines (keepalives) are stripped and never reach
//! the caller; `data: [DONE]` ends the stream. A non-2xx answer is a
//! [`RequestError::Http`] that keeps the status and the raw body.

use crate::error::ErrorCode;
use crate::limits::ERROR_MESSAGE_SHOWN;
use crate::transport::request::GENERIC_FAILURE;
use futures_util::{Stream, StreamExt};
use serde_json::Value;
use std::pin::Pin;
use std::time::Duration;

/// Largest error body kept from a failed request, in bytes; reading stops there.
const ERROR_BODY_KEPT: usize = 64 * 1024;

/// Largest server-sent event, in bytes: a stream that sends more without an
/// event boundary ends as a stream error instead of growing without bound.
pub const MAX_EVENT_BYTES: usize = 4 * 1024 * 1024;

/// How long opening the connection may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// One parsed server-sent event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field; "message" when the server sent none.
    pub event: String,
    /// The `data:` lines, joined by newlines.
    pub data: String,
}

/// Why a request or its stream failed. Keeps what the server said.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// The server could not be reached, or the request could not be sent.
    #[error("cannot reach {url}: {message}")]
    Connect {
        /// The endpoint.
        url: String,
        /// What went wrong, one line.
        message: String,
    },
    /// The server answered with an error status.
    #[error("HTTP {status}: {}", server_text(body))]
    Http {
        /// The HTTP status.
        status: u16,
        /// The body as the server sent it (at most 64 KiB).
        body: String,
    },
    /// An error raised while reading the stream: a broken body, or an error
    /// event the server sent in the stream.
    #[error("the stream failed: {message}")]
    Stream {
        /// The status the error carried, when it carried one.
        status: Option<u16>,
        /// The error's message.
        message: String,
        /// The raw event or error text.
        raw: String,
    },
    /// An event whose JSON could not be read.
    #[error("unreadable {what}: {source}")]
    Decode {
        /// What was being read.
        what: &'static str,
        /// The raw text.
        raw: String,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
}

impl RequestError {
    /// The text a failed user turn shows, as the transport table of
    /// `docs/transports.md` says: status and server text of an HTTP error, 401 and 403
    /// excepted; status and server text of a stream error that carries a
    /// status; the generic text otherwise. One line, at most 200 characters.
    pub fn shown(&self) -> String {
        let text = match self {
            RequestError::Http { status, .. } if *status == 401 || *status == 403 => GENERIC_FAILURE.to_string(),
            RequestError::Http { status, body } => format!("HTTP {status}: {}", server_text(body)),
            RequestError::Stream { status: Some(status), message, .. } if message.trim().is_empty() => format!("HTTP {status}"),
            RequestError::Stream { status: Some(status), message, .. } => format!("HTTP {status}: {}", one_line(message)),
            RequestError::Stream { status: None, .. } | RequestError::Decode { .. } => GENERIC_FAILURE.to_string(),
            // No status: the generic text (the details are in the log).
            RequestError::Connect { .. } => GENERIC_FAILURE.to_string(),
        };
        cut(&text, ERROR_MESSAGE_SHOWN)
    }

    /// The code a front-end switches on.
    pub fn code(&self) -> ErrorCode {
        match self {
            RequestError::Http { status: 401 | 403, .. } => ErrorCode::Auth,
            RequestError::Connect { .. } => ErrorCode::Network,
            RequestError::Decode { .. } => ErrorCode::FrameMalformed,
            RequestError::Http { .. } | RequestError::Stream { .. } => ErrorCode::TurnFailed,
        }
    }

    /// The HTTP status, when there is one.
    pub fn status(&self) -> Option<u16> {
        match self {
            RequestError::Http { status, .. } => Some(*status),
            RequestError::Stream { status, .. } => *status,
            _ => None,
        }
    }
}

/// An error a server or a proxy wrote into the stream in place of an
/// event, read into a [`RequestError::Stream`]:
///
/// - a data line `{"error": {...}}` or `{"error": "text"}` with no `type`
///   (LiteLLM's proxy writes `{"error": {"message", "type", "param",
///   "code": "500"}}` when the upstream call fails mid-stream);
/// - a typed `{"type": "error", "code", "message"}` event, flat or with the
///   error nested under `error`;
/// - any `event: error` frame that is not another typed event (its data
///   flat `{"message", "code"}`, nested, or plain text).
///
/// The status is the error's `code` or `status` when it is a number or a
/// string of digits from 100 to 599 ([`status_of`]); the message is its
/// `message` (or the text). `None` for anything else, including a chunk
/// whose `error` is `null`.
pub fn error_envelope(event: &str, data: &str) -> Option<RequestError> {
    let flagged_event = event.trim() == "error";
    // Every event passes here before its typed parse: one that is not an
    // `error` frame and never spells `"error"` (no such key, no such type)
    // is not one, and is not parsed a second time.
    if !flagged_event && !data.contains("\"error\"") {
        return None;
    }
    let value = serde_json::from_str::<Value>(data).ok();
    let kind = value.as_ref().and_then(|v| v.get("type")).and_then(Value::as_str);
    let nested = value.as_ref().and_then(|v| v.get("error")).filter(|e| !e.is_null());
    let flagged = flagged_event || kind == Some("error");
    if kind.is_some_and(|k| k != "error") || (nested.is_none() && !flagged) {
        return None;
    }
    let top = value.clone().unwrap_or_else(|| Value::String(data.trim().to_string()));
    let text = |v: &Value| -> Option<String> {
        v.as_str()
            .or_else(|| v.get("message").and_then(Value::as_str))
            .or_else(|| v.get("detail").and_then(Value::as_str))
            .map(str::to_string)
            .filter(|m| !m.trim().is_empty())
    };
    let code = |v: &Value| status_of(v.get("code")).or_else(|| status_of(v.get("status")));
    let message = text(&top).or_else(|| nested.and_then(text)).unwrap_or_default();
    let status = code(&top).or_else(|| nested.and_then(code));
    Some(RequestError::Stream { status, message, raw: data.to_string() })
}

/// The HTTP status an error's `code` or `status` field carries, when it is
/// one: a number, or a string of digits, from 100 to 599.
pub fn status_of(code: Option<&Value>) -> Option<u16> {
    let n = match code? {
        Value::Number(n) => n.as_u64()?,
        Value::String(s) => s.trim().parse::<u64>().ok()?,
        _ => return None,
    };
    (100..=599).contains(&n).then_some(n as u16)
}

/// The server's own words in an error body: `error.message`, `error` (a
/// string), `message` or `detail`, else the body itself; one line.
pub fn server_text(body: &str) -> String {
    let from_json = serde_json::from_str::<Value>(body).ok().and_then(|v| {
        let pick = |v: &Value| v.as_str().map(str::to_string);
        v.pointer("/error/message")
            .and_then(pick)
            .or_else(|| v.get("error").and_then(pick))
            .or_else(|| v.get("message").and_then(pick))
            .or_else(|| v.get("detail").and_then(pick))
    });
    one_line(&from_json.unwrap_or_else(|| body.to_string()))
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// A stream of parsed events.
pub type EventStream = Pin<Box<dyn Stream<Item = Result<SseEvent, RequestError>> + Send>>;

/// The HTTP client the request transports share: a connect timeout, no
/// overall timeout (the engine's liveness deadline ends a stalled stream).
pub fn client() -> reqwest::Client {
    reqwest::Client::builder().connect_timeout(CONNECT_TIMEOUT).build().unwrap_or_else(|_| reqwest::Client::new())
}

/// `POST` `body` as JSON to `url` with `Authorization: Bearer <key>` (none
/// when `key` is empty) and `Accept: text/event-stream`; answer the events.
///
/// Errors: [`RequestError::Connect`] when nothing came back,
/// [`RequestError::Http`] on a non-2xx status (with the body).
pub async fn post_stream(client: &reqwest::Client, url: &str, key: &str, body: &Value) -> Result<EventStream, RequestError> {
    let mut req = client.post(url).header("accept", "text/event-stream").json(body);
    if !key.is_empty() {
        req = req.bearer_auth(key);
    }
    let resp = req.send().await.map_err(|e| RequestError::Connect { url: url.to_string(), message: error_chain(&e) })?;
    let status = resp.status();
    if !status.is_success() {
        // Read at most ERROR_BODY_KEPT: an error body that never ends must not grow.
        let mut bytes: Vec<u8> = Vec::new();
        let mut chunks = resp.bytes_stream();
        while let Some(Ok(chunk)) = chunks.next().await {
            let room = ERROR_BODY_KEPT.saturating_sub(bytes.len());
            bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
            if bytes.len() >= ERROR_BODY_KEPT {
                break;
            }
        }
        let body = String::from_utf8_lossy(&bytes).into_owned();
        return Err(RequestError::Http { status: status.as_u16(), body });
    }
    Ok(events(resp.bytes_stream()))
}

/// Parse a byte stream as server-sent events, ending at `data: [DONE]`.
pub fn events<S, B, E>(bytes: S) -> EventStream
where
    S: Stream<Item = Result<B, E>> + Send + 'static,
    B: AsRef<[u8]> + Send + 'static,
    E: std::fmt::Display + Send + 'static,
{
    use eventsource_stream::Eventsource;
    let parsed = bounded(bytes).eventsource().map(|r| match r {
        Ok(ev) => Ok(SseEvent { event: ev.event, data: ev.data }),
        Err(e) => Err(RequestError::Stream { status: None, message: e.to_string(), raw: String::new() }),
    });
    Box::pin(parsed.take_while(|r| {
        let done = matches!(r, Ok(ev) if ev.data.trim() == "[DONE]");
        std::future::ready(!done)
    }))
}

/// The byte stream, cut off with an error once more than
/// [`MAX_EVENT_BYTES`] arrive without an event boundary (a blank line).
fn bounded<S, B, E>(bytes: S) -> impl Stream<Item = Result<Vec<u8>, String>> + Send + 'static
where
    S: Stream<Item = Result<B, E>> + Send + 'static,
    B: AsRef<[u8]> + Send + 'static,
    E: std::fmt::Display + Send + 'static,
{
    // Bytes since the last boundary, and the length of the current line
    // (`\r` not counted): a `\n` ending an empty line is a boundary.
    let mut open = 0usize;
    let mut line = 0usize;
    let mut over = false;
    bytes.map(move |r| {
        let chunk = r.map_err(|e| e.to_string())?;
        if over {
            return Err("the stream ended: an event was too large".to_string());
        }
        let chunk = chunk.as_ref();
        for &b in chunk {
            match b {
                b'\n' if line == 0 => open = 0,
                b'\n' => line = 0,
                b'\r' => {}
                _ => {
                    line += 1;
                    open += 1;
                }
            }
        }
        if open > MAX_EVENT_BYTES {
            over = true;
            tracing::warn!(record = "sse_oversize", bytes = open, limit = MAX_EVENT_BYTES, "an event over the limit ends the stream");
            return Err(format!("an event passed {MAX_EVENT_BYTES} bytes"));
        }
        Ok(chunk.to_vec())
    })
}

/// The error and its sources, one line (reqwest's own message is terse).
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut src = e.source();
    while let Some(inner) = src {
        s.push_str(": ");
        s.push_str(&inner.to_string());
        src = inner.source();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(chunks: &[&'static str]) -> Vec<Result<SseEvent, RequestError>> {
        let bytes = futures_util::stream::iter(chunks.iter().map(|c| Ok::<_, std::io::Error>(c.as_bytes())).collect::<Vec<_>>());
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(events(bytes).collect::<Vec<_>>())
    }

    #[test]
    fn events_split_across_chunks_and_comments_skip() {
        let out = parse(&[": keepalive\n\nevent: response.created\nda", "ta: {\"a\":1}\n\n", "data: x\ndata: y\n\n", "data: [DONE]\n\n", "data: after\n\n"]);
        let evs: Vec<SseEvent> = out.into_iter().map(Result::unwrap).collect();
        assert_eq!(evs.len(), 2);
        assert_eq!(evs[0], SseEvent { event: "response.created".into(), data: "{\"a\":1}".into() });
        assert_eq!(evs[1].data, "x\ny");
    }

    #[test]
    fn an_event_without_an_end_is_cut_off() {
        let big: &'static str = Box::leak(format!("data: {}", "a".repeat(MAX_EVENT_BYTES / 2)).into_boxed_str());
        let out = parse(&["data: ok\n\n", big, big, big]);
        assert!(matches!(&out[0], Ok(ev) if ev.data == "ok"));
        assert!(out.iter().any(|r| matches!(r, Err(RequestError::Stream { .. }))), "the oversize event ends the stream as an error");
        let fine = parse(&["data: x\r\n\r\n", "data: y\n", "\n"]);
        assert_eq!(fine.len(), 2, "CRLF and split boundaries still count");
    }

    #[test]
    fn error_envelopes_a_proxy_writes_keep_their_status_and_text() {
        let shown = |event: &str, data: &str| error_envelope(event, data).map(|e| e.shown());
        // LiteLLM's proxy: a data line with the error nested and the status as a string.
        let litellm = r#"{"error": {"message": "litellm.APIError: upstream broke", "type": "None", "param": "None", "code": "500"}}"#;
        assert_eq!(shown("message", litellm).as_deref(), Some("HTTP 500: litellm.APIError: upstream broke"));
        assert_eq!(shown("error", litellm).as_deref(), Some("HTTP 500: litellm.APIError: upstream broke"));
        assert_eq!(shown("message", r#"{"error": {"message": "boom", "code": 503}}"#).as_deref(), Some("HTTP 503: boom"));
        assert_eq!(shown("message", r#"{"error": {"message": "boom", "code": "server_error", "status": 502}}"#).as_deref(), Some("HTTP 502: boom"));
        // An `event: error` frame, flat, typed, or plain text.
        assert_eq!(shown("error", r#"{"message": "overloaded", "code": 529}"#).as_deref(), Some("HTTP 529: overloaded"));
        assert_eq!(shown("error", r#"{"type": "error", "code": "500", "message": "upstream", "sequence_number": 3}"#).as_deref(), Some("HTTP 500: upstream"));
        assert_eq!(shown("message", r#"{"type": "error", "error": {"code": "429", "message": "slow"}}"#).as_deref(), Some("HTTP 429: slow"));
        assert_eq!(shown("error", "upstream timeout").as_deref(), Some(GENERIC_FAILURE));
        assert_eq!(shown("message", r#"{"error": "upstream timeout"}"#).as_deref(), Some(GENERIC_FAILURE));
        assert_eq!(shown("message", r#"{"error": {"code": 500}}"#).as_deref(), Some("HTTP 500"));
        // Not errors: ordinary chunks and events, a null error.
        assert!(error_envelope("message", r#"{"choices": [], "error": null}"#).is_none());
        assert!(error_envelope("message", r#"{"choices": [{"delta": {"content": "hi"}}]}"#).is_none());
        assert!(error_envelope("response.output_text.delta", r#"{"type": "response.output_text.delta", "delta": "x"}"#).is_none());
        assert!(error_envelope("message", "not json").is_none());
    }

    #[test]
    fn shown_text_follows_the_table() {
        let http = |status, body: &str| RequestError::Http { status, body: body.into() };
        assert_eq!(http(429, r#"{"error":{"message":"Rate limit reached.","type":"x"}}"#).shown(), "HTTP 429: Rate limit reached.");
        assert_eq!(http(401, r#"{"error":{"message":"Incorrect API key sk-123"}}"#).shown(), GENERIC_FAILURE);
        assert_eq!(http(403, "forbidden").shown(), GENERIC_FAILURE);
        assert_eq!(http(500, "upstream\n  broke").shown(), "HTTP 500: upstream broke");
        assert_eq!(http(404, r#"{"detail":"no such model"}"#).shown(), "HTTP 404: no such model");
        let stream = |status| RequestError::Stream { status, message: "overloaded".into(), raw: String::new() };
        assert_eq!(stream(Some(529)).shown(), "HTTP 529: overloaded");
        assert_eq!(stream(None).shown(), GENERIC_FAILURE);
        assert_eq!(http(500, &"x".repeat(500)).shown().chars().count(), ERROR_MESSAGE_SHOWN);
        assert_eq!(http(401, "").code(), ErrorCode::Auth);
        let gone = RequestError::Connect { url: "http://user:pw@h/v1/x".into(), message: "refused".into() };
        assert_eq!(gone.shown(), GENERIC_FAILURE, "no status: the generic text, and no URL");
    }
}
