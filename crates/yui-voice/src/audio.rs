//! The audio sink on a real output device (`docs/voice.md`): [`CpalSink`]
//! plays [`Sound`]s through cpal and reports their timing as the device
//! plays them.
//!
//! Three threads take part:
//!
//! * the caller's: [`CpalSink::play`] resamples the sound to the device's
//!   rate (linear interpolation) and channel count, and hands it over;
//! * the device's output callback: copies samples out, notes when an item's
//!   first samples go out and when its last ones have, and measures the RMS
//!   of what it plays in windows of 1/[`LIP_LEVELS_PER_SECOND`] s. It
//!   never blocks and never runs user code;
//! * a reporter: turns the callback's notes into [`SinkEvent`]s and
//!   [`LipFn`] calls at the moment the device plays them (the callback time
//!   plus the latency cpal reports), and drops the notes of a halted or
//!   replaced item.
//!
//! The cpal stream lives on a thread of its own (it is not `Send` on every
//! platform) until the sink is dropped.

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, OutputCallbackInfo, SampleFormat, SizedSample};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::mpsc as tokio_mpsc;
use yui_engine::limits::{AUDIO_ERROR_REPORT_EVERY, AUDIO_OPEN_WAIT, AUDIO_OUTPUT_BUFFER, LIP_LEVELS_PER_SECOND};
use yui_turn::voice::playback::{AudioSink, SinkEvent, Sound};

/// Receives the mouth level, 0.0 (closed) to 1.0 (wide open), about
/// [`LIP_LEVELS_PER_SECOND`] times a second while sound plays, and one
/// final 0.0 when an item finishes or the sink halts. Called on the sink's
/// reporter thread, never on the audio callback.
pub type LipFn = Arc<dyn Fn(f32) + Send + Sync>;

/// Mouth level per unit of RMS amplitude: speech at an RMS of 0.25 (loud)
/// opens the mouth fully, ordinary TTS speech (0.05 to 0.2) lands midway.
pub const LIP_GAIN: f32 = 4.0;
/// RMS below which the mouth stays closed (breath, dither, room noise).
pub const LIP_FLOOR: f32 = 0.01;

/// Why the audio output could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum AudioError {
    /// No such output device, or no output device at all.
    #[error("no audio output device {device:?}: {message}")]
    NoDevice {
        /// The device asked for (`default` for the system default).
        device: String,
        /// What cpal or the lookup said.
        message: String,
    },
    /// The device is in use by another program.
    #[error("the audio device {device:?} is busy: {message}")]
    DeviceBusy {
        /// The device.
        device: String,
        /// cpal's message.
        message: String,
    },
    /// The device offers no format this sink can write.
    #[error("the audio device {device:?} has no usable output format: {message}")]
    FormatUnsupported {
        /// The device.
        device: String,
        /// cpal's message.
        message: String,
    },
    /// The output stream could not be built or started.
    #[error("the audio stream on {device:?} failed: {message}")]
    StreamFailed {
        /// The device.
        device: String,
        /// cpal's message.
        message: String,
    },
}

impl AudioError {
    fn from_cpal(device: &str, err: &cpal::Error) -> AudioError {
        use cpal::ErrorKind as K;
        let (device, message) = (device.to_string(), err.to_string());
        match err.kind() {
            K::DeviceBusy => AudioError::DeviceBusy { device, message },
            K::UnsupportedConfig | K::UnsupportedOperation | K::InvalidInput => AudioError::FormatUnsupported { device, message },
            K::DeviceNotAvailable | K::HostUnavailable => AudioError::NoDevice { device, message },
            _ => AudioError::StreamFailed { device, message },
        }
    }
}

/// The names of the output devices of the default host, for the settings
/// UI; [`CpalSink::open`] takes one of them. Empty when none can be listed.
pub fn output_devices() -> Vec<String> {
    let host = cpal::default_host();
    match host.output_devices() {
        Ok(devices) => devices.filter_map(|d| device_name(&d)).collect(),
        Err(e) => {
            tracing::warn!(record = "audio_devices_failed", error = %e, "could not list audio outputs");
            Vec::new()
        }
    }
}

fn device_name(device: &cpal::Device) -> Option<String> {
    device.description().ok().map(|d| d.name().to_string())
}

