//! The push WebSocket on `GET /ws`: one task per connection owns the socket,
//! records what the client sends, and hands parsed frames to a session task
//! (hello handshake, then the demo agent or a scenario script).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::server::Shared;
use crate::{Mode, MAX_FRAME_BYTES};

/// What a session asks the connection task to do with the socket.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// Send one JSON frame as a text message.
    Frame(Value),
    /// Send a text message as is (may be invalid JSON or oversize).
    Raw(String),
    /// Send a close frame with this code, then wait for the client's close.
    Close(u16),
    /// Drop the TCP connection without a close frame.
    Drop,
}

/// The sending side of one connection; cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Out(mpsc::UnboundedSender<Outgoing>);

impl Out {
    /// Queues a JSON frame; `false` when the connection is gone.
    pub(crate) fn frame(&self, frame: Value) -> bool {
        self.0.send(Outgoing::Frame(frame)).is_ok()
    }

    /// Queues a raw text message.
    pub(crate) fn raw(&self, text: String) -> bool {
        self.0.send(Outgoing::Raw(text)).is_ok()
    }

    /// Queues a close with `code`.
    pub(crate) fn close(&self, code: u16) -> bool {
        self.0.send(Outgoing::Close(code)).is_ok()
    }

    /// Queues a TCP drop without a close frame.
    pub(crate) fn drop_connection(&self) -> bool {
        self.0.send(Outgoing::Drop).is_ok()
    }
}

impl yui_demo::push::FrameSink for Out {
    fn send_frame(&self, frame: Value) -> bool {
        self.frame(frame)
    }
}

/// What the session learned from the client's hello.
#[derive(Debug, Clone)]
pub(crate) struct HelloInfo {
    /// `hello.chat_id` as sent (echoed in ready).
    pub(crate) chat_id: Value,
    /// Whether `hello.accepts` is a list of strings containing "error".
    pub(crate) accepts_error: bool,
}

impl HelloInfo {
    fn from_frame(hello: &Value) -> HelloInfo {
        let accepts = hello.get("accepts").and_then(Value::as_array).filter(|a| a.iter().all(Value::is_string));
        HelloInfo {
            chat_id: hello.get("chat_id").cloned().unwrap_or_else(|| json!("")),
            accepts_error: accepts.is_some_and(|a| a.iter().any(|v| v == "error")),
        }
    }

    /// `hello.chat_id` as a string ("" when it was not one).
    pub(crate) fn chat_id_str(&self) -> String {
        self.chat_id.as_str().unwrap_or_default().to_string()
    }
}

/// The `type` of a frame, when it has a string one.
pub(crate) fn frame_type(frame: &Value) -> Option<&str> {
    frame.get("type").and_then(Value::as_str)
}

/// Axum handler for `GET /ws`.
pub(crate) async fn ws_handler(ws: WebSocketUpgrade, State(shared): State<Arc<Shared>>) -> Response {
    ws.max_message_size(64 * 1024 * 1024).max_frame_size(64 * 1024 * 1024).on_upgrade(move |socket| connection(socket, shared))
}

async fn connection(mut socket: WebSocket, shared: Arc<Shared>) {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let out = Out(tx);
    let ready = Arc::new(AtomicBool::new(false));
    let (id, index) = shared.register(out.clone(), ready.clone());
    tracing::info!(event = "ws_open", conn = id, index);
    let (in_tx, in_rx) = mpsc::unbounded_channel::<Value>();
    let session = tokio::spawn(session(shared.clone(), out, in_rx, index));
    let mut closing: Option<tokio::time::Instant> = None;
    loop {
        let close_deadline = closing.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            _ = shared.cancel.cancelled() => {
                let _ = socket.send(close_message(1001)).await;
                break;
            }
            _ = tokio::time::sleep_until(close_deadline), if closing.is_some() => break,
            msg = socket.recv() => match msg {
                None => break,
                Some(Err(e)) => {
                    tracing::info!(event = "ws_error", conn = id, error = %e);
                    break;
                }
                Some(Ok(Message::Text(text))) => inbound(&shared, text.as_str(), &in_tx),
                Some(Ok(Message::Binary(b))) => {
                    tracing::warn!(event = "frame_malformed", conn = id, bytes = b.len(), "binary message ignored");
                }
                Some(Ok(Message::Close(frame))) => {
                    ready.store(false, Ordering::SeqCst);
                    let code = frame.as_ref().map(|f| f.code);
                    tracing::info!(event = "ws_close", conn = id, ?code, by = "client");
                }
                Some(Ok(_)) => {}
            },
            cmd = rx.recv() => {
                let Some(cmd) = cmd else { break };
                if closing.is_some() {
                    continue;
                }
                let sent = match cmd {
                    Outgoing::Frame(frame) => {
                        if frame_type(&frame) == Some("ready") {
                            ready.store(true, Ordering::SeqCst);
                        }
                        tracing::debug!(event = "frame_out", conn = id, r#type = frame_type(&frame).unwrap_or(""));
                        socket.send(Message::Text(frame.to_string().into())).await
                    }
                    Outgoing::Raw(text) => socket.send(Message::Text(text.into())).await,
                    Outgoing::Close(code) => {
                        ready.store(false, Ordering::SeqCst);
                        tracing::info!(event = "ws_close", conn = id, code, by = "mock");
                        closing = Some(tokio::time::Instant::now() + Duration::from_secs(5));
                        socket.send(close_message(code)).await
                    }
                    Outgoing::Drop => {
                        tracing::info!(event = "ws_drop", conn = id);
                        break;
                    }
                };
                if let Err(e) = sent {
                    tracing::info!(event = "ws_send_failed", conn = id, error = %e);
                    break;
                }
            }
        }
    }
    ready.store(false, Ordering::SeqCst);
    shared.unregister(id);
    session.abort();
    tracing::info!(event = "ws_gone", conn = id);
}

