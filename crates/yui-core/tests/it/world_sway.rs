//! The sway (i3 IPC) desktop reader against a fake compositor: a unix
//! socket in a temp dir that answers each `GET_TREE` with a recorded tree
//! (or with garbage, or not at all).
#![cfg(all(target_os = "linux", not(target_env = "ohos")))]

use std::io::{Read, Write};
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use yui_core::world::sway::{SwayDesktop, SWAY_LIMITATION};
use yui_core::world::{DesktopFacts, Sample};

/// A `GET_TREE` reply shaped like sway's: root, the `__i3` scratchpad
/// output, a real output with two workspaces, a split container holding
/// tiled windows, and a floating XWayland window. `{FOCUS_*}` mark where
/// the focus goes.
const TREE: &str = r#"{
  "id": 1, "type": "root", "name": "root", "focused": false, "nodes": [
    {"id": 2147483647, "type": "output", "name": "__i3", "focused": false, "nodes": [
      {"id": 2147483646, "type": "workspace", "name": "__i3_scratch", "focused": false, "nodes": [], "floating_nodes": []}
    ], "floating_nodes": []},
    {"id": 3, "type": "output", "name": "eDP-1", "focused": false, "nodes": [
      {"id": 4, "type": "workspace", "name": "1", "focused": false, "nodes": [
        {"id": 5, "type": "con", "name": null, "layout": "splitv", "focused": false, "nodes": [
          {"id": 6, "type": "con", "name": "~/src — fish", "app_id": "foot", "pid": 4242,
           "fullscreen_mode": 0, "focused": false, "shell": "xdg_shell", "nodes": [], "floating_nodes": []},
          {"id": 7, "type": "con", "name": "Big film", "app_id": "mpv", "pid": 4343,
           "fullscreen_mode": 1, "focused": {FOCUS_NATIVE}, "shell": "xdg_shell", "nodes": [], "floating_nodes": []}
        ], "floating_nodes": []}
      ], "floating_nodes": [
        {"id": 8, "type": "floating_con", "name": "Spreadsheet — LibreOffice Calc", "app_id": null, "pid": 5151,
         "fullscreen_mode": 0, "focused": {FOCUS_X}, "shell": "xwayland",
         "window_properties": {"class": "libreoffice-calc", "instance": "libreoffice", "title": "Spreadsheet"},
         "nodes": [], "floating_nodes": []}
      ]},
      {"id": 9, "type": "workspace", "name": "2", "focused": {FOCUS_WS}, "nodes": [], "floating_nodes": []}
    ], "floating_nodes": []}
  ]
}"#;

fn tree(focus: &str) -> Vec<u8> {
    let pick = |k: &str| if k == focus { "true" } else { "false" };
    TREE.replace("{FOCUS_NATIVE}", pick("native")).replace("{FOCUS_X}", pick("x")).replace("{FOCUS_WS}", pick("ws")).into_bytes()
}

/// How the fake compositor answers.
#[derive(Clone)]
enum Answer {
    /// A well-formed reply of this type carrying this payload.
    Reply(u32, Vec<u8>),
    /// These bytes as they are.
    Raw(Vec<u8>),
    /// Read the request and never answer (keep the connection open).
    Silent,
}

fn framed(kind: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = b"i3-ipc".to_vec();
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&kind.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// A fake compositor serving `answer` to every connection on a socket in a
/// fresh temp dir; the requests it read (type, payload) arrive on the
/// receiver.
fn serve(answer: Answer) -> (tempfile::TempDir, PathBuf, mpsc::Receiver<(u32, Vec<u8>)>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sway-ipc.sock");
    let listener = UnixListener::bind(&path).unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let answer = answer.clone();
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut header = [0u8; 14];
                if stream.read_exact(&mut header).is_err() {
                    return; // a connect-only probe
                }
                assert_eq!(&header[..6], b"i3-ipc", "request magic");
                let len = u32::from_le_bytes(header[6..10].try_into().unwrap()) as usize;
                let kind = u32::from_le_bytes(header[10..14].try_into().unwrap());
                let mut payload = vec![0u8; len];
                stream.read_exact(&mut payload).unwrap();
                let _ = tx.send((kind, payload));
                match answer {
                    Answer::Reply(k, body) => drop(stream.write_all(&framed(k, &body))),
                    Answer::Raw(bytes) => drop(stream.write_all(&bytes)),
                    Answer::Silent => std::thread::sleep(Duration::from_secs(5)),
                }
            });
        }
    });
    (dir, path, rx)
}

