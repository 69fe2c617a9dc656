//! The transcript fold: the eleven chat events (and the user's own
//! messages) folded into a [`Conversation`]. The chat window's reducer
//! (`ui/src/chat/transcript.ts`) folds the same events the same way; the
//! shared cases in `crates/yui-protocol/tests/fixtures/chat_fold.json` hold both
//! to it.
//!
//! Rules:
//! - `start` opens an assistant message, or, for a `msg_id` already there
//!   (Regenerate), a new answer on it that becomes the shown one.
//! - Every other event goes to the last answer of its `msg_id`; an event for
//!   an unknown message opens one (a stream joined late still shows).
//! - `delta` ends the reasoning clock ("Thought for Ns").
//! - `tool_result` is paired with its `tool_call` by `call_id`; a call with
//!   no result when the answer ends is `unresolved`, never a success.
//! - an approval card and the tool card of the call it gated carry different
//!   call ids (the engine asks inside the tool, then reports the call under
//!   its own id): a new tool card takes the first approval card of the
//!   answer not yet paired with the same name, preferring equal arguments
//!   (`ToolCard::approval_id`), so the chat window shows one card that says
//!   it was allowed or denied.
//! - `end` files the server's indices (`user_index`, `assistant_index`)
//!   on the exchange; `null` indices (the engine did not save it) file none.
//! - `cancelled` shows "Stopped" and nothing else; `error` shows its card
//!   with how many tool calls succeeded; pending approvals end with the run.

use super::model::*;
use super::vocabulary::ChatEvent;

/// The most characters of the first user message a title keeps.
pub const TITLE_CHARS: usize = 60;

/// The title of a conversation with no user message yet.
pub const NEW_CHAT_TITLE: &str = "New chat";

/// The id of the user's message of turn `turn_id`.
pub fn user_message_id(turn_id: &str) -> String {
    format!("u{turn_id}")
}

impl Conversation {
    /// An empty conversation.
    pub fn new(id: impl Into<String>, now_ms: i64) -> Self {
        Self {
            id: id.into(),
            title: NEW_CHAT_TITLE.into(),
            created_ms: now_ms,
            updated_ms: now_ms,
            messages: Vec::new(),
            more_before: false,
            more_after: false,
            server_id: None,
        }
    }

    /// The user's message of turn `turn_id` with its `files` (no text and
    /// no files adds nothing: a turn nobody typed).
    pub fn user(&mut self, turn_id: &str, text: &str, files: &[String], now_ms: i64) {
        if text.trim().is_empty() && files.is_empty() {
            return;
        }
        let id = user_message_id(turn_id);
        if self.messages.iter().any(|m| m.id == id) {
            return;
        }
        if self.title == NEW_CHAT_TITLE {
            self.title = title_of(if text.trim().is_empty() { &files[0] } else { text });
        }
        self.messages.push(ChatMessage {
            id,
            role: Role::User,
            at_ms: now_ms,
            text: text.to_string(),
            files: files.to_vec(),
            answers: Vec::new(),
            active: 0,
            server_index: None,
        });
        self.updated_ms = now_ms;
    }

    /// Fold one chat event in.
    pub fn apply(&mut self, event: &ChatEvent, now_ms: i64) {
        self.updated_ms = now_ms;
        if let ChatEvent::Start { msg_id, run_id } = event {
            let answer = Answer::new(run_id, now_ms);
            match self.assistant_mut(msg_id) {
                Some(m) => {
                    m.answers.push(answer);
                    m.active = (m.answers.len() - 1) as u32;
                }
                None => self.messages.push(ChatMessage {
                    id: msg_id.clone(),
                    role: Role::Assistant,
                    at_ms: now_ms,
                    text: String::new(),
                    files: Vec::new(),
                    answers: vec![answer],
                    active: 0,
                    server_index: None,
                }),
            }
            return;
        }
        let msg_id = event.msg_id().to_string();
        if self.assistant_mut(&msg_id).is_none() {
            self.apply(&ChatEvent::Start { msg_id: msg_id.clone(), run_id: String::new() }, now_ms);
        }
        let Some(m) = self.assistant_mut(&msg_id) else { return };
        let indices = match event {
            ChatEvent::End { user_index, assistant_index, .. } => server_indices(*user_index, *assistant_index),
            _ => None,
        };
        if let Some((_, assistant_index)) = indices {
            m.server_index = Some(assistant_index);
        }
        let Some(a) = m.answers.last_mut() else { return };
        a.apply(event, now_ms);
        if let Some((user_index, _)) = indices {
            // The user message just before it gets the server's index too.
            if let Some(pos) = self.messages.iter().position(|m| m.id == msg_id) {
                if let Some(u) = self.messages[..pos].iter_mut().rev().find(|m| m.role == Role::User) {
                    u.server_index = Some(user_index);
                }
            }
        }
    }

