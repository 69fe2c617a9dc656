//! The chat window's side of a session: every transport mapped onto the
//! eleven events of seed `004` ([`map`]), folded into conversations
//! ([`fold`], [`model`]) and kept in the data dir ([`store`]).
//!
//! [`ChatLog`] joins them for the session driver: it takes what the driver
//! sees, returns the [`UiEvent`]s to emit (`chat` per event, `conversation`
//! when the current conversation is replaced), and saves the current
//! conversation after each user message and each turn's end.

pub mod fold;
pub mod map;
pub mod model;
pub mod store;

pub use map::ChatMap;
pub use model::*;
pub use store::ChatStore;

use crate::event::UiEvent;
use crate::transport::agent_chat::ChatEvent;
use crate::transport::{ReplyPart, ToolCall, ToolResult};
use std::collections::HashMap;

/// The map and the store of one session. See the module doc.
#[derive(Debug)]
pub struct ChatLog {
    map: ChatMap,
    store: ChatStore,
    /// Client tool calls running: id → tool name (for their results).
    calls: HashMap<String, String>,
}

impl ChatLog {
    /// A log over `store`, showing `context_window` beside token counts.
    pub fn new(store: ChatStore, context_window: Option<u64>) -> Self {
        Self { map: ChatMap::new(context_window), store, calls: HashMap::new() }
    }

    /// The store (the session's queries read it).
    pub fn store(&self) -> &ChatStore {
        &self.store
    }

    /// An engine UI event; returns the chat events it makes (and, for a
    /// reset, the new conversation).
    pub fn ui(&mut self, event: &UiEvent, now_ms: i64) -> Vec<UiEvent> {
        let mut out = Vec::new();
        match event {
            UiEvent::TurnStarted { turn_id, text } => {
                self.store.current_mut().user(turn_id, text, now_ms);
            }
            UiEvent::SessionReset => {
                let c = self.store.new_conversation(now_ms).clone();
                out.push(UiEvent::Conversation { conversation: c });
            }
            _ => {}
        }
        let events = self.map.ui(event, now_ms);
        self.fold(events, now_ms, &mut out);
        if matches!(event, UiEvent::TurnStarted { .. }) {
            self.store.save();
        }
        out
    }

    /// A reply part the engine will take (the driver skips stopped turns').
    pub fn reply(&mut self, turn_id: &str, part: &ReplyPart, now_ms: i64) -> Vec<UiEvent> {
        let mut out = Vec::new();
        let events = self.map.reply(turn_id, part, now_ms);
        self.fold(events, now_ms, &mut out);
        out
    }

    /// One of `agent_chat`'s own events.
    pub fn wire(&mut self, turn_id: &str, event: &ChatEvent, now_ms: i64) -> Vec<UiEvent> {
        let mut out = Vec::new();
        let events = self.map.wire(turn_id, event, now_ms);
        self.fold(events, now_ms, &mut out);
        out
    }

    /// A turn's request left.
    pub fn sent(&mut self, turn_id: &str, now_ms: i64) {
        self.map.sent(turn_id, now_ms);
    }

    /// A client tool call started.
    pub fn tool_call(&mut self, call: &ToolCall, now_ms: i64) -> Vec<UiEvent> {
        self.calls.insert(call.id.clone(), call.name.clone());
        let mut out = Vec::new();
        let events = self.map.tool_call(call, now_ms);
        self.fold(events, now_ms, &mut out);
        out
    }

    /// A client tool call finished.
    pub fn tool_result(&mut self, result: &ToolResult, now_ms: i64) -> Vec<UiEvent> {
        let mut out = Vec::new();
        let Some(name) = self.calls.remove(&result.id) else { return out };
        let events = self.map.tool_result(result, &name, now_ms);
        self.fold(events, now_ms, &mut out);
        out
    }

    /// The user answered an approval card: it shows the answer.
    pub fn approval_answered(&mut self, approval_id: &str, state: ApprovalState) {
        if self.store.current_mut().answer_approval(approval_id, state) {
            self.store.save();
        }
    }

    fn fold(&mut self, events: Vec<ChatEvent>, now_ms: i64, out: &mut Vec<UiEvent>) {
        let mut ended = false;
        for event in events {
            self.store.current_mut().apply(&event, now_ms);
            ended |= event.is_terminal();
            out.push(UiEvent::Chat { event });
        }
        if ended {
            self.store.save();
        }
    }
}
