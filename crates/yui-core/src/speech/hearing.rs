//! Voice input for one session: the microphone's [`Heard`] events become
//! user turns marked as spoken, barge-in and the pill's states.
//!
//! * `Utterance` → the pill shows transcribing, the audio goes as a 16 kHz
//!   mono WAV to `/v1/audio/transcriptions`, and a non-empty text becomes
//!   [`UserCommand::SendVoice`]. A failed transcription shows in the pill
//!   and listening goes on.
//! * `Sustained` (speech long enough) while she speaks →
//!   [`UserCommand::BargeIn`]: her playback stops like the stop button.
//! * Push-to-talk: pressing it while she speaks barges in at once; releasing
//!   it cuts the utterance there ([`Microphone::release`]). A push-to-talk
//!   with the mic toggle off opens the microphone for that one utterance.
//! * `Failed` → the pill shows the error (no permission, no device, device
//!   busy); nothing more is heard until the user tries again.
//!
//! The loop ([`run`]) takes the events from any source, so tests feed it
//! without a microphone.

use super::listen::{Heard, MicConfig, Microphone};
use super::stt::{self, SttConfig};
use crate::command::UserCommand;
use crate::event::{UiEvent, VoiceState};
use crate::settings::VoiceSettings;
use crate::sink::SharedSink;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// How long a released push-to-talk waits for its utterance before the
/// microphone closes.
pub const PUSH_TO_TALK_TAIL: Duration = Duration::from_millis(1_500);

/// Where the hearing loop sends what it decides.
#[derive(Clone)]
pub struct Ears {
    /// The session's commands.
    pub cmds: mpsc::UnboundedSender<UserCommand>,
    /// True while she speaks (a sentence plays or waits).
    pub speaking: Arc<dyn Fn() -> bool + Send + Sync>,
    /// The pill's states go here.
    pub sink: SharedSink,
    /// The last state shown, for a page that subscribes late.
    pub last: Arc<std::sync::Mutex<VoiceState>>,
}

impl Ears {
    fn show(&self, state: VoiceState) {
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = state.clone();
        self.sink.emit(UiEvent::VoiceInput { state });
    }
}

/// The STT settings of `voice`, or `None` when no server is set.
pub fn stt_config(voice: &VoiceSettings) -> Option<SttConfig> {
    let base = voice.stt_base_url.trim();
    if base.is_empty() {
        return None;
    }
    Some(SttConfig {
        base_url: base.to_string(),
        key: voice.stt_key.expose().trim().into(),
        model: Some(voice.stt_model.trim()).filter(|m| !m.is_empty()).unwrap_or("whisper-1").to_string(),
        language: Some(voice.stt_language.trim().to_string()).filter(|l| !l.is_empty()),
        ..SttConfig::default()
    })
}

/// Hear until `heard` ends or `cancel` fires; with `tail`, stop once that
/// long has passed after `release` fired with no utterance under way.
pub async fn run(mut heard: mpsc::UnboundedReceiver<Heard>, stt: SttConfig, ears: Ears, cancel: CancellationToken, released: CancellationToken) {
    // However the loop ends, its Hearing reads as finished.
    let _finished = cancel.clone().drop_guard();
    let client = stt::client();
    loop {
        let tail = async {
            released.cancelled().await;
            tokio::time::sleep(PUSH_TO_TALK_TAIL).await;
        };
        // Closed by the session: it says `Off` itself.
        let event = tokio::select! {
            _ = cancel.cancelled() => return,
            _ = tail => break,
            e = heard.recv() => match e { Some(e) => e, None => break },
        };
        match event {
            Heard::Listening => ears.show(VoiceState::Listening),
            Heard::SpeechStarted => ears.show(VoiceState::Hearing),
            Heard::Sustained => {
                if (ears.speaking)() {
                    tracing::info!(record = "barge_in", "the user talked over her: playback stops");
                    let _ = ears.cmds.send(UserCommand::BargeIn);
                }
            }
            Heard::Utterance(samples) => {
                ears.show(VoiceState::Transcribing);
                let wav = stt::wav_16k_mono(&samples);
                let text = tokio::select! {
                    _ = cancel.cancelled() => return,
                    r = stt::transcribe(&client, &stt, wav) => r,
                };
                match text {
                    Ok(text) if !text.trim().is_empty() => {
                        let _ = ears.cmds.send(UserCommand::SendVoice { text: text.trim().to_string() });
                        ears.show(VoiceState::Listening);
                    }
                    Ok(_) => ears.show(VoiceState::Listening),
                    Err(e) => ears.show(VoiceState::Failed { kind: "stt".into(), message: format!("Could not transcribe: {}", e.kind()) }),
                }
                if released.is_cancelled() {
                    break;
                }
            }
            Heard::Failed(e) => {
                ears.show(VoiceState::Failed { kind: e.kind().into(), message: e.message().into() });
                return;
            }
        }
    }
    ears.show(VoiceState::Off);
}

/// The session's microphone while it is open: dropping it stops listening.
pub struct Hearing {
    mic: Microphone,
    cancel: CancellationToken,
    released: CancellationToken,
    /// Opened by push-to-talk alone: closes after its utterance.
    pub push_to_talk_only: bool,
}

