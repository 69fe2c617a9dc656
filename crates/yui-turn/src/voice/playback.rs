//! The playback queue (`docs/voice.md`): one per character, shared by the
//! transports, as a pure state machine in the style of
//! [`crate::Engine`]. [`Playback`] takes reply segments, turn ends,
//! thinking-motion changes, stop actions and the audio sink's reports, each
//! with a [`Now`], and answers [`PlayEffect`]s. It owns no clock, no audio
//! device and no file: playback timing comes only from the sink's
//! [`SinkEvent`]s, never from guessed durations.
//!
//! The turn engine owns one and maps its effects; the session driver's
//! `yui_core::speech::speaker::Speaker` synthesises and plays what it asks.
//!
//! # Rules (`docs/push-protocol.md`, "Replies"; `docs/voice.md`)
//!
//! * **Order.** Every segment becomes one queue item, in arrival order; a
//!   render plays after the speech already queued. One sentence is handed to
//!   the sink at a time ([`PlayEffect::Play`]); the next waits for the sink's
//!   `finished`.
//! * **Boundaries.** A *boundary* is the moment nothing is playing: when the
//!   queue is idle, or when the sink reports the current sentence finished.
//!   At a boundary the queue is drained up to and including the next spoken
//!   item: the cues of every silent item on the way fire, then that item's
//!   cues, then its speech goes to the sink. So a silent segment's cues fire
//!   as they arrive when nothing plays, else at the boundary playback reaches
//!   them; every cue waiting on a boundary fires at the first one reached; and
//!   a cue always lands before its own segment's speech.
//! * **Silence.** A speech that is empty or the bare `[SILENT]`
//!   ([`crate::speaks`]) is a silent item: cues only.
//! * **Thinking.** A cue of turn T due while the thinking motion of another
//!   turn plays (see [`Playback::thinking`]) is held, with every later cue of
//!   T, until no other turn's motion plays; speech is not held.
//! * **Utterances.** The speech frames of a turn open one utterance; the
//!   turn's next render plays its segments and closes it. It also closes on
//!   the turn's `turn_end` ([`Playback::turn_end`]), on the frame wait or the
//!   socket leaving ready ([`Playback::close`]), and before a frame of another
//!   turn plays. A render with no open utterance of its turn is an utterance
//!   of its own. Closing never cuts: queued sentences finish playing. A stop
//!   drops the utterance (the "drop").
//! * **Dedup** (not spoken twice), within one utterance, comparing sentences
//!   with all whitespace removed (so `"A.B."` equals `"A. B."`):
//!   1. a speech-frame sentence equal to a sentence already queued or played
//!      in the utterance is skipped (a repeated frame);
//!   2. the render is aligned against the concatenated speech-frame text with
//!      a cursor: a render sentence that is a prefix of the not yet matched
//!      frame text is skipped and moves the cursor (this covers the render
//!      repeating sentences, and several render lines that a frame joined);
//!      a render sentence that starts with all the rest of the frame text
//!      speaks only what follows it; any other render sentence equal to one
//!      already queued is skipped; the rest is spoken.
//!
//!   A skipped sentence keeps its cues, which become a silent item at its
//!   place in the queue (so a cue naming a joined line plays later, at the
//!   boundary after the speech already queued).
//! * **Stops.** [`Stop::NewTurn`], [`Stop::BargeIn`] and [`Stop::Button`] all
//!   emit [`PlayEffect::Halt`] at once (sound, lips and bubble progress), drop
//!   the whole queue and held cues, and drop later frames of every turn the
//!   queue knew until that turn's `turn_end`.
//! * **Records.** An utterance that started speaking records
//!   [`Outcome::Complete`] when it is closed and its last item finished; a
//!   stop records [`Outcome::Interrupted`] with `already_spoken` = the last
//!   [`SPOKEN_CUT`] code points of its sentences that showed and
//!   `never_spoken` = the first [`SPOKEN_CUT`] code points of the rest (see
//!   [`last_spoken`], [`first_owed`]). An utterance that never started
//!   speaking records nothing. Text of the reply that streamed but never
//!   reached the queue (what the transport still held when a stop, a stall
//!   or a stream error ended it, [`Playback::unsaid`]) is owed too: it joins
//!   the turn's interrupted record, written again when the record already
//!   went out, and makes a turn that spoke nothing `interrupted` with only
//!   its `never_spoken`.
//! * **Showing.** A sentence shows ([`PlayEffect::Show`]) right before it is
//!   handed to the sink ([`PlayEffect::Play`]), in the same call: nothing
//!   plays before it then, and the bubble does not wait for a system or cloud
//!   voice to make its sound. The sink's `Started` shows nothing again.
//! * **Failed synthesis.** An item whose audio could not be made is reported
//!   with [`Playback::failed`]: its cues already fired, its text still shows,
//!   it counts as started (the bubble showed it) and playback moves on.

