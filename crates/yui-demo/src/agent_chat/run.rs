//! One streaming `agent_chat` run: the demo's reply (see
//! [`demo_reply`](crate::demo_reply)) told as the seed's events, with the
//! `get_time` tool, the `list_files` approval and `POST /cancel`.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::store::Slot;
use super::{events, Decision, Pending, APPROVAL_TIMEOUT, FILES_TOOL, TIME_TOOL};
use crate::http::SseEvent;
use crate::reply::{chunks, demo_reply, strip_context};
use crate::server::Shared;

/// Base delays in milliseconds, multiplied by the pace.
const REASONING_MS: f64 = 100.0;
const TOOL_MS: f64 = 150.0;
const FIRST_DELTA_MS: f64 = 500.0;
const DELTA_MS: f64 = 200.0;

/// What the pretend `list_files` tool finds in the demo's pretend folder.
const FILES_OUTPUT: &str = "notes.txt\ntodo.md\nyui.png\n";

/// `error.message` of a "fail" turn (kind `rate_limit`).
pub(crate) const FAIL_MESSAGE: &str = "Rate limit reached (yui-demo).";

/// Why a run stopped early.
pub(crate) enum Stop {
    /// `POST /cancel`: send `cancelled`.
    Cancelled,
    /// The client went away or the server stops: send nothing more.
    Gone,
}

/// One streaming run; its events go to `tx` as SSE wire text.
pub(crate) struct Run {
    pub(crate) shared: Arc<Shared>,
    /// The id number: `msg-<n>`, `run-<n>`, `call-<n>`, `apr-<n>`.
    pub(crate) n: u64,
    pub(crate) cid: String,
    pub(crate) tx: mpsc::Sender<String>,
    pub(crate) cancel: CancellationToken,
    /// When the request came.
    pub(crate) began: Instant,
    /// When the first token (reasoning, text or tool) went out.
    pub(crate) first: OnceLock<Duration>,
}

impl Run {
    /// `msg-<n>`.
    pub(crate) fn msg_id(&self) -> String {
        format!("msg-{}", self.n)
    }

    /// `run-<n>`.
    pub(crate) fn run_id(&self) -> String {
        format!("run-{}", self.n)
    }

    /// Waits for `fut` unless the run is cancelled or its client or the
    /// server goes.
    async fn guard<T>(&self, fut: impl std::future::Future<Output = T>) -> Result<T, Stop> {
        tokio::select! {
            biased;
            _ = self.cancel.cancelled() => Err(Stop::Cancelled),
            _ = self.shared.cancel.cancelled() => Err(Stop::Gone),
            _ = self.tx.closed() => Err(Stop::Gone),
            v = fut => Ok(v),
        }
    }

    /// Sends one event after `delay_ms` × pace.
    async fn emit(&self, delay_ms: f64, event: Value) -> Result<(), Stop> {
        let ms = delay_ms * self.shared.config.pace.max(0.0);
        if ms >= 1.0 {
            self.guard(tokio::time::sleep(Duration::from_millis(ms as u64)))
                .await?;
        }
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        if event["type"] != "start" {
            let _ = self.first.set(self.began.elapsed());
        }
        let wire = SseEvent::named(0.0, &event).wire();
        self.tx.send(wire).await.map_err(|_| Stop::Gone)
    }

    /// Streams `text` as a few `delta`s.
    async fn say(&self, text: &str) -> Result<(), Stop> {
        for (i, part) in chunks(text, 3).iter().enumerate() {
            let delay = if i == 0 { FIRST_DELTA_MS } else { DELTA_MS };
            self.emit(delay, events::delta(&self.msg_id(), part))
                .await?;
        }
        Ok(())
    }

    /// `usage`, files the answer, `end`.
    async fn finish(&self, slot: Slot, text: &str) -> Result<(), Stop> {
        let seconds = round(self.began.elapsed());
        let ttft = round(self.first.get().copied().unwrap_or_default());
        let chars = text.chars().count() as u64;
        let m = self.msg_id();
        self.emit(0.0, events::usage(&m, chars, seconds, ttft))
            .await?;
        let (versions, active) = {
            let mut st = self.shared.agent.lock();
            st.conversations.finish(&self.cid, slot, text);
            st.conversations
                .versions(&self.cid, slot.assistant_index)
                .unwrap_or((1, 0))
        };
        let end = events::end(&m, slot.user_index, slot.assistant_index, versions, active);
        self.emit(0.0, end).await
    }

    /// The whole turn for the user's `message` (the `client_context` block
    /// is skipped), `now` the `HH:MM` the clock tool reads.
    pub(crate) async fn play(
        &self,
        message: &str,
        slot: Result<Slot, String>,
        now: &str,
    ) -> Result<(), Stop> {
        let m = self.msg_id();
        self.emit(0.0, events::start(&m, &self.run_id())).await?;
        let slot = match slot {
            Ok(s) => s,
            Err(why) => return self.emit(0.0, events::error(&m, &why, "internal")).await,
        };
        let utterance = strip_context(message);
        let reply = demo_reply(&utterance, now);
        let files = !reply.background && !reply.fail && asks_for_files(&utterance);
        let reasoning = if files {
            "The user wants to see files. list_files needs their permission first, so I'll ask."
                .to_string()
        } else {
            reply.reasoning.clone()
        };
        for part in chunks(&reasoning, 2) {
            self.emit(REASONING_MS, events::reasoning(&m, &part))
                .await?;
        }
        if reply.fail {
            return self
                .emit(0.0, events::error(&m, FAIL_MESSAGE, "rate_limit"))
                .await;
        }
        let text = if files {
            self.list_files().await?
        } else {
            if reply.tool == "clock" {
                self.tool(true, TIME_TOOL, &json!({}), now).await?;
            }
            reply.text()
        };
        self.say(&text).await?;
        self.finish(slot, &text).await
    }

