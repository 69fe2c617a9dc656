//! The OpenAI-compatible TTS client (`docs/voice.md`).
//!
//! One sentence is one `POST <tts_base_url>/v1/audio/speech` with
//! `{model, voice, input, speed, response_format[, instructions]}` and an
//! optional `Authorization: Bearer <key>`: OpenAI, Kokoro-FastAPI,
//! openedai-speech and other servers that copy that endpoint.
//!
//! [`synth`] runs one request, bounded by [`TtsConfig::wait`]. The
//! [`crate::speaker::Speaker`] runs a reply's sentences through it,
//! at most [`TtsConfig::in_flight`] at once, in order.
//!
//! What travels where: the sentence is `input`; a cue's `caption` is
//! `instructions` (OpenAI's `gpt-4o-mini-tts` reads it as delivery
//! directions, other servers ignore the field); a cue's `emotion_text` is a
//! [`Tone`], a bracketed tag in front of `input` (`"[whisper] text"`).
//! Neither caption nor tone is ever part of the bubble: the caller shows
//! [`SpeechRequest::text`] alone. A failed sentence comes back as an `Err`
//! in its place; the caller skips its sound but still fires its cue and
//! shows its text.
//!
//! Logs: `tts_request` (seq, chars, model, voice), `tts_done` (seq, bytes,
//! ms) and `tts_failed` (seq, status, kind). Never the text, the caption,
//! the error body or the key.

use serde_json::{json, Value};
use std::time::{Duration, Instant};
use yui_engine::limits::{TTS_AUDIO_BYTES, TTS_CONNECT_TIMEOUT, TTS_ERROR_BODY_KEPT, TTS_REQUESTS_IN_FLIGHT, TTS_REQUEST_WAIT};

/// Where and how to synthesize speech.
#[derive(Debug, Clone)]
pub struct TtsConfig {
    /// The base URL as the user typed it; the request goes to
    /// `<base>/v1/audio/speech`, and a base that already ends in `/v1` gets
    /// no second one (see [`speech_url`]).
    pub base_url: String,
    /// The API key, sent as `Authorization: Bearer`; empty sends none.
    /// Never logged, never part of an error.
    pub key: yui_protocol::settings::Secret,
    /// The `model` field (`tts-1`, `gpt-4o-mini-tts`, `kokoro`, …).
    pub model: String,
    /// The `voice` field (`alloy`, `af_bella`, …).
    pub voice: String,
    /// The `speed` field (OpenAI takes 0.25 to 4.0; 1.0 is normal).
    pub speed: f32,
    /// The `response_format` field: `wav` by default; `mp3`, `opus`,
    /// `aac`, `flac` and `pcm` where the server has them.
    pub response_format: String,
    /// Speech requests the speaker ([`crate::speaker`]) runs at once; 0 counts as 1.
    pub in_flight: usize,
    /// How long one request may take, connect to last audio byte.
    pub wait: Duration,
}

impl Default for TtsConfig {
    /// No base URL and no key; OpenAI's `tts-1` and `alloy`, speed 1.0,
    /// `wav`, [`TTS_REQUESTS_IN_FLIGHT`] and [`TTS_REQUEST_WAIT`].
    fn default() -> Self {
        Self {
            base_url: String::new(),
            key: yui_protocol::settings::Secret::default(),
            model: "tts-1".into(),
            voice: "alloy".into(),
            speed: 1.0,
            response_format: "wav".into(),
            in_flight: TTS_REQUESTS_IN_FLIGHT,
            wait: TTS_REQUEST_WAIT,
        }
    }
}

/// The speech endpoint of `base`: `<base>/v1/audio/speech`, with no second
/// `/v1` when the base already ends in one (the request transports' rule,
/// `yui_core::transport::endpoint`).
pub fn speech_url(base: &str) -> String {
    yui_turn::contract::endpoint(base, "audio/speech")
}

pub use yui_turn::voice::request::{SpeechRequest, Tone};

/// The JSON body of sentence `req` under `cfg`.
pub fn request_body(req: &SpeechRequest, cfg: &TtsConfig) -> Value {
    let mut body = json!({
        "model": cfg.model,
        "voice": cfg.voice,
        "input": req.input(),
        "speed": cfg.speed,
        "response_format": cfg.response_format,
    });
    if let Some(caption) = req.caption.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        body["instructions"] = Value::String(caption.to_string());
    }
    body
}

