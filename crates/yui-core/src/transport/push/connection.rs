//! One window's push socket: connect, hello, ready, frames, and the one loop
//! that owns reconnect and backoff. Frames become [`Inbound`] events and
//! [`Outbound`] messages become frames; what they mean is the engine's.

use super::frames::{ClientFrame, ServerFrame, WireVocabulary};
use crate::error::ErrorCode;
use crate::event::Status;
use crate::limits::{Timeouts, FRAME_SEND_WAIT, INBOUND_MESSAGE_CAP, RECONNECT_DELAY_GROWTH, TEXT_FRAME_SIZE, TURN_FRAME_SIZE};
use crate::model::Vocabulary;
use crate::transport::{Inbound, Link, Outbound};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Close code a backend uses for a wrong key.
pub const CLOSE_AUTH: u16 = 4401;

/// What one push connection needs.
pub struct PushConfig {
    /// `ws(s)://…/ws`.
    pub url: url::Url,
    /// The chat API key.
    pub key: crate::settings::Secret,
    /// The installation's chat id.
    pub chat_id: String,
    /// What the client renders at the start; `Outbound::Vocabulary` changes it.
    pub vocabulary: Vocabulary,
    /// The function tools declared in `hello.tools`.
    pub tools: Vec<Value>,
    /// The waits.
    pub timeouts: Timeouts,
}

impl std::fmt::Debug for PushConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushConfig").field("url", &self.url).field("key", &self.key).field("chat_id", &self.chat_id).finish_non_exhaustive()
    }
}

enum End {
    Cancelled,
    /// The user asked for a reconnect: go again at once.
    Requested,
    Auth,
    Lost {
        close_code: Option<u16>,
        reason: String,
        was_ready: bool,
    },
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

/// The transport's own state across connections.
struct Conn {
    cfg: PushConfig,
    link: Link,
    /// What the client renders now.
    vocab: Vocabulary,
    /// The last status reported, so a repeat is not reported again.
    status: Option<Status>,
}

impl Conn {
    fn status(&mut self, s: Status) {
        if self.status.as_ref() != Some(&s) {
            self.status = Some(s.clone());
            self.link.report(Inbound::Status(s));
        }
    }

    /// An outbound message while the socket is not ready: a turn fails at
    /// once, a tool result is logged and dropped, the vocabulary is kept for
    /// the next hello, a reconnect request is answered by the caller.
    fn offline(&mut self, out: Outbound) {
        match out {
            Outbound::Turn(t) => {
                self.link.report(Inbound::Rejected { turn_id: t.turn_id, code: ErrorCode::Network, reason: "Not connected to the backend.".into() })
            }
            Outbound::ToolResult(r) => {
                tracing::warn!(record = "tool_result_unsent", id = %r.id, turn_id = %r.turn_id, "the socket is not ready; the result is dropped")
            }
            Outbound::Vocabulary(v) => self.vocab = v,
            _ => {}
        }
    }
}

/// Run the window's socket until the link is cancelled or its outbound
/// channel closes. This is the one function that owns reconnect and backoff.
pub async fn run(cfg: PushConfig, link: Link) {
    let mut backoff = Backoff::new(cfg.timeouts.reconnect_first, cfg.timeouts.reconnect_cap);
    let vocab = cfg.vocabulary.clone();
    let mut conn = Conn { cfg, link, vocab, status: None };
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        conn.status(Status::Connecting { attempt });
        let end = connect_once(&mut conn).await;
        let wait = match end {
            End::Cancelled => break,
            End::Requested => {
                backoff.reset();
                attempt = 0;
                continue;
            }
            End::Auth => {
                conn.status(Status::AuthFailed);
                conn.link.report(Inbound::Notice {
                    code: ErrorCode::Auth,
                    message: "The backend refused the key (4401). Check the key in settings.".into(),
                    phrase: Some(crate::event::Phrase::new("notice-key-refused-push")),
                });
                None
            }
            End::Lost { close_code, reason, was_ready } => {
                if was_ready {
                    backoff.reset();
                    attempt = 0;
                }
                let delay = backoff.next_delay();
                tracing::info!(record = "ws_reconnect", delay_ms = delay.as_millis() as u64, reason = %reason, "ws_reconnect");
                conn.status(Status::Reconnecting { delay_ms: delay.as_millis() as u64, close_code, reason });
                Some(delay)
            }
        };
        // Wait out the delay (or, after a refused key, until the user asks),
        // still answering what the engine sends.
        let deadline = wait.map(|d| Instant::now() + d);
        loop {
            tokio::select! {
                _ = conn.link.cancel.cancelled() => { conn.status(Status::Closed); return; }
                _ = sleep_opt(deadline) => break,
                out = conn.link.outbound.recv() => match out {
                    None => { conn.status(Status::Closed); return; }
                    Some(Outbound::Reconnect) => { backoff.reset(); attempt = 0; break; }
                    Some(out) => conn.offline(out),
                }
            }
        }
    }
    conn.status(Status::Closed);
}

