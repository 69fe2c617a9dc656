//! The demo agent on a push connection: turns, stop, reset and delegations.
//!
//! A turn plays, with delays scaled by pace: `reasoning` deltas, a
//! `tool_status` running → done ("clock" or "notes"), a `delegations` list
//! when the turn asked for a task (and on the first turn of a connection),
//! one `speech` frame per sentence but the last, a final `render` with the
//! last sentence and the whole reasoning, then `turn_end` with usage. A
//! delegation finishes a few seconds (× pace) after the turn ended: the list
//! is sent again with the item done, then a backend-initiated `render` under
//! a minted `bg-<n>` turn id and its `turn_end`.
//!
//! [`run_session`] runs after the handshake (hello checked, ready sent) and
//! knows nothing of sockets: frames go out through a [`FrameSink`], so the
//! demo's own server and `yui-mock` (which records what clients send) share
//! it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::reply::{chunks, cut_chars, demo_reply_in, local_time_hhmm, tokens, DemoReply, Lang, SUMMARY_MAX_CHARS};

/// Where a push session's frames go (one connection's outgoing queue).
pub trait FrameSink: Send + Sync + 'static {
    /// Queues one JSON frame; `false` when the connection is gone.
    fn send_frame(&self, frame: Value) -> bool;
}

impl FrameSink for mpsc::UnboundedSender<Value> {
    fn send_frame(&self, frame: Value) -> bool {
        self.send(frame).is_ok()
    }
}

/// A server-wide counter for minted ids (`bg-<n>`, `d-<n>`, `resp_<n>`, …).
#[derive(Debug, Default)]
pub struct Ids(AtomicU64);

