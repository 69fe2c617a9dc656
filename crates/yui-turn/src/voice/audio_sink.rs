//! Where a sentence's sound goes: [`Sound`] (decoded PCM, or a length
//! only), the [`AudioSink`] port with its [`SinkEvent`] reports, and
//! [`TimerSink`], the sink that plays nothing and keeps real timing. The
//! playback queue (`playback.rs`) hands sounds to a sink and is driven by
//! its reports.

use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// What the audio sink reports about an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SinkEvent {
    /// The item's first sample is audible.
    Started(u64),
    /// The item's last sample played.
    Finished(u64),
}

/// Audio for the sink: decoded PCM, or a duration-only stand-in.
#[derive(Debug, Clone, PartialEq)]
pub enum Sound {
    /// Interleaved f32 samples.
    Pcm {
        /// Frames per second.
        sample_rate: u32,
        /// Interleaved channels.
        channels: u16,
        /// The samples.
        samples: Arc<[f32]>,
    },
    /// Sound of this length and no samples (tests, stand-ins).
    Timed(Duration),
}

impl Sound {
    /// How long the sound plays.
    pub fn duration(&self) -> Duration {
        match self {
            Sound::Timed(d) => *d,
            Sound::Pcm { sample_rate, channels, samples } => {
                let per_sec = u64::from(*sample_rate) * u64::from((*channels).max(1));
                if per_sec == 0 {
                    return Duration::ZERO;
                }
                Duration::from_nanos((samples.len() as u64).saturating_mul(1_000_000_000) / per_sec)
            }
        }
    }
}

/// Where sound goes. Reports [`SinkEvent`]s for each item it plays, through a
/// channel of its own; the driver feeds them to
/// [`crate::voice::playback::Playback::on_sink`].
pub trait AudioSink: Send {
    /// Play `audio` as `item_id`, replacing anything playing.
    fn play(&mut self, item_id: u64, audio: Sound);
    /// Stop at once; the halted item reports nothing more.
    fn halt(&mut self);
    /// Play as [`AudioSink::play`] does, answering `Started` here when the
    /// sink starts without waiting (it then does not send it again); the
    /// default sends every report through the channel and answers `None`.
    fn play_now(&mut self, item_id: u64, audio: Sound) -> Option<SinkEvent> {
        self.play(item_id, audio);
        None
    }
}

/// A sink that plays nothing and keeps real timing: reports `Started` at
/// once and `Finished` after the sound's duration on tokio's clock. Tests
/// use it on the paused clock; `audio=null` and the voice switched off (a
/// [`Sound::Timed`] of reading time) use it on the real one. Needs a tokio
/// runtime.
#[derive(Debug)]
pub struct TimerSink {
    tx: mpsc::UnboundedSender<SinkEvent>,
    current: Option<tokio::task::JoinHandle<()>>,
}

impl TimerSink {
    /// A sink and the receiver of its reports.
    pub fn new() -> (Self, mpsc::UnboundedReceiver<SinkEvent>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Self { tx, current: None }, rx)
    }
}

impl TimerSink {
    /// Start `item_id` without reporting it: `Finished` after the sound's
    /// length, from a task a halt aborts (so a halted item reports nothing
    /// more, even a sound of no length).
    fn start(&mut self, item_id: u64, audio: &Sound) {
        self.halt();
        let len = audio.duration();
        let tx = self.tx.clone();
        self.current = Some(tokio::spawn(async move {
            tokio::time::sleep(len).await;
            let _ = tx.send(SinkEvent::Finished(item_id));
        }));
    }
}

impl AudioSink for TimerSink {
    fn play(&mut self, item_id: u64, audio: Sound) {
        self.halt();
        let _ = self.tx.send(SinkEvent::Started(item_id));
        self.start(item_id, &audio);
    }

    /// Starts at once: `Started` is the answer, not a message.
    fn play_now(&mut self, item_id: u64, audio: Sound) -> Option<SinkEvent> {
        self.start(item_id, &audio);
        Some(SinkEvent::Started(item_id))
    }

    fn halt(&mut self) {
        if let Some(task) = self.current.take() {
            task.abort();
        }
    }
}

impl Drop for TimerSink {
    fn drop(&mut self) {
        self.halt();
    }
}
