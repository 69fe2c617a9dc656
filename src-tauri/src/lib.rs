//! # yui — the Tauri shell
//!
//! Wiring only: it opens the windows, starts one [`yui_core::Session`] per
//! window, forwards the page's commands to it, and emits the core's events to
//! that window. Everything that decides anything lives in `yui-core`.
#![deny(missing_docs)]

// The typed command table: it writes ui/src/bindings/commands.ts (tests only).
#[cfg(test)]
mod api;
mod browser;
mod chat_window;
mod commands;
mod cursor;
mod desk;
mod ingress;
mod layer;
mod pet_commands;
mod placement;
mod presence;
mod screen_settings;
mod settings_window;
mod shortcut;
mod sink;
mod startup;
mod streams;
mod tray;
mod voice_commands;
mod window;

pub use commands::CommandError;
pub use sink::EVENT_NAME;
pub use window::WindowId;

/// Build the app, run it until its last window closes, then exit the process.
///
/// Exits with status 1 when the app cannot be built (no display, a broken
/// config); a startup problem inside a window is shown there instead.
pub fn run() {
    // Before GTK starts: XWayland where the compositor has no layer-shell.
    let backend = yui_core::world::gdk_backend::choose_here();
    if backend.forces_x11() {
        std::env::set_var("GDK_BACKEND", "x11");
    }
    yui_core::world::gdk_backend::set_chosen(backend);
    let app = presence::plugins(tauri::Builder::default())
        .manage(window::Windows::default())
        .manage(startup::Background::default())
        .manage(streams::Streams::default())
        .manage(ingress::Ingress::default())
        .invoke_handler(tauri::generate_handler![
            commands::send_command,
            commands::current_status,
            commands::body_now,
            streams::event_channel,
            streams::cursor_channel,
            chat_window::open_chat,
            chat_window::chat_conversations,
            chat_window::chat_conversation,
            chat_window::chat_page,
            chat_window::chat_search,
            chat_window::chat_settings,
            chat_window::chat_delete_conversation,
            chat_window::chat_delete_all_conversations,
            pet_commands::character_file,
            pet_commands::motion_file,
            pet_commands::user_motions,
            pet_commands::set_click_through,
            pet_commands::set_input_shape,
            pet_commands::input_by_shape,
            pet_commands::set_pet_keyboard,
            settings_window::open_settings,
            settings_window::load_settings,
            settings_window::save_settings,
            settings_window::import_character,
            settings_window::use_default_character,
            settings_window::import_motion,
            settings_window::recent_contexts,
            settings_window::delegation_history,
            settings_window::key_place,
            settings_window::test_connection,
            settings_window::import_card,
            settings_window::current_card_name,
            ingress::ingress_info,
            ingress::desktop_limitation,
            ingress::desktop_check,
            screen_settings::list_displays,
            screen_settings::list_relations,
            screen_settings::set_relation,
            screen_settings::screen_watched,
            voice_commands::lip_channel,
            voice_commands::mic_enabled,
            voice_commands::set_mic,
            voice_commands::list_output_devices,
            voice_commands::list_input_devices
        ])
        .setup(|app| {
            startup::setup(app.handle());
            Ok(())
        })
        .on_window_event(|window, event| {
            if let tauri::WindowEvent::Destroyed = event {
                window::forget(window);
            }
        })
        .build(tauri::generate_context!());
    match app {
        Ok(app) => app.run(|handle, event| {
            if let tauri::RunEvent::Exit = event {
                startup::shutdown(handle);
            }
        }),
        Err(e) => {
            eprintln!("yui: could not start the app: {e}");
            std::process::exit(1);
        }
    }
}
