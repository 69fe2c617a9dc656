//! The app's windows by typed id, and the state each one owns.

use crate::commands::CommandError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tauri::ipc::Channel;
use tauri::Manager;
use yui_core::{CoreError, ErrorCode, Session};

/// The app's windows, by role. Window labels come only from [`WindowId::label`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WindowId {
    /// The desktop pet of main: character, speech bubble, composer.
    Pet,
    /// The pet window of another open character (`docs/characters.md`):
    /// the same page as main's, with a session of its own.
    Beside(Slot),
    /// The settings window, opened from the tray.
    Settings,
    /// The chat window: the character's conversations, opened from the
    /// pet, the tray and a shortcut. It shares the pet's session.
    Chat,
    /// The character's browser window (`browser.rs`): external pages only,
    /// in no capability file, so its pages reach no app command.
    Browser,
    /// The welcome (`welcome.rs`): the first hour's connection to a model.
    /// It shares the pet's session.
    Welcome,
}

/// A place for a character's pet window beside main's: 1 up to one less
/// than [`OPEN_CHARACTERS_MAX`](yui_core::limits::OPEN_CHARACTERS_MAX).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot(u8);

/// The labels of the pet windows beside main's, by slot (index 0: slot 1).
const BESIDE_LABELS: [&str; 5] = ["pet-1", "pet-2", "pet-3", "pet-4", "pet-5"];
const _: () = assert!(BESIDE_LABELS.len() + 1 == yui_core::limits::OPEN_CHARACTERS_MAX, "a label for every open character but main");

impl Slot {
    /// Slot `n` (1-based), when there is one.
    pub fn new(n: usize) -> Option<Slot> {
        (1..=BESIDE_LABELS.len()).contains(&n).then_some(Slot(n as u8))
    }

    /// Every slot, in order.
    pub fn all() -> impl Iterator<Item = Slot> {
        (1..=BESIDE_LABELS.len()).map(|n| Slot(n as u8))
    }

    /// The slot's number, 1-based: the character's place in the cast.
    pub fn number(self) -> usize {
        self.0 as usize
    }
}

impl WindowId {
    /// Every window id.
    pub fn all() -> impl Iterator<Item = WindowId> {
        [WindowId::Pet, WindowId::Settings, WindowId::Browser, WindowId::Chat, WindowId::Welcome].into_iter().chain(Slot::all().map(WindowId::Beside))
    }

    /// The pet window of the character at `index` of the cast (0: main).
    pub fn of_cast(index: usize) -> Option<WindowId> {
        match index {
            0 => Some(WindowId::Pet),
            n => Slot::new(n).map(WindowId::Beside),
        }
    }

    /// The Tauri label (as in tauri.conf.json and the capabilities files).
    pub fn label(self) -> &'static str {
        match self {
            WindowId::Pet => "pet",
            WindowId::Beside(slot) => BESIDE_LABELS[slot.number() - 1],
            WindowId::Settings => "settings",
            WindowId::Browser => "browser",
            WindowId::Chat => "chat",
            WindowId::Welcome => "welcome",
        }
    }

    /// The catalog id (`yui_i18n`) of the window's title (a pet window
    /// beside main's is titled with her name instead).
    pub fn title(self) -> &'static str {
        match self {
            WindowId::Pet | WindowId::Beside(_) => "window-pet",
            WindowId::Settings => "window-settings",
            WindowId::Browser => "window-browser",
            WindowId::Chat => "window-chat",
            WindowId::Welcome => "window-welcome",
        }
    }

    /// Whether this is a character's pet window (main's or one beside it).
    pub fn is_pet(self) -> bool {
        matches!(self, WindowId::Pet | WindowId::Beside(_))
    }

    /// The window whose session this window's commands and events belong
    /// to: the chat and settings windows share the pet's (main's); each pet
    /// window has its own; the browser window has none of its own and gets
    /// no events.
    pub fn session(self) -> WindowId {
        match self {
            WindowId::Chat | WindowId::Settings | WindowId::Welcome => WindowId::Pet,
            other => other,
        }
    }

    /// The id of the window labelled `label`, if it is one of ours.
    pub fn from_label(label: &str) -> Option<WindowId> {
        Self::all().find(|id| id.label() == label)
    }
}

/// An ordinary app window (not a pet's): its page and size.
pub struct PageWindow {
    /// Its page in `ui/` (`chat.html`, …).
    pub page: &'static str,
    /// Its first size, logical pixels.
    pub size: (f64, f64),
}