    /// Record the user's answer to an approval card (in any message).
    /// False when no pending card has that id.
    pub fn answer_approval(&mut self, approval_id: &str, state: ApprovalState) -> bool {
        for m in &mut self.messages {
            for a in &mut m.answers {
                if let Some(c) = a.approvals.iter_mut().find(|c| c.approval_id == approval_id && c.state == ApprovalState::Pending) {
                    c.state = state;
                    return true;
                }
            }
        }
        false
    }

    /// The engine no longer waited for approval `approval_id` (its answer
    /// came too late): the card says so. False when no card has that id.
    pub fn approval_gone(&mut self, approval_id: &str) -> bool {
        for m in &mut self.messages {
            for a in &mut m.answers {
                if let Some(c) = a.approvals.iter_mut().find(|c| c.approval_id == approval_id) {
                    c.state = ApprovalState::Gone;
                    return true;
                }
            }
        }
        false
    }

    /// What the engine made of the stop of assistant message `msg_id`'s
    /// shown-last answer (`confirmed`: it said `cancelled`). False when the
    /// message is not here or its answer was not stopped.
    pub fn stop_confirmed(&mut self, msg_id: &str, confirmed: bool) -> bool {
        let Some(a) = self.assistant_mut(msg_id).and_then(|m| m.answers.last_mut()) else { return false };
        if a.state != AnswerState::Stopped {
            return false;
        }
        a.stop_confirmed = Some(confirmed);
        true
    }

    /// The conversation's id as the backend knows it.
    pub fn wire_id(&self) -> &str {
        self.server_id.as_deref().unwrap_or(&self.id)
    }

    /// The assistant message `msg_id`.
    pub fn assistant_mut(&mut self, msg_id: &str) -> Option<&mut ChatMessage> {
        self.messages.iter_mut().find(|m| m.role == Role::Assistant && m.id == msg_id)
    }

    /// A summary line for the conversation list.
    pub fn summary(&self, current: bool) -> ConversationSummary {
        ConversationSummary { id: self.id.clone(), title: self.title.clone(), updated_ms: self.updated_ms, messages: self.messages.len() as u32, current }
    }
}

impl ChatMessage {
    /// The text shown: a user message's text, or the shown answer's.
    pub fn shown_text(&self) -> &str {
        match self.role {
            Role::User => &self.text,
            Role::Assistant => self.answers.get(self.active as usize).map(|a| a.text.as_str()).unwrap_or(""),
        }
    }
}

impl Answer {
    /// A new streaming answer of run `run_id`.
    pub fn new(run_id: &str, now_ms: i64) -> Self {
        Self {
            run_id: run_id.to_string(),
            state: AnswerState::Streaming,
            started_ms: now_ms,
            text: String::new(),
            reasoning: String::new(),
            reasoning_ms: None,
            tools: Vec::new(),
            approvals: Vec::new(),
            usage: None,
            error: None,
            stop_confirmed: None,
        }
    }

