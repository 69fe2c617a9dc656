//! The executor: runs the tool calls of one chat one at a time, in arrival
//! order, on a task of its own so the driver loop never waits on a tool.
//!
//! The driver hands it calls ([`Executor::run`]) and the turns it stopped
//! ([`Executor::stop`]) over one channel, so a stop is seen after every call
//! sent before it. Answers go back on the results channel given at spawn,
//! which the driver feeds to the engine.
//!
//! - A call that does not read ([`ToolArgs::parse`]) is answered at once,
//!   without waiting behind the running call.
//! - A call gets its tool's client wait from when it starts running; past it
//!   the call is dropped and answers `error: no reply within <n> s`.
//! - A stop naming the running call's turn drops that call and answers
//!   `error: turn stopped`; the queued calls of that turn are answered the
//!   same and never run.
//! - A gated call ([`Run::gated`]: `look` at the screen while its switch is
//!   off, `browser` `open`) first asks the user through the [`Asker`] and
//!   waits up to [`crate::limits::AGENT_CHAT_APPROVAL_TIMEOUT`] for the
//!   answer; its own wait starts once it is allowed. No answer in time
//!   answers [`super::NOT_ANSWERED`]; Deny answers the tool's own denial
//!   ([`Run::denied`]).

use super::{Answer, Ask, Asker, Run, ToolArgs, ToolError};
use crate::transport::{ToolCall, ToolResult};
use futures_util::future::BoxFuture;
use std::collections::VecDeque;
use std::sync::Arc;
use tokio::sync::mpsc;

/// What the driver asks of the executor.
enum Order {
    Run(ToolCall),
    Stop(Vec<String>),
}

/// A call checked and waiting for its turn to run.
struct Queued {
    id: String,
    turn_id: String,
    args: ToolArgs,
    /// The arguments as sent (for the approval card).
    raw: serde_json::Value,
}

/// The call running now: its ids and its answer to come.
struct Running {
    id: String,
    turn_id: String,
    answer: BoxFuture<'static, Answer>,
}

/// The handle to one chat's executor task. Dropping it ends the task and
/// drops the running call.
#[derive(Debug, Clone)]
pub struct Executor {
    orders: mpsc::UnboundedSender<Order>,
}

impl std::fmt::Debug for Order {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Order::Run(call) => f.debug_tuple("Run").field(&call.id).finish(),
            Order::Stop(ids) => f.debug_tuple("Stop").field(ids).finish(),
        }
    }
}

impl Executor {
    /// Spawn the executor task on the current tokio runtime: `tools` runs
    /// the calls, their answers go to `results`. With `prefit` (the request
    /// transports), pictures in an answer are fitted into the request budget
    /// here, off the transport; one that cannot fit answers
    /// `error: result too large`. Push fits them into its frame itself.
    pub fn spawn(tools: Arc<dyn Run>, results: mpsc::UnboundedSender<ToolResult>, prefit: bool) -> Executor {
        Self::spawn_asking(tools, results, prefit, None)
    }

    /// The same, asking the user through `asker` before a gated call runs
    /// (without one, a gated call is denied).
    pub fn spawn_asking(tools: Arc<dyn Run>, results: mpsc::UnboundedSender<ToolResult>, prefit: bool, asker: Option<Asker>) -> Executor {
        let (orders, rx) = mpsc::unbounded_channel();
        tokio::spawn(work(tools, rx, results, prefit, asker));
        Executor { orders }
    }

    /// Queue a call (the engine has already dropped repeated ids and
    /// answered calls of turns stopped before).
    pub fn run(&self, call: ToolCall) {
        let _ = self.orders.send(Order::Run(call));
    }

    /// These turns were stopped: their running and queued calls answer
    /// `error: turn stopped`.
    pub fn stop(&self, turn_ids: Vec<String>) {
        let _ = self.orders.send(Order::Stop(turn_ids));
    }
}

/// What woke the task.
enum Step {
    Order(Option<Order>),
    Done(Answer),
}

