//! One window's push socket: connect, hello, ready, frames, and the one loop
//! that owns reconnect and backoff.

use super::frames::{ClientFrame, ServerFrame};
use crate::model::Vocabulary;
use super::tools;
use super::turns::{Effects, TurnBook};
use crate::command::UserCommand;
use crate::error::ErrorCode;
use crate::event::{Status, UiEvent};
use crate::limits::{Timeouts, RECONNECT_DELAY_GROWTH, TEXT_FRAME_SIZE, TURN_FRAME_SIZE};
use crate::sink::SharedSink;
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Close code a backend uses for a wrong key.
pub const CLOSE_AUTH: u16 = 4401;

/// What one push connection needs.
pub struct PushConfig {
    /// `ws(s)://…/ws`.
    pub url: url::Url,
    /// The chat API key.
    pub key: String,
    /// The installation's chat id.
    pub chat_id: String,
    /// What the client renders at the start; `SetVocabulary` changes it.
    pub vocabulary: Vocabulary,
    /// The waits.
    pub timeouts: Timeouts,
}

/// The channels one connection task reports through.
pub struct Outputs {
    /// Events for the UI.
    pub sink: SharedSink,
    /// Connection state.
    pub status: watch::Sender<Status>,
    /// Whether a turn runs or messages wait, and how many commands are applied.
    pub activity: watch::Sender<Activity>,
    /// Commands applied so far; published with the busy state they led to.
    pub applied: std::sync::atomic::AtomicU64,
}

/// The session's activity, published as one value so a reader never sees a
/// command counted before the busy state it caused.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Activity {
    /// True while a turn runs or messages wait.
    pub busy: bool,
    /// How many commands the task has applied.
    pub applied: u64,
}

impl Outputs {
    fn set_status(&self, s: Status) {
        let changed = self.status.send_if_modified(|cur| {
            if *cur == s {
                false
            } else {
                *cur = s.clone();
                true
            }
        });
        if changed {
            self.sink.emit(UiEvent::Status { status: s });
        }
    }
}

enum End {
    Cancelled,
    /// The user asked for a reconnect: go again at once.
    Requested,
    Auth,
    Lost { close_code: Option<u16>, reason: String, was_ready: bool },
}

/// The exponential backoff schedule of the limits table.
#[derive(Debug, Clone)]
pub struct Backoff {
    first: Duration,
    cap: Duration,
    next: Duration,
}

impl Backoff {
    /// Start at `first`, doubling per failure up to `cap`.
    pub fn new(first: Duration, cap: Duration) -> Self {
        Self { first, cap, next: first }
    }
    /// The delay before the next attempt; grows the one after.
    pub fn next_delay(&mut self) -> Duration {
        let d = self.next;
        self.next = (self.next * RECONNECT_DELAY_GROWTH).min(self.cap);
        d
    }
    /// After a ready: back to the first delay.
    pub fn reset(&mut self) {
        self.next = self.first;
    }
}

/// Run the window's socket until `cancel` fires or the command channel closes.
/// This is the one function that owns reconnect and backoff.
pub async fn run(
    cfg: PushConfig,
    out: Outputs,
    mut cmds: mpsc::UnboundedReceiver<UserCommand>,
    mut book: TurnBook,
    cancel: CancellationToken,
) {
    let mut backoff = Backoff::new(cfg.timeouts.reconnect_first, cfg.timeouts.reconnect_cap);
    let mut vocab = cfg.vocabulary.clone();
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        out.set_status(Status::Connecting { attempt });
        let end = connect_once(&cfg, &out, &mut cmds, &mut book, &mut vocab, &cancel).await;
        let wait = match end {
            End::Cancelled => break,
            End::Requested => {
                backoff.reset();
                attempt = 0;
                continue;
            }
            End::Auth => {
                out.set_status(Status::AuthFailed);
                out.sink.emit(UiEvent::Notice { code: ErrorCode::Auth, message: "The backend refused the key (4401). Check the key in settings.".into() });
                None
            }
            End::Lost { close_code, reason, was_ready } => {
                if was_ready {
                    backoff.reset();
                    attempt = 0;
                }
                let delay = backoff.next_delay();
                tracing::info!(record = "ws_reconnect", delay_ms = delay.as_millis() as u64, reason = %reason, "ws_reconnect");
                out.set_status(Status::Reconnecting { delay_ms: delay.as_millis() as u64, close_code, reason });
                Some(delay)
            }
        };
        // Wait out the delay (or, after a refused key, until the user asks),
        // still answering commands: a turn now is a network failure.
        let deadline = wait.map(|d| Instant::now() + d);
        loop {
            tokio::select! {
                _ = cancel.cancelled() => { out.status.send_replace(Status::Closed); return; }
                _ = sleep_opt(deadline) => break,
                cmd = cmds.recv() => match cmd {
                    None => { out.set_status(Status::Closed); return; }
                    Some(UserCommand::Reconnect) => {
                        out.applied.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        publish(&out, &book, Vec::new());
                        backoff.reset(); attempt = 0; break;
                    }
                    Some(cmd) => {
                        let mut fx = Effects::default();
                        apply_command(&out, cmd, &mut book, &mut vocab, &mut fx);
                        publish(&out, &book, fx.events);
                    }
                }
            }
        }
    }
    // Cancelled: the window (or its replacement) is not told, only the watch.
    out.status.send_replace(Status::Closed);
}

