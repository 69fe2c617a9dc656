//! The client tools a pet window declares and runs
//! (`docs/client-tools.md`).
//!
//! - [`ToolArgs`] reads a call's name and arguments into one typed value, or
//!   the generic answer of `docs/client-tools.md` ([`ToolError`]) before anything runs.
//! - [`Executor`] runs the calls of one chat one at a time, in arrival order,
//!   off the driver loop, each within its client wait.
//! - [`Toolbox`] runs a checked call: `look`, `rate_relation`, `browser` and
//!   `address_character`, reading the switches when the call runs.
//! - [`Desk`] is what a tool needs from the desktop (capture, the window
//!   list, where the pet stands, the browser window); the app implements it,
//!   [`SystemDesk`] is the headless one (xcap, no window of its own), tests
//!   fake it.
//!
//! What is declared ([`declarations`]) is exactly what runs: `rate_relation`
//! and `address_character` always, `look` on the main pet window, `browser`
//! when the desk has a browser window.

mod args;
mod executor;
mod offer;
mod toolbox;

pub use crate::body::BodyAction;
pub use args::{BrowserAction, LookAt, ToolArgs, ToolError, RELATION_WHY_CHARS};
pub use executor::Executor;
pub use offer::{Offers, Switch};
pub use toolbox::{Toolbox, SCREEN_SWITCHED_OFF};

use crate::context::ToolSwitch;
use crate::picture::capture::{self, CaptureError, Display, WindowInfo};
use crate::picture::Picture;
use futures_util::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::Arc;

/// What the turn screenshot or a `look` captures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shot {
    /// A display by index.
    Display(usize),
    /// The frontmost window of `app` whose title contains `title`.
    Window {
        /// The app, matched without case.
        app: String,
        /// A part of the title; empty matches any.
        title: String,
    },
}

/// What the tools may ask of the desktop. The app implements it; the core
/// only reads through it. The defaults read the system through xcap, for a
/// client with no window of its own.
pub trait Desk: Send + Sync {
    /// The names of the other open characters (never this window's own).
    fn open_characters(&self) -> Vec<String> {
        Vec::new()
    }

    /// True for the main pet window: the one whose body the OS window is.
    /// It declares `look`.
    fn is_main(&self) -> bool {
        true
    }

    /// Where the pet stands, in physical screen pixels (its centre); none
    /// when it has no window.
    fn pet_point(&self) -> Option<(i32, i32)> {
        None
    }

    /// The displays.
    fn displays(&self) -> Result<Vec<Display>, CaptureError> {
        capture::displays()
    }

    /// Other apps' windows, front to back, without this app's own.
    fn windows(&self) -> Result<Vec<WindowInfo>, CaptureError> {
        capture::windows()
    }

    /// Capture `shot` with none of this app's windows in the picture. Runs
    /// off the async runtime's worker threads.
    fn capture(&self, shot: Shot) -> BoxFuture<'static, Result<Picture, CaptureError>> {
        Box::pin(capture_blocking(shot))
    }

    /// The character's own browser window, when this client has one.
    fn browser(&self) -> Option<Arc<dyn Browser>> {
        None
    }

    /// Whether this client has a body on the desktop (a pet window): only
    /// then is `body_action` declared. The headless client has none.
    fn has_body(&self) -> bool {
        false
    }

    /// The pet window's frame now; none without a window.
    fn pet_window(&self) -> Option<PetWindow> {
        None
    }

    /// Whether the pet window can be placed on this desktop (not on plain
    /// Wayland, nor without a window): `body_action` answers `unsupported`
    /// otherwise.
    fn can_place(&self) -> bool {
        false
    }

    /// Move the pet window's origin to (`x`, `y`), physical pixels.
    fn place_pet(&self, _x: i32, _y: i32) {}

    /// Keep the pet window above other windows (`true`, as it starts), or
    /// let them cover it (`false`: a fullscreen app is frontmost).
    fn keep_above(&self, _above: bool) {}

    /// The mouse pointer, physical pixels on the virtual desktop.
    fn pointer(&self) -> Option<(i32, i32)> {
        None
    }
}

/// Capture `shot` on a blocking thread, as it is on screen now.
pub async fn capture_blocking(shot: Shot) -> Result<Picture, CaptureError> {
    let job = move || match shot {
        Shot::Display(index) => capture::capture_display(index),
        Shot::Window { app, title } => capture::capture_window(&app, &title),
    };
    tokio::task::spawn_blocking(job).await.unwrap_or_else(|e| Err(CaptureError::Failed(format!("the capture thread ended: {e}"))))
}

/// A desk with no window of its own: the system's displays and windows
/// through xcap, no other character, no browser (the CLI's).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemDesk;

