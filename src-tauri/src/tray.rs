//! The tray icon: Bring back, Show/Hide, Go to bed, the Characters and Main
//! submenus (`docs/characters.md`), Chat, Settings, Quit.

use crate::window::WindowId;
use tauri::menu::{CheckMenuItem, IsMenuItem, Menu, MenuItem, Submenu};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};
use yui_core::cast::same_name;
use yui_core::presets::{PresetChange, Presets};

/// The tray icon's id.
const TRAY_ID: &str = "yui";

/// Put the tray icon up. On a desktop with no tray host this still
/// succeeds; the global shortcut (X11) or a second launch is the way back
/// then.
pub fn install(app: &AppHandle) -> tauri::Result<()> {
    let menu = menu(app, &presets(app))?;
    let mut tray = TrayIconBuilder::with_id(TRAY_ID).tooltip("YUI").menu(&menu);
    if let Some(icon) = app.default_window_icon() {
        tray = tray.icon(icon.clone());
    }
    tray.on_menu_event(|app, event| match event.id.as_ref() {
        // What the shortcut and a second launch do: shown, on a display,
        // and her whole window takes the mouse for a while.
        "back" => crate::shortcut::bring_back(app),
        "toggle" => toggle_pet(app),
        "bed" => go_to_bed(app),
        "chat" => crate::chat_window::open(app),
        "settings" => crate::settings_window::open(app),
        "quit" => app.exit(0),
        other => {
            if let Some(name) = other.strip_prefix("open:") {
                let open = presets(app).presets.iter().any(|p| same_name(&p.name, name) && p.open);
                let name = name.to_string();
                change(app, if open { PresetChange::Close { name } } else { PresetChange::Open { name } });
            } else if let Some(name) = other.strip_prefix("main:") {
                change(app, PresetChange::SetMain { name: name.to_string() });
            }
        }
    })
    .build(app)?;
    Ok(())
}

/// The registry now (one character when it cannot be read).
fn presets(app: &AppHandle) -> Presets {
    crate::company::presets(app).unwrap_or_else(|_| Presets::single("YUI"))
}

/// The tray's menu for the registry `presets`: a Characters submenu with
/// a check item per character (checked: open) and a Main submenu (checked:
/// main).
fn menu(app: &AppHandle, presets: &Presets) -> tauri::Result<Menu<tauri::Wry>> {
    let back = MenuItem::with_id(app, "back", "Bring back", true, None::<&str>)?;
    let toggle = MenuItem::with_id(app, "toggle", "Show/Hide", true, None::<&str>)?;
    let bed = MenuItem::with_id(app, "bed", "Go to bed", true, None::<&str>)?;
    let open: Vec<CheckMenuItem<tauri::Wry>> = presets
        .presets
        .iter()
        .map(|p| CheckMenuItem::with_id(app, format!("open:{}", p.name), &p.name, !same_name(&p.name, &presets.main), p.open, None::<&str>))
        .collect::<tauri::Result<_>>()?;
    let main: Vec<CheckMenuItem<tauri::Wry>> = presets
        .presets
        .iter()
        .map(|p| CheckMenuItem::with_id(app, format!("main:{}", p.name), &p.name, true, same_name(&p.name, &presets.main), None::<&str>))
        .collect::<tauri::Result<_>>()?;
    let characters = Submenu::with_items(app, "Characters", true, &as_items(&open))?;
    let main = Submenu::with_items(app, "Main character", true, &as_items(&main))?;
    let chat = MenuItem::with_id(app, "chat", "Chat…", true, None::<&str>)?;
    let settings = MenuItem::with_id(app, "settings", "Settings…", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?;
    Menu::with_items(app, &[&back, &toggle, &bed, &characters, &main, &chat, &settings, &quit])
}

/// The items as the menu builder takes them.
fn as_items(items: &[CheckMenuItem<tauri::Wry>]) -> Vec<&dyn IsMenuItem<tauri::Wry>> {
    items.iter().map(|i| i as &dyn IsMenuItem<tauri::Wry>).collect()
}

/// Make `change` from a tray item; a refused one (main cannot close, a
/// seventh cannot open) shows as a notice on main's pet.
fn change(app: &AppHandle, change: PresetChange) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        if let Err(e) = crate::company::change(&app, change).await {
            crate::sink::window_sink(app.clone(), WindowId::Pet).emit(yui_core::UiEvent::Notice { code: e.code, message: e.message });
            redraw(&app, &presets(&app));
        }
    });
}

/// Redraw the tray's menu for the registry `presets`.
pub fn redraw(app: &AppHandle, presets: &Presets) {
    let Some(tray) = app.tray_by_id(TRAY_ID) else { return };
    match menu(app, presets) {
        Ok(menu) => {
            if let Err(e) = tray.set_menu(Some(menu)) {
                tracing::warn!(record = "tray_menu_failed", error = %e);
            }
        }
        Err(e) => tracing::warn!(record = "tray_menu_failed", error = %e),
    }
}

/// Hide the pet when it shows; show it (and call it back on screen) when hidden.
pub fn toggle_pet(app: &AppHandle) {
    let Some(pet) = app.get_webview_window(WindowId::Pet.label()) else {
        return;
    };
    if pet.is_visible().unwrap_or(false) {
        let _ = pet.hide();
    } else {
        crate::shortcut::bring_back(app);
    }
}

/// The tray's "Go to bed": the pet's session puts her to bed.
fn go_to_bed(app: &AppHandle) {
    let windows = app.state::<crate::window::Windows>();
    let sent = windows.with_session(WindowId::Pet, |s| s.send(yui_core::UserCommand::GoToBed));
    if let Err(e) = sent {
        tracing::warn!(record = "go_to_bed_failed", error = %e.message);
    }
}