pub use super::audio_sink::{AudioSink, SinkEvent, Sound, TimerSink};
use crate::{speaks, Now, BACKEND_EVENT};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use unicode_segmentation::UnicodeSegmentation;
use yui_engine::context::{Outcome, PreviousTurn};
use yui_protocol::model::{Cue, Segment};

/// How many code points of each part an interrupted record keeps.
pub const SPOKEN_CUT: usize = 50;

/// What kind of frame carried segments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `speech` frame: one sentence of a reply still being written.
    Speech,
    /// A `render` frame: closes the turn's open utterance.
    Render,
}

/// The three user actions that stop speech.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A turn the user typed or spoke.
    NewTurn,
    /// Voice barge-in.
    BargeIn,
    /// The stop button.
    Button,
}

/// One thing for the driver to do, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayEffect {
    /// Render a cue now.
    Cue {
        /// The turn the cue belongs to.
        turn_id: String,
        /// The cue.
        cue: Cue,
    },
    /// A sentence was queued: start synthesising it now (so its audio is
    /// ready when playback reaches it). `caption` and `emotion_text` come
    /// from its segment's cues (the last that set each) and only steer the
    /// voice; they are never shown.
    Synth {
        /// The queue item, named again by [`PlayEffect::Play`].
        item_id: u64,
        /// The turn the sentence belongs to.
        turn_id: String,
        /// The sentence.
        text: String,
        /// Voice direction in natural language (a cue's `caption`).
        caption: Option<String>,
        /// The voice tone tag (a cue's `emotion_text`).
        emotion_text: Option<String>,
    },
    /// Hand `item_id`'s audio to the sink now; answer with the sink's
    /// reports, or [`Playback::failed`] when no audio could be made.
    Play {
        /// The queue item, echoed by the sink's reports.
        item_id: u64,
        /// The turn the sentence belongs to.
        turn_id: String,
        /// The sentence.
        text: String,
    },
    /// Stop the sound, the lips and the bubble's progress at once.
    Halt,
    /// A sentence's turn to play came: show it in the bubble.
    Show {
        /// The turn the sentence belongs to.
        turn_id: String,
        /// The sentence.
        text: String,
    },
    /// A sentence's playback ended (it finished, or had no audio).
    Done {
        /// The turn the sentence belongs to.
        turn_id: String,
        /// The sentence.
        text: String,
    },
    /// Save this previous-turn record.
    Record(PreviousTurn),
}

/// The effects of one call, in order.
pub type PlayEffects = Vec<PlayEffect>;

/// The last `n` code points of `s` (trimmed), never cutting inside a
/// grapheme cluster: a cluster that does not fit whole is left out, so the
/// result may be shorter than `n` (a family emoji is 5+ code points).
pub fn last_spoken(s: &str, n: usize) -> String {
    let s = s.trim();
    let (mut start, mut count) = (s.len(), 0);
    for (i, g) in s.grapheme_indices(true).rev() {
        count += g.chars().count();
        if count > n {
            break;
        }
        start = i;
    }
    s[start..].trim().to_string()
}

