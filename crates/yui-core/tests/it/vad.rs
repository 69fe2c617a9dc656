//! The voice activity segmenter on speech that espeak-ng speaks at test
//! time (resampled to 16 kHz mono by the crate), padded with silence and
//! low noise. espeak-ng missing skips these outside CI and fails them in CI.

use crate::voice;

use voice::{noise, speech_16k, SENTENCE};
use yui_core::limits::{UTTERANCE_MAX, VAD_PRE_ROLL};
use yui_core::speech::vad::{Segmenter, VadEvent};

const SECOND: usize = 16_000;

/// Push `audio` in 10 ms chunks (what a device delivers), collecting events.
fn run(seg: &mut Segmenter, audio: &[f32]) -> Vec<VadEvent> {
    audio.chunks(160).flat_map(|c| seg.push(c)).collect()
}

fn utterances(events: &[VadEvent]) -> Vec<usize> {
    events
        .iter()
        .filter_map(|e| match e {
            VadEvent::Utterance(u) => Some(u.len()),
            _ => None,
        })
        .collect()
}

fn count(events: &[VadEvent], want: &VadEvent) -> usize {
    events.iter().filter(|e| *e == want).count()
}

/// espeak-ng leaves silence around its speech; the span from the first to
/// the last sample above a small level.
fn voiced_span(speech: &[f32]) -> usize {
    let loud = |s: &&f32| s.abs() > 0.02;
    let first = speech.iter().position(|s| loud(&s)).unwrap();
    let last = speech.len() - speech.iter().rev().position(|s| loud(&s)).unwrap();
    last - first
}

#[test]
fn speech_between_silences_is_one_utterance_of_about_its_length() {
    let Some(speech) = speech_16k(SENTENCE) else { return };
    let mut audio = vec![0.0; SECOND];
    audio.extend(&speech);
    audio.extend(vec![0.0; SECOND]);
    let mut seg = Segmenter::new(0.5);
    let events = run(&mut seg, &audio);

    let lens = utterances(&events);
    assert_eq!(lens.len(), 1, "one utterance, got {lens:?}");
    assert_eq!(events.first(), Some(&VadEvent::SpeechStarted), "{events:?}");
    assert_eq!(count(&events, &VadEvent::SpeechStarted), 1);
    let span = voiced_span(&speech);
    let len = lens[0];
    let slack = (VAD_PRE_ROLL.as_secs_f64() * SECOND as f64) as usize + SECOND / 2;
    assert!(len + SECOND / 4 >= span && len <= span + slack, "utterance {} ms for {} ms of speech", len * 1000 / SECOND, span * 1000 / SECOND);
    assert!(!seg.speaking(), "the silence after it ended the speech");
}

#[test]
fn speech_in_low_noise_is_one_utterance() {
    let Some(speech) = speech_16k(SENTENCE) else { return };
    let bed = noise(speech.len() + 2 * SECOND, 0.01);
    let mut audio = bed.clone();
    for (i, s) in speech.iter().enumerate() {
        audio[SECOND + i] += s;
    }
    let events = run(&mut Segmenter::new(0.5), &audio);
    let lens = utterances(&events);
    assert_eq!(lens.len(), 1, "one utterance, got {lens:?}");
    let span = voiced_span(&speech);
    assert!(lens[0] + SECOND / 4 >= span && lens[0] <= span + SECOND, "{} vs {}", lens[0], span);
}

#[test]
fn silence_and_noise_alone_make_nothing() {
    let cases = [("silence", vec![0.0; 5 * SECOND]), ("noise -45 dBFS", noise(5 * SECOND, 0.01)), ("noise -31 dBFS", noise(5 * SECOND, 0.05))];
    for (name, audio) in cases {
        for sensitivity in [0.0, 0.5, 1.0] {
            let mut seg = Segmenter::new(sensitivity);
            let events = run(&mut seg, &audio);
            if name == "noise -31 dBFS" && sensitivity == 1.0 {
                // At full sensitivity loud white noise may start speech,
                // but never long enough to barge in or to be sent.
                assert!(events.iter().all(|e| *e == VadEvent::SpeechStarted), "{name} at {sensitivity}: {events:?}");
            } else {
                assert!(events.is_empty(), "{name} at {sensitivity}: {events:?}");
            }
            assert!(seg.finish().is_none(), "{name} at {sensitivity}");
        }
    }
}

#[test]
fn long_speech_is_sustained_once_and_short_speech_never() {
    let Some(speech) = speech_16k(SENTENCE) else { return };
    let mut audio = vec![0.0; SECOND / 2];
    audio.extend(&speech);
    audio.extend(vec![0.0; SECOND]);
    let events = run(&mut Segmenter::new(0.5), &audio);
    assert_eq!(count(&events, &VadEvent::Sustained), 1, "{events:?}");
    let started = events.iter().position(|e| *e == VadEvent::SpeechStarted).unwrap();
    let sustained = events.iter().position(|e| *e == VadEvent::Sustained).unwrap();
    let uttered = events.iter().position(|e| matches!(e, VadEvent::Utterance(_))).unwrap();
    assert!(started < sustained && sustained < uttered, "{events:?}");

    // A short word: never sustained.
    let Some(word) = speech_16k("Yes") else { return };
    let mut audio = vec![0.0; SECOND / 2];
    audio.extend(&word);
    audio.extend(vec![0.0; SECOND]);
    let events = run(&mut Segmenter::new(0.5), &audio);
    assert_eq!(count(&events, &VadEvent::Sustained), 0, "{events:?}");
}

#[test]
fn speech_past_the_maximum_is_cut() {
    let Some(speech) = speech_16k(SENTENCE) else { return };
    // Back to back, no pause long enough to end it, until past the maximum.
    let max = (UTTERANCE_MAX.as_secs_f64() * SECOND as f64) as usize;
    let mut audio = Vec::new();
    while audio.len() < max + 5 * SECOND {
        audio.extend(&speech);
    }
    audio.extend(vec![0.0; SECOND]);
    let events = run(&mut Segmenter::new(0.5), &audio);
    let lens = utterances(&events);
    assert!(lens.len() >= 2, "cut at the maximum: {lens:?}");
    assert!(lens.iter().all(|&l| l <= max), "{lens:?}");
    assert_eq!(count(&events, &VadEvent::Sustained), 1, "one stretch of speech: {events:?}");
}

#[test]
fn finish_flushes_the_speech_being_collected() {
    let Some(speech) = speech_16k(SENTENCE) else { return };
    let mut audio = vec![0.0; SECOND / 2];
    audio.extend(&speech);
    let mut seg = Segmenter::new(0.5);
    let events = run(&mut seg, &audio);
    assert!(utterances(&events).is_empty(), "no silence yet: {events:?}");
    assert!(seg.speaking());
    let flushed = seg.finish().expect("an utterance");
    assert!(flushed.len() >= voiced_span(&speech) - SECOND / 4);
    assert!(!seg.speaking());
}
