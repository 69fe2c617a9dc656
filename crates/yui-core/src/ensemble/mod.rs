//! [`Ensemble`]: the characters open on one desktop, shared by their
//! sessions (`docs/characters.md`). It holds what no one session owns:
//!
//! - who is open, in registry order ([`Cast`]), and each open character's
//!   conversation history (read, never written, by the others: the
//!   `overheard` block, [`overheard`]);
//! - the way an `address_character` call reaches the character it names
//!   (an [`AddressedNote`] into that session), and the exchanges those calls
//!   make: an exchange starts at a user's or a self-started turn, each
//!   addressed turn is one hop of it, it ends at its limit of hops
//!   ([`crate::limits::ADDRESSED_TURNS_PER_EXCHANGE`] by default, a
//!   setting) or when the user speaks to any character;
//! - the voice floor: one character speaks at a time ([`Floor`]).
//!
//! A session takes its [`Seat`] when it starts and leaves it when it
//! closes; a seat nobody took is a character that is not open.

pub mod floor;
pub mod overheard;

use crate::cast::{same_name, Cast};
use crate::chat::history::History;
pub use floor::Floor;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// One exchange of characters speaking to each other, and how many
/// addressed turns (hops) it has had so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exchange {
    /// Its number (unique in the ensemble, increasing).
    pub id: u64,
    /// The addressed turns it has had before this one.
    pub hops: u32,
}

/// Another character's reply that named this one, delivered once it has
/// finished playing: the turn it makes is `trigger: addressed by …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressedNote {
    /// The speaker's name.
    pub from: String,
    /// What the reply said (its spoken text).
    pub text: String,
    /// When it was spoken (epoch ms).
    pub ts: i64,
    /// The exchange the addressed turn belongs to (its hop counted).
    pub exchange: Exchange,
}

/// Why an `address_character` call made no addressed turn (logged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotDelivered {
    /// The name is no other open character (or it closed meanwhile).
    #[error("{0} is not another open character")]
    NotOpen(String),
    /// The user spoke to a character since the exchange began.
    #[error("the exchange ended: the user spoke since")]
    Ended,
    /// The exchange has had its limit of addressed turns.
    #[error("the exchange reached its limit of {0} addressed turns")]
    Limit(u32),
}

/// The characters open on one desktop. See the module doc.
#[derive(Debug)]
pub struct Ensemble {
    cast: Cast,
    exchange_limit: AtomicU32,
    /// Addressed turns delivered and not yet ended (or dropped).
    in_flight: AtomicUsize,
    state: Mutex<State>,
    floor: Floor,
}

#[derive(Debug)]
struct State {
    /// By registry index: the open characters' seats.
    seats: Vec<Option<Seated>>,
    /// The next exchange's number.
    next_exchange: u64,
    /// Exchanges numbered below this are over (the user spoke).
    ended_before: u64,
}

#[derive(Debug)]
struct Seated {
    history: History,
    notes: mpsc::UnboundedSender<AddressedNote>,
}

impl Ensemble {
    /// The ensemble of `cast`, nobody seated yet, with at most
    /// `exchange_limit` addressed turns per exchange.
    pub fn new(cast: Cast, exchange_limit: u32) -> Arc<Self> {
        let seats = cast.names().iter().map(|_| None).collect();
        Arc::new(Ensemble {
            cast,
            exchange_limit: AtomicU32::new(exchange_limit),
            in_flight: AtomicUsize::new(0),
            state: Mutex::new(State { seats, next_exchange: 1, ended_before: 0 }),
            floor: Floor::default(),
        })
    }

    /// The names, in registry order.
    pub fn cast(&self) -> &Cast {
        &self.cast
    }

    /// The seat of the character at registry `index` (`None` past the end).
    pub fn seat(self: &Arc<Self>, index: usize) -> Option<Seat> {
        (index < self.cast.names().len()).then(|| Seat { ensemble: self.clone(), index })
    }

    /// Change the limit of addressed turns per exchange (a setting).
    pub fn set_exchange_limit(&self, limit: u32) {
        self.exchange_limit.store(limit, Ordering::Relaxed);
    }

