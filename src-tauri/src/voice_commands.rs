//! Voice commands: the pet page's lip channel and mic toggle, and the
//! settings window's device lists. Push-to-talk is in `shortcut.rs`. What
//! listening and speaking mean is the core's (`Session::listen`,
//! `push_to_talk`, the speaker); this forwards.

use crate::commands::{caller, CommandError};
use crate::settings_window::{apply, blocking, settings_only};
use crate::startup::lock;
use crate::window::{WindowId, Windows};
use tauri::ipc::Channel;
use tauri::{AppHandle, State, WebviewWindow};
use yui_core::ErrorCode;

/// The caller must be a pet window: its id.
fn pet_only(window: &WebviewWindow) -> Result<WindowId, CommandError> {
    match caller(window)? {
        id if id.is_pet() => Ok(id),
        _ => Err(CommandError::new(ErrorCode::Closed, "only a pet window speaks and listens")),
    }
}

/// Register the pet page's channel for mouth levels (0..1, about 30 a
/// second while real sound plays, 0 when it ends or is cut). The page calls
/// it once; a new call replaces the old channel. It lives with the window,
/// across session restarts.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn lip_channel(window: WebviewWindow, windows: State<'_, Windows>, channel: Channel<f32>) -> Result<(), CommandError> {
    let id = pet_only(&window)?;
    let slot = windows.lip_slot(id).ok_or_else(|| CommandError::new(ErrorCode::Closed, "the pet window has no state"))?;
    *lock(&slot) = Some(channel);
    Ok(())
}

/// Whether the mic toggle is on (the saved `voice.mic_enabled`). The page
/// asks once at startup; voice input's current state is emitted again then,
/// so its pill shows what the microphone does already.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn mic_enabled(app: AppHandle, window: WebviewWindow) -> Result<bool, CommandError> {
    // One microphone on the desktop: it listens for main (`docs/characters.md`).
    if pet_only(&window)? != WindowId::Pet {
        return Ok(false);
    }
    let own = crate::settings_target::Target::main(&app)?.own;
    let on = blocking(move || Ok(own.load_settings_without_key()?.character.voice.mic_enabled)).await?;
    let _ = tauri::Manager::state::<Windows>(&app).with_session(WindowId::Pet, |s| {
        s.repeat_voice_state();
        Ok(())
    });
    Ok(on)
}

/// The mic toggle: listen (or stop) now and save `voice.mic_enabled`.
///
/// Errors: the pet has no session, or the settings could not be saved.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn set_mic(app: AppHandle, window: WebviewWindow, on: bool) -> Result<(), CommandError> {
    if pet_only(&window)? != WindowId::Pet {
        return Err(CommandError::new(ErrorCode::Unsupported, "the microphone listens for main; make this character main to talk to her"));
    }
    let target = crate::settings_target::Target::main(&app)?;
    let (root, own) = (target.root.clone(), target.own.clone());
    let mut settings = blocking(move || yui_core::presets::load_joined(&root, &own)).await?;
    settings.character.voice.mic_enabled = on;
    // Saving follows a changed toggle with `listen` (settings_window::apply).
    apply(&app, &target, settings).await
}

/// The sound output devices' names, for the settings' list.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn list_output_devices(window: WebviewWindow) -> Result<Vec<String>, CommandError> {
    settings_only(&window)?;
    blocking(|| Ok(yui_core::speech::audio::output_devices())).await
}

/// The microphones' names (the default first), for the settings' list.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn list_input_devices(window: WebviewWindow) -> Result<Vec<String>, CommandError> {
    settings_only(&window)?;
    blocking(|| Ok(yui_core::speech::listen::input_devices())).await
}