/// The first `n` code points of `s` (trimmed), never cutting inside a
/// grapheme cluster, as [`last_spoken`].
pub fn first_owed(s: &str, n: usize) -> String {
    let s = s.trim();
    let (mut end, mut count) = (0, 0);
    for (i, g) in s.grapheme_indices(true) {
        count += g.chars().count();
        if count > n {
            break;
        }
        end = i + g.len();
    }
    s[..end].trim().to_string()
}

/// `a` and `b` joined by one space (either may be empty).
fn joined(a: &str, b: &str) -> String {
    match (a.trim().is_empty(), b.trim().is_empty()) {
        (true, _) => b.trim().to_string(),
        (_, true) => a.trim().to_string(),
        _ => format!("{} {}", a.trim(), b.trim()),
    }
}

/// An `interrupted` record: the last [`SPOKEN_CUT`] code points of what
/// was spoken and the first of what was owed.
fn interrupted(event_name: &str, turn_id: &str, now: Now, spoken: &str, owed: &str) -> PreviousTurn {
    let spoken = last_spoken(spoken, SPOKEN_CUT);
    let owed = first_owed(owed, SPOKEN_CUT);
    crate::outcome::record(Outcome::Interrupted, event_name, turn_id, now.wall_ms, &spoken, &owed)
}

#[derive(Debug)]
struct Item {
    id: u64,
    turn_id: String,
    utt: u64,
    cues: Vec<Cue>,
    /// `None` for a silent item.
    text: Option<String>,
}

#[derive(Debug)]
struct Utterance {
    turn_id: String,
    event_name: String,
    open: bool,
    /// Every sentence queued in it, whitespace removed.
    queued: Vec<String>,
    /// The speech-frame sentences, whitespace removed, concatenated.
    frames: String,
    /// How much of `frames` the render has matched (bytes).
    cursor: usize,
    /// Sentences that showed (went to the sink), in order.
    started: Vec<String>,
    /// False for the client's own lines (filler, failure lines, greetings):
    /// they never write the previous-turn record.
    record: bool,
    /// Cut short (a stall or a stream error after speech): records
    /// `interrupted` instead of `complete` when it drains.
    cut: bool,
    /// Text of the reply that streamed but never reached the queue
    /// ([`Playback::unsaid`]): never spoken.
    unsaid: String,
}

/// What an `interrupted` record said of a turn, kept until the turn's end
/// so text the transport still held ([`Playback::unsaid`]) joins it.
#[derive(Debug, Clone)]
struct CutOff {
    turn_id: String,
    event_name: String,
    /// The sentences that showed, joined.
    spoken: String,
    /// What was never spoken, joined.
    owed: String,
}

/// How many [`CutOff`]s are kept (a turn's end forgets its own).
const CUT_OFFS_KEPT: usize = 16;

#[derive(Debug)]
struct Playing {
    id: u64,
    turn_id: String,
    utt: u64,
    text: String,
}

