//! Voice activity: turning a stream of 16 kHz mono samples into utterances
//! (`docs/voice.md`).
//!
//! [`Segmenter`] is pure and sample-driven: feed it audio in chunks of any
//! size with [`Segmenter::push`] and it answers [`VadEvent`]s. Each
//! [`VAD_FRAME_SAMPLES`]-sample frame (16 ms) is scored by earshot's
//! detector (pure Rust, a small built-in network, nothing downloaded) and
//! counts as voiced when the score reaches the threshold the sensitivity
//! sets. [`VAD_SPEECH_START`] of voiced frames in a row start speech; the
//! utterance is the speech plus [`VAD_PRE_ROLL`] in front and ends after
//! [`VAD_HANGOVER`] of silence, keeping [`VAD_POST_ROLL`] of it. Shorter
//! speech than [`UTTERANCE_MIN`] is dropped; [`UTTERANCE_MAX`] forces a cut.
//!
//! [`Resampler`] (and [`resample_to_16k_mono`] for a whole buffer) brings a
//! device's interleaved audio at its own rate to 16 kHz mono first.
//!
//! Logs: `vad_utterance` (ms, speech_ms, cut) and `vad_dropped` (speech_ms).

use std::collections::VecDeque;
use std::time::Duration;
use yui_engine::limits::{
    BARGE_IN_SPEECH, UTTERANCE_MAX, UTTERANCE_MIN, VAD_FRAME_SAMPLES, VAD_HANGOVER, VAD_LEVEL_FLOOR, VAD_POST_ROLL, VAD_PRE_ROLL, VAD_SAMPLE_RATE,
    VAD_SPEECH_START,
};

/// What the segmenter noticed in the audio just pushed.
#[derive(Debug, Clone, PartialEq)]
pub enum VadEvent {
    /// Speech began (after [`VAD_SPEECH_START`] of voiced audio).
    SpeechStarted,
    /// The speech went on for [`BARGE_IN_SPEECH`] of voiced audio: once per
    /// stretch of speech, the barge-in signal.
    Sustained,
    /// One finished utterance, 16 kHz mono: the pre-roll, the speech and a
    /// little of the silence after it.
    Utterance(Vec<f32>),
}

/// Frames in `d` (at least one).
fn frames(d: Duration) -> usize {
    let samples = d.as_secs_f64() * VAD_SAMPLE_RATE as f64;
    ((samples / VAD_FRAME_SAMPLES as f64).round() as usize).max(1)
}

/// Milliseconds of `samples` at 16 kHz.
fn ms(samples: usize) -> u64 {
    samples as u64 * 1000 / VAD_SAMPLE_RATE as u64
}

/// The detector score a frame needs to count as voiced, for `sensitivity`
/// 0..1 (clamped; not a number counts as 0.5): 0.85 at 0 (only clear
/// speech), 0.65 at 0.5, 0.45 at 1 (soft speech, and false starts in loud
/// noise). Measured on espeak-ng speech, earshot scores voiced frames
/// around 0.95, digital silence under 0.3 and white noise at -26 dBFS up
/// to 0.6, so the range stays above the noise.
pub fn threshold(sensitivity: f32) -> f32 {
    let s = if sensitivity.is_finite() { sensitivity.clamp(0.0, 1.0) } else { 0.5 };
    0.85 - 0.4 * s
}

/// The state of the speech being collected.
struct Speech {
    /// Everything since the pre-roll, frame by frame.
    samples: Vec<f32>,
    /// Length of `samples` at the end of the last voiced frame.
    voiced_end: usize,
    /// Where the speech proper began in `samples` (after the pre-roll).
    speech_start: usize,
    /// Voiced frames since the speech started.
    voiced_frames: usize,
    /// Unvoiced frames in a row at the end.
    silent_run: usize,
    /// [`VadEvent::Sustained`] went out for this stretch of speech.
    sustained: bool,
}

