//! The settings window and its commands: read and save settings (the key
//! through the core's key store), test a connection, import a character, a
//! clip or a card, for main or the preset picked at the top
//! (`settings_target.rs`). What a change means is decided by the core
//! (`Settings::change_to`, `probe`, `card::import_into`); this applies it.
//! Every call that may block (files, the OS keychain) runs in
//! `spawn_blocking`.

use crate::commands::{caller, CommandError};
use crate::settings_target::Target;
use crate::startup::{restart_pet_session, Background};
use crate::window::WindowId;
use std::path::Path;
use tauri::ipc::{InvokeBody, Request};
use tauri::{AppHandle, Manager, State, WebviewWindow};
use yui_core::card::{self, CardStore};
use yui_core::character::{self, CharacterInfo};
use yui_core::keystore::KeyPlace;
use yui_core::presets::{load_joined, save_split};
use yui_core::probe::ProbeReport;
use yui_core::{CoreError, ErrorCode, Settings};

/// Open the settings window, or bring it to the front.
pub fn open(app: &AppHandle) {
    // A new window edits main's settings first.
    if app.get_webview_window(WindowId::Settings.label()).is_none() {
        app.state::<crate::settings_target::Editing>().reset();
    }
    WindowId::Settings.show_or_open(app, crate::window::PageWindow { page: "settings.html", size: (560.0, 760.0) });
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
    let Target { root, own, .. } = Target::edited(&app).await?;
    blocking(move || load_joined(&root, &own)).await
}

/// Where the key is kept, or would be kept if saved now.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn key_place(app: AppHandle, window: WebviewWindow) -> Result<KeyPlace, CommandError> {
    settings_only(&window)?;
    let own = Target::edited(&app).await?.own;
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
    let target = Target::edited(&app).await?;
    // The mic toggle is the pet's (set_mic): a form loaded earlier keeps it as saved now.
    let own = target.own.clone();
    settings.character.voice.mic_enabled =
        blocking(move || own.load_settings_without_key()).await.map(|s| s.character.voice.mic_enabled).unwrap_or(settings.character.voice.mic_enabled);
    apply(&app, &target, settings).await
}

/// Held while one save is made and followed: saves from the settings, the
/// welcome and the pet's toggles run one at a time, so the last one saved is
/// the last one announced.
#[derive(Default)]
pub struct SaveLock(tokio::sync::Mutex<()>);

/// Save `next` as `target`'s and make the app follow it: a new UI language
/// is announced first (every window, the tray); the characters start again
/// when the transport changed, else her live session (while she is open)
/// reads it (switches, the turn screenshot, the voice) and main's listens
/// or stops when the mic toggle changed (and listens again on another
/// microphone); her pet window reloads her character when that changed.
pub(crate) async fn apply(app: &AppHandle, target: &Target, next: Settings) -> Result<(), CommandError> {
    let lock = app.state::<SaveLock>();
    let _one_at_a_time = lock.0.lock().await;
    let Target { root, own, window } = target.clone();
    let saved = next.clone();
    let (change, old_voice, language_was, place) = blocking(move || {
        let old = load_joined(&root, &own).unwrap_or_default();
        let change = old.change_to(&next);
        let place = save_split(&root, &own, &next)?;
        Ok((change, old.character.voice, old.user.language, place))
    })
    .await?;
    tracing::info!(record = "key_place", place = ?place);
    tracing::info!(record = "settings_saved", restart = change.restart_session, character = change.character_changed);
    if saved.user.language != language_was {
        crate::language::announce(app, &saved.user.language);
    }
    let voice = &saved.character.voice;
    let mic_changed = voice.mic_enabled != old_voice.mic_enabled;
    let mic_moved = voice.mic_enabled && old_voice.mic_enabled && voice.mic_device.trim() != old_voice.mic_device.trim();
    if change.restart_session && window.is_some() {
        restart_pet_session(app).await;
    } else if let Some(id) = window {
        // The running session reads switches and the screenshot setting live.
        // A new session listens by itself when the toggle is on (startup.rs).
        let _ = app.state::<crate::window::Windows>().with_session(id, |s| {
            s.update_settings(&saved);
            if target.is_main() && mic_moved {
                s.listen(false);
                s.listen(true);
            } else if target.is_main() && mic_changed {
                s.listen(voice.mic_enabled);
            }
            Ok(())
        });
    }
    if change.character_changed {
        announce_character(app, target);
    }
    crate::ingress::follow(app, &saved.user.ingress).await;
    crate::presence::follow_autostart_async(app, saved.user.start_at_login).await;
    Ok(())
}

/// Tell `target`'s pet window (while she is open) to reload her character and clips.
fn announce_character(app: &AppHandle, target: &Target) {
    if let Some(id) = target.window {
        crate::company::announce(app, id, &target.own);
    }
}