/// The playback queue of one character. See the module doc.
#[derive(Debug, Default)]
pub struct Playback {
    queue: VecDeque<Item>,
    playing: Option<Playing>,
    utterances: BTreeMap<u64, Utterance>,
    open: Option<u64>,
    thinking: Vec<String>,
    held: Vec<(String, Cue)>,
    stopped: HashSet<String>,
    labels: HashMap<String, String>,
    cut_offs: VecDeque<CutOff>,
    next_item: u64,
    next_utt: u64,
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `text` after its first `skip` non-whitespace characters, trimmed.
fn after_squashed(text: &str, skip: usize) -> &str {
    let mut seen = 0;
    for (i, c) in text.char_indices() {
        if seen == skip {
            return text[i..].trim();
        }
        if !c.is_whitespace() {
            seen += 1;
        }
    }
    ""
}

impl Utterance {
    /// The text to speak for `speech`, or `None` when it is silent or a
    /// sentence already queued (see "Dedup" in the module doc).
    fn admit(&mut self, speech: &str, kind: Kind) -> Option<String> {
        if !speaks(speech) {
            return None;
        }
        let mut text = speech.trim().to_string();
        let mut norm = squash(&text);
        match kind {
            Kind::Speech => {
                if self.queued.contains(&norm) {
                    return None;
                }
                // A frame that repeats the frames' text so far and adds to it
                // (a sentence joined to the ones before): only the addition.
                let said = self.frames.as_str();
                if !said.is_empty() && norm.len() > said.len() && norm.starts_with(said) {
                    let (skip, len) = (said.chars().count(), said.len());
                    norm = norm[len..].to_string();
                    text = after_squashed(&text, skip).to_string();
                } else if let Some(last) = self.queued.last().filter(|q| norm.len() > q.len() && norm.starts_with(q.as_str())) {
                    let (skip, len) = (last.chars().count(), last.len());
                    norm = norm[len..].to_string();
                    text = after_squashed(&text, skip).to_string();
                }
                self.frames.push_str(&norm);
            }
            Kind::Render => {
                let rest = &self.frames[self.cursor..];
                if rest.starts_with(norm.as_str()) {
                    self.cursor += norm.len();
                    return None;
                }
                if !rest.is_empty() && norm.starts_with(rest) {
                    let skip = rest.chars().count();
                    norm = norm[rest.len()..].to_string();
                    self.cursor = self.frames.len();
                    text = after_squashed(&text, skip).to_string();
                } else if self.queued.contains(&norm) {
                    return None;
                }
            }
        }
        self.queued.push(norm);
        Some(text)
    }
}

impl Playback {
    /// An empty, idle queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// True while a sentence is with the sink or items wait.
    pub fn busy(&self) -> bool {
        self.playing.is_some() || !self.queue.is_empty()
    }

    /// How many sentences are with the sink or wait for it.
    pub fn pending(&self) -> usize {
        usize::from(self.playing.is_some()) + self.queue.iter().filter(|i| i.text.is_some()).count()
    }

    /// True when nothing plays, waits, thinks or holds an open utterance:
    /// a stop would have nothing to stop.
    pub fn quiet(&self) -> bool {
        !self.busy() && self.utterances.is_empty() && self.thinking.is_empty() && self.held.is_empty()
    }

    /// Name the event that fired `turn_id` (e.g. `user.text_submitted`) for
    /// its records; unnamed turns record [`BACKEND_EVENT`]. Forgotten on the
    /// turn's `turn_end`.
    pub fn label(&mut self, turn_id: &str, event_name: &str) {
        self.labels.insert(turn_id.to_string(), event_name.to_string());
    }

    /// The segments of a `speech` or `render` frame of `turn_id`.
    pub fn segments(&mut self, turn_id: &str, segments: Vec<Segment>, kind: Kind, now: Now, fx: &mut PlayEffects) {
        if self.stopped.contains(turn_id) {
            tracing::debug!(record = "playback_dropped", turn_id, ?kind);
            return;
        }
        if let Some(u) = self.open {
            if self.utterances.get(&u).is_some_and(|x| x.turn_id != turn_id) {
                self.close_utterance(u, now, fx);
            }
        }
        let utt = match self.open {
            Some(u) => u,
            None => {
                let u = self.next_utt;
                self.next_utt += 1;
                let event_name = self.labels.get(turn_id).cloned().unwrap_or_else(|| BACKEND_EVENT.to_string());
                let fresh = Utterance {
                    turn_id: turn_id.to_string(),
                    event_name,
                    open: true,
                    queued: Vec::new(),
                    frames: String::new(),
                    cursor: 0,
                    started: Vec::new(),
                    record: true,
                    cut: false,
                    unsaid: String::new(),
                };
                self.utterances.insert(u, fresh);
                self.open = Some(u);
                u
            }
        };
        let entry = self.utterances.get_mut(&utt).expect("open utterance exists");
        for seg in segments {
            let text = entry.admit(&seg.speech, kind);
            if text.is_none() && seg.cues.is_empty() {
                continue;
            }
            self.next_item += 1;
            if let Some(text) = &text {
                let caption = seg.cues.iter().rev().find_map(|c| c.caption.clone());
                let emotion_text = seg.cues.iter().rev().find_map(|c| c.emotion_text.clone());
                fx.push(PlayEffect::Synth { item_id: self.next_item, turn_id: turn_id.to_string(), text: text.clone(), caption, emotion_text });
            }
            self.queue.push_back(Item { id: self.next_item, turn_id: turn_id.to_string(), utt, cues: seg.cues, text });
        }
        if kind == Kind::Render {
            self.close_utterance(utt, now, fx);
        }
        self.pump(now, fx);
    }