async fn sleep_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

fn apply_command(out: &Outputs, cmd: UserCommand, book: &mut TurnBook, vocab: &mut Vocabulary, fx: &mut Effects) {
    out.applied.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let now = Instant::now();
    match cmd {
        UserCommand::SendText { text } => book.send_text(text, now, fx),
        UserCommand::Stop => book.stop(now, fx),
        UserCommand::Reset => {
            if book.is_ready() {
                fx.frames.push(ClientFrame::Reset);
                fx.events.push(UiEvent::SessionReset);
            } else {
                fx.events.push(UiEvent::Notice { code: ErrorCode::Network, message: "Not connected; the reset was not sent.".into() });
            }
        }
        UserCommand::SetVocabulary { vocabulary } => {
            if *vocab != vocabulary {
                *vocab = vocabulary.clone();
                if book.is_ready() {
                    fx.frames.push(ClientFrame::Vocabulary { vocabulary });
                }
            }
        }
        UserCommand::Reconnect => {}
    }
}

async fn connect_once(
    cfg: &PushConfig,
    out: &Outputs,
    cmds: &mut mpsc::UnboundedReceiver<UserCommand>,
    book: &mut TurnBook,
    vocab: &mut Vocabulary,
    cancel: &CancellationToken,
) -> End {
    let lost = |reason: String| End::Lost { close_code: None, reason, was_ready: false };
    let connect = tokio::time::timeout(cfg.timeouts.hello_reply_wait, tokio_tungstenite::connect_async(cfg.url.as_str()));
    tokio::pin!(connect);
    let mut ws: Ws = loop {
        tokio::select! {
            _ = cancel.cancelled() => return End::Cancelled,
            // A turn while the socket opens is a network failure at once, not a wait.
            cmd = cmds.recv() => match cmd {
                None => return End::Cancelled,
                Some(UserCommand::Reconnect) => {
                    out.applied.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    publish(out, book, Vec::new());
                    return End::Requested;
                }
                Some(cmd) => {
                    let mut fx = Effects::default();
                    apply_command(out, cmd, book, vocab, &mut fx);
                    publish(out, book, fx.events);
                }
            },
            r = &mut connect => match r {
                Ok(Ok((ws, _))) => break ws,
                Ok(Err(e)) => {
                    tracing::warn!(record = "ws_connect_failed", url = %cfg.url, error = %e, "connect failed");
                    return lost(format!("cannot reach {}: {e}", cfg.url));
                }
                Err(_) => return lost(format!("connecting to {} timed out", cfg.url)),
            }
        }
    };
    tracing::info!(record = "ws_open", url = %cfg.url, "ws_open");
    let sent_vocab = vocab.clone();
    let hello = ClientFrame::Hello {
        key: cfg.key.clone(),
        chat_id: cfg.chat_id.clone(),
        accepts: vec!["error".into()],
        vocabulary: sent_vocab.clone(),
        tools: Some(tools::declarations()),
    };
    if let Err(e) = send_frame(&mut ws, &hello, TEXT_FRAME_SIZE).await {
        return lost(e);
    }
    out.set_status(Status::Handshaking);

    // Wait for ready.
    let hello_deadline = Instant::now() + cfg.timeouts.hello_reply_wait;
    let max_turn_bytes = loop {
        tokio::select! {
            _ = cancel.cancelled() => { close(&mut ws).await; return End::Cancelled; }
            _ = tokio::time::sleep_until(hello_deadline) => {
                tracing::warn!(record = "ws_close", code = 1000, reason = "no ready within the hello wait", "ws_close");
                close(&mut ws).await;
                return lost("no ready within the hello wait".into());
            }
            cmd = cmds.recv() => match cmd {
                None => return End::Cancelled,
                Some(UserCommand::Reconnect) => {
                    out.applied.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    publish(out, book, Vec::new());
                    close(&mut ws).await;
                    return End::Requested;
                }
                Some(cmd) => {
                    let mut fx = Effects::default();
                    apply_command(out, cmd, book, vocab, &mut fx);
                    publish(out, book, fx.events);
                }
            },
            msg = ws.next() => match read(msg) {
                Read::Frame(ServerFrame::Ready { max_turn_bytes, .. }) => break max_turn_bytes,
                Read::Frame(_) | Read::Skip => {}
                Read::Closed(code, reason) => return closed(code, reason, false),
            }
        }
    };
    tracing::info!(record = "ws_ready", max_turn_bytes = ?max_turn_bytes, "ws_ready");
    book.set_ready();
    out.set_status(Status::Ready { max_turn_bytes });
    let turn_limit = max_turn_bytes.map(|b| b as usize).unwrap_or(TURN_FRAME_SIZE);
    // The renderable set changed while the handshake ran: say so now.
    let mut pending = Effects::default();
    if *vocab != sent_vocab {
        pending.frames.push(ClientFrame::Vocabulary { vocabulary: vocab.clone() });
    }

    loop {
        let deadline = book.next_deadline();
        let mut fx = std::mem::take(&mut pending);
        let end = tokio::select! {
            _ = cancel.cancelled() => { close(&mut ws).await; Some(End::Cancelled) }
            _ = sleep_opt(deadline) => { book.tick(Instant::now(), &mut fx); None }
            cmd = cmds.recv() => match cmd {
                None => { close(&mut ws).await; Some(End::Cancelled) }
                Some(UserCommand::Reconnect) => {
                    out.applied.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    publish(out, book, Vec::new());
                    close(&mut ws).await;
                    Some(End::Requested)
                }
                Some(cmd) => { apply_command(out, cmd, book, vocab, &mut fx); None }
            },
            msg = ws.next() => match read(msg) {
                Read::Frame(ServerFrame::ToolCall { id, turn_id, name, arguments }) => {
                    let result = tools::answer(&name, &arguments, book.is_stopped(&turn_id));
                    tracing::info!(record = "push.tool_call", id = %id, turn_id = %turn_id, name = %name, "tool_call answered");
                    book.on_frame(ServerFrame::ToolCall { id: id.clone(), turn_id: turn_id.clone(), name, arguments }, Instant::now(), &mut fx);
                    fx.frames.push(ClientFrame::ToolResult { id, turn_id, result, images: None });
                    None
                }
                Read::Frame(f) => { book.on_frame(f, Instant::now(), &mut fx); None }
                Read::Skip => None,
                Read::Closed(code, reason) => Some(closed(code, reason, true)),
            }
        };
        if let Some(end) = end {
            if !matches!(end, End::Cancelled) {
                // Requested, lost or refused: the running turns end now.
                let mut fx = Effects::default();
                book.left_ready(Instant::now(), &mut fx);
                publish(out, book, fx.events);
            }
            return end;
        }
        if let Err(e) = flush(out, book, &mut ws, turn_limit, fx).await {
            let mut fx = Effects::default();
            book.left_ready(Instant::now(), &mut fx);
            publish(out, book, fx.events);
            return End::Lost { close_code: None, reason: e, was_ready: true };
        }
    }
}