#[test]
fn the_focused_xwayland_window() {
    let (_dir, path, rx) = serve(Answer::Reply(4, tree("x")));
    let desktop = SwayDesktop::connect(&path).expect("the fake compositor accepts");
    let sample = desktop.frontmost();
    assert_eq!(sample, Some(Sample { app: "libreoffice-calc".into(), title: "Spreadsheet — LibreOffice Calc".into(), pid: Some(5151), fullscreen: false }));
    let (kind, payload) = rx.recv_timeout(Duration::from_secs(1)).unwrap();
    assert_eq!((kind, payload.len()), (4, 0), "GET_TREE with an empty payload");
    assert_eq!(desktop.idle_ms(), None, "sway does not tell idle time");
    assert_eq!(desktop.limitation(), Some(SWAY_LIMITATION));
}

#[test]
fn the_focused_native_window_fullscreen() {
    let (_dir, path, _rx) = serve(Answer::Reply(4, tree("native")));
    let desktop = SwayDesktop::new(&path);
    assert_eq!(desktop.frontmost(), Some(Sample { app: "mpv".into(), title: "Big film".into(), pid: Some(4343), fullscreen: true }));
    // Each call asks again.
    assert_eq!(desktop.frontmost().map(|s| s.app), Some("mpv".into()));
}

#[test]
fn a_focused_empty_workspace_is_no_window() {
    let (_dir, path, _rx) = serve(Answer::Reply(4, tree("ws")));
    assert_eq!(SwayDesktop::new(&path).frontmost(), None);
}

#[test]
fn malformed_replies_answer_none() {
    for answer in [
        Answer::Reply(4, b"{\"type\": \"root\", \"nodes\": [".to_vec()),
        Answer::Reply(4, b"not json".to_vec()),
        Answer::Reply(3, tree("x")),                                       // a reply of another type
        Answer::Raw(b"i4-ipc\x02\x00\x00\x00\x04\x00\x00\x00{}".to_vec()), // bad magic
        Answer::Raw(framed(4, &tree("x"))[..40].to_vec()),                 // cut short
        Answer::Raw(b"i3-ipc\xff\xff\xff\xff\x04\x00\x00\x00".to_vec()),   // claims 4 GiB
        Answer::Raw(Vec::new()),                                           // closes at once
    ] {
        let (_dir, path, _rx) = serve(answer);
        let (seen, log) = logged(|| SwayDesktop::new(&path).frontmost());
        assert_eq!(seen, None);
        assert!(log.contains("sway GET_TREE"), "a log line says why: {log:?}");
    }
}

/// A writer into a shared buffer, for the log lines a call writes.
#[derive(Clone, Default)]
struct Buf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `f`'s answer and the log lines (debug and up) it wrote on this thread.
fn logged<T>(f: impl FnOnce() -> T) -> (T, String) {
    let buf = Buf::default();
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt().with_max_level(tracing::Level::DEBUG).with_ansi(false).with_writer(move || writer.clone()).finish();
    let out = tracing::subscriber::with_default(subscriber, f);
    let text = String::from_utf8_lossy(&buf.0.lock().unwrap()).into_owned();
    (out, text)
}

#[test]
fn a_silent_compositor_times_out() {
    let (_dir, path, _rx) = serve(Answer::Silent);
    let start = Instant::now();
    assert_eq!(SwayDesktop::new(&path).frontmost(), None);
    let took = start.elapsed();
    assert!(took >= yui_core::limits::SWAY_IPC_TIMEOUT, "waited the timeout: {took:?}");
    assert!(took < Duration::from_secs(3), "gave up after the timeout: {took:?}");
}

#[test]
fn a_dead_socket_answers_none() {
    let (dir, path, _rx) = serve(Answer::Reply(4, tree("x")));
    let gone = dir.path().join("gone.sock");
    assert!(SwayDesktop::connect(&gone).is_none(), "nothing listens there");
    let desktop = SwayDesktop::new(&gone);
    let (seen, log) = logged(|| desktop.frontmost());
    assert_eq!(seen, None);
    assert!(log.contains("connect"), "a log line says why: {log:?}");
    // A socket file left behind by a compositor that exited.
    drop(std::os::unix::net::UnixListener::bind(&gone).unwrap());
    assert!(SwayDesktop::connect(&gone).is_none(), "a stale socket file does not connect");
    assert_eq!(desktop.frontmost(), None);
    assert!(SwayDesktop::connect(&path).is_some());
}

#[test]
fn wayland_picks_sway_only_when_its_socket_connects() {
    let (dir, path, _rx) = serve(Answer::Reply(4, tree("native")));
    let sway = yui_core::world::wayland_with(path.to_str(), None);
    assert_eq!(sway.limitation(), Some(SWAY_LIMITATION));
    assert_eq!(sway.frontmost().map(|s| s.app), Some("mpv".into()));
    for sock in [None, Some(""), dir.path().join("gone.sock").to_str()] {
        let none = yui_core::world::wayland_with(sock, None);
        assert_eq!(none.limitation(), Some(yui_core::world::WAYLAND_LIMITATION), "{sock:?}");
        assert_eq!(none.frontmost(), None);
    }
}
