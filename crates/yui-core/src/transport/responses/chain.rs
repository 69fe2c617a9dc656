//! What the client keeps of a Responses conversation: the id of the last
//! completed response, that response's tool outputs still owed to the
//! server, and the session's greetings.
//!
//! The backend holds the conversation; the client only chains to it. A turn
//! on a chain starts with the pending outputs; a turn on a fresh chain starts
//! with the greetings as assistant items (`docs/client-context.md`, "Where
//! the block goes").

use super::body;
use serde_json::Value;

/// The chain state of one session.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Chain {
    previous_id: Option<String>,
    pending: Vec<Value>,
    greetings: Vec<String>,
    /// Turns cut short after their request left (a stop, a stall, a
    /// stream error): their user item and what streamed of the reply, which
    /// no completed response holds. They go before the next turn's user
    /// item until a response completes.
    carried: Vec<Value>,
}

impl Chain {
    /// A fresh chain with no greetings.
    pub fn new() -> Self {
        Self::default()
    }

    /// The response the next turn continues from, if any.
    pub fn previous_id(&self) -> Option<&str> {
        self.previous_id.as_deref()
    }

    /// The outputs owed to the last completed response.
    pub fn pending(&self) -> &[Value] {
        &self.pending
    }

    /// The items that go before a turn's user item: the pending outputs on
    /// a chain, the greetings on a fresh chain.
    /// Then the turns carried since ([`Chain::carry`]).
    pub fn leading_items(&self) -> Vec<Value> {
        let mut items: Vec<Value> =
            if self.previous_id.is_some() { self.pending.clone() } else { self.greetings.iter().map(|g| body::greeting_item(g)).collect() };
        items.extend(self.carried.iter().cloned());
        items
    }

    /// A response completed: chain to it. `pending` are the
    /// `function_call_output` items for its calls that no follow-up answered.
    /// The carried turns went out in its input: the server holds them now.
    pub fn adopt(&mut self, response_id: String, pending: Vec<Value>) {
        self.previous_id = Some(response_id);
        self.pending = pending;
        self.carried.clear();
    }

    /// A turn was cut short after its request left: keep its `items` (the
    /// user item and the assistant text streamed) for the next request, so
    /// the model sees what it was asked and what it had said.
    pub fn carry(&mut self, items: Vec<Value>) {
        self.carried.extend(items);
    }

    /// The server lost the conversation (a 404 on a chained request): forget
    /// the id and the pending outputs, keep the greetings for the fresh chain.
    pub fn lost(&mut self) {
        self.previous_id = None;
        self.pending.clear();
    }

    /// `Outbound::Reset`: a new conversation, with no greetings yet.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// `Outbound::Greeting`: record a greeting the client performed.
    pub fn greet(&mut self, text: String) {
        self.greetings.push(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn leading_items_follow_the_chain_state() {
        let mut c = Chain::new();
        assert!(c.leading_items().is_empty());
        c.greet("Hi!".into());
        assert_eq!(c.leading_items(), vec![json!({"role":"assistant","content":"Hi!"})]);
        let out = body::call_output("c1", "ok", &[]);
        c.adopt("resp_1".into(), vec![out.clone()]);
        assert_eq!(c.previous_id(), Some("resp_1"));
        assert_eq!(c.leading_items(), vec![out]);
        c.lost();
        assert_eq!(c.previous_id(), None);
        assert_eq!(c.leading_items(), vec![json!({"role":"assistant","content":"Hi!"})], "greetings survive a lost chain");
        c.adopt("resp_2".into(), vec![]);
        c.reset();
        assert_eq!(c, Chain::new());
    }

    #[test]
    fn a_carried_turn_rides_until_a_response_completes() {
        let mut c = Chain::new();
        c.greet("Hi!".into());
        let user = json!({"role":"user","content":"stop test"});
        let said = json!({"role":"assistant","content":"Before it stopped. "});
        c.carry(vec![user.clone(), said.clone()]);
        assert_eq!(c.leading_items(), vec![json!({"role":"assistant","content":"Hi!"}), user.clone(), said.clone()]);
        c.lost();
        assert_eq!(c.leading_items().len(), 3, "a lost chain keeps the carried turn");
        c.adopt("resp_1".into(), vec![]);
        assert!(c.leading_items().is_empty(), "the server holds it now");
        let out = body::call_output("c1", "ok", &[]);
        c.adopt("resp_2".into(), vec![out.clone()]);
        c.carry(vec![user.clone()]);
        assert_eq!(c.leading_items(), vec![out, user], "owed outputs first");
        c.reset();
        assert_eq!(c, Chain::new());
    }
}