impl Desk for SystemDesk {}

/// The `address_character` calls a window's tools accepted, by turn id:
/// the name each called (the session delivers them, `crate::ensemble`).
pub type Addressing = Arc<std::sync::Mutex<std::collections::HashMap<String, String>>>;

/// The CLI's desk for one of several characters (`docs/characters.md`):
/// the system's displays and windows like [`SystemDesk`], the other open
/// characters by name, and whether this one is main (only main declares
/// `look` and `body_action`).
#[derive(Debug, Clone, Default)]
pub struct CastDesk {
    /// The other open characters' names, in registry order.
    pub others: Vec<String>,
    /// True for main.
    pub main: bool,
}

impl Desk for CastDesk {
    fn open_characters(&self) -> Vec<String> {
        self.others.clone()
    }

    fn is_main(&self) -> bool {
        self.main
    }
}

/// A desk that knows of nothing: no display, no window, no other character
/// (tests and clients that must not touch the screen).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoDesk;

impl Desk for NoDesk {
    fn displays(&self) -> Result<Vec<Display>, CaptureError> {
        Ok(Vec::new())
    }

    fn windows(&self) -> Result<Vec<WindowInfo>, CaptureError> {
        Ok(Vec::new())
    }

    fn capture(&self, _shot: Shot) -> BoxFuture<'static, Result<Picture, CaptureError>> {
        Box::pin(async { Err(CaptureError::Failed("no screen here".into())) })
    }
}

/// A page the browser window shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// Its URL after redirects.
    pub url: String,
    /// Its title.
    pub title: String,
}

/// Why a [`Browser`] call failed: the agent reads it after `error: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrowserError {
    /// Read, screenshot or back with no window open.
    #[error("no page is open")]
    NoPage,
    /// The window went away while the call waited.
    #[error("the browser window was closed")]
    Closed,
    /// The call took longer than its wait (`what`: "loading the page", …).
    #[error("{what} took longer than {secs} s")]
    TimedOut {
        /// What was being done.
        what: &'static str,
        /// The wait, seconds.
        secs: u64,
    },
    /// Back with no earlier page.
    #[error("there is no earlier page")]
    NoEarlierPage,
    /// The page did not load (the web view's reason).
    #[error("the page did not load: {0}")]
    NotLoaded(String),
    /// This desktop has no web view to drive.
    #[error("unsupported on this platform")]
    Unsupported,
    /// The web view or the window refused or failed, in its own words with
    /// what was being done.
    #[error("{0}")]
    WebView(String),
}

/// The character's browser window: a separate window of the app with no
/// access to the app's commands or files. Each call fails with a one-line
/// reason (sent as `error: <reason>`).
pub trait Browser: Send + Sync {
    /// Load `url` (opening the window if needed); answers once it has loaded.
    fn open(&self, url: url::Url) -> BoxFuture<'static, Result<Page, BrowserError>>;
    /// The current page and its text (`document.body.innerText` or the like).
    fn read(&self) -> BoxFuture<'static, Result<(Page, String), BrowserError>>;
    /// The current page and its picture.
    fn screenshot(&self) -> BoxFuture<'static, Result<(Page, Picture), BrowserError>>;
    /// Navigate back.
    fn back(&self) -> BoxFuture<'static, Result<(), BrowserError>>;
    /// Close the window.
    fn close(&self) -> BoxFuture<'static, Result<(), BrowserError>>;
}

/// One tool's answer: the result string and any pictures beside it (fitted
/// into the frame or request by the transport).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The answer, `error: <reason>` on failure.
    pub result: String,
    /// Pictures beside the answer (none for text-only answers).
    pub images: Vec<Picture>,
}

impl Answer {
    /// A text-only answer.
    pub fn text(result: impl Into<String>) -> Self {
        Self { result: result.into(), images: Vec::new() }
    }
}

impl From<ToolError> for Answer {
    fn from(e: ToolError) -> Self {
        Answer::text(e.to_string())
    }
}

/// Runs one validated call to its answer. The executor drops the future to
/// cancel the call (a stop, or a wait that passed), so a tool must leave
/// nothing half done when dropped at an await.
///
/// A call refused by a switch answers at once from [`Run::run`] (and offers
/// the switch, `tools/offer.rs`); only a call the user must allow each time
/// is [`Run::gated`], and the executor asks for it without holding the
/// calls behind it.
pub trait Run: Send + Sync {
    /// Run `args`, a call of turn `turn_id`, to its answer.
    fn run(&self, args: ToolArgs, turn_id: &str) -> BoxFuture<'static, Answer>;