/// The last client_context blocks the pet's session sent, oldest first (the
/// context inspector). Empty while the pet has no session.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn recent_contexts(app: AppHandle, window: tauri::WebviewWindow, windows: State<'_, crate::window::Windows>) -> Vec<yui_core::context_log::SentContext> {
    // Each pet window's own character; the settings window's: the one it edits.
    let id = match WindowId::from_label(window.label()) {
        Some(WindowId::Settings) => crate::settings_target::shown_window(&app),
        id => id.map_or(WindowId::Pet, WindowId::session),
    };
    windows.with_session(id, |s| Ok(s.sent_contexts())).unwrap_or_default()
}

/// Every delegation this character has seen, newest first (the Session
/// section). Empty while the pet has no session.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn delegation_history(app: AppHandle, windows: State<'_, crate::window::Windows>) -> Vec<yui_core::DelegationItem> {
    windows.with_session(crate::settings_target::shown_window(&app), |s| Ok(s.delegation_history())).unwrap_or_default()
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
/// window; answers the edited character, the file name and the bytes.
async fn settings_upload(window: &WebviewWindow, app: &AppHandle, request: &Request<'_>) -> Result<(Target, String, Vec<u8>), CommandError> {
    settings_only(window)?;
    let (name, bytes) = upload(request)?;
    Ok((Target::edited(app).await?, name, bytes))
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
    let (target, name, bytes) = settings_upload(&window, &app, &request).await?;
    let info = {
        let dir = target.own.clone();
        blocking(move || character::import_vrm_bytes(&dir, Path::new(&name), &bytes).map_err(yui_core::CoreError::from)).await?
    };
    let (root, own) = (background.data_dir()?, target.own.clone());
    let mut settings = blocking(move || load_joined(&root, &own)).await?;
    settings.character.vrm = info.path.as_ref().map(|p| p.to_string_lossy().to_string()).unwrap_or_default();
    apply(&app, &target, settings).await?;
    Ok(info)
}

/// Go back to the bundled default character.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn use_default_character(app: AppHandle, window: WebviewWindow) -> Result<(), CommandError> {
    settings_only(&window)?;
    let target = Target::edited(&app).await?;
    let (root, own) = (target.root.clone(), target.own.clone());
    let mut settings = blocking(move || load_joined(&root, &own)).await?;
    settings.character.vrm.clear();
    apply(&app, &target, settings).await
}

/// Import a `.vrma` clip (raw body, `x-file-name` header); answers its motion id.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn import_motion(app: AppHandle, window: WebviewWindow, request: Request<'_>) -> Result<String, CommandError> {
    let (target, name, bytes) = settings_upload(&window, &app, &request).await?;
    let dir = target.own.clone();
    let id = blocking(move || character::import_motion_bytes(&dir, Path::new(&name), &bytes).map_err(yui_core::CoreError::from)).await?;
    announce_character(&app, &target);
    Ok(id)
}

/// Import a Tavern Card V2 (`.json` or `.png`; raw body, `x-file-name`
/// header) as the current character's card, then restart the pet's session
/// so it is used. Answers the card's name.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn import_card(app: AppHandle, window: WebviewWindow, request: Request<'_>) -> Result<String, CommandError> {
    let (target, name, bytes) = settings_upload(&window, &app, &request).await?;
    let dir = target.own.clone();
    let card = blocking(move || {
        let settings = dir.load_settings_without_key()?;
        Ok(card::import_into(&CardStore::new(&dir, &settings.character.vrm), &name, &bytes)?)
    })
    .await?;
    // Her session takes the card when it starts: now, when she is open.
    if target.window.is_some() {
        restart_pet_session(&app).await;
    }
    Ok(card.name)
}

/// The name on the current character's card (the imported one, else the
/// default persona in the UI language).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn current_card_name(app: AppHandle, window: WebviewWindow) -> Result<String, CommandError> {
    settings_only(&window)?;
    let Target { root, own, .. } = Target::edited(&app).await?;
    blocking(move || {
        let vrm = own.load_settings_without_key()?.character.vrm;
        let language = root.load_settings_without_key()?.user.language;
        Ok(card::current(&CardStore::new(&own, &vrm), &language).name)
    })
    .await
}

/// Add a character made from a Tavern card (`.json` or `.png`; raw body,
/// `x-file-name` header), closed, named by the card; the registry after it.
/// The window edits her settings next (her connection is the demo agent's
/// until it is set).
///
/// Errors: not the settings window; `settings` when the file is not a card.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn add_character_from_card(app: AppHandle, window: WebviewWindow, request: Request<'_>) -> Result<yui_core::presets::Presets, CommandError> {
    settings_only(&window)?;
    let (file_name, bytes) = upload(&request)?;
    let (presets, _name) = crate::company::add_from_card(&app, file_name, bytes).await?;
    Ok(presets)
}