fn closed(code: Option<u16>, reason: String, was_ready: bool) -> End {
    let shown = code.map(|c| c.to_string()).unwrap_or_else(|| "none".into());
    tracing::info!(record = "ws_close", code = %shown, reason = %reason, "ws_close");
    if code == Some(CLOSE_AUTH) {
        End::Auth
    } else {
        let why = match code {
            Some(c) => format!("socket closed ({c}){}", if reason.is_empty() { String::new() } else { format!(": {reason}") }),
            None => format!("socket dropped{}", if reason.is_empty() { String::new() } else { format!(": {reason}") }),
        };
        End::Lost { close_code: code, reason: why, was_ready }
    }
}

enum Read {
    Frame(ServerFrame),
    Skip,
    Closed(Option<u16>, String),
}

fn read(msg: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>) -> Read {
    match msg {
        None => Read::Closed(None, String::new()),
        Some(Err(e)) => Read::Closed(None, e.to_string()),
        Some(Ok(Message::Close(frame))) => {
            Read::Closed(frame.as_ref().map(|f| u16::from(f.code)), frame.map(|f| f.reason.to_string()).unwrap_or_default())
        }
        Some(Ok(Message::Text(text))) => {
            if text.len() > TEXT_FRAME_SIZE {
                tracing::warn!(record = "frame_oversize", direction = "inbound", bytes = text.len(), "frame dropped unread");
                return Read::Skip;
            }
            match serde_json::from_str::<ServerFrame>(&text) {
                Ok(f) => Read::Frame(f),
                Err(e) => {
                    let head: String = text.chars().take(120).collect();
                    tracing::warn!(record = "frame_malformed", error = %e, head = %head, "frame dropped");
                    Read::Skip
                }
            }
        }
        Some(Ok(Message::Binary(b))) => {
            tracing::warn!(record = "frame_malformed", bytes = b.len(), "binary frame dropped");
            Read::Skip
        }
        Some(Ok(_)) => Read::Skip,
    }
}

