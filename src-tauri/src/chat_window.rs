//! The chat window and its commands: the character's conversations read
//! from her session (the core keeps them), search across them, and the
//! chat settings. The window shares the pet's session: its typed messages,
//! stops and approvals go through [`crate::commands::send_command`].

use crate::commands::{caller, CommandError};
use crate::company::Company;
use crate::window::{PageWindow, WindowId, Windows};
use tauri::{AppHandle, State, WebviewWindow};
use yui_core::chat::{ChatPage, Conversation, ConversationSummary, SearchHit};
use yui_core::settings::ChatSettings;
use yui_core::UserCommand;

/// Open the chat window, or bring it to the front.
pub fn open(app: &AppHandle) {
    if WindowId::Chat.show_or_open(app, PageWindow { page: "chat.html", size: (760.0, 640.0) }) {
        tracing::info!(record = "chat_window_opened");
    }
}

/// Open the chat window (the pet's chat button).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn open_chat(app: AppHandle) {
    open(&app);
}

/// The character's conversations, newest change first. (The chat queries
/// are `async`: they read the history database off the main thread.)
///
/// Errors: the pet has no session (`closed`, or its startup error).
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn chat_conversations(window: WebviewWindow, windows: State<'_, Windows>) -> Result<Vec<ConversationSummary>, CommandError> {
    windows.with_session(caller(&window)?.session(), |s| Ok(s.conversations()))
}

/// Conversation `id` as the window opens it (its newest page, or the page
/// around message `at`), or the current one when `id` is null; null when
/// there is no such conversation.
///
/// Errors: as [`chat_conversations`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn chat_conversation(
    window: WebviewWindow,
    windows: State<'_, Windows>,
    id: Option<String>,
    at: Option<String>,
) -> Result<Option<Conversation>, CommandError> {
    windows.with_session(caller(&window)?.session(), |s| Ok(s.conversation(id.as_deref(), at.as_deref())))
}

/// The messages of conversation `id` right before message `before` or
/// right after message `after` (the window scrolled); null when there is
/// no such conversation.
///
/// Errors: as [`chat_conversations`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn chat_page(
    window: WebviewWindow,
    windows: State<'_, Windows>,
    id: String,
    before: Option<String>,
    after: Option<String>,
) -> Result<Option<ChatPage>, CommandError> {
    windows.with_session(caller(&window)?.session(), |s| Ok(s.chat_page(&id, before.as_deref(), after.as_deref())))
}

/// Messages of every conversation that contain `query`.
///
/// Errors: as [`chat_conversations`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn chat_search(window: WebviewWindow, windows: State<'_, Windows>, query: String) -> Result<Vec<SearchHit>, CommandError> {
    windows.with_session(caller(&window)?.session(), |s| Ok(s.search_chats(&query)))
}

/// Delete conversation `id` (the window asked the user first). The core
/// moves on to another conversation when it was the current one and sends
/// the current conversation as a `conversation` event.
///
/// Errors: as [`chat_conversations`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn chat_delete_conversation(window: WebviewWindow, windows: State<'_, Windows>, id: String) -> Result<(), CommandError> {
    windows.with_session(caller(&window)?.session(), |s| s.send(UserCommand::DeleteConversation { conversation_id: id }))
}

/// Delete every conversation (the window asked the user first); a fresh
/// empty one becomes current.
///
/// Errors: as [`chat_conversations`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn chat_delete_all_conversations(window: WebviewWindow, windows: State<'_, Windows>) -> Result<(), CommandError> {
    windows.with_session(caller(&window)?.session(), |s| s.send(UserCommand::DeleteAllConversations))
}

/// The chat window's settings as the session reads them now.
///
/// Errors: as [`chat_conversations`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn chat_settings(window: WebviewWindow, windows: State<'_, Windows>) -> Result<ChatSettings, CommandError> {
    windows.with_session(caller(&window)?.session(), |s| Ok(s.live_settings().read(|v| v.user.chat.clone())))
}

/// The session window of open character `character`, for the chat window
/// only (it shows every character; `docs/characters.md`).
fn member_window(window: &WebviewWindow, company: &Company, character: &str) -> Result<WindowId, CommandError> {
    if caller(window)? != WindowId::Chat {
        return Err(CommandError::new(yui_core::ErrorCode::Closed, "only the chat window reaches every character"));
    }
    company.window_named(character)
}

/// Open character `character`'s current conversation as the chat window
/// opens it (its newest page), for the one view of every character.
///
/// Errors: not the chat window, or she has no session (`closed`);
/// `unknown_character` when no open character has that name.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn character_conversation(
    window: WebviewWindow,
    windows: State<'_, Windows>,
    company: State<'_, Company>,
    character: String,
) -> Result<Option<Conversation>, CommandError> {
    let id = member_window(&window, &company, &character)?;
    windows.with_session(id, |s| Ok(s.conversation(None, None)))
}

/// The messages of open character `character`'s conversation `id` right
/// before message `before` or right after message `after`.
///
/// Errors: as [`character_conversation`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn character_page(
    window: WebviewWindow,
    windows: State<'_, Windows>,
    company: State<'_, Company>,
    character: String,
    id: String,
    before: Option<String>,
    after: Option<String>,
) -> Result<Option<ChatPage>, CommandError> {
    let session = member_window(&window, &company, &character)?;
    windows.with_session(session, |s| Ok(s.chat_page(&id, before.as_deref(), after.as_deref())))
}

/// Hand a user action on open character `character`'s messages to her
/// session (an approval, Regenerate, a version, Fork, Delete from the one
/// view of every character).
///
/// Errors: as [`character_conversation`].
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn character_command(
    window: WebviewWindow,
    windows: State<'_, Windows>,
    company: State<'_, Company>,
    character: String,
    command: UserCommand,
) -> Result<(), CommandError> {
    let id = member_window(&window, &company, &character)?;
    windows.with_session(id, |s| s.send(command))
}
