//! The tray icon: Bring back, Show/Hide, Go to bed, the Characters and Main
//! submenus (`docs/characters.md`), Chat, Help (her own answers from the
//! bundled guide), Settings, Quit. `docs/guide/controls.md` names them as
//! [`TRAY_ITEMS`] does (a test holds the two together).

use crate::window::WindowId;
use tauri::menu::{CheckMenuItem, IsMenuItem, Menu, MenuItem, Submenu};
use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};
use yui_core::cast::same_name;
use yui_core::presets::{PresetChange, Presets};

/// The tray icon's id.
const TRAY_ID: &str = "yui";

/// The menu's items, top to bottom, as the user reads them.
pub const TRAY_ITEMS: [&str; 9] = ["Bring back", "Show/Hide", "Go to bed", "Characters", "Main character", "Chat…", "Help", "Settings…", "Quit"];

/// The Help submenu's items: the two requests, as her guide names them.
pub const HELP_ITEMS: [&str; 2] = ["How do I use you?", "What can you do?"];

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
        "help:controls" => ask_help(app, yui_core::HelpGuide::Controls),
        "help:capabilities" => ask_help(app, yui_core::HelpGuide::Capabilities),
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
    let [back, toggle, bed, characters, main_label, chat, help, settings, quit] = TRAY_ITEMS;
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
    let controls = MenuItem::with_id(app, "help:controls", HELP_ITEMS[0], true, None::<&str>)?;
    let capabilities = MenuItem::with_id(app, "help:capabilities", HELP_ITEMS[1], true, None::<&str>)?;
    let help = Submenu::with_items(app, help, true, &[&controls, &capabilities])?;
    let settings = MenuItem::with_id(app, "settings", settings, true, None::<&str>)?;
    let quit = MenuItem::with_id(app, "quit", quit, true, None::<&str>)?;
    Menu::with_items(app, &[&back, &toggle, &bed, &characters, &main, &chat, &help, &settings, &quit])
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

/// The tray's Help: main answers from the bundled guide (a notice on her
/// pet when she has no session).
fn ask_help(app: &AppHandle, guide: yui_core::HelpGuide) {
    let windows = app.state::<crate::window::Windows>();
    if let Err(e) = windows.with_session(WindowId::Pet, |s| s.send(yui_core::UserCommand::AskHelp { guide })) {
        tracing::warn!(record = "help_failed", error = %e.message);
        crate::sink::window_sink(app.clone(), WindowId::Pet).emit(yui_core::UiEvent::Notice { code: e.code, message: e.message });
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

    /// Each bundled guide with its headings of the tray menu, the
    /// shortcuts and the settings (its language's words).
    const GUIDES: [(&str, &str, [&str; 3]); 3] = [
        ("docs/guide/controls.md", include_str!("../../docs/guide/controls.md"), ["The tray menu", "Shortcuts", "Settings"]),
        ("docs/guide/ja/controls.md", include_str!("../../docs/guide/ja/controls.md"), ["トレイメニュー", "ショートカット", "設定"]),
        ("docs/guide/ko/controls.md", include_str!("../../docs/guide/ko/controls.md"), ["트레이 메뉴", "단축키", "설정"]),
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
        for (file, guide, [tray, _, _]) in GUIDES {
            assert_eq!(named(guide, tray), TRAY_ITEMS, "{file}, {tray:?}");
        }
        // The tray's Help asks what the settings' Help buttons ask.
        let page = include_str!("../../ui/settings.html");
        for item in HELP_ITEMS {
            assert!(page.contains(&format!(">{item}</button>")), "the settings' Help section has {item:?}");
        }
    }

    #[test]
    fn the_guides_name_the_shortcuts_the_app_registers() {
        if cfg!(target_os = "macos") {
            return;
        }
        let registered = [crate::shortcut::bring_back_shortcut(), crate::shortcut::push_to_talk_shortcut(), crate::shortcut::chat_shortcut()];
        let labels: Vec<String> = registered.iter().map(crate::shortcut::label).collect();
        for (file, guide, [_, shortcuts, _]) in GUIDES {
            assert_eq!(named(guide, shortcuts), labels, "{file}, {shortcuts:?}");
        }
    }

    #[test]
    fn the_guides_name_every_settings_section_and_no_other() {
        let page = include_str!("../../ui/settings.html");
        let legends: Vec<String> =
            page.split("<legend>").skip(1).filter_map(|rest| rest.split_once("</legend>").map(|(name, _)| name.replace("&amp;", "&"))).collect();
        for (file, guide, [_, _, settings]) in GUIDES {
            let mut named = named(guide, settings);
            named.retain(|name| name != "Save");
            assert_eq!(named, legends, "{file}, {settings:?}, against ui/settings.html's sections");
        }
    }
}
