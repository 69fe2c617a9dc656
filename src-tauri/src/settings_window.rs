//! The settings window and its commands: read and save settings (the key
//! through the core's key store), test a connection, import a character, a
//! clip or a card. What a change means is decided by the core
//! (`Settings::change_to`, `probe`, `card::import_into`); this applies it.
//! Every call that may block (files, the OS keychain) runs in
//! `spawn_blocking`.

use crate::commands::{caller, CommandError};
use crate::startup::{restart_pet_session, Background};
use crate::window::WindowId;
use std::path::Path;
use tauri::ipc::{InvokeBody, Request};
use tauri::{AppHandle, Manager, State, WebviewUrl, WebviewWindow, WebviewWindowBuilder};
use yui_core::card::{self, CardStore};
use yui_core::character::{self, CharacterInfo};
use yui_core::keystore::KeyPlace;
use yui_core::presets::{load_joined, save_split};
use yui_core::probe::ProbeReport;
use yui_core::{CoreError, ErrorCode, Settings};

/// Open the settings window, or bring it to the front.
pub fn open(app: &AppHandle) {
    if let Some(w) = app.get_webview_window(WindowId::Settings.label()) {
        let _ = w.show();
        let _ = w.set_focus();
        return;
    }
    let built = WebviewWindowBuilder::new(app, WindowId::Settings.label(), WebviewUrl::App("settings.html".into()))
        .title("YUI Settings")
        .inner_size(560.0, 760.0)
        .resizable(true)
        .build();
    if let Err(e) = built {
        tracing::warn!(record = "settings_window_failed", error = %e);
    }
}

/// The caller must be the settings window (settings, keys and relations are its alone).
pub(crate) fn settings_only(window: &WebviewWindow) -> Result<(), CommandError> {
    match caller(window)? {
        WindowId::Settings => Ok(()),
        _ => Err(CommandError::new(ErrorCode::Closed, "only the settings window reads or writes settings")),
    }
}

/// Open the settings window (from the pet's context menu).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn open_settings(app: AppHandle) {
    open(&app);
}

/// Run blocking work (files, the OS keychain) off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, CoreError> + Send + 'static) -> Result<T, CommandError> {
    match tauri::async_runtime::spawn_blocking(f).await {
        Ok(result) => Ok(result?),
        Err(e) => Err(CommandError::new(ErrorCode::Storage, format!("the task failed: {e}"))),
    }
}

/// The saved settings, key included (only for the settings window).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn load_settings(app: AppHandle, window: WebviewWindow) -> Result<Settings, CommandError> {
    settings_only(&window)?;
    let (root, own) = main_dirs(&app)?;
    blocking(move || load_joined(&root, &own)).await
}

/// The data directory and main's folder (the directory itself for the
/// root preset): the settings window edits main's settings, the user's
/// part app-wide (`yui_core::presets::save_split`).
pub(crate) fn main_dirs(app: &AppHandle) -> Result<(yui_core::DataDir, yui_core::DataDir), CommandError> {
    let root = app.state::<Background>().data_dir()?;
    let own = app.state::<crate::company::Company>().dir_of(WindowId::Pet).unwrap_or_else(|| root.clone());
    Ok((root, own))
}

/// Where the key is kept, or would be kept if saved now.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn key_place(app: AppHandle, window: WebviewWindow) -> Result<KeyPlace, CommandError> {
    settings_only(&window)?;
    let (_, own) = main_dirs(&app)?;
    blocking(move || Ok(own.key_store().place())).await
}

/// Test the connection `settings` describe (the form's values, unsaved).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn test_connection(window: WebviewWindow, settings: Settings) -> Result<ProbeReport, CommandError> {
    settings_only(&window)?;
    Ok(yui_core::probe::probe(&settings).await)
}

/// Validate and save `settings`; restart the pet's session when the
/// transport changed and reload its character when that changed.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn save_settings(app: AppHandle, window: WebviewWindow, mut settings: Settings) -> Result<(), CommandError> {
    settings_only(&window)?;
    settings.validate()?;
    // The mic toggle is the pet's (set_mic): a form loaded earlier keeps it as saved now.
    let (_, own) = main_dirs(&app)?;
    settings.character.voice.mic_enabled =
        blocking(move || own.load_settings_without_key()).await.map(|s| s.character.voice.mic_enabled).unwrap_or(settings.character.voice.mic_enabled);
    apply(&app, settings).await
}

/// Save `next` and make the app follow it: a new pet session when the
/// transport changed, else the live session reads it (switches, the turn
/// screenshot, the voice) and listens or stops when the mic toggle changed;
/// the pet reloads its character when that changed.
pub(crate) async fn apply(app: &AppHandle, next: Settings) -> Result<(), CommandError> {
    let (root, own) = main_dirs(app)?;
    let saved = next.clone();
    let (change, mic_was, place) = blocking(move || {
        let old = load_joined(&root, &own).unwrap_or_default();
        let change = old.change_to(&next);
        let place = save_split(&root, &own, &next)?;
        Ok((change, old.character.voice.mic_enabled, place))
    })
    .await?;
    tracing::info!(record = "key_place", place = ?place);
    tracing::info!(record = "settings_saved", restart = change.restart_session, character = change.character_changed);
    if change.restart_session {
        restart_pet_session(app).await;
    } else {
        // The running session reads switches and the screenshot setting live.
        // A new session listens by itself when the toggle is on (startup.rs).
        let _ = app.state::<crate::window::Windows>().with_session(WindowId::Pet, |s| {
            s.update_settings(&saved);
            if saved.character.voice.mic_enabled != mic_was {
                s.listen(saved.character.voice.mic_enabled);
            }
            Ok(())
        });
    }
    if change.character_changed {
        announce_character(app);
    }
    crate::ingress::follow(app, &saved.user.ingress).await;
    crate::presence::follow_autostart_async(app, saved.user.start_at_login).await;
    Ok(())
}

