//! The sway desktop (and other compositors speaking the i3 IPC): the focused
//! window from `GET_TREE` over the socket named by `$SWAYSOCK`.
//!
//! The i3 IPC frames every message as the magic `i3-ipc`, a u32 payload
//! length and a u32 message type (both in the host's byte order, which is
//! little-endian on every machine sway runs on), then the payload. `GET_TREE`
//! (type 4) answers the layout tree as JSON; the focused window is the node
//! with `"focused": true` among `nodes` and `floating_nodes`. Its app is
//! `app_id` (a native Wayland window) or `window_properties.class` (an
//! XWayland one), its title `name`, and `fullscreen_mode` is non-zero when it
//! is fullscreen (1: on its workspace, 2: global).
//!
//! Each sample opens its own connection (a local socket: cheap), bounded by
//! [`crate::limits::SWAY_IPC_TIMEOUT`]. The IPC tells nothing about input,
//! so idle time is unknown ([`SWAY_LIMITATION`]).

use super::{DesktopFacts, Sample};
use crate::limits::{SWAY_IPC_REPLY_MAX, SWAY_IPC_TIMEOUT};
use serde_json::Value;
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

/// The reason a sway session gives no idle time.
pub const SWAY_LIMITATION: &str = "This compositor tells YUI which window has the focus but not how long the user has been idle; the user counts as present.";

/// The i3 IPC magic string that starts every message.
const MAGIC: &[u8; 6] = b"i3-ipc";
/// The i3 IPC `GET_TREE` message type.
const GET_TREE: u32 = 4;
/// The header: the magic, the payload length and the message type.
const HEADER: usize = MAGIC.len() + 8;

/// The sway (i3 IPC) desktop reader.
#[derive(Debug, Clone)]
pub struct SwayDesktop {
    socket: PathBuf,
}

impl SwayDesktop {
    /// A reader of the IPC socket at `socket`. Nothing connects until the
    /// first call.
    pub fn new(socket: impl Into<PathBuf>) -> Self {
        Self { socket: socket.into() }
    }

    /// A reader of `socket` when something accepts a connection there now;
    /// `None` otherwise (no compositor behind it).
    pub fn connect(socket: impl Into<PathBuf>) -> Option<Self> {
        let socket = socket.into();
        match UnixStream::connect(&socket) {
            Ok(_) => Some(Self { socket }),
            Err(e) => {
                tracing::debug!(socket = %socket.display(), error = %e, "world: the sway IPC socket does not connect");
                None
            }
        }
    }

    /// The IPC socket this reader talks to.
    pub fn socket(&self) -> &Path {
        &self.socket
    }
}

/// Send one message of `kind` and read its reply's payload.
fn request(socket: &Path, kind: u32, payload: &[u8]) -> Result<Vec<u8>, String> {
    let mut stream = UnixStream::connect(socket).map_err(|e| format!("connect: {e}"))?;
    stream.set_read_timeout(Some(SWAY_IPC_TIMEOUT)).map_err(|e| format!("timeout: {e}"))?;
    stream.set_write_timeout(Some(SWAY_IPC_TIMEOUT)).map_err(|e| format!("timeout: {e}"))?;
    let len = u32::try_from(payload.len()).map_err(|_| "payload too long".to_string())?;
    let mut message = Vec::with_capacity(HEADER + payload.len());
    message.extend_from_slice(MAGIC);
    message.extend_from_slice(&len.to_ne_bytes());
    message.extend_from_slice(&kind.to_ne_bytes());
    message.extend_from_slice(payload);
    stream.write_all(&message).map_err(|e| format!("write: {e}"))?;
    let mut header = [0u8; HEADER];
    stream.read_exact(&mut header).map_err(|e| format!("read header: {e}"))?;
    if &header[..MAGIC.len()] != MAGIC {
        return Err("reply without the i3-ipc magic".to_string());
    }
    let word = |at: usize| u32::from_ne_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]]);
    let (len, reply_kind) = (word(MAGIC.len()) as usize, word(MAGIC.len() + 4));
    if reply_kind != kind {
        return Err(format!("reply of type {reply_kind} to a request of type {kind}"));
    }
    if len > SWAY_IPC_REPLY_MAX {
        return Err(format!("reply of {len} bytes (at most {SWAY_IPC_REPLY_MAX})"));
    }
    let mut body = vec![0u8; len];
    stream.read_exact(&mut body).map_err(|e| format!("read payload: {e}"))?;
    Ok(body)
}