async fn work(
    tools: Arc<dyn Run>,
    mut orders: mpsc::UnboundedReceiver<Order>,
    results: mpsc::UnboundedSender<ToolResult>,
    prefit: bool,
    asker: Option<Asker>,
) {
    let answer = |id: String, turn_id: String, a: Answer| {
        let _ = results.send(ToolResult { id, turn_id, result: a.result, images: a.images });
    };
    let mut queue: VecDeque<Queued> = VecDeque::new();
    let mut running: Option<Running> = None;
    loop {
        if running.is_none() {
            if let Some(next) = queue.pop_front() {
                tracing::info!(record = "tool_run", id = %next.id, turn_id = %next.turn_id, name = next.args.name(), "a tool call starts");
                running = Some(start(tools.clone(), next, prefit, asker.clone()));
            }
        }
        let step = tokio::select! {
            biased;
            order = orders.recv() => Step::Order(order),
            done = finish(&mut running) => Step::Done(done),
        };
        match step {
            Step::Order(None) => break,
            Step::Order(Some(Order::Run(call))) => match ToolArgs::parse(&call.name, &call.arguments) {
                Ok(args) => queue.push_back(Queued { id: call.id, turn_id: call.turn_id, args, raw: call.arguments }),
                Err(e) => {
                    tracing::info!(record = "tool_refused", id = %call.id, name = %call.name, answer = %e, "a tool call does not read");
                    answer(call.id, call.turn_id, e.into());
                }
            },
            Step::Order(Some(Order::Stop(turn_ids))) => {
                if let Some(r) = running.take_if(|r| turn_ids.contains(&r.turn_id)) {
                    tracing::info!(record = "tool_stopped", id = %r.id, turn_id = %r.turn_id, "the running tool call is cancelled");
                    answer(r.id, r.turn_id, ToolError::TurnStopped.into());
                }
                let (dropped, kept) = queue.drain(..).partition(|q: &Queued| turn_ids.contains(&q.turn_id));
                queue = kept;
                for q in dropped {
                    answer(q.id, q.turn_id, ToolError::TurnStopped.into());
                }
            }
            Step::Done(a) => {
                if let Some(r) = running.take() {
                    answer(r.id, r.turn_id, a);
                }
            }
        }
    }
}

/// Start a call: its answer, or the no-reply answer once its wait passes;
/// a gated call asks first.
fn start(tools: Arc<dyn Run>, q: Queued, prefit: bool, asker: Option<Asker>) -> Running {
    let wait = q.args.wait();
    let (id, turn_id) = (q.id.clone(), q.turn_id.clone());
    let answer = Box::pin(async move {
        if tools.gated(&q.args) {
            let (reply, answered) = tokio::sync::oneshot::channel();
            let ask = Ask { turn_id: q.turn_id.clone(), call_id: q.id.clone(), name: q.args.name().to_string(), args: q.raw.clone(), reply };
            if asker.as_ref().is_none_or(|a| a.send(ask).is_err()) {
                return tools.denied(&q.args);
            }
            tracing::info!(record = "tool_approval_asked", id = %q.id, turn_id = %q.turn_id, name = q.args.name());
            let decision = match tokio::time::timeout(crate::limits::AGENT_CHAT_APPROVAL_TIMEOUT, answered).await {
                Ok(Ok(d)) => d,
                Ok(Err(_)) => return tools.denied(&q.args),
                Err(_) => {
                    tracing::info!(record = "tool_approval_timeout", id = %q.id);
                    return Answer::text(super::NOT_ANSWERED);
                }
            };
            tracing::info!(record = "tool_approval", id = %q.id, decision = ?decision);
            if !tools.decided(&q.args, decision) {
                return tools.denied(&q.args);
            }
        }
        let run = tools.run(q.args, &q.turn_id);
        let answer = match tokio::time::timeout(wait, run).await {
            Ok(a) => a,
            Err(_) => ToolError::NoReply(wait).into(),
        };
        if !prefit || answer.images.is_empty() {
            return answer;
        }
        let Answer { result, images } = answer;
        let fitted = tokio::task::spawn_blocking(move || crate::transport::request::prefit(&images)).await;
        match fitted {
            Ok(Ok(images)) => Answer { result, images },
            _ => ToolError::ResultTooLarge.into(),
        }
    });
    Running { id, turn_id, answer }
}