/// What the sink tells the output callback.
enum Command {
    Play(Playing),
    Halt,
}

/// The item the callback is playing.
struct Playing {
    epoch: u64,
    id: u64,
    /// Device-rate, device-channel samples; `None` plays `frames` of silence.
    samples: Option<Arc<[f32]>>,
    frames: usize,
    pos: usize,
    started: bool,
}

/// What the callback (and the sink, for a halt) tells the reporter.
enum Note {
    Started { epoch: u64, id: u64, due: Instant },
    Level { epoch: u64, level: f32, due: Instant },
    Finished { epoch: u64, id: u64, due: Instant },
    Halt,
}

/// The output callback's state.
struct Render {
    commands: Receiver<Command>,
    notes: Sender<Note>,
    rate: u32,
    channels: usize,
    current: Option<Playing>,
    window: usize,
    sum_sq: f32,
    count: usize,
}

impl Render {
    /// Fill `out` (interleaved, device channels); `latency` is how long
    /// until the first frame of `out` is heard.
    fn fill(&mut self, out: &mut [f32], latency: Duration) {
        let base = Instant::now() + latency;
        while let Ok(cmd) = self.commands.try_recv() {
            self.sum_sq = 0.0;
            self.count = 0;
            self.current = match cmd {
                Command::Play(p) => Some(p),
                Command::Halt => None,
            };
        }
        out.fill(0.0);
        let Some(p) = self.current.as_mut() else { return };
        let ch = self.channels;
        let at = |frame: usize| base + Duration::from_secs_f64(frame as f64 / f64::from(self.rate));
        if !p.started {
            p.started = true;
            let _ = self.notes.send(Note::Started { epoch: p.epoch, id: p.id, due: base });
        }
        let n = (out.len() / ch).min(p.frames - p.pos);
        if let Some(samples) = &p.samples {
            out[..n * ch].copy_from_slice(&samples[p.pos * ch..(p.pos + n) * ch]);
        }
        for (f, frame) in out[..n * ch].chunks_exact(ch).enumerate() {
            let mono = frame.iter().sum::<f32>() / ch as f32;
            self.sum_sq += mono * mono;
            self.count += 1;
            if self.count >= self.window {
                let level = lip_level((self.sum_sq / self.count as f32).sqrt());
                let _ = self.notes.send(Note::Level { epoch: p.epoch, level, due: at(f + 1) });
                self.sum_sq = 0.0;
                self.count = 0;
            }
        }
        p.pos += n;
        if p.pos >= p.frames {
            let _ = self.notes.send(Note::Finished { epoch: p.epoch, id: p.id, due: at(n) });
            self.current = None;
            self.sum_sq = 0.0;
            self.count = 0;
        }
    }
}

/// The mouth level of an RMS amplitude.
pub fn lip_level(rms: f32) -> f32 {
    if rms.is_finite() && rms >= LIP_FLOOR {
        (rms * LIP_GAIN).min(1.0)
    } else {
        0.0
    }
}

/// Delivers notes when they are due, dropping those of an older epoch.
fn report(notes: Receiver<Note>, epoch: Arc<AtomicU64>, events: tokio_mpsc::UnboundedSender<SinkEvent>, lips: Option<LipFn>) {
    let lip = |level: f32| {
        if let Some(f) = &lips {
            f(level);
        }
    };
    let mut pending: VecDeque<Note> = VecDeque::new();
    loop {
        let received = match pending.front() {
            None => notes.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(note) => {
                let due = match note {
                    Note::Started { due, .. } | Note::Level { due, .. } | Note::Finished { due, .. } => *due,
                    Note::Halt => Instant::now(),
                };
                notes.recv_timeout(due.saturating_duration_since(Instant::now()))
            }
        };
        match received {
            Ok(Note::Halt) => {
                pending.clear();
                lip(0.0);
            }
            Ok(note) => pending.push_back(note),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
        let now = Instant::now();
        while let Some(note) = pending.front() {
            let (due, note_epoch) = match note {
                Note::Started { due, epoch, .. } | Note::Level { due, epoch, .. } | Note::Finished { due, epoch, .. } => (*due, *epoch),
                Note::Halt => (now, 0),
            };
            if due > now {
                break;
            }
            let note = pending.pop_front().expect("front exists");
            if note_epoch != epoch.load(Ordering::SeqCst) {
                continue;
            }
            match note {
                Note::Started { id, .. } => {
                    let _ = events.send(SinkEvent::Started(id));
                }
                Note::Level { level, .. } => lip(level),
                Note::Finished { id, .. } => {
                    lip(0.0);
                    let _ = events.send(SinkEvent::Finished(id));
                }
                Note::Halt => {}
            }
        }
    }
}

/// An [`AudioSink`] on a cpal output device. See the module docs.
pub struct CpalSink {
    device: String,
    rate: u32,
    channels: u16,
    epoch: Arc<AtomicU64>,
    commands: Sender<Command>,
    notes: Sender<Note>,
    stop: Option<Sender<()>>,
    stream_thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for CpalSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpalSink").field("device", &self.device).field("rate", &self.rate).field("channels", &self.channels).finish_non_exhaustive()
    }
}