async fn sleep_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

async fn connect_once(conn: &mut Conn) -> End {
    let lost = |reason: String| End::Lost { close_code: None, reason, was_ready: false };
    let url = conn.cfg.url.clone();
    let ws_config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(INBOUND_MESSAGE_CAP))
        .max_frame_size(Some(INBOUND_MESSAGE_CAP));
    let connect = tokio::time::timeout(conn.cfg.timeouts.hello_reply_wait, tokio_tungstenite::connect_async_with_config(url.as_str(), Some(ws_config), true));
    tokio::pin!(connect);
    let mut ws: Ws = loop {
        tokio::select! {
            _ = conn.link.cancel.cancelled() => return End::Cancelled,
            out = conn.link.outbound.recv() => match out {
                None => return End::Cancelled,
                Some(Outbound::Reconnect) => return End::Requested,
                Some(out) => conn.offline(out),
            },
            r = &mut connect => match r {
                Ok(Ok((ws, _))) => break ws,
                Ok(Err(e)) => {
                    tracing::warn!(record = "ws_connect_failed", url = %url, error = %e, "connect failed");
                    return lost(format!("cannot reach {url}: {e}"));
                }
                Err(_) => return lost(format!("connecting to {url} timed out")),
            }
        }
    };
    tracing::info!(record = "ws_open", url = %url, "ws_open");
    let sent_vocab = conn.vocab.clone();
    let hello = ClientFrame::Hello {
        key: conn.cfg.key.expose().to_string(),
        chat_id: conn.cfg.chat_id.clone(),
        accepts: vec!["error".into()],
        vocabulary: WireVocabulary::from(&sent_vocab),
        tools: (!conn.cfg.tools.is_empty()).then(|| conn.cfg.tools.clone()),
    };
    if let Err(e) = send_frame(&mut ws, &hello, TEXT_FRAME_SIZE).await {
        return lost(e);
    }
    conn.status(Status::Handshaking);

    let hello_deadline = Instant::now() + conn.cfg.timeouts.hello_reply_wait;
    let max_turn_bytes = loop {
        tokio::select! {
            _ = conn.link.cancel.cancelled() => { close(&mut ws).await; return End::Cancelled; }
            _ = tokio::time::sleep_until(hello_deadline) => {
                tracing::warn!(record = "ws_close", code = 1000, reason = "no ready within the hello wait", "ws_close");
                close(&mut ws).await;
                return lost("no ready within the hello wait".into());
            }
            out = conn.link.outbound.recv() => match out {
                None => return End::Cancelled,
                Some(Outbound::Reconnect) => { close(&mut ws).await; return End::Requested; }
                Some(out) => conn.offline(out),
            },
            msg = ws.next() => match read(msg) {
                Read::Frame(ServerFrame::Ready { max_turn_bytes, .. }) => break max_turn_bytes,
                Read::Frame(_) | Read::Skip => {}
                Read::Closed(code, reason) => return closed(code, reason, false),
            }
        }
    };
    tracing::info!(record = "ws_ready", max_turn_bytes = ?max_turn_bytes, "ws_ready");
    conn.status(Status::Ready { max_turn_bytes });
    let turn_limit = max_turn_bytes.map(|b| b as usize).unwrap_or(TURN_FRAME_SIZE);
    // The renderable set changed while the handshake ran: say so now.
    if conn.vocab != sent_vocab {
        let frame = ClientFrame::Vocabulary { vocabulary: WireVocabulary::from(&conn.vocab) };
        if let Err(e) = send_frame(&mut ws, &frame, TEXT_FRAME_SIZE).await {
            return End::Lost { close_code: None, reason: e, was_ready: true };
        }
    }

    let cancel = conn.link.cancel.clone();
    loop {
        let step = tokio::select! {
            _ = cancel.cancelled() => { close(&mut ws).await; return End::Cancelled; }
            out = conn.link.outbound.recv() => match out {
                None => { close(&mut ws).await; return End::Cancelled; }
                Some(Outbound::Reconnect) => { close(&mut ws).await; return End::Requested; }
                // A send watches cancellation too: a peer that stopped reading
                // must not hold the task.
                Some(out) => tokio::select! {
                    _ = cancel.cancelled() => return End::Cancelled,
                    sent = send_outbound(conn, &mut ws, out, turn_limit, max_turn_bytes.is_some()) => sent,
                },
            },
            msg = ws.next() => match read(msg) {
                Read::Frame(f) => { super::inbound::report(&conn.link, f); Ok(()) }
                Read::Skip => Ok(()),
                Read::Closed(code, reason) => return closed(code, reason, true),
            }
        };
        if let Err(e) = step {
            return End::Lost { close_code: None, reason: e, was_ready: true };
        }
    }
}

