//! What the character says through the engine: the playback queue's
//! answers turned into effects, a reply's segments handed to playback, and
//! the lines the client says on its own (an approval's announcement, the
//! thinking fillers, the failure lines), which never write the
//! previous-turn record. The planning itself is `crate::voice`.

use super::{Effect, Effects, Engine};
use crate::voice::filler::FILLER_GAPS;
use crate::voice::playback::{Kind, PlayEffect, PlayEffects};
use crate::voice::request::{SpeechRequest, Tone};
use crate::Now;
use crate::{speaks, FAILURE_LINE};
use yui_protocol::event::UiEvent;
use yui_protocol::model::Segment;

impl Engine {
    /// Say `text` for `turn_id` with a bow (an approval waits): the line is
    /// queued like a filler and never writes the previous-turn record.
    pub fn announce(&mut self, turn_id: &str, text: &str, now: Now, fx: &mut Effects) {
        let cue = yui_protocol::model::Cue { motion_id: Some("bow".into()), ..Default::default() };
        fx.push(Effect::Ui(UiEvent::Cue { turn_id: turn_id.to_string(), cue }));
        let mut pfx = PlayEffects::new();
        self.playback.say(turn_id, text, now, &mut pfx);
        self.played(pfx, fx);
    }

    /// Say the next thinking filler of `id`'s turn (a tool's own line when
    /// `tool` names one that has it) and schedule the one after.
    pub(super) fn filler(&mut self, id: &str, tool: Option<&str>, now: Now, fx: &mut Effects) {
        let Some(lines) = self.cfg.filler.as_ref() else { return };
        let Some(t) = self.turns.iter_mut().find(|t| t.id == id) else { return };
        if t.first_render || t.fillers >= FILLER_GAPS.len() || self.on_bed {
            t.filler_at = None;
            return;
        }
        let text = match tool.and_then(|name| lines.tool(name)) {
            Some(line) => line.to_string(),
            None if tool.is_some() => return,
            None => lines.thinking(t.fillers).to_string(),
        };
        t.fillers += 1;
        t.filler_at = FILLER_GAPS.get(t.fillers).map(|gap| now.at + *gap);
        tracing::info!(record = "filler", turn_id = %id, n = t.fillers, tool, "thinking filler");
        let mut pfx = PlayEffects::new();
        self.playback.say(id, &text, now, &mut pfx);
        self.played(pfx, fx);
    }

    /// The client's failure line for `why`, spoken (it never writes the
    /// previous-turn record) and shown.
    pub(super) fn failure_line(&mut self, turn_id: &str, why: Failure, now: Now, fx: &mut Effects) {
        let text = match (&self.cfg.filler, why) {
            (Some(lines), Failure::Unreachable) => lines.unreachable.clone(),
            (Some(lines), Failure::Timeout) => lines.timeout.clone(),
            (Some(lines), Failure::Error) => lines.failed.clone(),
            (None, _) => FAILURE_LINE.to_string(),
        };
        fx.push(Effect::Ui(UiEvent::FailureLine { turn_id: turn_id.to_string(), text: text.clone() }));
        let mut pfx = PlayEffects::new();
        self.playback.say(turn_id, &text, now, &mut pfx);
        self.played(pfx, fx);
    }

    /// Carry out what the playback queue answered.
    pub(super) fn played(&mut self, pfx: PlayEffects, fx: &mut Effects) {
        for e in pfx {
            match e {
                PlayEffect::Cue { turn_id, cue } => fx.push(Effect::Ui(UiEvent::Cue { turn_id, cue })),
                PlayEffect::Synth { item_id, turn_id: _, text, caption, emotion_text } => {
                    let enum_mode = self.vocabulary.emotion_text_mode == "enum";
                    let tone = emotion_text.map(|t| if enum_mode { Tone::Tag(t) } else { Tone::Free(t) });
                    fx.push(Effect::Synth { item_id, request: SpeechRequest { text, caption, tone } });
                }
                PlayEffect::Play { item_id, .. } => fx.push(Effect::Play { item_id }),
                PlayEffect::Halt => {
                    fx.push(Effect::Halt);
                    fx.push(Effect::Ui(UiEvent::SpeechHalted));
                }
                PlayEffect::Show { turn_id, text } => fx.push(Effect::Ui(UiEvent::Speech { turn_id, text })),
                PlayEffect::Done { turn_id, text } => fx.push(Effect::Ui(UiEvent::SpeechDone { turn_id, text })),
                PlayEffect::Record(record) => {
                    self.previous = Some(record.clone());
                    fx.push(Effect::Save(record));
                }
            }
        }
    }

    /// The thinking motion of `id` ends (its first reply, its end, a stop).
    pub(super) fn thinking_over(&mut self, id: &str, now: Now, fx: &mut Effects) {
        let mut pfx = PlayEffects::new();
        self.playback.thinking(id, false, now, &mut pfx);
        self.played(pfx, fx);
    }

    /// Hand the segments to the playback queue (cues at playback
    /// boundaries, speech in order) and note that the turn spoke.
    pub(super) fn play(&mut self, turn_id: &str, segments: Vec<Segment>, kind: Kind, now: Now, fx: &mut Effects) {
        let said: Vec<&str> = segments.iter().map(|s| s.speech.trim()).filter(|s| speaks(s)).collect();
        if !said.is_empty() {
            if let Some(t) = self.turns.iter_mut().find(|t| t.id == turn_id) {
                if !t.spoken.is_empty() {
                    t.spoken.push(' ');
                }
                t.spoken.push_str(&said.join(" "));
            }
        }
        let mut pfx = PlayEffects::new();
        self.playback.segments(turn_id, segments, kind, now, &mut pfx);
        self.played(pfx, fx);
    }
}

/// Why a turn failed before replying: picks its spoken failure line.
#[derive(Debug, Clone, Copy)]
pub(super) enum Failure {
    /// Not connected, or the connection dropped.
    Unreachable,
    /// The wait passed.
    Timeout,
    /// The backend answered with an error.
    Error,
}
