//! The OpenAI-compatible TTS client against a fake speech server on
//! 127.0.0.1:0 that records every request and answers WAV bytes.
//!
//! The sentence text steers the fake: `~300` waits 300 ms before answering,
//! `!500` answers a 500 with a JSON error body, `!big` a 500 with a 100 KiB
//! body, `!json` a 200 with a JSON body.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Router;
use serde_json::Value;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use yui_core::speech::tts::{self, SpeechRequest, Tone, TtsConfig, TtsError};

#[derive(Debug, Clone)]
struct Recorded {
    path: String,
    body: Value,
    auth: Option<String>,
}

#[derive(Default)]
struct Fake {
    requests: Mutex<Vec<Recorded>>,
}

impl Fake {
    fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

/// A tiny valid WAV: RIFF header, 16-bit mono 8 kHz, 8 samples.
fn wav() -> Vec<u8> {
    let samples: [i16; 8] = [0, 1000, 2000, 1000, 0, -1000, -2000, -1000];
    let data_len = (samples.len() * 2) as u32;
    let mut v = Vec::new();
    v.extend_from_slice(b"RIFF");
    v.extend_from_slice(&(36 + data_len).to_le_bytes());
    v.extend_from_slice(b"WAVEfmt ");
    v.extend_from_slice(&16u32.to_le_bytes());
    v.extend_from_slice(&1u16.to_le_bytes()); // PCM
    v.extend_from_slice(&1u16.to_le_bytes()); // mono
    v.extend_from_slice(&8000u32.to_le_bytes());
    v.extend_from_slice(&16000u32.to_le_bytes()); // byte rate
    v.extend_from_slice(&2u16.to_le_bytes()); // block align
    v.extend_from_slice(&16u16.to_le_bytes()); // bits
    v.extend_from_slice(b"data");
    v.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        v.extend_from_slice(&s.to_le_bytes());
    }
    v
}

fn delay_of(input: &str) -> Duration {
    input.split_whitespace().find_map(|w| w.strip_prefix('~').and_then(|n| n.parse::<u64>().ok())).map(Duration::from_millis).unwrap_or(Duration::ZERO)
}

async fn speech(State(fake): State<Arc<Fake>>, uri: Uri, headers: HeaderMap, body: Bytes) -> Response {
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let auth = headers.get("authorization").map(|v| v.to_str().unwrap().to_string());
    fake.requests.lock().unwrap().push(Recorded { path: uri.path().to_string(), body: body.clone(), auth });
    if uri.path() != "/v1/audio/speech" {
        return (StatusCode::NOT_FOUND, "no such route").into_response();
    }
    let input = body["input"].as_str().unwrap_or_default().to_string();
    tokio::time::sleep(delay_of(&input)).await;
    if input.contains("!500") {
        let err = r#"{"error":{"message":"voice model crashed","type":"server_error","code":null}}"#;
        return (StatusCode::INTERNAL_SERVER_ERROR, [("content-type", "application/json")], err).into_response();
    }
    if input.contains("!big") {
        return (StatusCode::INTERNAL_SERVER_ERROR, "x".repeat(100 * 1024)).into_response();
    }
    if input.contains("!json") {
        return (StatusCode::OK, [("content-type", "application/json")], r#"{"detail":"queued"}"#).into_response();
    }
    (StatusCode::OK, [("content-type", "audio/wav")], wav()).into_response()
}

async fn fake_server() -> (String, Arc<Fake>) {
    let fake = Arc::new(Fake::default());
    let app = Router::new().fallback(speech).with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), fake)
}

fn cfg(base: &str) -> TtsConfig {
    TtsConfig { base_url: base.to_string(), model: "kokoro".into(), voice: "af_bella".into(), ..TtsConfig::default() }
}

fn say(text: &str) -> SpeechRequest {
    SpeechRequest::new(text)
}

#[tokio::test]
async fn body_carries_model_voice_speed_tone_and_caption_with_the_key() {
    let (base, fake) = fake_server().await;
    let cfg = TtsConfig { key: "sk-test-123".into(), speed: 1.25, ..cfg(&base) };
    let req = SpeechRequest { text: "Good morning.".into(), caption: Some("Sleepy, barely awake.".into()), tone: Some(Tone::Free("whisper".into())) };
    let synth = tts::synth(&tts::client(), &cfg, &req).await.unwrap();
    assert_eq!(synth.bytes, wav());
    assert_eq!(&synth.bytes[..4], b"RIFF");
    assert_eq!(synth.mime, "audio/wav");

    let r = &fake.requests()[0];
    assert_eq!(r.path, "/v1/audio/speech");
    assert_eq!(r.auth.as_deref(), Some("Bearer sk-test-123"));
    let b = &r.body;
    assert_eq!(b["model"], "kokoro");
    assert_eq!(b["voice"], "af_bella");
    assert_eq!(b["speed"].as_f64(), Some(1.25));
    assert_eq!(b["response_format"], "wav");
    assert_eq!(b["input"], "[whisper] Good morning.");
    assert_eq!(b["instructions"], "Sleepy, barely awake.");
    assert_eq!(b.as_object().unwrap().len(), 6, "exactly the documented fields: {b}");
}

