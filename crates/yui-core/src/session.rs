//! One window's session: the transport task, its command channel, its status.
//! Dropping the [`Session`] cancels its task.

use crate::command::UserCommand;
use crate::context::{render, ClientContext};
use crate::data_dir::DataDir;
use crate::error::CoreError;
use crate::event::{Status, UiEvent};
use crate::limits::Timeouts;
use crate::transport::push::connection::{self, Activity, Outputs, PushConfig};
use crate::transport::push::TurnBook;
use crate::model::Vocabulary;
use crate::settings::{push_url, ChatApi, Settings};
use crate::sink::SharedSink;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

/// Everything a session starts from.
#[derive(Debug, Clone)]
pub struct SessionConfig {
    /// Transport, endpoint, key, model.
    pub settings: Settings,
    /// Where chat_id and persisted files live.
    pub data_dir: DataDir,
    /// What the character can render.
    pub vocabulary: Vocabulary,
    /// The waits (the limits table by default).
    pub timeouts: Timeouts,
}

impl SessionConfig {
    /// A config with the default vocabulary and waits.
    pub fn new(settings: Settings, data_dir: DataDir) -> Self {
        Self { settings, data_dir, vocabulary: Vocabulary::default(), timeouts: Timeouts::default() }
    }
}

/// A running session. Commands go in with [`Session::send`]; events come out
/// through the sink given to [`Session::start`].
pub struct Session {
    cmds: mpsc::UnboundedSender<UserCommand>,
    status: watch::Receiver<Status>,
    activity: watch::Receiver<Activity>,
    sent: AtomicU64,
    contexts: std::sync::Arc<crate::context_log::ContextLog>,
    cancel: CancellationToken,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Session {
    /// Start the session's task on the current tokio runtime.
    ///
    /// Errors: an unusable `chat_base_url`, an unreadable data directory, or a
    /// chat API this build has no transport for.
    pub fn start(config: SessionConfig, sink: SharedSink) -> Result<Session, CoreError> {
        let SessionConfig { settings, data_dir, vocabulary, timeouts } = config;
        match settings.chat_api {
            ChatApi::Push => {}
            other => return Err(CoreError::Unsupported(other.as_str().to_string())),
        }
        let url = push_url(&settings.chat_base_url)?;
        let chat_id = data_dir.chat_id()?;
        let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
        let (status_tx, status_rx) = watch::channel(Status::Connecting { attempt: 0 });
        let (activity_tx, activity_rx) = watch::channel(Activity::default());
        let cancel = CancellationToken::new();
        let body_since = now_ms();
        let contexts = std::sync::Arc::new(crate::context_log::ContextLog::default());
        let outcomes = crate::outcome::OutcomeStore::new(&data_dir, &settings.character);
        let previous = outcomes.clone();
        let book = TurnBook::new(
            timeouts.frame_wait,
            Box::new(move || {
                let mut ctx = ClientContext::user_message("", body_since);
                ctx.previous_turn = previous.load();
                render(&ctx, now_ms())
            }),
        )
        .with_context_log(contexts.clone())
        .with_outcomes(outcomes);
        let cfg = PushConfig { url, key: settings.key, chat_id, vocabulary, timeouts };
        let out = Outputs { sink: sink.clone(), status: status_tx, activity: activity_tx, applied: AtomicU64::new(0) };
        sink.emit(UiEvent::Status { status: Status::Connecting { attempt: 0 } });
        let task = tokio::spawn(connection::run(cfg, out, cmd_rx, book, cancel.clone()));
        Ok(Session { cmds: cmd_tx, status: status_rx, activity: activity_rx, sent: AtomicU64::new(0), contexts, cancel, task: Some(task) })
    }

    /// Hand a user action to the session.
    pub fn send(&self, cmd: UserCommand) -> Result<(), CoreError> {
        self.sent.fetch_add(1, Ordering::SeqCst);
        self.cmds.send(cmd).map_err(|_| CoreError::Closed)
    }

    /// The connection state, on a watch channel.
    pub fn status(&self) -> watch::Receiver<Status> {
        self.status.clone()
    }

    /// True while a turn runs or messages wait.
    pub fn busy(&self) -> bool {
        self.activity.borrow().busy
    }

    /// The last client_context blocks this session sent, oldest first.
    pub fn sent_contexts(&self) -> Vec<crate::context_log::SentContext> {
        self.contexts.entries()
    }

    /// Wait until the transport is ready, up to `timeout`. True when it is.
    pub async fn wait_ready(&self, timeout: Duration) -> bool {
        let mut rx = self.status.clone();
        tokio::time::timeout(timeout, rx.wait_for(|s| s.is_ready())).await.is_ok_and(|r| r.is_ok())
    }

    /// Wait until every command sent so far has been applied, no turn runs
    /// and nothing is queued, up to `timeout`.
    pub async fn wait_idle(&self, timeout: Duration) -> bool {
        let target = self.sent.load(Ordering::SeqCst);
        let mut rx = self.activity.clone();
        tokio::time::timeout(timeout, rx.wait_for(|a| !a.busy && a.applied >= target))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// Stop the task and wait for it to finish.
    pub async fn close(mut self) {
        self.cancel.cancel();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// Wall clock in epoch milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}
