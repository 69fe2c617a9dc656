//! Scripted push conversations with fault injection.
//!
//! A scenario is JSON:
//!
//! ```json
//! { "name": "one turn", "auto_ready": true,
//!   "steps": [
//!     {"expect": "turn", "timeout_ms": 5000, "match": {"text": "hi"}},
//!     {"send": {"type": "render", "turn_id": "$turn_id", "source": "mock",
//!               "segments": [{"cues": [], "speech": "All green."}]}},
//!     {"sleep_ms": 20},
//!     {"send": {"type": "turn_end", "turn_id": "$turn_id"}},
//!     {"send_raw": "{not json"},
//!     {"send_oversize": "render"},
//!     {"close": 1011},
//!     {"drop": true}
//!   ] }
//! ```
//!
//! The script of a connection starts once the client's hello passed the key
//! check (the hello itself is consumed by the handshake). With `auto_ready`
//! (default `true`) the mock sends ready first; with `false` the script must
//! `send` a ready itself, or never does (a hello-timeout test).
//!
//! Each step is one object with exactly one action key (an optional
//! `"comment"` key is ignored, as is a top-level `"comment"`):
//!
//! | step | effect |
//! |---|---|
//! | `{"expect": T}` | Reads client frames until one of type `T`; frames of other types are skipped (all are recorded anyway). `"timeout_ms"` (default 10000): on timeout a failure is recorded and the script ends. `"match": {field: value}`: each top-level field must equal the value (after `$var` substitution); a mismatch is recorded as a failure and the script goes on. |
//! | `{"send": FRAME}` | Sends the JSON frame after `$var` substitution. |
//! | `{"send_raw": TEXT}` | Sends TEXT as a text message as is (after `$var` substitution), e.g. invalid JSON. |
//! | `{"send_oversize": T}` | Sends a frame of type `T` (with `$turn_id` when known) padded past 256 KiB. |
//! | `{"sleep_ms": N}` | Waits N ms (exact; not scaled by pace). |
//! | `{"close": CODE}` | Closes the socket with CODE; the script ends. |
//! | `{"drop": true}` | Drops the TCP connection without a close frame; the script ends. |
//!
//! Variables, substituted in every string inside `send`, `send_raw` and
//! `match` values: `$turn_id` is the turn_id of the last `turn` frame the
//! script has read (expect steps read frames in order); `$chat_id` is
//! hello's chat_id; `$call_id` is the id of the last `tool_call` the script
//! sent. A variable that is not known yet stays as written.
//!
//! Connections: with `"steps"`, every connection runs the same steps from
//! the start. With `"connections": [[steps…], [steps…]]` instead, the n-th
//! accepted connection runs the n-th list, and connections past the end run
//! the last one. A scenario may not carry both. When a script ends the
//! connection stays open until the client (or the test) closes it.
//!
//! `"http": [reply…]` and `"http_default": reply` script the SSE endpoints
//! (see [`crate::script`]); they are independent of the push steps.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context as _};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;

use crate::push::{frame_type, HelloInfo, Out};
use crate::script::HttpScript;
use crate::server::Shared;
use crate::MAX_FRAME_BYTES;

/// Default wait of an `expect` step.
pub const DEFAULT_EXPECT_TIMEOUT_MS: u64 = 10_000;

/// A scripted push conversation (see the module docs for the JSON format).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name for logs and failure messages.
    #[serde(default)]
    pub name: String,
    /// Free text for the reader of the file; ignored.
    #[serde(default)]
    pub comment: String,
    /// Send ready automatically after a good hello (default `true`).
    #[serde(default = "default_true")]
    pub auto_ready: bool,
    /// The script every connection runs (when `connections` is empty).
    #[serde(default)]
    pub steps: Vec<Step>,
    /// Per-connection scripts: the n-th connection runs the n-th list,
    /// connections past the end run the last one.
    #[serde(default)]
    pub connections: Vec<Vec<Step>>,
    /// Scripted answers of the SSE endpoints: the n-th HTTP request gets the
    /// n-th (see [`crate::script`]).
    #[serde(default)]
    pub http: Vec<HttpScript>,
    /// The answer to requests past the end of `http` (default: the last
    /// entry of `http` again).
    #[serde(default)]
    pub http_default: Option<HttpScript>,
}

fn default_true() -> bool {
    true
}

impl Default for Scenario {
    /// No steps, auto ready (the same defaults as the JSON form).
    fn default() -> Self {
        Scenario {
            name: String::new(),
            comment: String::new(),
            auto_ready: true,
            steps: Vec::new(),
            connections: Vec::new(),
            http: Vec::new(),
            http_default: None,
        }
    }
}

impl Scenario {
    /// A scenario whose every connection runs `steps`, with auto ready.
    pub fn new(name: impl Into<String>, steps: Vec<Step>) -> Scenario {
        Scenario { name: name.into(), auto_ready: true, steps, ..Scenario::default() }
    }

