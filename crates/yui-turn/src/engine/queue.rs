//! The message queue: a message the user sends starts a turn at once, or
//! waits behind the running turn (`turn_queued`) until that turn ends; a
//! stop clears it. A turn nobody typed ([`Engine::fire`]) never queues: it
//! starts only into silence, and the caller keeps it until then.

use super::speaking::Failure;
use super::{Begin, Effect, Effects, Engine, Turn};
use crate::voice::filler::FILLER_GAPS;
use crate::voice::playback::{PlayEffects, Stop};
use crate::Now;
use crate::{USER_EVENT, VOICE_EVENT};
use yui_engine::context::Outcome;
use yui_protocol::event::{Phrase, UiEvent};
use yui_protocol::ErrorCode;

/// A message the user sent, waiting in the queue or starting a turn.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Outgoing {
    pub(super) text: String,
    pub(super) spoken: bool,
    pub(super) attachments: Vec<yui_protocol::chat::Attachment>,
    pub(super) trigger: Option<Box<yui_engine::context::Trigger>>,
    /// Whom a message of the chat of several characters was for.
    pub(super) addressed: Option<yui_engine::context::AddressedTo>,
    /// The bundled guide a help request names.
    pub(super) guide: Option<yui_engine::context::GuideKey>,
}

impl Engine {
    /// Send a message: it starts a turn now, or waits behind the running
    /// one (`turn_queued` tells the UI how many wait).
    pub(super) fn send_text(&mut self, message: Outgoing, now: Now, fx: &mut Effects) {
        if self.running.is_some() {
            let text = message.text.clone();
            self.queue.push_back(message);
            fx.push(Effect::Ui(UiEvent::TurnQueued { text, queued: self.queue.len() as u32 }));
            return;
        }
        self.start(message, true, now, fx);
    }

    /// True when a turn nobody typed may start now: connected, no turn of
    /// the user's or the backend's outstanding, nothing queued, and nothing
    /// said or waiting to be said (she never cuts herself or the user off).
    pub fn can_fire(&self) -> bool {
        self.ready && self.running.is_none() && self.turns.is_empty() && self.backend_turns.is_empty() && self.queue.is_empty() && self.playback.quiet()
    }

    /// Start a turn nobody typed, carrying `trigger` (its `event_name` picks
    /// the block's background marker). False, and nothing happens, when
    /// [`Engine::can_fire`] is false: the caller keeps the trigger and asks
    /// again when the engine is idle.
    pub fn fire(&mut self, trigger: yui_engine::context::Trigger, now: Now, fx: &mut Effects) -> bool {
        if !self.can_fire() {
            return false;
        }
        self.start(Outgoing { trigger: Some(Box::new(trigger)), ..Outgoing::default() }, false, now, fx);
        true
    }

    /// Start a turn. `interrupt`: it stops speech still playing (a
    /// message sent now); a message that waited in the queue was written
    /// before the reply it follows, and lets that reply finish.
    fn start(&mut self, message: Outgoing, interrupt: bool, now: Now, fx: &mut Effects) {
        let Outgoing { text, spoken, attachments, trigger, addressed, guide } = message;
        let turn_id = self.next_id.to_string();
        self.next_id += 1;
        let fired = trigger.as_ref().and_then(|t| t.event_name.clone());
        let event_name: &str = match &fired {
            Some(name) => name,
            None if spoken => VOICE_EVENT,
            None => USER_EVENT,
        };
        // A turn the user typed or spoke stops speech, fillers included.
        if interrupt && !self.playback.quiet() {
            let mut pfx = PlayEffects::new();
            self.playback.stop(Stop::NewTurn, now, &mut pfx);
            self.played(pfx, fx);
        }
        let files = attachments.iter().map(yui_protocol::chat::attachment::label).collect();
        fx.push(Effect::Ui(UiEvent::TurnStarted { turn_id: turn_id.clone(), text: text.clone(), remakes: None, files }));
        if !self.ready {
            tracing::warn!(record = "network_drop", stage = "push_wait", turn_id = %turn_id, "turn started before ready");
            fx.push(Effect::Ui(UiEvent::notice_said(ErrorCode::Network, "Not connected to the backend.", Phrase::new("notice-not-connected"))));
            self.write_outcome(Outcome::Failed, event_name, &turn_id, "", now, fx);
            self.fail_unsent(turn_id, Failure::Unreachable, now, fx);
            return;
        }
        // It stops every older outstanding turn.
        let older: Vec<String> = self.turns.drain(..).map(|t| t.id).chain(self.backend_turns.drain()).collect();
        for id in &older {
            self.stop_id(id.clone());
        }
        if !older.is_empty() {
            fx.push(Effect::StopTools(older));
        }
        tracing::info!(record = "turn", transport = self.cfg.transport, turn_id = %turn_id, spoke_text = spoken, chars = text.chars().count(), "turn");
        let wake = (trigger.is_none() && std::mem::take(&mut self.woken_by_message)).then_some(yui_engine::context::WakeCause::Message);
        fx.push(Effect::Begin(Begin {
            turn_id: turn_id.clone(),
            text,
            event_name: event_name.into(),
            previous: self.previous.clone(),
            spoken,
            attachments,
            trigger,
            wake,
            addressed,
            guide,
        }));
        let mut pfx = PlayEffects::new();
        self.playback.label(&turn_id, event_name);
        self.playback.thinking(&turn_id, true, now, &mut pfx);
        self.played(pfx, fx);
        self.turns.push(Turn {
            id: turn_id.clone(),
            event_name: event_name.into(),
            spoken: String::new(),
            first_render: false,
            deadline: Some(now.at + self.cfg.frame_wait),
            error: None,
            filler_at: self.cfg.filler.as_ref().filter(|_| !self.on_bed).map(|_| now.at + FILLER_GAPS[0]),
            fillers: 0,
            unsaid: false,
        });
        self.running = Some(turn_id);
    }

    /// No turn runs any more (it ended, or failed unsent): the oldest
    /// waiting message starts, letting the reply before it finish.
    pub(super) fn drain_queue(&mut self, now: Now, fx: &mut Effects) {
        if self.running.is_none() {
            if let Some(message) = self.queue.pop_front() {
                self.start(message, false, now, fx);
            }
        }
    }

    /// A stop (the button, barge-in, a reset): nothing waiting is sent.
    pub(super) fn clear_queue(&mut self) {
        self.queue.clear();
    }
}
