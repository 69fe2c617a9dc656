//! Shared voice-test setup: speech from espeak-ng, and a fake
//! OpenAI-compatible `/v1/audio/transcriptions` on 127.0.0.1:0 that records
//! every upload.
//!
//! espeak-ng must be installed (`apt-get install espeak-ng`). Without it a
//! test skips with a note, except when the `CI` environment variable is
//! set: there it fails, so CI never passes without having heard anything.
#![allow(dead_code)]

use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use yui_core::speech::vad::resample_to_16k_mono;

/// The sentence the tests speak (about 3 s with espeak-ng's default voice).
pub const SENTENCE: &str = "Hello Yui. Could you tell me what the weather will be like tomorrow morning?";

/// espeak-ng's WAV for `text` written to `path`; `false` (with a note)
/// when espeak-ng is missing outside CI. Panics when it is missing in CI or
/// fails.
pub fn espeak_to(text: &str, path: &Path) -> bool {
    match Command::new("espeak-ng").arg("-w").arg(path).arg(text).status() {
        Ok(s) if s.success() => true,
        Ok(s) => panic!("espeak-ng failed: {s}"),
        Err(e) if std::env::var_os("CI").is_some() => panic!("espeak-ng is required in CI: {e}"),
        Err(e) => {
            eprintln!("SKIPPED: espeak-ng is not installed ({e})");
            false
        }
    }
}

/// `text` spoken by espeak-ng as 16 kHz mono samples, resampled with the
/// crate's own resampler; `None` when espeak-ng is missing outside CI.
pub fn speech_16k(text: &str) -> Option<Vec<f32>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("speech.wav");
    if !espeak_to(text, &path) {
        return None;
    }
    let mut reader = hound::WavReader::open(&path).expect("espeak-ng writes a WAV");
    let spec = reader.spec();
    assert_eq!((spec.bits_per_sample, spec.sample_format), (16, hound::SampleFormat::Int));
    let samples: Vec<f32> = reader.samples::<i16>().map(|s| s.unwrap() as f32 / 32768.0).collect();
    assert!(samples.len() > spec.sample_rate as usize / 5, "espeak-ng spoke under 200 ms");
    Some(resample_to_16k_mono(&samples, spec.sample_rate, spec.channels))
}

/// Low white noise (a fixed LCG, so runs repeat) at `level` peak.
pub fn noise(len: usize, level: f32) -> Vec<f32> {
    let mut x: u32 = 0x1234_5678;
    (0..len)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((x >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0) * level
        })
        .collect()
}

/// One upload the fake server got.
#[derive(Debug, Clone, Default)]
pub struct Upload {
    pub path: String,
    pub auth: Option<String>,
    pub model: Option<String>,
    pub language: Option<String>,
    pub response_format: Option<String>,
    pub file: Vec<u8>,
    pub file_name: Option<String>,
    pub file_type: Option<String>,
}

/// How the fake answers.
#[derive(Debug, Clone)]
pub enum Answer {
    /// 200 `{"text": ...}`.
    Text(String),
    /// This status with this body.
    Status(u16, String),
    /// 200 with this body as `application/json`, whatever it is.
    Raw(String),
    /// Sleep, then `{"text":"late"}`.
    Slow(Duration),
}

pub struct Fake {
    pub uploads: Mutex<Vec<Upload>>,
    pub answer: Mutex<Answer>,
}

impl Fake {
    pub fn uploads(&self) -> Vec<Upload> {
        self.uploads.lock().unwrap().clone()
    }
    pub fn answer(&self, a: Answer) {
        *self.answer.lock().unwrap() = a;
    }
}

async fn transcriptions(State(fake): State<Arc<Fake>>, uri: Uri, headers: HeaderMap, mut form: Multipart) -> Response {
    let mut up = Upload { path: uri.path().to_string(), auth: headers.get("authorization").map(|v| v.to_str().unwrap().to_string()), ..Upload::default() };
    while let Some(field) = form.next_field().await.expect("a well-formed multipart body") {
        let name = field.name().unwrap_or_default().to_string();
        match name.as_str() {
            "file" => {
                up.file_name = field.file_name().map(str::to_string);
                up.file_type = field.content_type().map(str::to_string);
                up.file = field.bytes().await.unwrap().to_vec();
            }
            "model" => up.model = Some(field.text().await.unwrap()),
            "language" => up.language = Some(field.text().await.unwrap()),
            "response_format" => up.response_format = Some(field.text().await.unwrap()),
            other => panic!("unexpected field {other}"),
        }
    }
    fake.uploads.lock().unwrap().push(up);
    if uri.path() != "/v1/audio/transcriptions" {
        return (StatusCode::NOT_FOUND, "no such route").into_response();
    }
    let answer = fake.answer.lock().unwrap().clone();
    match answer {
        Answer::Text(t) => axum::Json(serde_json::json!({ "text": t })).into_response(),
        Answer::Status(code, body) => (StatusCode::from_u16(code).unwrap(), body).into_response(),
        Answer::Raw(body) => (StatusCode::OK, [("content-type", "application/json")], body).into_response(),
        Answer::Slow(d) => {
            tokio::time::sleep(d).await;
            axum::Json(serde_json::json!({ "text": "late" })).into_response()
        }
    }
}

/// A fake transcription server answering `answer` until told otherwise.
pub async fn fake_stt(answer: Answer) -> (String, Arc<Fake>) {
    let fake = Arc::new(Fake { uploads: Mutex::new(Vec::new()), answer: Mutex::new(answer) });
    let app = Router::new().fallback(transcriptions).with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), fake)
}

/// The samples of a 16-bit WAV, checking it is 16 kHz mono.
pub fn read_16k_mono(wav: &[u8]) -> Vec<i16> {
    let mut reader = hound::WavReader::new(std::io::Cursor::new(wav)).expect("a valid WAV");
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.sample_rate, spec.bits_per_sample, spec.sample_format),
        (1, 16_000, 16, hound::SampleFormat::Int),
        "16 kHz mono 16-bit PCM"
    );
    reader.samples::<i16>().map(Result::unwrap).collect()
}
