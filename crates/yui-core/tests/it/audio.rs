//! Real sound through [`CpalSink`] into a PulseAudio null sink, recorded
//! from its monitor (`docs/voice.md`).
//!
//! Ignored by default: it needs a sound server. Run it with
//!
//! ```sh
//! eval "$(scripts/sound-server.sh)"
//! cargo test -p yui-core --test audio -- --ignored --nocapture
//! pulseaudio --kill
//! ```
//!
//! (`scripts/test.sh` does this in its "Sound through a real sound server"
//! step.) Needs `pulseaudio`, `pulseaudio-utils` (parec), `espeak-ng` and
//! `libasound2-plugins` (ALSA's default device goes to PulseAudio). Run
//! without `PULSE_SERVER` set, it fails instead of passing vacuously.
//!
//! What it checks, with margins of a few hundred milliseconds:
//! 1. espeak-ng speech (system voice, decoded) is audible in the recording
//!    between `Started` and `Finished`, whose spacing matches the sound's
//!    duration; the mouth got levels at about the frame rate, some open,
//!    and a final 0.0;
//! 2. a 5 s tone halted after ~300 ms is silent in the recording from
//!    shortly after the halt on.

use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use yui_core::limits::LIP_LEVELS_PER_SECOND;
use yui_core::speech::audio::{CpalSink, LipFn};
use yui_core::speech::decode::decode;
use yui_core::speech::playback::{AudioSink, SinkEvent, Sound};
use yui_core::speech::system_voice::{speak_wav, SystemVoice};

/// Windows of the recording, for loudness: 10 ms.
const WINDOW: Duration = Duration::from_millis(10);
/// RMS a window must pass to count as sound (the null sink is digital
/// silence otherwise; the speech and tone are ~0.05 to 0.2).
const LOUD: f32 = 0.01;
/// RMS a window must stay under to count as silence.
const QUIET: f32 = 0.001;