/// The focused window in a `GET_TREE` reply, as a sample; `None` when the
/// focus is on no window (an empty workspace) or the tree has no focus.
pub fn focused(tree: &Value) -> Option<Sample> {
    let node = find_focused(tree)?;
    if !matches!(node.get("type").and_then(Value::as_str), Some("con" | "floating_con")) {
        return None;
    }
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
    let props = node.get("window_properties");
    let app = [node.get("app_id"), props.and_then(|p| p.get("class")), props.and_then(|p| p.get("instance"))]
        .into_iter()
        .map(text)
        .find(|s| !s.is_empty())
        .unwrap_or_default();
    let pid = node.get("pid").and_then(Value::as_u64).and_then(|p| u32::try_from(p).ok()).filter(|&p| p != 0);
    let fullscreen = node.get("fullscreen_mode").and_then(Value::as_u64).is_some_and(|m| m != 0);
    Some(Sample { app, title: text(node.get("name")), pid, fullscreen })
}

/// The node with `"focused": true`, depth first through `nodes` and
/// `floating_nodes`.
fn find_focused(node: &Value) -> Option<&Value> {
    if node.get("focused").and_then(Value::as_bool) == Some(true) {
        return Some(node);
    }
    ["nodes", "floating_nodes"]
        .iter()
        .filter_map(|k| node.get(*k).and_then(Value::as_array))
        .flatten()
        .find_map(find_focused)
}

impl DesktopFacts for SwayDesktop {
    fn frontmost(&self) -> Option<Sample> {
        let body = match request(&self.socket, GET_TREE, b"") {
            Ok(b) => b,
            Err(e) => {
                tracing::debug!(socket = %self.socket.display(), error = %e, "world: sway GET_TREE failed");
                return None;
            }
        };
        match serde_json::from_slice::<Value>(&body) {
            Ok(tree) => focused(&tree),
            Err(e) => {
                tracing::debug!(error = %e, "world: sway GET_TREE answered malformed JSON");
                None
            }
        }
    }

    fn idle_ms(&self) -> Option<u64> {
        None
    }

    fn limitation(&self) -> Option<&'static str> {
        Some(SWAY_LIMITATION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_focused_window_deep_in_floating_nodes() {
        let tree = json!({"type": "root", "focused": false, "nodes": [
            {"type": "output", "focused": false, "nodes": [
                {"type": "workspace", "focused": false, "nodes": [
                    {"type": "con", "focused": false, "app_id": "foot", "name": "shell", "pid": 7, "nodes": []}
                ], "floating_nodes": [
                    {"type": "floating_con", "focused": true, "app_id": null, "name": "Game", "pid": 9,
                     "fullscreen_mode": 2, "window_properties": {"class": "Steam", "instance": "steam"}}
                ]}
            ]}
        ]});
        assert_eq!(focused(&tree), Some(Sample { app: "Steam".into(), title: "Game".into(), pid: Some(9), fullscreen: true }));
    }

    #[test]
    fn a_focused_workspace_or_no_focus_is_no_window() {
        assert_eq!(focused(&json!({"type": "workspace", "focused": true, "nodes": []})), None);
        assert_eq!(focused(&json!({"type": "root", "nodes": [{"type": "con", "focused": false}]})), None);
        assert_eq!(focused(&json!([1, 2])), None);
    }

    #[test]
    fn missing_fields_are_empty() {
        let s = focused(&json!({"type": "con", "focused": true, "pid": 0})).unwrap();
        assert_eq!(s, Sample::default());
    }

    #[test]
    fn a_dead_socket_answers_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("none.sock");
        assert!(SwayDesktop::connect(&path).is_none());
        let d = SwayDesktop::new(&path);
        assert_eq!(d.frontmost(), None);
        assert_eq!(d.idle_ms(), None);
        assert_eq!(d.limitation(), Some(SWAY_LIMITATION));
    }
}
