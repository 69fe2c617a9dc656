//! The tools themselves: each checked call run to its answer, word for word
//! as `shared/spec/client-tools.md` writes them.

use super::{Answer, BrowserAction, Declared, Desk, LookAt, Run, Shot, ToolArgs, ToolError};
use crate::clock::SharedClock;
use crate::context::BodyState;
use crate::event::UiEvent;
use crate::model::ToolState;
use crate::picture::capture::display_at;
use crate::relations::{local_day, RelationStore};
use crate::settings::LiveSettings;
use crate::sink::SharedSink;
use crate::transport::agent_chat::ApprovalDecision;
use futures_util::future::BoxFuture;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The answer to `look` at `screen` while the switch is off.
pub const SCREEN_SWITCHED_OFF: &str = "error: look.screen is switched off";
/// `perch_targets` lists at most this many windows.
pub const PERCH_TARGETS_MAX: usize = 20;
/// `browser` `read` answers at most this many bytes of text.
pub const BROWSER_READ_BYTES: usize = 32 * 1024;

/// The real tools of one window.
#[derive(Clone)]
pub struct Toolbox {
    inner: Arc<Inner>,
}

struct Inner {
    desk: Arc<dyn Desk>,
    declared: Declared,
    live: LiveSettings,
    relations: Arc<RelationStore>,
    body: Arc<Mutex<BodyState>>,
    clock: SharedClock,
    sink: SharedSink,
    /// The first refused `look` at `screen` has shown its notice.
    refusal_shown: AtomicBool,
    /// The user allowed one `look` at `screen` while the switch is off.
    screen_once: AtomicBool,
    /// The user chose "Always allow" for `browser` `open` (this session).
    open_always: AtomicBool,
    /// Where "Always allow" for the screen is saved.
    data_dir: Option<crate::data_dir::DataDir>,
    /// Where `body_action` calls go (the session's driver owns the body).
    body_moves: Option<super::BodyRequests>,
}

impl std::fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox").field("declared", &self.inner.declared).finish_non_exhaustive()
    }
}

impl Toolbox {
    /// Tools over `desk`, reading the switches from `live` when a call
    /// runs, the body from `body`, the relations from `relations`; notices
    /// and the browser's pill go to `sink`.
    pub fn new(
        desk: Arc<dyn Desk>,
        live: LiveSettings,
        relations: Arc<RelationStore>,
        body: Arc<Mutex<BodyState>>,
        clock: SharedClock,
        sink: SharedSink,
    ) -> Self {
        let declared = Declared::of(&*desk);
        let inner = Inner {
            desk,
            declared,
            live,
            relations,
            body,
            clock,
            sink,
            refusal_shown: AtomicBool::new(false),
            screen_once: AtomicBool::new(false),
            open_always: AtomicBool::new(false),
            data_dir: None,
            body_moves: None,
        };
        Self { inner: Arc::new(inner) }
    }

    /// The same, saving "Always allow" for the screen into `data_dir`'s
    /// settings.
    pub fn saving_into(mut self, data_dir: crate::data_dir::DataDir) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.data_dir = Some(data_dir);
        }
        self
    }

    /// The same, sending `body_action` calls to the driver through `to`.
    pub fn moving_through(mut self, to: super::BodyRequests) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.body_moves = Some(to);
        }
        self
    }

    /// What this window declares.
    pub fn declared(&self) -> Declared {
        self.inner.declared
    }
}

impl Run for Toolbox {
    /// Gated: `look` at `screen` while `look.screen` is off (the user may
    /// allow it once), and every `browser` `open` while `browser` is on
    /// (until "Always allow").
    fn gated(&self, args: &ToolArgs) -> bool {
        let me = &self.inner;
        match args {
            ToolArgs::Look { at: LookAt::Screen, .. } => me.declared.look && !me.live.read(|s| s.screenshot.allow_requests),
            ToolArgs::Browser(BrowserAction::Open { .. }) => {
                me.declared.browser && me.live.read(|s| s.browser) && !me.open_always.load(Ordering::SeqCst)
            }
            _ => false,
        }
    }

    /// Deny: `look` answers as with the switch off (the spec's words);
    /// `browser` says the user did not allow it.
    fn denied(&self, args: &ToolArgs) -> Answer {
        match args {
            ToolArgs::Look { .. } => Answer::text(SCREEN_SWITCHED_OFF),
            _ => Answer::text(super::DENIED_BY_USER),
        }
    }

