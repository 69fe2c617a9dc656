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
mod company;
mod cursor;
mod desk;
mod ingress;
mod language;
mod layer;
mod pet_commands;
mod placement;
mod presence;
mod screen_settings;
mod settings_target;
mod settings_window;
mod shell_events;
mod shortcut;
mod sink;
mod startup;
mod streams;
mod tray;
mod voice_commands;
mod welcome;
mod welcome_voice;
mod window;

pub use commands::CommandError;
pub use sink::EVENT_NAME;
pub use window::WindowId;

/// Declares the shell's commands once. Each line is `module::name [types]
/// -> answer, "doc";`: the function, the TypeScript types of the arguments
/// the page passes (in the function's order; their names come from the
/// function itself, through `#[page_args]`), its answer's type and one line
/// for the generated function. From it come the invoke handler
/// (`invoke_handler!`) and, in tests, the table (`command_table::COMMANDS`)
/// that writes `ui/src/bindings/commands.ts`; a command cannot be
/// registered without being typed, or typed without being registered, and
/// a line that types more or fewer arguments than the function takes does
/// not compile.
macro_rules! shell_commands {
    (@unit $ty:expr) => { () };
    ($( $module:ident :: $name:ident [$($ty:expr),*] -> $answer:expr, $doc:literal; )*) => {
        /// The invoke handler of every declared command.
        macro_rules! invoke_handler {
            () => {
                tauri::generate_handler![$($module::$name),*]
            };
        }

        $(
            const _: () = assert!(
                $module::$name::ARGS.len() == <[()]>::len(&[$(shell_commands!(@unit $ty)),*]),
                concat!("shell_commands!: ", stringify!($name), " types a different number of arguments than the function takes")
            );
        )*

        /// Every declared command, typed (tests only: it writes the bindings).
        #[cfg(test)]
        pub(crate) mod command_table {
            use crate::api::*;
            use yui_core::chat::{ChatPage, Conversation, ConversationSummary, SearchHit};
            use yui_core::settings::ChatSettings;
            use yui_core::{Settings, Status, UserCommand};

            /// The table, in declaration order.
            pub(crate) const COMMANDS: &[Spec] = &[$(Spec { name: stringify!($name), doc: $doc, arg_names: crate::$module::$name::ARGS, arg_types: &[$($ty),*], answer: $answer }),*];
        }
    };
}

