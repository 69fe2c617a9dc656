//! The executor: runs the tool calls of one chat one at a time, in arrival
//! order, on a task of its own so the driver loop never waits on a tool.
//! `browser` calls have a lane of their own (the character's own browser
//! window shares nothing with her body or the desktop, and a page may take
//! its whole 32 s to load): they run one at a time in their order beside
//! the other tools' calls, which run one at a time in theirs, so a `look`
//! never waits behind a loading page.
//!
//! The driver hands it calls ([`Executor::run`]) and the turns it stopped
//! ([`Executor::stop`]) over one channel, so a stop is seen after every call
//! sent before it. Answers go back on the results channel given at spawn,
//! which the driver feeds to the engine.
//!
//! - A call that does not read ([`ToolArgs::parse`]) is answered at once,
//!   without waiting behind a running call.
//! - A call gets its tool's client wait from when it starts running; past it
//!   the call is dropped and answers `error: no reply within <n> s`.
//! - A stop naming the running call's turn drops that call and answers
//!   `error: turn stopped`; the queued calls of that turn are answered the
//!   same and never run.
//! - Nothing waits on the user while it holds the others. A call refused by
//!   a switch answers at once from the tool (and offers the switch,
//!   `tools/offer.rs`). A gated call ([`Run::gated`]: `browser` `open` the
//!   user has not allowed for this session) asks through the [`Asker`] when
//!   its turn to run comes, and then steps aside: the calls queued behind it
//!   run meanwhile (only calls of the same tool stay behind it, in order).
//!   It waits for the answer at most [`crate::limits::BROWSER_OPEN_ASK_WAIT`]
//!   and never past its own wait, which counts from the ask: allowed, it
//!   runs next within what is left; denied, it answers [`Run::denied`];
//!   unanswered, [`super::NOT_ALLOWED_YET`] (the question stays up, and a
//!   later answer goes to [`Run::answered_late`] through the driver).

use super::{Answer, Ask, Asker, Run, ToolArgs, ToolError};
use crate::chat::ApprovalDecision;
use crate::contract::{ToolCall, ToolResult};
use futures_util::future::{AbortHandle, Abortable, BoxFuture};
use futures_util::stream::{FuturesUnordered, StreamExt};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::time::Instant;

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
    /// Set once the user allowed it: the end of its own wait, counted from
    /// when it asked.
    deadline: Option<Instant>,
}

/// The call running now: its ids and its answer to come.
struct Running {
    id: String,
    turn_id: String,
    answer: BoxFuture<'static, Answer>,
}

/// A gated call waiting for the user's answer, off the run slot.
struct Parked {
    call: Queued,
    /// When it asked: its own wait counts from here.
    since: Instant,
    /// Ends the wait for the answer (a stop).
    abort: AbortHandle,
}

/// How a question ended.
enum Heard {
    /// The user answered in time.
    Decided(ApprovalDecision),
    /// Nobody will answer (the driver is gone).
    Gone,
    /// The wait for the answer passed.
    Lapsed,
}

/// The lanes: `browser` calls, and every other tool's.
const LANES: usize = 2;

/// The lane of a call.
fn lane(args: &ToolArgs) -> usize {
    usize::from(matches!(args, ToolArgs::Browser(_)))
}

/// The answers being waited for: the call id and how its question ended
/// (`None`: the wait was ended by a stop).
type Questions = FuturesUnordered<BoxFuture<'static, (String, Option<Heard>)>>;

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

    /// These turns were stopped: their running, asking and queued calls
    /// answer `error: turn stopped`.
    pub fn stop(&self, turn_ids: Vec<String>) {
        let _ = self.orders.send(Order::Stop(turn_ids));
    }
}

/// What woke the task.
enum Step {
    Order(Option<Order>),
    Done(usize, Answer),
    Heard(String, Option<Heard>),
}

