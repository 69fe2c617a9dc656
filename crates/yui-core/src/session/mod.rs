//! One window's session: the transport task, the driver task that runs the
//! turn engine, their channels and the connection status. Dropping the
//! [`Session`] cancels both tasks.

mod body;
pub mod chat_log;
mod driver;
pub mod handle;
mod initiative;
mod moves;
mod parts;
pub mod proactive;
pub mod relay;
mod setup;
pub mod world;

use crate::clock::SharedClock;
use crate::command::UserCommand;
use crate::context_log::{ContextLog, SentContext};
use crate::data_dir::DataDir;
use crate::error::CoreError;
use crate::event::Status;
use crate::limits::Timeouts;
use crate::model::Vocabulary;
use crate::settings::{LiveSettings, Settings};
use crate::sink::SharedSink;
use crate::speech::voices::{AudioOutput, LipFn};
use crate::tools::{Desk, NoDesk};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

/// Everything a session starts from.
#[derive(Clone)]
pub struct SessionConfig {
    /// Transport, endpoint, key, model, card switches.
    pub settings: Settings,
    /// Where chat_id and persisted files live.
    pub data_dir: DataDir,
    /// What the character can render.
    pub vocabulary: Vocabulary,
    /// The waits (the limits table by default).
    pub timeouts: Timeouts,
    /// The wall clock for ids and timestamps (the system clock by default).
    pub clock: SharedClock,
    /// What the client tools may ask of the desktop ([`NoDesk`] by default:
    /// no screen, no other open character).
    pub desk: Arc<dyn Desk>,
    /// The settings the session reads when it uses them (switches, the
    /// turn screenshot); [`Session::update_settings`] writes it.
    pub live: LiveSettings,
    /// Where speech sounds ([`AudioOutput::None`] by default: no voice, no
    /// sound, every sentence plays for no time).
    pub audio: AudioOutput,
    /// Receives the mouth level while sound plays.
    pub lips: Option<LipFn>,
    /// The desktop's facts: the frontmost window and the idle time (none
    /// by default; the app and the CLI pass [`crate::world::platform`]).
    pub world: Arc<dyn crate::world::DesktopFacts>,
    /// This session starts the app (not a restart after a settings
    /// change): the launch bed scene runs when its setting is on.
    pub launch: bool,
    /// Run the desktop self-test when the session starts and tell the user,
    /// once, what this desktop cannot give her (the app's pet window).
    pub desktop_check: bool,
    /// Whether the session samples [`SessionConfig::world`] itself
    /// ([`world::WorldInput::Sampled`], the default) or takes only the
    /// readings given to [`Session::feed_world`] ([`world::WorldInput::Fed`]).
    pub world_input: world::WorldInput,
    /// Where the session's per-turn writes run, in order, off its loop
    /// (the process's [`crate::persist::Writer::global`] by default).
    pub persist: crate::persist::Writer,
    /// Her place among several open characters (none by default: she is
    /// alone): the others overhear her, she overhears them, their replies
    /// address one another, and one voice speaks at a time.
    pub seat: Option<crate::ensemble::Seat>,
}

impl std::fmt::Debug for SessionConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionConfig").field("settings", &self.settings).field("data_dir", &self.data_dir).finish_non_exhaustive()
    }
}

impl SessionConfig {
    /// A config with the default vocabulary, waits and the system clock.
    pub fn new(settings: Settings, data_dir: DataDir) -> Self {
        let live = LiveSettings::new(settings.clone());
        Self {
            settings,
            data_dir,
            vocabulary: Vocabulary::default(),
            timeouts: Timeouts::default(),
            clock: crate::clock::system(),
            desk: Arc::new(NoDesk),
            live,
            audio: AudioOutput::None,
            lips: None,
            world: Arc::new(crate::world::NoDesktop::new(crate::world::UNSUPPORTED_LIMITATION)),
            launch: false,
            desktop_check: false,
            world_input: world::WorldInput::Sampled,
            persist: crate::persist::Writer::global(),
            seat: None,
        }
    }
}

