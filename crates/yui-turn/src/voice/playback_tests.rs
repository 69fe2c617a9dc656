//! Tests of the playback queue, driven through [`TimerSink`] on tokio's
//! paused clock: every sentence lasts one second, a sentence containing
//! `FAIL` has no audio.

use super::*;
use crate::USER_EVENT;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;

const SECOND: Duration = Duration::from_secs(1);

fn now() -> Now {
    Now { at: Instant::now(), wall_ms: 5_000 }
}

fn cue(id: &str) -> Cue {
    Cue { emotion_id: Some(id.into()), ..Cue::default() }
}

fn seg(cues: &[&str], speech: &str) -> Segment {
    Segment { cues: cues.iter().map(|c| cue(c)).collect(), speech: speech.into() }
}

/// A playback queue, a test sink, and a log of what was seen, one line per
/// effect or sink report: `cue T id`, `play T text`, `show T text`,
/// `end text`, `halt`, `record outcome T spoken|owed`.
struct Rig {
    pb: Playback,
    sink: TimerSink,
    rx: mpsc::UnboundedReceiver<SinkEvent>,
    texts: HashMap<u64, String>,
    log: Vec<String>,
    records: Vec<PreviousTurn>,
    t0: Instant,
}

impl Rig {
    fn new() -> Self {
        let (sink, rx) = TimerSink::new();
        Self { pb: Playback::new(), sink, rx, texts: HashMap::new(), log: Vec::new(), records: Vec::new(), t0: Instant::now() }
    }

    fn apply(&mut self, fx: PlayEffects) {
        let mut work: VecDeque<PlayEffect> = fx.into();
        while let Some(e) = work.pop_front() {
            let line = match e {
                PlayEffect::Cue { turn_id, cue } => format!("cue {turn_id} {}", cue.emotion_id.unwrap_or_default()),
                PlayEffect::Show { turn_id, text } => format!("show {turn_id} {text}"),
                PlayEffect::Halt => {
                    self.sink.halt();
                    "halt".into()
                }
                PlayEffect::Record(r) => {
                    let line = format!(
                        "record {:?} {} {}|{}",
                        r.outcome,
                        r.turn_id.clone().unwrap_or_default(),
                        r.already_spoken.clone().unwrap_or_default(),
                        r.never_spoken.clone().unwrap_or_default()
                    );
                    self.records.push(r);
                    line
                }
                PlayEffect::Synth { .. } => continue,
                PlayEffect::Done { .. } => continue,
                PlayEffect::Play { item_id, turn_id, text } => {
                    let line = format!("play {turn_id} {text}");
                    self.log.push(line);
                    self.texts.insert(item_id, text.clone());
                    if text.contains("FAIL") {
                        let mut more = Vec::new();
                        // The failure is reported after this call's effects, as a sink's would be.
                        self.pb.failed(item_id, now(), &mut more);
                        work.extend(more);
                    } else {
                        self.sink.play(item_id, Sound::Timed(SECOND));
                    }
                    continue;
                }
            };
            self.log.push(line);
        }
    }

    fn call(&mut self, f: impl FnOnce(&mut Playback, &mut PlayEffects)) {
        let mut fx = Vec::new();
        f(&mut self.pb, &mut fx);
        self.apply(fx);
    }

    fn speech(&mut self, turn: &str, segs: Vec<Segment>) {
        self.call(|pb, fx| pb.segments(turn, segs, Kind::Speech, now(), fx));
    }

    fn render(&mut self, turn: &str, segs: Vec<Segment>) {
        self.call(|pb, fx| pb.segments(turn, segs, Kind::Render, now(), fx));
    }

    fn turn_end(&mut self, turn: &str) {
        self.call(|pb, fx| pb.turn_end(turn, now(), fx));
    }

    fn thinking(&mut self, turn: &str, on: bool) {
        self.call(|pb, fx| pb.thinking(turn, on, now(), fx));
    }

    fn stop(&mut self, reason: Stop) {
        self.call(|pb, fx| pb.stop(reason, now(), fx));
    }

    /// Feed sink reports until `ms` after the start (plus a millisecond, so
    /// a sound ending at `ms` has reported).
    async fn until(&mut self, ms: u64) {
        let deadline = self.t0 + Duration::from_millis(ms + 1);
        while let Ok(Some(ev)) = tokio::time::timeout_at(deadline, self.rx.recv()).await {
            if let SinkEvent::Finished(id) = ev {
                self.log.push(format!("end {}", self.texts[&id]));
            }
            self.call(|pb, fx| pb.on_sink(ev, now(), fx));
        }
    }

