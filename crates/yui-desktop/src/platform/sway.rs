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

use super::{DesktopFacts, RawWindow, Sample};
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

/// The windows shown now in a `GET_TREE` reply, front to back, in layout
/// (logical) pixels: every view with `"visible": true` (so the scratchpad
/// and hidden workspaces stay out), each workspace's floating views (the
/// last listed is on top) before its tiled ones, which do not overlap.
/// Layer-shell surfaces (bars, the pet itself) are not in the tree.
pub(crate) fn shown_windows(tree: &Value) -> Vec<RawWindow> {
    let mut out = Vec::new();
    collect_shown(tree, &mut out);
    out
}

fn collect_shown(node: &Value, out: &mut Vec<RawWindow>) {
    let kids = |k: &str| node.get(k).and_then(Value::as_array).cloned().unwrap_or_default();
    let (tiled, floating) = (kids("nodes"), kids("floating_nodes"));
    if tiled.is_empty() && floating.is_empty() {
        if let Some(w) = view(node) {
            out.push(w);
        }
        return;
    }
    for n in floating.iter().rev() {
        collect_shown(n, out);
    }
    for n in &tiled {
        collect_shown(n, out);
    }
}

/// A visible view node as a raw window; `None` for anything else.
fn view(node: &Value) -> Option<RawWindow> {
    if !matches!(node.get("type").and_then(Value::as_str), Some("con" | "floating_con")) || node.get("visible").and_then(Value::as_bool) != Some(true) {
        return None;
    }
    let sample = {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
        let props = node.get("window_properties");
        let app = [node.get("app_id"), props.and_then(|p| p.get("class"))].into_iter().map(text).find(|s| !s.is_empty()).unwrap_or_default();
        (app, text(node.get("name")))
    };
    let rect = node.get("rect")?;
    let int = |k: &str| rect.get(k).and_then(Value::as_i64).and_then(|v| i32::try_from(v).ok());
    let size = |k: &str| rect.get(k).and_then(Value::as_u64).and_then(|v| u32::try_from(v).ok());
    Some(RawWindow {
        id: node.get("id").and_then(Value::as_u64).and_then(|v| u32::try_from(v).ok()).unwrap_or(0),
        pid: node.get("pid").and_then(Value::as_u64).and_then(|p| u32::try_from(p).ok()).filter(|&p| p != 0),
        app: sample.0,
        title: sample.1,
        x: int("x")?,
        y: int("y")?,
        width: size("width")?,
        height: size("height")?,
        minimized: false,
    })
}

/// The node with `"focused": true`, depth first through `nodes` and
/// `floating_nodes`.
fn find_focused(node: &Value) -> Option<&Value> {
    if node.get("focused").and_then(Value::as_bool) == Some(true) {
        return Some(node);
    }
    ["nodes", "floating_nodes"].iter().filter_map(|k| node.get(*k).and_then(Value::as_array)).flatten().find_map(find_focused)
}

impl SwayDesktop {
    /// The layout tree now; `Err` says why not.
    fn tree(&self) -> Result<Value, String> {
        let body = request(&self.socket, GET_TREE, b"").map_err(|e| format!("sway GET_TREE failed: {e}"))?;
        serde_json::from_slice::<Value>(&body).map_err(|e| format!("sway GET_TREE answered malformed JSON: {e}"))
    }

    /// The windows shown now, front to back ([`shown_windows`]).
    pub(crate) fn windows(&self) -> Result<Vec<RawWindow>, String> {
        Ok(shown_windows(&self.tree()?))
    }
}

impl DesktopFacts for SwayDesktop {
    fn frontmost(&self) -> Option<Sample> {
        match self.tree() {
            Ok(tree) => focused(&tree),
            Err(e) => {
                tracing::debug!(socket = %self.socket.display(), error = %e, "world: no sway focus");
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
    fn shown_windows_front_to_back_without_hidden_ones() {
        let con = |id: u64, name: &str, x: i64, visible: bool| {
            json!({"id": id, "type": "con", "name": name, "app_id": "yui-test", "pid": 40 + id, "visible": visible,
                   "rect": {"x": x, "y": 300, "width": 400, "height": 200}, "nodes": [], "floating_nodes": []})
        };
        let tree = json!({"type": "root", "nodes": [
            {"type": "output", "name": "__i3", "nodes": [{"type": "workspace", "nodes": [con(1, "scratch", 0, false)]}]},
            {"type": "output", "name": "HEADLESS-1", "nodes": [
                {"type": "workspace", "nodes": [con(2, "Tiled", 0, true)], "floating_nodes": [
                    {"id": 3, "type": "floating_con", "name": "Below", "app_id": "yui-test", "visible": true, "rect": {"x": 100, "y": 50, "width": 300, "height": 100}},
                    {"id": 4, "type": "floating_con", "name": "Above", "window_properties": {"class": "XTerm"}, "visible": true, "rect": {"x": -20, "y": 60, "width": 300, "height": 100}}
                ]},
                {"type": "workspace", "nodes": [con(5, "Hidden", 0, false)]}
            ]}
        ]});
        let shown = shown_windows(&tree);
        let titles: Vec<&str> = shown.iter().map(|w| w.title.as_str()).collect();
        assert_eq!(titles, ["Above", "Below", "Tiled"]);
        assert_eq!((shown[0].app.as_str(), shown[0].x, shown[0].y, shown[0].width, shown[0].height), ("XTerm", -20, 60, 300, 100));
        assert_eq!((shown[2].id, shown[2].pid), (2, Some(42)));
        assert!(shown_windows(&json!({"type": "con", "visible": true, "rect": {"x": "a"}})).is_empty(), "a bad rect is no window");
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
        assert!(d.windows().unwrap_err().contains("GET_TREE"));
    }
}
