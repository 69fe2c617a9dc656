//! The transcript fold: the eleven chat events (and the user's own
//! messages) folded into a [`Conversation`]. The chat window's reducer
//! (`ui/src/chat/transcript.ts`) folds the same events the same way; the
//! shared cases in `crates/yui-core/tests/fixtures/chat_fold.json` hold both
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
//! - `cancelled` shows "Stopped" and nothing else; `error` shows its card
//!   with how many tool calls succeeded; pending approvals end with the run.

use super::model::*;
use crate::transport::agent_chat::ChatEvent;

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
        Self { id: id.into(), title: NEW_CHAT_TITLE.into(), created_ms: now_ms, updated_ms: now_ms, messages: Vec::new(), server_id: None }
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
        // Indices both 0 are the client's own end (no server conversation).
        if let ChatEvent::End { user_index, assistant_index, .. } = event {
            if *user_index != 0 || *assistant_index != 0 {
                m.server_index = Some(*assistant_index);
            }
        }
        let Some(a) = m.answers.last_mut() else { return };
        a.apply(event, now_ms);
        if let ChatEvent::End { user_index, assistant_index, .. } = event {
            if *user_index == 0 && *assistant_index == 0 {
                return;
            }
            // The user message just before it gets the server's index too.
            if let Some(pos) = self.messages.iter().position(|m| m.id == msg_id) {
                if let Some(u) = self.messages[..pos].iter_mut().rev().find(|m| m.role == Role::User) {
                    u.server_index.get_or_insert(*user_index);
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
        ConversationSummary {
            id: self.id.clone(),
            title: self.title.clone(),
            updated_ms: self.updated_ms,
            messages: self.messages.len() as u32,
            current,
        }
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
                let pos = self.tools.iter().position(|c| &c.call_id == call_id).or_else(|| {
                    self.tools.iter().position(|c| c.state == ToolCardState::Drafting && &c.name == name)
                });
                match pos {
                    Some(i) => {
                        let c = &mut self.tools[i];
                        c.call_id = call_id.clone();
                        c.args = args.clone();
                        if c.state == ToolCardState::Drafting {
                            c.state = ToolCardState::Running;
                        }
                    }
                    None => self.tools.push(ToolCard::new(call_id, name, args.clone(), ToolCardState::Running)),
                }
            }
            ChatEvent::ToolResult { call_id, name, ok, output, seconds, .. } => {
                let state = if *ok { ToolCardState::Done } else { ToolCardState::Failed };
                match self.tools.iter_mut().find(|c| &c.call_id == call_id) {
                    Some(c) => {
                        c.state = state;
                        c.output = output.clone();
                        c.seconds = Some(*seconds);
                    }
                    None => {
                        let mut c = ToolCard::new(call_id, name, serde_json::Value::Null, state);
                        c.output = output.clone();
                        c.seconds = Some(*seconds);
                        self.tools.push(c);
                    }
                }
            }
            ChatEvent::ApprovalRequest { approval_id, call_id, name, args, .. } => {
                if !self.approvals.iter().any(|c| &c.approval_id == approval_id) {
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
                self.usage = Some(UsageLine {
                    chars: *chars,
                    seconds: *seconds,
                    ttft: *ttft,
                    tokens: *tokens,
                    context_window: *context_window,
                    latency: *latency,
                });
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
        Self { call_id: call_id.to_string(), name: name.to_string(), args, state, output: String::new(), seconds: None }
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