/// The session's activity, published as one value so a reader never sees a
/// command counted before the busy state it caused.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Activity {
    /// True while a turn runs or messages wait.
    pub busy: bool,
    /// True while a sentence plays or waits to.
    pub speaking: bool,
    /// How many commands the driver has applied.
    pub applied: u64,
}

/// A running session. Commands go in with [`Session::send`]; events come out
/// through the sink given to [`Session::start`].
pub struct Session {
    cmds: mpsc::UnboundedSender<UserCommand>,
    arrivals: mpsc::UnboundedSender<crate::triggers::Arrival>,
    readings: mpsc::UnboundedSender<world::Reading>,
    status: watch::Receiver<Status>,
    activity: watch::Receiver<Activity>,
    sent: Arc<AtomicU64>,
    contexts: Arc<ContextLog>,
    cancel: CancellationToken,
    live: LiveSettings,
    sink: SharedSink,
    relations: Arc<crate::relations::RelationStore>,
    /// The offers to switch a tool switch on (a saved setting ends them).
    offers: Arc<crate::tools::Offers>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    /// The microphone while voice input is on (the toggle or push-to-talk).
    hearing: std::sync::Mutex<Option<crate::speech::hearing::Hearing>>,
    /// What voice input showed last.
    voice_state: Arc<std::sync::Mutex<crate::event::VoiceState>>,
    /// Every delegation this character has seen, persisted.
    delegations: Arc<std::sync::Mutex<crate::delegations::DelegationHistory>>,
    /// The chat window's conversations (the driver writes, queries read).
    chat: Arc<std::sync::Mutex<crate::session::chat_log::ChatLog>>,
    /// Their database: the chat window's queries read it without the lock.
    history: crate::chat::history::History,
    /// The runtime the session's tasks run on (voice input spawns there).
    runtime: tokio::runtime::Handle,
    /// Fires when the session's own thread has finished (see
    /// [`Session::start_on_own_thread`]).
    thread_done: Option<tokio::sync::oneshot::Receiver<()>>,
    /// What the last `body` event said.
    body_view: Arc<std::sync::Mutex<parts::body::BodyView>>,
    /// The writer of the session's per-turn records (flushed on close).
    persist: crate::persist::Writer,
}

