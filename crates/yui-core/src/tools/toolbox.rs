//! The tools themselves: each checked call run to its answer, word for word
//! as `docs/client-tools.md` ("The tools") writes them.

use super::{Answer, BrowserAction, Declared, Desk, LookAt, Offers, Run, Shot, Switch, ToolArgs, ToolError};
use crate::chat::ApprovalDecision;
use crate::clock::SharedClock;
use crate::context::BodyState;
use crate::event::UiEvent;
use crate::model::ToolState;
use crate::picture::capture::display_at;
use crate::relations::{local_day, RelationStore};
use crate::settings::LiveSettings;
use crate::sink::SharedSink;
use futures_util::future::BoxFuture;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The answer to `look` at `screen` while the switch is off
/// ([`Switch::refusal`]).
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
    /// The offers to switch a switch on, raised by the calls it refused.
    offers: Arc<Offers>,
    /// The user allowed the next `browser` `open` (an Allow that came after
    /// its call had answered).
    open_once: AtomicBool,
    /// The user chose "Always allow" for `browser` `open` (this session).
    open_always: AtomicBool,
    /// Where a switch the user turned on from an offer is saved.
    data_dir: Option<crate::data_dir::DataDir>,
    /// Where `body_action` calls go (the session's driver owns the body).
    body_moves: Option<super::BodyRequests>,
    /// Where an accepted `address_character` call is noted for its turn.
    addressing: Option<super::Addressing>,
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
        let offers = Arc::new(Offers::new(sink.clone()));
        let inner = Inner {
            desk,
            declared,
            live,
            relations,
            body,
            clock,
            sink,
            offers,
            open_once: AtomicBool::new(false),
            open_always: AtomicBool::new(false),
            data_dir: None,
            body_moves: None,
            addressing: None,
        };
        Self { inner: Arc::new(inner) }
    }

    /// The same, saving a switch the user turns on from an offer into
    /// `data_dir`'s settings.
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

    /// The same, noting each accepted `address_character` call in `into`
    /// (turn id → the name it called; the turn's last call wins): the
    /// session delivers it when the reply has finished playing.
    pub fn addressing_into(mut self, into: super::Addressing) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.addressing = Some(into);
        }
        self
    }

    /// What this window declares.
    pub fn declared(&self) -> Declared {
        self.inner.declared
    }

    /// The offers the refused calls raise (the session closes those whose
    /// switch the settings window turned on).
    pub fn offers(&self) -> Arc<Offers> {
        self.inner.offers.clone()
    }

    /// The user accepted the offer for `switch` (by name): it is on for the
    /// next call, saved into the settings file as the settings window saves
    /// it, and the offer is over. False for a name that is no switch.
    pub fn switch_on(&self, switch: &str) -> bool {
        let Some(switch) = Switch::parse(switch) else {
            tracing::warn!(record = "switch_on_refused", switch = %switch, "no such tool switch");
            return false;
        };
        let me = &self.inner;
        me.live.update(|s| switch.turn_on(s));
        if let Some(dir) = me.data_dir.clone() {
            // Off the loop: load what is saved, turn the one switch on, save.
            tokio::task::spawn_blocking(move || {
                let saved = dir.load_settings().and_then(|mut s| {
                    switch.turn_on(&mut s);
                    dir.save_settings(&s)
                });
                match saved {
                    Ok(_) => tracing::info!(record = "switch_on", switch = switch.name(), from = "offer"),
                    Err(e) => tracing::warn!(record = "settings_save_failed", error = %e),
                }
            });
        }
        me.offers.close(switch);
        true
    }
}

impl Run for Toolbox {
    /// Gated: `browser` `open` while `browser` is on, until the user allows
    /// it for this session ("Always") or allowed the next one. A call a
    /// switch refuses is not gated: it answers at once ([`Run::run`]).
    fn gated(&self, args: &ToolArgs) -> bool {
        let me = &self.inner;
        match args {
            ToolArgs::Browser(BrowserAction::Open { .. }) => {
                me.declared.browser && me.live.read(|s| s.character.browser) && !me.open_always.load(Ordering::SeqCst) && !me.open_once.load(Ordering::SeqCst)
            }
            _ => false,
        }
    }