async fn send_frame(ws: &mut Ws, frame: &ClientFrame, limit: usize) -> Result<(), String> {
    let mut text = serde_json::to_string(frame).map_err(|e| e.to_string())?;
    if text.len() > limit {
        tracing::warn!(record = "frame_oversize", direction = "outbound", frame = frame.kind(), bytes = text.len(), limit, "frame not sent");
        match frame {
            // tool_call rule 4: a result that does not fit is answered with an error instead.
            ClientFrame::ToolResult { id, turn_id, .. } => {
                let small = ClientFrame::ToolResult { id: id.clone(), turn_id: turn_id.clone(), result: "error: result too large".into(), images: None };
                text = serde_json::to_string(&small).map_err(|e| e.to_string())?;
            }
            ClientFrame::Hello { .. } => return Err("the hello frame is over the text frame size".into()),
            _ => return Ok(()),
        }
    }
    ws.send(Message::text(text)).await.map_err(|e| format!("send failed: {e}"))
}

async fn close(ws: &mut Ws) {
    // An unresponsive peer must not keep a cancelled task (and its socket) alive.
    let closing = ws.close(Some(CloseFrame { code: CloseCode::Normal, reason: "".into() }));
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), closing).await;
}

/// Emit events and update busy (no socket: frames are dropped, the book made none).
fn publish(out: &Outputs, book: &TurnBook, events: Vec<UiEvent>) {
    for e in events {
        out.sink.emit(e);
    }
    let applied = out.applied.load(std::sync::atomic::Ordering::SeqCst);
    out.activity.send_replace(Activity { busy: book.busy(), applied });
}

/// Send the frames, then emit the events and update busy. A turn frame over
/// its limit is not sent and its turn fails at once.
async fn flush(out: &Outputs, book: &mut TurnBook, ws: &mut Ws, turn_limit: usize, fx: Effects) -> Result<(), String> {
    let Effects { mut events, frames } = fx;
    let mut pending: std::collections::VecDeque<ClientFrame> = frames.into();
    let mut result = Ok(());
    while let Some(frame) = pending.pop_front() {
        let limit = if matches!(frame, ClientFrame::Turn { .. }) { turn_limit } else { TEXT_FRAME_SIZE };
        if let ClientFrame::Turn { turn_id, .. } = &frame {
            let size = serde_json::to_string(&frame).map(|s| s.len()).unwrap_or(usize::MAX);
            if size > limit {
                tracing::warn!(record = "frame_oversize", direction = "outbound", frame = "turn", bytes = size, limit, "turn not sent");
                let mut fx = Effects::default();
                book.abort_unsent(turn_id, "The message is too long to send.", Instant::now(), &mut fx);
                events.extend(fx.events);
                pending.extend(fx.frames);
                continue;
            }
        }
        if let Err(e) = send_frame(ws, &frame, limit).await {
            result = Err(e);
            break;
        }
    }
    publish(out, book, events);
    result
}