/// What the stream thread answers once the stream runs.
struct Opened {
    device: String,
    rate: u32,
    channels: u16,
}

impl CpalSink {
    /// Open `device` (a name from [`output_devices`]; `None` is the
    /// system default) and start its output stream, playing silence. The
    /// receiver gets the sink's [`SinkEvent`]s; `lips` gets mouth levels.
    pub fn open(device: Option<&str>, lips: Option<LipFn>) -> Result<(CpalSink, tokio_mpsc::UnboundedReceiver<SinkEvent>), AudioError> {
        let wanted = device.unwrap_or("default").to_string();
        let (command_tx, command_rx) = mpsc::channel();
        let (note_tx, note_rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::channel::<Result<Opened, AudioError>>();
        let (stop_tx, stop_rx) = mpsc::channel::<()>();
        let name = device.map(str::to_string);
        let notes_for_callback = note_tx.clone();
        let stream_thread = std::thread::Builder::new()
            .name("yui-audio-out".into())
            .spawn(move || match start_stream(name.as_deref(), command_rx, notes_for_callback) {
                Ok((stream, opened)) => {
                    let _ = ready_tx.send(Ok(opened));
                    // Keep the stream until the sink goes.
                    let _ = stop_rx.recv();
                    drop(stream);
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                }
            })
            .map_err(|e| AudioError::StreamFailed { device: wanted.clone(), message: e.to_string() })?;
        let opened = match ready_rx.recv_timeout(AUDIO_OPEN_WAIT) {
            Ok(Ok(opened)) => opened,
            Ok(Err(e)) => {
                tracing::warn!(record = "audio_device_failed", device = %wanted, error = %e);
                let _ = stream_thread.join();
                return Err(e);
            }
            Err(_) => {
                let e = AudioError::StreamFailed { device: wanted.clone(), message: format!("the device did not open within {} s", AUDIO_OPEN_WAIT.as_secs()) };
                tracing::warn!(record = "audio_device_failed", device = %wanted, error = %e);
                return Err(e);
            }
        };
        let epoch = Arc::new(AtomicU64::new(0));
        let (event_tx, event_rx) = tokio_mpsc::unbounded_channel();
        let reporter_epoch = epoch.clone();
        std::thread::Builder::new()
            .name("yui-audio-report".into())
            .spawn(move || report(note_rx, reporter_epoch, event_tx, lips))
            .map_err(|e| AudioError::StreamFailed { device: opened.device.clone(), message: e.to_string() })?;
        let sink = CpalSink {
            device: opened.device,
            rate: opened.rate,
            channels: opened.channels,
            epoch,
            commands: command_tx,
            notes: note_tx,
            stop: Some(stop_tx),
            stream_thread: Some(stream_thread),
        };
        Ok((sink, event_rx))
    }

    /// The device's name.
    pub fn device(&self) -> &str {
        &self.device
    }

    /// The device's sample rate (frames per second).
    pub fn sample_rate(&self) -> u32 {
        self.rate
    }

    /// The device's channel count.
    pub fn channels(&self) -> u16 {
        self.channels
    }
}

impl AudioSink for CpalSink {
    fn play(&mut self, item_id: u64, audio: Sound) {
        let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        let (samples, frames) = match &audio {
            Sound::Timed(d) => (None, (d.as_secs_f64() * f64::from(self.rate)).round() as usize),
            Sound::Pcm { sample_rate, channels, samples } => {
                let out = convert(samples, *sample_rate, *channels, self.rate, self.channels);
                let frames = out.len() / usize::from(self.channels.max(1));
                (Some(Arc::from(out)), frames)
            }
        };
        let playing = Playing { epoch, id: item_id, samples, frames, pos: 0, started: false };
        let _ = self.commands.send(Command::Play(playing));
    }

