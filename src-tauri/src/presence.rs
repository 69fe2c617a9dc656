//! Presence: one running YUI (a second launch brings the running pet back
//! and exits) and the start-at-login item. What to do is decided in
//! `yui_core::presence`; this registers the plugins and carries it out.

use tauri::{AppHandle, Builder, Manager, Wry};
use tauri_plugin_autostart::{AutoLaunchManager, MacosLauncher};

/// Add the presence plugins to the app. The single-instance plugin comes
/// first, so a second launch exits before it opens anything; its callback
/// runs in the running app and does what the "bring YUI back" shortcut does.
pub fn plugins(builder: Builder<Wry>) -> Builder<Wry> {
    let overridden = std::env::var_os(crate::startup::DATA_DIR_ENV).is_some_and(|v| !v.is_empty());
    let builder = if yui_core::presence::single_instance(overridden) {
        builder.plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            tracing::info!(record = "second_launch");
            crate::shortcut::bring_back(app);
        }))
    } else {
        builder
    };
    builder.plugin(tauri_plugin_autostart::init(MacosLauncher::LaunchAgent, None))
}

/// Make the OS's login item follow `wanted` (`Settings::start_at_login`).
/// A failure is logged, never fatal. Blocks on files (or the registry): run
/// it off the async workers.
pub fn follow_autostart(app: &AppHandle, wanted: bool) {
    use yui_core::presence::{autostart_action, AutostartAction};
    let Some(launcher) = app.try_state::<AutoLaunchManager>() else {
        tracing::warn!(record = "autostart_failed", wanted, error = "the autostart plugin is not running");
        return;
    };
    let registered = match launcher.is_enabled() {
        Ok(on) => Some(on),
        Err(e) => {
            tracing::warn!(record = "autostart_unknown", error = %e);
            None
        }
    };
    let result = match autostart_action(wanted, registered) {
        AutostartAction::Keep => return,
        AutostartAction::Enable => launcher.enable(),
        AutostartAction::Disable => launcher.disable(),
    };
    match result {
        Ok(()) => tracing::info!(record = "autostart", enabled = wanted),
        Err(e) => tracing::warn!(record = "autostart_failed", wanted, error = %e),
    }
}

/// [`follow_autostart`] on a blocking thread.
pub async fn follow_autostart_async(app: &AppHandle, wanted: bool) {
    let app = app.clone();
    if let Err(e) = tauri::async_runtime::spawn_blocking(move || follow_autostart(&app, wanted)).await {
        tracing::warn!(record = "autostart_failed", wanted, error = %e);
    }
}
