//! Startup: data directory, logging, tray, shortcut, and the pet window's
//! session. A failure here is shown in the window, never a crash.

use crate::commands::CommandError;
use crate::company::{Company, Member};
use crate::sink::window_sink;
use crate::window::{LipSlot, WindowId, WindowState, Windows};
use std::path::PathBuf;
use std::sync::Mutex;
use tauri::{AppHandle, Manager};
use yui_core::logging::LogGuard;
use yui_core::speech::voices::AudioOutput;
use yui_core::{DataDir, ErrorCode, Session, SessionConfig, UiEvent};
use yui_demo::{DemoConfig, DemoServer};

/// Environment variable that points the app at another data directory
/// (tests isolate a whole installation with it).
pub const DATA_DIR_ENV: &str = "YUI_DATA_DIR";

/// Environment variable that picks where speech sounds: `null` (real
/// timing, no sound), `none` (no voice at all); anything else or unset: the
/// sound device the settings name.
pub const AUDIO_ENV: &str = "YUI_AUDIO";

/// The audio output `YUI_AUDIO` asks for (the device when unset).
pub fn audio_output(value: Option<&str>) -> AudioOutput {
    value.and_then(|v| v.parse().ok()).unwrap_or(AudioOutput::Device)
}

/// What the app keeps alive besides its windows.
#[derive(Default)]
pub struct Background {
    /// The log writer; dropped at exit to flush.
    log: Mutex<Option<LogGuard>>,
    /// The embedded demo agent, when the settings name no backend.
    demo: Mutex<Option<DemoServer>>,
    /// The language the demo's background remarks are in: the UI language.
    pub demo_language: yui_demo::QuietLanguage,
    /// The installation's data directory, once opened.
    data_dir: Mutex<Option<Result<DataDir, CommandError>>>,
    /// Held while the characters start: a second start (a save right after
    /// a change of the registry) waits for the first, so the last one read
    /// wins and no window keeps a session of a lineup read before it.
    starting: tokio::sync::Mutex<()>,
}

impl Background {
    /// The data directory, or why it could not be opened.
    pub fn data_dir(&self) -> Result<DataDir, CommandError> {
        lock(&self.data_dir).clone().unwrap_or_else(|| Err(CommandError::new(ErrorCode::Storage, "the data directory is not open yet")))
    }
}

/// Runs once in Tauri's setup: logging, tray, shortcut, cursor watch, then
/// the pet window's session.
pub fn setup(app: &AppHandle) {
    crate::company::note_main_thread();
    let override_dir = std::env::var_os(DATA_DIR_ENV).filter(|v| !v.is_empty()).map(PathBuf::from);
    let background = app.state::<Background>();
    match log_dir(app, override_dir.as_ref()).and_then(|dir| yui_core::logging::init(&dir, None).map_err(Into::into)) {
        Ok(guard) => *lock(&background.log) = Some(guard),
        Err(e) => eprintln!("yui: logging is off: {}", e.message),
    }
    tracing::info!(record = "app_start", version = env!("CARGO_PKG_VERSION"));
    if let Some(backend) = yui_core::world::gdk_backend::chosen() {
        tracing::info!(record = "display_backend", choice = ?backend, reason = backend.reason());
    }
    let data_dir = match override_dir {
        Some(dir) => DataDir::new(dir),
        None => DataDir::platform_default(),
    }
    .map_err(CommandError::from);
    *lock(&background.data_dir) = Some(data_dir);

    if let Err(e) = crate::tray::install(app) {
        tracing::warn!(record = "tray_unavailable", error = %e);
    }
    crate::shortcut::install(app);
    // The pet window is created hidden: a layer-shell surface must be made
    // one before it is mapped. Shown here on every platform.
    let pet = app.get_webview_window(WindowId::Pet.label());
    let layered = pet.as_ref().and_then(crate::layer::install);
    crate::desk::install(app, layered);
    if let Some(Err(e)) = pet.map(|pet| pet.show()) {
        tracing::error!(record = "pet_show_failed", error = %e);
    }
    let tasks = tokio_util::sync::CancellationToken::new();
    crate::cursor::watch(app.clone(), WindowId::Pet, tasks.clone());
    app.state::<Windows>().insert(WindowId::Pet, WindowState::with_tasks(Err(CommandError::new(ErrorCode::Closed, "starting")), tasks));
    // Setup runs on the main thread, outside the async runtime: blocking here is allowed.
    tauri::async_runtime::block_on(async {
        start_pet_session(app, true).await;
        // A new user meets the welcome while the demo answers.
        crate::welcome::open_if_new(app).await;
        if let Ok(dir) = app.state::<Background>().data_dir() {
            let settings = dir.load_settings_without_key().unwrap_or_default();
            crate::ingress::follow(app, &settings.user.ingress).await;
            crate::presence::follow_autostart_async(app, settings.user.start_at_login).await;
        }
    });
}