    /// Feed sink reports until nothing more comes (an hour of paused time).
    async fn settle(&mut self) {
        let elapsed = self.t0.elapsed().as_millis() as u64;
        self.until(elapsed + 3_600_000).await;
    }

    /// The log so far, after feeding the reports already sent.
    async fn take(&mut self) -> Vec<String> {
        let elapsed = self.t0.elapsed().as_millis() as u64;
        self.until(elapsed.saturating_sub(1)).await;
        std::mem::take(&mut self.log)
    }
}

fn lines(s: &[&str]) -> Vec<String> {
    s.iter().map(|l| l.to_string()).collect()
}

#[tokio::test(start_paused = true)]
async fn silent_cues_fire_as_they_arrive_when_nothing_plays() {
    let mut r = Rig::new();
    r.render("1", vec![seg(&["sad"], "  [SILENT] "), seg(&["calm"], "")]);
    assert_eq!(r.take().await, lines(&["cue 1 sad", "cue 1 calm"]));
    r.settle().await;
    assert!(r.take().await.is_empty());
    assert!(r.records.is_empty(), "a silent reply leaves the record as it was");
    assert!(!r.pb.busy());
}

#[tokio::test(start_paused = true)]
async fn a_silent_cue_waits_for_the_boundary_while_speech_plays() {
    let mut r = Rig::new();
    r.speech("1", vec![seg(&["happy"], "All green.")]);
    r.until(500).await;
    r.render("1", vec![seg(&["wink"], "[SILENT]")]);
    assert_eq!(r.take().await, lines(&["cue 1 happy", "show 1 All green.", "play 1 All green."]), "the cue waits");
    r.until(990).await;
    assert!(r.take().await.is_empty());
    r.until(1000).await;
    assert_eq!(r.take().await, lines(&["end All green.", "cue 1 wink", "record Complete 1 |"]));
}

#[tokio::test(start_paused = true)]
async fn every_waiting_cue_fires_at_the_first_boundary_before_the_next_speech() {
    let mut r = Rig::new();
    r.speech("1", vec![seg(&[], "One.")]);
    r.render("1", vec![seg(&["a"], ""), seg(&["b"], "[SILENT]"), seg(&["c"], "Two."), seg(&["d"], "")]);
    assert_eq!(r.take().await, lines(&["show 1 One.", "play 1 One."]));
    r.until(1000).await;
    assert_eq!(r.take().await, lines(&["end One.", "cue 1 a", "cue 1 b", "cue 1 c", "show 1 Two.", "play 1 Two."]));
    r.until(2000).await;
    assert_eq!(r.take().await, lines(&["end Two.", "cue 1 d", "record Complete 1 |"]));
}

#[tokio::test(start_paused = true)]
async fn a_cue_during_another_turns_thinking_waits_for_the_motion_to_end() {
    let mut r = Rig::new();
    r.thinking("2", true);
    r.thinking("1", true);
    r.render("1", vec![seg(&["happy"], "Hi."), seg(&["calm"], "")]);
    assert_eq!(r.take().await, lines(&["show 1 Hi.", "play 1 Hi."]), "turn 2 thinks: turn 1's cue is held, speech is not");
    r.until(1000).await;
    assert_eq!(r.take().await, lines(&["end Hi.", "record Complete 1 |"]));
    r.thinking("1", false);
    assert!(r.take().await.is_empty(), "turn 2 still thinks");
    r.thinking("2", false);
    assert_eq!(r.take().await, lines(&["cue 1 happy", "cue 1 calm"]));
    r.thinking("3", true);
    r.render("3", vec![seg(&["own"], "")]);
    assert_eq!(r.take().await, lines(&["cue 3 own"]), "a turn's own motion holds nothing");
}

#[tokio::test(start_paused = true)]
async fn a_render_plays_after_the_speech_already_queued() {
    let mut r = Rig::new();
    r.speech("1", vec![seg(&[], "A.")]);
    r.speech("1", vec![seg(&[], "B.")]);
    r.until(300).await;
    r.render("2", vec![seg(&["x"], "C.")]);
    assert_eq!(r.take().await, lines(&["show 1 A.", "play 1 A."]));
    r.settle().await;
    assert_eq!(
        r.take().await,
        lines(&["end A.", "show 1 B.", "play 1 B.", "end B.", "record Complete 1 |", "cue 2 x", "show 2 C.", "play 2 C.", "end C.", "record Complete 2 |",]),
        "turn 2's render closed turn 1's utterance, which finished first"
    );
}

