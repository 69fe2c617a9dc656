//! The microphone (`docs/voice.md`): a cpal input stream on the chosen device
//! or the default one, converted to 16 kHz mono ([`Resampler`]) and cut into
//! utterances ([`Segmenter`]), reported as [`Heard`] events on a Tokio
//! channel.
//!
//! cpal's stream is not `Send` on every platform, so it lives on a thread of
//! its own that the [`Microphone`] owns: the device callback only copies
//! samples into a channel; the thread resamples, runs the segmenter and
//! sends the events. Dropping the [`Microphone`] (or the event receiver)
//! stops the stream and ends the thread.
//!
//! On Linux cpal speaks ALSA; PulseAudio and PipeWire are reached through
//! ALSA's `default` device (libasound2-plugins), which is what the default
//! device is there.
//!
//! Logs: `mic_opened` (device, rate, channels, format), `mic_failed`
//! (kind, error) and `mic_closed`; the segmenter's `vad_utterance`.

use crate::vad::{Resampler, Segmenter, VadEvent};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc as std_mpsc, Arc};
use std::thread::JoinHandle;
use tokio::sync::mpsc;
use yui_engine::limits::{MIC_OPEN_WAIT, MIC_POLL};

/// What the microphone heard, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// The stream is open and listening (the pill shows "listening").
    Listening,
    /// Speech began.
    SpeechStarted,
    /// The speech went on long enough to count as barge-in: stop her
    /// playback like the stop button.
    Sustained,
    /// One utterance, 16 kHz mono, ready for [`crate::stt`]
    /// (the pill shows "transcribing" while it runs).
    Utterance(Vec<f32>),
    /// The microphone could not open or stopped working; nothing follows.
    Failed(MicError),
}

/// Why the microphone is not listening, as the pill shows it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MicError {
    /// The system refused access to the microphone.
    #[error("no permission to use the microphone")]
    NoPermission,
    /// There is no such input device (or none at all), or it went away.
    #[error("no microphone found")]
    NoDevice,
    /// Another program holds the device.
    #[error("the microphone is busy")]
    DeviceBusy,
    /// Anything else the audio system reported, as it said it.
    #[error("microphone failed: {0}")]
    Stream(String),
}

impl MicError {
    /// The short text of the status pill.
    pub fn message(&self) -> &'static str {
        match self {
            MicError::NoPermission => "No microphone permission",
            MicError::NoDevice => "No microphone",
            MicError::DeviceBusy => "Microphone busy",
            MicError::Stream(_) => "Microphone error",
        }
    }

    /// A short name of the failure for log records.
    pub fn kind(&self) -> &'static str {
        match self {
            MicError::NoPermission => "no_permission",
            MicError::NoDevice => "no_device",
            MicError::DeviceBusy => "device_busy",
            MicError::Stream(_) => "stream",
        }
    }

    /// The pill's view of a cpal error.
    pub fn from_cpal(e: &cpal::Error) -> Self {
        use cpal::ErrorKind as K;
        match e.kind() {
            K::PermissionDenied => MicError::NoPermission,
            K::DeviceNotAvailable | K::HostUnavailable => MicError::NoDevice,
            K::DeviceBusy => MicError::DeviceBusy,
            _ => MicError::Stream(e.to_string()),
        }
    }
}