    /// The turn's `turn_end`: closes its utterance and forgets that it was
    /// stopped and its label.
    pub fn turn_end(&mut self, turn_id: &str, now: Now, fx: &mut PlayEffects) {
        self.stopped.remove(turn_id);
        self.close(turn_id, now, fx);
        self.labels.remove(turn_id);
        self.cut_offs.retain(|c| c.turn_id != turn_id);
    }

    /// Text of `turn_id`'s reply that streamed but will never be played:
    /// what the transport still held when a stop, a stall or a stream error
    /// ended the turn. It joins the turn's `interrupted` record as never
    /// spoken: the record a stop or a drained cut already wrote is written
    /// again with it; an utterance still playing carries it to its own
    /// record; a turn with nothing queued records it alone.
    pub fn unsaid(&mut self, turn_id: &str, text: &str, now: Now, fx: &mut PlayEffects) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if let Some(c) = self.cut_offs.iter_mut().rev().find(|c| c.turn_id == turn_id) {
            c.owed = joined(&c.owed, text);
            let record = interrupted(&c.event_name, &c.turn_id, now, &c.spoken, &c.owed);
            fx.push(PlayEffect::Record(record));
            return;
        }
        let live = self.utterances.values_mut().rev().find(|u| u.turn_id == turn_id && u.record);
        if let Some(u) = live {
            u.unsaid = joined(&u.unsaid, text);
            u.cut = true;
            return;
        }
        let event_name = self.labels.get(turn_id).cloned().unwrap_or_else(|| BACKEND_EVENT.to_string());
        fx.push(PlayEffect::Record(interrupted(&event_name, turn_id, now, "", text)));
        self.remember(CutOff { turn_id: turn_id.to_string(), event_name, spoken: String::new(), owed: text.to_string() });
    }

    fn remember(&mut self, c: CutOff) {
        self.cut_offs.retain(|x| x.turn_id != c.turn_id);
        self.cut_offs.push_back(c);
        while self.cut_offs.len() > CUT_OFFS_KEPT {
            self.cut_offs.pop_front();
        }
    }

    /// Close the turn's open utterance without ending the turn: the frame
    /// wait passed or the socket left ready. Queued sentences still play.
    pub fn close(&mut self, turn_id: &str, now: Now, fx: &mut PlayEffects) {
        if let Some(u) = self.open {
            if self.utterances.get(&u).is_some_and(|x| x.turn_id == turn_id) {
                self.close_utterance(u, now, fx);
            }
        }
    }

    /// Speak one of the client's own lines for `turn_id` (a thinking
    /// filler, a failure line, a greeting): queued like a sentence, in its
    /// own closed utterance that never writes the previous-turn record and
    /// leaves the turn's open utterance alone. Nothing is said for a turn
    /// that was stopped.
    pub fn say(&mut self, turn_id: &str, text: &str, now: Now, fx: &mut PlayEffects) {
        let text = text.trim();
        if self.stopped.contains(turn_id) || !speaks(text) {
            return;
        }
        let u = self.next_utt;
        self.next_utt += 1;
        self.utterances.insert(
            u,
            Utterance {
                turn_id: turn_id.to_string(),
                event_name: String::new(),
                open: false,
                queued: Vec::new(),
                frames: String::new(),
                cursor: 0,
                started: Vec::new(),
                record: false,
                cut: false,
                unsaid: String::new(),
            },
        );
        self.next_item += 1;
        let id = self.next_item;
        fx.push(PlayEffect::Synth { item_id: id, turn_id: turn_id.to_string(), text: text.to_string(), caption: None, emotion_text: None });
        self.queue.push_back(Item { id, turn_id: turn_id.to_string(), utt: u, cues: Vec::new(), text: Some(text.to_string()) });
        self.pump(now, fx);
    }