#[tokio::test(start_paused = true)]
async fn a_speech_frame_that_repeats_what_came_before_speaks_only_what_is_new() {
    let mut r = Rig::new();
    r.speech("1", vec![seg(&[], "Three logs.")]);
    r.speech("1", vec![seg(&[], "Three logs. Two left.")]);
    r.speech("1", vec![seg(&[], "Two left. One is old.")]);
    r.speech("1", vec![seg(&[], "Three logs.Two left. One is old. Done.")]);
    r.settle().await;
    let plays: Vec<String> = r.take().await.into_iter().filter(|l| l.starts_with("play")).collect();
    assert_eq!(plays, lines(&["play 1 Three logs.", "play 1 Two left.", "play 1 One is old.", "play 1 Done."]));
}

#[tokio::test(start_paused = true)]
async fn repeated_and_joined_sentences_are_spoken_once() {
    let mut r = Rig::new();
    r.speech("1", vec![seg(&["happy"], "All green.")]);
    r.speech("1", vec![seg(&[], "All green.")]);
    r.speech("1", vec![seg(&[], "Three logs.Two left.")]);
    r.render(
        "1",
        vec![seg(&["happy"], "All green."), seg(&[], "Three logs."), seg(&["curious"], "Two left."), seg(&[], "All green."), seg(&[], "Want the slow ones?")],
    );
    r.settle().await;
    let plays: Vec<String> = r.take().await.into_iter().filter(|l| l.starts_with("play") || l.starts_with("cue")).collect();
    assert_eq!(
        plays,
        lines(&["cue 1 happy", "play 1 All green.", "play 1 Three logs.Two left.", "cue 1 happy", "cue 1 curious", "play 1 Want the slow ones?",]),
        "the cues of skipped lines fire at the boundary after the speech already queued"
    );
}

#[tokio::test(start_paused = true)]
async fn a_render_line_joining_sent_sentences_speaks_only_what_is_new() {
    let mut r = Rig::new();
    r.speech("1", vec![seg(&[], "One.")]);
    r.speech("1", vec![seg(&[], "Two.")]);
    r.render("1", vec![seg(&[], "One. Two.\nThree.")]);
    r.settle().await;
    let plays: Vec<String> = r.take().await.into_iter().filter(|l| l.starts_with("play")).collect();
    assert_eq!(plays, lines(&["play 1 One.", "play 1 Two.", "play 1 Three."]));
}

async fn stop_mid_reply(reason: Stop) {
    let mut r = Rig::new();
    r.pb.label("1", USER_EVENT);
    r.speech("1", vec![seg(&[], "A.")]);
    r.speech("1", vec![seg(&[], "B.")]);
    r.render("1", vec![seg(&["late"], "C."), seg(&[], "D.")]);
    r.until(1500).await;
    r.take().await;
    r.stop(reason);
    assert_eq!(r.take().await, lines(&["halt", "record Interrupted 1 A. B.|C. D."]), "{reason:?}");
    let rec = r.records.last().unwrap();
    assert_eq!(rec.event_name.as_deref(), Some(USER_EVENT));
    assert_eq!(rec.at, Some(5_000));
    r.speech("1", vec![seg(&["dropped"], "E.")]);
    r.settle().await;
    assert!(r.take().await.is_empty(), "{reason:?}: nothing more plays, late frames are dropped");
    r.call(|pb, fx| pb.finished(2, now(), fx));
    assert!(r.take().await.is_empty(), "a stale sink report is ignored");
    r.turn_end("1");
    r.render("1", vec![seg(&[], "After.")]);
    assert_eq!(r.take().await, lines(&["show 1 After.", "play 1 After."]), "turn_end forgets the stop");
}

#[tokio::test(start_paused = true)]
async fn a_new_user_turn_stops_playback() {
    stop_mid_reply(Stop::NewTurn).await;
}

#[tokio::test(start_paused = true)]
async fn barge_in_stops_playback() {
    stop_mid_reply(Stop::BargeIn).await;
}

#[tokio::test(start_paused = true)]
async fn the_stop_button_stops_playback() {
    stop_mid_reply(Stop::Button).await;
}

#[tokio::test(start_paused = true)]
async fn a_stop_before_any_speech_records_nothing_and_drops_held_cues() {
    let mut r = Rig::new();
    r.thinking("2", true);
    r.render("1", vec![seg(&["held"], "")]);
    r.stop(Stop::Button);
    assert_eq!(r.take().await, lines(&["halt"]));
    r.thinking("2", false);
    r.render("2", vec![seg(&[], "Dropped.")]);
    assert!(r.take().await.is_empty(), "held cues dropped; the thinking turn was stopped too");
}

