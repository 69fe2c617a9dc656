//! The OpenAI-compatible audio endpoints, for the voice tests:
//!
//! * `POST /v1/audio/speech`: records the request (path, JSON body with
//!   `input`, `instructions`, `voice`…, and the `Authorization` header) and
//!   answers a WAV: a 440 Hz tone, 24 kHz mono 16-bit, [`MS_PER_CHAR`] per
//!   character of `input` within [`SPEECH_MIN_MS`]..=[`SPEECH_MAX_MS`]. An
//!   `input` containing `FAIL` gets a 500 with a JSON error body.
//! * `GET /v1/audio/voices`: [`VOICES`], as Kokoro-FastAPI lists its own.
//! * `POST /v1/audio/transcriptions`: records the request (the multipart
//!   body is kept as its size, `{"bytes": n}`) and answers
//!   `{"text": MockConfig::transcript}`.

use crate::http::RecordedRequest;
use crate::server::Shared;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::sync::Arc;

/// Milliseconds of tone per character of `input`.
pub const MS_PER_CHAR: u64 = 40;
/// The shortest answer.
pub const SPEECH_MIN_MS: u64 = 400;
/// The longest answer.
pub const SPEECH_MAX_MS: u64 = 4_000;
const RATE: u32 = 24_000;

fn auth(headers: &HeaderMap) -> Option<String> {
    headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_string)
}

/// A 16-bit mono WAV of a 440 Hz tone lasting `ms`.
pub fn tone_wav(ms: u64) -> Vec<u8> {
    let n = (u64::from(RATE) * ms / 1000) as u32;
    let data_len = n * 2;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..n {
        let t = i as f32 / RATE as f32;
        let s = (t * 440.0 * std::f32::consts::TAU).sin() * 0.5;
        out.extend_from_slice(&((s * i16::MAX as f32) as i16).to_le_bytes());
    }
    out
}

pub(crate) async fn speech(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()));
    shared.record_request(RecordedRequest { path: "/v1/audio/speech".into(), body: body.clone(), authorization: auth(&headers) });
    let input = body["input"].as_str().unwrap_or("");
    if input.is_empty() {
        return (StatusCode::BAD_REQUEST, axum::Json(json!({"error": {"message": "input is required"}}))).into_response();
    }
    if input.contains("FAIL") {
        return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(json!({"error": {"message": "the voice broke"}}))).into_response();
    }
    let ms = (input.chars().count() as u64 * MS_PER_CHAR).clamp(SPEECH_MIN_MS, SPEECH_MAX_MS);
    ([(header::CONTENT_TYPE, "audio/wav")], tone_wav(ms)).into_response()
}

pub(crate) async fn transcriptions(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    shared.record_request(RecordedRequest { path: "/v1/audio/transcriptions".into(), body: json!({"bytes": body.len()}), authorization: auth(&headers) });
    axum::Json(json!({"text": shared.config.transcript})).into_response()
}

/// The voices `GET /v1/audio/voices` lists, as Kokoro-FastAPI names its own.
pub const VOICES: [&str; 3] = ["af_bella", "af_sky", "am_adam"];

/// `GET /v1/audio/voices`: `{"voices": [...]}`, Kokoro-FastAPI's shape.
pub(crate) async fn voices() -> Response {
    axum::Json(json!({ "voices": VOICES })).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tone_has_the_asked_length() {
        let wav = tone_wav(500);
        assert_eq!(&wav[..4], b"RIFF");
        assert_eq!(wav.len(), 44 + 24_000 / 2 * 2);
    }
}
