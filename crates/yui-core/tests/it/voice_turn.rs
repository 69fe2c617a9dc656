//! Voice input end to end through a session: speech played into the virtual
//! microphone (the null sink's monitor) becomes a user turn marked as
//! spoken, sent to the backend with the transcript as its text.
//!
//! Ignored by default: it needs a sound server. Run it with
//!
//! ```sh
//! eval "$(scripts/sound-server.sh)"
//! cargo test -p yui-core --test voice_turn -- --ignored
//! pulseaudio --kill
//! ```

use crate::voice;

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;
use voice::{espeak_to, SENTENCE};
use yui_core::event::VoiceState;
use yui_core::{ChatApi, CollectingSink, DataDir, Session, SessionConfig, Settings, UiEvent};
use yui_mock::{MockConfig, MockServer};

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs a sound server (scripts/sound-server.sh)"]
async fn speech_into_the_microphone_becomes_a_spoken_turn() {
    assert!(std::env::var("PULSE_SERVER").is_ok(), "run under scripts/sound-server.sh");
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("speech.wav");
    assert!(espeak_to(SENTENCE, &wav), "espeak-ng must be installed");
    let mock = MockServer::start(MockConfig { pace: 0.0, transcript: "what is on my calendar".into(), ..Default::default() }).await.unwrap();
    let mut settings = Settings::from(yui_core::settings::CharacterSettings {
        chat_api: ChatApi::Push,
        chat_base_url: mock.base_url(),
        key: "k".into(),
        ..Default::default()
    });
    settings.character.voice.stt_base_url = mock.base_url();
    let sink = CollectingSink::new();
    let session = Session::start(SessionConfig::new(settings, DataDir::new(dir.path()).unwrap()), Arc::new(sink.clone())).unwrap();
    assert!(session.wait_ready(Duration::from_secs(10)).await);
    session.listen(true);
    tokio::time::sleep(Duration::from_millis(800)).await;
    let status = Command::new("paplay").args(["-d", "null"]).arg(&wav).status().expect("paplay");
    assert!(status.success());
    let turn = mock.wait_for_frame("turn", 0, Duration::from_secs(30)).await.expect("a spoken turn went out");
    assert_eq!(turn["text"], "what is on my calendar");
    let uploads: Vec<_> = mock.requests().into_iter().filter(|r| r.path == "/v1/audio/transcriptions").collect();
    assert_eq!(uploads.len(), 1, "one utterance, one transcription");
    assert!(uploads[0].body["bytes"].as_u64().unwrap() > 16_000, "a WAV of the speech was uploaded");
    let states: Vec<VoiceState> = sink
        .events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::VoiceInput { state } => Some(state),
            _ => None,
        })
        .collect();
    assert!(states.starts_with(&[VoiceState::Listening, VoiceState::Hearing, VoiceState::Transcribing]), "{states:?}");
    session.listen(false);
    assert_eq!(sink.events().iter().filter(|e| matches!(e, UiEvent::VoiceInput { state: VoiceState::Off })).count(), 1);
    session.close().await;
}
