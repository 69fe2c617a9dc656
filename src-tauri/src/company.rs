//! The open characters on the desktop (`docs/characters.md`): which
//! character lives in which pet window. Who is open, who is main, what
//! each one runs with and where she first stands are the core's
//! (`yui_core::presets`, `body::plan::home_beside`); this opens and
//! closes the windows and remembers, for the page's commands, whose files
//! each window shows.

use crate::commands::CommandError;
use crate::startup::lock;
use crate::window::{WindowId, WindowState, Windows};
use std::sync::{Mutex, OnceLock};
use std::thread::ThreadId;
use tauri::{AppHandle, Manager, State, WebviewUrl, WebviewWindow, WebviewWindowBuilder};
use yui_core::cast::{Cast, Route};
use yui_core::presets::{ChangeError, PresetChange, Presets};
use yui_core::session::handle::{deliver, DeliveryWaits, SessionHandle};
use yui_core::{DataDir, ErrorCode, UserCommand};

/// One open character: her pet window, her name, her files.
#[derive(Debug, Clone)]
pub struct Member {
    /// Her pet window (main's is [`WindowId::Pet`]).
    pub window: WindowId,
    /// Her name: the preset's among several characters, her card's alone.
    pub name: String,
    /// Her data directory (the installation's own for the root preset).
    pub dir: DataDir,
}

/// The open characters, main first. Empty until the first cast starts;
/// one member when the user keeps one character.
#[derive(Default)]
pub struct Company {
    members: Mutex<Vec<Member>>,
    /// Each member's way into her session (`None` until it started, or
    /// when it failed to), in the members' order.
    handles: Mutex<Vec<Option<SessionHandle>>>,
    /// Held while one change of the registry is made and the characters
    /// start again: two at once would each save over the other.
    changing: tokio::sync::Mutex<()>,
}

impl Company {
    /// The data directory of the character window `id` shows (the chat and
    /// settings windows show main's); `None` before the cast started.
    pub fn dir_of(&self, id: WindowId) -> Option<DataDir> {
        let id = id.session();
        lock(&self.members).iter().find(|m| m.window == id).map(|m| m.dir.clone())
    }

    /// The name of the character window `id` shows (the chat and settings
    /// windows show main's); `None` before the cast started.
    pub fn name_of(&self, id: WindowId) -> Option<String> {
        let id = id.session();
        lock(&self.members).iter().find(|m| m.window == id).map(|m| m.name.clone())
    }

    /// The window of the open character named `name` (names compare
    /// case-insensitively, as the cast's do).
    ///
    /// Errors: `unknown_character` when no open character has that name.
    pub fn window_named(&self, name: &str) -> Result<WindowId, CommandError> {
        lock(&self.members)
            .iter()
            .find(|m| yui_core::cast::same_name(&m.name, name))
            .map(|m| m.window)
            .ok_or_else(|| CommandError::new(ErrorCode::UnknownCharacter, format!("no open character is named {name}")))
    }

    /// The open characters now, main first.
    pub fn members(&self) -> Vec<Member> {
        lock(&self.members).clone()
    }

    /// The cast changed: these are the open characters now (their sessions
    /// not started yet).
    pub fn set(&self, members: Vec<Member>) {
        *lock(&self.handles) = vec![None; members.len()];
        *lock(&self.members) = members;
    }

    /// The session of the character in window `id` started.
    pub fn started(&self, id: WindowId, handle: SessionHandle) {
        let Some(i) = lock(&self.members).iter().position(|m| m.window == id) else { return };
        if let Some(slot) = lock(&self.handles).get_mut(i) {
            *slot = Some(handle);
        }
    }

    /// Main's way into her session, once it started.
    pub fn main_handle(&self) -> Option<SessionHandle> {
        lock(&self.handles).first().cloned().flatten()
    }

    /// Every open character's session, main first; `closed` when one has
    /// none (it is starting, or failed to start).
    fn handles(&self) -> Result<Vec<SessionHandle>, CommandError> {
        let names: Vec<String> = lock(&self.members).iter().map(|m| m.name.clone()).collect();
        lock(&self.handles)
            .iter()
            .zip(names)
            .map(|(h, name)| h.clone().ok_or_else(|| CommandError::new(ErrorCode::Closed, format!("{name} has no session now"))))
            .collect()
    }
}

/// The app's main thread (GTK's), noted in setup.
static MAIN_THREAD: OnceLock<ThreadId> = OnceLock::new();

/// Note that this is the main thread (setup runs there).
pub fn note_main_thread() {
    let _ = MAIN_THREAD.set(std::thread::current().id());
}

/// Run `f` on the main thread and wait for it: at once when this is the
/// main thread (setup starts the first sessions there, blocking it), else
/// through the event loop. `None` when the event loop is gone.
async fn on_main<T: Send + 'static>(app: &AppHandle, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    if MAIN_THREAD.get() == Some(&std::thread::current().id()) {
        return Some(f());
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.run_on_main_thread(move || {
        let _ = tx.send(f());
    })
    .ok()?;
    rx.await.ok()
}