/// The running call's answer; pending while none runs.
async fn finish(running: &mut Option<Running>) -> Answer {
    match running {
        Some(r) => r.answer.as_mut().await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};
    use std::time::Duration;
    use tokio::time::Instant;

    /// A fake tool: answers `said <character>` after sleeping as many
    /// seconds as the name is long.
    struct Slow;
    impl Run for Slow {
        fn run(&self, args: ToolArgs, _turn_id: &str) -> BoxFuture<'static, Answer> {
            let ToolArgs::AddressCharacter { character } = args else { panic!("only address_character here") };
            Box::pin(async move {
                tokio::time::sleep(Duration::from_secs(character.len() as u64)).await;
                Answer::text(format!("said {character}"))
            })
        }
    }

    fn call(id: &str, turn_id: &str, name: &str, arguments: Value) -> ToolCall {
        ToolCall { id: id.into(), turn_id: turn_id.into(), name: name.into(), arguments }
    }

    fn addr(id: &str, turn_id: &str, character: &str) -> ToolCall {
        call(id, turn_id, "address_character", json!({ "character": character }))
    }

    fn setup() -> (Executor, mpsc::UnboundedReceiver<ToolResult>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Executor::spawn(Arc::new(Slow), tx, false), rx)
    }

    async fn next(rx: &mut mpsc::UnboundedReceiver<ToolResult>) -> (String, String) {
        let r = rx.recv().await.expect("a result");
        (r.id, r.result)
    }

    fn pair(id: &str, result: &str) -> (String, String) {
        (id.into(), result.into())
    }

    #[tokio::test(start_paused = true)]
    async fn calls_that_do_not_read_answer_at_once() {
        let (ex, mut rx) = setup();
        ex.run(addr("slow", "t1", "r"));
        ex.run(call("a", "t1", "fly_away", json!({})));
        ex.run(call("b", "t1", "address_character", json!({})));
        ex.run(call("c", "t1", "address_character", json!({ "character": 3 })));
        ex.run(call("d", "t1", "address_character", Value::Null));
        let start = Instant::now();
        assert_eq!(next(&mut rx).await, pair("a", "error: unknown tool"));
        assert_eq!(next(&mut rx).await, pair("b", "error: missing field character"));
        assert_eq!(next(&mut rx).await, pair("c", "error: invalid field character"));
        assert_eq!(next(&mut rx).await, pair("d", "error: invalid field character"));
        assert_eq!(start.elapsed(), Duration::ZERO, "none waited behind the running call");
        assert_eq!(next(&mut rx).await, pair("slow", "said r"));
    }

    #[tokio::test(start_paused = true)]
    async fn one_at_a_time_in_arrival_order() {
        let (ex, mut rx) = setup();
        let start = Instant::now();
        // The first is slower than the second; the second still waits for it.
        ex.run(addr("c1", "t1", "a"));
        ex.run(addr("c2", "t1", ""));
        assert_eq!(next(&mut rx).await, pair("c1", "said a"));
        assert_eq!(start.elapsed(), Duration::from_secs(1));
        assert_eq!(next(&mut rx).await, pair("c2", "said "));
        assert_eq!(start.elapsed(), Duration::from_secs(1));
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_past_its_wait_answers_no_reply() {
        let (ex, mut rx) = setup();
        let start = Instant::now();
        ex.run(addr("c1", "t1", "rin")); // 3 s, the wait is 2 s
        ex.run(addr("c2", "t1", "a"));
        assert_eq!(next(&mut rx).await, pair("c1", "error: no reply within 2 s"));
        assert_eq!(start.elapsed(), crate::limits::TOOL_CALL_WAIT_ADDRESS_CHARACTER);
        // The next call's wait starts when it starts running.
        assert_eq!(next(&mut rx).await, pair("c2", "said a"));
        assert_eq!(start.elapsed(), Duration::from_secs(3));
    }

    #[tokio::test(start_paused = true)]
    async fn stop_cancels_the_running_call_and_drops_the_queued() {
        let (ex, mut rx) = setup();
        ex.run(addr("c1", "t1", "a"));
        ex.run(addr("c2", "t1", "b"));
        ex.run(addr("c3", "t2", "c"));
        ex.run(addr("c4", "t1", "d"));
        tokio::time::sleep(Duration::from_millis(500)).await;
        let start = Instant::now();
        ex.stop(vec!["t1".into()]);
        assert_eq!(next(&mut rx).await, pair("c1", "error: turn stopped"));
        assert_eq!(next(&mut rx).await, pair("c2", "error: turn stopped"));
        assert_eq!(next(&mut rx).await, pair("c4", "error: turn stopped"));
        assert_eq!(start.elapsed(), Duration::ZERO, "a stop answers at once");
        // Another turn's call runs next, in full.
        assert_eq!(next(&mut rx).await, pair("c3", "said c"));
        assert_eq!(start.elapsed(), Duration::from_secs(1));
        // A stop naming no running or queued turn answers nothing.
        ex.stop(vec!["t9".into()]);
        drop(ex);
        assert!(rx.recv().await.is_none());
    }
}