    fn halt(&mut self) {
        self.epoch.fetch_add(1, Ordering::SeqCst);
        let _ = self.commands.send(Command::Halt);
        let _ = self.notes.send(Note::Halt);
    }
}

impl Drop for CpalSink {
    fn drop(&mut self) {
        self.halt();
        self.stop.take();
        if let Some(thread) = self.stream_thread.take() {
            let _ = thread.join();
        }
    }
}

/// Resample interleaved `samples` from `from_rate`/`from_ch` to
/// `to_rate`/`to_ch`: linear interpolation; mono spreads to every channel,
/// many channels average down to mono, otherwise channels map by position
/// (missing ones silent).
pub fn convert(samples: &[f32], from_rate: u32, from_ch: u16, to_rate: u32, to_ch: u16) -> Vec<f32> {
    let (fc, tc) = (usize::from(from_ch.max(1)), usize::from(to_ch.max(1)));
    let in_frames = samples.len() / fc;
    if in_frames == 0 || from_rate == 0 || to_rate == 0 {
        return Vec::new();
    }
    let out_frames = ((in_frames as u64 * u64::from(to_rate)).div_ceil(u64::from(from_rate))) as usize;
    let step = f64::from(from_rate) / f64::from(to_rate);
    let mut out = Vec::with_capacity(out_frames * tc);
    let at = |frame: usize, ch: usize| samples[frame.min(in_frames - 1) * fc + ch];
    for j in 0..out_frames {
        let t = j as f64 * step;
        let i = t.floor() as usize;
        let frac = (t - i as f64) as f32;
        let src = |ch: usize| at(i, ch) * (1.0 - frac) + at(i + 1, ch) * frac;
        for c in 0..tc {
            let v = if fc == tc {
                src(c)
            } else if fc == 1 {
                src(0)
            } else if tc == 1 {
                (0..fc).map(src).sum::<f32>() / fc as f32
            } else if c < fc {
                src(c)
            } else {
                0.0
            };
            out.push(v);
        }
    }
    out
}

/// Find the device, build its stream and start it (on the stream thread).
fn start_stream(name: Option<&str>, commands: Receiver<Command>, notes: Sender<Note>) -> Result<(cpal::Stream, Opened), AudioError> {
    let host = cpal::default_host();
    let device = match name {
        None => host
            .default_output_device()
            .ok_or_else(|| AudioError::NoDevice { device: "default".into(), message: format!("the {} host has no default output", host.id().name()) })?,
        Some(name) => {
            let devices = host.output_devices().map_err(|e| AudioError::from_cpal(name, &e))?;
            let mut seen = Vec::new();
            let mut found = None;
            for d in devices {
                let label = device_name(&d).unwrap_or_default();
                let id = d.id().map(|id| id.to_string()).unwrap_or_default();
                if label == name || id == name {
                    found = Some(d);
                    break;
                }
                seen.push(label);
            }
            found.ok_or_else(|| AudioError::NoDevice { device: name.into(), message: format!("not among the outputs ({})", seen.join(", ")) })?
        }
    };
    let label = device_name(&device).unwrap_or_else(|| name.unwrap_or("default").to_string());
    let supported = device.default_output_config().map_err(|e| AudioError::from_cpal(&label, &e))?;
    let format = supported.sample_format();
    let mut config = supported.config();
    let wanted = (AUDIO_OUTPUT_BUFFER.as_secs_f64() * f64::from(config.sample_rate)).round() as u32;
    let fixed = match supported.buffer_size() {
        cpal::SupportedBufferSize::Range { min, max } => Some(wanted.clamp(*min, *max)),
        cpal::SupportedBufferSize::Unknown => None,
    };
    let window = (config.sample_rate / LIP_LEVELS_PER_SECOND.max(1)).max(1) as usize;
    let render =
        Render { commands, notes, rate: config.sample_rate, channels: usize::from(config.channels.max(1)), current: None, window, sum_sq: 0.0, count: 0 };
    let render = Arc::new(std::sync::Mutex::new(render));
    let build = |config: cpal::StreamConfig| -> Result<cpal::Stream, cpal::Error> {
        let r = render.clone();
        match format {
            SampleFormat::F32 => build_stream::<f32>(&device, config, r),
            SampleFormat::F64 => build_stream::<f64>(&device, config, r),
            SampleFormat::I16 => build_stream::<i16>(&device, config, r),
            SampleFormat::I32 => build_stream::<i32>(&device, config, r),
            SampleFormat::I8 => build_stream::<i8>(&device, config, r),
            SampleFormat::U8 => build_stream::<u8>(&device, config, r),
            SampleFormat::U16 => build_stream::<u16>(&device, config, r),
            SampleFormat::U32 => build_stream::<u32>(&device, config, r),
            SampleFormat::I24 => build_stream::<cpal::I24>(&device, config, r),
            other => Err(cpal::Error::with_message(cpal::ErrorKind::UnsupportedConfig, format!("sample format {other} is not written by this client"))),
        }
    };
    let stream = match fixed {
        Some(frames) => {
            config.buffer_size = cpal::BufferSize::Fixed(frames);
            build(config).or_else(|_| {
                config.buffer_size = cpal::BufferSize::Default;
                build(config)
            })
        }
        None => build(config),
    }
    .map_err(|e| AudioError::from_cpal(&label, &e))?;
    stream.play().map_err(|e| AudioError::from_cpal(&label, &e))?;
    tracing::info!(
        record = "audio_device_opened",
        device = %label,
        rate = config.sample_rate,
        channels = config.channels,
        format = %format,
        buffer = ?config.buffer_size,
    );
    Ok((stream, Opened { device: label, rate: config.sample_rate, channels: config.channels }))
}

fn build_stream<T>(device: &cpal::Device, config: cpal::StreamConfig, render: Arc<std::sync::Mutex<Render>>) -> Result<cpal::Stream, cpal::Error>
where
    T: SizedSample + FromSample<f32>,
{
    let mut scratch: Vec<f32> = Vec::new();
    device.build_output_stream(
        config,
        move |data: &mut [T], info: &OutputCallbackInfo| {
            let ts = info.timestamp();
            let latency = ts.playback.duration_since(ts.callback);
            if scratch.len() < data.len() {
                scratch.resize(data.len(), 0.0);
            }
            let scratch = &mut scratch[..data.len()];
            // Only this callback locks the render state after the build.
            match render.lock() {
                Ok(mut r) => r.fill(scratch, latency),
                Err(_) => scratch.fill(0.0),
            }
            for (out, s) in data.iter_mut().zip(scratch.iter()) {
                *out = T::from_sample(*s);
            }
        },
        {
            let mut errors = ErrorRun::default();
            move |e: cpal::Error| errors.note(&e.to_string(), Instant::now())
        },
        None,
    )
}

/// The stream's errors, logged without flooding: the first of a kind at
/// once (`audio_stream_error`), the same one again only every
/// [`AUDIO_ERROR_REPORT_EVERY`] with how many came meanwhile
/// (`audio_stream_error_repeated`).
#[derive(Default)]
struct ErrorRun {
    /// The error being counted, and when it was last logged.
    current: Option<(String, Instant)>,
    /// How many times it came since it was last logged.
    unlogged: u64,
}

impl ErrorRun {
    /// Error `error` came at `now`; logs it when due.
    fn note(&mut self, error: &str, now: Instant) {
        match self.due(error, now) {
            Some(0) => tracing::warn!(record = "audio_stream_error", error = %error),
            Some(repeats) => tracing::warn!(record = "audio_stream_error_repeated", error = %error, repeats),
            None => {}
        }
    }

