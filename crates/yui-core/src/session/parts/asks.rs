//! The approvals part: the questions the client's own tools asked the
//! user, until their answers come (`tools/executor.rs` asks them).

use crate::chat::ApprovalDecision;
use crate::tools::ToolArgs;
use std::collections::HashMap;
use tokio::sync::oneshot;
use tokio::time::Instant;

/// A question a client tool asked the user.
struct PendingAsk {
    /// Where the answer goes while the call waits for it.
    reply: oneshot::Sender<ApprovalDecision>,
    /// The call, for an answer that comes after it answered.
    tool: ToolArgs,
    /// When it was asked.
    at: Instant,
}

/// The client tools' questions: approval id → where the answer goes (kept
/// a while after the call answered: a late answer applies to the next
/// call), and how many this session asked (their ids).
#[derive(Default)]
pub(in crate::session) struct Asks {
    pending: HashMap<String, PendingAsk>,
    asked: u64,
}

/// How an answer went.
pub(in crate::session) enum Answered {
    /// Not one of the client's asks (the backend's own approval).
    NotOurs,
    /// The waiting call has it.
    Delivered,
    /// The call it was for has answered: the answer is for the next call.
    Late(ToolArgs, ApprovalDecision),
}

impl Asks {
    /// Keep a new question and name it (`ask-<n>`); questions whose call
    /// ended long ago are forgotten.
    pub fn ask(&mut self, reply: oneshot::Sender<ApprovalDecision>, tool: ToolArgs) -> String {
        self.asked += 1;
        let approval_id = format!("ask-{}", self.asked);
        self.pending.retain(|_, a| !a.reply.is_closed() || a.at.elapsed() < crate::limits::TOOL_ASK_LATE_KEPT);
        self.pending.insert(approval_id.clone(), PendingAsk { reply, tool, at: Instant::now() });
        approval_id
    }

    /// The user answered `approval_id`.
    pub fn answer(&mut self, approval_id: &str, decision: ApprovalDecision) -> Answered {
        let Some(ask) = self.pending.remove(approval_id) else { return Answered::NotOurs };
        match ask.reply.send(decision) {
            Ok(()) => Answered::Delivered,
            Err(decision) => Answered::Late(ask.tool, decision),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool() -> ToolArgs {
        ToolArgs::AddressCharacter { character: "mika".into() }
    }

    #[test]
    fn asks_are_numbered_and_an_answer_reaches_the_waiting_call_once() {
        let mut asks = Asks::default();
        let (tx, mut rx) = oneshot::channel();
        let (tx2, _rx2) = oneshot::channel();
        assert_eq!(asks.ask(tx, tool()), "ask-1");
        assert_eq!(asks.ask(tx2, tool()), "ask-2");
        assert!(matches!(asks.answer("ask-1", ApprovalDecision::Allow), Answered::Delivered));
        assert_eq!(rx.try_recv().ok(), Some(ApprovalDecision::Allow));
        assert!(matches!(asks.answer("ask-1", ApprovalDecision::Allow), Answered::NotOurs), "answered once");
        assert!(matches!(asks.answer("backend-7", ApprovalDecision::Deny), Answered::NotOurs));
    }

    #[test]
    fn an_answer_after_the_call_ended_comes_back_for_the_next_call() {
        let mut asks = Asks::default();
        let (tx, rx) = oneshot::channel();
        let id = asks.ask(tx, tool());
        drop(rx);
        match asks.answer(&id, ApprovalDecision::Always) {
            Answered::Late(t, d) => {
                assert_eq!(t, tool());
                assert_eq!(d, ApprovalDecision::Always);
            }
            _ => panic!("a closed call's answer is late"),
        }
    }
}