impl Session {
    /// Start the session's tasks on the current tokio runtime: the transport
    /// `settings.chat_api` names, and the driver.
    ///
    /// Errors: an unusable `chat_base_url`, an unreadable data directory.
    pub fn start(config: SessionConfig, sink: SharedSink) -> Result<Session, CoreError> {
        let cancel = CancellationToken::new();
        let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
        let (arrival_tx, arrival_rx) = mpsc::unbounded_channel();
        let (world_tx, world_rx) = mpsc::unbounded_channel();
        let (status_tx, status_rx) = watch::channel(Status::Connecting { attempt: 0 });
        let (activity_tx, activity_rx) = watch::channel(Activity::default());
        let contexts = Arc::new(ContextLog::default());
        let parts = setup::build(&config, cancel.clone())?;
        sink.emit(crate::event::UiEvent::Status { status: Status::Connecting { attempt: 0 } });
        sink.emit(crate::event::UiEvent::ScreenWatch { on: config.live.read(|s| s.character.screenshot.enabled) });
        let tunables = body_tunables(&config.data_dir)?;
        let (body_tx, body_rx) = tokio::sync::mpsc::unbounded_channel();
        let tools = crate::tools::Toolbox::new(
            config.desk.clone(),
            config.live.clone(),
            parts.relations.clone(),
            parts.body.clone(),
            config.clock.clone(),
            sink.clone(),
        )
        .saving_into(config.data_dir.clone())
        .moving_through(body_tx);
        let addressing = crate::tools::Addressing::default();
        let tools = tools.addressing_into(addressing.clone());
        let offers = tools.offers();
        let transport = tokio::spawn(parts.transport);
        let delegations = Arc::new(std::sync::Mutex::new(
            crate::delegations::DelegationHistory::open(&config.data_dir, &config.settings.character.vrm).writing_through(config.persist.clone()),
        ));
        let chat = Arc::new(std::sync::Mutex::new(crate::session::chat_log::ChatLog::new(
            crate::chat::ChatStore::open(&config.data_dir, &config.settings.character.vrm, config.clock.now_ms()),
            Some(u64::from(config.settings.character.context_window)).filter(|w| *w > 0),
        )));
        let history = chat.lock().unwrap_or_else(|p| p.into_inner()).store().history().clone();
        let (notes_tx, notes_rx) = mpsc::unbounded_channel();
        if let Some(seat) = &config.seat {
            seat.take(history.clone(), notes_tx);
        }
        let company = self::parts::company::Company::new(
            config.seat.clone(),
            crate::ensemble::overheard::Overhearing::open(&config.data_dir).writing_through(config.persist.clone()),
            addressing,
        );
        let body_view = Arc::new(std::sync::Mutex::new(self::parts::body::BodyView::standing()));
        let launch_bed = config.launch && config.live.read(|s| s.character.bed.at_launch);
        let driver = driver::Driver {
            engine: parts.engine,
            sink: sink.clone(),
            clock: config.clock.clone(),
            live: config.live.clone(),
            desk: config.desk.clone(),
            tools,
            chat: chat.clone(),
            link: self::parts::link::Link::new(
                parts.outbound,
                parts.transport_name,
                config.settings.character.chat_api != crate::settings::ChatApi::Push,
                status_tx,
                activity_tx,
            ),
            records: self::parts::records::Records::new(parts.sampler, contexts.clone(), parts.outcomes, delegations.clone()),
            voice: self::parts::voice::Voice::new(parts.speaker, config.settings.character.voice.clone(), config.audio, config.lips.clone()),
            asks: Default::default(),
            initiative: self::parts::initiative::Initiative::new(
                world::World::new(activity_log(&config.data_dir, config.clock.now_ms()), parts.frontmost.clone()).writing_through(config.persist.clone()),
                proactive::Proactive::new(
                    &cue_config(&config.data_dir),
                    Some(config.data_dir.root().join(crate::triggers::milestone::FILE_NAME)),
                    config.clock.now_ms(),
                ),
            ),
            body: self::parts::body::Body::new(
                crate::body::Body::new(tunables, config.clock.now_ms()),
                parts.body.clone(),
                body_view.clone(),
                crate::placement::PlaceBook::open(&config.data_dir),
                // Keyed by the character's VRM (the bundled one: `default`).
                Some(config.settings.character.vrm.clone()).filter(|c| !c.is_empty()).unwrap_or_else(|| "default".into()),
            ),
            company,
        };
        if config.world_input == world::WorldInput::Sampled {
            world::spawn_sampler(config.world.clone(), config.live.clone(), world_tx.clone(), cancel.clone());
        }
        if config.desktop_check {
            let (data_dir, sink) = (config.data_dir.clone(), sink.clone());
            tokio::task::spawn_blocking(move || {
                let report = crate::world::stage::check_desktop();
                tracing::info!(record = "desktop_check", path = %report.path, problems = ?report.problems());
                if let Some(message) = crate::world::stage::notice_due(&data_dir, &report) {
                    // The page says it shorter in its language: the settings'
                    // desktop check lists each problem in it.
                    let phrase = crate::event::Phrase::new("notice-desktop-limited").arg("path", &report.path);
                    sink.emit(crate::event::UiEvent::notice_said(crate::error::ErrorCode::Unsupported, message, phrase));
                }
            });
        }
        if let Some(no_sound) = parts.voice_notice {
            sink.emit(no_sound_notice(&no_sound));
        }
        let task = tokio::spawn(driver.run(
            driver::Inputs { cmds: cmd_rx, inbound: parts.inbound, arrivals: arrival_rx, world: world_rx, body_rx, notes: notes_rx },
            launch_bed,
            cancel.clone(),
        ));
        Ok(Session {
            cmds: cmd_tx,
            arrivals: arrival_tx,
            readings: world_tx,
            status: status_rx,
            activity: activity_rx,
            sent: Arc::new(AtomicU64::new(0)),
            contexts,
            cancel,
            live: config.live.clone(),
            sink,
            relations: parts.relations.clone(),
            offers,
            tasks: vec![task, transport],
            hearing: std::sync::Mutex::new(None),
            voice_state: Arc::default(),
            delegations,
            chat,
            history,
            runtime: tokio::runtime::Handle::current(),
            thread_done: None,
            body_view,
            persist: config.persist.clone(),
        })
    }

