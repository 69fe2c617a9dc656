//! The speaker: makes the audio the playback queue asks for and plays it
//! through the [`AudioSink`], in the session driver's loop.
//!
//! The queue says [`PlayEffect::Synth`](yui_turn::voice::playback::PlayEffect::Synth)
//! the moment a sentence is queued: the speaker starts its synthesis at
//! once, at most `in_flight` at a time, started in queue order (a fair
//! semaphore). When the queue says `Play`, the audio is handed to the sink
//! if it is ready, or as soon as it is. A sentence with no audio comes back
//! as [`Report::NoAudio`]; the engine skips it. A halt silences the sink and
//! drops every synthesis under way.
//!
//! Where the audio comes from is a [`Voice`]: the TTS server, the system
//! voice, or reading time when the voice is off (see `voices.rs`).

use super::tts::SpeechRequest;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio::sync::{mpsc, Semaphore};
use tokio::task::JoinHandle;
use yui_turn::voice::playback::{AudioSink, SinkEvent, Sound};

/// Why a sentence has no audio: one line for the log (never the text, the
/// key or a whole server body). The sentence still shows and playback
/// moves on.
#[derive(Debug, thiserror::Error)]
pub enum VoiceError {
    /// The TTS server did not answer with audio.
    #[error(transparent)]
    Tts(#[from] super::tts::TtsError),
    /// The system voice failed.
    #[error(transparent)]
    System(#[from] super::system_voice::SystemVoiceError),
    /// The audio came but could not be decoded.
    #[error(transparent)]
    Decode(#[from] super::decode::DecodeError),
    /// The decoding thread ended before it answered.
    #[error("the decoding thread ended: {0}")]
    Gone(String),
}

/// A boxed future of one sentence's audio, or why there is none.
pub type SoundFuture = Pin<Box<dyn Future<Output = Result<Sound, VoiceError>> + Send>>;

/// Where a sentence's audio comes from.
pub trait Voice: Send + Sync {
    /// Make the audio of one sentence.
    fn speak(&self, request: SpeechRequest) -> SoundFuture;
    /// A short name for logs: `tts`, `system`, `reading`.
    fn name(&self) -> &'static str;
    /// The sentence's audio when it needs no waiting (reading time, no
    /// voice): the speaker takes it at once, with no task and no round
    /// through the loop. `None` (the default): [`Voice::speak`] makes it.
    fn ready(&self, _request: &SpeechRequest) -> Option<Sound> {
        None
    }
}

/// What the speaker reports to the engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// The sink started or finished an item.
    Sink(SinkEvent),
    /// The item the queue asked to play has no audio: skip it.
    NoAudio(u64),
}

enum Slot {
    Pending(JoinHandle<()>),
    Ready(Sound),
    Failed,
}

/// One character's speaker. See the module doc.
pub struct Speaker {
    voice: Arc<dyn Voice>,
    sink: Box<dyn AudioSink>,
    sink_rx: mpsc::UnboundedReceiver<SinkEvent>,
    done_tx: mpsc::UnboundedSender<(u64, u64, Result<Sound, VoiceError>)>,
    done_rx: mpsc::UnboundedReceiver<(u64, u64, Result<Sound, VoiceError>)>,
    slots: HashMap<u64, Slot>,
    wanted: Option<u64>,
    epoch: u64,
    limit: Arc<Semaphore>,
}

impl Speaker {
    /// A speaker with `voice`, playing into `sink` (whose reports arrive on
    /// `sink_rx`), running at most `in_flight` syntheses at once (0 counts
    /// as 1).
    pub fn new(voice: Arc<dyn Voice>, sink: Box<dyn AudioSink>, sink_rx: mpsc::UnboundedReceiver<SinkEvent>, in_flight: usize) -> Self {
        let (done_tx, done_rx) = mpsc::unbounded_channel();
        Self { voice, sink, sink_rx, done_tx, done_rx, slots: HashMap::new(), wanted: None, epoch: 0, limit: Arc::new(Semaphore::new(in_flight.max(1))) }
    }

    /// The voice's name, for logs.
    pub fn voice_name(&self) -> &'static str {
        self.voice.name()
    }

    /// Start making `item_id`'s audio now. Needs a tokio runtime. A voice
    /// whose audio is [`Voice::ready`] has it at once.
    pub fn synth(&mut self, item_id: u64, request: SpeechRequest) {
        if let Some(sound) = self.voice.ready(&request) {
            self.slots.insert(item_id, Slot::Ready(sound));
            return;
        }
        let (voice, limit, tx, epoch) = (self.voice.clone(), self.limit.clone(), self.done_tx.clone(), self.epoch);
        let queued_at = std::time::Instant::now();
        let task = tokio::spawn(async move {
            let Ok(_permit) = limit.acquire_owned().await else { return };
            tracing::debug!(record = "speech_synth", item_id, voice = voice.name(), waited_us = queued_at.elapsed().as_micros() as u64);
            let result = voice.speak(request).await;
            let _ = tx.send((epoch, item_id, result));
        });
        self.slots.insert(item_id, Slot::Pending(task));
    }

    /// Playback reached `item_id`: play it now, or as soon as its audio is
    /// made. Returns [`Report::NoAudio`] at once when it has none, and the
    /// sink's `Started` at once when the audio was ready and the sink starts
    /// without waiting (so the sentence shows in the same pass of the loop).
    pub fn play(&mut self, item_id: u64) -> Option<Report> {
        match self.slots.remove(&item_id) {
            Some(Slot::Ready(sound)) => self.sink.play_now(item_id, sound).map(Report::Sink),
            Some(Slot::Pending(task)) => {
                self.slots.insert(item_id, Slot::Pending(task));
                self.wanted = Some(item_id);
                None
            }
            Some(Slot::Failed) | None => Some(Report::NoAudio(item_id)),
        }
    }

    /// Stop at once: the sink goes silent and every synthesis under way or
    /// made is dropped.
    pub fn halt(&mut self) {
        self.sink.halt();
        self.epoch += 1;
        self.wanted = None;
        for (_, slot) in self.slots.drain() {
            if let Slot::Pending(task) = slot {
                task.abort();
            }
        }
    }

    /// The next report. Cancel-safe: use it in `select!`.
    pub async fn next(&mut self) -> Report {
        loop {
            tokio::select! {
                Some(event) = self.sink_rx.recv() => return Report::Sink(event),
                Some((epoch, item_id, result)) = self.done_rx.recv() => {
                    if epoch != self.epoch || !self.slots.contains_key(&item_id) {
                        continue;
                    }
                    let wanted = self.wanted == Some(item_id);
                    match result {
                        Ok(sound) if wanted => {
                            self.slots.remove(&item_id);
                            self.wanted = None;
                            if let Some(event) = self.sink.play_now(item_id, sound) {
                                return Report::Sink(event);
                            }
                        }
                        Ok(sound) => {
                            self.slots.insert(item_id, Slot::Ready(sound));
                        }
                        Err(e) => {
                            tracing::warn!(record = "speech_no_audio", item_id, voice = self.voice.name(), error = %e, "the sentence plays without sound");
                            if wanted {
                                self.slots.remove(&item_id);
                                self.wanted = None;
                                return Report::NoAudio(item_id);
                            }
                            self.slots.insert(item_id, Slot::Failed);
                        }
                    }
                }
                else => std::future::pending::<()>().await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use yui_turn::voice::playback::TimerSink;

    /// Each sentence takes `len` chars × 100 ms to make and lasts 1 s;
    /// one containing `FAIL` has none.
    struct SlowVoice;

    impl Voice for SlowVoice {
        fn speak(&self, request: SpeechRequest) -> SoundFuture {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(100 * request.text.len() as u64)).await;
                if request.text.contains("FAIL") {
                    return Err(VoiceError::Gone("no voice".into()));
                }
                Ok(Sound::Timed(Duration::from_secs(1)))
            })
        }
        fn name(&self) -> &'static str {
            "slow"
        }
    }