/// (Re)start the pet window's session from the saved settings, replacing the
/// old one (which is cancelled) and the old demo agent. Nothing happens when
/// the pet window is gone.
pub async fn restart_pet_session(app: &AppHandle) {
    start_pet_session(app, false).await;
}

/// Start the sessions of every open character (`docs/characters.md`):
/// main's in the pet window, each other one's in a pet window beside it
/// (opened when missing; the windows of characters no longer open close),
/// all sharing one ensemble when there are several. The old sessions end
/// first. `launch`: the app's first start (main's launch bed scene may
/// run), not a restart. Nothing happens when the pet window is gone.
async fn start_pet_session(app: &AppHandle, launch: bool) {
    let background = app.state::<Background>();
    let _one_at_a_time = background.starting.lock().await;
    let windows = app.state::<Windows>();
    let company = app.state::<Company>();
    crate::ingress::detach(app);
    if !windows.replace_session(WindowId::Pet, Err(CommandError::new(ErrorCode::Closed, "restarting"))) {
        return;
    }
    for member in company.members().iter().filter(|m| m.window != WindowId::Pet) {
        windows.replace_session(member.window, Err(CommandError::new(ErrorCode::Closed, "restarting")));
    }
    let old_demo = lock(&background.demo).take();
    if let Some(old) = old_demo {
        old.shutdown().await;
    }
    let lineup = match background.data_dir() {
        Ok(dir) => tauri::async_runtime::spawn_blocking(move || read_lineup(&dir))
            .await
            .map_err(|e| CommandError::new(ErrorCode::Storage, format!("loading the characters failed: {e}")))
            .and_then(|r| r),
        Err(e) => Err(e),
    };
    let lineup = match lineup {
        Ok(lineup) => lineup,
        Err(e) => {
            // No character but main's window, and that one says why.
            crate::company::close_beside_from(app, 1);
            company.set(Vec::new());
            tracing::error!(record = "session_start_failed", window = WindowId::Pet.label(), code = ?e.code, error = %e.message);
            window_sink(app.clone(), WindowId::Pet).emit(UiEvent::notice(e.code, e.message.clone()));
            windows.replace_session(WindowId::Pet, Err(e));
            return;
        }
    };
    let names: Vec<String> = lineup.cast.names().to_vec();
    let before = company.members();
    company.set(
        names
            .iter()
            .zip(&lineup.members)
            .enumerate()
            .filter_map(|(i, (name, m))| {
                // Alone, she goes by her card's name, as her session does.
                let name = if names.len() > 1 { name.clone() } else { m.card.clone() };
                WindowId::of_cast(i).map(|window| Member { window, name, dir: m.dir.clone() })
            })
            .collect(),
    );
    crate::company::close_beside_from(app, names.len());
    // The characters share what none owns alone: each other's histories,
    // the addressed turns, the voice floor.
    let ensemble = (names.len() > 1).then(|| yui_core::ensemble::Ensemble::new(lineup.cast.clone(), lineup.exchange_limit));
    for (i, (name, member)) in names.iter().zip(lineup.members).enumerate() {
        let Some(id) = WindowId::of_cast(i) else { continue };
        if id != WindowId::Pet {
            if let Err(e) = crate::company::open_beside(app, id, name).await {
                tracing::error!(record = "session_start_failed", window = id.label(), character = %name, error = %e.message);
                continue;
            }
        }
        // A window that showed another character before (main changed, or
        // one before her closed) reloads hers.
        if before.iter().any(|m| m.window == id && m.dir != member.dir) {
            crate::company::announce(app, id, &member.dir);
        }
        let sink = crate::sink::member_sink(app.clone(), id, name);
        let seat = ensemble.as_ref().and_then(|e| e.seat(i));
        let others = if seat.is_some() { lineup.cast.others(name) } else { Vec::new() };
        let session = match member.settings {
            Ok(settings) => start_session(app, member.dir, settings, &background, sink.clone(), Place { id, seat, others, launch: launch && i == 0 }).await,
            Err(e) => Err(e),
        };
        let session = session.map(|(session, card)| {
            company.started(id, session.handle());
            match id {
                WindowId::Pet => crate::ingress::attach(app, &session, if ensemble.is_some() { name } else { &card }),
                _ => crate::ingress::attach_beside(app, &session, name),
            }
            session
        });
        if let Err(e) = &session {
            tracing::error!(record = "session_start_failed", window = id.label(), character = %name, code = ?e.code, error = %e.message);
            sink.emit(UiEvent::notice(e.code, e.message.clone()));
        }
        windows.replace_session(id, session);
    }
}