    /// Whether the user must allow this call before it runs (the executor
    /// asks through its [`Asker`] and waits at most
    /// [`crate::limits::BROWSER_OPEN_ASK_WAIT`], inside the call's own wait).
    fn gated(&self, _args: &ToolArgs) -> bool {
        false
    }

    /// The user answered a gated call in time: true when it runs now.
    /// "Always" may stop the asking for this session.
    fn decided(&self, _args: &ToolArgs, decision: crate::chat::ApprovalDecision) -> bool {
        decision != crate::chat::ApprovalDecision::Deny
    }

    /// The user answered a gated call after it had answered
    /// [`NOT_ALLOWED_YET`] (or ended): the answer applies to the next call.
    fn answered_late(&self, _args: &ToolArgs, _decision: crate::chat::ApprovalDecision) {}

    /// What a gated call answers when the user says no.
    fn denied(&self, _args: &ToolArgs) -> Answer {
        Answer::text(DENIED_BY_USER)
    }
}

/// A question for the user before a sensitive client tool runs: the chat
/// window shows it as an approval card, the pet as its approval notice, and
/// the character says a line.
#[derive(Debug)]
pub struct Ask {
    /// The call's turn.
    pub turn_id: String,
    /// The call id.
    pub call_id: String,
    /// The tool name.
    pub name: String,
    /// The call's arguments, as sent.
    pub args: serde_json::Value,
    /// The call, read (for an answer that comes after the call answered).
    pub tool: ToolArgs,
    /// Where the answer goes; closed once the call has answered (or was
    /// stopped): a later answer goes to [`Run::answered_late`].
    pub reply: tokio::sync::oneshot::Sender<crate::chat::ApprovalDecision>,
}

/// Where the executor's questions go (the session driver).
pub type Asker = tokio::sync::mpsc::UnboundedSender<Ask>;

/// What a gated call answers when the user says no.
pub const DENIED_BY_USER: &str = "error: the user did not allow it";
/// What a gated call answers when the user has not answered within
/// [`crate::limits::BROWSER_OPEN_ASK_WAIT`]: the question stays up, and an
/// Allow given later applies to the next call.
pub const NOT_ALLOWED_YET: &str = "error: the user has not allowed it yet; an Allow given later applies to the next call";

/// A `body_action` call on its way to the body's owner (the driver), and
/// where its answer (`ok: <posture>` or `error: <reason>`) goes once the
/// move has ended.
#[derive(Debug)]
pub struct BodyRequest {
    /// The action.
    pub action: crate::body::BodyAction,
    /// The answer.
    pub reply: tokio::sync::oneshot::Sender<String>,
}

/// Where `body_action` calls go.
pub type BodyRequests = tokio::sync::mpsc::UnboundedSender<BodyRequest>;

/// The pet window's frame on the desktop, physical pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PetWindow {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Outer width.
    pub width: u32,
    /// Outer height.
    pub height: u32,
    /// Physical pixels per logical pixel on its display.
    pub scale: f64,
}

impl PetWindow {
    /// The frame of a window `logical` (width, height) in size with its
    /// corner at desk point (`x`, `y`) on `displays` (desk rectangles,
    /// each its logical one times its scale): it takes the scale of the
    /// display holding its corner (1 on none). A layer-shell pet's size
    /// changes this way from output to output; GTK tells it late or never.
    pub fn on_displays(x: i32, y: i32, logical: (u32, u32), displays: &[crate::picture::capture::Display]) -> Self {
        let holds = |d: &&crate::picture::capture::Display| {
            x >= d.x && y >= d.y && i64::from(x) < i64::from(d.x) + i64::from(d.width) && i64::from(y) < i64::from(d.y) + i64::from(d.height)
        };
        let scale = displays.iter().find(holds).map(|d| f64::from(d.scale)).filter(|s| s.is_finite() && *s > 0.0).unwrap_or(1.0);
        let px = |v: u32| (f64::from(v) * scale).round() as u32;
        Self { x, y, width: px(logical.0), height: px(logical.1), scale }
    }
}

/// Which tools a window declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declared {
    /// `look` (the main pet window).
    pub look: bool,
    /// `body_action` (the main pet window, when it has a body).
    pub body: bool,
    /// `browser` (a window with a browser).
    pub browser: bool,
}

impl Declared {
    /// What `desk` can run.
    pub fn of(desk: &dyn Desk) -> Self {
        Self { look: desk.is_main(), body: desk.is_main() && desk.has_body(), browser: desk.browser().is_some() }
    }