    fn speaker(in_flight: usize) -> Speaker {
        let (sink, rx) = TimerSink::new();
        Speaker::new(Arc::new(SlowVoice), Box::new(sink), rx, in_flight)
    }

    #[tokio::test(start_paused = true)]
    async fn audio_made_ahead_plays_the_moment_it_is_asked_for() {
        let mut s = speaker(2);
        let t0 = tokio::time::Instant::now();
        s.synth(1, SpeechRequest::new("ab"));
        s.synth(2, SpeechRequest::new("abcd"));
        assert!(s.play(1).is_none());
        assert_eq!(s.next().await, Report::Sink(SinkEvent::Started(1)));
        assert_eq!(t0.elapsed(), Duration::from_millis(200), "played when made");
        assert_eq!(s.next().await, Report::Sink(SinkEvent::Finished(1)));
        assert_eq!(t0.elapsed(), Duration::from_millis(1200));
        // Item 2 was made in parallel (done at 400 ms): it plays at once,
        // started in the call that plays it.
        assert_eq!(s.play(2), Some(Report::Sink(SinkEvent::Started(2))));
        assert_eq!(t0.elapsed(), Duration::from_millis(1200));
    }

    #[tokio::test(start_paused = true)]
    async fn audio_made_later_reports_started_as_it_plays() {
        let mut s = speaker(1);
        s.synth(1, SpeechRequest::new("ab"));
        assert!(s.play(1).is_none(), "not made yet");
        assert_eq!(s.next().await, Report::Sink(SinkEvent::Started(1)));
        assert_eq!(s.next().await, Report::Sink(SinkEvent::Finished(1)));
    }