    /// Whether `error` at `now` is logged: `Some(0)` for a new one,
    /// `Some(n)` when it came `n` times unlogged since it was last logged,
    /// `None` while it is counted.
    fn due(&mut self, error: &str, now: Instant) -> Option<u64> {
        match &self.current {
            Some((same, at)) if same == error => {
                self.unlogged += 1;
                if now.duration_since(*at) < AUDIO_ERROR_REPORT_EVERY {
                    return None;
                }
                let repeats = std::mem::take(&mut self.unlogged);
                self.current = Some((error.to_string(), now));
                Some(repeats)
            }
            _ => {
                self.current = Some((error.to_string(), now));
                self.unlogged = 0;
                Some(0)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_that_keeps_failing_is_logged_once_then_counted() {
        let mut run = ErrorRun::default();
        let t0 = Instant::now();
        assert_eq!(run.due("I/O error", t0), Some(0), "the first one is logged");
        for i in 1..=500 {
            assert_eq!(run.due("I/O error", t0 + Duration::from_millis(i)), None, "the same one again is counted");
        }
        assert_eq!(run.due("underrun", t0 + Duration::from_secs(1)), Some(0), "another kind is logged at once");
        assert_eq!(run.due("underrun", t0 + Duration::from_secs(2)), None);
        assert_eq!(run.due("underrun", t0 + Duration::from_secs(1) + AUDIO_ERROR_REPORT_EVERY), Some(2), "then with how many came");
        assert_eq!(run.due("underrun", t0 + Duration::from_secs(2) + AUDIO_ERROR_REPORT_EVERY), None);
    }

    fn render(rate: u32, channels: usize) -> (Render, Sender<Command>, Receiver<Note>) {
        let (command_tx, commands) = mpsc::channel();
        let (notes, note_rx) = mpsc::channel();
        let window = (rate / LIP_LEVELS_PER_SECOND) as usize;
        let r = Render { commands, notes, rate, channels, current: None, window, sum_sq: 0.0, count: 0 };
        (r, command_tx, note_rx)
    }

    fn play(epoch: u64, id: u64, samples: Vec<f32>, channels: usize) -> Command {
        let frames = samples.len() / channels;
        Command::Play(Playing { epoch, id, samples: Some(samples.into()), frames, pos: 0, started: false })
    }

    #[test]
    fn convert_keeps_duration_and_spreads_mono() {
        let mono: Vec<f32> = (0..24_000).map(|i| (i % 100) as f32 / 100.0).collect();
        let out = convert(&mono, 24_000, 1, 48_000, 2);
        assert_eq!(out.len(), 48_000 * 2);
        assert!(out.chunks(2).all(|f| f[0] == f[1]));
        // Linear interpolation: the odd output frames sit between inputs.
        assert_eq!(out[0], mono[0]);
        assert!((out[2] - (mono[0] + mono[1]) / 2.0).abs() < 1e-6);
        assert_eq!(out[4], mono[1]);
    }

    #[test]
    fn convert_downsamples_and_mixes_stereo_to_mono() {
        let stereo: Vec<f32> = (0..44_100).flat_map(|_| [0.5f32, -0.1]).collect();
        let out = convert(&stereo, 44_100, 2, 22_050, 1);
        assert_eq!(out.len(), 22_050);
        assert!(out.iter().all(|s| (s - 0.2).abs() < 1e-6));
        assert!(convert(&[], 24_000, 1, 48_000, 2).is_empty());
    }

    #[test]
    fn lip_level_is_gated_scaled_and_capped() {
        assert_eq!(lip_level(0.0), 0.0);
        assert_eq!(lip_level(LIP_FLOOR / 2.0), 0.0);
        assert!((lip_level(0.1) - 0.1 * LIP_GAIN).abs() < 1e-6);
        assert_eq!(lip_level(0.9), 1.0);
        assert_eq!(lip_level(f32::NAN), 0.0);
    }

    #[test]
    fn the_callback_notes_start_levels_and_finish_of_the_samples_it_plays() {
        let (mut r, commands, notes) = render(3_000, 2);
        // 0.25 s at 3 kHz stereo, amplitude 0.5 square wave: RMS 0.5.
        let samples: Vec<f32> = (0..750).flat_map(|i| if i % 2 == 0 { [0.5, 0.5] } else { [-0.5, -0.5] }).collect();
        commands.send(play(7, 42, samples, 2)).unwrap();
        let mut out = vec![1.0f32; 2 * 512];
        r.fill(&mut out, Duration::ZERO);
        assert!(out.iter().all(|s| s.abs() == 0.5), "the item's samples went out");
        r.fill(&mut out, Duration::ZERO);
        assert!(out[..2 * 238].iter().all(|s| s.abs() == 0.5));
        assert!(out[2 * 238..].iter().all(|s| *s == 0.0), "silence after the end");
        let notes: Vec<Note> = notes.try_iter().collect();
        assert!(matches!(notes.first(), Some(Note::Started { epoch: 7, id: 42, .. })));
        assert!(matches!(notes.last(), Some(Note::Finished { epoch: 7, id: 42, .. })));
        let levels: Vec<f32> = notes.iter().filter_map(|n| if let Note::Level { level, .. } = n { Some(*level) } else { None }).collect();
        // 750 frames in windows of 100: seven full windows.
        assert_eq!(levels.len(), 7);
        assert!(levels.iter().all(|l| *l == 1.0), "{levels:?}");
    }

    #[test]
    fn a_halt_silences_the_next_callback_and_notes_nothing_more() {
        let (mut r, commands, notes) = render(8_000, 1);
        commands.send(play(1, 5, vec![0.3; 8_000], 1)).unwrap();
        let mut out = vec![0.0f32; 256];
        r.fill(&mut out, Duration::ZERO);
        assert!(out.iter().all(|s| *s == 0.3));
        commands.send(Command::Halt).unwrap();
        let before = notes.try_iter().count();
        assert!(before >= 1);
        r.fill(&mut out, Duration::ZERO);
        assert!(out.iter().all(|s| *s == 0.0));
        assert_eq!(notes.try_iter().count(), 0);
    }

    #[test]
    fn timed_sound_plays_silence_for_its_length() {
        let (mut r, commands, notes) = render(1_000, 1);
        commands.send(Command::Play(Playing { epoch: 1, id: 9, samples: None, frames: 300, pos: 0, started: false })).unwrap();
        let mut out = vec![1.0f32; 128];
        let mut calls = 0;
        while !notes.try_iter().any(|n| matches!(n, Note::Finished { id: 9, .. })) {
            r.fill(&mut out, Duration::ZERO);
            assert!(out.iter().all(|s| *s == 0.0));
            calls += 1;
            assert!(calls < 10);
        }
        assert_eq!(calls, 3, "300 frames take three 128-frame callbacks");
    }

    #[test]
    fn the_reporter_drops_notes_of_a_halted_epoch_and_closes_the_mouth() {
        let (note_tx, note_rx) = mpsc::channel();
        let epoch = Arc::new(AtomicU64::new(2));
        let (event_tx, mut events) = tokio_mpsc::unbounded_channel();
        let levels = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = levels.clone();
        let lips: LipFn = Arc::new(move |l| seen.lock().unwrap().push(l));
        let reporter = {
            let epoch = epoch.clone();
            std::thread::spawn(move || report(note_rx, epoch, event_tx, Some(lips)))
        };
        let now = Instant::now();
        note_tx.send(Note::Started { epoch: 1, id: 1, due: now }).unwrap(); // stale
        note_tx.send(Note::Started { epoch: 2, id: 2, due: now }).unwrap();
        note_tx.send(Note::Level { epoch: 2, level: 0.5, due: now + Duration::from_millis(20) }).unwrap();
        note_tx.send(Note::Finished { epoch: 2, id: 2, due: now + Duration::from_millis(40) }).unwrap();
        std::thread::sleep(Duration::from_millis(80));
        // Due long after the halt: never delivered.
        note_tx.send(Note::Level { epoch: 2, level: 0.9, due: Instant::now() + Duration::from_secs(5) }).unwrap();
        epoch.store(3, Ordering::SeqCst);
        note_tx.send(Note::Halt).unwrap();
        drop(note_tx);
        reporter.join().unwrap();
        let mut got = Vec::new();
        while let Ok(e) = events.try_recv() {
            got.push(e);
        }
        assert_eq!(got, [SinkEvent::Started(2), SinkEvent::Finished(2)]);
        assert_eq!(*levels.lock().unwrap(), [0.5, 0.0, 0.0]);
    }
}
