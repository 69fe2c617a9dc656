//! The demo's push WebSocket on `GET /ws`: hello (key check, close 4401 on a
//! wrong key), ready, then [`crate::push::run_session`] until either side
//! closes.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::push::{run_session, PushSession};
use crate::server::Shared;

/// Largest text frame either side may send, in bytes (`docs/push-protocol.md`, "Limits").
pub const MAX_FRAME_BYTES: usize = 256 * 1024;

/// The largest turn frame the demo takes, stated in `ready` as
/// `max_turn_bytes`: it also says the demo accepts pictures on a turn.
pub const MAX_TURN_BYTES: usize = 4 * MAX_FRAME_BYTES;

/// Axum handler for `GET /ws`.
pub(crate) async fn ws_handler(ws: WebSocketUpgrade, State(shared): State<Arc<Shared>>) -> Response {
    ws.max_message_size(MAX_TURN_BYTES).on_upgrade(move |socket| connection(socket, shared))
}

fn close(code: u16) -> Message {
    Message::Close(Some(CloseFrame { code, reason: "".into() }))
}

async fn connection(mut socket: WebSocket, shared: Arc<Shared>) {
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Value>();
    let (in_tx, in_rx) = mpsc::unbounded_channel::<Value>();
    let mut in_rx = Some(in_rx);
    let mut in_tx = Some(in_tx);
    let mut session: Option<tokio::task::JoinHandle<()>> = None;
    tracing::info!(event = "ws_open");
    loop {
        tokio::select! {
            _ = shared.cancel.cancelled() => {
                let _ = socket.send(close(1001)).await;
                break;
            }
            msg = socket.recv() => match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                Some(Ok(Message::Text(text))) => {
                    if text.len() > MAX_FRAME_BYTES {
                        tracing::warn!(event = "frame_oversize", bytes = text.len());
                        continue;
                    }
                    let Ok(frame) = serde_json::from_str::<Value>(text.as_str()) else {
                        tracing::warn!(event = "frame_malformed");
                        continue;
                    };
                    if session.is_none() {
                        if frame["type"] != "hello" {
                            continue;
                        }
                        if let Some(key) = &shared.config.key {
                            if frame["key"].as_str() != Some(key.as_str()) {
                                tracing::warn!(event = "ws_auth_failed", "wrong key in hello; closing with 4401");
                                let _ = socket.send(close(4401)).await;
                                break;
                            }
                        }
                        // `accepts` that is not a list of strings reads as absent.
                        let accepts_error = frame["accepts"]
                            .as_array()
                            .filter(|a| a.iter().all(Value::is_string))
                            .is_some_and(|a| a.iter().any(|v| v == "error"));
                        let ready = json!({ "type": "ready", "chat_id": frame.get("chat_id").cloned().unwrap_or(json!("")), "max_turn_bytes": MAX_TURN_BYTES });
                        if socket.send(Message::Text(ready.to_string().into())).await.is_err() {
                            break;
                        }
                        let ctx = PushSession {
                            pace: shared.config.pace,
                            accepts_error,
                            ids: shared.ids.clone(),
                            cancel: shared.cancel.clone(),
                            quiet_language: shared.config.quiet_language.clone(),
                        };
                        let (tx, rx) = (out_tx.clone(), in_rx.take().expect("one session"));
                        session = Some(tokio::spawn(run_session(ctx, tx, rx)));
                    } else if let Some(tx) = &in_tx {
                        let _ = tx.send(frame);
                    }
                }
                Some(Ok(_)) => {}
            },
            Some(frame) = out_rx.recv() => {
                if socket.send(Message::Text(frame.to_string().into())).await.is_err() {
                    break;
                }
            }
        }
    }
    in_tx.take();
    if let Some(session) = session {
        session.abort();
    }
    tracing::info!(event = "ws_gone");
}