shell_commands! {
    commands::send_command [ts::<UserCommand>] -> void, "Hand a user action to the window's session.";
    commands::current_status [] -> ts::<Status>, "The connection state now.";
    streams::event_channel [event_stream] -> void, "Register the channel every core event of the session comes down, in order.";
    streams::cast_channel [cast_stream] -> void, "Register the channel every event of the other open characters comes down, each with her name (the chat window).";
    streams::cursor_channel [cursor_stream] -> void, "Register the channel the cursor position (null: outside) comes down.";
    chat_window::open_chat [] -> void, "Open the chat window, or bring it to the front.";
    chat_window::chat_conversations [] -> ts::<Vec<ConversationSummary>>, "The character's conversations, newest change first.";
    chat_window::chat_conversation [ts::<Option<String>>, ts::<Option<String>>] -> ts::<Option<Conversation>>, "Conversation `id` (its newest page, or the page around message `at`), or the current one for null.";
    chat_window::chat_page [ts::<String>, ts::<Option<String>>, ts::<Option<String>>] -> ts::<Option<ChatPage>>, "The messages of conversation `id` right before message `before` or right after message `after`.";
    chat_window::chat_search [ts::<String>] -> ts::<Vec<SearchHit>>, "Messages of every conversation that contain `query`.";
    chat_window::chat_delete_conversation [ts::<String>] -> void, "Delete conversation `id` (the window asked first).";
    chat_window::chat_delete_all_conversations [] -> void, "Delete every conversation (the window asked first).";
    chat_window::chat_settings [] -> ts::<ChatSettings>, "The chat window's settings now.";
    pet_commands::character_name [] -> ts::<String>, "The name of the character this window shows.";
    pet_commands::character_file [] -> bytes, "The user's .vrm bytes (empty: the bundled character).";
    pet_commands::motion_file [ts::<String>] -> bytes, "The bytes of the user's .vrma clip `id`.";
    pet_commands::user_motions [] -> ts::<Vec<String>>, "The ids of the user's .vrma clips.";
    pet_commands::set_click_through [ts::<bool>] -> void, "Make the pet window ignore (true) or take the mouse.";
    pet_commands::set_input_shape [ts::<Option<Vec<yui_core::world::stage::InputRect>>>] -> void, "The pet window's input region: the drawn shape (CSS px), or null for the whole window.";
    pet_commands::set_pet_keyboard [ts::<bool>] -> void, "The user pressed into the pet's composer (true) or is done with it (false): the layer-shell pet holds the keyboard only meanwhile.";
    pet_commands::input_by_shape [] -> ts::<bool>, "Whether click-through goes by the drawn shape (set_input_shape) here: native Wayland.";
    company::character_names [] -> ts::<Vec<String>>, "The open characters' names, main first.";
    chat_window::character_conversation [ts::<String>] -> ts::<Option<Conversation>>, "Open character `character`'s current conversation (the chat window's view of every character).";
    chat_window::character_page [ts::<String>, ts::<String>, ts::<Option<String>>, ts::<Option<String>>] -> ts::<Option<ChatPage>>, "The messages of character `character`'s conversation `id` before `before` or after `after`.";
    chat_window::character_command [ts::<String>, ts::<UserCommand>] -> void, "Hand a user action on character `character`'s messages to her session (the chat window).";
    company::send_to_characters [ts::<String>] -> void, "One line of the chat window to the open characters: @Name, @everyone (one after another), or a plain line to main.";
    company::stop_characters [] -> void, "Stop every open character (the chat window's Stop).";
    company::list_characters [] -> ts::<yui_core::presets::Presets>, "The registry of presets (the Characters section).";
    company::change_characters [ts::<yui_core::presets::PresetChange>] -> ts::<yui_core::presets::Presets>, "Make one change to the presets (the window asked before a removal); the registry after it.";
    settings_window::add_character_from_card [] -> ts::<yui_core::presets::Presets>, "Add a character made from a Tavern card (.json or .png: the raw bytes, the name in `x-file-name`); the registry after it.";
    settings_target::edit_character [ts::<Option<String>>] -> ts::<String>, "Edit preset `name`'s settings in this window from now on (null: main's); the name edited now.";
    welcome::open_welcome [] -> void, "Open the welcome, or bring it to the front.";
    welcome::welcome_providers [] -> ts::<Vec<yui_core::providers::Provider>>, "The providers to pick from, in the welcome's order.";
    welcome::welcome_discover [] -> ts::<Vec<yui_core::discover::FoundServer>>, "The model servers running on this computer.";
    welcome::welcome_models [ts::<String>, ts::<String>] -> ts::<Vec<String>>, "The models of the server at `base_url`, asked with `key`.";
    welcome::welcome_connect [ts::<String>, ts::<String>, ts::<String>, ts::<String>] -> ts::<yui_core::probe::ProbeReport>, "Test a provider; when it answers, save it as main's connection and have her say hello.";
    welcome_voice::welcome_voices [] -> ts::<yui_core::voice_setup::VoiceChoices>, "What can speak here: the system voice, and the speech servers running on this computer.";
    welcome_voice::welcome_try_voice [ts::<yui_core::voice_setup::VoicePick>] -> ts::<yui_core::voice_setup::VoiceReport>, "Say the sample line with a voice; when it was made, keep it as main's voice.";
    welcome_voice::welcome_microphones [] -> ts::<Vec<String>>, "The microphones by name (the default first).";
    welcome_voice::welcome_microphone [ts::<bool>, ts::<String>] -> void, "Turn main's microphone on (on `device`; empty: the default) or off, saved.";
    welcome::welcome_done [] -> void, "The welcome's Done: it closes.";
    welcome::welcome_language [ts::<String>] -> void, "Save the UI language picked on the welcome.";
    language::ui_language [] -> ts::<String>, "The UI language now (`en`, `ja`, `ko`): each page reads it when it loads.";
    settings_window::open_settings [] -> void, "Open the settings window.";
    settings_window::load_settings [] -> ts::<Settings>, "The saved settings, key included (settings window only).";
    settings_window::save_settings [ts::<Settings>] -> void, "Save the settings and apply them (settings window only).";
    settings_window::import_character [] -> ts::<yui_core::character::CharacterInfo>, "Import a .vrm: the raw bytes, the name in `x-file-name`.";
    settings_window::use_default_character [] -> void, "Go back to the bundled character.";
    settings_window::import_motion [] -> ts::<String>, "Import a .vrma clip: the raw bytes, the name in `x-file-name`.";
    settings_window::recent_contexts [] -> ts::<Vec<yui_core::context_log::SentContext>>, "The last client_context blocks sent, oldest first.";
    settings_window::delegation_history [] -> ts::<Vec<yui_core::DelegationItem>>, "Every delegation seen, newest first.";
    settings_window::key_place [] -> ts::<yui_core::keystore::KeyPlace>, "Where the key is kept.";
    settings_window::test_connection [ts::<Settings>] -> ts::<yui_core::probe::ProbeReport>, "Test the connection the form's settings describe.";
    settings_window::import_card [] -> ts::<String>, "Import a character card: the raw bytes, the name in `x-file-name`.";
    settings_window::current_card_name [] -> ts::<String>, "The name of the card in use.";
    ingress::ingress_info [] -> ts::<yui_core::settings::IngressInfo>, "Where the signals ingress listens, its token and a curl line.";
    ingress::desktop_limitation [] -> ts::<Option<String>>, "Why the desktop reader gives no frontmost line or idle time; null when it reads both.";
    ingress::desktop_check [] -> ts::<yui_core::world::stage::StageReport>, "The desktop self-test: transparency, click-through, always-on-top and placement here, each with its fallback.";
    screen_settings::list_displays [] -> ts::<Vec<yui_core::picture::capture::Display>>, "The displays, for the screenshot source.";
    screen_settings::list_relations [] -> ts::<Vec<yui_core::relations::RelationRecord>>, "The character's relations.";
    screen_settings::set_relation [ts::<String>, ts::<i32>] -> ts::<yui_core::relations::RelationRecord>, "Set a relation by hand.";
    commands::body_now [] -> ts::<yui_core::UiEvent>, "The window's body now (posture and bed scene), as a body event.";
    screen_settings::screen_watched [] -> ts::<bool>, "Whether each turn attaches the screen now.";
    voice_commands::lip_channel [level_channel] -> void, "Register the channel the mouth levels come down.";
    voice_commands::mic_enabled [] -> ts::<bool>, "Whether the mic toggle is on.";
    voice_commands::set_mic [ts::<bool>] -> void, "Turn the microphone on or off (saved).";
    voice_commands::list_output_devices [] -> ts::<Vec<String>>, "The sound output devices by name.";
    voice_commands::list_input_devices [] -> ts::<Vec<String>>, "The microphones by name.";
}

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
        .manage(company::Company::default())
        .manage(settings_target::Editing::default())
        .manage(settings_window::SaveLock::default())
        .manage(startup::Background::default())
        .manage(streams::Streams::default())
        .manage(ingress::Ingress::default())
        .invoke_handler(invoke_handler!())
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
