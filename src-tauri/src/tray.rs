//! The tray icon: Bring back, Show/Hide, Go to bed, the Characters and Main
//! submenus (`docs/characters.md`), Chat, Help (her own answers from the
//! bundled guide), Welcome, Settings, Quit, in the UI language
//! (`docs/i18n.md`). Each guide in `docs/guide/` names them as its
//! language's catalog does (a test holds them together).

use crate::window::WindowId;
use tauri::menu::{CheckMenuItem, IsMenuItem, Menu, MenuItem, Submenu};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};
use yui_core::cast::same_name;
use yui_core::presets::{PresetChange, Presets};

/// The tray icon's id.
const TRAY_ID: &str = "yui";

/// The catalog ids of the menu's items, top to bottom.
pub const TRAY_ITEMS: [&str; 10] =
    ["tray-bring-back", "tray-show-hide", "tray-bed", "tray-characters", "tray-main", "tray-chat", "tray-help", "tray-welcome", "tray-settings", "tray-quit"];

/// The catalog ids of the Help submenu's items: the two requests, as her
/// guide names them.
pub const HELP_ITEMS: [&str; 2] = ["tray-help-controls", "tray-help-capabilities"];

/// Put the tray icon up. On a desktop with no tray host this still
/// succeeds; the global shortcut (X11) or a second launch is the way back
/// then.
pub fn install(app: &AppHandle) -> tauri::Result<()> {
    let menu = menu(app, &presets(app), &crate::language::current(app))?;
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
        "help:controls" => ask_help(app, yui_core::HelpGuide::Controls),
        "help:capabilities" => ask_help(app, yui_core::HelpGuide::Capabilities),
        "welcome" => crate::welcome::open(app),
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

/// The tray's menu for the registry `presets`, in `language`: a
/// Characters submenu with a check item per character (checked: open) and a
/// Main submenu (checked: main).
fn menu(app: &AppHandle, presets: &Presets, language: &str) -> tauri::Result<Menu<tauri::Wry>> {
    let words = yui_i18n::words(language);
    let [back, toggle, bed, characters, main_label, chat, help, welcome, settings, quit] = TRAY_ITEMS.map(|id| words.text(id));
    let [controls, capabilities] = HELP_ITEMS.map(|id| words.text(id));
    let back = MenuItem::with_id(app, "back", back, true, None::<&str>)?;
    let toggle = MenuItem::with_id(app, "toggle", toggle, true, None::<&str>)?;
    let bed = MenuItem::with_id(app, "bed", bed, true, None::<&str>)?;
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
    let characters = Submenu::with_items(app, characters, true, &as_items(&open))?;
    let main = Submenu::with_items(app, main_label, true, &as_items(&main))?;
    let chat = MenuItem::with_id(app, "chat", chat, true, None::<&str>)?;
    let controls = MenuItem::with_id(app, "help:controls", controls, true, None::<&str>)?;
    let capabilities = MenuItem::with_id(app, "help:capabilities", capabilities, true, None::<&str>)?;
    let help = Submenu::with_items(app, help, true, &[&controls, &capabilities])?;
    let welcome = MenuItem::with_id(app, "welcome", welcome, true, None::<&str>)?;
    let settings = MenuItem::with_id(app, "settings", settings, true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", quit, true, None::<&str>)?;
    Menu::with_items(app, &[&back, &toggle, &bed, &characters, &main, &chat, &help, &welcome, &settings, &quit])
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
            crate::sink::window_sink(app.clone(), WindowId::Pet).emit(yui_core::UiEvent::notice(e.code, e.message));
            redraw(&app, &presets(&app));
        }
    });
}

/// Redraw the tray's menu for the registry `presets`, in the UI language.
pub fn redraw(app: &AppHandle, presets: &Presets) {
    redraw_in(app, presets, &crate::language::current(app));
}

