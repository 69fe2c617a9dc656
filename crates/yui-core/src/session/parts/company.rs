//! The company part: this character among the others open on the desktop
//! (`crate::ensemble`, `docs/characters.md`). What she overheard and the
//! cursors its turns move, the `address_character` calls of her turns and
//! the addressed turns they make, the exchange each turn belongs to, the
//! addressed turns owed to her, and her replies waiting for the voice floor.
//! A session with no seat (one character) keeps none of it.

use crate::context::{AddressedBy, Overheard, PreviousTurn, Trigger, TriggerKind};
use crate::ensemble::overheard::Overhearing;
use crate::ensemble::{AddressedNote, Exchange, NotDelivered, Seat};
use crate::event::{TurnOutcome, UiEvent};
use crate::tools::Addressing;
use crate::turn::Effect;
use std::collections::VecDeque;
use tokio::sync::watch;

/// Turns whose spoken text and exchange are kept at most (a turn that never
/// ends is forgotten past it).
const TURNS_KEPT: usize = 32;

/// See the module doc.
pub(in crate::session) struct Company {
    seat: Option<Seat>,
    overhearing: Overhearing,
    /// The tools note the `address_character` calls here, by turn id.
    addressing: Addressing,
    /// Turn id → what it said so far and its exchange, oldest turn first.
    turns: VecDeque<(String, String, Option<Exchange>)>,
    /// The exchange of the addressed turn being fired (its `Begin` takes it).
    firing: Option<Exchange>,
    /// Addressed turns owed to her, oldest first.
    owed: VecDeque<AddressedNote>,
    /// Her addressed turns that began and have not ended.
    addressed_turns: Vec<String>,
    /// Voice effects waiting for the floor, in order.
    held: VecDeque<Effect>,
    /// The floor's holder, watched while effects wait.
    floor: Option<watch::Receiver<Option<usize>>>,
}

impl Company {
    /// Her company: `seat` (none with one character), her cursors, and the
    /// map her tools note calls in.
    pub fn new(seat: Option<Seat>, overhearing: Overhearing, addressing: Addressing) -> Self {
        let floor = seat.as_ref().map(|s| s.ensemble().floor().watch());
        Company {
            seat,
            overhearing,
            addressing,
            turns: VecDeque::new(),
            firing: None,
            owed: VecDeque::new(),
            addressed_turns: Vec::new(),
            held: VecDeque::new(),
            floor,
        }
    }

    /// Her place in the registry order of the open characters (0: main,
    /// and when she is alone).
    pub fn place(&self) -> usize {
        self.seat.as_ref().map_or(0, Seat::index)
    }

    /// The other open characters' names in registry order (none alone).
    pub fn others(&self) -> Vec<String> {
        self.seat.as_ref().map(Seat::others).unwrap_or_default()
    }

    /// The `overheard` blocks of turn `turn_id` (their cursors move when it ends ok).
    pub fn overheard(&mut self, turn_id: &str) -> Vec<Overheard> {
        let Some(seat) = &self.seat else { return Vec::new() };
        let others = seat.others_histories();
        self.overhearing.collect(turn_id, &others)
    }

    /// The user sent her a message: every exchange is over, and so are
    /// the addressed turns owed to her.
    pub fn user_spoke(&mut self) {
        if let Some(seat) = &self.seat {
            seat.user_spoke();
            if !self.owed.is_empty() {
                tracing::info!(record = "addressed_dropped", count = self.owed.len(), reason = "the user spoke");
                for _ in self.owed.drain(..) {
                    seat.settled();
                }
            }
        }
    }

    /// Turn `turn_id` began: it belongs to the exchange of the addressed
    /// turn being fired, or starts one of its own.
    pub fn begun(&mut self, turn_id: &str) {
        let Some(seat) = &self.seat else { return };
        let exchange = match self.firing.take() {
            Some(exchange) => {
                self.addressed_turns.push(turn_id.to_string());
                exchange
            }
            None => seat.new_exchange(),
        };
        self.turn_mut(turn_id).2 = Some(exchange);
    }

    fn turn_mut(&mut self, turn_id: &str) -> &mut (String, String, Option<Exchange>) {
        if let Some(i) = self.turns.iter().position(|(t, _, _)| t == turn_id) {
            return &mut self.turns[i];
        }
        self.turns.push_back((turn_id.to_string(), String::new(), None));
        while self.turns.len() > TURNS_KEPT {
            self.turns.pop_front();
        }
        self.turns.back_mut().expect("pushed")
    }

    /// What the page is told: the sentences she says, and how each turn ended.
    pub fn heard(&mut self, event: &UiEvent) {
        if self.seat.is_none() {
            return;
        }
        match event {
            UiEvent::Speech { turn_id, text } => {
                let said = &mut self.turn_mut(turn_id).1;
                if !said.is_empty() {
                    said.push(' ');
                }
                said.push_str(text.trim());
            }
            UiEvent::TurnEnded { turn_id, outcome, .. } => {
                let ok = *outcome == TurnOutcome::Complete;
                self.overhearing.ended(turn_id, ok);
                if let Some(i) = self.addressed_turns.iter().position(|t| t == turn_id) {
                    self.addressed_turns.remove(i);
                    if let Some(seat) = &self.seat {
                        seat.settled();
                    }
                }
                if !ok {
                    // A failed or stopped reply addresses no one.
                    self.addressing.lock().unwrap_or_else(|p| p.into_inner()).remove(turn_id);
                }
            }
            _ => {}
        }
    }