    /// Parses and validates a scenario from JSON text.
    pub fn from_json(s: &str) -> anyhow::Result<Scenario> {
        let scenario: Scenario = serde_json::from_str(s).context("parsing scenario JSON")?;
        scenario.validate()?;
        Ok(scenario)
    }

    /// Reads, parses and validates a scenario file.
    pub fn load(path: &Path) -> anyhow::Result<Scenario> {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Scenario::from_json(&text).with_context(|| format!("in {}", path.display()))
    }

    /// The folder of the scenarios shipped with this crate (`scenarios/`).
    pub fn shipped_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
    }

    /// Loads a shipped scenario by file stem, e.g. `Scenario::shipped("one_turn")`.
    pub fn shipped(name: &str) -> anyhow::Result<Scenario> {
        Scenario::load(&Scenario::shipped_dir().join(format!("{name}.json")))
    }

    /// Checks the scenario is one clean representation.
    pub fn validate(&self) -> anyhow::Result<()> {
        if !self.steps.is_empty() && !self.connections.is_empty() {
            bail!("a scenario has either \"steps\" or \"connections\", not both");
        }
        Ok(())
    }

    /// The script the connection with this 0-based index runs.
    pub fn steps_for(&self, index: usize) -> &[Step] {
        match self.connections.len() {
            0 => &self.steps,
            n => &self.connections[index.min(n - 1)],
        }
    }
}

/// One scenario step (see the module docs for the JSON shape of each).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Value")]
pub enum Step {
    /// Wait for the next client frame of `frame_type`.
    Expect {
        /// The frame type to wait for.
        frame_type: String,
        /// How long to wait; `None` = [`DEFAULT_EXPECT_TIMEOUT_MS`].
        timeout_ms: Option<u64>,
        /// Top-level fields the frame must carry with these values.
        matches: Map<String, Value>,
    },
    /// Send a JSON frame (after variable substitution).
    Send(Value),
    /// Send a raw text message (after variable substitution).
    SendRaw(String),
    /// Send a frame of this type padded past 256 KiB.
    SendOversize(String),
    /// Wait this many milliseconds.
    Sleep(u64),
    /// Close the socket with this code and end the script.
    Close(u16),
    /// Drop the TCP connection without a close frame and end the script.
    Drop,
}

impl Step {
    /// `{"expect": frame_type}` with the default timeout and no match.
    pub fn expect(frame_type: impl Into<String>) -> Step {
        Step::Expect { frame_type: frame_type.into(), timeout_ms: None, matches: Map::new() }
    }
}

const ACTIONS: [&str; 7] = ["expect", "send", "send_raw", "send_oversize", "sleep_ms", "close", "drop"];

impl TryFrom<Value> for Step {
    type Error = String;

    fn try_from(value: Value) -> Result<Step, String> {
        let Value::Object(mut obj) = value else {
            return Err(format!("a step is a JSON object, got {value}"));
        };
        obj.remove("comment");
        let actions: Vec<&str> = ACTIONS.iter().copied().filter(|k| obj.contains_key(*k)).collect();
        let [action] = actions[..] else {
            return Err(format!("a step needs exactly one of {ACTIONS:?}, got keys {:?}", obj.keys().collect::<Vec<_>>()));
        };
        let arg = obj.remove(action).unwrap_or(Value::Null);
        let mut timeout_ms = None;
        let mut matches = Map::new();
        if action == "expect" {
            if let Some(t) = obj.remove("timeout_ms") {
                timeout_ms = Some(t.as_u64().ok_or_else(|| format!("timeout_ms must be a number, got {t}"))?);
            }
            if let Some(m) = obj.remove("match") {
                let Value::Object(m) = m else {
                    return Err(format!("match must be an object, got {m}"));
                };
                matches = m;
            }
        }
        if let Some(extra) = obj.keys().next() {
            return Err(format!("unknown key {extra:?} in a {action:?} step"));
        }
        let string = |v: Value| match v {
            Value::String(s) => Ok(s),
            other => Err(format!("{action} takes a string, got {other}")),
        };
        Ok(match action {
            "expect" => Step::Expect { frame_type: string(arg)?, timeout_ms, matches },
            "send" if arg.is_object() => Step::Send(arg),
            "send" => return Err(format!("send takes a JSON object, got {arg}")),
            "send_raw" => Step::SendRaw(string(arg)?),
            "send_oversize" => Step::SendOversize(string(arg)?),
            "sleep_ms" => Step::Sleep(arg.as_u64().ok_or_else(|| format!("sleep_ms takes a number, got {arg}"))?),
            "close" => Step::Close(arg.as_u64().and_then(|c| u16::try_from(c).ok()).ok_or_else(|| format!("close takes a close code, got {arg}"))?),
            "drop" if arg == Value::Bool(true) => Step::Drop,
            _ => return Err(format!("drop takes true, got {arg}")),
        })
    }
}

