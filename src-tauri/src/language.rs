//! The interface's language (`docs/i18n.md`): what every page reads when it
//! loads, and the one event that switches every page, the tray, the window
//! titles and the demo's background remarks at once when the user picks
//! another.

use crate::commands::CommandError;
use crate::settings_window::blocking;
use serde::Serialize;
use tauri::AppHandle;

/// The event that switches every page to another language
/// (`shell_events.rs` names it).
#[derive(Clone, Serialize, ts_rs::TS)]
pub struct UiLanguage {
    /// `en`, `ja` or `ko`.
    pub language: String,
}

/// The UI language now (English when the settings cannot be read).
pub fn current(app: &AppHandle) -> String {
    tauri::Manager::state::<crate::startup::Background>(app)
        .data_dir()
        .and_then(|root| root.load_settings_without_key().map_err(CommandError::from))
        .map(|settings| yui_i18n::supported(&settings.user.language).to_string())
        .unwrap_or_else(|_| yui_i18n::FALLBACK.to_string())
}

/// The UI language now: each page reads it when it loads.
///
/// Errors: none (English when the settings cannot be read).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn ui_language(app: AppHandle) -> Result<String, CommandError> {
    blocking(move || Ok(current(&app))).await
}

/// The user picked `language`: every page, the tray and the window titles
/// speak it from now on.
pub fn announce(app: &AppHandle, language: &str) {
    let language = yui_i18n::supported(language);
    tracing::info!(record = "language_changed", language);
    if let Err(e) = crate::shell_events::emit_filter(app, &UiLanguage { language: language.to_string() }, |_| true) {
        tracing::warn!(record = "language_event_failed", error = %e);
    }
    crate::tray::redraw_in(app, &crate::company::presets(app).unwrap_or_else(|_| yui_core::presets::Presets::single("YUI")), language);
    crate::window::retitle(app, language);
    // The demo's quiet remarks too (what she says to words, they tell).
    tauri::Manager::state::<crate::startup::Background>(app).demo_language.set(yui_demo::Lang::from_code(language));
}
