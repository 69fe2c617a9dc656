//! The OpenAI-compatible STT client against a fake
//! `/v1/audio/transcriptions` on 127.0.0.1:0 (tests/voice), fed speech
//! that espeak-ng speaks at test time and the crate resamples to 16 kHz
//! mono. espeak-ng missing skips the speech tests outside CI and fails
//! them in CI.

use crate::voice;

use std::time::Duration;
use voice::{fake_stt, read_16k_mono, speech_16k, Answer, SENTENCE};
use yui_core::speech::stt::{self, SttConfig, SttError};

fn cfg(base: &str) -> SttConfig {
    SttConfig { base_url: base.to_string(), ..SttConfig::default() }
}

#[tokio::test]
async fn speech_goes_up_as_a_16k_mono_wav_with_model_language_and_key() {
    let Some(speech) = speech_16k(SENTENCE) else { return };
    let (base, fake) = fake_stt(Answer::Text("  Hello Yui, what's the weather tomorrow?\n".into())).await;
    let cfg = SttConfig { key: "sk-stt-123".into(), language: Some("en".into()), ..cfg(&base) };

    let text = stt::transcribe(&stt::client(), &cfg, stt::wav_16k_mono(&speech)).await.unwrap();

    assert_eq!(text, "Hello Yui, what's the weather tomorrow?", "trimmed");
    let ups = fake.uploads();
    assert_eq!(ups.len(), 1);
    let up = &ups[0];
    assert_eq!(up.path, "/v1/audio/transcriptions");
    assert_eq!(up.auth.as_deref(), Some("Bearer sk-stt-123"));
    assert_eq!(up.model.as_deref(), Some("whisper-1"));
    assert_eq!(up.language.as_deref(), Some("en"));
    assert_eq!(up.response_format.as_deref(), Some("json"));
    assert_eq!(up.file_name.as_deref(), Some("speech.wav"));
    assert_eq!(up.file_type.as_deref(), Some("audio/wav"));
    let samples = read_16k_mono(&up.file);
    assert_eq!(samples.len(), speech.len(), "every sample went up");
    let secs = samples.len() as f64 / 16_000.0;
    assert!((2.0..8.0).contains(&secs), "{secs} s of speech");
    let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
    assert!(peak > 3_000, "the speech is audible (peak {peak})");
}

#[tokio::test]
async fn no_key_no_language_sends_neither_and_a_v1_base_is_not_doubled() {
    let (base, fake) = fake_stt(Answer::Text("hi".into())).await;
    let cfg = SttConfig { language: Some("  ".into()), model: "Systran/faster-whisper-small".into(), ..cfg(&format!("{base}/v1/")) };
    let text = stt::transcribe(&stt::client(), &cfg, stt::wav_16k_mono(&[0.1; 1600])).await.unwrap();
    assert_eq!(text, "hi");
    let up = &fake.uploads()[0];
    assert_eq!(up.path, "/v1/audio/transcriptions");
    assert_eq!(up.auth, None);
    assert_eq!(up.language, None);
    assert_eq!(up.model.as_deref(), Some("Systran/faster-whisper-small"));
    assert_eq!(read_16k_mono(&up.file).len(), 1600);
}

#[tokio::test]
async fn empty_text_is_no_error() {
    let (base, _fake) = fake_stt(Answer::Text("   ".into())).await;
    let text = stt::transcribe(&stt::client(), &cfg(&base), stt::wav_16k_mono(&[0.0; 160])).await.unwrap();
    assert_eq!(text, "");
}

#[tokio::test]
async fn a_500_keeps_its_raw_body() {
    let body = r#"{"error":{"message":"model not loaded","type":"server_error"}}"#;
    let (base, _fake) = fake_stt(Answer::Status(500, body.into())).await;
    let err = stt::transcribe(&stt::client(), &cfg(&base), stt::wav_16k_mono(&[0.0; 160])).await.unwrap_err();
    assert_eq!(err, SttError::Http { status: 500, body: body.into() });
    assert_eq!(err.status(), Some(500));
    assert!(err.to_string().contains("model not loaded"), "{err}");
}

#[tokio::test]
async fn a_huge_error_body_is_capped() {
    let (base, _fake) = fake_stt(Answer::Status(502, "x".repeat(200 * 1024))).await;
    let err = stt::transcribe(&stt::client(), &cfg(&base), stt::wav_16k_mono(&[0.0; 160])).await.unwrap_err();
    let SttError::Http { status: 502, body } = err else { panic!("{err:?}") };
    assert_eq!(body.len(), yui_core::limits::STT_ERROR_BODY_KEPT);
}

#[tokio::test]
async fn an_answer_without_text_is_bad_json_with_the_body() {
    for raw in [r#"{"transcript":"hello"}"#, "not json at all", r#"{"text": 42}"#] {
        let (base, _fake) = fake_stt(Answer::Raw(raw.into())).await;
        let err = stt::transcribe(&stt::client(), &cfg(&base), stt::wav_16k_mono(&[0.0; 160])).await.unwrap_err();
        assert_eq!(err, SttError::BadJson { body: raw.into() }, "{raw}");
        assert_eq!(err.kind(), "bad_json");
    }
}

#[tokio::test]
async fn a_dead_server_is_connect_without_the_key() {
    // Bind and drop: nothing listens on that port any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let cfg = SttConfig { key: "sk-never-shown".into(), ..cfg(&format!("http://127.0.0.1:{port}")) };
    let err = stt::transcribe(&stt::client(), &cfg, stt::wav_16k_mono(&[0.0; 160])).await.unwrap_err();
    let SttError::Connect { url, .. } = &err else { panic!("{err:?}") };
    assert_eq!(url, &format!("http://127.0.0.1:{port}/v1/audio/transcriptions"));
    assert!(!format!("{err} {err:?}").contains("sk-never-shown"));
}

#[tokio::test]
async fn a_slow_server_times_out_at_the_wait() {
    let (base, fake) = fake_stt(Answer::Slow(Duration::from_secs(5))).await;
    let cfg = SttConfig { wait: Duration::from_millis(300), ..cfg(&base) };
    let started = std::time::Instant::now();
    let err = stt::transcribe(&stt::client(), &cfg, stt::wav_16k_mono(&[0.0; 160])).await.unwrap_err();
    assert_eq!(err, SttError::Timeout { after: Duration::from_millis(300) });
    assert!(started.elapsed() < Duration::from_secs(3), "gave up at the wait, not the server");
    // The request did reach the server: the wait covers the answer too.
    assert_eq!(fake.uploads().len(), 1);
}

#[tokio::test]
async fn nothing_to_send_is_invalid() {
    let err = stt::transcribe(&stt::client(), &cfg(""), stt::wav_16k_mono(&[0.0; 160])).await.unwrap_err();
    assert_eq!(err, SttError::Invalid("no STT base URL"));
    let err = stt::transcribe(&stt::client(), &cfg("http://127.0.0.1:9"), Vec::new()).await.unwrap_err();
    assert_eq!(err, SttError::Invalid("no audio to transcribe"));
}