/// The names of the input devices, for the settings' device list (the
/// default device first when it has a name; empty when the audio system
/// cannot be asked). Any of them can be given to [`Microphone::open`].
pub fn input_devices() -> Vec<String> {
    let host = cpal::default_host();
    let mut names: Vec<String> = Vec::new();
    if let Some(d) = host.default_input_device() {
        names.push(d.to_string());
    }
    if let Ok(devices) = host.input_devices() {
        for d in devices {
            let name = d.to_string();
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// Where the audio comes from and how eagerly speech is heard.
#[derive(Debug, Clone, PartialEq)]
pub struct MicConfig {
    /// The input device by the name [`input_devices`] gives (or its cpal
    /// id, `alsa:hw:0,0`); `None` (or blank) is the system default.
    pub device: Option<String>,
    /// VAD sensitivity 0..1 (see [`crate::vad::threshold`]).
    pub sensitivity: f32,
}

impl Default for MicConfig {
    /// The default device at sensitivity 0.5.
    fn default() -> Self {
        Self { device: None, sensitivity: 0.5 }
    }
}

/// An open microphone. Dropping it stops the stream (it waits for the
/// capture thread, at most [`MIC_OPEN_WAIT`] while the device is opening).
#[derive(Debug)]
pub struct Microphone {
    stop: Arc<AtomicBool>,
    release: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Microphone {
    /// Start listening with `cfg` on a thread of its own. The first event
    /// is [`Heard::Listening`] once the stream runs, or [`Heard::Failed`]
    /// when it cannot open; a later [`Heard::Failed`] means it stopped.
    /// The receiver ends when the microphone stops.
    pub fn open(cfg: MicConfig) -> (Microphone, mpsc::UnboundedReceiver<Heard>) {
        let (events, rx) = mpsc::unbounded_channel();
        let stop = Arc::new(AtomicBool::new(false));
        let release = Arc::new(AtomicBool::new(false));
        let flags = Flags { stop: stop.clone(), release: release.clone() };
        let thread = std::thread::Builder::new()
            .name("yui-mic".into())
            .spawn(move || run(cfg, flags, events))
            .map_err(|e| tracing::warn!(record = "mic_failed", kind = "stream", error = %e, "no microphone thread"))
            .ok();
        (Microphone { stop, release, thread }, rx)
    }

    /// The push-to-talk key went up: end the speech being collected now,
    /// without waiting for the silence. Its utterance follows as
    /// [`Heard::Utterance`] (none when it was too short or nobody spoke).
    pub fn release(&self) {
        self.release.store(true, Ordering::SeqCst);
    }
}

/// What the [`Microphone`] tells its thread.
struct Flags {
    stop: Arc<AtomicBool>,
    release: Arc<AtomicBool>,
}

impl Drop for Microphone {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the device callbacks hand the thread.
enum Captured {
    Samples(Vec<f32>),
    Error(cpal::Error),
}

fn find_device(host: &cpal::Host, name: Option<&str>) -> Result<cpal::Device, MicError> {
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    let Some(name) = name else {
        return host.default_input_device().ok_or(MicError::NoDevice);
    };
    let devices = host.input_devices().map_err(|e| MicError::from_cpal(&e))?;
    for d in devices {
        let id = d.id().map(|i| i.to_string()).unwrap_or_default();
        if d.to_string() == name || id == name {
            return Ok(d);
        }
    }
    Err(MicError::NoDevice)
}

fn build_stream<T>(device: &cpal::Device, config: cpal::StreamConfig, tx: std_mpsc::Sender<Captured>) -> Result<cpal::Stream, cpal::Error>
where
    T: cpal::SizedSample,
    f32: cpal::FromSample<T>,
{
    let errors = tx.clone();
    device.build_input_stream::<T, _, _>(
        config,
        move |data: &[T], _: &cpal::InputCallbackInfo| {
            let samples = data.iter().map(|s| cpal::Sample::to_sample::<f32>(*s)).collect();
            let _ = tx.send(Captured::Samples(samples));
        },
        move |e| {
            let _ = errors.send(Captured::Error(e));
        },
        Some(MIC_OPEN_WAIT),
    )
}

/// Open the device and its stream (kept on this thread).
fn open_stream(cfg: &MicConfig, tx: std_mpsc::Sender<Captured>) -> Result<(cpal::Stream, u32, u16), (MicError, String)> {
    let fail = |e: cpal::Error| (MicError::from_cpal(&e), e.to_string());
    let host = cpal::default_host();
    let device = find_device(&host, cfg.device.as_deref()).map_err(|e| {
        let text = e.to_string();
        (e, text)
    })?;
    let supported = device.default_input_config().map_err(fail)?;
    let rate = supported.sample_rate();
    let channels = supported.channels();
    let format = supported.sample_format();
    let config: cpal::StreamConfig = supported.into();
    use cpal::SampleFormat as F;
    let stream = match format {
        F::F32 => build_stream::<f32>(&device, config, tx),
        F::I16 => build_stream::<i16>(&device, config, tx),
        F::I32 => build_stream::<i32>(&device, config, tx),
        F::U16 => build_stream::<u16>(&device, config, tx),
        F::U8 => build_stream::<u8>(&device, config, tx),
        F::I8 => build_stream::<i8>(&device, config, tx),
        F::F64 => build_stream::<f64>(&device, config, tx),
        other => {
            let text = format!("unsupported sample format {other}");
            return Err((MicError::Stream(text.clone()), text));
        }
    }
    .map_err(fail)?;
    stream.play().map_err(fail)?;
    tracing::info!(
        record = "mic_opened",
        device = %device,
        rate,
        channels,
        format = %format,
        "microphone listening"
    );
    Ok((stream, rate, channels))
}

fn failed(events: &mpsc::UnboundedSender<Heard>, e: MicError, raw: &str) {
    tracing::warn!(record = "mic_failed", kind = e.kind(), error = %raw, "microphone failed");
    let _ = events.send(Heard::Failed(e));
}

fn send_events(events: &mpsc::UnboundedSender<Heard>, found: Vec<VadEvent>) {
    for event in found {
        let heard = match event {
            VadEvent::SpeechStarted => Heard::SpeechStarted,
            VadEvent::Sustained => Heard::Sustained,
            VadEvent::Utterance(u) => Heard::Utterance(u),
        };
        let _ = events.send(heard);
    }
}

/// The capture loop: audio in, events out, until stopped.
struct Capture {
    resampler: Resampler,
    segmenter: Segmenter,
    mono: Vec<f32>,
}

impl Capture {
    fn samples(&mut self, samples: &[f32], events: &mpsc::UnboundedSender<Heard>) {
        self.mono.clear();
        self.resampler.push(samples, &mut self.mono);
        send_events(events, self.segmenter.push(&self.mono));
    }

    /// Handle a stream error; `false` when the stream is over.
    fn error(&mut self, e: &cpal::Error, events: &mpsc::UnboundedSender<Heard>) -> bool {
        use cpal::ErrorKind as K;
        match e.kind() {
            // The stream goes on after these.
            K::Xrun | K::DeviceChanged | K::RealtimeDenied => {
                tracing::debug!(record = "mic_glitch", error = %e, "microphone glitch");
                true
            }
            _ => {
                failed(events, MicError::from_cpal(e), &e.to_string());
                false
            }
        }
    }
}

fn run(cfg: MicConfig, flags: Flags, events: mpsc::UnboundedSender<Heard>) {
    let (tx, rx) = std_mpsc::channel();
    let (stream, rate, channels) = match open_stream(&cfg, tx) {
        Ok(s) => s,
        Err((e, raw)) => return failed(&events, e, &raw),
    };
    let _ = events.send(Heard::Listening);
    let mut capture = Capture { resampler: Resampler::new(rate, channels), segmenter: Segmenter::new(cfg.sensitivity), mono: Vec::new() };
    'capture: while !flags.stop.load(Ordering::SeqCst) && !events.is_closed() {
        if flags.release.swap(false, Ordering::SeqCst) {
            // What the device already delivered belongs to the speech.
            while let Ok(captured) = rx.try_recv() {
                match captured {
                    Captured::Samples(samples) => capture.samples(&samples, &events),
                    Captured::Error(e) => {
                        if !capture.error(&e, &events) {
                            break 'capture;
                        }
                    }
                }
            }
            if let Some(u) = capture.segmenter.finish() {
                let _ = events.send(Heard::Utterance(u));
            }
        }
        match rx.recv_timeout(MIC_POLL) {
            Ok(Captured::Samples(samples)) => capture.samples(&samples, &events),
            Ok(Captured::Error(e)) => {
                if !capture.error(&e, &events) {
                    break;
                }
            }
            Err(std_mpsc::RecvTimeoutError::Timeout) => {}
            Err(std_mpsc::RecvTimeoutError::Disconnected) => {
                failed(&events, MicError::Stream("the stream ended".into()), "the stream ended");
                break;
            }
        }
    }
    drop(stream);
    tracing::info!(record = "mic_closed", "microphone closed");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpal_errors_map_to_the_pill() {
        let e = |k| MicError::from_cpal(&cpal::Error::new(k));
        assert_eq!(e(cpal::ErrorKind::PermissionDenied), MicError::NoPermission);
        assert_eq!(e(cpal::ErrorKind::DeviceNotAvailable), MicError::NoDevice);
        assert_eq!(e(cpal::ErrorKind::DeviceBusy), MicError::DeviceBusy);
        assert!(matches!(e(cpal::ErrorKind::BackendError), MicError::Stream(_)));
        assert_eq!(MicError::DeviceBusy.message(), "Microphone busy");
    }

    #[test]
    fn a_missing_device_is_no_device() {
        let (_mic, mut rx) = Microphone::open(MicConfig { device: Some("no such microphone, surely".into()), ..MicConfig::default() });
        assert_eq!(rx.blocking_recv(), Some(Heard::Failed(MicError::NoDevice)));
        assert_eq!(rx.blocking_recv(), None);
    }
}
