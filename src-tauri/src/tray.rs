//! The tray icon: Bring back, Show/Hide, Go to bed, Chat, Settings, Quit.

use crate::window::WindowId;
use tauri::menu::{Menu, MenuItem};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};

/// Put the tray icon up. On a desktop with no tray host this still
/// succeeds; the global shortcut (X11) or a second launch is the way back
/// then.
pub fn install(app: &AppHandle) -> tauri::Result<()> {
    let back = MenuItem::with_id(app, "back", "Bring back", true, None::<&str>)?;
    let toggle = MenuItem::with_id(app, "toggle", "Show/Hide", true, None::<&str>)?;
    let bed = MenuItem::with_id(app, "bed", "Go to bed", true, None::<&str>)?;
    let chat = MenuItem::with_id(app, "chat", "Chat…", true, None::<&str>)?;
    let settings = MenuItem::with_id(app, "settings", "Settings…", true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", "Quit", true, None::<&str>)?;
    let menu = Menu::with_items(app, &[&back, &toggle, &bed, &chat, &settings, &quit])?;
    let mut tray = TrayIconBuilder::with_id("yui").tooltip("YUI").menu(&menu);
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
        _ => {}
    })
    .build(app)?;
    Ok(())
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