/// The voice-activity segmenter over 16 kHz mono `f32` audio.
pub struct Segmenter {
    detector: Box<earshot::Detector>,
    threshold: f32,
    /// Samples that do not fill a frame yet.
    partial: Vec<f32>,
    /// The last [`VAD_PRE_ROLL`] of frames while nobody speaks.
    pre_roll: VecDeque<Vec<f32>>,
    /// Voiced frames in a row while nobody speaks (they are in `pre_roll`).
    voiced_run: usize,
    speech: Option<Speech>,
    start_frames: usize,
    pre_roll_frames: usize,
    hangover_frames: usize,
    post_roll_frames: usize,
    sustained_frames: usize,
    min_samples: usize,
    max_samples: usize,
}

impl std::fmt::Debug for Segmenter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Segmenter").field("threshold", &self.threshold).field("speaking", &self.speech.is_some()).finish_non_exhaustive()
    }
}

impl Segmenter {
    /// A segmenter at `sensitivity` 0..1 (0.5 is a good default; see
    /// [`threshold`]).
    pub fn new(sensitivity: f32) -> Self {
        let pre_roll_frames = frames(VAD_PRE_ROLL);
        Self {
            detector: earshot::Detector::default_boxed(),
            threshold: threshold(sensitivity),
            partial: Vec::with_capacity(VAD_FRAME_SAMPLES),
            pre_roll: VecDeque::with_capacity(pre_roll_frames + 1),
            voiced_run: 0,
            speech: None,
            start_frames: frames(VAD_SPEECH_START),
            pre_roll_frames,
            hangover_frames: frames(VAD_HANGOVER),
            post_roll_frames: frames(VAD_POST_ROLL),
            sustained_frames: frames(BARGE_IN_SPEECH),
            min_samples: (UTTERANCE_MIN.as_secs_f64() * VAD_SAMPLE_RATE as f64) as usize,
            max_samples: (UTTERANCE_MAX.as_secs_f64() * VAD_SAMPLE_RATE as f64) as usize,
        }
    }

    /// Whether speech is being collected now (between
    /// [`VadEvent::SpeechStarted`] and its utterance).
    pub fn speaking(&self) -> bool {
        self.speech.is_some()
    }

    /// Forget everything: the detector's state, the pre-roll and any speech
    /// being collected (no utterance comes out of it).
    pub fn reset(&mut self) {
        self.detector.reset();
        self.partial.clear();
        self.pre_roll.clear();
        self.voiced_run = 0;
        self.speech = None;
    }

    /// Feed 16 kHz mono samples (any number); answers what happened in them,
    /// in order.
    pub fn push(&mut self, samples_16k: &[f32]) -> Vec<VadEvent> {
        let mut events = Vec::new();
        let mut rest = samples_16k;
        while !rest.is_empty() {
            let take = (VAD_FRAME_SAMPLES - self.partial.len()).min(rest.len());
            self.partial.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.partial.len() == VAD_FRAME_SAMPLES {
                let frame = std::mem::replace(&mut self.partial, Vec::with_capacity(VAD_FRAME_SAMPLES));
                self.frame(frame, &mut events);
            }
        }
        events
    }

    /// Flush the speech being collected as if the silence had come: its
    /// utterance, if long enough (for a push-to-talk release).
    pub fn finish(&mut self) -> Option<Vec<f32>> {
        let partial = std::mem::take(&mut self.partial);
        let mut speech = self.speech.take()?;
        speech.samples.extend_from_slice(&partial);
        self.pre_roll.clear();
        self.voiced_run = 0;
        self.end(speech, false)
    }

    fn score(&mut self, frame: &[f32]) -> f32 {
        let pcm: Vec<i16> = frame.iter().map(|&s| if s.is_finite() { (s.clamp(-1.0, 1.0) * i16::MAX as f32) as i16 } else { 0 }).collect();
        self.detector.predict_i16(&pcm)
    }

