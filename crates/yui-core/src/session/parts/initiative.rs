//! The initiative part: what may start a turn nobody typed. The inbox of
//! what other programs sent, the desktop's frontmost line and the user's
//! presence, the pacer, her own initiative (screen transitions, cues, the
//! milestone), a wake still to report, and the holds logged.

use super::super::proactive::{Due, LocalTime, Proactive};
use super::super::world::{World, WorldSample};
use crate::command::Touch;
use crate::context::{Trigger, WakeCause};
use crate::event::UiEvent;
use crate::settings::ReactionsSettings;
use crate::triggers::cues::TouchKind;
use crate::triggers::pacing::{Hold, Pacer, PacingSettings, Source};
use crate::triggers::{Arrival, Inbox};
use crate::world::PresenceChange;
use std::collections::HashMap;

/// Everything that decides when a turn of her own may start.
pub(in crate::session) struct Initiative {
    /// What other programs sent, until it becomes a turn.
    inbox: Inbox,
    /// The frontmost line and the user's presence.
    world: World,
    /// When a turn nobody typed may start.
    pacer: Pacer,
    /// Her own initiative: screen transitions, cues, the milestone.
    proactive: Proactive,
    /// A wake by a click or the timeout, still to be reported.
    wake: Option<WakeCause>,
    /// The last hold logged per event name (each is logged when it changes).
    holds: HashMap<String, &'static str>,
    /// The turn whose reply shows now, and its characters so far.
    reply_chars: (String, usize),
}

impl Initiative {
    /// An initiative reading `world`, driven by `proactive`.
    pub fn new(world: World, proactive: Proactive) -> Self {
        Initiative { inbox: Inbox::new(), world, pacer: Pacer::new(), proactive, wake: None, holds: HashMap::new(), reply_chars: (String::new(), 0) }
    }

    /// Whether a turn of `source` may start now: the bed (`on_bed`), the
    /// engine's silence (`can_fire`) and the pacer, in that order.
    pub fn may_fire(&self, source: Source, now_ms: i64, on_bed: bool, can_fire: bool, pacing: &PacingSettings) -> Result<(), Hold> {
        if on_bed && source != Source::Touch {
            return Err(Hold::OnBed);
        }
        if !can_fire {
            return Err(Hold::Busy);
        }
        self.pacer.check(source, now_ms, self.world.fullscreen(), pacing)
    }

    /// Log a held turn: once per event name until its reason changes.
    pub fn held(&mut self, event: &str, hold: Hold) {
        let reason = hold.reason();
        if self.holds.get(event) != Some(&reason) {
            tracing::info!(record = "trigger_skipped", event_name = %event, reason, "held");
            self.holds.insert(event.to_string(), reason);
        }
    }

    /// A turn of `source` began for `event_name`.
    pub fn fired(&mut self, event_name: &str, source: Source, now_ms: i64) {
        self.holds.remove(event_name);
        tracing::info!(record = "trigger_fired", event_name = %event_name, source = source.name());
        self.pacer.fired(source, now_ms);
    }

    /// Something else arrived from another program.
    pub fn arrive(&mut self, arrival: Arrival, now_ms: i64) {
        self.inbox.arrive(arrival, now_ms)
    }

    /// When the inbox's batch window closes (epoch ms).
    pub fn inbox_deadline(&self) -> Option<i64> {
        self.inbox.next_deadline()
    }

    /// Whether the inbox holds nothing.
    pub fn inbox_empty(&self) -> bool {
        self.inbox.is_empty()
    }

    /// What the inbox has due: only while the user is present (the world's
    /// last reading; unknown idle counts as present) and `idle` (the
    /// engine and pacer let a turn start).
    pub fn poll_inbox(&mut self, now_ms: i64, idle: bool) -> Option<Trigger> {
        let ready = crate::triggers::Readiness { present: self.world.present(), idle };
        self.inbox.poll(now_ms, ready)
    }

    /// A wake to report when the engine is next silent.
    pub fn owe_wake(&mut self, cause: WakeCause) {
        self.wake = Some(cause);
    }

    /// Whether a wake waits to be reported.
    pub fn wake_owed(&self) -> bool {
        self.wake.is_some()
    }

    /// The wake's turn, now that it is reported.
    pub fn take_wake(&mut self, now_ms: i64, reactions: &ReactionsSettings) -> Option<Trigger> {
        let cause = self.wake.take()?;
        Some(self.proactive.wake(cause, &LocalTime::at(now_ms), &mut self.inbox, reactions))
    }

    /// A desktop reading; the presence change it makes, if any.
    pub fn observe_world(&mut self, sample: WorldSample, away_after_ms: u64, now_ms: i64) -> Option<PresenceChange> {
        self.world.observe(sample, away_after_ms, now_ms)
    }

    /// Her initiative hears of the frontmost app and the presence change.
    pub fn observe_proactive(&mut self, change: Option<PresenceChange>, now_ms: i64, reactions: &ReactionsSettings) {
        self.proactive.observe(self.world.app().as_deref(), change, now_ms, reactions);
    }

    /// Whether a fullscreen app is frontmost.
    pub fn fullscreen(&self) -> bool {
        self.world.fullscreen()
    }

    /// Her own initiative's next turn, if any is due (`check` says whether
    /// a turn of a source may start).
    pub fn next(&mut self, now_ms: i64, check: impl Fn(Source) -> Result<(), Hold>, reactions: &ReactionsSettings) -> Option<Due> {
        let local = LocalTime::at(now_ms);
        self.proactive.next(now_ms, &local, self.world.present(), self.world.idle_known(), check, &mut self.inbox, reactions)
    }

    /// A touch's cue turn, debounced.
    pub fn touch(&mut self, touch: &Touch, now_ms: i64) -> Option<Trigger> {
        self.proactive.touch(touch, now_ms)
    }

    /// The cue turn of what the user did with her body.
    pub fn body_cue(&self, kind: &TouchKind) -> Trigger {
        self.proactive.body_cue(kind)
    }

    /// A touch's turn did not start: she answers the next one.
    pub fn touch_dropped(&mut self) {
        self.proactive.touch_dropped()
    }

    /// What the pacer hears of the turns: the user's own, and each piece
    /// of a reply that shows.
    pub fn pace(&mut self, event: &UiEvent, now_ms: i64) {
        match event {
            UiEvent::TurnStarted { text, files, .. } => {
                self.proactive.turn_started(now_ms);
                if !text.is_empty() || !files.is_empty() {
                    self.pacer.user_turn(now_ms);
                }
            }
            UiEvent::Speech { turn_id, text, .. } => {
                if self.reply_chars.0 != *turn_id {
                    self.reply_chars = (turn_id.clone(), 0);
                }
                self.reply_chars.1 += text.chars().count();
                self.pacer.reply_shown(self.reply_chars.1, now_ms);
            }
            _ => {}
        }
    }
}
