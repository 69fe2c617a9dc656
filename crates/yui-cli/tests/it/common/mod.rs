//! Running yui-cli from a test: its stdout read as one JSON event a line,
//! its stderr echoed, and a signal when stderr says a given line.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;

/// The running client, its events, and the signal for `marker`.
pub struct Spawned {
    /// The process (stdin piped).
    pub child: Child,
    /// Each stdout line, parsed (a line that is not JSON fails the test).
    pub events: mpsc::Receiver<Value>,
    /// Sent each time a stderr line contains the marker.
    pub marked: mpsc::Receiver<()>,
}

/// Spawn `cmd` with piped stdio; `marker` is a stderr text to wait for.
pub fn spawn(mut cmd: Command, marker: &'static str) -> Spawned {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn yui-cli");
    let (tx, events) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON: {line:?}: {e}"));
            if tx.send(v).is_err() {
                break;
            }
        }
    });
    let stderr = child.stderr.take().unwrap();
    let (marked_tx, marked) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("[yui-cli] {line}");
            if line.contains(marker) {
                let _ = marked_tx.send(());
            }
        }
    });
    Spawned { child, events, marked }
}