async fn work(tools: Arc<dyn Run>, mut orders: mpsc::UnboundedReceiver<Order>, results: mpsc::UnboundedSender<ToolResult>, prefit: bool, asker: Option<Asker>) {
    let answer = |id: String, turn_id: String, a: Answer| {
        let _ = results.send(ToolResult { id, turn_id, result: a.result, images: a.images });
    };
    let mut queue: VecDeque<Queued> = VecDeque::new();
    let mut running: [Option<Running>; LANES] = [None, None];
    let mut parked: HashMap<String, Parked> = HashMap::new();
    let mut questions: Questions = FuturesUnordered::new();
    loop {
        // In each free lane, start its first queued call no asking call of
        // its tool is ahead of; a gated one asks and steps aside.
        loop {
            let free = |q: &Queued| running[lane(&q.args)].is_none() && !parked.values().any(|p| p.call.args.name() == q.args.name());
            let Some(pos) = queue.iter().position(free) else { break };
            let Some(next) = queue.remove(pos) else { break };
            if next.deadline.is_none() && tools.gated(&next.args) {
                match ask(&asker, next, &mut questions) {
                    Ok(p) => {
                        parked.insert(p.call.id.clone(), p);
                    }
                    Err(q) => answer(q.id, q.turn_id, tools.denied(&q.args)),
                }
                continue;
            }
            tracing::info!(record = "tool_run", id = %next.id, turn_id = %next.turn_id, name = next.args.name(), "a tool call starts");
            let l = lane(&next.args);
            running[l] = Some(start(tools.clone(), next, prefit));
        }
        let step = tokio::select! {
            biased;
            order = orders.recv() => Step::Order(order),
            (l, done) = finish(&mut running) => Step::Done(l, done),
            Some((id, heard)) = questions.next() => Step::Heard(id, heard),
        };
        match step {
            Step::Order(None) => break,
            Step::Order(Some(Order::Run(call))) => match ToolArgs::parse(&call.name, &call.arguments) {
                Ok(args) => queue.push_back(Queued { id: call.id, turn_id: call.turn_id, args, raw: call.arguments, deadline: None }),
                Err(e) => {
                    tracing::info!(record = "tool_refused", id = %call.id, name = %call.name, answer = %e, "a tool call does not read");
                    answer(call.id, call.turn_id, e.into());
                }
            },
            Step::Order(Some(Order::Stop(turn_ids))) => {
                for slot in &mut running {
                    if let Some(r) = slot.take_if(|r| turn_ids.contains(&r.turn_id)) {
                        tracing::info!(record = "tool_stopped", id = %r.id, turn_id = %r.turn_id, "the running tool call is cancelled");
                        answer(r.id, r.turn_id, ToolError::TurnStopped.into());
                    }
                }
                // An asking call of that turn stops asking (its question ends with the turn).
                let stopped: Vec<String> = parked.values().filter(|p| turn_ids.contains(&p.call.turn_id)).map(|p| p.call.id.clone()).collect();
                for id in stopped {
                    if let Some(p) = parked.remove(&id) {
                        p.abort.abort();
                        answer(p.call.id, p.call.turn_id, ToolError::TurnStopped.into());
                    }
                }
                let (dropped, kept) = queue.drain(..).partition(|q: &Queued| turn_ids.contains(&q.turn_id));
                queue = kept;
                for q in dropped {
                    answer(q.id, q.turn_id, ToolError::TurnStopped.into());
                }
            }
            Step::Done(l, a) => {
                if let Some(r) = running[l].take() {
                    answer(r.id, r.turn_id, a);
                }
            }
            Step::Heard(id, heard) => {
                let Some(p) = parked.remove(&id) else { continue };
                let Parked { mut call, since, .. } = p;
                match heard {
                    Some(Heard::Decided(decision)) => {
                        tracing::info!(record = "tool_approval", id = %id, decision = ?decision);
                        if decision != ApprovalDecision::Deny && tools.decided(&call.args, decision) {
                            // It came first: it runs before the calls that queued behind it.
                            call.deadline = Some(since + call.args.wait());
                            queue.push_front(call);
                        } else {
                            answer(call.id, call.turn_id, tools.denied(&call.args));
                        }
                    }
                    Some(Heard::Gone) => answer(call.id, call.turn_id, tools.denied(&call.args)),
                    Some(Heard::Lapsed) => {
                        tracing::info!(record = "tool_approval_timeout", id = %id, "the user has not answered; the call answers and the question stays up");
                        answer(call.id, call.turn_id, Answer::text(super::NOT_ALLOWED_YET));
                    }
                    None => {}
                }
            }
        }
    }
}