/// The open characters as the registry has them, with what each runs with.
struct Lineup {
    /// Their names, main first.
    cast: yui_core::cast::Cast,
    /// Each one's files and settings, in the cast's order.
    members: Vec<LineupMember>,
    /// The app-wide limit of addressed turns per exchange.
    exchange_limit: u32,
}

/// One open character's files and settings (or why they cannot be read).
struct LineupMember {
    dir: DataDir,
    /// Her card's name.
    card: String,
    settings: Result<yui_core::Settings, CommandError>,
}

/// Read the registry of `dir` and each open character's settings.
/// Blocking: the settings may ask the OS keychain.
fn read_lineup(dir: &DataDir) -> Result<Lineup, CommandError> {
    let app_wide = dir.load_settings_without_key()?;
    let presets = yui_core::presets::Presets::read(dir)?;
    let cast = presets.cast();
    let members = cast
        .names()
        .iter()
        .map(|name| {
            let member_dir = presets.dir_of(dir, name)?;
            let settings = presets.settings_of(dir, name).map_err(CommandError::from);
            let vrm = settings.as_ref().map(|s| s.character.vrm.clone()).unwrap_or_default();
            let card = yui_core::card::current(&yui_core::card::CardStore::new(&member_dir, &vrm), &app_wide.user.language).name;
            Ok(LineupMember { settings, card, dir: member_dir })
        })
        .collect::<Result<Vec<_>, CommandError>>()?;
    Ok(Lineup { cast, members, exchange_limit: app_wide.user.exchange_limit })
}

/// Where a session runs: its window, its seat among several characters,
/// the others' names, and whether it is the app's first start.
struct Place {
    id: WindowId,
    seat: Option<yui_core::ensemble::Seat>,
    others: Vec<String>,
    launch: bool,
}

/// Runs when the app exits: stop the demo agent and flush the log.
pub fn shutdown(app: &AppHandle) {
    let background = app.state::<Background>();
    if let Some(demo) = lock(&background.demo).take() {
        tauri::async_runtime::block_on(demo.shutdown());
    }
    // What the sessions handed their writers lands before the process ends.
    app.state::<Windows>().flush_all();
    tracing::info!(record = "app_exit");
    drop(lock(&background.log).take());
}

/// `<override>/logs` when the data directory is overridden, else the
/// platform's log directory for this app.
fn log_dir(app: &AppHandle, override_dir: Option<&PathBuf>) -> Result<PathBuf, CommandError> {
    match override_dir {
        Some(dir) => Ok(dir.join("logs")),
        None => app.path().app_log_dir().map_err(|e| CommandError::new(ErrorCode::Storage, format!("no log directory: {e}"))),
    }
}

