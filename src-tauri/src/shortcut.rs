//! The global shortcuts: "bring YUI back" (shows the pet, moves it back on
//! screen and makes it take the mouse again, even after click-through went
//! wrong), push-to-talk (held: the microphone hears one utterance) and the
//! chat window.

use crate::window::{WindowId, Windows};
use serde::Serialize;
use tauri::{AppHandle, EventTarget, Manager};
use tauri_plugin_global_shortcut::{Code, GlobalShortcutExt, Modifiers, Shortcut, ShortcutState};

/// The shortcut: Ctrl+Shift+Y (Cmd+Shift+Y on macOS).
pub fn bring_back_shortcut() -> Shortcut {
    Shortcut::new(Some(primary_modifiers()), Code::KeyY)
}

/// Push-to-talk, held while speaking: Ctrl+Shift+Space (Cmd+Shift+Space on macOS).
pub fn push_to_talk_shortcut() -> Shortcut {
    Shortcut::new(Some(primary_modifiers()), Code::Space)
}

/// The chat window: Ctrl+Alt+Y (Cmd+Option+Y on macOS).
pub fn chat_shortcut() -> Shortcut {
    let modifiers = if cfg!(target_os = "macos") { Modifiers::SUPER | Modifiers::ALT } else { Modifiers::CONTROL | Modifiers::ALT };
    Shortcut::new(Some(modifiers), Code::KeyY)
}

/// `shortcut` as a person reads it: `Ctrl+Shift+Y` (`Cmd` for the Super
/// key, `Alt`, then the key without its `Key`/`Digit` prefix).
pub fn label(shortcut: &Shortcut) -> String {
    let mut parts: Vec<String> = Vec::new();
    for (modifier, name) in [(Modifiers::CONTROL, "Ctrl"), (Modifiers::SUPER, "Cmd"), (Modifiers::ALT, "Alt"), (Modifiers::SHIFT, "Shift")] {
        if shortcut.mods.contains(modifier) {
            parts.push(name.into());
        }
    }
    let key = shortcut.key.to_string();
    parts.push(key.strip_prefix("Key").or_else(|| key.strip_prefix("Digit")).unwrap_or(&key).to_string());
    parts.join("+")
}

/// Ctrl+Shift, or Cmd+Shift on macOS.
fn primary_modifiers() -> Modifiers {
    if cfg!(target_os = "macos") {
        Modifiers::SUPER | Modifiers::SHIFT
    } else {
        Modifiers::CONTROL | Modifiers::SHIFT
    }
}

/// How long the page keeps click-through off after the shortcut.
const INTERACTIVE_SECONDS: u32 = 5;

/// The event telling the pet page to keep click-through off for a while
/// (`shell_events.rs` names it).
#[derive(Clone, Serialize, ts_rs::TS)]
pub struct Interactive {
    /// How long to keep click-through off.
    pub seconds: u32,
}

/// Register the plugin and the shortcuts; a failure is logged, not fatal.
pub fn install(app: &AppHandle) {
    let back = bring_back_shortcut();
    let talk = push_to_talk_shortcut();
    let chat = chat_shortcut();
    let plugin = tauri_plugin_global_shortcut::Builder::new()
        .with_handler(move |app, pressed, event| {
            if *pressed == back && event.state() == ShortcutState::Pressed {
                bring_back(app);
            } else if *pressed == talk {
                push_to_talk(app, event.state() == ShortcutState::Pressed);
            } else if *pressed == chat && event.state() == ShortcutState::Pressed {
                crate::chat_window::open(app);
            }
        })
        .build();
    if let Err(e) = app.plugin(plugin) {
        tracing::warn!(record = "shortcut_unavailable", error = %e);
        return;
    }
    for shortcut in [back, talk, chat] {
        match app.global_shortcut().register(shortcut) {
            Ok(()) => {
                tracing::info!(record = "shortcut_registered", shortcut = %label(&shortcut))
            }
            Err(e) => {
                tracing::warn!(record = "shortcut_unavailable", shortcut = %label(&shortcut), error = %e)
            }
        }
    }
}

/// Push-to-talk pressed or released: forward to the pet's session.
fn push_to_talk(app: &AppHandle, pressed: bool) {
    let result = app.state::<Windows>().with_session(WindowId::Pet, |s| {
        s.push_to_talk(pressed);
        Ok(())
    });
    if let Err(e) = result {
        tracing::warn!(record = "push_to_talk_failed", error = %e.message);
    }
}

/// Show every open character's pet, put each back on screen and make it
/// interactive (main's last, so it ends in front).
pub fn bring_back(app: &AppHandle) {
    let pets: Vec<WindowId> = WindowId::all().filter(|id| id.is_pet() && *id != WindowId::Pet).chain([WindowId::Pet]).collect();
    for id in pets {
        let Some(pet) = app.get_webview_window(id.label()) else {
            continue;
        };
        crate::placement::bring_back(&pet);
        let _ = crate::shell_events::emit_to(app, EventTarget::webview_window(id.label()), Interactive { seconds: INTERACTIVE_SECONDS });
        tracing::info!(record = "pet_brought_back", window = id.label());
    }
}
