//! The commands the page invokes. Each finds the calling window's session and
//! forwards to it; none decides anything.

use crate::window::{WindowId, Windows};
use serde::Serialize;
use tauri::{State, WebviewWindow};
use yui_core::{CoreError, ErrorCode, Status, UiEvent, UserCommand};

/// What a failed command returns to the page: `{ code, message }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CommandError {
    /// The code the page switches on.
    pub code: ErrorCode,
    /// One line for a person.
    pub message: String,
}

impl CommandError {
    /// An error with `code` and `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into() }
    }
}

impl From<CoreError> for CommandError {
    fn from(e: CoreError) -> Self {
        Self::new(e.code(), e.to_string())
    }
}

/// The calling window's id; an unknown label has no session.
pub fn caller(window: &WebviewWindow) -> Result<WindowId, CommandError> {
    WindowId::from_label(window.label()).ok_or_else(|| CommandError::new(ErrorCode::Closed, format!("window {} has no session", window.label())))
}

/// Hand a user action to the calling window's session.
///
/// Errors: the window has no session, its session failed to start, or the
/// session has ended (`closed`).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn send_command(window: WebviewWindow, windows: State<'_, Windows>, command: UserCommand) -> Result<(), CommandError> {
    windows.with_session(caller(&window)?.session(), |session| session.send(command))
}

/// The calling window's connection state now. The page asks on load, since
/// the first status events may have gone out before it listened.
///
/// Errors: as [`send_command`]; a failed startup returns its own error here,
/// so the page can show why it has no session.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn current_status(window: WebviewWindow, windows: State<'_, Windows>) -> Result<Status, CommandError> {
    windows.with_session(caller(&window)?.session(), |session| Ok(session.status().borrow().clone()))
}

/// The calling window's body now, as a `body` event: the page asks on
/// load, since the launch bed scene may have started before it listened.
///
/// Errors: as [`current_status`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn body_now(window: WebviewWindow, windows: State<'_, Windows>) -> Result<UiEvent, CommandError> {
    windows.with_session(caller(&window)?.session(), |session| Ok(session.body()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_serialize_as_code_and_message() {
        let e = CommandError::from(CoreError::Closed);
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json, serde_json::json!({ "code": "closed", "message": "the session has ended" }));
    }
}