    /// `tool_drafting` (unless the call was drafted for its approval),
    /// `tool_call`, `tool_result ok`.
    async fn tool(&self, draft: bool, name: &str, args: &Value, output: &str) -> Result<(), Stop> {
        let (m, call) = (self.msg_id(), format!("call-{}", self.n));
        if draft {
            self.emit(TOOL_MS, events::tool_drafting(&m, name)).await?;
        }
        self.emit(0.0, events::tool_call(&m, &call, name, args))
            .await?;
        self.emit(
            TOOL_MS,
            events::tool_result(&m, &call, name, true, output, 0.02),
        )
        .await
    }

    /// Asks to run `list_files` (unless the user said "always" before) and
    /// waits for the answer or [`APPROVAL_TIMEOUT`]; the reply text.
    async fn list_files(&self) -> Result<String, Stop> {
        let args = json!({ "path": "~/yui-demo" });
        let always = self.shared.agent.lock().always.contains(FILES_TOOL);
        let allowed = if always {
            Some(true)
        } else {
            self.ask(&args).await?
        };
        let (m, call) = (self.msg_id(), format!("call-{}", self.n));
        let (output, text) = match allowed {
            Some(true) => {
                return self
                    .tool(always, FILES_TOOL, &args, FILES_OUTPUT)
                    .await
                    .map(|()| {
                        "I peeked into my demo folder: notes.txt, todo.md and yui.png. \
                     It's only a pretend folder, so nothing of yours was touched."
                            .to_string()
                    });
            }
            Some(false) => (
                "denied",
                "Okay, I won't look. Just ask again if you change your mind.",
            ),
            None => (
                "approval timed out",
                "I didn't hear back, so I left the files alone. Ask me again any time!",
            ),
        };
        let result = events::tool_result(&m, &call, FILES_TOOL, false, output, 0.0);
        self.emit(0.0, result).await?;
        Ok(text.to_string())
    }

    /// `tool_drafting`, `approval_request`, then the wait: `Some(true)`
    /// allowed (or always), `Some(false)` denied, `None` timed out.
    async fn ask(&self, args: &Value) -> Result<Option<bool>, Stop> {
        let (m, call, aid) = (
            self.msg_id(),
            format!("call-{}", self.n),
            format!("apr-{}", self.n),
        );
        let (tx, rx) = oneshot::channel();
        let pending = Pending {
            run_id: self.run_id(),
            answer: tx,
        };
        self.shared
            .agent
            .lock()
            .approvals
            .insert(aid.clone(), pending);
        self.emit(TOOL_MS, events::tool_drafting(&m, FILES_TOOL))
            .await?;
        let request = events::approval_request(&m, &aid, &call, FILES_TOOL, args);
        self.emit(0.0, request).await?;
        let answer = match self
            .guard(tokio::time::timeout(APPROVAL_TIMEOUT, rx))
            .await?
        {
            Ok(Ok(Decision::Always)) => {
                self.shared
                    .agent
                    .lock()
                    .always
                    .insert(FILES_TOOL.to_string());
                Some(true)
            }
            Ok(Ok(d)) => Some(d == Decision::Allow),
            Ok(Err(_)) => return Err(Stop::Gone),
            Err(_) => {
                self.shared.agent.lock().approvals.remove(&aid);
                None
            }
        };
        tracing::info!(event = "agent_chat_approval", approval_id = %aid, answer = ?answer);
        Ok(answer)
    }
}

/// Seconds with two decimals.
fn round(d: Duration) -> f64 {
    (d.as_secs_f64() * 100.0).round() / 100.0
}

/// The user asks to run something or to see files: "run", "ls", "files",
/// "folder", "directory", or "list" with "file"/"folder"/"dir".
pub(crate) fn asks_for_files(utterance: &str) -> bool {
    let lower = utterance.to_lowercase();
    let w: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |k: &str| w.contains(&k);
    ["run", "ls", "files", "folder", "folders", "directory"]
        .iter()
        .any(|k| has(k))
        || (has("list") && ["file", "dir"].iter().any(|k| has(k)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn files_are_asked_for_by_run_ls_and_list_files() {
        for yes in [
            "run ls",
            "please list files",
            "list the file",
            "what's in this folder?",
            "RUN it",
        ] {
            assert!(super::asks_for_files(yes), "{yes}");
        }
        for no in [
            "add it to my todo list",
            "running late",
            "hello",
            "what time is it",
        ] {
            assert!(!super::asks_for_files(no), "{no}");
        }
    }
}
