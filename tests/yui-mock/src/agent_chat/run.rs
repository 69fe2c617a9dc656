//! One `POST /chat` run, as the engine streams it: chunks with the cancel
//! checked between them (after the tool activity is drained), approvals
//! that block inside the tool, the exchange saved only on success.

use super::events::{self, Event};
use super::{Pending, Plan, APPROVAL_TOOL, DENIED_OUTPUT, DENIED_REPLY, EMPTY_MESSAGE, EVENT_DELAY_MS, FAIL_MESSAGE, SCRIPT_REPLY, SCRIPT_TOOL, TOOL_OUTPUT};
use crate::server::Shared;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Why a run stopped early.
pub(super) enum Stop {
    /// Cancelled: `cancelled` was sent.
    Cancelled,
    /// The client went away or the server stops: nothing more is sent.
    Gone,
}

pub(super) struct Run {
    pub(super) shared: Arc<Shared>,
    pub(super) msg_id: String,
    pub(super) run_id: String,
    pub(super) chat_id: String,
    pub(super) session: String,
    pub(super) prompt: String,
    pub(super) regenerate_of: Option<usize>,
    /// Messages the session's agent had before this run.
    pub(super) prior: usize,
    pub(super) cancel: Arc<AtomicBool>,
    pub(super) tx: mpsc::Sender<String>,
}

impl Run {
    pub(super) async fn go(self, plan: Plan) {
        let outcome = self.body(plan).await;
        if let Err(Stop::Cancelled) = outcome {
            tracing::info!(event = "agent_chat_cancelled", run_id = %self.run_id);
        }
        let mut st = self.shared.agent.lock();
        st.runs.remove(&self.run_id);
        st.approvals.retain(|_, p| p.run_id != self.run_id);
    }

    async fn send(&self, event: &Event) -> Result<(), Stop> {
        self.tx.send(events::wire(&self.msg_id, event)).await.map_err(|_| Stop::Gone)
    }

