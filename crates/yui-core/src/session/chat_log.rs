//! The chat window's side of a session: [`ChatLog`] joins the map of every
//! transport onto the chat events ([`crate::turn::chat_map`]), the fold into
//! conversations ([`crate::chat::fold`], [`crate::chat::model`]) and the
//! store in the data dir ([`crate::chat::store`]) for the session driver: it
//! takes what the driver sees, returns the [`UiEvent`]s to emit (`chat` per
//! event, `conversation` when the current conversation is replaced), and
//! saves the current conversation after each user message and each turn's
//! end.

use crate::chat::{AnswerState, ApprovalState, ChatEvent, ChatMessage, ChatStore, Conversation, Role};
use crate::command::UserCommand;
use crate::contract::{Outbound, ReplyPart, SideRequest, ToolCall, ToolResult};
use crate::error::ErrorCode;
use crate::event::UiEvent;
use crate::turn::chat_map::ChatMap;
use std::collections::HashMap;

/// What the chat log made of a user command.
#[derive(Debug, Default, PartialEq)]
pub struct Handled {
    /// Events to emit.
    pub events: Vec<UiEvent>,
    /// Messages for the transport.
    pub outbound: Vec<Outbound>,
    /// What the engine gets instead (`None`: nothing).
    pub engine: Option<UserCommand>,
}

/// The map and the store of one session. See the module doc.
#[derive(Debug)]
pub struct ChatLog {
    map: ChatMap,
    store: ChatStore,
    /// A Regenerate waiting for its turn to start: the message it remakes
    /// and that message's server index.
    regenerating: Option<(String, Option<u64>)>,
    /// Turns that remake a message: turn id → (message id, server index).
    remakes: HashMap<String, (String, Option<u64>)>,
    /// The turn ids of `remakes`, oldest first.
    remake_order: Vec<String>,
    /// Forks asked of the server and not named yet: local id → the server
    /// indices of the messages it copied. Until the server names a fork its
    /// copies have no index (they are not on the server under the fork's
    /// id), so nothing addresses them there by a parent's index.
    pending_forks: HashMap<String, Vec<Option<u64>>>,
}

impl ChatLog {
    /// A log over `store`, showing `context_window` beside token counts.
    pub fn new(store: ChatStore, context_window: Option<u64>) -> Self {
        Self { map: ChatMap::new(context_window), store, regenerating: None, remakes: HashMap::new(), remake_order: Vec::new(), pending_forks: HashMap::new() }
    }

    /// The store (the session's queries read it).
    pub fn store(&self) -> &ChatStore {
        &self.store
    }

    /// Mark a `turn_started` that a Regenerate caused with the message it
    /// remakes (before it is emitted and passed to [`ChatLog::ui`]).
    pub fn annotate(&self, event: &mut UiEvent) {
        if let (UiEvent::TurnStarted { remakes, .. }, Some((msg_id, _))) = (event, &self.regenerating) {
            *remakes = Some(msg_id.clone());
        }
    }