/// Tell main's pet window to reload her character and clips.
fn announce_character(app: &AppHandle) {
    if let Ok((_, own)) = main_dirs(app) {
        crate::company::announce(app, WindowId::Pet, &own);
    }
}

/// The last client_context blocks the pet's session sent, oldest first (the
/// context inspector). Empty while the pet has no session.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn recent_contexts(window: tauri::WebviewWindow, windows: State<'_, crate::window::Windows>) -> Vec<yui_core::context_log::SentContext> {
    // Each pet window's own character; the settings window's: main's.
    let id = WindowId::from_label(window.label()).map_or(WindowId::Pet, WindowId::session);
    windows.with_session(id, |s| Ok(s.sent_contexts())).unwrap_or_default()
}

/// Every delegation this character has seen, newest first (the Session
/// section). Empty while the pet has no session.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn delegation_history(windows: State<'_, crate::window::Windows>) -> Vec<yui_core::DelegationItem> {
    windows.with_session(WindowId::Pet, |s| Ok(s.delegation_history())).unwrap_or_default()
}

/// The raw body of a file upload and its name from the `x-file-name` header.
fn upload(request: &Request<'_>) -> Result<(String, Vec<u8>), CommandError> {
    let name = request.headers().get("x-file-name").and_then(|v| v.to_str().ok()).unwrap_or("upload").to_string();
    match request.body() {
        InvokeBody::Raw(bytes) => Ok((name, bytes.clone())),
        InvokeBody::Json(_) => Err(CommandError::new(ErrorCode::Settings, "send the file as raw bytes")),
    }
}

/// What every upload command starts with: the caller must be the settings
/// window; answers main's folder, the file name and the bytes.
fn settings_upload(window: &WebviewWindow, app: &AppHandle, request: &Request<'_>) -> Result<(yui_core::DataDir, String, Vec<u8>), CommandError> {
    settings_only(window)?;
    let (name, bytes) = upload(request)?;
    Ok((main_dirs(app)?.1, name, bytes))
}

/// Import a user's `.vrm` (raw body, `x-file-name` header), make it the
/// character, and tell the pet to reload.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn import_character(
    app: AppHandle,
    window: WebviewWindow,
    background: State<'_, Background>,
    request: Request<'_>,
) -> Result<CharacterInfo, CommandError> {
    let (dir, name, bytes) = settings_upload(&window, &app, &request)?;
    let info = {
        let dir = dir.clone();
        blocking(move || character::import_vrm_bytes(&dir, Path::new(&name), &bytes).map_err(yui_core::CoreError::from)).await?
    };
    let root = background.data_dir()?;
    let mut settings = blocking(move || load_joined(&root, &dir)).await?;
    settings.character.vrm = info.path.as_ref().map(|p| p.to_string_lossy().to_string()).unwrap_or_default();
    apply(&app, settings).await?;
    Ok(info)
}

/// Go back to the bundled default character.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn use_default_character(app: AppHandle, window: WebviewWindow) -> Result<(), CommandError> {
    settings_only(&window)?;
    let (root, own) = main_dirs(&app)?;
    let mut settings = blocking(move || load_joined(&root, &own)).await?;
    settings.character.vrm.clear();
    apply(&app, settings).await
}

/// Import a `.vrma` clip (raw body, `x-file-name` header); answers its motion id.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn import_motion(app: AppHandle, window: WebviewWindow, request: Request<'_>) -> Result<String, CommandError> {
    let (dir, name, bytes) = settings_upload(&window, &app, &request)?;
    let id = blocking(move || character::import_motion_bytes(&dir, Path::new(&name), &bytes).map_err(yui_core::CoreError::from)).await?;
    announce_character(&app);
    Ok(id)
}

/// Import a Tavern Card V2 (`.json` or `.png`; raw body, `x-file-name`
/// header) as the current character's card, then restart the pet's session
/// so it is used. Answers the card's name.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn import_card(app: AppHandle, window: WebviewWindow, request: Request<'_>) -> Result<String, CommandError> {
    let (dir, name, bytes) = settings_upload(&window, &app, &request)?;
    let card = blocking(move || {
        let settings = dir.load_settings_without_key()?;
        Ok(card::import_into(&CardStore::new(&dir, &settings.character.vrm), &name, &bytes)?)
    })
    .await?;
    restart_pet_session(&app).await;
    Ok(card.name)
}

/// The name on the current character's card (the imported one, else the
/// default persona in the UI language).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn current_card_name(app: AppHandle, window: WebviewWindow) -> Result<String, CommandError> {
    settings_only(&window)?;
    let (root, own) = main_dirs(&app)?;
    blocking(move || {
        let vrm = own.load_settings_without_key()?.character.vrm;
        let language = root.load_settings_without_key()?.user.language;
        Ok(card::current(&CardStore::new(&own, &vrm), &language).name)
    })
    .await
}