    #[tokio::test(start_paused = true)]
    async fn in_flight_is_bounded_and_started_in_order() {
        let mut s = speaker(1);
        let t0 = tokio::time::Instant::now();
        s.synth(1, SpeechRequest::new("abc"));
        s.synth(2, SpeechRequest::new("a"));
        assert!(s.play(2).is_none());
        assert_eq!(s.next().await, Report::Sink(SinkEvent::Started(2)));
        assert_eq!(t0.elapsed(), Duration::from_millis(400), "2 waited for 1's request");
    }

    #[tokio::test(start_paused = true)]
    async fn a_failed_sentence_reports_no_audio_now_or_when_it_fails() {
        let mut s = speaker(2);
        s.synth(1, SpeechRequest::new("FAIL"));
        s.synth(2, SpeechRequest::new("FAIL2"));
        assert!(s.play(1).is_none());
        assert_eq!(s.next().await, Report::NoAudio(1));
        tokio::time::sleep(Duration::from_secs(1)).await;
        // 2 failed while nobody waited; asking now answers at once.
        let more = tokio::time::timeout(Duration::from_millis(10), s.next()).await;
        assert!(more.is_err(), "a failure nobody waits for reports nothing");
        assert_eq!(s.play(2), Some(Report::NoAudio(2)));
        assert_eq!(s.play(99), Some(Report::NoAudio(99)), "an unknown item has no audio");
    }

    #[tokio::test(start_paused = true)]
    async fn a_halt_drops_what_is_being_made_and_silences_the_sink() {
        let mut s = speaker(2);
        s.synth(1, SpeechRequest::new("a"));
        s.synth(2, SpeechRequest::new("abcdef"));
        assert!(s.play(1).is_none());
        assert_eq!(s.next().await, Report::Sink(SinkEvent::Started(1)));
        s.halt();
        let more = tokio::time::timeout(Duration::from_secs(5), s.next()).await;
        assert!(more.is_err(), "no Finished for the halted item, no result for the dropped one");
        assert_eq!(s.play(2), Some(Report::NoAudio(2)), "dropped by the halt");
    }
}
