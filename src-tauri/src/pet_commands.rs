//! Commands the pet page invokes for its character, clips and click-through.

use crate::commands::{caller, CommandError};
use crate::startup::Background;
use crate::window::WindowId;
use tauri::ipc::Response;
use tauri::{State, WebviewWindow};
use yui_core::character;
use yui_core::ErrorCode;

/// The bytes of the user's own character; an empty body means the bundled
/// default. A missing or damaged file falls back to the default (logged).
#[tauri::command]
pub fn character_file(background: State<'_, Background>) -> Result<Response, CommandError> {
    let dir = background.data_dir()?;
    let settings = dir.load_settings_without_key()?;
    let bytes = character::current(&dir, &settings.character)
        .map(|(_, b)| b)
        .unwrap_or_default();
    Ok(Response::new(bytes))
}

/// The bytes of the user's `.vrma` clip `id`.
///
/// Errors: `settings` when there is no such clip.
#[tauri::command]
pub fn motion_file(
    background: State<'_, Background>,
    id: String,
) -> Result<Response, CommandError> {
    let dir = background.data_dir()?;
    character::motion_bytes(&dir, &id)
        .map(Response::new)
        .ok_or_else(|| {
            CommandError::new(ErrorCode::Settings, format!("no motion clip named {id:?}"))
        })
}

/// The motion ids of the user's clips.
#[tauri::command]
pub fn user_motions(background: State<'_, Background>) -> Result<Vec<String>, CommandError> {
    Ok(character::user_motions(&background.data_dir()?))
}

/// Let the mouse through the calling pet window (`ignore`), or take it again.
/// The page decides from its rendered alpha; this only applies it.
#[tauri::command]
pub fn set_click_through(window: WebviewWindow, ignore: bool) -> Result<(), CommandError> {
    if caller(&window)? != WindowId::Pet {
        return Err(CommandError::new(
            ErrorCode::Closed,
            "only the pet window lets clicks through",
        ));
    }
    window
        .set_ignore_cursor_events(ignore)
        .map_err(|e| CommandError::new(ErrorCode::Unsupported, format!("click-through: {e}")))
}