/// Redraw the tray's menu for the registry `presets`, in `language` (the
/// one just picked: `crate::language::announce`).
pub fn redraw_in(app: &AppHandle, presets: &Presets, language: &str) {
    let Some(tray) = app.tray_by_id(TRAY_ID) else { return };
    match menu(app, presets, language) {
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

/// The tray's Help: main answers from the bundled guide (a notice on her
/// pet when she has no session).
fn ask_help(app: &AppHandle, guide: yui_core::HelpGuide) {
    let windows = app.state::<crate::window::Windows>();
    if let Err(e) = windows.with_session(WindowId::Pet, |s| s.send(yui_core::UserCommand::AskHelp { guide })) {
        tracing::warn!(record = "help_failed", error = %e.message);
        crate::sink::window_sink(app.clone(), WindowId::Pet).emit(yui_core::UiEvent::notice(e.code, e.message));
    }
    crate::shortcut::bring_back(app);
}

/// The tray's "Go to bed": the pet's session puts her to bed.
fn go_to_bed(app: &AppHandle) {
    let windows = app.state::<crate::window::Windows>();
    let sent = windows.with_session(WindowId::Pet, |s| s.send(yui_core::UserCommand::GoToBed));
    if let Err(e) = sent {
        tracing::warn!(record = "go_to_bed_failed", error = %e.message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each bundled guide with its language and its headings of the tray
    /// menu, the shortcuts and the settings (its language's words).
    const GUIDES: [(&str, &str, &str, [&str; 3]); 3] = [
        ("docs/guide/controls.md", "en", include_str!("../../docs/guide/controls.md"), ["The tray menu", "Shortcuts", "Settings"]),
        ("docs/guide/ja/controls.md", "ja", include_str!("../../docs/guide/ja/controls.md"), ["トレイメニュー", "ショートカット", "設定"]),
        ("docs/guide/ko/controls.md", "ko", include_str!("../../docs/guide/ko/controls.md"), ["트레이 메뉴", "단축키", "설정"]),
    ];

    /// The first bold name of each bullet of section `heading` of `guide`.
    fn named(guide: &str, heading: &str) -> Vec<String> {
        let start = guide.find(&format!("## {heading}\n")).unwrap_or_else(|| panic!("no {heading:?} section"));
        let body = &guide[start + heading.len() + 4..];
        let body = &body[..body.find("\n## ").unwrap_or(body.len())];
        body.lines().filter_map(|l| l.strip_prefix("- **")).filter_map(|l| l.split_once("**").map(|(name, _)| name.to_string())).collect()
    }

    #[test]
    fn the_guides_name_the_tray_items_as_the_menu_has_them() {
        for (file, language, guide, [tray, _, _]) in GUIDES {
            let words = yui_i18n::words(language);
            assert_eq!(named(guide, tray), TRAY_ITEMS.map(|id| words.text(id)), "{file}, {tray:?}");
            // The tray's Help asks what the settings' Help buttons ask.
            for (tray_id, button_id) in HELP_ITEMS.iter().zip(["settings-help-controls", "settings-help-capabilities"]) {
                assert_eq!(words.text(tray_id), words.text(button_id), "{language}: {tray_id} and {button_id}");
            }
        }
        let page = include_str!("../../ui/settings.html");
        for id in ["settings-help-controls", "settings-help-capabilities"] {
            assert!(page.contains(&format!("data-l10n-id=\"{id}\"")), "the settings' Help section has {id}");
        }
    }

    #[test]
    fn the_guides_name_the_shortcuts_the_app_registers() {
        if cfg!(target_os = "macos") {
            return;
        }
        let registered = [crate::shortcut::bring_back_shortcut(), crate::shortcut::push_to_talk_shortcut(), crate::shortcut::chat_shortcut()];
        let labels: Vec<String> = registered.iter().map(crate::shortcut::label).collect();
        for (file, _, guide, [_, shortcuts, _]) in GUIDES {
            assert_eq!(named(guide, shortcuts), labels, "{file}, {shortcuts:?}");
        }
    }

    #[test]
    fn the_guides_name_every_settings_section_and_no_other() {
        let page = include_str!("../../ui/settings.html");
        let legends: Vec<&str> = page.split("<legend data-l10n-id=\"").skip(1).filter_map(|rest| rest.split_once('"').map(|(id, _)| id)).collect();
        assert!(legends.len() >= 10, "settings.html's legends carry their catalog ids: {legends:?}");
        for (file, language, guide, [_, _, settings]) in GUIDES {
            let words = yui_i18n::words(language);
            let save = words.text("settings-save");
            let mut named = named(guide, settings);
            named.retain(|name| *name != save);
            let sections: Vec<String> = legends.iter().map(|id| words.text(id)).collect();
            assert_eq!(named, sections, "{file}, {settings:?}, against ui/settings.html's sections in {language}");
        }
    }

    #[test]
    fn every_control_a_guide_names_in_bold_is_a_word_of_its_languages_catalog() {
        // The controls guides: the capabilities guides bold their own headings.
        let guides = GUIDES.map(|(_, language, guide, _)| (language, guide));
        // Keys, shortcuts and symbols are the same in every language.
        let kept = |term: &str| term.starts_with("Ctrl") || term.starts_with('@') || ["Enter", "Shift+Enter", "‹ ›", "+"].contains(&term);
        for (language, guide) in guides {
            let words = yui_i18n::words(language);
            let values: std::collections::HashSet<String> =
                yui_i18n::files().iter().filter(|f| f.language == language).flat_map(|f| yui_i18n::outline(f.source).0).map(|m| words.text(&m.id)).collect();
            for term in guide.split("**").skip(1).step_by(2) {
                assert!(kept(term) || values.contains(term), "docs/guide ({language}) names **{term}**, which no {language} catalog message says");
            }
        }
    }

    #[test]
    fn the_interface_speaks_the_languages_the_settings_take() {
        assert_eq!(yui_i18n::LANGUAGES, yui_core::settings::LANGUAGES, "one list of languages: the catalogs' and the settings'");
    }
}