    /// The body as the page draws it now, as a `body` event (a page that
    /// loads after the last one applies this first).
    pub fn body(&self) -> crate::event::UiEvent {
        self.body_view.lock().unwrap_or_else(|p| p.into_inner()).event()
    }

    /// Start the session on a thread of its own, with a one-thread runtime:
    /// the transport task, the driver and the sink hand each event to one
    /// another without waking another thread, whatever runtime the caller
    /// runs (the app's is multi-threaded). The thread ends with the session.
    ///
    /// Errors: as [`Session::start`], and a thread or runtime that cannot be
    /// made (`storage`).
    pub fn start_on_own_thread(config: SessionConfig, sink: SharedSink) -> Result<Session, CoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Session, CoreError>>(1);
        let (done_tx, done_rx) = tokio::sync::oneshot::channel();
        let io = |e: std::io::Error| CoreError::Storage { path: "session thread".into(), source: e };
        std::thread::Builder::new()
            .name("yui-session".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = tx.send(Err(io(e)));
                        return;
                    }
                };
                rt.block_on(async move {
                    match Session::start(config, sink) {
                        Ok(mut session) => {
                            let tasks = std::mem::take(&mut session.tasks);
                            let _ = tx.send(Ok(session));
                            for task in tasks {
                                let _ = task.await;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e));
                        }
                    }
                });
                let _ = done_tx.send(());
            })
            .map_err(io)?;
        let mut session = rx.recv().map_err(|_| CoreError::Closed)??;
        session.thread_done = Some(done_rx);
        Ok(session)
    }

    /// Apply settings that need no new session: the tool switches and the
    /// turn screenshot are read from here when next used. The pet hears
    /// whether the screen is watched; an offer to switch on a switch now on
    /// is over.
    pub fn update_settings(&self, settings: &Settings) {
        let was = self.live.read(|s| s.character.screenshot.enabled);
        self.live.set(settings.clone());
        self.offers.follow(settings);
        if was != settings.character.screenshot.enabled {
            self.sink.emit(crate::event::UiEvent::ScreenWatch { on: settings.character.screenshot.enabled });
        }
    }

    /// Turn voice input on or off (the mic toggle): the microphone the
    /// settings name listens, utterances become spoken turns, sustained
    /// speech while she talks barges in. The pill hears every state.
    pub fn listen(&self, on: bool) {
        let mut hearing = self.hearing.lock().unwrap_or_else(|p| p.into_inner());
        if !on {
            if hearing.take().is_some() {
                *self.voice_state.lock().unwrap_or_else(|p| p.into_inner()) = crate::event::VoiceState::Off;
                self.sink.emit(crate::event::UiEvent::VoiceInput { state: crate::event::VoiceState::Off });
            }
            return;
        }
        if hearing.as_ref().is_some_and(|h| !h.push_to_talk_only && !h.finished()) {
            return;
        }
        *hearing = self.open_ears(false);
    }

    /// Every delegation this character has seen, newest first (the
    /// settings window's Session section): at most the history limit of
    /// done items, every running one, a running item a later list left out
    /// recorded done with status `unknown`.
    pub fn delegation_history(&self) -> Vec<crate::model::DelegationItem> {
        self.delegations.lock().unwrap_or_else(|p| p.into_inner()).items()
    }

    /// The conversations of this character, newest change first (the chat
    /// window's list).
    pub fn conversations(&self) -> Vec<crate::chat::ConversationSummary> {
        let current = self.chat_log().store().current().id.clone();
        self.history.list(&current)
    }

    /// The conversation `id` as a chat window opens it (its newest page, or
    /// the page around message `at`), or the current one when `id` is
    /// `None` (its newest messages, as `conversation` events carry them).
    pub fn conversation(&self, id: Option<&str>, at: Option<&str>) -> Option<crate::chat::Conversation> {
        match id {
            Some(id) => crate::chat::store::window(&self.history, id, at),
            None => Some(self.chat_log().store().current().clone()),
        }
    }

    /// The messages of conversation `id` right before message `before` or
    /// right after message `after` (the chat window scrolled).
    pub fn chat_page(&self, id: &str, before: Option<&str>, after: Option<&str>) -> Option<crate::chat::ChatPage> {
        crate::chat::store::page(&self.history, id, before, after)
    }

    /// Messages of every conversation that contain `query` (Ctrl/⌘K).
    pub fn search_chats(&self, query: &str) -> Vec<crate::chat::SearchHit> {
        self.history.search(query)
    }

    fn chat_log(&self) -> std::sync::MutexGuard<'_, crate::session::chat_log::ChatLog> {
        self.chat.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Emit voice input's current state again (a page that subscribed after
    /// the microphone opened shows it in its pill).
    pub fn repeat_voice_state(&self) {
        let state = self.voice_state.lock().unwrap_or_else(|p| p.into_inner()).clone();
        self.sink.emit(crate::event::UiEvent::VoiceInput { state });
    }

    /// Push-to-talk pressed (`true`) or released. Pressing while she speaks
    /// stops her at once; releasing ends the utterance there. With the mic
    /// toggle off, the microphone opens for this one utterance.
    pub fn push_to_talk(&self, pressed: bool) {
        let mut hearing = self.hearing.lock().unwrap_or_else(|p| p.into_inner());
        if pressed {
            if self.activity.borrow().speaking {
                let _ = self.cmds.send(UserCommand::BargeIn);
            }
            if hearing.as_ref().is_none_or(|h| h.finished()) {
                *hearing = self.open_ears(true);
            }
        } else if let Some(h) = hearing.as_ref() {
            h.release();
        }
    }

    fn open_ears(&self, push_to_talk_only: bool) -> Option<crate::speech::hearing::Hearing> {
        let activity = self.activity.clone();
        let ears = crate::speech::hearing::Ears {
            cmds: self.cmds.clone(),
            speaking: Arc::new(move || activity.borrow().speaking),
            sink: self.sink.clone(),
            last: self.voice_state.clone(),
        };
        let voice = self.live.read(|s| s.character.voice.clone());
        let _guard = self.runtime.enter();
        crate::speech::hearing::Hearing::open(&voice, ears, push_to_talk_only)
    }

    /// This character's relations, as the session reads and writes them
    /// (the settings window lists them and sets one by hand through this).
    pub fn relations(&self) -> Arc<crate::relations::RelationStore> {
        self.relations.clone()
    }

    /// The settings this session reads now.
    pub fn live_settings(&self) -> LiveSettings {
        self.live.clone()
    }

    /// Hand a user action to the session.
    pub fn send(&self, cmd: UserCommand) -> Result<(), CoreError> {
        self.sent.fetch_add(1, Ordering::SeqCst);
        self.cmds.send(cmd).map_err(|_| CoreError::Closed)
    }

    /// A handle that sends commands to this session and waits on it, kept
    /// apart from the session (it outlives neither the session's task nor
    /// its commands: once the session ends, sending answers `Closed`).
    pub fn handle(&self) -> handle::SessionHandle {
        handle::SessionHandle::new(self.cmds.clone(), self.sent.clone(), self.status.clone(), self.activity.clone())
    }

    /// Hand the session something another program sent (the signals
    /// ingress): its inbox decides when it becomes a turn.
    pub fn arrive(&self, arrival: crate::triggers::Arrival) -> Result<(), CoreError> {
        self.arrivals.send(arrival).map_err(|_| CoreError::Closed)
    }

    /// Hand the session one reading of the desktop, as the sampler would
    /// (with [`world::WorldInput::Fed`] these are the only readings; with
    /// the sampler they mix in with its own). The reading is taken at the
    /// session clock's time when the driver folds it. The returned future
    /// resolves once the driver has folded it and started the turn it
    /// caused, if any (so [`Session::activity`] already shows that turn);
    /// `Err(Closed)` when the session has ended first. The reading is sent
    /// when this is called, whether or not the future is awaited.
    pub fn feed_world(&self, sample: world::WorldSample) -> impl std::future::Future<Output = Result<(), CoreError>> + Send + 'static {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let sent = self.readings.send((sample, Some(tx))).is_ok();
        async move {
            if !sent {
                return Err(CoreError::Closed);
            }
            rx.await.map_err(|_| CoreError::Closed)
        }
    }

    /// The session's activity (a turn running, something being said, the
    /// commands applied), on a watch channel.
    pub fn activity(&self) -> watch::Receiver<Activity> {
        self.activity.clone()
    }

    /// The connection state, on a watch channel.
    pub fn status(&self) -> watch::Receiver<Status> {
        self.status.clone()
    }

    /// True while a turn runs or messages wait.
    pub fn busy(&self) -> bool {
        self.activity.borrow().busy
    }

    /// The last client_context blocks this session sent, oldest first.
    pub fn sent_contexts(&self) -> Vec<SentContext> {
        self.contexts.entries()
    }

    /// Wait until the transport is ready, up to `timeout`. True when it is.
    pub async fn wait_ready(&self, timeout: Duration) -> bool {
        let mut rx = self.status.clone();
        tokio::time::timeout(timeout, rx.wait_for(|s| s.is_ready())).await.is_ok_and(|r| r.is_ok())
    }

    /// Wait until every command sent so far has been applied, no turn runs,
    /// nothing is queued and nothing is left to say, up to `timeout`.
    pub async fn wait_idle(&self, timeout: Duration) -> bool {
        let target = self.sent.load(Ordering::SeqCst);
        let mut rx = self.activity.clone();
        tokio::time::timeout(timeout, rx.wait_for(|a| !a.busy && !a.speaking && a.applied >= target)).await.is_ok_and(|r| r.is_ok())
    }

    /// Stop the tasks and wait for them to finish.
    pub async fn close(mut self) {
        self.cancel.cancel();
        for task in self.tasks.drain(..) {
            let _ = task.await;
        }
        if let Some(done) = self.thread_done.take() {
            let _ = done.await;
        }
        // Everything the session wrote has landed when close returns.
        self.persist.flush_async().await;
        let history = self.history.clone();
        let _ = tokio::task::spawn_blocking(move || history.flush()).await;
    }

    /// Wait until everything the session handed its writers (the per-turn
    /// records, the conversation history) is on disk; the session runs on.
    /// Blocking: the app calls it as it exits.
    pub fn flush(&self) {
        self.persist.flush();
        if let Err(e) = self.history.flush() {
            tracing::warn!(record = "chat_save_failed", error = %e);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// The activity log in `data_dir`, or none (logged) when it cannot be opened.
fn activity_log(data_dir: &DataDir, now_ms: i64) -> Option<crate::world::ActivityLog> {
    crate::world::ActivityLog::open(data_dir, now_ms).map_err(|e| tracing::warn!(record = "activity_log_failed", error = %e)).ok()
}

/// The body's tunables: the `body` section of `<data dir>/avatar.json`,
/// else the shipped one. A bad section stops the start, naming its key.
fn body_tunables(data_dir: &DataDir) -> Result<crate::body::BodyTunables, CoreError> {
    let path = data_dir.root().join("avatar.json");
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(crate::body::BodyTunables::shipped()) };
    crate::body::BodyTunables::from_avatar_json(&text).map_err(|reason| {
        tracing::error!(record = "avatar_config_invalid", path = %path.display(), reason = %reason);
        CoreError::Settings { field: "avatar.json", reason: reason.to_string() }
    })
}

/// The cues of `<data dir>/avatar.json`, or the shipped ones (logged) when
/// there is none or it is broken.
fn cue_config(data_dir: &DataDir) -> crate::triggers::cues::CueConfig {
    let path = data_dir.root().join("avatar.json");
    if !path.exists() {
        return crate::triggers::cues::CueConfig::shipped();
    }
    crate::triggers::cues::load(&path).unwrap_or_else(|e| {
        tracing::warn!(record = "avatar_config_unreadable", error = %e);
        crate::triggers::cues::CueConfig::shipped()
    })
}
/// The notice that the sound device failed and speech shows silent.
fn no_sound_notice(no_sound: &crate::speech::voices::NoSound) -> crate::event::UiEvent {
    crate::event::UiEvent::notice_said(
        crate::error::ErrorCode::Audio,
        no_sound.message(),
        crate::event::Phrase::new("notice-no-sound").arg("detail", &no_sound.detail),
    )
}