/// `parec` recording the null sink's monitor into a WAV file.
struct Recorder {
    child: Child,
    path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Recorder {
    fn start() -> Recorder {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("monitor.wav");
        let child = Command::new("parec")
            .args(["-d", "null.monitor", "--file-format=wav"])
            .arg(&path)
            .stdout(Stdio::null())
            .spawn()
            .expect("parec (pulseaudio-utils) must be installed");
        let recorder = Recorder { child, path, _dir: dir };
        // Wait until parec writes: 0.3 s of 44.1 kHz stereo s16 past the
        // header, so the recording's silence precedes anything played.
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::fs::metadata(&recorder.path).map(|m| m.len()).unwrap_or(0) < 44 + 53_000 {
            assert!(Instant::now() < deadline, "parec wrote nothing within 10 s");
            std::thread::sleep(Duration::from_millis(20));
        }
        recorder
    }

    /// Stop with SIGINT (parec then finishes the WAV header); the recording
    /// as mono f32 and its rate.
    fn finish(mut self) -> (Vec<f32>, u32) {
        let pid = self.child.id().to_string();
        let status = Command::new("kill").args(["-INT", &pid]).status().unwrap();
        assert!(status.success());
        self.child.wait().unwrap();
        let mut reader = hound::WavReader::open(&self.path).expect("parec wrote a WAV");
        let spec = reader.spec();
        assert_eq!((spec.sample_format, spec.bits_per_sample), (hound::SampleFormat::Int, 16), "{spec:?}");
        let ch = usize::from(spec.channels);
        let samples: Vec<f32> = reader.samples::<i16>().map(|s| f32::from(s.unwrap()) / 32_768.0).collect();
        let mono = samples.chunks_exact(ch).map(|f| f.iter().sum::<f32>() / ch as f32).collect();
        (mono, spec.sample_rate)
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// RMS per [`WINDOW`] of the recording.
fn loudness(mono: &[f32], rate: u32) -> Vec<f32> {
    let n = (rate as usize * WINDOW.as_millis() as usize / 1_000).max(1);
    mono.chunks(n).map(|w| (w.iter().map(|s| s * s).sum::<f32>() / w.len() as f32).sqrt()).collect()
}

/// The window index of a time offset.
fn at(offset: Duration) -> usize {
    (offset.as_millis() / WINDOW.as_millis()) as usize
}

fn rms(windows: &[f32]) -> f32 {
    (windows.iter().map(|w| w * w).sum::<f32>() / windows.len().max(1) as f32).sqrt()
}

fn tone(secs: f32) -> Sound {
    let rate = 24_000;
    let samples: Vec<f32> = (0..(rate as f32 * secs) as usize).map(|i| (i as f32 * 440.0 * std::f32::consts::TAU / rate as f32).sin() * 0.3).collect();
    Sound::Pcm { sample_rate: rate, channels: 1, samples: samples.into() }
}

async fn next_event(rx: &mut tokio::sync::mpsc::UnboundedReceiver<SinkEvent>, wait: Duration) -> (SinkEvent, Instant) {
    let event =
        tokio::time::timeout(wait, rx.recv()).await.unwrap_or_else(|_| panic!("no sink event within {wait:?}")).expect("the sink's event channel stays open");
    (event, Instant::now())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a sound server: eval \"$(scripts/sound-server.sh)\" first"]
async fn speech_and_halt_through_a_real_sound_server() {
    assert!(std::env::var_os("PULSE_SERVER").is_some(), "PULSE_SERVER is not set: run eval \"$(scripts/sound-server.sh)\" first");
    let wav = speak_wav("Hello, I am Yui. Nice to meet you.", &SystemVoice::default()).await.expect("espeak-ng must be installed");
    let speech = decode(&wav, "audio/wav").unwrap();
    let speech_len = speech.duration();
    assert!(speech_len > Duration::from_millis(1_200), "{speech_len:?}");

    let lips: Arc<Mutex<Vec<(Instant, f32)>>> = Arc::default();
    let seen = lips.clone();
    let lip_fn: LipFn = Arc::new(move |level| seen.lock().unwrap().push((Instant::now(), level)));
    let (mut sink, mut events) = CpalSink::open(None, Some(lip_fn)).expect("the default output opens");
    eprintln!("device {:?} at {} Hz, {} channels", sink.device(), sink.sample_rate(), sink.channels());

    let recorder = Recorder::start();

    // 1. Speech.
    sink.play(1, speech);
    let (first, s1) = next_event(&mut events, Duration::from_secs(3)).await;
    assert_eq!(first, SinkEvent::Started(1));
    let (second, f1) = next_event(&mut events, speech_len + Duration::from_secs(3)).await;
    assert_eq!(second, SinkEvent::Finished(1));
    let heard = f1 - s1;
    let diff = heard.abs_diff(speech_len);
    assert!(diff < Duration::from_millis(500), "Started..Finished {heard:?} for {speech_len:?} of sound");
    tokio::time::sleep(Duration::from_millis(500)).await;

    // 2. A long tone, halted.
    sink.play(2, tone(5.0));
    let (third, s2) = next_event(&mut events, Duration::from_secs(3)).await;
    assert_eq!(third, SinkEvent::Started(2));
    tokio::time::sleep(Duration::from_millis(300)).await;
    sink.halt();
    let h = Instant::now();
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(events.try_recv().is_err(), "a halted item reports nothing more");
    let (mono, rate) = recorder.finish();
    drop(sink);

    let windows = loudness(&mono, rate);
    // The recording's clock: the first loud window is the speech's start.
    let onset = windows.iter().position(|w| *w > LOUD).expect("the recording has sound at all");
    let from_s1 = |t: Instant| onset + at(t - s1);
    eprintln!(
        "recording: {} windows, onset {onset}, finished {}, tone {}, halt {}; heard {heard:?} of {speech_len:?}",
        windows.len(),
        from_s1(f1),
        from_s1(s2),
        from_s1(h)
    );
    let speech_windows = &windows[onset..from_s1(f1).min(windows.len())];
    let speech_rms = rms(speech_windows);
    assert!(speech_rms > 0.02, "speech RMS {speech_rms} over {} windows", speech_windows.len());
    // Before the speech: the silence of the null sink.
    assert!(onset > 20, "the recording must start in silence (onset at window {onset})");
    let before = &windows[..onset - 5];
    assert!(before.iter().all(|w| *w < QUIET), "noise before the speech: {:?}", rms(before));
    // Nothing loud between the speech's end (Finished) and the tone.
    let gap = &windows[from_s1(f1) + 15..from_s1(s2).saturating_sub(15)];
    assert!(gap.iter().all(|w| *w < QUIET), "sound after Finished: {:?}", rms(gap));
    // The tone is heard from Started until the halt...
    let tone_on = &windows[from_s1(s2) + 15..from_s1(h).saturating_sub(10)];
    assert!(!tone_on.is_empty() && tone_on.iter().all(|w| *w > 0.1), "the tone before the halt: {tone_on:?}");
    // ...and silence from shortly after the halt to the end (> 1 s).
    let after = &windows[from_s1(h) + 25..];
    assert!(after.len() > 80, "the recording ends {} windows after the halt", after.len());
    let loud_after = after.iter().filter(|w| **w > QUIET).count();
    assert_eq!(loud_after, 0, "sound after the halt: {:?}", &after[..after.len().min(40)]);

    // Lips: about LIP_LEVELS_PER_SECOND levels during the speech, some open,
    // a 0.0 when it finished, and a 0.0 last of all (the halt).
    let lips = lips.lock().unwrap().clone();
    let during: Vec<f32> = lips.iter().filter(|(t, _)| *t >= s1 && *t < f1).map(|(_, l)| *l).collect();
    let expected = heard.as_secs_f32() * LIP_LEVELS_PER_SECOND as f32;
    let count = during.len() as f32;
    assert!(count > expected * 0.7 && count < expected * 1.3 + 2.0, "{count} levels in {heard:?}, expected ~{expected}");
    let open = during.iter().filter(|l| **l > 0.1).count();
    assert!(open as f32 > count * 0.3, "only {open} of {count} levels open the mouth: {during:?}");
    // The 0.0 comes just before Finished is sent; nothing between it and the tone.
    let before_tone: Vec<f32> = lips.iter().filter(|(t, _)| *t < s2).map(|(_, l)| *l).collect();
    assert_eq!(before_tone.last(), Some(&0.0), "a 0.0 when the speech finished");
    assert_eq!(lips.iter().filter(|(t, _)| *t > f1 && *t < s2).count(), 0, "levels after Finished");
    assert_eq!(lips.last().map(|(_, l)| *l), Some(0.0), "the halt closes the mouth");
    let after_halt = lips.iter().filter(|(t, _)| *t >= h + Duration::from_millis(5)).count();
    assert!(after_halt <= 1, "{after_halt} levels after the halt");
}
