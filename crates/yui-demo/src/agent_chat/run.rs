//! One streaming `agent_chat` run: the demo's reply (see
//! [`demo_reply`](crate::demo_reply)) told as the engine's events, with the
//! `get_time` tool, the `list_files` approval and `POST /cancel/{run_id}`.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::{events, Decision, Pending, APPROVAL_TIMEOUT, FILES_TOOL, TIME_TOOL};
use crate::reply::{chunks, demo_reply, strip_context, Lang};
use crate::server::Shared;

/// Base delays in milliseconds, multiplied by the pace.
const REASONING_MS: f64 = 100.0;
const TOOL_MS: f64 = 150.0;
const FIRST_DELTA_MS: f64 = 500.0;
const DELTA_MS: f64 = 200.0;

/// What the pretend `list_files` tool finds in the demo's pretend folder.
const FILES_OUTPUT: &str = "notes.txt\ntodo.md\nyui.png\n";

/// What a declined (or unanswered) tool call returns, as the engine words it.
pub(crate) const DECLINED: &str = "The user declined this tool call.";

/// `error.message` of a "fail" turn (kind `rate_limit`).
pub(crate) const FAIL_MESSAGE: &str = "Rate limit reached (yui-demo).";

/// Why a run stopped early.
pub(crate) enum Stop {
    /// `POST /cancel/{run_id}`: send `cancelled`.
    Cancelled,
    /// The client went away or the server stops: send nothing more.
    Gone,
}

/// What one `POST /chat` asked for.
pub(crate) struct Ask {
    /// The conversation the exchange is stored under.
    pub(crate) chat_id: String,
    /// The in-memory history the run reads and extends.
    pub(crate) session: String,
    /// The client's run id (`""` when it sent none: then it cannot be
    /// cancelled).
    pub(crate) run_id: String,
    /// The user index to answer again.
    pub(crate) regenerate_of: Option<u64>,
    /// Whether the run may use tools.
    pub(crate) tools: bool,
    /// The prompt as stored: the user's text and the text attachments.
    pub(crate) prompt: String,
    /// What the reply answers: the user's text without its
    /// `<client_context>` block.
    pub(crate) utterance: String,
    /// Names of the attachments taken (text and media).
    pub(crate) attached: Vec<String>,
}

/// One streaming run; its events go to `tx` as SSE wire text.
pub(crate) struct Run {
    pub(crate) shared: Arc<Shared>,
    /// This run's number: `m_<n>`, `ap_<n>…`, and its approvals' owner.
    pub(crate) n: u64,
    pub(crate) ask: Ask,
    pub(crate) tx: mpsc::Sender<String>,
    pub(crate) cancel: CancellationToken,
    /// When the request came.
    pub(crate) began: Instant,
    /// When the first text went out.
    pub(crate) first: OnceLock<Duration>,
    /// Tool calls so far (`c_<k>_<tool>`).
    pub(crate) calls: std::sync::atomic::AtomicU64,
}

