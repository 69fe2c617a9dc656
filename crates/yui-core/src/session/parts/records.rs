//! The records part: what a turn's context block is sampled from, the
//! blocks sent (for the inspector), the outcomes saved for the next turn,
//! and the delegations this character has seen.

use super::super::setup::{Sampler, TurnCompany, TurnShot};
use crate::context_log::{ContextLog, SentContext};
use crate::delegations::DelegationHistory;
use crate::outcome::OutcomeStore;
use crate::picture::Picture;
use crate::transport::TurnRequest;
use crate::turn::Begin;
use std::sync::{Arc, Mutex};

/// The session's records: the context sampler, the log of sent context
/// blocks, the outcome store and the delegation history (the settings
/// window's Session section reads it through the session).
pub(in crate::session) struct Records {
    sampler: Sampler,
    contexts: Arc<ContextLog>,
    outcomes: OutcomeStore,
    delegations: Arc<Mutex<DelegationHistory>>,
}

impl Records {
    /// Records over these stores.
    pub fn new(sampler: Sampler, contexts: Arc<ContextLog>, outcomes: OutcomeStore, delegations: Arc<Mutex<DelegationHistory>>) -> Self {
        Records { sampler, contexts, outcomes, delegations }
    }

    /// The screenshot the next turn attaches, when the setting is on.
    pub fn turn_shot(&self) -> Option<TurnShot> {
        self.sampler.turn_shot()
    }

    /// Sample and render the turn `begin` starts.
    pub fn turn(&self, begin: &Begin, wall_ms: i64, shot: Option<&TurnShot>, images: Vec<Picture>, company: TurnCompany) -> TurnRequest {
        self.sampler.turn(begin, wall_ms, shot, images, company)
    }

    /// Keep a sent block for the inspector.
    pub fn sent(&self, entry: SentContext) {
        self.contexts.push(entry)
    }

    /// The pictures a turn sent, as they left.
    pub fn images_sent(&self, turn_id: &str, images: Vec<String>) {
        self.contexts.attach_images(turn_id, images)
    }

    /// Save a finished turn's outcome.
    pub fn save(&self, record: crate::context::PreviousTurn) {
        self.outcomes.save(record)
    }

    /// The backend's delegations as of `now_ms`.
    pub fn delegations(&self, items: &[crate::model::DelegationItem], now_ms: i64) {
        self.delegations.lock().unwrap_or_else(|p| p.into_inner()).apply(items, now_ms);
    }
}