    /// Addressed turns delivered and not yet ended or dropped: while any
    /// is, a conversation between the characters goes on (a headless run
    /// waits for it before it ends).
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::SeqCst)
    }

    /// The voice floor all the characters share.
    pub fn floor(&self) -> &Floor {
        &self.floor
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// One character's place in an [`Ensemble`].
#[derive(Debug, Clone)]
pub struct Seat {
    ensemble: Arc<Ensemble>,
    index: usize,
}

impl Seat {
    /// This character's name.
    pub fn name(&self) -> &str {
        &self.ensemble.cast.names()[self.index]
    }

    /// Its registry index (0: main).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The ensemble.
    pub fn ensemble(&self) -> &Arc<Ensemble> {
        &self.ensemble
    }

    /// The other open characters' names, in registry order.
    pub fn others(&self) -> Vec<String> {
        let state = self.ensemble.lock();
        self.ensemble.cast.names().iter().enumerate().filter(|(i, _)| *i != self.index && state.seats[*i].is_some()).map(|(_, n)| n.clone()).collect()
    }

    /// Sit down: this character is open, with its conversation `history`
    /// (the others overhear it) and `notes`, where addressed turns for it go.
    pub fn take(&self, history: History, notes: mpsc::UnboundedSender<AddressedNote>) {
        self.ensemble.lock().seats[self.index] = Some(Seated { history, notes });
    }

    /// Leave: this character is closed (its history handle is let go).
    pub fn leave(&self) {
        self.ensemble.lock().seats[self.index] = None;
        self.ensemble.floor.release(self.index);
    }

    /// The other open characters' names and histories, in registry order.
    pub fn others_histories(&self) -> Vec<(String, History)> {
        let state = self.ensemble.lock();
        self.ensemble
            .cast
            .names()
            .iter()
            .zip(&state.seats)
            .enumerate()
            .filter(|(i, _)| *i != self.index)
            .filter_map(|(_, (name, seat))| seat.as_ref().map(|s| (name.clone(), s.history.clone())))
            .collect()
    }

    /// A new exchange, for a turn this character started (or the user's).
    pub fn new_exchange(&self) -> Exchange {
        let mut state = self.ensemble.lock();
        let id = state.next_exchange;
        state.next_exchange += 1;
        Exchange { id, hops: 0 }
    }

    /// The user spoke to this character: every exchange so far is over.
    pub fn user_spoke(&self) {
        let mut state = self.ensemble.lock();
        state.ended_before = state.next_exchange;
    }

    /// Whether `exchange` is over (the user spoke since it began).
    pub fn is_over(&self, exchange: Exchange) -> bool {
        exchange.id < self.ensemble.lock().ended_before
    }

    /// Deliver an addressed turn to the open character named `to` (without
    /// case, not this one): `text` spoken at `ts` by this character in a
    /// turn of `exchange`. Answers the name it reached.
    pub fn address(&self, exchange: Exchange, to: &str, text: &str, ts: i64) -> Result<String, NotDelivered> {
        let limit = self.ensemble.exchange_limit.load(Ordering::Relaxed);
        let state = self.ensemble.lock();
        let names = self.ensemble.cast.names();
        let target = names.iter().enumerate().find(|(i, n)| *i != self.index && same_name(n, to) && state.seats[*i].is_some()).map(|(i, n)| (i, n.clone()));
        let Some((index, name)) = target else { return Err(NotDelivered::NotOpen(to.to_string())) };
        if exchange.id < state.ended_before {
            return Err(NotDelivered::Ended);
        }
        if exchange.hops >= limit {
            return Err(NotDelivered::Limit(limit));
        }
        let note = AddressedNote { from: self.name().to_string(), text: text.to_string(), ts, exchange: Exchange { id: exchange.id, hops: exchange.hops + 1 } };
        let seated = state.seats[index].as_ref().expect("checked above");
        seated.notes.send(note).map_err(|_| NotDelivered::NotOpen(name.clone()))?;
        self.ensemble.in_flight.fetch_add(1, Ordering::SeqCst);
        Ok(name)
    }

    /// An addressed turn delivered to this character ended, or was dropped.
    pub fn settled(&self) {
        let _ = self.ensemble.in_flight.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
    }
}

#[cfg(test)]
mod tests;
