//! The OpenAI-compatible speech-to-text client (`docs/voice.md`).
//!
//! One utterance is one `POST <stt_base_url>/v1/audio/transcriptions`, a
//! multipart form with `file` (a 16 kHz mono 16-bit WAV named `speech.wav`,
//! `audio/wav`), `model`, an optional `language` and
//! `response_format=json`, with an optional `Authorization: Bearer <key>`:
//! OpenAI, faster-whisper-server / speaches, whisper.cpp's server and other
//! servers that copy that endpoint. The answer is `{"text": "..."}`.
//!
//! The utterance comes from the voice activity segmenter
//! ([`crate::vad`]) as 16 kHz mono `f32` samples; [`wav_16k_mono`]
//! makes the file.
//!
//! Logs: `stt_request` (bytes, model), `stt_done` (chars, ms) and
//! `stt_failed` (status, kind, ms). Never the transcript, the error body or
//! the key.

use std::time::{Duration, Instant};
use yui_engine::limits::{STT_ANSWER_BYTES, STT_CONNECT_TIMEOUT, STT_ERROR_BODY_KEPT, STT_REQUEST_WAIT, VAD_SAMPLE_RATE};

/// Where and how to transcribe speech.
#[derive(Debug, Clone)]
pub struct SttConfig {
    /// The base URL as the user typed it; the request goes to
    /// `<base>/v1/audio/transcriptions`, and a base that already ends in
    /// `/v1` gets no second one (see [`transcriptions_url`]).
    pub base_url: String,
    /// The API key, sent as `Authorization: Bearer`; empty sends none.
    /// Never logged, never part of an error.
    pub key: yui_protocol::settings::Secret,
    /// The `model` field (`whisper-1`, `gpt-4o-mini-transcribe`,
    /// `Systran/faster-whisper-small`, …).
    pub model: String,
    /// The `language` field (ISO-639-1, `en`, `ja`, …); `None` (or blank)
    /// leaves it out and the server detects the language.
    pub language: Option<String>,
    /// How long one request may take, connect to last answer byte.
    pub wait: Duration,
}

impl Default for SttConfig {
    /// No base URL and no key; OpenAI's `whisper-1`, no language,
    /// [`STT_REQUEST_WAIT`].
    fn default() -> Self {
        Self { base_url: String::new(), key: yui_protocol::settings::Secret::default(), model: "whisper-1".into(), language: None, wait: STT_REQUEST_WAIT }
    }
}

/// The transcription endpoint of `base`: `<base>/v1/audio/transcriptions`,
/// with no second `/v1` when the base already ends in one (the request
/// transports' rule, `yui_core::transport::endpoint`).
pub fn transcriptions_url(base: &str) -> String {
    yui_turn::contract::endpoint(base, "audio/transcriptions")
}

/// 16 kHz mono `f32` samples (nominally -1..1; louder is clipped) as a
/// 16-bit PCM WAV file.
pub fn wav_16k_mono(samples: &[f32]) -> Vec<u8> {
    let spec = hound::WavSpec { channels: 1, sample_rate: VAD_SAMPLE_RATE, bits_per_sample: 16, sample_format: hound::SampleFormat::Int };
    let mut out = std::io::Cursor::new(Vec::with_capacity(44 + samples.len() * 2));
    {
        // Writing into a Vec cannot fail short of running out of memory,
        // and a WAV this small never reaches hound's 4 GiB limit.
        let mut writer = hound::WavWriter::new(&mut out, spec).expect("WAV header into memory");
        for &s in samples {
            let s = if s.is_finite() { s.clamp(-1.0, 1.0) } else { 0.0 };
            writer.write_sample((s * i16::MAX as f32).round() as i16).expect("WAV sample into memory");
        }
        writer.finalize().expect("WAV into memory");
    }
    out.into_inner()
}

/// Why an utterance has no text. Never carries the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SttError {
    /// The configuration or the audio cannot make a request.
    #[error("STT not attempted: {0}")]
    Invalid(&'static str),
    /// Nothing came back: the server is down, the name does not resolve,
    /// TLS failed, or the answer broke off.
    #[error("STT server unreachable at {url}: {message}")]
    Connect {
        /// The transcription URL.
        url: String,
        /// The cause chain, one line.
        message: String,
    },
    /// The server answered a non-2xx status.
    #[error("STT server answered HTTP {status}: {}", super::http::snippet(body))]
    Http {
        /// The HTTP status.
        status: u16,
        /// The raw error body, at most [`STT_ERROR_BODY_KEPT`] bytes (lossy UTF-8).
        body: String,
    },
    /// A 2xx answer that is not JSON with a string `text`.
    #[error("STT server answered no JSON text: {}", super::http::snippet(body))]
    BadJson {
        /// The raw body, at most [`STT_ANSWER_BYTES`] bytes (lossy UTF-8).
        /// It may hold the transcript: never log it.
        body: String,
    },
    /// The request took longer than [`SttConfig::wait`].
    #[error("STT request took longer than {} ms", after.as_millis())]
    Timeout {
        /// The wait that passed.
        after: Duration,
    },
}