fn close_message(code: u16) -> Message {
    Message::Close(Some(CloseFrame { code, reason: "".into() }))
}

/// Size-checks, parses and records one text message from the client, then
/// forwards it to the session.
fn inbound(shared: &Shared, text: &str, to_session: &mpsc::UnboundedSender<Value>) {
    let len = text.len();
    let big_limit = shared.config.max_turn_bytes.map(|m| m as usize).unwrap_or(0).max(MAX_FRAME_BYTES);
    if len > big_limit {
        tracing::warn!(event = "frame_oversize", direction = "in", bytes = len);
        return;
    }
    let frame: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let head: String = text.chars().take(80).collect();
            tracing::warn!(event = "frame_malformed", direction = "in", error = %e, head);
            return;
        }
    };
    if len > MAX_FRAME_BYTES {
        // Only a turn, or a tool_result with images, may pass 256 KiB, and only up to max_turn_bytes.
        let allowed = match frame_type(&frame) {
            Some("turn") => true,
            Some("tool_result") => frame.get("images").and_then(Value::as_array).is_some_and(|a| !a.is_empty()),
            _ => false,
        };
        if !allowed {
            tracing::warn!(event = "frame_oversize", direction = "in", bytes = len);
            return;
        }
    }
    let has_type = frame_type(&frame).is_some();
    tracing::debug!(event = "frame_in", r#type = frame_type(&frame).unwrap_or(""), bytes = len);
    shared.record(frame.clone());
    if has_type {
        let _ = to_session.send(frame);
    } else {
        tracing::warn!(event = "frame_malformed", direction = "in", "frame without a string type");
    }
}

/// The ready frame for a hello.
fn ready_frame(shared: &Shared, hello: &HelloInfo) -> Value {
    let mut ready = json!({ "type": "ready", "chat_id": hello.chat_id });
    if let Some(max) = shared.config.max_turn_bytes {
        ready["max_turn_bytes"] = json!(max);
    }
    ready
}

/// Hello handshake, then the configured mode.
async fn session(shared: Arc<Shared>, out: Out, mut inbox: mpsc::UnboundedReceiver<Value>, index: usize) {
    let hello = loop {
        let Some(frame) = inbox.recv().await else {
            return;
        };
        if frame_type(&frame) == Some("hello") {
            break frame;
        }
        tracing::warn!(event = "frame_before_hello", r#type = frame_type(&frame).unwrap_or(""));
    };
    if let Some(expected) = &shared.config.key {
        if hello.get("key").and_then(Value::as_str) != Some(expected.as_str()) {
            tracing::warn!(event = "ws_auth_failed", "wrong key in hello; closing with 4401");
            out.close(4401);
            return;
        }
    }
    let info = HelloInfo::from_frame(&hello);
    match &shared.config.mode {
        Mode::Demo => {
            out.frame(ready_frame(&shared, &info));
            let session = yui_demo::push::PushSession {
                pace: shared.config.pace,
                accepts_error: info.accepts_error,
                ids: shared.ids.clone(),
                cancel: shared.cancel.clone(),
                quiet_language: yui_demo::QuietLanguage::default(),
            };
            yui_demo::push::run_session(session, out, inbox).await;
        }
        Mode::Scenario(scenario) => {
            if scenario.auto_ready {
                out.frame(ready_frame(&shared, &info));
            }
            let steps = scenario.steps_for(index);
            crate::scenario::run(&shared, steps, &out, &mut inbox, &info).await;
            // The script is over; the connection stays open (frames are still recorded).
        }
    }
}