    /// The `tool switches:` entries of the declared tools, in the order of
    /// `docs/client-tools.md` (`look.screen`, `browser`, `relations`), with their state now.
    pub fn switches(&self, settings: &crate::settings::Settings) -> Vec<ToolSwitch> {
        let mut out = Vec::new();
        if self.look {
            out.push(ToolSwitch { id: "look.screen".into(), on: Some(settings.character.screenshot.allow_requests) });
        }
        if self.browser {
            out.push(ToolSwitch { id: "browser".into(), on: Some(settings.character.browser) });
        }
        out.push(ToolSwitch { id: "relations".into(), on: Some(settings.character.relations) });
        out
    }
}

fn function(name: &str, description: &str, parameters: Value) -> Value {
    json!({ "type": "function", "function": { "name": name, "description": description, "parameters": parameters } })
}

/// The function schemas of the declared tools, in the OpenAI function-tool
/// shape (`hello.tools` on push, `tools[]` on the request transports, where
/// `generate_express` is added beside them).
pub fn declarations(declared: Declared) -> Vec<Value> {
    let mut out = vec![
        function(
            "rate_relation",
            "Move how you stand toward the user or another open character by a small step, with the reason",
            json!({
                "type": "object",
                "properties": {
                    "target": { "type": "string", "description": "\"user\" for the human, or the name of another open character" },
                    "delta": { "type": "integer", "minimum": -3, "maximum": 3, "description": "A whole number from -3 to 3, not 0" },
                    "why": { "type": "string", "description": "The reason, one line, at most 200 characters" }
                },
                "required": ["target", "delta", "why"],
                "additionalProperties": false
            }),
        ),
        function(
            "address_character",
            "Speak to another open character by name; it gets a turn when this reply has finished playing",
            json!({
                "type": "object",
                "properties": { "character": { "type": "string", "description": "The name of another open character" } },
                "required": ["character"],
                "additionalProperties": false
            }),
        ),
    ];
    if declared.look {
        out.push(function(
            "look",
            "Read body state, perch targets, or a display screenshot; screen requests require user permission",
            json!({
                "type": "object",
                "properties": {
                    "at": { "type": "string", "enum": ["body", "perch_targets", "screen"] },
                    "monitor": { "type": "integer", "description": "For screen: the display number used by body_action.monitor; omit for the character's display" }
                },
                "required": ["at"],
                "additionalProperties": false
            }),
        ));
    }
    if declared.body {
        out.push(function(
            "body_action",
            "Move your body on the desktop: sit on an app's window, peek from a side, move to a spot, stand down, go to bed or get up; answers once the move has finished",
            json!({
                "type": "object",
                "properties": {
                    "action": { "type": "string", "enum": ["sit_on_window", "peek", "move_to", "stand_down", "go_to_bed", "get_up"] },
                    "app": { "type": "string", "description": "For sit_on_window: the app whose frontmost visible window you sit on" },
                    "side": { "type": "string", "enum": ["left", "right"], "description": "For peek" },
                    "spot": { "type": "string", "enum": ["center", "top-left", "top-right", "bottom-left", "bottom-right"], "description": "For move_to" },
                    "monitor": { "type": "integer", "description": "For move_to: the display index used by look" }
                },
                "required": ["action"],
                "additionalProperties": false
            }),
        ));
    }
    if declared.browser {
        out.push(function(
            "browser",
            "Drive your own browser window, which the user can watch: open an http(s) page, read its text, take its screenshot, go back, or close it",
            json!({
                "type": "object",
                "properties": {
                    "action": { "type": "string", "enum": ["open", "read", "screenshot", "back", "close"] },
                    "url": { "type": "string", "description": "For open: an http or https URL" }
                },
                "required": ["action"],
                "additionalProperties": false
            }),
        ));
    }
    out
}

#[cfg(test)]
mod pet_window_tests {
    use super::PetWindow;
    use crate::picture::capture::Display;

    #[test]
    fn a_layered_frame_takes_the_scale_of_the_display_at_its_corner() {
        let d = |index: usize, x: i32, width: u32, height: u32, scale: f32| Display {
            index,
            label: String::new(),
            x,
            y: 0,
            width,
            height,
            scale,
            primary: index == 0,
        };
        let displays = [d(0, 0, 1280, 800, 1.0), d(1, 2560, 2560, 1600, 2.0)];
        assert_eq!(PetWindow::on_displays(100, 50, (360, 520), &displays), PetWindow { x: 100, y: 50, width: 360, height: 520, scale: 1.0 });
        assert_eq!(PetWindow::on_displays(3000, 900, (360, 520), &displays), PetWindow { x: 3000, y: 900, width: 720, height: 1040, scale: 2.0 });
        assert_eq!(PetWindow::on_displays(2000, 0, (360, 520), &displays).scale, 1.0, "in the gap between them");
    }
}
