//! The microphone end to end through a virtual microphone: espeak-ng speech
//! played into a private PulseAudio's null sink, whose monitor is the
//! default source, heard by [`Microphone`] on the default device (ALSA's
//! `default`, routed to PulseAudio by libasound2-plugins), cut into an
//! utterance and transcribed against the fake transcription server.
//!
//! Ignored by default: it needs a sound server. Run it from the repository
//! root with:
//!
//! ```sh
//! eval "$(scripts/sound-server.sh)"
//! cargo test -p yui-core --test listen -- --ignored
//! pulseaudio --kill
//! ```
//!
//! Needs pulseaudio, pulseaudio-utils (paplay, pactl), libasound2-plugins
//! and espeak-ng.

use crate::voice;

use std::process::Command;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedReceiver;
use voice::{espeak_to, fake_stt, read_16k_mono, Answer, SENTENCE};
use yui_core::speech::listen::{input_devices, Heard, MicConfig, Microphone};
use yui_core::speech::stt::{self, SttConfig};

const WAIT: Duration = Duration::from_secs(20);

/// One test at a time on the one null sink: each would hear the other.
static SINK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The next event, short-named (an utterance's samples are not printed).
async fn next(rx: &mut UnboundedReceiver<Heard>, deadline: Instant) -> Heard {
    let left = deadline.saturating_duration_since(Instant::now());
    match tokio::time::timeout(left, rx.recv()).await {
        Ok(Some(h)) => h,
        Ok(None) => panic!("the microphone stopped"),
        Err(_) => panic!("no event within {WAIT:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a sound server: eval \"$(scripts/sound-server.sh)\""]
async fn speech_played_into_the_virtual_microphone_comes_out_as_one_utterance() {
    assert!(std::env::var_os("PULSE_SERVER").is_some(), "run under eval \"$(scripts/sound-server.sh)\" (see the top of tests/listen.rs)");
    let _sink = SINK.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("speech.wav");
    assert!(espeak_to(SENTENCE, &wav), "espeak-ng is required for this test");
    let spoken = {
        let r = hound::WavReader::open(&wav).unwrap();
        r.duration() as f64 / r.spec().sample_rate as f64
    };
    eprintln!("input devices: {:?}", input_devices());

    let (mic, mut rx) = Microphone::open(MicConfig::default());
    let deadline = Instant::now() + WAIT;
    match next(&mut rx, deadline).await {
        Heard::Listening => {}
        other => panic!("expected Listening, got {other:?}"),
    }
    // Let the stream settle on silence, then speak into the sink.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut player = Command::new("paplay").arg("-d").arg("null").arg(&wav).spawn().expect("paplay");

    let mut started = false;
    let mut sustained = 0;
    let utterance = loop {
        match next(&mut rx, deadline).await {
            Heard::SpeechStarted => {
                assert!(!started, "speech started twice");
                started = true;
            }
            Heard::Sustained => {
                assert!(started, "sustained before speech started");
                sustained += 1;
            }
            Heard::Utterance(u) => {
                assert!(started, "an utterance without SpeechStarted");
                break u;
            }
            other => panic!("unexpected {other:?}"),
        }
    };
    assert!(player.wait().unwrap().success(), "paplay failed");
    assert_eq!(sustained, 1, "a sentence this long is sustained once");
    let heard = utterance.len() as f64 / 16_000.0;
    eprintln!("spoken {spoken:.2} s, heard an utterance of {heard:.2} s");
    assert!(heard > spoken * 0.6 && heard < spoken + 1.5, "utterance {heard:.2} s for {spoken:.2} s of speech");
    let peak = utterance.iter().fold(0.0f32, |m, s| m.max(s.abs()));
    assert!(peak > 0.1, "the utterance is the speech, not silence (peak {peak})");

    // Nothing more comes while the sink plays silence.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(rx.try_recv().is_err(), "no second utterance from silence");

    let (base, fake) = fake_stt(Answer::Text("Hello Yui.".into())).await;
    let text = stt::transcribe(&stt::client(), &SttConfig { base_url: base, ..SttConfig::default() }, stt::wav_16k_mono(&utterance)).await.unwrap();
    assert_eq!(text, "Hello Yui.");
    let ups = fake.uploads();
    assert_eq!(ups.len(), 1);
    assert_eq!(read_16k_mono(&ups[0].file).len(), utterance.len());

    drop(mic);
    assert!(rx.recv().await.is_none(), "dropping the microphone ends its events");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a sound server: eval \"$(scripts/sound-server.sh)\""]
async fn releasing_push_to_talk_cuts_the_utterance_at_once() {
    assert!(std::env::var_os("PULSE_SERVER").is_some(), "run under eval \"$(scripts/sound-server.sh)\" (see the top of tests/listen.rs)");
    let _sink = SINK.lock().await;
    let dir = tempfile::tempdir().unwrap();
    let wav = dir.path().join("speech.wav");
    assert!(espeak_to(SENTENCE, &wav), "espeak-ng is required for this test");

    let (mic, mut rx) = Microphone::open(MicConfig { sensitivity: 0.5, ..MicConfig::default() });
    let deadline = Instant::now() + WAIT;
    assert_eq!(next(&mut rx, deadline).await, Heard::Listening);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut player = Command::new("paplay").arg("-d").arg("null").arg(&wav).spawn().expect("paplay");
    assert_eq!(next(&mut rx, deadline).await, Heard::SpeechStarted);
    // The key goes up in the middle of the sentence.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let released = Instant::now();
    mic.release();
    let utterance = loop {
        match next(&mut rx, deadline).await {
            Heard::Utterance(u) => break u,
            Heard::Sustained => {}
            other => panic!("unexpected {other:?}"),
        }
    };
    assert!(released.elapsed() < Duration::from_millis(500), "cut at the release, not at the silence");
    let heard = utterance.len() as f64 / 16_000.0;
    assert!((0.9..2.2).contains(&heard), "an utterance of {heard:.2} s for 1.2 s of speech and the pre-roll");
    drop(mic);
    let _ = player.kill();
    let _ = player.wait();
}