/// The pet window's size (logical pixels), as `tauri.conf.json` gives main's.
const PET_SIZE: (f64, f64) = (360.0, 520.0);

/// Open the pet window `id` beside main's for the character `name`, unless
/// it is open: made like main's (transparent, undecorated, on top, hidden
/// until a layer-shell surface is made of it).
pub async fn open_beside(app: &AppHandle, id: WindowId, name: &str) -> Result<WebviewWindow, CommandError> {
    if let Some(window) = app.get_webview_window(id.label()) {
        let _ = window.set_title(name);
        return Ok(window);
    }
    // Her state first: the page may ask for its lip channel as soon as it loads.
    let tasks = tokio_util::sync::CancellationToken::new();
    app.state::<Windows>().insert(id, WindowState::with_tasks(Err(CommandError::new(ErrorCode::Closed, "starting")), tasks.clone()));
    let built = WebviewWindowBuilder::new(app, id.label(), WebviewUrl::App("index.html".into()))
        .title(name)
        .inner_size(PET_SIZE.0, PET_SIZE.1)
        .transparent(true)
        .decorations(false)
        .always_on_top(true)
        .visible_on_all_workspaces(true)
        .focused(false)
        .visible(false)
        .skip_taskbar(true)
        .resizable(false)
        .shadow(false)
        .build();
    let window = match built {
        Ok(window) => window,
        Err(e) => {
            drop(app.state::<Windows>().remove(id));
            return Err(CommandError::new(ErrorCode::Unsupported, format!("the pet window of {name} could not open: {e}")));
        }
    };
    // A layer-shell surface is made on the main thread (GTK), before it maps.
    let (on_main_app, made) = (app.clone(), window.clone());
    let placed = on_main(app, move || {
        let layered = crate::layer::install(&made);
        crate::desk::track(&on_main_app, &made, id, layered);
    })
    .await;
    if placed.is_none() {
        tracing::warn!(record = "pet_window_untracked", window = id.label());
    }
    // Where she first stands is her session's (beside the others, or
    // where she stood last).
    tracing::info!(record = "pet_window_opened", window = id.label(), character = name);
    crate::cursor::watch(app.clone(), id, tasks);
    if let Err(e) = window.show() {
        tracing::error!(record = "pet_show_failed", window = id.label(), error = %e);
    }
    Ok(window)
}

/// Close the pet windows beside main's from place `from` on (the cast
/// has fewer characters now); their state goes with them.
pub fn close_beside_from(app: &AppHandle, from: usize) {
    for id in (from.max(1)..yui_core::limits::OPEN_CHARACTERS_MAX).filter_map(WindowId::of_cast) {
        if let Some(window) = app.get_webview_window(id.label()) {
            tracing::info!(record = "pet_window_closed", window = id.label());
            let _ = window.destroy();
        }
    }
}

/// Run `f` where it may block (file and keychain reads).
async fn off_thread<T: Send + 'static>(f: impl FnOnce() -> Result<T, CommandError> + Send + 'static) -> Result<T, CommandError> {
    tauri::async_runtime::spawn_blocking(f).await.map_err(|e| CommandError::new(ErrorCode::Storage, format!("the characters could not be read: {e}")))?
}

/// The registry of presets now (one character, named by her card, when
/// there is no registry yet). Blocking: it reads the settings.
pub fn presets(app: &AppHandle) -> Result<Presets, CommandError> {
    Ok(Presets::read(&app.state::<crate::startup::Background>().data_dir()?)?)
}

/// Make `change` (the settings' Characters section or the tray), save it,
/// start the characters again when the open ones changed and redraw the
/// tray; the registry after it.
///
/// Errors: `settings` for a refused change (nothing is saved then),
/// `storage` when the files could not be written.
pub async fn change(app: &AppHandle, change: PresetChange) -> Result<Presets, CommandError> {
    let company = app.state::<Company>();
    let _one_at_a_time = company.changing.lock().await;
    let applied = change.clone();
    let (now, ()) = remake(app, format!("{change:?}"), move |presets, dir| presets.apply(dir, &applied)).await?;
    // A removed character's files and key go once her session has ended.
    if let PresetChange::Remove { name } = &change {
        let (registry, name, app) = (now.clone(), name.clone(), app.clone());
        let deleted = off_thread(move || {
            let dir = app.state::<crate::startup::Background>().data_dir()?;
            Ok(registry.delete_files(&dir, &name)?)
        })
        .await;
        if let Err(e) = deleted {
            tracing::warn!(record = "preset_files_not_deleted", error = %e.message);
        }
    }
    Ok(now)
}

/// Add a closed preset made from a Tavern card (`file_name`'s `bytes`),
/// named by it (`Presets::add_from_card`); the registry after it and her name.
///
/// Errors: `settings` when the file is not a card; `storage` when the files
/// could not be written.
pub async fn add_from_card(app: &AppHandle, file_name: String, bytes: Vec<u8>) -> Result<(Presets, String), CommandError> {
    let company = app.state::<Company>();
    let _one_at_a_time = company.changing.lock().await;
    remake(app, format!("AddFromCard({file_name})"), move |presets, dir| presets.add_from_card(dir, &file_name, &bytes)).await
}

