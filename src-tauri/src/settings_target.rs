//! Whose settings the settings window edits: main's, or another preset's
//! the user picked at the top of the window (`docs/characters.md`, "In the
//! app"). What belongs to the character is read from and saved to her
//! folder; what belongs to the user, app-wide (`yui_core::presets::
//! load_joined` / `save_split`). A preset that is not open is edited all
//! the same: her files are read when she next opens.

use crate::commands::CommandError;
use crate::company::Company;
use crate::settings_window::{blocking, settings_only};
use crate::startup::{lock, Background};
use crate::window::WindowId;
use std::sync::Mutex;
use tauri::{AppHandle, Manager, State, WebviewWindow};
use yui_core::presets::Presets;
use yui_core::DataDir;

/// The preset the settings window edits, by name; `None`: main. Forgotten
/// when the window opens anew.
#[derive(Default)]
pub struct Editing(Mutex<Option<String>>);

impl Editing {
    /// Edit main's settings from now on.
    pub fn reset(&self) {
        *lock(&self.0) = None;
    }

    fn name(&self) -> Option<String> {
        lock(&self.0).clone()
    }
}

/// Where the settings of one character live and who shows them.
#[derive(Debug, Clone)]
pub struct Target {
    /// The data directory (the user's part of the settings).
    pub root: DataDir,
    /// Her folder (the data directory itself for the root preset).
    pub own: DataDir,
    /// Her pet window while she is open; `None` when she is closed.
    pub window: Option<WindowId>,
}

impl Target {
    /// Main's: the mic, the pet's own toggles.
    pub fn main(app: &AppHandle) -> Result<Self, CommandError> {
        let root = app.state::<Background>().data_dir()?;
        let own = app.state::<Company>().dir_of(WindowId::Pet).unwrap_or_else(|| root.clone());
        Ok(Target { root, own, window: Some(WindowId::Pet) })
    }

    /// The character the settings window edits now: main's unless another
    /// preset was picked (one that was removed since reads as main again).
    pub async fn edited(app: &AppHandle) -> Result<Self, CommandError> {
        let editing = app.state::<Editing>();
        let Some(name) = editing.name() else { return Self::main(app) };
        let root = app.state::<Background>().data_dir()?;
        let dir = root.clone();
        let found = blocking(move || {
            let presets = Presets::read(&dir)?;
            let known = presets.presets.iter().any(|p| yui_core::cast::same_name(&p.name, &name));
            let main = yui_core::cast::same_name(&presets.main, &name);
            Ok(if known && !main { Some(presets.dir_of(&dir, &name)?) } else { None })
        })
        .await?;
        let Some(own) = found else {
            editing.reset();
            return Self::main(app);
        };
        let window = app.state::<Company>().members().into_iter().find(|m| m.dir == own).map(|m| m.window);
        Ok(Target { root, own, window })
    }

    /// True when this is main's (her window is the pet's).
    pub fn is_main(&self) -> bool {
        self.window == Some(WindowId::Pet)
    }
}

/// The session window whose context and delegations the settings window
/// shows: the edited character's while she is open, else main's.
pub fn shown_window(app: &AppHandle) -> WindowId {
    let Some(name) = app.state::<Editing>().name() else { return WindowId::Pet };
    app.state::<Company>().window_named(&name).unwrap_or(WindowId::Pet)
}

/// Edit the settings of preset `name` in the settings window from now on
/// (null: main's). Answers the name of the character edited now.
///
/// Errors: not the settings window; `unknown_character` when no preset has
/// that name; `storage` when the registry cannot be read.
#[tauri::command]
#[yui_shell_macros::page_args]
pub async fn edit_character(app: AppHandle, window: WebviewWindow, editing: State<'_, Editing>, name: Option<String>) -> Result<String, CommandError> {
    settings_only(&window)?;
    let root = app.state::<Background>().data_dir()?;
    let presets = blocking(move || Presets::read(&root)).await?;
    let Some(name) = name else {
        editing.reset();
        return Ok(presets.main);
    };
    let Some(entry) = presets.presets.iter().find(|p| yui_core::cast::same_name(&p.name, &name)) else {
        return Err(CommandError::new(yui_core::ErrorCode::UnknownCharacter, format!("no character is named {name}")));
    };
    let main = yui_core::cast::same_name(&presets.main, &entry.name);
    *lock(&editing.0) = (!main).then(|| entry.name.clone());
    tracing::info!(record = "settings_editing", character = %entry.name);
    Ok(entry.name.clone())
}