/// Ask the user about `call`: its question waits (off the run slot) at most
/// [`crate::limits::BROWSER_OPEN_ASK_WAIT`], never past the call's own wait.
/// The call back (boxed: it is large) when there is nobody to ask.
fn ask(asker: &Option<Asker>, call: Queued, questions: &mut Questions) -> Result<Parked, Box<Queued>> {
    let Some(asker) = asker else { return Err(Box::new(call)) };
    let (reply, answered) = tokio::sync::oneshot::channel();
    let question = Ask {
        turn_id: call.turn_id.clone(),
        call_id: call.id.clone(),
        name: call.args.name().to_string(),
        args: call.raw.clone(),
        tool: call.args.clone(),
        reply,
    };
    if asker.send(question).is_err() {
        return Err(Box::new(call));
    }
    tracing::info!(record = "tool_approval_asked", id = %call.id, turn_id = %call.turn_id, name = call.args.name());
    let since = Instant::now();
    let until = since + crate::limits::BROWSER_OPEN_ASK_WAIT.min(call.args.wait());
    let (abort, registration) = AbortHandle::new_pair();
    let id = call.id.clone();
    questions.push(Box::pin(async move {
        let heard = Abortable::new(tokio::time::timeout_at(until, answered), registration).await.ok().map(|r| match r {
            Ok(Ok(decision)) => Heard::Decided(decision),
            Ok(Err(_)) => Heard::Gone,
            Err(_) => Heard::Lapsed,
        });
        (id, heard)
    }));
    Ok(Parked { call, since, abort })
}

/// Start a call: its answer, or the no-reply answer once its wait passes
/// (what is left of it, for a call that asked first).
fn start(tools: Arc<dyn Run>, q: Queued, prefit: bool) -> Running {
    let wait = q.args.wait();
    let left = q.deadline.map_or(wait, |d| d.saturating_duration_since(Instant::now()));
    let (id, turn_id) = (q.id.clone(), q.turn_id.clone());
    let answer = Box::pin(async move {
        if left.is_zero() {
            return ToolError::NoReply(wait).into();
        }
        let run = tools.run(q.args, &q.turn_id);
        let answer = match tokio::time::timeout(left, run).await {
            Ok(a) => a,
            Err(_) => ToolError::NoReply(wait).into(),
        };
        if !prefit || answer.images.is_empty() {
            return answer;
        }
        let Answer { result, images } = answer;
        let fitted = tokio::task::spawn_blocking(move || crate::contract::prefit(&images)).await;
        match fitted {
            Ok(Ok(images)) => Answer { result, images },
            _ => ToolError::ResultTooLarge.into(),
        }
    });
    Running { id, turn_id, answer }
}