    fn decided(&self, args: &ToolArgs, decision: ApprovalDecision) -> bool {
        let me = &self.inner;
        match (args, decision) {
            (_, ApprovalDecision::Deny) => false,
            (ToolArgs::Look { .. }, ApprovalDecision::Allow) => {
                me.screen_once.store(true, Ordering::SeqCst);
                true
            }
            (ToolArgs::Look { .. }, ApprovalDecision::Always) => {
                me.live.update(|s| s.screenshot.allow_requests = true);
                if let Some(dir) = me.data_dir.clone() {
                    // Saved like the settings window would; off the loop.
                    tokio::task::spawn_blocking(move || {
                        let saved = dir.load_settings().and_then(|mut s| {
                            s.screenshot.allow_requests = true;
                            dir.save_settings(&s)
                        });
                        match saved {
                            Ok(_) => tracing::info!(record = "screen_requests_allowed", from = "approval"),
                            Err(e) => tracing::warn!(record = "settings_save_failed", error = %e),
                        }
                    });
                }
                true
            }
            (ToolArgs::Browser(_), ApprovalDecision::Always) => {
                me.open_always.store(true, Ordering::SeqCst);
                true
            }
            _ => true,
        }
    }

    fn run(&self, args: ToolArgs, turn_id: &str) -> BoxFuture<'static, Answer> {
        let me = self.inner.clone();
        let turn_id = turn_id.to_string();
        // A call against a tool this window did not declare reads as unknown.
        let declared = match &args {
            ToolArgs::Look { .. } => me.declared.look,
            ToolArgs::Browser(_) => me.declared.browser,
            ToolArgs::BodyAction(_) => me.declared.body,
            _ => true,
        };
        if !declared {
            return Box::pin(async { ToolError::UnknownTool.into() });
        }
        match args {
            ToolArgs::AddressCharacter { character } => {
                let open = me.desk.open_characters().contains(&character);
                // The addressed turn itself comes with several characters;
                // with one open character no name is open.
                let answer = if open { Answer::text("ok") } else { ToolError::InvalidField("character").into() };
                Box::pin(async move { answer })
            }
            ToolArgs::RateRelation { target, delta, why } => Box::pin(async move { me.rate(&target, delta, &why, &turn_id) }),
            ToolArgs::Look { at, monitor } => Box::pin(async move { me.look(at, monitor).await }),
            ToolArgs::Browser(action) => Box::pin(async move { me.browse(action, &turn_id).await }),
            ToolArgs::BodyAction(action) => Box::pin(async move { me.body_action(action).await }),
        }
    }
}

impl Inner {
    /// Hand the action to the body's owner and wait for the move to end.
    async fn body_action(&self, action: crate::body::BodyAction) -> Answer {
        let Some(to) = &self.body_moves else { return Answer::text("error: unsupported") };
        let (reply, answer) = tokio::sync::oneshot::channel();
        if to.send(super::BodyRequest { action, reply }).is_err() {
            return Answer::text("error: interrupted");
        }
        Answer::text(answer.await.unwrap_or_else(|_| "error: interrupted".to_string()))
    }

    fn rate(&self, target: &str, delta: i32, why: &str, turn_id: &str) -> Answer {
        if !self.live.read(|s| s.relations) {
            return Answer::text("error: relations is switched off");
        }
        // `user` is the human; another open character by name, and a
        // character named user as `user (character)`.
        let others = self.desk.open_characters();
        let known = target == "user" || others.iter().any(|c| if c == "user" { target == "user (character)" } else { c == target });
        if !known {
            return ToolError::InvalidField("target").into();
        }
        let now = self.clock.now_ms();
        match self.relations.rate(target, delta, why, turn_id, now, &local_day(now)) {
            Ok(band) => Answer::text(format!("ok: toward {target} {band}")),
            Err(e) => Answer::text(e.to_string()),
        }
    }