/// One sentence's audio.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synth {
    /// The audio file as the server sent it.
    pub bytes: Vec<u8>,
    /// Its MIME type: the server's `Content-Type`, or the one
    /// `response_format` implies when the server sent none or a generic one.
    pub mime: String,
}

/// One result of a synthesis, in the order the requests were made.
#[derive(Debug)]
pub struct Synthed {
    /// The number the caller pushed it with.
    pub seq: u64,
    /// The audio, or why there is none (skip the sound, keep the cue and
    /// the text).
    pub result: Result<Synth, TtsError>,
}

/// Why a sentence has no audio. Never carries the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TtsError {
    /// The configuration or the sentence cannot make a request.
    #[error("TTS not attempted: {0}")]
    Invalid(&'static str),
    /// Nothing came back: the server is down, the name does not resolve,
    /// TLS failed.
    #[error("TTS server unreachable at {url}: {message}")]
    Connect {
        /// The speech URL.
        url: String,
        /// The cause chain, one line.
        message: String,
    },
    /// The server answered a non-2xx status.
    #[error("TTS server answered HTTP {status}: {}", super::http::snippet(body))]
    Http {
        /// The HTTP status.
        status: u16,
        /// The raw error body, at most [`TTS_ERROR_BODY_KEPT`] bytes (lossy UTF-8).
        body: String,
    },
    /// A 2xx answer that is not audio (JSON or text).
    #[error("TTS server answered HTTP {status} with {mime}, not audio: {}", super::http::snippet(body))]
    NotAudio {
        /// The HTTP status.
        status: u16,
        /// The `Content-Type` it sent.
        mime: String,
        /// The body, at most [`TTS_ERROR_BODY_KEPT`] bytes (lossy UTF-8).
        body: String,
    },
    /// A 2xx answer with no bytes.
    #[error("TTS server answered HTTP {status} with no audio")]
    Empty {
        /// The HTTP status.
        status: u16,
    },
    /// The audio broke off while it was read.
    #[error("TTS audio broke off: {message}")]
    Body {
        /// The HTTP status.
        status: u16,
        /// The cause chain, one line.
        message: String,
    },
    /// The audio is over [`TTS_AUDIO_BYTES`].
    #[error("TTS audio over {limit} bytes")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// The request took longer than [`TtsConfig::wait`].
    #[error("TTS request took longer than {} ms", after.as_millis())]
    Timeout {
        /// The wait that passed.
        after: Duration,
    },
}

