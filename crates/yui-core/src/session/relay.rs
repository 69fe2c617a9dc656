//! The signals ingress's way into the running session: an
//! [`IngressPort`](crate::ingress::IngressPort) that outlives the sessions it
//! serves. The app (or the CLI) attaches each new session to it; what
//! arrives while none is attached (a restart after a settings change) waits,
//! at most [`RELAY_WAITING`](crate::limits::RELAY_WAITING) arrivals, and goes
//! to the next session attached.

use super::Session;
use crate::clock::SharedClock;
use crate::ingress::RelationsError;
use crate::relations::{ExternalRecord, RelationStore};
use crate::triggers::Arrival;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::mpsc;

struct Target {
    arrivals: mpsc::UnboundedSender<Arrival>,
    relations: Arc<RelationStore>,
    character: String,
}

#[derive(Default)]
struct State {
    target: Option<Target>,
    waiting: VecDeque<Arrival>,
    /// The other open characters' relations (name, store), in registry
    /// order: `/relations/<character>` serves every one of them.
    beside: Vec<(String, Arc<RelationStore>)>,
}

/// See the module doc.
pub struct Relay {
    state: Mutex<State>,
    clock: SharedClock,
}

impl Relay {
    /// A relay with no session yet, stamping arrivals with `clock`.
    pub fn new(clock: SharedClock) -> Arc<Relay> {
        Arc::new(Relay { state: Mutex::new(State::default()), clock })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Route arrivals to `session`, whose character is named `character`
    /// (the card's name: `/relations/<character>` matches it, ignoring
    /// case); what waited goes to it now.
    pub fn attach(&self, session: &Session, character: &str) {
        let mut s = self.lock();
        let target = Target { arrivals: session.arrivals.clone(), relations: session.relations(), character: character.trim().to_string() };
        for arrival in s.waiting.drain(..) {
            let _ = target.arrivals.send(arrival);
        }
        s.target = Some(target);
    }

    /// No session for now (it is being replaced): arrivals wait.
    pub fn detach(&self) {
        self.lock().target = None;
    }

    /// Serve the relations of `session`, another open character named
    /// `character` beside main (arrivals still go to main), replacing one
    /// of that name.
    pub fn attach_beside(&self, session: &Session, character: &str) {
        let mut s = self.lock();
        let name = character.trim().to_string();
        s.beside.retain(|(n, _)| !crate::cast::same_name(n, &name));
        s.beside.push((name, session.relations()));
    }

    /// Every session is being replaced (the open characters change): the
    /// arrivals wait, and no character beside main is served.
    pub fn detach_all(&self) {
        let mut s = self.lock();
        s.target = None;
        s.beside.clear();
    }

    /// The character named `character` beside main closed.
    pub fn detach_beside(&self, character: &str) {
        self.lock().beside.retain(|(n, _)| !crate::cast::same_name(n, character));
    }

    fn relations_of(&self, character: &str) -> Result<Arc<RelationStore>, RelationsError> {
        let s = self.lock();
        if let Some(t) = s.target.as_ref().filter(|t| crate::cast::same_name(&t.character, character)) {
            return Ok(t.relations.clone());
        }
        if let Some((_, store)) = s.beside.iter().find(|(n, _)| crate::cast::same_name(n, character)) {
            return Ok(store.clone());
        }
        let names: Vec<&str> = s.target.iter().map(|t| t.character.as_str()).chain(s.beside.iter().map(|(n, _)| n.as_str())).collect();
        if names.is_empty() {
            return Err(RelationsError::NoCharacter);
        }
        Err(RelationsError::NotHere { asked: character.to_string(), here: names.join(", ") })
    }
}

impl crate::ingress::IngressPort for Relay {
    fn arrived(&self, arrival: Arrival) {
        let mut s = self.lock();
        if let Some(t) = &s.target {
            if t.arrivals.send(arrival.clone()).is_ok() {
                return;
            }
            // The session ended without a detach: keep it for the next one.
            s.target = None;
        }
        if s.waiting.len() >= crate::limits::RELAY_WAITING {
            s.waiting.pop_front();
            tracing::warn!(record = "ingress_arrival_dropped", reason = "no session, waiting list full");
        }
        s.waiting.push_back(arrival);
    }

    fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    fn relations(&self, character: &str) -> Result<serde_json::Value, RelationsError> {
        let store = self.relations_of(character)?;
        serde_json::to_value(store.list()).map_err(|e| RelationsError::Store(e.to_string()))
    }

    fn set_relations(&self, character: &str, records: serde_json::Value) -> Result<serde_json::Value, RelationsError> {
        let store = self.relations_of(character)?;
        let records: Vec<ExternalRecord> = serde_json::from_value(records).map_err(|e| RelationsError::BadRecord(e.to_string()))?;
        let stored = store.replace(records, self.clock.now_ms());
        serde_json::to_value(stored).map_err(|e| RelationsError::Store(e.to_string()))
    }
}