    async fn look(&self, at: LookAt, monitor: Option<usize>) -> Answer {
        match at {
            LookAt::Body => {
                let body = self.body.lock().unwrap_or_else(|p| p.into_inner()).clone();
                Answer::text(crate::context::body_text(&body, self.clock.now_ms()))
            }
            LookAt::PerchTargets => match self.desk.windows() {
                Ok(mut list) => {
                    list.truncate(PERCH_TARGETS_MAX);
                    Answer::text(serde_json::to_string(&list).expect("windows serialize"))
                }
                Err(e) => {
                    tracing::warn!(record = "perch_targets_failed", error = %e);
                    Answer::text(format!("error: {e}"))
                }
            },
            LookAt::Screen => {
                let allowed_once = self.screen_once.swap(false, Ordering::SeqCst);
                if !allowed_once && !self.live.read(|s| s.screenshot.allow_requests) {
                    if !self.refusal_shown.swap(true, Ordering::SeqCst) {
                        self.sink.emit(UiEvent::ScreenRequestRefused);
                    }
                    return Answer::text(SCREEN_SWITCHED_OFF);
                }
                let displays = match self.desk.displays() {
                    Ok(d) => d,
                    Err(e) => return Answer::text(format!("error: {e}")),
                };
                let index = match monitor {
                    Some(i) => i,
                    None => match self.desk.pet_point() {
                        Some((x, y)) => display_at(&displays, x, y),
                        None => display_at(&displays, i32::MIN, i32::MIN),
                    },
                };
                let Some(display) = displays.iter().find(|d| d.index == index).cloned() else {
                    return ToolError::InvalidField("monitor").into();
                };
                match self.desk.capture(Shot::Display(index)).await {
                    Ok(picture) => Answer {
                        result: format!("screen of monitor {} ({}), {}x{}", index, display.label, display.width, display.height),
                        images: vec![picture],
                    },
                    Err(e) => {
                        tracing::warn!(record = "look_capture_failed", monitor = index, error = %e);
                        Answer::text(format!("error: {e}"))
                    }
                }
            }
        }
    }

    async fn browse(&self, action: BrowserAction, turn_id: &str) -> Answer {
        if !self.live.read(|s| s.browser) {
            return Answer::text("error: browser is switched off");
        }
        let Some(browser) = self.desk.browser() else {
            return ToolError::UnknownTool.into();
        };
        // The client shows this tool's running and terminal state itself.
        let pill = |state: ToolState| self.sink.emit(UiEvent::ToolStatus { turn_id: turn_id.to_string(), state, tool_id: "browser".into() });
        pill(ToolState::Running);
        // The running state is cleared even when the call is dropped (stop, wait).
        struct Clear<'a>(Option<Box<dyn Fn() + Send + 'a>>);
        impl Drop for Clear<'_> {
            fn drop(&mut self) {
                if let Some(f) = self.0.take() {
                    f();
                }
            }
        }
        let sink = self.sink.clone();
        let tid = turn_id.to_string();
        let mut guard = Clear(Some(Box::new(move || sink.emit(UiEvent::ToolStatus { turn_id: tid.clone(), state: ToolState::Failed, tool_id: "browser".into() }))));
        let answer = match action {
            BrowserAction::Open { url } => browser.open(url).await.map(|p| Answer::text(format!("opened {}: {}", p.url, quote(&p.title)))),
            BrowserAction::Read => browser.read().await.map(|(p, text)| Answer::text(readable(&p.title, &text))),
            BrowserAction::Screenshot => browser.screenshot().await.map(|(p, picture)| Answer { result: format!("screenshot of {}", p.url), images: vec![picture] }),
            BrowserAction::Back => browser.back().await.map(|_| Answer::text("ok")),
            BrowserAction::Close => browser.close().await.map(|_| Answer::text("ok")),
        };
        guard.0 = None;
        let answer = answer.unwrap_or_else(|reason| Answer::text(format!("error: {}", one_line(&reason))));
        pill(if answer.result.starts_with("error:") { ToolState::Failed } else { ToolState::Done });
        answer
    }
}

/// `"<text>"` with inner quotes escaped.
fn quote(s: &str) -> String {
    format!("\"{}\"", one_line(s).replace('"', "\\\""))
}

/// One line: whitespace runs collapsed to one space.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The readable text of a page: the title, then the text, whitespace
/// collapsed, cut to [`BROWSER_READ_BYTES`] on a character boundary.
pub fn readable(title: &str, text: &str) -> String {
    let title = one_line(title);
    let body = one_line(text);
    let mut s = if title.is_empty() { body } else if body.is_empty() { title } else { format!("{title}\n{body}") };
    if s.len() > BROWSER_READ_BYTES {
        let mut cut = BROWSER_READ_BYTES;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}