    /// A reply's record: one that played to its end delivers the
    /// `address_character` call of its turn, with what it said, at `now_ms`.
    pub fn played(&mut self, record: &PreviousTurn, now_ms: i64) {
        let Some(seat) = self.seat.clone() else { return };
        let Some(turn_id) = record.turn_id.as_deref() else { return };
        let called = self.addressing.lock().unwrap_or_else(|p| p.into_inner()).remove(turn_id);
        let Some(to) = called else { return };
        if record.outcome != crate::context::Outcome::Complete {
            return;
        }
        let (said, exchange) = {
            let t = self.turn_mut(turn_id);
            (t.1.clone(), t.2)
        };
        let said = said.trim();
        // An empty or `[SILENT]` reply addresses no one.
        if !crate::turn::speaks(said) {
            tracing::info!(record = "address_silent", turn_id = %turn_id, to = %to);
            return;
        }
        let exchange = exchange.unwrap_or_else(|| seat.new_exchange());
        match seat.address(exchange, &to, said, now_ms) {
            Ok(name) => tracing::info!(record = "addressed", from = %seat.name(), to = %name, exchange = exchange.id, hop = exchange.hops + 1),
            Err(NotDelivered::Limit(limit)) => {
                tracing::info!(record = "exchange_limit", from = %seat.name(), to = %to, exchange = exchange.id, limit, "no further addressed turn")
            }
            Err(e) => tracing::info!(record = "address_not_delivered", from = %seat.name(), to = %to, reason = %e),
        }
    }

    /// An addressed turn owed to her (one whose exchange is over is dropped).
    pub fn owe(&mut self, note: AddressedNote) {
        if let Some(seat) = self.seat.as_ref().filter(|s| s.is_over(note.exchange)) {
            tracing::info!(record = "addressed_dropped", from = %note.from, reason = "the exchange ended");
            seat.settled();
            return;
        }
        self.owed.push_back(note);
    }

    /// Whether an addressed turn waits for her.
    pub fn owes(&self) -> bool {
        !self.owed.is_empty()
    }

    /// The next addressed turn owed to her, as the trigger to fire (its
    /// exchange goes to the turn it begins). Those whose exchange ended
    /// meanwhile are dropped.
    pub fn next_addressed(&mut self) -> Option<Trigger> {
        let seat = self.seat.as_ref()?;
        while let Some(note) = self.owed.pop_front() {
            if seat.is_over(note.exchange) {
                tracing::info!(record = "addressed_dropped", from = %note.from, reason = "the exchange ended");
                seat.settled();
                continue;
            }
            self.firing = Some(note.exchange);
            let mut trigger = Trigger::new(TriggerKind::Addressed, Some("addressed.character".into()));
            trigger.addressed = Some(AddressedBy { from: Some(note.from), text: Some(note.text), ts: Some(note.ts) });
            return Some(trigger);
        }
        None
    }

    /// The fired addressed turn did not begin: owed again, first.
    pub fn not_fired(&mut self, trigger: Trigger) {
        let (Some(exchange), Some(by)) = (self.firing.take(), trigger.addressed) else { return };
        let note = AddressedNote { from: by.from.unwrap_or_default(), text: by.text.unwrap_or_default(), ts: by.ts.unwrap_or_default(), exchange };
        self.owed.push_front(note);
    }

    // --- the voice floor ---

    /// Whether `effect` goes now: a voice effect (a sentence shown or
    /// played, a cue or the end of a sentence) while another character has
    /// the floor, or behind one that waits, waits (returned `Some` when it
    /// goes now). A halt drops what waits and goes.
    pub fn voice(&mut self, effect: Effect) -> Option<Effect> {
        let Some(seat) = &self.seat else { return Some(effect) };
        let voice = matches!(effect, Effect::Play { .. } | Effect::Ui(UiEvent::Speech { .. } | UiEvent::SpeechDone { .. } | UiEvent::Cue { .. }));
        if matches!(effect, Effect::Halt) {
            self.held.clear();
            return Some(effect);
        }
        if !voice {
            return Some(effect);
        }
        let speaks = matches!(effect, Effect::Play { .. } | Effect::Ui(UiEvent::Speech { .. }));
        if self.held.is_empty() && (!speaks || seat.ensemble().floor().take(seat.index())) {
            return Some(effect);
        }
        if self.held.is_empty() {
            tracing::info!(record = "voice_waits", character = %seat.name(), holder = ?seat.ensemble().floor().holder());
        }
        self.held.push_back(effect);
        None
    }

    /// The floor changed: when she can take it now, what waited, in order.
    pub fn floor_changed(&mut self) -> Vec<Effect> {
        let Some(seat) = &self.seat else { return Vec::new() };
        if self.held.is_empty() || !seat.ensemble().floor().take(seat.index()) {
            return Vec::new();
        }
        self.held.drain(..).collect()
    }

    /// Nothing of hers plays or waits to (`speaking` false) and no turn
    /// of hers runs (`busy` false): the floor is free. (A reply keeps the
    /// floor between its sentences, while the next one streams.)
    pub fn quiet(&mut self, speaking: bool, busy: bool) {
        if let Some(seat) = &self.seat {
            if !speaking && !busy && self.held.is_empty() {
                seat.ensemble().floor().release(seat.index());
            }
        }
    }

    /// Wait until the floor's holder changes (forever without a seat or
    /// when nothing waits).
    pub async fn floor_change(&mut self) {
        match (&mut self.floor, self.held.is_empty()) {
            (Some(rx), false) => {
                if rx.changed().await.is_err() {
                    std::future::pending::<()>().await
                }
            }
            _ => std::future::pending::<()>().await,
        }
    }

    /// The session closes: she leaves her seat.
    pub fn leave(&mut self) {
        if let Some(seat) = &self.seat {
            seat.leave();
        }
    }
}