impl Ids {
    /// The next id number, starting at 1.
    pub fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// What a push session needs besides its socket.
#[derive(Debug, Clone)]
pub struct PushSession {
    /// Delay multiplier (1.0 human pacing, 0 none).
    pub pace: f64,
    /// The client's hello `accepts` lists `"error"`: a failing turn sends an
    /// `error` frame instead of a spoken failure line.
    pub accepts_error: bool,
    /// Id counter shared by the server.
    pub ids: Arc<Ids>,
    /// Cancelled when the server stops; the session's timers end on it.
    pub cancel: CancellationToken,
    /// The language of a background turn's remark.
    pub quiet_language: crate::QuietLanguage,
}

/// A turn or delegation frame's id as a string (ids may be numbers).
pub fn id_string(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn frame_type(frame: &Value) -> Option<&str> {
    frame.get("type").and_then(Value::as_str)
}

/// The `source` of every render the demo sends.
const SOURCE: &str = "yui-demo";
/// Delegation list cap (`docs/push-protocol.md`, "Limits").
const MAX_DELEGATIONS: usize = 50;

/// Base delays in milliseconds, multiplied by pace.
const REASONING_MS: f64 = 200.0;
const THINKING_MS: f64 = 600.0;
const TOOL_MS: f64 = 300.0;
const SENTENCE_MS: f64 = 400.0;
const DELEGATION_MS: f64 = 3000.0;

/// The turn the demo is running now.
struct Active {
    gen: u64,
    turn_id: String,
    /// Older turns this run took over; they end with it.
    carried: Vec<String>,
    cancel: CancellationToken,
}

#[derive(Default)]
struct Inner {
    gen: u64,
    active: Option<Active>,
    /// Turns in this conversation (reset clears it).
    turns: u64,
    /// Turns on this connection.
    conn_turns: u64,
    background_turns: u64,
    delegations: Vec<Value>,
    /// Delegations listed as running whose completion is not scheduled yet:
    /// id, and the language of the turn that started it (its report's).
    pending: Vec<(String, Lang)>,
    /// Conversation generation; reset bumps it.
    epoch: u64,
}

struct Demo {
    session: PushSession,
    out: Arc<dyn FrameSink>,
    /// Cancelled when the connection's session ends.
    cancel: CancellationToken,
    inner: Mutex<Inner>,
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// Runs the demo agent on one connection until `inbox` closes (the
/// connection ended). `inbox` carries the client's parsed frames after hello;
/// `turn`, `stop` and `reset` are acted on, others are ignored.
pub async fn run_session(session: PushSession, out: impl FrameSink, mut inbox: mpsc::UnboundedReceiver<Value>) {
    let cancel = session.cancel.child_token();
    let demo = Arc::new(Demo { session, out: Arc::new(out), cancel: cancel.clone(), inner: Mutex::new(Inner::default()) });
    while let Some(frame) = inbox.recv().await {
        match frame_type(&frame).unwrap_or_default() {
            "turn" => demo.start_turn(&frame),
            "stop" => demo.stop(&frame),
            "reset" => demo.reset(),
            other => tracing::debug!(event = "demo_recorded", r#type = other),
        }
    }
    cancel.cancel();
}

impl Demo {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn pace(&self) -> f64 {
        self.session.pace.max(0.0)
    }

    fn start_turn(self: &Arc<Self>, frame: &Value) {
        let Some(turn_id) = id_string(frame.get("turn_id")) else {
            tracing::warn!(event = "frame_malformed", "turn without turn_id");
            return;
        };
        let text = frame.get("text").and_then(Value::as_str).unwrap_or_default();
        let context = frame.get("client_context").and_then(Value::as_str).unwrap_or_default();
        let mut reply = demo_reply_in(text, &local_time_hhmm(), self.session.quiet_language.get());
        // A picture rode with the turn (the screenshot): say so first.
        let sees = frame.get("images").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
        if sees && !reply.fail && !reply.sentences.is_empty() {
            reply.sentences.insert(0, crate::reply::DemoSentence::new("happy", "nod", reply.lang.lines().sees_screen));
        }
        let mut inner = self.lock();
        inner.gen += 1;
        let gen = inner.gen;
        let mut carried = Vec::new();
        if let Some(old) = inner.active.take() {
            old.cancel.cancel();
            carried = old.carried;
            carried.push(old.turn_id);
        }
        inner.turns += 1;
        inner.conn_turns += 1;
        let delegation = match (&reply.delegation, inner.conn_turns == 1) {
            (Some(title), _) => Some(title.clone()),
            (None, true) if !reply.fail => Some(reply.lang.lines().first_task.to_string()),
            _ => None,
        };
        let silent = reply.background && {
            inner.background_turns += 1;
            inner.background_turns.is_multiple_of(2)
        };
        let input_tokens = 850 + 60 * inner.turns + tokens(text) + tokens(context);
        let cancel = self.cancel.child_token();
        inner.active = Some(Active { gen, turn_id: turn_id.clone(), carried, cancel: cancel.clone() });
        drop(inner);
        tracing::info!(event = "demo_turn", turn_id, text);
        let demo = self.clone();
        let plan = TurnPlan { gen, turn_id, reply, delegation, silent, input_tokens };
        tokio::spawn(async move { demo.play(plan, cancel).await });
    }

    /// Waits `base_ms` × pace; `false` when the run was cancelled meanwhile.
    async fn pause(&self, base_ms: f64, cancel: &CancellationToken) -> bool {
        let ms = base_ms * self.pace();
        if ms >= 1.0 {
            tokio::select! {
                _ = cancel.cancelled() => return false,
                _ = tokio::time::sleep(Duration::from_millis(ms as u64)) => {}
            }
        }
        !cancel.is_cancelled()
    }

    /// Sends a frame of run `gen` unless that run was stopped or replaced.
    fn emit(&self, gen: u64, frame: Value) -> bool {
        let inner = self.lock();
        match &inner.active {
            Some(a) if a.gen == gen && !a.cancel.is_cancelled() => self.out.send_frame(frame),
            _ => false,
        }
    }

    async fn play(self: Arc<Self>, plan: TurnPlan, cancel: CancellationToken) {
        let TurnPlan { gen, turn_id, reply, delegation, silent, input_tokens } = plan;
        for delta in chunks(&reply.reasoning, 3) {
            if !self.pause(REASONING_MS, &cancel).await || !self.emit(gen, json!({ "type": "reasoning", "turn_id": turn_id, "delta": delta })) {
                return;
            }
        }
        let tool = |state: &str| json!({ "type": "tool_status", "turn_id": turn_id, "state": state, "tool_id": reply.tool });
        if !self.pause(THINKING_MS, &cancel).await || !self.emit(gen, tool("running")) || !self.pause(TOOL_MS, &cancel).await {
            return;
        }
        if let Some(title) = delegation {
            if !self.add_delegation(gen, &title, reply.lang) {
                return;
            }
        }
        if !self.emit(gen, tool(if reply.fail { "failed" } else { "done" })) {
            return;
        }
        if reply.fail && self.session.accepts_error {
            let error = json!({ "type": "error", "turn_id": turn_id, "message": "Provider returned 429: rate limit reached" });
            if self.pause(SENTENCE_MS, &cancel).await && self.emit(gen, error) {
                self.finish(gen, None);
            }
            return;
        }
        let sentences = if silent { &[][..] } else { &reply.sentences[..] };
        if let Some((last, first)) = sentences.split_last() {
            for sentence in first {
                let speech = json!({ "type": "speech", "turn_id": turn_id, "segments": [sentence.segment()] });
                if !self.pause(SENTENCE_MS, &cancel).await || !self.emit(gen, speech) {
                    return;
                }
            }
            let render = json!({
                "type": "render", "turn_id": turn_id, "source": SOURCE,
                "segments": [last.segment()], "reasoning": reply.reasoning,
            });
            if !self.pause(SENTENCE_MS, &cancel).await || !self.emit(gen, render) {
                return;
            }
        }
        let output_tokens = tokens(&reply.text()) + tokens(&reply.reasoning);
        let usage = json!({ "input_tokens": input_tokens, "output_tokens": output_tokens, "total_tokens": input_tokens + output_tokens });
        self.finish(gen, Some(usage));
    }

    /// Ends run `gen` (its turn_end, then the turns it carried) if it is still current.
    fn finish(self: &Arc<Self>, gen: u64, usage: Option<Value>) {
        let mut inner = self.lock();
        let Some(active) = inner.active.take_if(|a| a.gen == gen) else {
            return;
        };
        let mut end = json!({ "type": "turn_end", "turn_id": active.turn_id });
        if let Some(usage) = usage {
            end["usage"] = usage;
        }
        self.out.send_frame(end);
        for id in &active.carried {
            self.out.send_frame(json!({ "type": "turn_end", "turn_id": id }));
        }
        self.schedule_pending(&mut inner);
    }

    /// Ends every held turn of the active run with a bare turn_end.
    fn end_active(self: &Arc<Self>, inner: &mut Inner) {
        if let Some(active) = inner.active.take() {
            active.cancel.cancel();
            for id in std::iter::once(&active.turn_id).chain(&active.carried) {
                self.out.send_frame(json!({ "type": "turn_end", "turn_id": id }));
            }
            self.schedule_pending(inner);
        }
    }

    fn stop(self: &Arc<Self>, frame: &Value) {
        let named: Vec<String> =
            frame.get("turn_ids").and_then(Value::as_array).map(|ids| ids.iter().filter_map(|v| id_string(Some(v))).collect()).unwrap_or_default();
        tracing::info!(event = "demo_stop", ?named);
        let mut inner = self.lock();
        let Some(main_named) = inner.active.as_ref().map(|a| named.contains(&a.turn_id)) else {
            return;
        };
        if main_named {
            self.end_active(&mut inner);
            return;
        }
        let Some(active) = inner.active.as_mut() else {
            return;
        };
        let before = active.carried.len();
        active.carried.retain(|id| {
            let stop = named.contains(id);
            if stop {
                self.out.send_frame(json!({ "type": "turn_end", "turn_id": id }));
            }
            !stop
        });
        tracing::debug!(event = "demo_stop_carried", ended = before - active.carried.len());
    }

    fn reset(self: &Arc<Self>) {
        tracing::info!(event = "demo_reset");
        let mut inner = self.lock();
        self.end_active(&mut inner);
        inner.epoch += 1;
        inner.turns = 0;
        inner.delegations.clear();
        inner.pending.clear();
        self.out.send_frame(json!({ "type": "delegations", "items": [] }));
    }

    /// Lists a new running delegation (if run `gen` is still current); its
    /// report will be in `lang`.
    fn add_delegation(&self, gen: u64, title: &str, lang: Lang) -> bool {
        let mut inner = self.lock();
        if !inner.active.as_ref().is_some_and(|a| a.gen == gen && !a.cancel.is_cancelled()) {
            return false;
        }
        let id = format!("d-{}", self.session.ids.next());
        let title = cut_chars(title, crate::reply::TITLE_MAX_CHARS);
        inner.delegations.push(json!({ "id": id, "title": title, "started_at": now_ms(), "state": "running" }));
        while inner.delegations.len() > MAX_DELEGATIONS {
            match inner.delegations.iter().position(|d| d["state"] == "done") {
                Some(i) => inner.delegations.remove(i),
                None => inner.delegations.remove(0),
            };
        }
        inner.pending.push((id, lang));
        self.out.send_frame(json!({ "type": "delegations", "items": inner.delegations }))
    }

    /// Starts the completion timers of the delegations listed so far.
    fn schedule_pending(self: &Arc<Self>, inner: &mut Inner) {
        for (id, lang) in inner.pending.drain(..) {
            let (demo, epoch) = (self.clone(), inner.epoch);
            tokio::spawn(async move {
                let ms = DELEGATION_MS * demo.pace();
                tokio::select! {
                    _ = demo.cancel.cancelled() => {}
                    _ = tokio::time::sleep(Duration::from_millis(ms as u64)) => demo.complete(&id, epoch, lang),
                }
            });
        }
    }

    /// Marks a delegation done and reports it under a backend-minted turn,
    /// in `lang`. The item's summary (a list entry, never spoken) stays
    /// English.
    fn complete(&self, id: &str, epoch: u64, lang: Lang) {
        let mut inner = self.lock();
        if inner.epoch != epoch {
            return;
        }
        let Some(item) = inner.delegations.iter_mut().find(|d| d["id"] == id && d["state"] == "running") else {
            return;
        };
        let title = item["title"].as_str().unwrap_or_default().to_string();
        let summary = cut_chars(&format!("Done: \"{title}\". Everything looks fine."), SUMMARY_MAX_CHARS);
        item["state"] = json!("done");
        item["ended_at"] = json!(now_ms());
        item["status"] = json!("ok");
        item["summary"] = json!(summary);
        self.out.send_frame(json!({ "type": "delegations", "items": inner.delegations }));
        let turn_id = format!("bg-{}", self.session.ids.next());
        tracing::info!(event = "demo_delegation_done", id, turn_id);
        let lines = lang.lines();
        let speech = (lines.task_done)(&title);
        self.out.send_frame(json!({
            "type": "render", "turn_id": turn_id, "source": SOURCE,
            "segments": [
                { "cues": [{ "emotion_id": "happy", "motion_id": "nod" }], "speech": speech },
                { "cues": [{ "emotion_id": "relaxed", "motion_id": "idle" }], "speech": lines.all_fine },
            ],
        }));
        self.out.send_frame(json!({ "type": "turn_end", "turn_id": turn_id }));
    }
}

/// Everything a turn run needs, decided when the turn arrived.
struct TurnPlan {
    gen: u64,
    turn_id: String,
    reply: DemoReply,
    delegation: Option<String>,
    silent: bool,
    input_tokens: u64,
}
