//! The welcome's voice and microphone steps (`docs/welcome.md`): what can
//! speak here, a voice tried before it is kept, and the microphone turned
//! on. Both steps can be skipped; every choice stays in the settings' Voice
//! section. What speaks and whether it works are the core's
//! (`yui_core::voice_setup`); this saves the pick on main.

use crate::commands::CommandError;
use crate::settings_target::Target;
use crate::settings_window::{apply, blocking};
use crate::welcome::welcome_only;
use tauri::{AppHandle, WebviewWindow};
use yui_core::presets::load_joined;
use yui_core::voice_setup::{VoiceChoices, VoicePick, VoiceReport};

/// The system voice when there is one, and the speech servers running here.
///
/// Errors: not the welcome window.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn welcome_voices(window: WebviewWindow) -> Result<VoiceChoices, CommandError> {
    welcome_only(&window)?;
    Ok(yui_core::voice_setup::voice_choices().await)
}

/// Say the sample line with `pick` (on the sound device, unless `YUI_AUDIO`
/// says otherwise); when it was made and played, keep it as main's voice.
///
/// Errors: not the welcome window; the settings could not be read or saved.
/// A voice that does not work is no error: the report says why.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn welcome_try_voice(app: AppHandle, window: WebviewWindow, pick: VoicePick) -> Result<VoiceReport, CommandError> {
    welcome_only(&window)?;
    let target = Target::main(&app)?;
    let (root, own) = (target.root.clone(), target.own.clone());
    let mut settings = blocking(move || load_joined(&root, &own)).await?;
    pick.apply(&mut settings.character.voice);
    let output = crate::startup::audio_output(std::env::var(crate::startup::AUDIO_ENV).ok().as_deref());
    let report = yui_core::voice_setup::try_voice(&settings.character.voice, output, &settings.user.language).await;
    tracing::info!(record = "welcome_voice", system = pick.base_url.trim().is_empty(), problem = ?report.problem);
    if report.problem.is_none() {
        // Kept on the settings as they are now: the try took a while, and
        // the language, the connection or the mic may have been saved since.
        let (root, own) = (target.root.clone(), target.own.clone());
        let mut settings = blocking(move || load_joined(&root, &own)).await?;
        pick.apply(&mut settings.character.voice);
        apply(&app, &target, settings).await?;
    }
    Ok(report)
}

/// The microphones by name (the default first).
///
/// Errors: not the welcome window.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn welcome_microphones(window: WebviewWindow) -> Result<Vec<String>, CommandError> {
    welcome_only(&window)?;
    blocking(|| Ok(yui_core::speech::listen::input_devices())).await
}

/// Turn main's microphone on (listening on `device`, the default when
/// empty) or off, saved; she starts or stops listening at once.
///
/// Errors: not the welcome window; the settings could not be saved.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn welcome_microphone(app: AppHandle, window: WebviewWindow, on: bool, device: String) -> Result<(), CommandError> {
    welcome_only(&window)?;
    let target = Target::main(&app)?;
    let (root, own) = (target.root.clone(), target.own.clone());
    let mut settings = blocking(move || load_joined(&root, &own)).await?;
    settings.character.voice.mic_enabled = on;
    settings.character.voice.mic_device = device.trim().to_string();
    tracing::info!(record = "welcome_microphone", on);
    apply(&app, &target, settings).await
}