#[tokio::test(start_paused = true)]
async fn complete_is_recorded_when_the_last_sentence_finishes() {
    let mut r = Rig::new();
    r.speech("1", vec![seg(&[], "A.")]);
    r.speech("1", vec![seg(&[], "B.")]);
    r.until(500).await;
    r.turn_end("1");
    r.until(1990).await;
    assert!(r.take().await.iter().all(|l| !l.starts_with("record")), "turn_end does not cut: B still owed");
    r.until(2000).await;
    assert_eq!(r.take().await, lines(&["end B.", "record Complete 1 |"]));
    assert_eq!(r.records[0].event_name.as_deref(), Some(BACKEND_EVENT));
    r.speech("2", vec![seg(&[], "Open.")]);
    r.settle().await;
    assert!(r.take().await.iter().all(|l| !l.starts_with("record")), "an open utterance has not ended");
    r.call(|pb, fx| pb.close("2", now(), fx));
    assert_eq!(r.take().await, lines(&["record Complete 2 |"]), "the frame wait closes it");
}

#[tokio::test(start_paused = true)]
async fn a_failed_synth_fires_its_cue_shows_its_text_and_is_skipped() {
    let mut r = Rig::new();
    r.render("1", vec![seg(&["x"], "FAIL one."), seg(&[], "Two.")]);
    assert_eq!(r.take().await, lines(&["cue 1 x", "show 1 FAIL one.", "play 1 FAIL one.", "show 1 Two.", "play 1 Two."]));
    r.settle().await;
    assert_eq!(r.take().await, lines(&["end Two.", "record Complete 1 |"]));
}

#[test]
fn cuts_keep_fifty_code_points_and_never_split_a_cluster() {
    let family = "👨\u{200d}👩\u{200d}👧"; // 5 code points, one grapheme
    let s = format!("{}{family}", "a".repeat(47));
    assert_eq!(first_owed(&s, SPOKEN_CUT), "a".repeat(47), "the family would end at code point 52");
    assert_eq!(last_spoken(&s, SPOKEN_CUT), format!("{}{family}", "a".repeat(45)));
    let s = format!("{family}{}", "b".repeat(47));
    assert_eq!(last_spoken(&s, SPOKEN_CUT), "b".repeat(47));
    assert_eq!(first_owed(&s, SPOKEN_CUT), format!("{family}{}", "b".repeat(45)));
    let flags = "🇯🇵".repeat(30); // 2 code points each
    assert_eq!(first_owed(&flags, SPOKEN_CUT), "🇯🇵".repeat(25));
    assert_eq!(last_spoken("  short  ", SPOKEN_CUT), "short");
    assert_eq!(first_owed("", SPOKEN_CUT), "");
}

#[tokio::test(start_paused = true)]
async fn an_interrupted_record_cuts_by_code_point_around_emoji() {
    let mut r = Rig::new();
    let first = format!("{}😀.", "x".repeat(60));
    let second = format!("🙂{}", "y".repeat(60));
    r.render("1", vec![seg(&[], &first), seg(&[], &second)]);
    r.until(500).await;
    r.stop(Stop::Button);
    let rec = r.records.last().unwrap();
    assert_eq!(rec.outcome, Outcome::Interrupted);
    assert_eq!(rec.already_spoken.as_deref(), Some(format!("{}😀.", "x".repeat(48)).as_str()));
    assert_eq!(rec.never_spoken.as_deref(), Some(format!("🙂{}", "y".repeat(49)).as_str()));
}

#[test]
fn pcm_duration_comes_from_the_samples() {
    let pcm = Sound::Pcm { sample_rate: 24_000, channels: 2, samples: vec![0.0; 48_000].into() };
    assert_eq!(pcm.duration(), SECOND);
    assert_eq!(Sound::Timed(SECOND).duration(), SECOND);
}

impl Rig {
    fn unsaid(&mut self, turn: &str, text: &str) {
        self.call(|pb, fx| pb.unsaid(turn, text, now(), fx));
    }

    fn cut(&mut self, turn: &str) {
        self.call(|pb, fx| pb.cut(turn, now(), fx));
    }
}