    /// An engine UI event; returns the chat events it makes (and, for a
    /// reset, the new conversation).
    pub fn ui(&mut self, event: &UiEvent, now_ms: i64) -> Vec<UiEvent> {
        let mut out = Vec::new();
        match event {
            UiEvent::TurnStarted { turn_id, text, files, .. } => match self.regenerating.take() {
                // A remake's user message is already there.
                Some(remake) => {
                    // The newest remakes only: a long session's are not all kept.
                    if self.remakes.len() >= crate::limits::CHAT_REMAKES_KEPT {
                        let oldest = self.remake_order.remove(0);
                        self.remakes.remove(&oldest);
                    }
                    self.remakes.insert(turn_id.clone(), remake);
                    self.remake_order.push(turn_id.clone());
                }
                None => self.store.current_mut().user(turn_id, text, files, now_ms),
            },
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
        let late = matches!(part, ReplyPart::Unsaid { .. }) && !events.is_empty();
        self.fold(events, now_ms, &mut out);
        if late {
            // Text held when a stop or a stall ended the turn comes after its end.
            self.store.save();
        }
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

    /// The client asks the user before its own tool `name` runs.
    pub fn ask(&mut self, turn_id: &str, approval_id: &str, call_id: &str, name: &str, args: &serde_json::Value, now_ms: i64) -> Vec<UiEvent> {
        let mut out = Vec::new();
        let events = self.map.ask(turn_id, approval_id, call_id, name, args, now_ms);
        self.fold(events, now_ms, &mut out);
        out
    }

    /// A client tool call started.
    pub fn tool_call(&mut self, call: &ToolCall, now_ms: i64) -> Vec<UiEvent> {
        let mut out = Vec::new();
        let events = self.map.tool_call(call, now_ms);
        self.fold(events, now_ms, &mut out);
        out
    }

    /// A client tool call finished.
    pub fn tool_result(&mut self, result: &ToolResult, now_ms: i64) -> Vec<UiEvent> {
        let mut out = Vec::new();
        let events = self.map.tool_result(result, now_ms);
        self.fold(events, now_ms, &mut out);
        out
    }

    /// A user command about the conversation. `busy`: a turn runs or
    /// messages wait. Regenerate becomes the user message sent again (its
    /// answer filed as another version); version, fork and delete change the
    /// store and tell the `agent_chat` server, addressing each exchange by
    /// its user message's server index (an exchange the server did not file
    /// stays local); anything else passes to the engine unchanged.
    pub fn command(&mut self, cmd: UserCommand, busy: bool, now_ms: i64) -> Handled {
        let mut h = Handled::default();
        // An edit of a message no longer in memory loads it (and what follows) first.
        if let UserCommand::Regenerate { msg_id }
        | UserCommand::PickVersion { msg_id, .. }
        | UserCommand::Fork { msg_id }
        | UserCommand::DeleteMessage { msg_id } = &cmd
        {
            self.store.ensure_loaded(msg_id);
        }
        let conv = self.store.current();
        let wire_id = conv.wire_id().to_string();
        match cmd {
            UserCommand::Regenerate { msg_id } => {
                let pos = conv.messages.iter().position(|m| m.id == msg_id && m.role == Role::Assistant);
                let asked = pos.and_then(|p| conv.messages[..p].iter().rev().find(|m| m.role == Role::User));
                match (pos, asked) {
                    _ if busy => h.events.push(said("Wait for the reply to finish before regenerating.", "notice-wait-regenerate")),
                    (Some(p), Some(user)) => {
                        self.regenerating = Some((msg_id, exchange_index(&conv.messages, p)));
                        h.engine = Some(UserCommand::SendText { text: user.text.clone() });
                    }
                    (Some(_), None) => h.events.push(said("Nothing to regenerate: no message of yours came before this one.", "notice-nothing-to-regenerate")),
                    (None, _) => h.events.push(said("That message is not in this conversation.", "notice-message-not-here")),
                }
            }
            UserCommand::PickVersion { msg_id, n } => {
                let c = self.store.current_mut();
                let Some(pos) = c.messages.iter().position(|m| m.role == Role::Assistant && m.id == msg_id) else { return h };
                let index = exchange_index(&c.messages, pos);
                let m = &mut c.messages[pos];
                if (n as usize) < m.answers.len() && m.active != n {
                    m.active = n;
                    if let Some(index) = index {
                        h.outbound.push(Outbound::Side(SideRequest::PickVersion { conversation_id: wire_id, index, n }));
                    }
                    self.saved_snapshot(&mut h);
                }
            }
            UserCommand::Fork { msg_id } => {
                // A fork keeps whole exchanges, as the server does: from a
                // user message, its answer comes along.
                let Some(pos) = conv.messages.iter().position(|m| m.id == msg_id) else {
                    h.events.push(said("That message is not in this conversation.", "notice-message-not-here"));
                    return h;
                };
                let last = match conv.messages.get(pos + 1) {
                    Some(next) if conv.messages[pos].role == Role::User && next.role == Role::Assistant => pos + 1,
                    _ => pos,
                };
                let index = exchange_index(&conv.messages, last);
                let last_id = conv.messages[last].id.clone();
                // The copies have no place on the server until it names the fork.
                let Some((local_id, indices)) = self.store.fork(&last_id, now_ms).map(|(f, indices)| (f.id.clone(), indices)) else {
                    h.events.push(said("That message is not in this conversation.", "notice-message-not-here"));
                    return h;
                };
                match index {
                    Some(index) => {
                        self.pending_forks.insert(local_id.clone(), indices);
                        h.outbound.push(Outbound::Side(SideRequest::Fork { conversation_id: wire_id, index, local_id }));
                    }
                    None => tracing::info!(record = "chat_fork_local", msg_id = %msg_id, "the server filed no index for it; the fork stays local"),
                }
                self.saved_snapshot(&mut h);
            }
            UserCommand::DeleteMessage { msg_id } => {
                let c = self.store.current_mut();
                let Some(pos) = c.messages.iter().position(|m| m.id == msg_id) else { return h };
                // The exchange: the user message and the answer to it.
                let (first, last) = exchange_of(&c.messages, pos);
                if c.messages[first..=last].iter().any(|m| m.answers.last().is_some_and(|a| a.state == AnswerState::Streaming)) {
                    h.events.push(said("Stop the reply before deleting it.", "notice-stop-before-delete"));
                    return h;
                }
                let index = exchange_index(&c.messages, last);
                // The server drops two messages: later ones move up by two.
                self.store.delete_messages(first, last, index.map(|i| (i, 2)), now_ms);
                if let Some(index) = index {
                    h.outbound.push(Outbound::Side(SideRequest::DeleteMessage { conversation_id: wire_id, index }));
                }
                self.saved_snapshot(&mut h);
            }
            UserCommand::DeleteConversation { conversation_id } => return self.delete_conversation(&conversation_id, busy, now_ms),
            UserCommand::DeleteAllConversations => return self.delete_all_conversations(busy, now_ms),
            other => h.engine = Some(other),
        }
        h
    }

    /// Delete conversation `id` (refused while the current one's turn runs
    /// or messages wait). The engine's copy goes too ([`SideRequest::DeleteConversation`])
    /// when the engine knows it; every window gets the current conversation,
    /// which is another one when `id` was current.
    pub fn delete_conversation(&mut self, id: &str, busy: bool, now_ms: i64) -> Handled {
        let mut h = Handled::default();
        if busy && self.store.current().id == id {
            h.events.push(said("Stop the reply before deleting this conversation.", "notice-stop-before-delete-conversation"));
            return h;
        }
        match self.store.delete(id, now_ms) {
            Ok(gone) => {
                h.outbound.extend(forget_on_server(&gone));
                h.events.push(UiEvent::Conversation { conversation: self.store.current().clone() });
            }
            Err(refused) => h.events.push(notice(&refused.to_string())),
        }
        h
    }

    /// Delete every conversation (refused while a turn runs or messages
    /// wait), the engine's copies too; every window gets the fresh current
    /// conversation.
    pub fn delete_all_conversations(&mut self, busy: bool, now_ms: i64) -> Handled {
        let mut h = Handled::default();
        if busy {
            h.events.push(said("Stop the reply before deleting the conversations.", "notice-stop-before-delete-all"));
            return h;
        }
        let (gone, failure) = self.store.delete_all(now_ms);
        h.outbound.extend(gone.iter().flat_map(forget_on_server));
        h.events.extend(failure.map(|m| notice(&m)));
        h.events.push(UiEvent::Conversation { conversation: self.store.current().clone() });
        h
    }

    /// The engine said what became of a stopped turn (`agent_chat`): the
    /// answer's Stopped mark says whether it confirmed; the conversation,
    /// whole, tells every window. `None` when the turn is not in the
    /// current conversation (logged).
    pub fn stop_confirmed(&mut self, turn_id: &str, confirmed: bool) -> Option<UiEvent> {
        let msg_id = self.remakes.get(turn_id).map(|(m, _)| m.clone()).unwrap_or_else(|| turn_id.to_string());
        if !self.store.current_mut().stop_confirmed(&msg_id, confirmed) {
            tracing::info!(record = "chat_stop_mark", turn_id = %turn_id, confirmed, "the stopped answer is not in the current conversation");
            return None;
        }
        self.store.save();
        Some(UiEvent::Conversation { conversation: self.store.current().clone() })
    }

    /// The engine no longer waited for an approval the user answered: the
    /// card says it is no longer pending.
    pub fn approval_gone(&mut self, approval_id: &str) -> Option<UiEvent> {
        if !self.store.current_mut().approval_gone(approval_id) {
            return None;
        }
        self.store.save();
        Some(UiEvent::Conversation { conversation: self.store.current().clone() })
    }

    /// The route of a turn's request: the conversation as the backend
    /// knows it, and the server index of the user message whose answer a
    /// Regenerate remakes.
    pub fn route(&self, turn_id: &str) -> (String, Option<u64>) {
        let regenerate_of = self.remakes.get(turn_id).and_then(|(_, index)| *index);
        (self.store.current().wire_id().to_string(), regenerate_of)
    }

    /// The server named a forked conversation: its copies take back the
    /// server indices they had in the parent (the server's fork keeps them
    /// at the same places). A fork the server never names keeps none.
    pub fn forked(&mut self, local_id: &str, server_id: &str) {
        let indices = self.pending_forks.remove(local_id).unwrap_or_default();
        self.store.set_server_id(local_id, server_id, &indices);
    }

    /// Save the current conversation and add it whole to `h`'s events.
    fn saved_snapshot(&mut self, h: &mut Handled) {
        self.store.save();
        h.events.push(UiEvent::Conversation { conversation: self.store.current().clone() });
    }

    /// The user answered an approval card (in any window): it shows the
    /// answer; the conversation, whole, tells every window.
    pub fn approval_answered(&mut self, approval_id: &str, state: ApprovalState) -> Option<UiEvent> {
        if !self.store.current_mut().answer_approval(approval_id, state) {
            return None;
        }
        self.store.save();
        Some(UiEvent::Conversation { conversation: self.store.current().clone() })
    }

    fn fold(&mut self, events: Vec<ChatEvent>, now_ms: i64, out: &mut Vec<UiEvent>) {
        let mut ended = false;
        for mut event in events {
            if let Some((msg_id, _)) = self.remakes.get(event.msg_id()) {
                *event.msg_id_mut() = msg_id.clone();
            }
            self.store.current_mut().apply(&event, now_ms);
            ended |= event.is_terminal();
            out.push(UiEvent::Chat { event });
        }
        if ended {
            self.store.save_and_trim();
        }
    }
}

/// The request that deletes `c` on the `agent_chat` engine, when the engine
/// knows it: it answered in it (a message has a server index) or named it
/// (a fork).
fn forget_on_server(c: &Conversation) -> Option<Outbound> {
    let known = c.server_id.is_some() || c.messages.iter().any(|m| m.server_index.is_some());
    known.then(|| Outbound::Side(SideRequest::DeleteConversation { conversation_id: c.wire_id().to_string() }))
}

/// The first and last positions of the exchange holding `pos`: a user
/// message and the assistant message right after it (either alone when
/// the other is missing).
fn exchange_of(messages: &[ChatMessage], pos: usize) -> (usize, usize) {
    match messages[pos].role {
        Role::User if messages.get(pos + 1).is_some_and(|m| m.role == Role::Assistant) => (pos, pos + 1),
        Role::Assistant if pos > 0 && messages[pos - 1].role == Role::User => (pos - 1, pos),
        _ => (pos, pos),
    }
}

/// The server index of the user message of the exchange holding `pos`
/// (what fork, version, delete and regenerate address), when the server
/// filed the exchange.
fn exchange_index(messages: &[ChatMessage], pos: usize) -> Option<u64> {
    let (first, last) = exchange_of(messages, pos);
    match (messages[first].role, messages[last].server_index) {
        // The answer's index is the authority (user_index + 1).
        (_, Some(a)) if messages[last].role == Role::Assistant => a.checked_sub(1),
        (Role::User, _) => messages[first].server_index,
        _ => None,
    }
}

/// A refusal in someone else's words (a storage error, the attachment rules).
fn notice(message: &str) -> UiEvent {
    UiEvent::notice(ErrorCode::Unsupported, message)
}

/// A refusal this file words itself: `message` in English, `id` its catalog message.
fn said(message: &str, id: &str) -> UiEvent {
    UiEvent::notice_said(ErrorCode::Unsupported, message, crate::event::Phrase::new(id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::TurnOutcome;

    /// A log with the turns `texts` answered by the engine (its `end` with
    /// the indices `2k`, `2k + 1`), except `unsaved` (null indices).
    fn log(dir: &std::path::Path, texts: &[&str], unsaved: Option<usize>) -> ChatLog {
        let mut log = ChatLog::new(ChatStore::open_at(dir.to_path_buf(), 0), None);
        for (k, text) in texts.iter().enumerate() {
            let t = format!("t{k}");
            log.ui(&UiEvent::TurnStarted { turn_id: t.clone(), text: text.to_string(), remakes: None, files: Vec::new() }, 1);
            log.wire(&t, &ChatEvent::Delta { msg_id: "m".into(), text: "Hi.".into() }, 2);
            let (u, a) = if unsaved == Some(k) { (None, None) } else { (Some(2 * k as u64), Some(2 * k as u64 + 1)) };
            log.wire(&t, &ChatEvent::End { msg_id: "m".into(), user_index: u, assistant_index: a, versions: Some(1), active: Some(0) }, 3);
            log.ui(&UiEvent::TurnEnded { turn_id: t, outcome: TurnOutcome::Complete, usage: None, error: None }, 4);
        }
        log
    }

    fn side(h: &Handled) -> Vec<SideRequest> {
        h.outbound.iter().filter_map(|o| if let Outbound::Side(s) = o { Some(s.clone()) } else { None }).collect()
    }

    #[test]
    fn deleting_either_message_deletes_the_exchange_and_later_indices_move_up() {
        let dir = tempfile::tempdir().unwrap();
        let mut log = log(dir.path(), &["one", "two", "three"], None);
        let cid = log.store().current().wire_id().to_string();
        let h = log.command(UserCommand::DeleteMessage { msg_id: "ut1".into() }, false, 9);
        assert_eq!(side(&h), [SideRequest::DeleteMessage { conversation_id: cid.clone(), index: 2 }]);
        let c = log.store().current();
        assert_eq!(
            c.messages.iter().map(|m| (m.id.as_str(), m.server_index)).collect::<Vec<_>>(),
            [("ut0", Some(0)), ("t0", Some(1)), ("ut2", Some(2)), ("t2", Some(3))]
        );
        let h = log.command(UserCommand::DeleteMessage { msg_id: "t2".into() }, false, 9);
        assert_eq!(side(&h), [SideRequest::DeleteMessage { conversation_id: cid, index: 2 }]);
        assert_eq!(log.store().current().messages.len(), 2);
    }

    #[test]
    fn an_exchange_the_engine_did_not_save_stays_local() {
        let dir = tempfile::tempdir().unwrap();
        let mut log = log(dir.path(), &["one", "two"], Some(1));
        let h = log.command(UserCommand::PickVersion { msg_id: "t1".into(), n: 0 }, false, 9);
        assert!(side(&h).is_empty());
        let h = log.command(UserCommand::DeleteMessage { msg_id: "t1".into() }, false, 9);
        assert!(side(&h).is_empty(), "nothing to address on the engine");
        assert_eq!(log.store().current().messages.len(), 2, "deleted here all the same");
        let h = log.command(UserCommand::Regenerate { msg_id: "t0".into() }, false, 9);
        assert!(h.engine.is_some());
        assert_eq!(log.regenerating.as_ref().map(|(m, i)| (m.as_str(), *i)), Some(("t0", Some(0))), "the user message's index");
    }

    #[test]
    fn a_fork_from_a_user_message_keeps_its_answer() {
        let dir = tempfile::tempdir().unwrap();
        let mut log = log(dir.path(), &["one", "two"], None);
        let cid = log.store().current().wire_id().to_string();
        let h = log.command(UserCommand::Fork { msg_id: "ut1".into() }, false, 9);
        let fork = log.store().current().clone();
        assert_eq!(fork.messages.len(), 4);
        assert_eq!(side(&h), [SideRequest::Fork { conversation_id: cid, index: 2, local_id: fork.id }]);
    }

    #[test]
    fn a_fork_the_engine_never_named_addresses_nothing_there_by_its_parents_indices() {
        let dir = tempfile::tempdir().unwrap();
        // "two" was stopped: the engine filed no index for it.
        let mut log = log(dir.path(), &["one", "two"], Some(1));
        let h = log.command(UserCommand::Fork { msg_id: "t1".into() }, false, 9);
        assert!(side(&h).is_empty(), "nothing to fork on the engine");
        let local = log.store().current().clone();
        assert!(local.messages.iter().all(|m| m.server_index.is_none()), "the copies are not on the engine under the fork's id: {:?}", local.messages);
        // Deleting a copied exchange there, or forking again, sends nothing the engine would misread.
        let h = log.command(UserCommand::Fork { msg_id: "t0".into() }, false, 10);
        assert!(side(&h).is_empty(), "{:?}", side(&h));
        let h = log.command(UserCommand::DeleteMessage { msg_id: "t0".into() }, false, 11);
        assert!(side(&h).is_empty(), "no delete by a parent's index: {:?}", side(&h));
    }

    #[test]
    fn a_named_fork_takes_back_its_copies_indices() {
        let dir = tempfile::tempdir().unwrap();
        let mut log = log(dir.path(), &["one", "two"], None);
        let h = log.command(UserCommand::Fork { msg_id: "t0".into() }, false, 9);
        let local_id = log.store().current().id.clone();
        assert_eq!(side(&h).len(), 1);
        assert!(log.store().current().messages.iter().all(|m| m.server_index.is_none()), "none until the engine names it");
        log.forked(&local_id, "srv-fork");
        let c = log.store().current();
        assert_eq!(c.wire_id(), "srv-fork");
        assert_eq!(c.messages.iter().map(|m| m.server_index).collect::<Vec<_>>(), [Some(0), Some(1)]);
        let h = log.command(UserCommand::DeleteMessage { msg_id: "t0".into() }, false, 10);
        assert_eq!(side(&h), [SideRequest::DeleteMessage { conversation_id: "srv-fork".into(), index: 0 }]);
    }

    #[test]
    fn a_stop_the_engine_did_not_confirm_is_marked() {
        let dir = tempfile::tempdir().unwrap();
        let mut log = ChatLog::new(ChatStore::open_at(dir.path().to_path_buf(), 0), None);
        log.ui(&UiEvent::TurnStarted { turn_id: "t".into(), text: "hi".into(), remakes: None, files: Vec::new() }, 1);
        log.wire("t", &ChatEvent::Delta { msg_id: "m".into(), text: "Before it stopped. ".into() }, 2);
        assert!(log.stop_confirmed("t", false).is_none(), "not stopped yet");
        log.ui(&UiEvent::TurnEnded { turn_id: "t".into(), outcome: TurnOutcome::Stopped, usage: None, error: None }, 3);
        assert!(log.stop_confirmed("t", false).is_some());
        let a = &log.store().current().messages[1].answers[0];
        assert_eq!((a.state, a.stop_confirmed, a.text.as_str()), (AnswerState::Stopped, Some(false), "Before it stopped. "));
    }
}