impl WindowId {
    /// Bring window `self` to the front (shown, unminimized, focused) when
    /// it is open; else open it as `spec` says. True when it was opened now;
    /// a window that could not be made is logged as `<label>_window_failed`.
    pub fn show_or_open(self, app: &tauri::AppHandle, spec: PageWindow) -> bool {
        if let Some(w) = app.get_webview_window(self.label()) {
            let _ = w.unminimize();
            let _ = w.show();
            let _ = w.set_focus();
            return false;
        }
        let built = tauri::WebviewWindowBuilder::new(app, self.label(), tauri::WebviewUrl::App(spec.page.into()))
            .title(yui_i18n::words(&crate::language::current(app)).text(self.title()))
            .inner_size(spec.size.0, spec.size.1)
            .min_inner_size(360.0, 360.0)
            .resizable(true)
            .build();
        match built {
            Ok(_) => {
                tracing::info!(record = "window_opened", window = self.label());
                true
            }
            Err(e) => {
                tracing::warn!(record = "window_failed", window = self.label(), error = %e);
                false
            }
        }
    }
}

/// The page windows' titles again in `language` (the user picked it); a
/// pet window keeps her name.
pub fn retitle(app: &tauri::AppHandle, language: &str) {
    let words = yui_i18n::words(language);
    for id in WindowId::all().filter(|id| !id.is_pet()) {
        if let Some(w) = app.get_webview_window(id.label()) {
            let _ = w.set_title(&words.text(id.title()));
        }
    }
}

/// Where a window's mouth levels go: the channel its page registered
/// (`lip_channel`), or none yet. The session's lip callback reads it, so a
/// restarted session keeps the page's channel.
pub type LipSlot = Arc<Mutex<Option<Channel<f32>>>>;

/// What one window owns: its running session (or why it has none), its lip
/// channel, and its background tasks, cancelled when the state is dropped
/// with the window.
pub struct WindowState {
    session: Result<Session, CommandError>,
    lips: LipSlot,
    _tasks: Option<tokio_util::sync::DropGuard>,
}

impl WindowState {
    /// A window whose session is running, or which failed to start one.
    #[cfg(test)]
    pub fn new(session: Result<Session, CommandError>) -> Self {
        Self { session, lips: LipSlot::default(), _tasks: None }
    }

    /// The same, with background tasks that end when the window goes.
    pub fn with_tasks(session: Result<Session, CommandError>, tasks: tokio_util::sync::CancellationToken) -> Self {
        Self { session, lips: LipSlot::default(), _tasks: Some(tasks.drop_guard()) }
    }
}

/// Every open window's state. An entry is removed when its window is
/// destroyed; dropping it drops the [`Session`], which cancels its task.
#[derive(Default)]
pub struct Windows {
    map: Mutex<HashMap<WindowId, WindowState>>,
}

impl Windows {
    /// Record `state` for window `id`, replacing (and so closing) an older one.
    pub fn insert(&self, id: WindowId, state: WindowState) {
        let old = self.lock().insert(id, state);
        drop(old);
    }

    /// Replace window `id`'s session, keeping its tasks. The old session is
    /// dropped (and so cancelled) outside the lock. False when `id` has no state.
    pub fn replace_session(&self, id: WindowId, session: Result<Session, CommandError>) -> bool {
        let old = {
            let mut map = self.lock();
            match map.get_mut(&id) {
                Some(state) => Some(std::mem::replace(&mut state.session, session)),
                None => None,
            }
        };
        let found = old.is_some();
        drop(old);
        found
    }

    /// Window `id`'s lip slot (shared: the session's lip callback holds one
    /// too), or None when `id` has no state.
    pub fn lip_slot(&self, id: WindowId) -> Option<LipSlot> {
        self.lock().get(&id).map(|w| w.lips.clone())
    }

    /// Take window `id`'s state out; the caller drops it outside the lock.
    pub fn remove(&self, id: WindowId) -> Option<WindowState> {
        self.lock().remove(&id)
    }