/// The first answer of the running calls, with its lane; pending while
/// none runs.
async fn finish(running: &mut [Option<Running>; LANES]) -> (usize, Answer) {
    futures_util::future::poll_fn(|cx| {
        for (l, slot) in running.iter_mut().enumerate() {
            if let Some(r) = slot {
                if let std::task::Poll::Ready(a) = r.answer.as_mut().poll(cx) {
                    return std::task::Poll::Ready((l, a));
                }
            }
        }
        std::task::Poll::Pending
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ApprovalDecision;
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

    /// A fake with a gated tool: `browser` `open` asks; it answers
    /// `opened <url>` after as many seconds as the url's query says;
    /// `read` answers at once.
    struct Gate;
    impl Run for Gate {
        fn run(&self, args: ToolArgs, turn_id: &str) -> BoxFuture<'static, Answer> {
            match args {
                ToolArgs::Browser(super::super::BrowserAction::Open { url }) => Box::pin(async move {
                    let secs: u64 = url.query().and_then(|q| q.parse().ok()).unwrap_or(0);
                    tokio::time::sleep(Duration::from_secs(secs)).await;
                    Answer::text(format!("opened {url}"))
                }),
                ToolArgs::Browser(_) => Box::pin(async { Answer::text("read") }),
                other => Slow.run(other, turn_id),
            }
        }
        fn gated(&self, args: &ToolArgs) -> bool {
            matches!(args, ToolArgs::Browser(super::super::BrowserAction::Open { .. }))
        }
    }

    fn open(id: &str, turn_id: &str, secs: u64) -> ToolCall {
        call(id, turn_id, "browser", json!({ "action": "open", "url": format!("https://example.com/?{secs}") }))
    }

    fn asking() -> (Executor, mpsc::UnboundedReceiver<ToolResult>, mpsc::UnboundedReceiver<Ask>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let (ask_tx, ask_rx) = mpsc::unbounded_channel();
        (Executor::spawn_asking(Arc::new(Gate), tx, false, Some(ask_tx)), rx, ask_rx)
    }

    #[tokio::test(start_paused = true)]
    async fn a_call_queued_behind_an_ask_answers_within_its_own_wait() {
        let (ex, mut rx, mut asks) = asking();
        let start = Instant::now();
        ex.run(open("o1", "t1", 1));
        ex.run(addr("c1", "t1", "a"));
        let ask = asks.recv().await.expect("the open asks");
        assert_eq!((ask.call_id.as_str(), ask.name.as_str()), ("o1", "browser"));
        assert_eq!(next(&mut rx).await, pair("c1", "said a"));
        assert_eq!(start.elapsed(), Duration::from_secs(1), "the ask held nothing");
        // Allowed later, within its window: it runs then.
        tokio::time::sleep(Duration::from_secs(4)).await;
        ask.reply.send(ApprovalDecision::Allow).unwrap();
        assert_eq!(next(&mut rx).await, pair("o1", "opened https://example.com/?1"));
        assert_eq!(start.elapsed(), Duration::from_secs(6));
    }

    #[tokio::test(start_paused = true)]
    async fn an_unanswered_ask_answers_not_allowed_yet_inside_its_client_wait() {
        let (ex, mut rx, mut asks) = asking();
        let start = Instant::now();
        ex.run(open("o1", "t1", 1));
        let ask = asks.recv().await.expect("the open asks");
        assert_eq!(next(&mut rx).await, pair("o1", super::super::NOT_ALLOWED_YET));
        assert_eq!(start.elapsed(), crate::limits::BROWSER_OPEN_ASK_WAIT);
        assert!(start.elapsed() < crate::limits::TOOL_CALL_WAIT_BROWSER);
        // The question is over for this call: a late answer goes elsewhere.
        assert!(ask.reply.send(ApprovalDecision::Allow).is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn an_allowed_call_runs_within_what_is_left_of_its_wait() {
        let (ex, mut rx, mut asks) = asking();
        let start = Instant::now();
        ex.run(open("o1", "t1", 15));
        let ask = asks.recv().await.unwrap();
        tokio::time::sleep(Duration::from_secs(19)).await;
        ask.reply.send(ApprovalDecision::Always).unwrap();
        assert_eq!(next(&mut rx).await, pair("o1", "error: no reply within 32 s"));
        assert_eq!(start.elapsed(), crate::limits::TOOL_CALL_WAIT_BROWSER, "never past its own wait, the ask included");
    }

    #[tokio::test(start_paused = true)]
    async fn calls_of_the_same_tool_stay_behind_an_asking_one_and_deny_answers_at_once() {
        let (ex, mut rx, mut asks) = asking();
        let start = Instant::now();
        ex.run(open("o1", "t1", 0));
        ex.run(call("r1", "t1", "browser", json!({ "action": "read" })));
        ex.run(addr("c1", "t1", ""));
        let ask = asks.recv().await.unwrap();
        assert_eq!(next(&mut rx).await, pair("c1", "said "), "another tool does not wait");
        tokio::time::sleep(Duration::from_secs(3)).await;
        ask.reply.send(ApprovalDecision::Deny).unwrap();
        assert_eq!(next(&mut rx).await, pair("o1", super::super::DENIED_BY_USER));
        assert_eq!(next(&mut rx).await, pair("r1", "read"), "the read waited for the open");
        assert_eq!(start.elapsed(), Duration::from_secs(3));
    }

    #[tokio::test(start_paused = true)]
    async fn a_stop_ends_an_asking_call_and_its_question() {
        let (ex, mut rx, mut asks) = asking();
        ex.run(open("o1", "t1", 0));
        let ask = asks.recv().await.unwrap();
        let start = Instant::now();
        ex.stop(vec!["t1".into()]);
        assert_eq!(next(&mut rx).await, pair("o1", "error: turn stopped"));
        assert_eq!(start.elapsed(), Duration::ZERO);
        tokio::time::sleep(Duration::from_millis(1)).await;
        assert!(ask.reply.is_closed(), "nobody waits for the answer any more");
    }

    #[tokio::test(start_paused = true)]
    async fn with_nobody_to_ask_a_gated_call_is_denied() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let ex = Executor::spawn(Arc::new(Gate), tx, false);
        ex.run(open("o1", "t1", 0));
        assert_eq!(next(&mut rx).await, pair("o1", super::super::DENIED_BY_USER));
    }

    /// Gate's tools with nothing gated.
    struct Ungated;
    impl Run for Ungated {
        fn run(&self, args: ToolArgs, turn_id: &str) -> BoxFuture<'static, Answer> {
            Gate.run(args, turn_id)
        }
    }

    #[tokio::test(start_paused = true)]
    async fn browser_calls_have_a_lane_of_their_own() {
        let (tx, mut rx) = mpsc::unbounded_channel();
        let ex = Executor::spawn(Arc::new(Ungated), tx, false);
        let start = Instant::now();
        ex.run(open("o1", "t1", 10));
        ex.run(call("r1", "t1", "browser", json!({ "action": "read" })));
        ex.run(addr("c1", "t1", "a"));
        ex.run(addr("c2", "t1", "b"));
        // The other tools do not wait behind a loading page; each lane keeps its order.
        assert_eq!(next(&mut rx).await, pair("c1", "said a"));
        assert_eq!(start.elapsed(), Duration::from_secs(1));
        assert_eq!(next(&mut rx).await, pair("c2", "said b"));
        assert_eq!(start.elapsed(), Duration::from_secs(2));
        assert_eq!(next(&mut rx).await, pair("o1", "opened https://example.com/?10"));
        assert_eq!(next(&mut rx).await, pair("r1", "read"));
        assert_eq!(start.elapsed(), Duration::from_secs(10));
        // A stop ends the running call of each lane.
        ex.run(open("o2", "t2", 10));
        ex.run(addr("c3", "t2", "rin"));
        tokio::time::sleep(Duration::from_millis(100)).await;
        ex.stop(vec!["t2".into()]);
        let mut stopped = vec![next(&mut rx).await, next(&mut rx).await];
        stopped.sort();
        assert_eq!(stopped, [pair("c3", "error: turn stopped"), pair("o2", "error: turn stopped")]);
    }
}