/// The bytes `,"images":[]` adds to a frame beside its data URLs.
const IMAGES_FIELD: usize = r#","images":[]"#.len();

/// The room `limit` leaves for data URLs beside `frame` (serialized without images).
fn image_room(frame: &ClientFrame, limit: usize) -> usize {
    let size = serde_json::to_string(frame).map(|s| s.len()).unwrap_or(usize::MAX);
    limit.saturating_sub(size.saturating_add(IMAGES_FIELD))
}

/// Send one outbound message on a ready socket. A turn over its limit is
/// not sent; its turn is rejected. Pictures ride only to a backend that
/// stated `max_turn_bytes` (`images_ok`), fitted into what the frame leaves.
async fn send_outbound(conn: &mut Conn, ws: &mut Ws, out: Outbound, turn_limit: usize, images_ok: bool) -> Result<(), String> {
    let frame = match out {
        Outbound::Turn(t) => {
            let mut frame = ClientFrame::Turn { turn_id: t.turn_id.clone(), client_context: t.block, text: t.text, images: None };
            if !t.images.is_empty() {
                if !images_ok {
                    tracing::info!(record = "images_not_sent", turn_id = %t.turn_id, count = t.images.len(), "the backend stated no max_turn_bytes: the turn goes without its pictures");
                } else {
                    match crate::transport::fit_pictures(t.images, image_room(&frame, turn_limit)).await {
                        Ok(urls) => {
                            conn.link.report(Inbound::ImagesSent { turn_id: t.turn_id.clone(), images: urls.clone() });
                            if let ClientFrame::Turn { images, .. } = &mut frame {
                                *images = Some(urls);
                            }
                        }
                        Err(e) => {
                            tracing::warn!(record = "images_not_sent", turn_id = %t.turn_id, error = %e, "the pictures do not fit the turn frame: it goes without them")
                        }
                    }
                }
            }
            let size = serde_json::to_string(&frame).map(|s| s.len()).unwrap_or(usize::MAX);
            if size > turn_limit {
                tracing::warn!(record = "frame_oversize", direction = "outbound", frame = "turn", bytes = size, limit = turn_limit, "turn not sent");
                conn.link.report(Inbound::Rejected { turn_id: t.turn_id, code: ErrorCode::FrameOversize, reason: "The message is too long to send.".into() });
                return Ok(());
            }
            return send_frame(ws, &frame, turn_limit).await;
        }
        Outbound::Stop { turn_ids } => ClientFrame::Stop { turn_ids },
        Outbound::ToolResult(r) => {
            let mut frame = ClientFrame::ToolResult { id: r.id, turn_id: r.turn_id, result: r.result, images: None };
            if r.images.is_empty() {
                return send_frame(ws, &frame, TEXT_FRAME_SIZE).await;
            }
            // The fitter gets what the frame leaves; nothing fits: `error: result too large`, no images.
            match crate::transport::fit_pictures(r.images, image_room(&frame, turn_limit)).await {
                Ok(urls) => {
                    if let ClientFrame::ToolResult { images, .. } = &mut frame {
                        *images = Some(urls);
                    }
                }
                Err(_) => {
                    if let ClientFrame::ToolResult { result, .. } = &mut frame {
                        *result = crate::contract::ToolError::ResultTooLarge.to_string();
                    }
                }
            }
            return send_frame(ws, &frame, turn_limit).await;
        }
        Outbound::Playback { turn_id } => ClientFrame::Playback { turn_id, ended: "failed".into() },
        Outbound::Reset => ClientFrame::Reset,
        Outbound::Vocabulary(v) => {
            conn.vocab = v;
            ClientFrame::Vocabulary { vocabulary: WireVocabulary::from(&conn.vocab) }
        }
        // Push keeps a turn whose wait passed outstanding, carries no card
        // and reconnects in the caller.
        Outbound::Abandon { .. } | Outbound::Greeting { .. } | Outbound::Reconnect | Outbound::Side(_) => return Ok(()),
    };
    send_frame(ws, &frame, TEXT_FRAME_SIZE).await
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
        Some(Ok(Message::Close(frame))) => Read::Closed(frame.as_ref().map(|f| u16::from(f.code)), frame.map(|f| f.reason.to_string()).unwrap_or_default()),
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
    match tokio::time::timeout(FRAME_SEND_WAIT, ws.send(Message::text(text))).await {
        Ok(sent) => sent.map_err(|e| format!("send failed: {e}")),
        Err(_) => Err(format!("a frame could not leave within {} s: the backend stopped reading", FRAME_SEND_WAIT.as_secs())),
    }
}

async fn close(ws: &mut Ws) {
    // An unresponsive peer must not keep a cancelled task (and its socket) alive.
    let closing = ws.close(Some(CloseFrame { code: CloseCode::Normal, reason: "".into() }));
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), closing).await;
}