    /// Run `f` on window `id`'s session.
    ///
    /// Errors: the window has no state (`closed`), its session failed to start
    /// (that error, e.g. `settings`), or whatever `f` returns.
    pub fn with_session<T>(&self, id: WindowId, f: impl FnOnce(&Session) -> Result<T, CoreError>) -> Result<T, CommandError> {
        let map = self.lock();
        match map.get(&id).map(|w| &w.session) {
            Some(Ok(session)) => f(session).map_err(CommandError::from),
            Some(Err(startup)) => Err(startup.clone()),
            None => Err(CommandError::new(ErrorCode::Closed, format!("window {} has no session", id.label()))),
        }
    }

    /// Wait until every session's writes are on disk (the app exits).
    pub fn flush_all(&self) {
        for state in self.lock().values() {
            if let Ok(session) = &state.session {
                session.flush();
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<WindowId, WindowState>> {
        // A panic while holding the lock leaves the map itself consistent.
        self.map.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Drop a destroyed window's state (and so cancel its session).
pub fn forget(window: &tauri::Window) {
    let Some(id) = WindowId::from_label(window.label()) else {
        return;
    };
    window.app_handle().state::<crate::streams::Streams>().forget(id);
    let state = window.app_handle().state::<Windows>().remove(id);
    if state.is_some() {
        tracing::info!(record = "window_closed", window = id.label());
    }
    drop(state);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip() {
        for id in WindowId::all() {
            assert_eq!(WindowId::from_label(id.label()), Some(id));
        }
        assert_eq!(WindowId::all().count(), 5 + 5);
        assert_eq!(WindowId::of_cast(0), Some(WindowId::Pet));
        assert_eq!(WindowId::of_cast(2).map(WindowId::label), Some("pet-2"));
        assert_eq!(WindowId::of_cast(6), None, "at most six open");
        assert!(WindowId::of_cast(1).is_some_and(|w| w.is_pet() && w.session() == w));
        assert!(!WindowId::Chat.is_pet());
        assert_eq!(WindowId::Pet.label(), "pet");
        assert_eq!(WindowId::Settings.label(), "settings");
        assert_eq!(WindowId::Browser.label(), "browser");
        assert_eq!(WindowId::Chat.label(), "chat");
        assert_eq!(WindowId::Chat.session(), WindowId::Pet);
        assert_eq!(WindowId::Welcome.label(), "welcome");
        assert_eq!(WindowId::Welcome.session(), WindowId::Pet, "the welcome connects main");
        assert_eq!(WindowId::from_label("main"), None);
    }

    #[test]
    fn every_pet_window_has_the_pet_page_capability() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("capabilities/default.json");
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let granted: Vec<&str> = json["windows"].as_array().unwrap().iter().filter_map(|w| w.as_str()).collect();
        let pets: Vec<&str> = WindowId::all().filter(|w| w.is_pet()).map(WindowId::label).collect();
        assert_eq!(pets.len(), yui_core::limits::OPEN_CHARACTERS_MAX);
        for label in pets {
            assert!(granted.contains(&label), "{label} cannot call the pet page's commands: {granted:?}");
        }
    }

    #[test]
    fn a_window_without_a_session_reports_why() {
        let windows = Windows::default();
        let err = windows.with_session(WindowId::Pet, |_| Ok(())).unwrap_err();
        assert_eq!(err.code, ErrorCode::Closed);
        let startup = CommandError::new(ErrorCode::Settings, "bad url");
        windows.insert(WindowId::Pet, WindowState::new(Err(startup.clone())));
        assert_eq!(windows.with_session(WindowId::Pet, |_| Ok(())).unwrap_err(), startup);
        assert!(windows.remove(WindowId::Pet).is_some());
        assert!(windows.remove(WindowId::Pet).is_none());
    }

    #[test]
    fn the_lip_slot_lives_with_the_window_and_survives_a_new_session() {
        let windows = Windows::default();
        assert!(windows.lip_slot(WindowId::Pet).is_none());
        windows.insert(WindowId::Pet, WindowState::new(Err(CommandError::new(ErrorCode::Closed, "starting"))));
        let slot = windows.lip_slot(WindowId::Pet).expect("a slot");
        assert!(windows.replace_session(WindowId::Pet, Err(CommandError::new(ErrorCode::Closed, "restarting"))));
        assert!(Arc::ptr_eq(&slot, &windows.lip_slot(WindowId::Pet).expect("still a slot")));
        assert_eq!(Arc::strong_count(&slot), 2);
        drop(windows.remove(WindowId::Pet));
        assert_eq!(Arc::strong_count(&slot), 1, "the window's share went with it");
    }
}