    /// One chunk of the agent's stream: the delay, the drained tool events,
    /// the cancel check (→ `cancelled`), then the chunk's own event.
    async fn chunk(&self, drained: &[Event], event: Option<Event>) -> Result<(), Stop> {
        let ms = EVENT_DELAY_MS * self.shared.config.pace.max(0.0);
        if ms >= 1.0 {
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(ms as u64)) => {}
                _ = self.shared.cancel.cancelled() => return Err(Stop::Gone),
                _ = self.tx.closed() => return Err(Stop::Gone),
            }
        }
        for e in drained {
            self.send(e).await?;
        }
        if !self.run_id.is_empty() && self.cancel.load(Ordering::SeqCst) {
            self.send(&events::cancelled(&self.run_id)).await?;
            return Err(Stop::Cancelled);
        }
        match event {
            Some(e) => self.send(&e).await,
            None => Ok(()),
        }
    }

    async fn say(&self, drained: &[Event], text: &str) -> Result<(), Stop> {
        let mut drained = drained;
        for word in text.split_inclusive(' ') {
            self.chunk(drained, Some(events::delta(word))).await?;
            drained = &[];
        }
        Ok(())
    }

    /// Saves the exchange (unless `unsaved`), then `usage` and `end`.
    async fn finish(&self, reply: &str, unsaved: bool) -> Result<(), Stop> {
        let (user_index, versions, active) = {
            let mut st = self.shared.agent.lock();
            let history = st.sessions.entry(self.session.clone()).or_default();
            history.push(self.prompt.clone());
            history.push(reply.to_string());
            if unsaved {
                (None, 1, 0)
            } else {
                let u = st.conversations.persist(&self.chat_id, &self.prompt, reply, self.regenerate_of);
                let (v, a) = st.conversations.version_info(&self.chat_id, u);
                (Some(u), v, a)
            }
        };
        self.send(&events::usage(reply.chars().count() as u64, 0.5, Some(0.1))).await?;
        self.send(&events::end(user_index, versions, active)).await
    }

    /// Asks the user inside the tool: `approval_request` at once, then
    /// blocks (no cancel check) until the answer or the timeout (a deny).
    /// Tools always allowed run without asking.
    async fn ask(&self, call_id: &str, args: &Value) -> Result<bool, Stop> {
        let (aid, rx) = {
            let mut st = self.shared.agent.lock();
            if st.always.contains(APPROVAL_TOOL) {
                return Ok(true);
            }
            let n = st.next();
            let aid = format!("ap_{n:04x}");
            let (tx, rx) = oneshot::channel();
            st.approvals.insert(aid.clone(), Pending { run_id: self.run_id.clone(), tool: APPROVAL_TOOL.into(), answer: tx });
            (aid, rx)
        };
        self.send(&events::approval_request(&aid, call_id, APPROVAL_TOOL, args)).await?;
        let timeout = self.shared.config.approval_timeout;
        let allowed = tokio::select! {
            r = tokio::time::timeout(timeout, rx) => match r {
                Ok(Ok(allow)) => allow,
                Ok(Err(_)) => false,
                Err(_) => {
                    self.shared.agent.lock().approvals.remove(&aid);
                    tracing::info!(event = "agent_chat_approval_timeout", approval_id = %aid);
                    false
                }
            },
            _ = self.shared.cancel.cancelled() => return Err(Stop::Gone),
            _ = self.tx.closed() => return Err(Stop::Gone),
        };
        Ok(allowed)
    }

    async fn body(&self, plan: Plan) -> Result<(), Stop> {
        self.send(&events::start(&self.run_id)).await?;
        if plan == Plan::Empty {
            self.chunk(&[], None).await?;
            return self.send(&events::error(EMPTY_MESSAGE, "empty")).await;
        }
        self.chunk(&[], Some(events::reasoning("Thinking about the sea."))).await?;
        let n = self.shared.agent.lock().next();
        match plan {
            Plan::Fail => self.send(&events::error(FAIL_MESSAGE, "internal")).await,
            Plan::Plain | Plan::Empty | Plan::Quoted | Plan::Unsaved | Plan::History => {
                let reply = if plan == Plan::History { super::history_reply(self.prior) } else { SCRIPT_REPLY.to_string() };
                self.say(&[], &reply).await?;
                let call = format!("c_{n}_{SCRIPT_TOOL}");
                let result = if plan == Plan::Quoted {
                    events::tool_result(&call, SCRIPT_TOOL, true, "\"21:00\"", None)
                } else {
                    events::tool_result(&call, SCRIPT_TOOL, true, "21:00", Some(0.01))
                };
                let tools = [events::tool_drafting(SCRIPT_TOOL), events::tool_call(&call, SCRIPT_TOOL, &json!({})), result];
                self.chunk(&tools, None).await?;
                self.finish(&reply, plan == Plan::Unsaved).await
            }
            Plan::Approve | Plan::ApproveTwice => {
                let asks: Vec<Value> =
                    if plan == Plan::Approve { vec![json!({"command": "ls"})] } else { vec![json!({"command": "ls"}), json!({"command": "pwd"})] };
                let mut drained = Vec::new();
                let mut any_allowed = false;
                for (i, args) in asks.iter().enumerate() {
                    let allowed = self.ask(&format!("c_{n:x}{i}"), args).await?;
                    any_allowed |= allowed;
                    let call = format!("c_{}_{APPROVAL_TOOL}", n * 10 + i as u64);
                    let output = if allowed { TOOL_OUTPUT } else { DENIED_OUTPUT };
                    drained.push(events::tool_drafting(APPROVAL_TOOL));
                    drained.push(events::tool_call(&call, APPROVAL_TOOL, args));
                    drained.push(events::tool_result(&call, APPROVAL_TOOL, true, output, Some(0.05)));
                }
                let reply = if any_allowed { SCRIPT_REPLY } else { DENIED_REPLY };
                self.say(&drained, reply).await?;
                self.finish(reply, false).await
            }
        }
    }
}