/// Start one character's session with `settings`: the demo agent first
/// when they name no backend (one for every character that names none).
async fn start_session(
    app: &AppHandle,
    data_dir: DataDir,
    mut settings: yui_core::Settings,
    background: &Background,
    sink: yui_core::SharedSink,
    place: Place,
) -> Result<(Session, String), CommandError> {
    if settings.uses_demo() {
        let running = lock(&background.demo).as_ref().map(|d| d.base_url());
        let url = match running {
            Some(url) => url,
            None => {
                background.demo_language.set(yui_demo::Lang::from_code(&settings.user.language));
                let demo = DemoServer::start(DemoConfig { quiet_language: background.demo_language.clone(), ..DemoConfig::default() })
                    .await
                    .map_err(|e| CommandError::new(ErrorCode::Network, format!("the demo agent could not start: {e:#}")))?;
                tracing::info!(record = "demo_agent", url = %demo.base_url());
                let url = demo.base_url();
                *lock(&background.demo) = Some(demo);
                url
            }
        };
        settings.character.chat_base_url = url;
    }
    // Its own thread: events go socket → engine → window without a hop
    // between workers. Starting it waits for that thread (and its file
    // reads), so it runs off the async workers.
    let mic = settings.character.voice.mic_enabled && place.id == WindowId::Pet;
    let card = yui_core::card::current(&yui_core::card::CardStore::new(&data_dir, &settings.character.vrm), &settings.user.language).name;
    let mut config = SessionConfig::new(settings, data_dir);
    config.desk = std::sync::Arc::new(crate::desk::AppDesk::of(app.clone(), place.id, place.others));
    config.world = yui_core::world::platform();
    config.seat = place.seat;
    config.launch = place.launch;
    config.desktop_check = place.launch;
    config.audio = audio_output(std::env::var(AUDIO_ENV).ok().as_deref());
    config.lips = app.state::<Windows>().lip_slot(place.id).map(lip_sender);
    let session = tauri::async_runtime::spawn_blocking(move || Session::start_on_own_thread(config, sink))
        .await
        .map_err(|e| CommandError::new(ErrorCode::Storage, format!("starting the session failed: {e}")))?
        .map_err(CommandError::from)?;
    if mic {
        session.listen(true);
    }
    Ok((session, card))
}

/// The session's lip callback: each mouth level goes down the channel the
/// pet page registered in `slot`, if it has registered one yet.
fn lip_sender(slot: LipSlot) -> yui_core::speech::audio::LipFn {
    std::sync::Arc::new(move |level: f32| {
        if let Some(channel) = lock(&slot).as_ref() {
            // A page that went away just stops hearing; the window's state goes with it.
            let _ = channel.send(level);
        }
    })
}

/// Lock a mutex, taking the data even after a panic elsewhere.
pub fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yui_audio_picks_the_output() {
        assert_eq!(audio_output(None), AudioOutput::Device);
        assert_eq!(audio_output(Some("null")), AudioOutput::Null);
        assert_eq!(audio_output(Some("NONE")), AudioOutput::None);
        assert_eq!(audio_output(Some("device")), AudioOutput::Device);
        assert_eq!(audio_output(Some("")), AudioOutput::Device);
    }

    #[test]
    fn the_lip_callback_reaches_the_channel_the_page_registers_later() {
        use std::sync::{Arc, Mutex};
        use tauri::ipc::{Channel, InvokeResponseBody};
        let slot = LipSlot::default();
        let lips = lip_sender(slot.clone());
        lips(0.5); // no page channel yet: nowhere to go
        let got = Arc::new(Mutex::new(Vec::new()));
        let seen = got.clone();
        *lock(&slot) = Some(Channel::new(move |body| {
            if let InvokeResponseBody::Json(json) = body {
                lock(&seen).push(json);
            }
            Ok(())
        }));
        lips(0.25);
        lips(0.0);
        assert_eq!(*lock(&got), vec!["0.25".to_string(), "0.0".to_string()]);
    }
}
