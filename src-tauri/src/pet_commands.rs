//! Commands the pet page invokes for its character, clips and click-through.

use crate::commands::{caller, CommandError};
use crate::company::Company;
use crate::startup::Background;
use tauri::ipc::Response;
use tauri::{State, WebviewWindow};
use yui_core::character;
use yui_core::ErrorCode;

/// The name of the character the calling window shows (the chat and
/// settings windows: main's).
///
/// Errors: the characters have not started yet (`closed`).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn character_name(window: WebviewWindow, company: State<'_, Company>) -> Result<String, CommandError> {
    company.name_of(caller(&window)?).ok_or_else(|| CommandError::new(ErrorCode::Closed, "the characters have not started yet"))
}

/// The bytes of the user's own character; an empty body means the bundled
/// default. A missing or damaged file falls back to the default (logged).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn character_file(window: WebviewWindow, background: State<'_, Background>, company: State<'_, Company>) -> Result<Response, CommandError> {
    let dir = company.dir_of(caller(&window)?).map_or_else(|| background.data_dir(), Ok)?;
    let settings = dir.load_settings_without_key()?;
    let bytes = character::current(&dir, &settings.character.vrm).map(|(_, b)| b).unwrap_or_default();
    Ok(Response::new(bytes))
}

/// The bytes of the user's `.vrma` clip `id`.
///
/// Errors: `settings` when there is no such clip.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn motion_file(window: WebviewWindow, background: State<'_, Background>, company: State<'_, Company>, id: String) -> Result<Response, CommandError> {
    let dir = company.dir_of(caller(&window)?).map_or_else(|| background.data_dir(), Ok)?;
    character::motion_bytes(&dir, &id).map(Response::new).ok_or_else(|| CommandError::new(ErrorCode::Settings, format!("no motion clip named {id:?}")))
}

/// The motion ids of the user's clips.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn user_motions(window: WebviewWindow, background: State<'_, Background>, company: State<'_, Company>) -> Result<Vec<String>, CommandError> {
    let dir = company.dir_of(caller(&window)?).map_or_else(|| background.data_dir(), Ok)?;
    Ok(character::user_motions(&dir))
}

/// Let the mouse through the calling pet window (`ignore`), or take it again.
/// The page decides from its rendered alpha; this only applies it.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn set_click_through(window: WebviewWindow, ignore: bool) -> Result<(), CommandError> {
    if !caller(&window)?.is_pet() {
        return Err(CommandError::new(ErrorCode::Closed, "only the pet window lets clicks through"));
    }
    window.set_ignore_cursor_events(ignore).map_err(|e| CommandError::new(ErrorCode::Unsupported, format!("click-through: {e}")))
}

/// Make the calling pet window's input region `rects` (CSS pixels; the
/// shape the page draws), or the whole window again (`None`). The page
/// sends it where the desktop check says click-through goes by shape
/// (native Wayland). Errors: `settings` for more rectangles than the core
/// takes.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn set_input_shape(window: WebviewWindow, rects: Option<Vec<yui_core::world::stage::InputRect>>) -> Result<(), CommandError> {
    if !caller(&window)?.is_pet() {
        return Err(CommandError::new(ErrorCode::Closed, "only the pet window has an input shape"));
    }
    let size = window.inner_size().map_err(|e| CommandError::new(ErrorCode::Unsupported, format!("input shape: {e}")))?;
    let scale = window.scale_factor().unwrap_or(1.0).max(0.1);
    let (width, height) = ((size.width as f64 / scale).round() as i32, (size.height as f64 / scale).round() as i32);
    let region = match rects {
        Some(rects) => Some(yui_core::world::stage::input_region(&rects, width, height).map_err(|e| CommandError::new(ErrorCode::Settings, e))?),
        None => None,
    };
    crate::layer::set_input_shape(&window, region);
    Ok(())
}

/// Whether the page sends its drawn shape as the input region
/// ([`set_input_shape`]) instead of switching click-through by the pointer.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn input_by_shape() -> bool {
    yui_core::world::stage::input_by_shape()
}

/// The user pressed into the pet's composer (`on`) or is done with it: on
/// the layer-shell path the pet takes the keyboard only meanwhile.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn set_pet_keyboard(window: WebviewWindow, on: bool) -> Result<(), CommandError> {
    if !caller(&window)?.is_pet() {
        return Err(CommandError::new(ErrorCode::Closed, "only the pet window asks for the keyboard"));
    }
    crate::layer::set_keyboard(&window, on);
    Ok(())
}