impl TtsError {
    /// The HTTP status, when the server answered one.
    pub fn status(&self) -> Option<u16> {
        match self {
            TtsError::Http { status, .. } | TtsError::NotAudio { status, .. } | TtsError::Empty { status } | TtsError::Body { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// A short name of the failure for log records.
    pub fn kind(&self) -> &'static str {
        match self {
            TtsError::Invalid(_) => "invalid",
            TtsError::Connect { .. } => "connect",
            TtsError::Http { .. } => "http",
            TtsError::NotAudio { .. } => "not_audio",
            TtsError::Empty { .. } => "empty",
            TtsError::Body { .. } => "body",
            TtsError::TooLarge { .. } => "too_large",
            TtsError::Timeout { .. } => "timeout",
        }
    }
}

/// The MIME type `response_format` implies.
fn format_mime(format: &str) -> String {
    match format.trim().to_ascii_lowercase().as_str() {
        "wav" => "audio/wav",
        "mp3" => "audio/mpeg",
        "opus" | "ogg" => "audio/ogg",
        "aac" => "audio/aac",
        "flac" => "audio/flac",
        "pcm" => "audio/pcm",
        _ => "application/octet-stream",
    }
    .to_string()
}

/// The HTTP client for speech: a connect timeout, no overall timeout (each
/// request has [`TtsConfig::wait`]).
pub fn client() -> reqwest::Client {
    super::http::client(TTS_CONNECT_TIMEOUT)
}

/// Synthesize one sentence: one `POST <base>/v1/audio/speech`, bounded by
/// `cfg.wait`.
///
/// Errors: [`TtsError::Invalid`] with no base URL or no text,
/// [`TtsError::Connect`] when nothing came back, [`TtsError::Http`] on a
/// non-2xx status (with the body), [`TtsError::Timeout`] past the wait, and
/// the others of [`TtsError`] on an answer that is no usable audio.
pub async fn synth(client: &reqwest::Client, cfg: &TtsConfig, req: &SpeechRequest) -> Result<Synth, TtsError> {
    synth_logged(client, cfg, req, None).await
}

async fn synth_logged(client: &reqwest::Client, cfg: &TtsConfig, req: &SpeechRequest, seq: Option<u64>) -> Result<Synth, TtsError> {
    let started = Instant::now();
    tracing::info!(
        record = "tts_request",
        seq,
        chars = req.text.chars().count(),
        model = %cfg.model,
        voice = %cfg.voice,
        "speech requested"
    );
    let result = match tokio::time::timeout(cfg.wait, request(client, cfg, req)).await {
        Ok(r) => r,
        Err(_) => Err(TtsError::Timeout { after: cfg.wait }),
    };
    match &result {
        Ok(s) => tracing::debug!(record = "tts_done", seq, bytes = s.bytes.len(), ms = started.elapsed().as_millis() as u64, "speech ready"),
        Err(e) => tracing::warn!(
            record = "tts_failed",
            seq,
            status = e.status(),
            kind = e.kind(),
            ms = started.elapsed().as_millis() as u64,
            "speech failed; the sentence plays silent"
        ),
    }
    result
}

async fn request(client: &reqwest::Client, cfg: &TtsConfig, req: &SpeechRequest) -> Result<Synth, TtsError> {
    if cfg.base_url.trim().is_empty() {
        return Err(TtsError::Invalid("no TTS base URL"));
    }
    if req.text.trim().is_empty() {
        return Err(TtsError::Invalid("no text to speak"));
    }
    let url = speech_url(&cfg.base_url);
    let mut builder = client.post(&url).json(&request_body(req, cfg));
    if !cfg.key.is_empty() {
        builder = builder.bearer_auth(cfg.key.expose());
    }
    let resp = builder.send().await.map_err(|e| TtsError::Connect { url: url.clone(), message: yui_protocol::error_chain(&e.without_url()) })?;
    let status = resp.status().as_u16();
    let content_type = resp.headers().get(reqwest::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(|v| v.trim().to_string()).unwrap_or_default();
    let essence = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();

    if !resp.status().is_success() {
        let bytes = super::http::read_capped(resp, TTS_ERROR_BODY_KEPT, true).await.unwrap_or_else(|(b, _)| b);
        return Err(TtsError::Http { status, body: String::from_utf8_lossy(&bytes).into_owned() });
    }
    if essence == "application/json" || essence.starts_with("text/") {
        let bytes = super::http::read_capped(resp, TTS_ERROR_BODY_KEPT, true).await.unwrap_or_else(|(b, _)| b);
        return Err(TtsError::NotAudio { status, mime: content_type, body: String::from_utf8_lossy(&bytes).into_owned() });
    }
    let bytes = match super::http::read_capped(resp, TTS_AUDIO_BYTES, false).await {
        Ok(b) => b,
        Err((_, Some(message))) => return Err(TtsError::Body { status, message }),
        Err((_, None)) => return Err(TtsError::TooLarge { limit: TTS_AUDIO_BYTES }),
    };
    if bytes.is_empty() {
        return Err(TtsError::Empty { status });
    }
    let mime = if essence.is_empty() || essence == "application/octet-stream" { format_mime(&cfg.response_format) } else { essence };
    Ok(Synth { bytes, mime })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speech_url_never_doubles_v1() {
        assert_eq!(speech_url("http://127.0.0.1:8880"), "http://127.0.0.1:8880/v1/audio/speech");
        assert_eq!(speech_url("https://api.openai.com/v1"), "https://api.openai.com/v1/audio/speech");
        assert_eq!(speech_url("https://api.openai.com/v1/"), "https://api.openai.com/v1/audio/speech");
    }

    #[test]
    fn tone_prefix_is_one_clean_tag() {
        let mut r = SpeechRequest::new("hi");
        r.tone = Some(Tone::Free(" soft [very]\nquiet ".into()));
        assert_eq!(r.input(), "[soft very quiet] hi");
        r.tone = Some(Tone::Tag("  ".into()));
        assert_eq!(r.input(), "hi");
    }

    #[test]
    fn mime_follows_the_format() {
        assert_eq!(format_mime("mp3"), "audio/mpeg");
        assert_eq!(format_mime("WAV"), "audio/wav");
    }
}