    fn decided(&self, args: &ToolArgs, decision: ApprovalDecision) -> bool {
        match (args, decision) {
            (_, ApprovalDecision::Deny) => false,
            (ToolArgs::Browser(_), ApprovalDecision::Always) => {
                self.inner.open_always.store(true, Ordering::SeqCst);
                true
            }
            _ => true,
        }
    }

    /// Allow: the next `open` runs without asking; Always: none asks again
    /// this session.
    fn answered_late(&self, args: &ToolArgs, decision: ApprovalDecision) {
        let me = &self.inner;
        if let ToolArgs::Browser(BrowserAction::Open { .. }) = args {
            match decision {
                ApprovalDecision::Allow => me.open_once.store(true, Ordering::SeqCst),
                ApprovalDecision::Always => me.open_always.store(true, Ordering::SeqCst),
                ApprovalDecision::Deny => {}
            }
            tracing::info!(record = "tool_approval_late", decision = ?decision, "applies to the next open");
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
                // Names are compared without case (`docs/characters.md`).
                let open = me.desk.open_characters().into_iter().find(|n| crate::cast::same_name(n, &character));
                // With one open character no name is open.
                let answer = match open {
                    Some(name) => {
                        if let Some(addressing) = &me.addressing {
                            addressing.lock().unwrap_or_else(|p| p.into_inner()).insert(turn_id.clone(), name);
                        }
                        Answer::text("ok")
                    }
                    None => ToolError::InvalidField("character").into(),
                };
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
    /// The refusal of `docs/client-tools.md` when `switch` is off now, with the offer to
    /// switch it on raised beside it; none while it is on.
    fn refused(&self, switch: Switch) -> Option<Answer> {
        if self.live.read(|s| switch.is_on(s)) {
            return None;
        }
        tracing::info!(record = "tool_switched_off", switch = switch.name());
        self.offers.raise(switch, self.clock.now_ms());
        Some(Answer::text(switch.refusal()))
    }

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
        if let Some(refused) = self.refused(Switch::Relations) {
            return refused;
        }
        // `user` is the human; another open character by name, and a
        // character named user as `user (character)`.
        // Another character's name is compared without case and kept as
        // the character writes it.
        let others = self.desk.open_characters();
        let is_user = |c: &String| crate::cast::same_name(c, "user");
        let target = match target {
            "user" => Some("user".to_string()),
            "user (character)" => others.iter().find(|c| is_user(c)).map(|_| "user (character)".to_string()),
            name => others.iter().find(|c| !is_user(c) && crate::cast::same_name(c, name)).cloned(),
        };
        let Some(target) = target else { return ToolError::InvalidField("target").into() };
        let target = target.as_str();
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
                if let Some(refused) = self.refused(Switch::LookScreen) {
                    return refused;
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
        if let Some(refused) = self.refused(Switch::Browser) {
            return refused;
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
        let mut guard =
            Clear(Some(Box::new(move || sink.emit(UiEvent::ToolStatus { turn_id: tid.clone(), state: ToolState::Failed, tool_id: "browser".into() }))));
        let answer = match action {
            BrowserAction::Open { url } => {
                // An Allow for the next open is used up by this one.
                self.open_once.store(false, Ordering::SeqCst);
                browser.open(url).await.map(|p| Answer::text(format!("opened {}: {}", p.url, quote(&p.title))))
            }
            BrowserAction::Read => browser.read().await.map(|(p, text)| Answer::text(readable(&p.title, &text))),
            BrowserAction::Screenshot => {
                browser.screenshot().await.map(|(p, picture)| Answer { result: format!("screenshot of {}", p.url), images: vec![picture] })
            }
            BrowserAction::Back => browser.back().await.map(|_| Answer::text("ok")),
            BrowserAction::Close => browser.close().await.map(|_| Answer::text("ok")),
        };
        guard.0 = None;
        let answer = answer.unwrap_or_else(|reason| Answer::text(format!("error: {}", one_line(&reason.to_string()))));
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
    let mut s = if title.is_empty() {
        body
    } else if body.is_empty() {
        title
    } else {
        format!("{title}\n{body}")
    };
    if s.len() > BROWSER_READ_BYTES {
        let mut cut = BROWSER_READ_BYTES;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
    s
}