    fn apply(&mut self, event: &ChatEvent, now_ms: i64) {
        match event {
            ChatEvent::Start { .. } => {}
            ChatEvent::Reasoning { text, .. } => self.reasoning.push_str(text),
            ChatEvent::Delta { text, .. } => {
                self.reasoning_over(now_ms);
                self.text.push_str(text);
            }
            ChatEvent::ToolDrafting { name, .. } => {
                self.reasoning_over(now_ms);
                let drafting = self.tools.iter().any(|c| c.state == ToolCardState::Drafting && &c.name == name);
                if !drafting {
                    self.tools.push(ToolCard::new("", name, serde_json::Value::Null, ToolCardState::Drafting));
                }
            }
            ChatEvent::ToolCall { call_id, name, args, .. } => {
                self.reasoning_over(now_ms);
                let pos = self
                    .tools
                    .iter()
                    .position(|c| &c.call_id == call_id)
                    .or_else(|| self.tools.iter().position(|c| c.state == ToolCardState::Drafting && &c.name == name));
                let i = match pos {
                    Some(i) => {
                        let c = &mut self.tools[i];
                        c.call_id = call_id.clone();
                        c.args = args.clone();
                        if c.state == ToolCardState::Drafting {
                            c.state = ToolCardState::Running;
                        }
                        i
                    }
                    None => {
                        self.tools.push(ToolCard::new(call_id, name, args.clone(), ToolCardState::Running));
                        self.tools.len() - 1
                    }
                };
                if self.tools[i].approval_id.is_none() {
                    self.tools[i].approval_id = self.gate_of(call_id, name, args);
                }
            }
            ChatEvent::ToolResult { call_id, name, ok, output, seconds, .. } => {
                let state = if *ok { ToolCardState::Done } else { ToolCardState::Failed };
                match self.tools.iter_mut().find(|c| &c.call_id == call_id) {
                    Some(c) => {
                        c.state = state;
                        c.output = output.clone();
                        c.seconds = *seconds;
                    }
                    None => {
                        let mut c = ToolCard::new(call_id, name, serde_json::Value::Null, state);
                        c.output = output.clone();
                        c.seconds = *seconds;
                        c.approval_id = self.gate_of(call_id, name, &serde_json::Value::Null);
                        self.tools.push(c);
                    }
                }
            }
            ChatEvent::ApprovalRequest { approval_id, call_id, name, args, .. } => {
                if !self.approvals.iter().any(|c| &c.approval_id == approval_id) {
                    // The client's own tools ask under the call's own id, after its card.
                    if let Some(t) = self.tools.iter_mut().find(|t| !call_id.is_empty() && &t.call_id == call_id && t.approval_id.is_none()) {
                        t.approval_id = Some(approval_id.clone());
                    }
                    self.approvals.push(ApprovalCard {
                        approval_id: approval_id.clone(),
                        call_id: call_id.clone(),
                        name: name.clone(),
                        args: args.clone(),
                        state: ApprovalState::Pending,
                        asked_ms: now_ms,
                    });
                }
            }
            ChatEvent::Usage { chars, seconds, ttft, tokens, context_window, latency, .. } => {
                self.usage =
                    Some(UsageLine { chars: *chars, seconds: *seconds, ttft: *ttft, tokens: *tokens, context_window: *context_window, latency: *latency });
            }
            ChatEvent::Cancelled { .. } => {
                self.close(now_ms);
                self.state = AnswerState::Stopped;
                self.error = None;
            }
            ChatEvent::Error { message, kind, .. } => {
                self.close(now_ms);
                if self.state != AnswerState::Stopped {
                    self.state = AnswerState::Failed;
                    let tools_ok = self.tools.iter().filter(|c| c.state == ToolCardState::Done).count() as u32;
                    self.error = Some(ErrorCard { kind: String::from(kind.clone()), message: message.clone(), tools_ok });
                }
            }
            ChatEvent::End { .. } => {
                self.close(now_ms);
                if self.state == AnswerState::Streaming {
                    self.state = AnswerState::Done;
                }
            }
        }
    }

    /// The approval card that gated call `call_id` of `name` with `args`:
    /// the one asked under the same call id (the client's own tools), else
    /// the first one not yet paired and asked for no other card's call,
    /// with the same name, preferring equal arguments (the engine reports
    /// the call under an id of its own).
    fn gate_of(&self, call_id: &str, name: &str, args: &serde_json::Value) -> Option<String> {
        if let Some(c) = self.approvals.iter().find(|c| !call_id.is_empty() && c.call_id == call_id) {
            return Some(c.approval_id.clone());
        }
        let free = |c: &&ApprovalCard| {
            c.name == name
                && !self.tools.iter().any(|t| t.approval_id.as_deref() == Some(c.approval_id.as_str()) || (!t.call_id.is_empty() && t.call_id == c.call_id))
        };
        let card = self.approvals.iter().filter(free).find(|c| c.args == *args).or_else(|| self.approvals.iter().find(free))?;
        Some(card.approval_id.clone())
    }

    fn reasoning_over(&mut self, now_ms: i64) {
        if !self.reasoning.is_empty() && self.reasoning_ms.is_none() {
            self.reasoning_ms = Some((now_ms - self.started_ms).max(0) as u64);
        }
    }

    /// The run ended: the reasoning clock stops, unanswered calls are
    /// unresolved, pending approvals end.
    fn close(&mut self, now_ms: i64) {
        self.reasoning_over(now_ms);
        for c in &mut self.tools {
            if matches!(c.state, ToolCardState::Drafting | ToolCardState::Running) {
                c.state = ToolCardState::Unresolved;
            }
        }
        for c in &mut self.approvals {
            if c.state == ApprovalState::Pending {
                c.state = ApprovalState::Ended;
            }
        }
    }
}

impl ToolCard {
    fn new(call_id: &str, name: &str, args: serde_json::Value, state: ToolCardState) -> Self {
        Self { call_id: call_id.to_string(), name: name.to_string(), args, state, output: String::new(), seconds: None, approval_id: None }
    }
}

/// The server's indices of an `end` (user, assistant), when it filed the
/// exchange: both present, and not both 0 (the client's own end in older
/// records).
fn server_indices(user_index: Option<u64>, assistant_index: Option<u64>) -> Option<(u64, u64)> {
    match (user_index, assistant_index) {
        (Some(0), Some(0)) => None,
        (Some(u), Some(a)) => Some((u, a)),
        _ => None,
    }
}

/// A conversation title from its first user message: one line, at most
/// [`TITLE_CHARS`] characters.
pub fn title_of(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut title: String = line.chars().take(TITLE_CHARS).collect();
    if line.chars().count() > TITLE_CHARS {
        title.push('…');
    }
    title
}