impl SttError {
    /// The HTTP status, when the server answered one.
    pub fn status(&self) -> Option<u16> {
        match self {
            SttError::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// A short name of the failure for log records.
    pub fn kind(&self) -> &'static str {
        match self {
            SttError::Invalid(_) => "invalid",
            SttError::Connect { .. } => "connect",
            SttError::Http { .. } => "http",
            SttError::BadJson { .. } => "bad_json",
            SttError::Timeout { .. } => "timeout",
        }
    }
}

/// The HTTP client for transcription: a connect timeout, no overall timeout
/// (each request has [`SttConfig::wait`]).
pub fn client() -> reqwest::Client {
    super::http::client(STT_CONNECT_TIMEOUT)
}

/// Transcribe one utterance: one `POST <base>/v1/audio/transcriptions` with
/// `wav` as the file, bounded by `cfg.wait`. The text comes back trimmed;
/// a server that heard nothing gives `Ok("")`.
///
/// Errors: [`SttError::Invalid`] with no base URL or no audio,
/// [`SttError::Connect`] when nothing came back, [`SttError::Http`] on a
/// non-2xx status (with the body), [`SttError::BadJson`] on a 2xx answer
/// with no JSON `text`, [`SttError::Timeout`] past the wait.
pub async fn transcribe(client: &reqwest::Client, cfg: &SttConfig, wav: Vec<u8>) -> Result<String, SttError> {
    let started = Instant::now();
    tracing::info!(record = "stt_request", bytes = wav.len(), model = %cfg.model, "transcription requested");
    let result = match tokio::time::timeout(cfg.wait, request(client, cfg, wav)).await {
        Ok(r) => r,
        Err(_) => Err(SttError::Timeout { after: cfg.wait }),
    };
    match &result {
        Ok(text) => tracing::info!(record = "stt_done", chars = text.chars().count(), ms = started.elapsed().as_millis() as u64, "transcription ready"),
        Err(e) => tracing::warn!(
            record = "stt_failed",
            status = e.status(),
            kind = e.kind(),
            ms = started.elapsed().as_millis() as u64,
            "transcription failed; the utterance is dropped"
        ),
    }
    result
}

async fn request(client: &reqwest::Client, cfg: &SttConfig, wav: Vec<u8>) -> Result<String, SttError> {
    if cfg.base_url.trim().is_empty() {
        return Err(SttError::Invalid("no STT base URL"));
    }
    if wav.is_empty() {
        return Err(SttError::Invalid("no audio to transcribe"));
    }
    let url = transcriptions_url(&cfg.base_url);
    let file = reqwest::multipart::Part::bytes(wav).file_name("speech.wav").mime_str("audio/wav").expect("audio/wav is a valid MIME type");
    let mut form = reqwest::multipart::Form::new().part("file", file).text("model", cfg.model.clone()).text("response_format", "json");
    if let Some(language) = cfg.language.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        form = form.text("language", language.to_string());
    }
    let mut builder = client.post(&url).multipart(form);
    if !cfg.key.is_empty() {
        builder = builder.bearer_auth(cfg.key.expose());
    }
    let connect = |e: reqwest::Error| SttError::Connect { url: url.clone(), message: yui_protocol::error_chain(&e.without_url()) };
    let resp = builder.send().await.map_err(connect)?;
    let status = resp.status();
    if !status.is_success() {
        // A body that breaks off keeps what came.
        let bytes = super::http::read_capped(resp, STT_ERROR_BODY_KEPT, true).await.unwrap_or_else(|(b, _)| b);
        return Err(SttError::Http { status: status.as_u16(), body: String::from_utf8_lossy(&bytes).into_owned() });
    }
    let bytes = super::http::read_capped(resp, STT_ANSWER_BYTES, true)
        .await
        .map_err(|(_, message)| SttError::Connect { url: url.clone(), message: message.unwrap_or_default() })?;
    let text = serde_json::from_slice::<serde_json::Value>(&bytes).ok().and_then(|v| v.get("text").and_then(|t| t.as_str()).map(|t| t.trim().to_string()));
    text.ok_or_else(|| SttError::BadJson { body: String::from_utf8_lossy(&bytes).into_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcriptions_url_never_doubles_v1() {
        assert_eq!(transcriptions_url("http://127.0.0.1:8000"), "http://127.0.0.1:8000/v1/audio/transcriptions");
        assert_eq!(transcriptions_url("https://api.openai.com/v1/"), "https://api.openai.com/v1/audio/transcriptions");
    }

    #[test]
    fn wav_is_16k_mono_16_bit_and_clips() {
        let wav = wav_16k_mono(&[0.0, 0.5, -0.5, 2.0, f32::NAN]);
        let mut reader = hound::WavReader::new(std::io::Cursor::new(wav)).unwrap();
        let spec = reader.spec();
        assert_eq!((spec.channels, spec.sample_rate, spec.bits_per_sample), (1, 16_000, 16));
        let samples: Vec<i16> = reader.samples::<i16>().map(Result::unwrap).collect();
        assert_eq!(samples, vec![0, 16384, -16384, i16::MAX, 0]);
    }

    #[test]
    fn debug_hides_the_key() {
        let cfg = SttConfig { key: "sk-secret".into(), ..SttConfig::default() };
        assert!(!format!("{cfg:?}").contains("sk-secret"));
    }
}