impl Hearing {
    /// Open the microphone the settings name and hear on a task of its own.
    /// `None` (and the pill shows why) when no STT server is set.
    pub fn open(voice: &VoiceSettings, ears: Ears, push_to_talk_only: bool) -> Option<Hearing> {
        let Some(stt) = stt_config(voice) else {
            ears.show(VoiceState::Failed { kind: "no_stt".into(), message: "Set a speech-to-text server in Settings → Voice.".into() });
            return None;
        };
        let cfg = MicConfig {
            device: Some(voice.mic_device.trim().to_string()).filter(|d| !d.is_empty()),
            sensitivity: voice.vad_sensitivity.min(100) as f32 / 100.0,
        };
        let (mic, heard) = Microphone::open(cfg);
        let (cancel, released) = (CancellationToken::new(), CancellationToken::new());
        tokio::spawn(run(heard, stt, ears, cancel.clone(), released.clone()));
        Some(Hearing { mic, cancel, released, push_to_talk_only })
    }

    /// Push-to-talk released: the utterance ends here; a push-to-talk-only
    /// microphone closes after it.
    pub fn release(&self) {
        self.mic.release();
        if self.push_to_talk_only {
            self.released.cancel();
        }
    }

    /// True once its loop has ended (a push-to-talk that finished, a
    /// failure).
    pub fn finished(&self) -> bool {
        self.cancel.is_cancelled()
    }
}

impl Drop for Hearing {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::CollectingSink;
    use std::sync::atomic::{AtomicBool, Ordering};

    async fn fake_stt(text: &'static str) -> (String, tokio::task::JoinHandle<()>) {
        use axum::routing::post;
        let app = axum::Router::new().route("/v1/audio/transcriptions", post(move || async move { axum::Json(serde_json::json!({"text": text})) }));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        (url, tokio::spawn(async move { axum::serve(listener, app).await.unwrap() }))
    }

    fn states(sink: &CollectingSink) -> Vec<String> {
        sink.events()
            .into_iter()
            .filter_map(|e| match e {
                UiEvent::VoiceInput { state } => Some(match state {
                    VoiceState::Failed { kind, .. } => format!("failed:{kind}"),
                    other => format!("{other:?}").to_lowercase(),
                }),
                _ => None,
            })
            .collect()
    }

    #[tokio::test]
    async fn an_utterance_becomes_a_spoken_turn_and_sustained_speech_barges_in_only_while_she_speaks() {
        let (url, _server) = fake_stt("what's the weather").await;
        let (cmd_tx, mut cmd_rx) = mpsc::unbounded_channel();
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let sink = CollectingSink::new();
        let ears = Ears { cmds: cmd_tx, speaking: Arc::new(move || f.load(Ordering::SeqCst)), sink: Arc::new(sink.clone()), last: Default::default() };
        let (tx, rx) = mpsc::unbounded_channel();
        let cfg = SttConfig { base_url: url, ..SttConfig::default() };
        let task = tokio::spawn(run(rx, cfg, ears, CancellationToken::new(), CancellationToken::new()));
        tx.send(Heard::Listening).unwrap();
        tx.send(Heard::SpeechStarted).unwrap();
        tx.send(Heard::Sustained).unwrap();
        tx.send(Heard::Utterance(vec![0.1; 16_000])).unwrap();
        assert_eq!(cmd_rx.recv().await, Some(UserCommand::SendVoice { text: "what's the weather".into() }), "no barge-in while she is quiet");
        flag.store(true, Ordering::SeqCst);
        tx.send(Heard::Sustained).unwrap();
        assert_eq!(cmd_rx.recv().await, Some(UserCommand::BargeIn));
        drop(tx);
        task.await.unwrap();
        assert_eq!(states(&sink), ["listening", "hearing", "transcribing", "listening", "off"]);
    }

    #[tokio::test]
    async fn a_dead_stt_server_shows_in_the_pill_and_listening_goes_on() {
        let (cmd_tx, mut cmd_rx) = mpsc::unbounded_channel();
        let sink = CollectingSink::new();
        let ears = Ears { cmds: cmd_tx, speaking: Arc::new(|| false), sink: Arc::new(sink.clone()), last: Default::default() };
        let (tx, rx) = mpsc::unbounded_channel();
        let cfg = SttConfig { base_url: "http://127.0.0.1:9".into(), ..SttConfig::default() };
        let task = tokio::spawn(run(rx, cfg, ears, CancellationToken::new(), CancellationToken::new()));
        tx.send(Heard::Utterance(vec![0.1; 16_000])).unwrap();
        tx.send(Heard::Failed(crate::speech::listen::MicError::DeviceBusy)).unwrap();
        task.await.unwrap();
        assert_eq!(states(&sink), ["transcribing", "failed:stt", "failed:device_busy"]);
        assert!(cmd_rx.try_recv().is_err(), "nothing was sent");
    }

    #[tokio::test(start_paused = true)]
    async fn a_released_push_to_talk_closes_after_its_tail() {
        let (cmd_tx, _cmd_rx) = mpsc::unbounded_channel();
        let sink = CollectingSink::new();
        let ears = Ears { cmds: cmd_tx, speaking: Arc::new(|| false), sink: Arc::new(sink.clone()), last: Default::default() };
        let (tx, rx) = mpsc::unbounded_channel();
        let released = CancellationToken::new();
        let task = tokio::spawn(run(rx, SttConfig::default(), ears, CancellationToken::new(), released.clone()));
        tx.send(Heard::Listening).unwrap();
        released.cancel();
        task.await.unwrap();
        assert_eq!(states(&sink), ["listening", "off"]);
    }

    #[test]
    fn no_stt_server_means_no_voice_input() {
        assert!(stt_config(&VoiceSettings::default()).is_none());
        let v = VoiceSettings { stt_base_url: " http://x ".into(), stt_language: "ja".into(), ..VoiceSettings::default() };
        let cfg = stt_config(&v).unwrap();
        assert_eq!((cfg.base_url.as_str(), cfg.model.as_str(), cfg.language.as_deref()), ("http://x", "whisper-1", Some("ja")));
    }
}