/// Make one change of the registry with `make` and save it (the caller
/// holds `changing`), then start the characters again when the open ones
/// changed (adding or removing a closed one leaves the desktop as it is)
/// and redraw the tray. The registry after it and what `make` answered.
async fn remake<T: Send + 'static>(
    app: &AppHandle,
    what: String,
    make: impl FnOnce(&mut Presets, &DataDir) -> Result<T, ChangeError> + Send + 'static,
) -> Result<(Presets, T), CommandError> {
    let worker = app.clone();
    let made = off_thread(move || {
        let mut presets = presets(&worker)?;
        let before = presets.cast().names().to_vec();
        let dir = worker.state::<crate::startup::Background>().data_dir()?;
        let out = make(&mut presets, &dir).map_err(|e| match e {
            ChangeError::Refused(refused) => CommandError::new(ErrorCode::Settings, refused.to_string()),
            ChangeError::Card(card) => CommandError::new(ErrorCode::Settings, card.to_string()),
            ChangeError::Storage(storage) => CommandError::from(storage),
        })?;
        Ok((before, presets, out))
    })
    .await;
    match made {
        Ok((before, now, out)) => {
            let open = now.cast().names().to_vec();
            tracing::info!(record = "characters_changed", change = %what, open = ?open);
            if open != before {
                crate::startup::restart_pet_session(app).await;
            }
            crate::tray::redraw(app, &now);
            Ok((now, out))
        }
        Err(e) => {
            tracing::warn!(record = "characters_change_refused", change = %what, error = %e.message);
            Err(e)
        }
    }
}

/// The registry of presets (the settings' Characters section).
///
/// Errors: not the settings window; the settings cannot be read.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn list_characters(app: AppHandle, window: WebviewWindow) -> Result<Presets, CommandError> {
    crate::settings_window::settings_only(&window)?;
    off_thread(move || presets(&app)).await
}

/// Make one change to the presets (add, open, close, make main, remove:
/// the window asked before a removal), then start the characters again.
/// The registry after it.
///
/// Errors: not the settings window; `settings` for a refused change;
/// `storage` when the files could not be written.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn change_characters(app: AppHandle, window: WebviewWindow, change: PresetChange) -> Result<Presets, CommandError> {
    crate::settings_window::settings_only(&window)?;
    self::change(&app, change).await
}

/// The open characters' names, main first (the chat window's `@` completion).
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn character_names(company: State<'_, Company>) -> Vec<String> {
    company.members().into_iter().map(|m| m.name).collect()
}

/// One line of the chat window's composer to the open characters
/// (`docs/characters.md`, "Where a line goes"): `@Name text` to her,
/// `@everyone text` to each in registry order one after another (this
/// returns once the first is sent), a plain line to main.
///
/// Errors: `unknown_character` for an `@Name` no open character has
/// (nothing is sent); `closed` when a character has no session now.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn send_to_characters(company: State<'_, Company>, text: String) -> Result<(), CommandError> {
    let members = company.members();
    let names: Vec<String> = members.iter().map(|m| m.name.clone()).collect();
    let route = match names.len() {
        0 | 1 => Route::Main { text },
        _ => {
            let cast = Cast::new(&names).map_err(|e| CommandError::new(ErrorCode::Settings, e.to_string()))?;
            cast.route(&text).map_err(|refused| CommandError::new(ErrorCode::UnknownCharacter, refused.to_string()))?
        }
    };
    let handles = company.handles()?;
    let timeouts = yui_core::Timeouts::default();
    let waits = DeliveryWaits { ready: timeouts.hello_reply_wait + timeouts.reconnect_first, turn: yui_core::limits::EVERYONE_TURN_WAIT };
    if matches!(route, Route::Everyone { .. }) {
        // Each later one's turn goes when the one before has spoken.
        tauri::async_runtime::spawn(async move {
            if let Err(e) = deliver(route, &handles, waits).await {
                tracing::warn!(record = "everyone_cut_short", error = %e);
            }
        });
        return Ok(());
    }
    deliver(route, &handles, waits).await.map_err(CommandError::from)
}

/// The chat window's Stop: every open character stops (a stop in a pet
/// window stops only her).
///
/// Errors: none; a character without a session has nothing to stop.
#[tauri::command]
#[yui_shell_macros::page_args]
pub fn stop_characters(company: State<'_, Company>) {
    for handle in lock(&company.handles).iter().flatten() {
        let _ = handle.send(UserCommand::Stop);
    }
}

/// Tell pet window `id` that it shows another character now (the cast
/// moved): her `.vrm`, clips and name from `dir`.
pub fn announce(app: &AppHandle, id: WindowId, dir: &DataDir) {
    let settings = dir.load_settings_without_key().unwrap_or_default();
    let event = yui_core::UiEvent::CharacterChanged {
        character: yui_core::character::current(dir, &settings.character.vrm).map(|(info, _)| info),
        motions: yui_core::character::user_motions(dir),
    };
    crate::sink::window_sink(app.clone(), id).emit(event);
}
