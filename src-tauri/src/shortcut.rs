//! The global "bring YUI back" shortcut: shows the pet, moves it back on
//! screen and makes it take the mouse again, even after click-through went wrong.

use crate::window::WindowId;
use serde::Serialize;
use tauri::{AppHandle, Emitter, EventTarget, Manager};
use tauri_plugin_global_shortcut::{Code, GlobalShortcutExt, Modifiers, Shortcut, ShortcutState};

/// The shortcut: Ctrl+Shift+Y (Cmd+Shift+Y on macOS).
pub fn bring_back_shortcut() -> Shortcut {
    let modifiers = if cfg!(target_os = "macos") {
        Modifiers::SUPER | Modifiers::SHIFT
    } else {
        Modifiers::CONTROL | Modifiers::SHIFT
    };
    Shortcut::new(Some(modifiers), Code::KeyY)
}

/// Event telling the pet page to keep click-through off for a while.
pub const INTERACTIVE_EVENT: &str = "yui://interactive";

/// How long the page keeps click-through off after the shortcut.
const INTERACTIVE_SECONDS: u32 = 5;

#[derive(Clone, Serialize)]
struct Interactive {
    seconds: u32,
}

/// Register the plugin and the shortcut; a failure is logged, not fatal.
pub fn install(app: &AppHandle) {
    let shortcut = bring_back_shortcut();
    let plugin = tauri_plugin_global_shortcut::Builder::new()
        .with_handler(move |app, pressed, event| {
            if *pressed == shortcut && event.state() == ShortcutState::Pressed {
                bring_back(app);
            }
        })
        .build();
    if let Err(e) = app.plugin(plugin) {
        tracing::warn!(record = "shortcut_unavailable", error = %e);
        return;
    }
    match app.global_shortcut().register(shortcut) {
        Ok(()) => tracing::info!(record = "shortcut_registered", shortcut = %shortcut.into_string()),
        Err(e) => tracing::warn!(record = "shortcut_unavailable", error = %e),
    }
}

/// Show the pet, put it back on screen and make it interactive.
pub fn bring_back(app: &AppHandle) {
    let Some(pet) = app.get_webview_window(WindowId::Pet.label()) else { return };
    crate::placement::bring_back(&pet);
    let _ = app.emit_to(EventTarget::webview_window(WindowId::Pet.label()), INTERACTIVE_EVENT, Interactive { seconds: INTERACTIVE_SECONDS });
    tracing::info!(record = "pet_brought_back");
}