impl Run {
    /// `m_<n in hex>`.
    pub(crate) fn msg_id(&self) -> String {
        format!("m_{:x}", self.n)
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

    /// Sends one event after `delay_ms` × pace; a cancel is noticed here,
    /// at the chunk boundary.
    async fn emit(&self, delay_ms: f64, event: Value) -> Result<(), Stop> {
        let ms = delay_ms * self.shared.config.pace.max(0.0);
        if ms >= 1.0 {
            self.guard(tokio::time::sleep(Duration::from_millis(ms as u64))).await?;
        }
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        if event["type"] == "delta" {
            let _ = self.first.set(self.began.elapsed());
        }
        self.tx.send(events::frame(&event)).await.map_err(|_| Stop::Gone)
    }

    /// Streams `text` as a few `delta`s.
    async fn say(&self, text: &str) -> Result<(), Stop> {
        for (i, part) in chunks(text, 3).iter().enumerate() {
            let delay = if i == 0 { FIRST_DELTA_MS } else { DELTA_MS };
            self.emit(delay, events::delta(&self.msg_id(), part)).await?;
        }
        Ok(())
    }

    /// Stores the exchange, then `usage` and `end`.
    async fn finish(&self, text: &str) -> Result<(), Stop> {
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let seconds = round(self.began.elapsed());
        let ttft = round(self.first.get().copied().unwrap_or_default());
        let chars = text.chars().count() as u64;
        let a = &self.ask;
        let (user_index, (versions, active)) = {
            let mut st = self.shared.agent.lock();
            let u = st.chats.persist(&a.chat_id, &a.prompt, text, a.regenerate_of);
            st.sessions.entry(a.session.clone()).or_default().push(a.utterance.clone());
            (u, st.chats.version_info(&a.chat_id, u))
        };
        let m = self.msg_id();
        self.emit(0.0, events::usage(&m, chars, seconds, ttft)).await?;
        let end = events::end(&m, user_index, user_index + 1, versions, active);
        self.emit(0.0, end).await
    }

    /// The whole run; `history` is the session's earlier utterances, `now`
    /// the `HH:MM` the clock tool reads.
    pub(crate) async fn play(&self, history: &[String], now: &str) -> Result<(), Stop> {
        let m = self.msg_id();
        self.emit(0.0, events::start(&m, &self.ask.run_id)).await?;
        let utterance = strip_context(&self.ask.utterance);
        let reply = demo_reply(&utterance, now);
        let files = self.ask.tools && !reply.background && !reply.fail && asks_for_files(&utterance);
        let lines = reply.lang.lines();
        let mut reasoning = String::new();
        if let Some(last) = history.last() {
            reasoning.push_str(&(lines.earlier)(last));
        }
        if !self.ask.attached.is_empty() {
            reasoning.push_str(&(lines.attached)(&self.ask.attached.join(", ")));
        }
        reasoning.push_str(if files { lines.files_why } else { reply.reasoning.as_str() });
        for part in chunks(&reasoning, 2) {
            self.emit(REASONING_MS, events::reasoning(&m, &part)).await?;
        }
        if reply.fail {
            return self.emit(0.0, events::error(&m, FAIL_MESSAGE, "rate_limit")).await;
        }
        let text = if files {
            self.list_files(reply.lang).await?
        } else {
            if reply.tool == "clock" && self.ask.tools {
                self.tool(TIME_TOOL, &json!({}), true, now).await?;
            }
            reply.text()
        };
        self.say(&text).await?;
        self.finish(&text).await
    }

    /// The tool's activity as the engine drains it after the tool ran:
    /// `tool_drafting`, `tool_call` and `tool_result` together, with the
    /// call id `c_<k>_<name>`.
    async fn tool(&self, name: &str, args: &Value, ok: bool, output: &str) -> Result<(), Stop> {
        let k = self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let (m, call) = (self.msg_id(), format!("c_{k}_{name}"));
        self.emit(TOOL_MS, events::tool_drafting(&m, name)).await?;
        self.emit(0.0, events::tool_call(&m, &call, name, args)).await?;
        let result = events::tool_result(&m, &call, name, ok, output, 0.02);
        self.emit(0.0, result).await
    }

    /// Asks to run `list_files` (unless the user said "always" before),
    /// waits for the answer or [`APPROVAL_TIMEOUT`], then tells what the
    /// tool did; the reply text, in `lang`.
    async fn list_files(&self, lang: Lang) -> Result<String, Stop> {
        let args = json!({ "path": "~/yui-demo" });
        let always = self.shared.agent.lock().always.contains(FILES_TOOL);
        let allowed = if always { Some(true) } else { self.approval(&args).await? };
        let lines = lang.lines();
        let (output, text) = match allowed {
            Some(true) => (FILES_OUTPUT, lines.files_shown),
            Some(false) => (DECLINED, lines.files_declined),
            None => (DECLINED, lines.files_unanswered),
        };
        self.tool(FILES_TOOL, &args, true, output).await?;
        Ok(text.to_string())
    }

    /// `approval_request` (its own `call_id`, not the later call's), then
    /// the wait: `Some(true)` allowed (or always), `Some(false)` denied,
    /// `None` timed out.
    async fn approval(&self, args: &Value) -> Result<Option<bool>, Stop> {
        let salt = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let (m, call, aid) = (self.msg_id(), format!("c_{:x}", u64::from(salt) ^ (self.n << 32)), format!("ap_{}{:x}", self.n, salt));
        let (tx, rx) = oneshot::channel();
        let pending = Pending { run: self.n, answer: tx };
        self.shared.agent.lock().approvals.insert(aid.clone(), pending);
        let request = events::approval_request(&m, &aid, &call, FILES_TOOL, args);
        self.emit(TOOL_MS, request).await?;
        let answer = match self.guard(tokio::time::timeout(APPROVAL_TIMEOUT, rx)).await? {
            Ok(Ok(Decision::Always)) => {
                self.shared.agent.lock().always.insert(FILES_TOOL.to_string());
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
    let w: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let has = |k: &str| w.contains(&k);
    ["run", "ls", "files", "folder", "folders", "directory"].iter().any(|k| has(k)) || (has("list") && ["file", "dir"].iter().any(|k| has(k)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn files_are_asked_for_by_run_ls_and_list_files() {
        for yes in ["run ls", "please list files", "list the file", "what's in this folder?", "RUN it"] {
            assert!(super::asks_for_files(yes), "{yes}");
        }
        for no in ["add it to my todo list", "running late", "hello", "what time is it"] {
            assert!(!super::asks_for_files(no), "{no}");
        }
    }
}
