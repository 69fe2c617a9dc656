//! The signals ingress beside the pet's session (wiring only): one relay for
//! the app's life, attached to each new pet session; the server started,
//! stopped or restarted as the core's `IngressSettings::action` says.

use crate::commands::CommandError;
use crate::settings_window::settings_only;
use crate::startup::{lock, Background};
use crate::window::WindowId;
use std::sync::{Arc, Mutex};
use tauri::{AppHandle, Manager, State, WebviewWindow};
use tokio_util::sync::{CancellationToken, DropGuard};
use yui_core::ingress::{self, IngressConfig};
use yui_core::session::relay::Relay;
use yui_core::settings::{IngressAction, IngressInfo, IngressSettings};
use yui_core::{ErrorCode, Session, UiEvent};

/// The server as it runs (or failed to start).
struct Running {
    /// The settings it was started with.
    settings: IngressSettings,
    /// Its token.
    token: String,
    /// Where it listens, or why it does not.
    result: Result<std::net::SocketAddr, String>,
    /// Stops it when dropped.
    _stop: DropGuard,
}

/// The app's ingress: its relay and the running server.
pub struct Ingress {
    relay: Arc<Relay>,
    running: Mutex<Option<Running>>,
}

impl Default for Ingress {
    fn default() -> Self {
        Self { relay: Relay::new(Arc::new(yui_core::clock::SystemClock)), running: Mutex::new(None) }
    }
}

/// A new pet session takes what arrives (and what waited), its character
/// named `card` for `/relations/<character>`.
pub fn attach(app: &AppHandle, session: &Session, card: &str) {
    app.state::<Ingress>().relay.attach(session, card);
}

/// The session of a character beside main, named `name`, serves
/// `/relations/<name>`; the signals go to main's.
pub fn attach_beside(app: &AppHandle, session: &Session, name: &str) {
    app.state::<Ingress>().relay.attach_beside(session, name);
}

/// The characters' sessions are being replaced: arrivals wait.
pub fn detach(app: &AppHandle) {
    app.state::<Ingress>().relay.detach_all();
}

/// Follow the saved ingress settings: start, stop, restart or leave it.
pub async fn follow(app: &AppHandle, next: &IngressSettings) {
    let state = app.state::<Ingress>();
    let action = IngressSettings::action(lock(&state.running).as_ref().map(|r| &r.settings), next);
    match action {
        IngressAction::Keep => return,
        IngressAction::Stop | IngressAction::Restart => {
            // Dropping it cancels the server; give the port a moment back.
            drop(lock(&state.running).take());
            tracing::info!(record = "ingress_stopped", reason = ?action);
        }
        IngressAction::Start => {}
    }
    if action == IngressAction::Stop {
        return;
    }
    let token = match token_for(app, next) {
        Ok(t) => t,
        Err(e) => {
            tracing::error!(record = "ingress_down", port = next.port, error = %e.message);
            return;
        }
    };
    let require = next.require_token || !next.token.is_empty();
    let cancel = CancellationToken::new();
    let result = ingress::serve(IngressConfig::new(next.port, require, token.clone()), state.relay.clone(), cancel.clone())
        .await
        .map(|server| {
            let addr = server.local_addr();
            tauri::async_runtime::spawn(server.stopped());
            addr
        })
        .map_err(|e| e.to_string());
    if let Err(problem) = &result {
        // `docs/triggers.md`, "The signals ingress": the app shows that the ingress is down and names the port.
        let message = format!("The signals ingress is down: {problem}");
        crate::sink::window_sink(app.clone(), WindowId::Pet).emit(UiEvent::notice(ErrorCode::Network, message));
    }
    *lock(&state.running) = Some(Running { settings: next.clone(), token, result, _stop: cancel.drop_guard() });
}

fn token_for(app: &AppHandle, settings: &IngressSettings) -> Result<String, CommandError> {
    if !settings.token.is_empty() {
        return Ok(settings.token.expose().to_string());
    }
    let dir = app.state::<Background>().data_dir()?;
    Ok(ingress::token::load_or_create(&dir)?)
}

/// Where the ingress listens, its token and a line to try it (the settings
/// window's Reactions section).
///
/// Errors: not the settings window; the settings or the token cannot be read.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn ingress_info(app: AppHandle, window: WebviewWindow, background: State<'_, Background>) -> Result<IngressInfo, CommandError> {
    settings_only(&window)?;
    let dir = background.data_dir()?;
    let saved = crate::settings_window::blocking(move || dir.load_settings_without_key()).await?.user.ingress;
    let state = app.state::<Ingress>();
    let running = lock(&state.running);
    Ok(match running.as_ref() {
        Some(r) => {
            let mut info = IngressInfo::of(&r.settings, &r.token, r.result.is_ok(), r.result.clone().err());
            info.enabled = saved.enabled;
            if r.result.is_ok() && r.settings.port != saved.port {
                info.problem = Some(format!("Port {} applies after YUI restarts.", saved.port));
            }
            info
        }
        None => {
            drop(running);
            IngressInfo::of(&saved, &token_for(&app, &saved)?, false, None)
        }
    })
}

/// Why the desktop reader gives no frontmost line or idle time (the
/// Reactions section shows it); `None` when it reads both. The reader is
/// chosen from the environment as the session's is
/// (`yui_core::world::platform`), off the async workers (it may probe
/// sway's socket).
///
/// Errors: not the settings window.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn desktop_limitation(window: WebviewWindow) -> Result<Option<String>, CommandError> {
    settings_only(&window)?;
    crate::settings_window::blocking(|| Ok(yui_core::world::platform().limitation().map(str::to_string))).await
}

/// The desktop self-test's report (`yui_core::world::stage`), read off the
/// async workers (it asks the X server).
///
/// Errors: not the settings window.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn desktop_check(window: WebviewWindow) -> Result<yui_core::world::stage::StageReport, CommandError> {
    settings_only(&window)?;
    crate::settings_window::blocking(|| Ok(yui_core::world::stage::check_desktop())).await
}