#[tokio::test(start_paused = true)]
async fn text_held_at_a_stop_joins_the_interrupted_record_as_never_spoken() {
    let mut r = Rig::new();
    r.pb.label("1", USER_EVENT);
    r.speech("1", vec![seg(&[], "A.")]);
    r.speech("1", vec![seg(&[], "B.")]);
    r.until(500).await;
    r.take().await;
    r.stop(Stop::Button);
    assert_eq!(r.take().await, lines(&["halt", "record Interrupted 1 A.|B."]));
    // The transport's held sentence comes after the stop: the record is written again with it.
    r.unsaid("1", "Before it stopped. ");
    assert_eq!(r.take().await, lines(&["record Interrupted 1 A.|B. Before it stopped."]));
    assert_eq!(r.records.last().unwrap().event_name.as_deref(), Some(USER_EVENT));
    r.unsaid("1", "  ");
    assert!(r.take().await.is_empty(), "blank text is nothing");
    r.turn_end("1");
    r.settle().await;
    assert!(r.take().await.is_empty(), "nothing of it plays");
}

#[tokio::test(start_paused = true)]
async fn text_held_at_a_stop_before_any_speech_is_an_interrupted_record_of_its_own() {
    let mut r = Rig::new();
    r.pb.label("1", USER_EVENT);
    r.thinking("1", true);
    r.stop(Stop::Button);
    assert_eq!(r.take().await, lines(&["halt"]), "nothing spoken, nothing recorded yet");
    r.unsaid("1", "Before it stopped. ");
    assert_eq!(r.take().await, lines(&["record Interrupted 1 |Before it stopped."]));
    assert_eq!(r.records[0].event_name.as_deref(), Some(USER_EVENT));
    r.turn_end("1");
    r.settle().await;
    assert!(r.take().await.is_empty());

    // Queued but never started at the stop: that too is owed.
    let mut r = Rig::new();
    r.speech("2", vec![seg(&[], "A.")]);
    r.speech("2", vec![seg(&[], "B.")]);
    r.stop(Stop::Button);
    r.take().await;
    r.unsaid("2", "C");
    assert_eq!(r.take().await, lines(&["record Interrupted 2 A.|B. C"]), "the first showed at once (nothing played before it); the rest is owed");
}

#[tokio::test(start_paused = true)]
async fn text_held_at_a_stall_or_an_error_follows_what_still_plays() {
    // A stall after speech: the cut drains at once, then the held text comes.
    let mut r = Rig::new();
    r.speech("1", vec![seg(&[], "Hello there.")]);
    r.until(1000).await;
    r.cut("1");
    assert_eq!(r.take().await, lines(&["show 1 Hello there.", "play 1 Hello there.", "end Hello there.", "record Interrupted 1 Hello there.|"]));
    r.unsaid("1", " And then");
    assert_eq!(r.take().await, lines(&["record Interrupted 1 Hello there.|And then"]));

    // An error while a sentence still plays: the held text waits for its record.
    let mut r = Rig::new();
    r.speech("2", vec![seg(&[], "One.")]);
    r.unsaid("2", "Two is cut");
    r.cut("2");
    r.turn_end("2");
    r.settle().await;
    assert_eq!(r.take().await, lines(&["show 2 One.", "play 2 One.", "end One.", "record Interrupted 2 One.|Two is cut"]));

    // Only cues before the error: the held text alone is the record.
    let mut r = Rig::new();
    r.speech("3", vec![seg(&["happy"], "")]);
    r.unsaid("3", "Never said.");
    r.turn_end("3");
    r.settle().await;
    assert_eq!(r.take().await, lines(&["cue 3 happy", "record Interrupted 3 |Never said."]));
}

#[test]
fn a_sentence_with_nothing_playing_before_it_shows_before_its_sound_starts() {
    // No sink here: the sound of a system or cloud voice starts later.
    let mut pb = Playback::new();
    let names = |fx: &PlayEffects| -> Vec<String> {
        fx.iter()
            .filter_map(|e| match e {
                PlayEffect::Play { text, .. } => Some(format!("play {text}")),
                PlayEffect::Show { text, .. } => Some(format!("show {text}")),
                PlayEffect::Done { text, .. } => Some(format!("done {text}")),
                _ => None,
            })
            .collect()
    };
    let mut fx = Vec::new();
    pb.segments("1", vec![seg(&[], "First."), seg(&[], "Second.")], Kind::Speech, now(), &mut fx);
    assert_eq!(names(&fx), lines(&["show First.", "play First."]), "shown as it is handed to the sink, the second waits");
    let first = fx.iter().find_map(|e| if let PlayEffect::Play { item_id, .. } = e { Some(*item_id) } else { None }).unwrap();
    let mut fx = Vec::new();
    pb.on_sink(SinkEvent::Started(first), now(), &mut fx);
    assert!(fx.is_empty(), "its sound starting shows nothing twice: {fx:?}");
    pb.finished(first, now(), &mut fx);
    assert_eq!(names(&fx), lines(&["done First.", "show Second.", "play Second."]), "the next shows when its turn to play comes");
}