#[tokio::test]
async fn no_key_sends_no_authorization_and_no_caption_sends_no_instructions() {
    let (base, fake) = fake_server().await;
    let cfg = cfg(&base);
    let client = tts::client();
    let tagged = SpeechRequest { text: "Yay!".into(), caption: None, tone: Some(Tone::Tag("happy".into())) };
    tts::synth(&client, &cfg, &tagged).await.unwrap();
    tts::synth(&client, &cfg, &say("Plain.")).await.unwrap();
    let blank = SpeechRequest { text: "Blank caption.".into(), caption: Some("  ".into()), tone: None };
    tts::synth(&client, &cfg, &blank).await.unwrap();

    let reqs = fake.requests();
    assert_eq!(reqs.len(), 3);
    for r in &reqs {
        assert_eq!(r.auth, None);
        assert!(r.body.get("instructions").is_none(), "{}", r.body);
        assert_eq!(r.body["speed"].as_f64(), Some(1.0));
    }
    assert_eq!(reqs[0].body["input"], "[happy] Yay!");
    assert_eq!(reqs[1].body["input"], "Plain.");
    assert_eq!(reqs[2].body["input"], "Blank caption.");
}

#[tokio::test]
async fn a_base_ending_in_v1_gets_no_second_v1() {
    let (base, fake) = fake_server().await;
    let client = tts::client();
    for b in [base.clone(), format!("{base}/"), format!("{base}/v1"), format!("{base}/v1/")] {
        tts::synth(&client, &cfg(&b), &say("Hello.")).await.unwrap_or_else(|e| panic!("{b}: {e}"));
    }
    let paths: Vec<String> = fake.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, vec!["/v1/audio/speech"; 4]);
}

#[tokio::test]
async fn a_500_is_an_err_in_its_place_and_the_next_sentence_still_comes() {
    let (base, _fake) = fake_server().await;
    let client = tts::client();
    let err = tts::synth(&client, &cfg(&base), &say("Broken !500")).await.unwrap_err();
    assert_eq!(err.status(), Some(500));
    match &err {
        TtsError::Http { status, body } => {
            assert_eq!(*status, 500);
            let json: Value = serde_json::from_str(body).expect("the raw JSON body is kept");
            assert_eq!(json["error"]["message"], "voice model crashed");
        }
        other => panic!("expected Http, got {other:?}"),
    }
    assert!(err.to_string().contains("500") && err.to_string().contains("voice model crashed"), "{err}");

    let second = tts::synth(&client, &cfg(&base), &say("Fine.")).await.expect("the next sentence still comes");
    assert_eq!(second.bytes, wav());
}

#[tokio::test]
async fn an_error_body_is_kept_up_to_64_kib() {
    let (base, _fake) = fake_server().await;
    let err = tts::synth(&tts::client(), &cfg(&base), &say("Huge !big")).await.unwrap_err();
    match err {
        TtsError::Http { status: 500, body } => assert_eq!(body.len(), 64 * 1024),
        other => panic!("expected Http 500, got {other:?}"),
    }
}

#[tokio::test]
async fn a_json_200_is_not_audio() {
    let (base, _fake) = fake_server().await;
    let err = tts::synth(&tts::client(), &cfg(&base), &say("Odd !json")).await.unwrap_err();
    assert!(matches!(&err, TtsError::NotAudio { status: 200, body, .. } if body.contains("queued")), "{err:?}");
}

#[tokio::test]
async fn a_dead_server_is_a_clear_connect_error_without_the_key() {
    let addr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap()
    };
    let cfg = TtsConfig { key: "sk-secret-456".into(), ..cfg(&format!("http://{addr}")) };
    let err = tts::synth(&tts::client(), &cfg, &say("Anyone?")).await.unwrap_err();
    assert!(matches!(err, TtsError::Connect { .. }), "{err:?}");
    assert_eq!(err.status(), None);
    let shown = err.to_string();
    assert!(shown.contains("unreachable") && shown.contains(&format!("{addr}/v1/audio/speech")), "{shown}");
    assert!(!shown.contains("sk-secret") && !format!("{err:?}").contains("sk-secret"));
}

#[tokio::test]
async fn a_request_past_its_wait_times_out() {
    let (base, _fake) = fake_server().await;
    let cfg = TtsConfig { wait: Duration::from_millis(150), ..cfg(&base) };
    let err = tts::synth(&tts::client(), &cfg, &say("Stuck ~3000")).await.unwrap_err();
    assert_eq!(err, TtsError::Timeout { after: Duration::from_millis(150) });
}

#[test]
fn debug_never_shows_the_key() {
    let cfg = TtsConfig { key: "sk-secret-789".into(), ..TtsConfig::default() };
    let shown = format!("{cfg:?}");
    assert!(!shown.contains("sk-secret"), "{shown}");
    assert!(shown.contains("<redacted>"));
    assert_eq!(TtsConfig::default().in_flight, yui_core::limits::TTS_REQUESTS_IN_FLIGHT);
    assert_eq!(TtsConfig::default().response_format, "wav");
}

#[tokio::test]
async fn no_base_url_or_no_text_is_not_attempted() {
    let client = tts::client();
    let err = tts::synth(&client, &TtsConfig::default(), &say("Hi")).await.unwrap_err();
    assert!(matches!(err, TtsError::Invalid(_)));
    let (base, fake) = fake_server().await;
    let err = tts::synth(&client, &cfg(&base), &say("   ")).await.unwrap_err();
    assert!(matches!(err, TtsError::Invalid(_)));
    assert!(fake.requests().is_empty());
}