    fn frame(&mut self, frame: Vec<f32>, events: &mut Vec<VadEvent>) {
        let energy = frame.iter().map(|s| s * s).sum::<f32>() / frame.len() as f32;
        // Below the floor nothing is speech, whatever the detector says
        // (it scores near-silence erratically).
        // The detector sees every frame: it keeps context across them.
        let score = self.score(&frame);
        let voiced = energy.sqrt() >= VAD_LEVEL_FLOOR && score >= self.threshold;
        match self.speech.as_mut() {
            None => {
                self.voiced_run = if voiced { self.voiced_run + 1 } else { 0 };
                self.pre_roll.push_back(frame);
                // The pre-roll plus the voiced frames that start the speech.
                while self.pre_roll.len() > self.pre_roll_frames + self.voiced_run {
                    self.pre_roll.pop_front();
                }
                if self.voiced_run >= self.start_frames {
                    let run = self.voiced_run;
                    let samples: Vec<f32> = self.pre_roll.drain(..).flatten().collect();
                    let speech_start = samples.len() - run * VAD_FRAME_SAMPLES;
                    self.voiced_run = 0;
                    self.speech = Some(Speech { voiced_end: samples.len(), samples, speech_start, voiced_frames: run, silent_run: 0, sustained: false });
                    events.push(VadEvent::SpeechStarted);
                    self.check_sustained(events);
                }
            }
            Some(speech) => {
                speech.samples.extend_from_slice(&frame);
                if voiced {
                    speech.voiced_frames += 1;
                    speech.silent_run = 0;
                    speech.voiced_end = speech.samples.len();
                    self.check_sustained(events);
                } else {
                    speech.silent_run += 1;
                }
                let speech = self.speech.as_ref().expect("still speaking");
                if speech.silent_run >= self.hangover_frames {
                    let speech = self.speech.take().expect("still speaking");
                    events.extend(self.end(speech, false).map(VadEvent::Utterance));
                } else if speech.samples.len() >= self.max_samples {
                    // Cut here and go on collecting the same stretch of speech.
                    let speech = self.speech.as_mut().expect("still speaking");
                    let samples = std::mem::take(&mut speech.samples);
                    let cut = Speech {
                        voiced_end: samples.len(),
                        samples,
                        speech_start: speech.speech_start,
                        voiced_frames: speech.voiced_frames,
                        silent_run: 0,
                        sustained: speech.sustained,
                    };
                    speech.voiced_end = 0;
                    speech.speech_start = 0;
                    events.extend(self.end(cut, true).map(VadEvent::Utterance));
                }
            }
        }
    }

    fn check_sustained(&mut self, events: &mut Vec<VadEvent>) {
        if let Some(speech) = self.speech.as_mut() {
            if !speech.sustained && speech.voiced_frames >= self.sustained_frames {
                speech.sustained = true;
                events.push(VadEvent::Sustained);
            }
        }
    }

    /// The utterance of `speech`: up to the last voiced frame plus the
    /// post-roll; `None` when its speech is under [`UTTERANCE_MIN`].
    fn end(&self, mut speech: Speech, cut: bool) -> Option<Vec<f32>> {
        let speech_len = speech.voiced_end.saturating_sub(speech.speech_start);
        if speech_len < self.min_samples {
            tracing::debug!(record = "vad_dropped", speech_ms = ms(speech_len), "speech too short; dropped");
            return None;
        }
        let keep = (speech.voiced_end + self.post_roll_frames * VAD_FRAME_SAMPLES).min(speech.samples.len());
        speech.samples.truncate(keep);
        tracing::info!(record = "vad_utterance", ms = ms(speech.samples.len()), speech_ms = ms(speech_len), cut, "utterance heard");
        Some(speech.samples)
    }
}

/// A streaming converter from a device's interleaved samples at any rate
/// and channel count to 16 kHz mono: channels are averaged, a box filter as
/// wide as the rate ratio keeps the worst aliasing out, and output samples
/// are linearly interpolated. It keeps its phase across pushes, so chunks
/// join without clicks.
#[derive(Debug, Clone)]
pub struct Resampler {
    channels: usize,
    /// Input samples per output sample.
    step: f64,
    /// Where the next output sample falls, in input samples after `prev`.
    pos: f64,
    prev: Option<f32>,
    window: VecDeque<f32>,
    width: usize,
    sum: f32,
}