    /// The turn's reply was cut short after it spoke (its stream stalled or
    /// failed): its utterances close, what is queued still plays, and they
    /// record `interrupted` (with what was heard) instead of `complete`.
    pub fn cut(&mut self, turn_id: &str, now: Now, fx: &mut PlayEffects) {
        let ids: Vec<u64> = self.utterances.iter().filter(|(_, u)| u.turn_id == turn_id && u.record).map(|(id, _)| *id).collect();
        for u in ids {
            if let Some(utt) = self.utterances.get_mut(&u) {
                utt.cut = true;
            }
            self.close_utterance(u, now, fx);
        }
    }

    /// The thinking motion of `turn_id` started (`on`) or ended. Cues held
    /// for it fire when no other turn's motion plays.
    pub fn thinking(&mut self, turn_id: &str, on: bool, _now: Now, fx: &mut PlayEffects) {
        if on {
            if !self.thinking.iter().any(|t| t == turn_id) {
                self.thinking.push(turn_id.to_string());
            }
            return;
        }
        self.thinking.retain(|t| t != turn_id);
        let held = std::mem::take(&mut self.held);
        for (turn, cue) in held {
            self.cue(turn, cue, fx);
        }
    }

    /// A user action stopped speech: [`PlayEffect::Halt`] at once, then the
    /// interrupted records. Every turn the queue knew (and every turn playing
    /// its thinking motion) has its frames dropped until its `turn_end`.
    pub fn stop(&mut self, reason: Stop, now: Now, fx: &mut PlayEffects) {
        fx.push(PlayEffect::Halt);
        let playing = self.playing.take();
        let queue = std::mem::take(&mut self.queue);
        let utterances = std::mem::take(&mut self.utterances);
        tracing::info!(record = "playback_stopped", ?reason, dropped = queue.len());
        self.open = None;
        self.held.clear();
        self.stopped.extend(self.thinking.iter().cloned());
        self.stopped.extend(queue.iter().map(|i| i.turn_id.clone()));
        self.stopped.extend(utterances.values().map(|u| u.turn_id.clone()));
        if let Some(p) = &playing {
            self.stopped.insert(p.turn_id.clone());
        }
        for (id, utt) in utterances {
            if !utt.record {
                continue;
            }
            // The sentence playing showed when it went to the sink: it is spoken.
            let mut owed: Vec<&str> = queue.iter().filter(|i| i.utt == id).filter_map(|i| i.text.as_deref()).collect();
            owed.push(&utt.unsaid);
            let spoken = utt.started.join(" ");
            let owed = owed.iter().map(|s| s.trim()).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" ");
            // Kept for text the transport still held, which comes after the stop.
            self.remember(CutOff { turn_id: utt.turn_id.clone(), event_name: utt.event_name.clone(), spoken: spoken.clone(), owed: owed.clone() });
            if utt.started.is_empty() && utt.unsaid.is_empty() {
                continue;
            }
            fx.push(PlayEffect::Record(interrupted(&utt.event_name, &utt.turn_id, now, &spoken, &owed)));
        }
    }

    /// A report from the audio sink.
    pub fn on_sink(&mut self, event: SinkEvent, now: Now, fx: &mut PlayEffects) {
        match event {
            // It showed when it was handed to the sink ("Showing").
            SinkEvent::Started(_) => {}
            SinkEvent::Finished(id) => self.finished(id, now, fx),
        }
    }

    /// The sink finished `item_id`: a boundary. A stale id is ignored.
    pub fn finished(&mut self, item_id: u64, now: Now, fx: &mut PlayEffects) {
        if self.playing.as_ref().is_none_or(|p| p.id != item_id) {
            return;
        }
        let p = self.playing.take().expect("checked above");
        fx.push(PlayEffect::Done { turn_id: p.turn_id.clone(), text: p.text.clone() });
        self.done_if_drained(p.utt, now, fx);
        self.pump(now, fx);
    }

    /// No audio could be made for `item_id`: its text shows and it is
    /// skipped, as if it had played.
    pub fn failed(&mut self, item_id: u64, now: Now, fx: &mut PlayEffects) {
        if self.playing.as_ref().is_some_and(|p| p.id == item_id) {
            tracing::warn!(record = "playback_no_audio", item_id);
        }
        self.finished(item_id, now, fx);
    }

    fn close_utterance(&mut self, u: u64, now: Now, fx: &mut PlayEffects) {
        if self.open == Some(u) {
            self.open = None;
        }
        if let Some(utt) = self.utterances.get_mut(&u) {
            utt.open = false;
        }
        self.done_if_drained(u, now, fx);
    }

    /// Record `complete` for a closed utterance with nothing left to play.
    fn done_if_drained(&mut self, u: u64, now: Now, fx: &mut PlayEffects) {
        let pending = self.playing.as_ref().is_some_and(|p| p.utt == u) || self.queue.iter().any(|i| i.utt == u);
        if pending || self.utterances.get(&u).is_none_or(|x| x.open) {
            return;
        }
        let utt = self.utterances.remove(&u).expect("checked above");
        if !utt.record || (utt.started.is_empty() && utt.unsaid.is_empty()) {
            return;
        }
        let record = if utt.cut {
            let spoken = utt.started.join(" ");
            self.remember(CutOff { turn_id: utt.turn_id.clone(), event_name: utt.event_name.clone(), spoken: spoken.clone(), owed: utt.unsaid.clone() });
            interrupted(&utt.event_name, &utt.turn_id, now, &spoken, &utt.unsaid)
        } else {
            crate::outcome::record(Outcome::Complete, &utt.event_name, &utt.turn_id, now.wall_ms, "", "")
        };
        fx.push(PlayEffect::Record(record));
    }

    /// Drain the queue up to the next spoken item (a boundary).
    fn pump(&mut self, now: Now, fx: &mut PlayEffects) {
        while self.playing.is_none() {
            let Some(item) = self.queue.pop_front() else { return };
            for cue in item.cues {
                self.cue(item.turn_id.clone(), cue, fx);
            }
            match item.text {
                None => self.done_if_drained(item.utt, now, fx),
                Some(text) => {
                    // Nothing plays before it now: it shows at once, not when
                    // the sink has made its sound (a system or cloud voice
                    // takes tens of milliseconds to seconds), and before the
                    // sink is asked, so that a report the sink answers at
                    // once (no audio) comes after it.
                    if let Some(u) = self.utterances.get_mut(&item.utt) {
                        u.started.push(text.clone());
                    }
                    fx.push(PlayEffect::Show { turn_id: item.turn_id.clone(), text: text.clone() });
                    fx.push(PlayEffect::Play { item_id: item.id, turn_id: item.turn_id.clone(), text: text.clone() });
                    self.playing = Some(Playing { id: item.id, turn_id: item.turn_id, utt: item.utt, text });
                }
            }
        }
    }

    fn cue(&mut self, turn_id: String, cue: Cue, fx: &mut PlayEffects) {
        if self.thinking.iter().any(|t| *t != turn_id) {
            self.held.push((turn_id, cue));
        } else {
            fx.push(PlayEffect::Cue { turn_id, cue });
        }
    }
}

#[cfg(test)]
#[path = "playback_tests.rs"]
mod tests;
