//! Finding speech servers and trying a voice, against local fakes that
//! answer as Kokoro-FastAPI and openedai-speech do (`docs/welcome.md`), a
//! model server on a speech port, a port that refuses and one that hangs.

use super::*;
use crate::fake_http::{fake, fake_typed, hanging, refusing};
use yui_protocol::settings::Secret;

const WAIT: Duration = Duration::from_secs(2);

fn base(port: u16) -> String {
    format!("http://127.0.0.1:{port}")
}

/// A WAV of `ms` milliseconds (yui-mock's tone, as its speech endpoint answers).
fn wav(ms: u64) -> Vec<u8> {
    yui_mock::audio::tone_wav(ms)
}

fn server_voice(port: u16, key: &str) -> VoiceSettings {
    VoiceSettings { tts_base_url: base(port), tts_key: Secret::from(key), tts_model: "kokoro".into(), tts_voice: "af_bella".into(), ..VoiceSettings::default() }
}

#[tokio::test]
async fn kokoro_fastapi_is_found_with_its_voices() {
    let port = fake(
        vec![
            ("/v1/audio/voices", 200, r#"{"voices":["af_bella","am_adam"]}"#.into()),
            ("/v1/models", 200, r#"{"object":"list","data":[{"id":"tts-1"},{"id":"kokoro"}]}"#.into()),
        ],
        (404, r#"{"detail":"Not Found"}"#),
        None,
    )
    .await;
    let found = probe_voice_server(base(port), WAIT).await.expect("found");
    assert_eq!(found.kind, VoiceServerKind::KokoroFastapi);
    assert_eq!(found.voices, ["af_bella", "am_adam"]);
    assert_eq!(found.models, ["tts-1", "kokoro"]);
    // Newer Kokoro-FastAPI answers a bare array of objects.
    let newer = fake(vec![("/v1/audio/voices", 200, r#"[{"id":"af_heart","name":"af_heart"}]"#.into())], (404, "{}"), None).await;
    assert_eq!(probe_voice_server(base(newer), WAIT).await.expect("found").voices, ["af_heart"]);
}

#[tokio::test]
async fn a_server_listing_speech_models_is_found_and_a_model_server_is_not() {
    let speech = fake(vec![("/v1/models", 200, r#"{"object":"list","data":[{"id":"tts-1"},{"id":"tts-1-hd"}]}"#.into())], (404, "{}"), None).await;
    let found = probe_voice_server(base(speech), WAIT).await.expect("openedai-speech");
    assert_eq!(found.kind, VoiceServerKind::OpenaiCompatible);
    assert!(found.voices.is_empty());
    // vLLM on 8000 answers a model list with no speech model in it.
    let vllm = fake(vec![("/v1/models", 200, r#"{"object":"list","data":[{"id":"Qwen/Qwen3-8B","owned_by":"vllm"}]}"#.into())], (404, "{}"), None).await;
    assert_eq!(probe_voice_server(base(vllm), WAIT).await, None);
}

#[tokio::test]
async fn a_refusing_or_hanging_port_costs_at_most_its_wait() {
    let (refusing, hanging) = (refusing().await, hanging().await);
    let started = std::time::Instant::now();
    let found = discover_voice_ports(&[refusing, hanging], Duration::from_millis(300)).await;
    assert!(found.is_empty());
    // One wait for both (they run at once), with room for a loaded machine.
    assert!(started.elapsed() < Duration::from_millis(2500), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_voice_that_answers_with_audio_is_made() {
    let port = fake_typed(None, vec![("/v1/audio/speech", 200, "audio/wav", wav(500))], (404, "{}"), None).await;
    let report = try_voice(&server_voice(port, ""), AudioOutput::None, "en").await;
    assert_eq!(report.problem, None, "{}", report.detail);
    assert_eq!(report.sound_ms, 500);
}

#[tokio::test]
async fn each_failure_says_which() {
    let keyed = fake_typed(Some("sk-good"), vec![("/v1/audio/speech", 200, "audio/wav", wav(200))], (404, "{}"), None).await;
    let refused = try_voice(&server_voice(keyed, "sk-bad"), AudioOutput::None, "en").await;
    assert_eq!(refused.problem, Some(VoiceProblem::KeyRefused));
    assert!(!refused.detail.contains("sk-bad"), "the key is never reported: {}", refused.detail);
    assert_eq!(try_voice(&server_voice(keyed, "sk-good"), AudioOutput::None, "en").await.problem, None);

    let missing = fake_typed(None, vec![("/v1/audio/speech", 400, "application/json", br#"{"detail":"voice not found"}"#.to_vec())], (404, "{}"), None).await;
    assert_eq!(try_voice(&server_voice(missing, ""), AudioOutput::None, "en").await.problem, Some(VoiceProblem::VoiceMissing));

    let json = fake_typed(None, vec![("/v1/audio/speech", 200, "application/json", br#"{"ok":true}"#.to_vec())], (404, "{}"), None).await;
    assert_eq!(try_voice(&server_voice(json, ""), AudioOutput::None, "en").await.problem, Some(VoiceProblem::VoiceMissing));

    let garbled = fake_typed(None, vec![("/v1/audio/speech", 200, "audio/wav", b"RIFF not a wav".to_vec())], (404, "{}"), None).await;
    assert_eq!(try_voice(&server_voice(garbled, ""), AudioOutput::None, "en").await.problem, Some(VoiceProblem::NotPlayable));

    let gone = refusing().await;
    assert_eq!(try_voice(&server_voice(gone, ""), AudioOutput::None, "en").await.problem, Some(VoiceProblem::Unreachable));
}

#[test]
fn the_sample_line_is_in_the_ui_language() {
    assert_eq!(sample_line("ja"), "こんにちは。この声で話しますね。");
    assert_eq!(sample_line("ko"), "안녕하세요. 이 목소리로 말할게요.");
    assert_eq!(sample_line("fr"), sample_line("en"));
    assert!(is_speech_model("hexgrad/Kokoro-82M") && is_speech_model("tts-1-hd") && !is_speech_model("llama3.2"));
}

#[test]
fn a_pick_sets_the_voice_it_names() {
    let mut voice = VoiceSettings { enabled: false, tts_model: "tts-1".into(), ..VoiceSettings::default() };
    VoicePick { base_url: " http://127.0.0.1:8880 ".into(), key: String::new(), model: String::new(), voice: "af_bella".into() }.apply(&mut voice);
    assert!(voice.enabled);
    assert_eq!((voice.tts_base_url.as_str(), voice.tts_model.as_str(), voice.tts_voice.as_str()), ("http://127.0.0.1:8880", "tts-1", "af_bella"));
    VoicePick::default().apply(&mut voice);
    assert!(voice.system_voice && voice.tts_base_url.is_empty(), "an empty address is the system voice");
}

#[test]
fn a_pick_never_shows_its_key() {
    let pick = VoicePick { base_url: "http://127.0.0.1:8880".into(), key: "sk-secret".into(), ..VoicePick::default() };
    let shown = format!("{pick:?}");
    assert!(!shown.contains("sk-secret") && shown.contains("<hidden>"), "{shown}");
}
