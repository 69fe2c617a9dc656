//! [`SessionHandle`]: a session's command inlet and its two watch channels,
//! cloned off a [`Session`](super::Session) so that a task may send to it and
//! wait on it while the session itself stays where it is owned (a window's
//! state in the app). And [`deliver`]: one line of the chat of several
//! characters (`docs/characters.md`, "Where a line goes") handed to their
//! sessions, the one place the CLI and the app do it.

use super::Activity;
use crate::cast::Route;
use crate::command::{Addressee, UserCommand};
use crate::error::CoreError;
use crate::event::Status;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// A clone of a session's way in. See the module doc.
#[derive(Clone)]
pub struct SessionHandle {
    cmds: mpsc::UnboundedSender<UserCommand>,
    sent: Arc<AtomicU64>,
    status: watch::Receiver<Status>,
    activity: watch::Receiver<Activity>,
}

impl SessionHandle {
    pub(super) fn new(
        cmds: mpsc::UnboundedSender<UserCommand>,
        sent: Arc<AtomicU64>,
        status: watch::Receiver<Status>,
        activity: watch::Receiver<Activity>,
    ) -> Self {
        Self { cmds, sent, status, activity }
    }

    /// Hand a user action to the session; `Closed` once it has ended.
    pub fn send(&self, cmd: UserCommand) -> Result<(), CoreError> {
        self.sent.fetch_add(1, Ordering::SeqCst);
        self.cmds.send(cmd).map_err(|_| CoreError::Closed)
    }

    /// Send a user message, giving a connection in progress up to `wait` to
    /// be ready first (a refused key will not get better by waiting: it is
    /// sent then, and its turn fails as it would).
    pub async fn send_when_ready(&self, cmd: UserCommand, wait: Duration) -> Result<(), CoreError> {
        if !self.status.borrow().is_ready() {
            let mut status = self.status.clone();
            let _ = tokio::time::timeout(wait, status.wait_for(|s| s.is_ready() || *s == Status::AuthFailed)).await;
        }
        self.send(cmd)
    }

    /// Wait until every command sent so far has been applied, no turn runs,
    /// nothing is queued and nothing is left to say, up to `timeout`. True
    /// when it is so.
    pub async fn wait_idle(&self, timeout: Duration) -> bool {
        let target = self.sent.load(Ordering::SeqCst);
        let mut rx = self.activity.clone();
        tokio::time::timeout(timeout, rx.wait_for(|a| !a.busy && !a.speaking && a.applied >= target)).await.is_ok_and(|r| r.is_ok())
    }
}

/// How long [`deliver`] waits: for a connection to be ready before a
/// message goes, and for a character's reply to end before `@everyone`'s
/// next turn goes anyway.
#[derive(Debug, Clone, Copy)]
pub struct DeliveryWaits {
    /// Before each message: a connection in progress.
    pub ready: Duration,
    /// Between two characters of `@everyone`.
    pub turn: Duration,
}

/// Hand `route` to the open characters' sessions `cast` (registry order,
/// main first): a plain line to main, as typed in her own composer; `@Name`
/// to that character, addressed to her; `@everyone` to each character in
/// registry order, addressed to everyone, each one's turn sent once the one
/// before has ended her reply and said it (so each later one overhears the
/// earlier replies). Returns when the last message is sent.
///
/// Errors: `Closed` when a session it sends to has ended (for `@everyone`,
/// the characters after it get nothing).
pub async fn deliver(route: Route, cast: &[SessionHandle], waits: DeliveryWaits) -> Result<(), CoreError> {
    match route {
        Route::Main { text } => cast.first().ok_or(CoreError::Closed)?.send_when_ready(UserCommand::SendText { text }, waits.ready).await,
        Route::One { index, text } => {
            let to = cast.get(index).ok_or(CoreError::Closed)?;
            to.send_when_ready(UserCommand::SendAddressed { text, to: Addressee::Character }, waits.ready).await
        }
        Route::Everyone { text } => {
            for (i, session) in cast.iter().enumerate() {
                if i > 0 {
                    cast[i - 1].wait_idle(waits.turn).await;
                }
                session.send_when_ready(UserCommand::SendAddressed { text: text.clone(), to: Addressee::Everyone }, waits.ready).await?;
            }
            Ok(())
        }
    }
}