impl Resampler {
    /// A converter from `rate` Hz with `channels` interleaved channels (0
    /// counts as 1; a rate of 0 as 16 kHz).
    pub fn new(rate: u32, channels: u16) -> Self {
        let rate = if rate == 0 { VAD_SAMPLE_RATE } else { rate };
        let step = rate as f64 / VAD_SAMPLE_RATE as f64;
        let width = (step.floor() as usize).max(1);
        Self { channels: (channels as usize).max(1), step, pos: 0.0, prev: None, window: VecDeque::with_capacity(width + 1), width, sum: 0.0 }
    }

    /// Convert `interleaved` and append the 16 kHz mono result to `out`. A
    /// trailing partial frame (fewer samples than channels) is ignored.
    pub fn push(&mut self, interleaved: &[f32], out: &mut Vec<f32>) {
        out.reserve((interleaved.len() as f64 / self.channels as f64 / self.step) as usize + 1);
        for frame in interleaved.chunks_exact(self.channels) {
            let mono = frame.iter().map(|s| if s.is_finite() { *s } else { 0.0 }).sum::<f32>() / self.channels as f32;
            self.window.push_back(mono);
            self.sum += mono;
            if self.window.len() > self.width {
                self.sum -= self.window.pop_front().unwrap_or(0.0);
            }
            let cur = self.sum / self.window.len() as f32;
            let Some(prev) = self.prev else {
                self.prev = Some(cur);
                continue;
            };
            while self.pos < 1.0 {
                out.push(prev + (cur - prev) * self.pos as f32);
                self.pos += self.step;
            }
            self.pos -= 1.0;
            self.prev = Some(cur);
        }
    }
}

/// A whole buffer of interleaved samples at `rate` Hz with `channels`
/// channels as 16 kHz mono (see [`Resampler`]).
pub fn resample_to_16k_mono(interleaved: &[f32], rate: u32, channels: u16) -> Vec<f32> {
    let mut out = Vec::new();
    Resampler::new(rate, channels).push(interleaved, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resampling_keeps_the_length_and_the_level() {
        // One second of a 440 Hz tone, stereo at 48 kHz.
        let tone: Vec<f32> = (0..48_000)
            .flat_map(|i| {
                let s = (i as f32 * 440.0 * std::f32::consts::TAU / 48_000.0).sin() * 0.5;
                [s, s]
            })
            .collect();
        let out = resample_to_16k_mono(&tone, 48_000, 2);
        assert!((out.len() as i64 - 16_000).abs() <= 2, "{} samples", out.len());
        let peak = out.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!(peak > 0.45 && peak <= 0.5, "peak {peak}");
    }

    #[test]
    fn resampling_in_chunks_matches_one_buffer() {
        let input: Vec<f32> = (0..44_100).map(|i| ((i % 100) as f32 / 100.0) - 0.5).collect();
        let whole = resample_to_16k_mono(&input, 44_100, 1);
        let mut r = Resampler::new(44_100, 1);
        let mut parts = Vec::new();
        for chunk in input.chunks(333) {
            r.push(chunk, &mut parts);
        }
        assert_eq!(whole, parts);
        assert!((whole.len() as i64 - 16_000).abs() <= 2, "{} samples", whole.len());
    }

    #[test]
    fn sensitivity_moves_the_threshold() {
        assert!(threshold(0.0) > threshold(0.5) && threshold(0.5) > threshold(1.0));
        assert!((threshold(0.5) - 0.65).abs() < 1e-6);
        assert!((threshold(f32::NAN) - 0.65).abs() < 1e-6);
        assert_eq!(threshold(7.0), threshold(1.0));
    }

    #[test]
    fn silence_makes_no_events() {
        let mut seg = Segmenter::new(0.5);
        assert!(seg.push(&vec![0.0; 16_000 * 3]).is_empty());
        assert!(seg.finish().is_none());
    }
}
