//! The welcome window (`docs/welcome.md`): the first hour's way from the
//! demo to the user's own model. It opens by itself once, on a start while
//! the demo answers (`welcomed` remembers it did), and from the settings'
//! Backend section. What it offers and
//! finds, and whether a connection works, are the core's
//! (`yui_core::providers`, `discover`, `probe`); this saves the pick as the
//! settings window would and has main say hello on it.

use crate::commands::{caller, CommandError};
use crate::settings_target::Target;
use crate::settings_window::{apply, blocking};
use crate::window::WindowId;
use tauri::{AppHandle, Manager, WebviewWindow};
use yui_core::discover::{FoundServer, DISCOVER_REQUEST_WAIT};
use yui_core::presets::load_joined;
use yui_core::probe::ProbeReport;
use yui_core::providers::{Provider, PROVIDERS};
use yui_core::{ErrorCode, UserCommand};

/// Open the welcome, or bring it to the front.
pub fn open(app: &AppHandle) {
    if WindowId::Welcome.show_or_open(app, crate::window::PageWindow { page: "welcome.html", size: (520.0, 640.0) }) {
        tracing::info!(record = "welcome_opened");
    }
}

/// Open the welcome when this start wants it: the demo answers main and
/// it never opened by itself before. It opens by itself once: closed, it
/// waits in the settings' Backend section.
pub async fn open_if_new(app: &AppHandle) {
    let Ok(target) = Target::main(app) else { return };
    // Decided without the key (a keychain read on every start otherwise);
    // read with it only on the start that opens the welcome and saves.
    let (root, own) = (target.root.clone(), target.own.clone());
    let wanted = blocking(move || Ok(!root.load_settings_without_key()?.user.welcomed && own.load_settings_without_key()?.uses_demo())).await;
    if !matches!(wanted, Ok(true)) {
        return;
    }
    let (root, own) = (target.root.clone(), target.own.clone());
    let Ok(mut settings) = blocking(move || load_joined(&root, &own)).await else { return };
    open(app);
    settings.user.welcomed = true;
    if let Err(e) = apply(app, &target, settings).await {
        tracing::warn!(record = "welcome_not_marked", error = %e.message);
    }
}

pub(crate) fn welcome_only(window: &WebviewWindow) -> Result<(), CommandError> {
    match caller(window)? {
        WindowId::Welcome => Ok(()),
        _ => Err(CommandError::new(ErrorCode::Closed, "only the welcome window asks this")),
    }
}

/// Open the welcome (the settings' Backend section).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn open_welcome(app: AppHandle) {
    open(&app);
}

/// The providers to pick from, in the order the welcome lists them.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn welcome_providers() -> Vec<Provider> {
    PROVIDERS.to_vec()
}

/// The model servers running on this computer (the usual ports, probed at
/// once; a port that answers costs at most a few requests' waits, one that
/// does not a single wait).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn welcome_discover() -> Vec<FoundServer> {
    yui_core::discover::discover(&[]).await
}

/// The models of the server at `base_url`, asked with `key`.
///
/// Errors: not the welcome window; `network` with which step failed.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn welcome_models(window: WebviewWindow, base_url: String, key: String) -> Result<Vec<String>, CommandError> {
    welcome_only(&window)?;
    yui_core::discover::list_models(&base_url, &key, DISCOVER_REQUEST_WAIT * 4).await.map_err(|e| CommandError::new(ErrorCode::Network, e.to_string()))
}

/// Test provider `provider` at `base_url` with `key` and `model`; when it
/// answers, save it as main's connection (the key into the keychain), start
/// her again on it and have her say hello (her answer comes as events).
/// The test's report either way; nothing is saved when it failed.
///
/// Errors: not the welcome window; an unknown provider (`settings`); the
/// settings could not be read or saved (`storage`).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn welcome_connect(
    app: AppHandle,
    window: WebviewWindow,
    provider: String,
    base_url: String,
    key: String,
    model: String,
) -> Result<ProbeReport, CommandError> {
    welcome_only(&window)?;
    let provider = yui_core::providers::provider(&provider).ok_or_else(|| CommandError::new(ErrorCode::Settings, format!("no provider {provider}")))?;
    let target = Target::main(&app)?;
    let (root, own) = (target.root.clone(), target.own.clone());
    let mut settings = blocking(move || load_joined(&root, &own)).await?;
    provider.apply(&mut settings, &base_url, &key, &model);
    settings.validate()?;
    let report = yui_core::probe::probe(&settings).await;
    // It works only when the test saw it answer: the model on a request
    // transport, the key on push, the engine on agent chat.
    let answered = match settings.character.chat_api {
        yui_core::ChatApi::Push => report.auth_ok == Some(true),
        yui_core::ChatApi::AgentChat => report.reachable,
        _ => report.model_ok == Some(true),
    };
    tracing::info!(record = "welcome_connect", provider = provider.id, answered, problem = ?report.problem);
    if report.problem.is_some() {
        return Ok(report);
    }
    if !answered {
        return Err(CommandError::new(ErrorCode::Network, format!("It did not answer as a model would: {}", report.detail)));
    }
    // Saved on the settings as they are now (the language may have changed
    // during the test): the connection and the welcome's end, nothing else.
    let (root, own) = (target.root.clone(), target.own.clone());
    let mut settings = blocking(move || load_joined(&root, &own)).await?;
    provider.apply(&mut settings, &base_url, &key, &model);
    settings.user.welcomed = true;
    let language = settings.user.language.clone();
    apply(&app, &target, settings).await?;
    // Her first words on it, once her new session is ready.
    if let Some(handle) = app.state::<crate::company::Company>().main_handle() {
        let wait = yui_core::Timeouts::default().hello_reply_wait;
        let hello = UserCommand::SendText { text: yui_core::providers::hello(&language).into() };
        if let Err(e) = handle.send_when_ready(hello, wait).await {
            tracing::warn!(record = "welcome_hello_failed", error = %e);
        }
    }
    Ok(report)
}

/// The welcome's Done: it closes.
///
/// Errors: not the welcome window.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn welcome_done(window: WebviewWindow) -> Result<(), CommandError> {
    welcome_only(&window)?;
    let _ = window.close();
    Ok(())
}

/// The UI language picked on the welcome's first screen, saved at once.
///
/// Errors: not the welcome window; a language the app does not speak
/// (`settings`); the settings could not be saved.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn welcome_language(app: AppHandle, window: WebviewWindow, language: String) -> Result<(), CommandError> {
    welcome_only(&window)?;
    if !yui_core::settings::LANGUAGES.contains(&language.as_str()) {
        return Err(CommandError::new(ErrorCode::Settings, format!("YUI does not speak {language:?} yet")));
    }
    let target = Target::main(&app)?;
    let (root, own) = (target.root.clone(), target.own.clone());
    let mut settings = blocking(move || load_joined(&root, &own)).await?;
    if settings.user.language != language {
        settings.user.language = language;
        apply(&app, &target, settings).await?;
    }
    Ok(())
}
