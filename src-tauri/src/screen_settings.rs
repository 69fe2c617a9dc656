//! The "Screen & tools" commands: the displays the turn screenshot may show,
//! and the pet's relations (listed, and set by hand from the settings
//! window). The core decides what a value
//! means (`RelationStore::set_by_user`, `Session::update_settings`); this
//! only forwards.

use crate::commands::{caller, CommandError};
use crate::settings_window::settings_only;
use crate::window::{WindowId, Windows};
use tauri::{State, WebviewWindow};
use yui_core::picture::capture::{self, Display};
use yui_core::relations::RelationRecord;
use yui_core::ErrorCode;

/// The displays a turn screenshot can show, in the order `look` numbers them.
///
/// Errors: `unsupported` with the capture's own line when the displays
/// cannot be listed (no display server, no permission).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn list_displays(window: WebviewWindow) -> Result<Vec<Display>, CommandError> {
    settings_only(&window)?;
    match tauri::async_runtime::spawn_blocking(capture::displays).await {
        Ok(Ok(displays)) => Ok(displays),
        Ok(Err(e)) => Err(CommandError::new(ErrorCode::Unsupported, e.to_string())),
        Err(e) => Err(CommandError::new(ErrorCode::Unsupported, format!("listing the displays failed: {e}"))),
    }
}

/// The pet's relations now, `user` first. Empty while the pet has no session.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn list_relations(window: WebviewWindow, windows: State<'_, Windows>) -> Result<Vec<RelationRecord>, CommandError> {
    settings_only(&window)?;
    Ok(windows.with_session(WindowId::Pet, |s| Ok(s.relations().list())).unwrap_or_default())
}

/// Set the pet's relation toward `target` to `value` by hand (the core
/// clamps it to -10..=10). Answers the new record.
///
/// Errors: `settings` for an empty target; the pet's session's error when it
/// has none.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn set_relation(window: WebviewWindow, windows: State<'_, Windows>, target: String, value: i32) -> Result<RelationRecord, CommandError> {
    settings_only(&window)?;
    let target = target.trim().to_string();
    if target.is_empty() {
        return Err(CommandError::new(ErrorCode::Settings, "name whom the relation is toward"));
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    windows.with_session(WindowId::Pet, |s| Ok(s.relations().set_by_user(&target, value, now)))
}

/// Whether the calling window's session attaches the screen to each turn
/// now. The page asks on load: the first `screen_watch` event may have gone
/// out before it listened.
///
/// Errors: as `current_status`.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn screen_watched(window: WebviewWindow, windows: State<'_, Windows>) -> Result<bool, CommandError> {
    windows.with_session(caller(&window)?, |s| Ok(s.live_settings().read(|x| x.character.screenshot.enabled)))
}

#[cfg(test)]
mod tests {
    use yui_core::settings::{ScreenChoice, ScreenshotSettings};
    use yui_core::Settings;

    #[test]
    fn the_screen_and_tool_switches_keep_the_session() {
        let old = Settings::from(yui_core::settings::CharacterSettings { chat_base_url: "http://x".into(), ..Default::default() });
        let mut next = old.clone();
        next.character.screenshot =
            ScreenshotSettings { enabled: true, allow_requests: true, source: ScreenChoice::Window { app: "firefox".into(), title: String::new() } };
        next.character.browser = true;
        next.character.relations = false;
        let change = old.change_to(&next);
        assert!(!change.restart_session, "saving the switches must not restart the session");
        assert!(!change.character_changed);
    }
}