/// Script variables of one connection.
#[derive(Debug, Default)]
struct Vars {
    turn_id: Option<String>,
    chat_id: Option<String>,
    call_id: Option<String>,
}

impl Vars {
    fn substitute_str(&self, s: &str) -> String {
        let mut s = s.to_string();
        for (name, value) in [("$turn_id", &self.turn_id), ("$chat_id", &self.chat_id), ("$call_id", &self.call_id)] {
            if !s.contains(name) {
                continue;
            }
            match value {
                Some(v) => s = s.replace(name, v),
                None => tracing::warn!(event = "scenario_unknown_var", var = name),
            }
        }
        s
    }

    /// Substitutes variables in every string value, recursively.
    fn substitute(&self, v: &Value) -> Value {
        match v {
            Value::String(s) => Value::String(self.substitute_str(s)),
            Value::Array(a) => Value::Array(a.iter().map(|x| self.substitute(x)).collect()),
            Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), self.substitute(x))).collect()),
            other => other.clone(),
        }
    }
}

/// A `turn_id` field as a string (numbers are accepted too).
pub(crate) fn id_string(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Runs one connection's script.
pub(crate) async fn run(shared: &Shared, steps: &[Step], out: &Out, inbox: &mut mpsc::UnboundedReceiver<Value>, hello: &HelloInfo) {
    let name = match shared.config.mode {
        crate::Mode::Scenario(ref s) => s.name.clone(),
        crate::Mode::Demo => String::new(),
    };
    let mut vars = Vars { chat_id: Some(hello.chat_id_str()), ..Vars::default() };
    for (i, step) in steps.iter().enumerate() {
        let label = format!("scenario {name:?} step {i}");
        match step {
            Step::Expect { frame_type: want, timeout_ms, matches } => {
                let timeout = Duration::from_millis(timeout_ms.unwrap_or(DEFAULT_EXPECT_TIMEOUT_MS));
                match expect(inbox, want, timeout, &mut vars).await {
                    Expected::Got(frame) => check_match(shared, &label, want, &frame, matches, &vars),
                    Expected::TimedOut => {
                        shared.fail(format!("{label}: expected a {want:?} frame within {} ms", timeout.as_millis()));
                        return;
                    }
                    Expected::Closed => {
                        tracing::info!(event = "scenario_closed", "{label}: connection closed while expecting {want:?}");
                        return;
                    }
                }
            }
            Step::Send(frame) => {
                let frame = vars.substitute(frame);
                if frame_type(&frame) == Some("tool_call") {
                    if let Some(id) = id_string(frame.get("id")) {
                        vars.call_id = Some(id);
                    }
                }
                out.frame(frame);
            }
            Step::SendRaw(text) => {
                out.raw(vars.substitute_str(text));
            }
            Step::SendOversize(ty) => {
                let mut frame = json!({ "type": ty, "padding": "x".repeat(MAX_FRAME_BYTES + 1) });
                if let Some(turn_id) = &vars.turn_id {
                    frame["turn_id"] = json!(turn_id);
                }
                out.frame(frame);
            }
            Step::Sleep(ms) => tokio::time::sleep(Duration::from_millis(*ms)).await,
            Step::Close(code) => {
                out.close(*code);
                return;
            }
            Step::Drop => {
                out.drop_connection();
                return;
            }
        }
    }
    tracing::info!(event = "scenario_done", scenario = %name);
}

enum Expected {
    Got(Value),
    TimedOut,
    Closed,
}

async fn expect(inbox: &mut mpsc::UnboundedReceiver<Value>, want: &str, timeout: Duration, vars: &mut Vars) -> Expected {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        let frame = match tokio::time::timeout_at(deadline, inbox.recv()).await {
            Err(_) => return Expected::TimedOut,
            Ok(None) => return Expected::Closed,
            Ok(Some(frame)) => frame,
        };
        let ty = frame_type(&frame).unwrap_or_default();
        if ty == "turn" {
            if let Some(id) = id_string(frame.get("turn_id")) {
                vars.turn_id = Some(id);
            }
        }
        if ty == want {
            return Expected::Got(frame);
        }
        tracing::debug!(event = "scenario_skip", r#type = ty, want);
    }
}

fn check_match(shared: &Shared, label: &str, want: &str, frame: &Value, matches: &Map<String, Value>, vars: &Vars) {
    for (field, expected) in matches {
        let expected = vars.substitute(expected);
        let actual = frame.get(field);
        if actual != Some(&expected) {
            let got = actual.map_or_else(|| "nothing".to_string(), Value::to_string);
            shared.fail(format!("{label}: {want} field {field:?}: expected {expected}, got {got}"));
        }
    }
}
