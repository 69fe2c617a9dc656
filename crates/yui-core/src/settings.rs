//! User settings: which chat API, where, with which key.

use crate::error::CoreError;
use serde::{Deserialize, Serialize};
use std::fmt;
use ts_rs::TS;

/// The four chat transports.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChatApi {
    /// The push WebSocket (`<chat_base_url>/ws`).
    #[default]
    Push,
    /// The OpenAI Responses API.
    Responses,
    /// OpenAI Chat Completions.
    ChatCompletions,
    /// A local agent engine's `POST /chat` event stream (seed `004`).
    AgentChat,
}

impl ChatApi {
    /// The wire name (`push`, `responses`, `chat_completions`, `agent_chat`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChatApi::Push => "push",
            ChatApi::Responses => "responses",
            ChatApi::ChatCompletions => "chat_completions",
            ChatApi::AgentChat => "agent_chat",
        }
    }
}

impl std::str::FromStr for ChatApi {
    type Err = CoreError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "push" => Ok(ChatApi::Push),
            "responses" => Ok(ChatApi::Responses),
            "chat_completions" => Ok(ChatApi::ChatCompletions),
            "agent_chat" => Ok(ChatApi::AgentChat),
            other => Err(CoreError::Settings {
                field: "chat_api",
                reason: format!("unknown chat API {other:?}; use push, responses, chat_completions or agent_chat"),
            }),
        }
    }
}

/// The settings one window runs with. Missing fields take their defaults,
/// so an old settings file still loads.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct Settings {
    /// Which transport to use.
    pub chat_api: ChatApi,
    /// The backend's base URL, e.g. `https://host:8646`. Empty: the built-in demo agent.
    pub chat_base_url: String,
    /// The chat API key. Never logged; `Debug` redacts it. Kept by the
    /// [`crate::keystore::KeyStore`], never written to `settings.json`.
    pub key: String,
    /// The model name (request transports only).
    pub model: String,
    /// The user's own character: a `.vrm` inside the data directory
    /// (see [`crate::character::import_vrm`]). Empty: the bundled default.
    pub character: String,
    /// Reasoning effort sent with each request (`low`, `medium`, `high`);
    /// empty sends none. Request transports only.
    pub reasoning_effort: String,
    /// The model's context window in tokens: the Chat Completions transcript
    /// is trimmed to it, and the usage readout shows it.
    pub context_window: u32,
    /// Extra instructions sent after the card (the card's last block), or
    /// alone when the card is off. Request transports only.
    pub chat_instructions: String,
    /// Send the character's card (persona) with each request.
    pub card_enabled: bool,
    /// The user's name for the card's `{{user}}`; empty uses a fallback word.
    pub user_name: String,
    /// The UI language (`en`, `ja`, `ko`): picks the default card.
    pub language: String,
    /// The turn screenshot and the `look.screen` switch.
    pub screenshot: ScreenshotSettings,
    /// The `browser` switch: every `browser` call (default off).
    pub browser: bool,
    /// The `relations` switch: `rate_relation` and the `relation:` lines
    /// (default on).
    pub relations: bool,
    /// Speech out and voice in.
    pub voice: VoiceSettings,
    /// The chat window.
    pub chat: ChatSettings,
    /// The signals ingress.
    pub ingress: IngressSettings,
    /// The frontmost line and presence.
    pub reactions: ReactionsSettings,
    /// The bed scene (the Character section).
    pub bed: BedSettings,
    /// Start YUI when the user logs in (default off; the app registers or
    /// removes the OS's login item, see [`crate::presence::autostart_action`]).
    pub start_at_login: bool,
}

/// The bed scene (seed `003`, "Wake"): the launch entry's switch and the
/// wake timeout that ends either entry's sleep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct BedSettings {
    /// Start asleep on a bed when YUI starts (default off). Governs the
    /// launch entry only; `go_to_bed` works either way.
    pub at_launch: bool,
    /// Minutes she sleeps before she wakes by herself (default 30; 1 to 480).
    pub wake_timeout_min: u32,
}

impl Default for BedSettings {
    fn default() -> Self {
        Self { at_launch: false, wake_timeout_min: crate::limits::BED_WAKE_TIMEOUT_MIN_DEFAULT }
    }
}

/// The signals ingress (`shared/spec/signals-ingress.md`): a loopback HTTP
/// server other local programs post signals to. Off by default. Its Debug
/// form never shows the token.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct IngressSettings {
    /// Listen on `127.0.0.1:port` (default off).
    pub enabled: bool,
    /// The port (default 8770); a change applies after a restart.
    pub port: u16,
    /// Answer 401 to a request without `Authorization: Bearer <token>`
    /// (default off).
    pub require_token: bool,
    /// A token for this run only (the CLI's `--set ingress.token=T`); empty
    /// uses the per-installation token kept in the data dir.
    pub token: String,
}

impl fmt::Debug for IngressSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IngressSettings")
            .field("enabled", &self.enabled)
            .field("port", &self.port)
            .field("require_token", &self.require_token)
            .field("token", &if self.token.is_empty() { "" } else { "<redacted>" })
            .finish()
    }
}

impl Default for IngressSettings {
    fn default() -> Self {
        Self { enabled: false, port: crate::limits::INGRESS_PORT_DEFAULT, require_token: false, token: String::new() }
    }
}

/// What the world tells her (`docs/triggers.md`):
/// the frontmost app and when the user counts as away.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct ReactionsSettings {
    /// Sample the frontmost app and window title for the `frontmost:` line
    /// (default on; off: no line, nothing sampled).
    pub frontmost: bool,
    /// The user counts as away after this many minutes without input
    /// (default 5; 1 to 120).
    pub away_after_min: u32,
    /// When a turn nobody typed may start.
    pub pacing: crate::triggers::pacing::PacingSettings,
    /// Screen transitions (`app_switched`, `long_session`; default on: the
    /// thresholds and the pacer keep them rare).
    pub screen_transitions: bool,
    /// The schedule: the day's first-activity milestone and the time-of-day
    /// cues of `avatar.json` (default on; none are shipped).
    pub schedule: bool,
    /// Idle cues of `avatar.json` (default on; the shipped one after an hour
    /// with no turn).
    pub idle_cues: bool,
}

impl Default for ReactionsSettings {
    fn default() -> Self {
        Self { frontmost: true, away_after_min: 5, pacing: Default::default(), screen_transitions: true, schedule: true, idle_cues: true }
    }
}

impl ReactionsSettings {
    /// The idle limit in milliseconds (clamped to 1..=120 minutes).
    pub fn away_after_ms(&self) -> u64 {
        u64::from(self.away_after_min.clamp(1, 120)) * 60_000
    }
}

/// What becomes of the ingress when the saved settings change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IngressAction {
    /// Leave it as it is (a port change waits for a restart of the app).
    Keep,
    /// Start it: switched on, and not running.
    Start,
    /// Stop it: switched off.
    Stop,
    /// Start it again on its port: the token rule changed.
    Restart,
}

impl IngressSettings {
    /// What to do when the saved settings become `next` while the ingress
    /// runs with `running` (None: it does not run). The switch applies at
    /// once, the token rule restarts it, and a port change applies after
    /// the app restarts (the spec's rule).
    pub fn action(running: Option<&IngressSettings>, next: &IngressSettings) -> IngressAction {
        match running {
            None if next.enabled => IngressAction::Start,
            None => IngressAction::Keep,
            Some(_) if !next.enabled => IngressAction::Stop,
            Some(r) if r.require_token != next.require_token || r.token != next.token => IngressAction::Restart,
            Some(_) => IngressAction::Keep,
        }
    }
}

/// What the settings window shows of the signals ingress: where it
/// listens, the token, and a line to try it with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct IngressInfo {
    /// The saved switch.
    pub enabled: bool,
    /// True while the server listens.
    pub listening: bool,
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// The per-installation token (or this run's override).
    pub token: String,
    /// Whether requests must carry the token.
    pub require_token: bool,
    /// Why it does not listen though switched on (the port is taken…), or
    /// null.
    pub problem: Option<String>,
    /// A `curl` line that posts one signal, copyable.
    pub example: String,
}

impl IngressInfo {
    /// The view of `settings` with `token`, listening or failing with `problem`.
    pub fn of(settings: &IngressSettings, token: &str, listening: bool, problem: Option<String>) -> Self {
        let address = format!("http://127.0.0.1:{}", settings.port);
        let auth = if settings.require_token { format!(" -H 'Authorization: Bearer {token}'") } else { String::new() };
        let body = r#"{"envelope":{"source":"shell","event_type":"hello","delivery":"immediate"},"signals":[{"text":"hello from curl"}]}"#;
        let example = format!("curl -s -X POST {address}/signals -H 'Content-Type: application/json'{auth} -d '{body}'");
        Self { enabled: settings.enabled, listening, address, token: token.to_string(), require_token: settings.require_token, problem, example }
    }
}

/// The chat window's settings (seed `004`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct ChatSettings {
    /// Show Reasoning: the live "Thinking… Ns" panel (default on).
    pub show_reasoning: bool,
    /// Collapse reasoning by default: the panel starts folded (default off).
    pub collapse_reasoning: bool,
    /// Ask in an in-app dialog before deleting a message or a conversation
    /// (default on).
    pub confirm_delete: bool,
    /// Attachments per message (default 5).
    pub max_attachments: u32,
    /// Bytes per attachment (default 2 MB).
    #[ts(type = "number")]
    pub max_attachment_bytes: u64,
}

impl Default for ChatSettings {
    fn default() -> Self {
        Self {
            show_reasoning: true,
            collapse_reasoning: false,
            confirm_delete: true,
            max_attachments: crate::limits::CHAT_ATTACHMENTS as u32,
            max_attachment_bytes: crate::limits::CHAT_ATTACHMENT_BYTES as u64,
        }
    }
}

/// How she speaks and listens (`docs/voice.md`).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct VoiceSettings {
    /// Speak replies aloud (default on). Off: the bubble paces at reading
    /// speed and nothing plays.
    pub enabled: bool,
    /// An OpenAI-compatible TTS server (`<base>/v1/audio/speech`); empty
    /// uses the system voice.
    pub tts_base_url: String,
    /// The TTS server's key; empty sends none. Never logged.
    pub tts_key: String,
    /// The TTS `model` field.
    pub tts_model: String,
    /// The TTS `voice` field.
    pub tts_voice: String,
    /// Speech requests running at once (1 to 8, default 2); playback stays
    /// in order whatever the number.
    pub tts_in_flight: u32,
    /// Speaking speed in percent (100 is normal; 25 to 400).
    pub speed_percent: u32,
    /// With no TTS server, speak with the system voice (espeak-ng or
    /// speech-dispatcher on Linux, `say` on macOS, SAPI on Windows);
    /// off: reading speed, no sound.
    pub system_voice: bool,
    /// The system voice's name (espeak-ng `-v`); empty: its default.
    pub system_voice_name: String,
    /// The sound output device by name; empty: the default.
    pub output_device: String,
    /// Listen to the microphone (the mic toggle).
    pub mic_enabled: bool,
    /// The microphone by name; empty: the default.
    pub mic_device: String,
    /// How readily speech is detected, 0 to 100 (default 50).
    pub vad_sensitivity: u32,
    /// An OpenAI-compatible speech-to-text server
    /// (`<base>/v1/audio/transcriptions`); empty: voice input is off.
    pub stt_base_url: String,
    /// The STT server's key; empty sends none. Never logged.
    pub stt_key: String,
    /// The STT `model` field.
    pub stt_model: String,
    /// The spoken language hint (`en`, `ja`); empty lets the server detect.
    pub stt_language: String,
    /// Say thinking fillers while a reply is slow (default on).
    pub filler: bool,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            tts_base_url: String::new(),
            tts_key: String::new(),
            tts_model: "tts-1".into(),
            tts_voice: "alloy".into(),
            tts_in_flight: crate::limits::TTS_REQUESTS_IN_FLIGHT as u32,
            speed_percent: 100,
            system_voice: true,
            system_voice_name: String::new(),
            output_device: String::new(),
            mic_enabled: false,
            mic_device: String::new(),
            vad_sensitivity: 50,
            stt_base_url: String::new(),
            stt_key: String::new(),
            stt_model: "whisper-1".into(),
            stt_language: String::new(),
            filler: true,
        }
    }
}

impl fmt::Debug for VoiceSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hide = |k: &str| if k.is_empty() { "" } else { "<redacted>" };
        f.debug_struct("VoiceSettings")
            .field("enabled", &self.enabled)
            .field("tts_base_url", &self.tts_base_url)
            .field("tts_key", &hide(&self.tts_key))
            .field("tts_model", &self.tts_model)
            .field("tts_voice", &self.tts_voice)
            .field("tts_in_flight", &self.tts_in_flight)
            .field("speed_percent", &self.speed_percent)
            .field("system_voice", &self.system_voice)
            .field("output_device", &self.output_device)
            .field("mic_enabled", &self.mic_enabled)
            .field("mic_device", &self.mic_device)
            .field("vad_sensitivity", &self.vad_sensitivity)
            .field("stt_base_url", &self.stt_base_url)
            .field("stt_key", &hide(&self.stt_key))
            .field("stt_model", &self.stt_model)
            .field("filler", &self.filler)
            .finish_non_exhaustive()
    }
}

/// The `yui.screenshot` settings of seed `003`: two independent switches
/// and the source attached to each turn.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct ScreenshotSettings {
    /// Attach the selected source at the start of each turn (default off).
    pub enabled: bool,
    /// The `look.screen` switch: the backend may ask for the screen with
    /// `look { at: "screen" }` (default off).
    #[serde(rename = "allowRequests")]
    pub allow_requests: bool,
    /// What the turn screenshot shows.
    pub source: ScreenChoice,
}

/// The source of the turn screenshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScreenChoice {
    /// A display, by its index in the display list.
    Monitor {
        /// The display index (as `look` and `body_action` number them).
        index: usize,
    },
    /// The frontmost window of an app whose title contains `title`.
    Window {
        /// The app (window class), matched without case.
        app: String,
        /// A part of the title; empty matches any.
        title: String,
    },
}

impl Default for ScreenChoice {
    fn default() -> Self {
        ScreenChoice::Monitor { index: 0 }
    }
}

/// The context window assumed when none is set: 32k tokens.
pub const DEFAULT_CONTEXT_WINDOW: u32 = 32_768;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            chat_api: ChatApi::default(),
            chat_base_url: String::new(),
            key: String::new(),
            model: String::new(),
            character: String::new(),
            reasoning_effort: String::new(),
            context_window: DEFAULT_CONTEXT_WINDOW,
            chat_instructions: String::new(),
            card_enabled: true,
            user_name: String::new(),
            language: "en".into(),
            screenshot: ScreenshotSettings::default(),
            browser: false,
            relations: true,
            voice: VoiceSettings::default(),
            chat: ChatSettings::default(),
            ingress: IngressSettings::default(),
            reactions: ReactionsSettings::default(),
            bed: BedSettings::default(),
            start_at_login: false,
        }
    }
}

impl fmt::Debug for Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Settings")
            .field("chat_api", &self.chat_api)
            .field("chat_base_url", &self.chat_base_url)
            .field("key", &if self.key.is_empty() { "" } else { "<redacted>" })
            .field("model", &self.model)
            .field("character", &self.character)
            .field("reasoning_effort", &self.reasoning_effort)
            .field("context_window", &self.context_window)
            .field("card_enabled", &self.card_enabled)
            .field("language", &self.language)
            .field("screenshot", &self.screenshot)
            .field("browser", &self.browser)
            .field("relations", &self.relations)
            .field("voice", &self.voice)
            .field("chat", &self.chat)
            .field("ingress", &self.ingress)
            .field("reactions", &self.reactions)
            .field("bed", &self.bed)
            .field("start_at_login", &self.start_at_login)
            .finish_non_exhaustive()
    }
}

impl Settings {
    /// True when going from `self` to `next` needs a new session: the
    /// protocol, endpoint or key changed (a refused key waits for this), or,
    /// on a request transport, what each request carries (model, reasoning
    /// effort, window, instructions, card, names, language). On push the
    /// model and the card ride nowhere, so they need none.
    pub fn transport_changed(&self, next: &Settings) -> bool {
        let wire = self.chat_api != next.chat_api || self.chat_base_url.trim() != next.chat_base_url.trim() || self.key != next.key;
        let request = next.chat_api != ChatApi::Push
            && (self.model != next.model
                || self.character != next.character
                || self.reasoning_effort != next.reasoning_effort
                || self.context_window != next.context_window
                || self.chat_instructions != next.chat_instructions
                || self.card_enabled != next.card_enabled
                || self.user_name != next.user_name
                || self.language != next.language);
        wire || request
    }

    /// True when no backend is configured and the demo agent should answer.
    pub fn uses_demo(&self) -> bool {
        self.chat_base_url.trim().is_empty()
    }
}

/// What saving new settings means for the running app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SettingsChange {
    /// The pet window needs a new session (protocol, endpoint or key changed).
    pub restart_session: bool,
    /// The pet window must reload its character.
    pub character_changed: bool,
}

impl Settings {
    /// Compare with `next`: what the app must do to apply it.
    pub fn change_to(&self, next: &Settings) -> SettingsChange {
        SettingsChange { restart_session: self.transport_changed(next), character_changed: self.character != next.character }
    }

    /// Check a settings value before it is saved: a known scheme for a
    /// non-empty base URL. Errors name the field.
    pub fn validate(&self) -> Result<(), CoreError> {
        if !self.uses_demo() {
            match self.chat_api {
                ChatApi::Push => {
                    push_url(&self.chat_base_url)?;
                }
                _ => {
                    let url = url::Url::parse(self.chat_base_url.trim()).map_err(|e| CoreError::Settings { field: "chat_base_url", reason: e.to_string() })?;
                    if !matches!(url.scheme(), "http" | "https") {
                        return Err(CoreError::Settings { field: "chat_base_url", reason: format!("unsupported scheme {:?}", url.scheme()) });
                    }
                }
            }
        }
        Ok(())
    }
}

/// The settings a running session reads at the moment it uses them (the
/// tool switches when a call runs, the screenshot when a turn starts). The
/// app writes it when the user saves; a change here needs no new session.
#[derive(Debug, Clone, Default)]
pub struct LiveSettings(std::sync::Arc<std::sync::RwLock<Settings>>);

impl LiveSettings {
    /// A handle holding `settings`.
    pub fn new(settings: Settings) -> Self {
        Self(std::sync::Arc::new(std::sync::RwLock::new(settings)))
    }

    /// Read a part of the settings now.
    pub fn read<T>(&self, f: impl FnOnce(&Settings) -> T) -> T {
        f(&self.0.read().unwrap_or_else(|e| e.into_inner()))
    }

    /// Replace the settings.
    pub fn set(&self, settings: Settings) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = settings;
    }

    /// Change the settings in place.
    pub fn update(&self, f: impl FnOnce(&mut Settings)) {
        f(&mut self.0.write().unwrap_or_else(|e| e.into_inner()));
    }
}

/// Apply a `KEY=VALUE` override (the CLI's `--set`): `look.screen`,
/// `browser`, `relations`, `screenshot.enabled` and
/// `screenshot.allowRequests` take `on`/`off` (or `true`/`false`);
/// `screenshot.monitor` takes a display index; `screenshot.window` takes
/// `app` or `app:title part`.
pub fn apply_override(settings: &mut Settings, pair: &str) -> Result<(), CoreError> {
    let (key, value) = pair.split_once('=').ok_or_else(|| CoreError::Settings { field: "set", reason: format!("{pair:?} is not KEY=VALUE") })?;
    let (key, value) = (key.trim(), value.trim());
    let switch = || match value {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(CoreError::Settings { field: "set", reason: format!("{key} takes on or off, not {value:?}") }),
    };
    match key {
        "look.screen" | "screenshot.allowRequests" => settings.screenshot.allow_requests = switch()?,
        "screenshot.enabled" => settings.screenshot.enabled = switch()?,
        "browser" => settings.browser = switch()?,
        "relations" => settings.relations = switch()?,
        "voice" | "tts" => settings.voice.enabled = switch()?,
        "tts.base_url" => settings.voice.tts_base_url = value.into(),
        "tts.key" => settings.voice.tts_key = value.into(),
        "tts.model" => settings.voice.tts_model = value.into(),
        "tts.voice" => settings.voice.tts_voice = value.into(),
        "tts.in_flight" => {
            settings.voice.tts_in_flight = value.parse().ok().filter(|n| (1..=8).contains(n)).ok_or_else(|| CoreError::Settings { field: "set", reason: format!("tts.in_flight takes 1 to 8, not {value:?}") })?;
        }
        "tts.speed" => {
            let speed: f32 = value.parse().ok().filter(|s: &f32| (0.25..=4.0).contains(s)).ok_or_else(|| CoreError::Settings { field: "set", reason: format!("tts.speed takes 0.25 to 4.0, not {value:?}") })?;
            settings.voice.speed_percent = (speed * 100.0).round() as u32;
        }
        "system_voice" => settings.voice.system_voice = switch()?,
        "filler" => settings.voice.filler = switch()?,
        "stt.base_url" => settings.voice.stt_base_url = value.into(),
        "stt.key" => settings.voice.stt_key = value.into(),
        "stt.model" => settings.voice.stt_model = value.into(),
        "stt.language" => settings.voice.stt_language = value.into(),
        "ingress" | "ingress.enabled" => settings.ingress.enabled = switch()?,
        "ingress.require_token" => settings.ingress.require_token = switch()?,
        "frontmost" => settings.reactions.frontmost = switch()?,
        "screen_transitions" => settings.reactions.screen_transitions = switch()?,
        "schedule" => settings.reactions.schedule = switch()?,
        "idle_cues" => settings.reactions.idle_cues = switch()?,
        "away_after_min" => {
            settings.reactions.away_after_min = value.parse().ok().filter(|m| (1..=120).contains(m)).ok_or_else(|| CoreError::Settings { field: "set", reason: format!("away_after_min takes 1 to 120, not {value:?}") })?;
        }
        "bed.at_launch" => settings.bed.at_launch = switch()?,
        "start_at_login" => settings.start_at_login = switch()?,
        "bed.wake_timeout_min" => {
            settings.bed.wake_timeout_min = value.parse().ok().filter(|m| (1..=crate::limits::BED_WAKE_TIMEOUT_MIN_MAX).contains(m)).ok_or_else(|| CoreError::Settings { field: "set", reason: format!("bed.wake_timeout_min takes 1 to 480, not {value:?}") })?;
        }
        "ingress.token" => settings.ingress.token = value.into(),
        "ingress.port" => {
            settings.ingress.port = value.parse().ok().filter(|p| *p > 0).ok_or_else(|| CoreError::Settings { field: "set", reason: format!("ingress.port takes 1 to 65535, not {value:?}") })?;
        }
        "screenshot.monitor" => {
            let index = value.parse().map_err(|_| CoreError::Settings { field: "set", reason: format!("screenshot.monitor takes a display index, not {value:?}") })?;
            settings.screenshot.source = ScreenChoice::Monitor { index };
        }
        "screenshot.window" => {
            let (app, title) = value.split_once(':').unwrap_or((value, ""));
            settings.screenshot.source = ScreenChoice::Window { app: app.trim().into(), title: title.trim().into() };
        }
        _ => {
            return Err(CoreError::Settings {
                field: "set",
                reason: format!("unknown setting {key:?}; use look.screen, browser, relations, screenshot.enabled, screenshot.monitor, screenshot.window, voice, tts.base_url, tts.key, tts.model, tts.voice, tts.speed, system_voice, filler, stt.*, ingress.*, frontmost, screen_transitions, schedule, idle_cues, away_after_min, bed.at_launch, bed.wake_timeout_min or start_at_login"),
            })
        }
    }
    Ok(())
}

/// The push endpoint for a base URL: `https://h:1` gives `wss://h:1/ws`,
/// `http://h:1` gives `ws://h:1/ws`; `ws(s)://` is kept.
pub fn push_url(chat_base_url: &str) -> Result<url::Url, CoreError> {
    let bad = |reason: String| CoreError::Settings { field: "chat_base_url", reason };
    let mut url = url::Url::parse(chat_base_url.trim()).map_err(|e| bad(format!("{e}")))?;
    let scheme = match url.scheme() {
        "https" | "wss" => "wss",
        "http" | "ws" => "ws",
        other => return Err(bad(format!("unsupported scheme {other:?}"))),
    };
    url.set_scheme(scheme).map_err(|_| bad("cannot set scheme".into()))?;
    let path = url.path().trim_end_matches('/').to_string();
    url.set_path(&format!("{path}/ws"));
    Ok(url)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_ingress_switch_applies_at_once_and_the_port_after_a_restart() {
        let on = IngressSettings { enabled: true, ..IngressSettings::default() };
        let off = IngressSettings::default();
        assert_eq!(IngressSettings::action(None, &on), IngressAction::Start);
        assert_eq!(IngressSettings::action(None, &off), IngressAction::Keep);
        assert_eq!(IngressSettings::action(Some(&on), &off), IngressAction::Stop);
        assert_eq!(IngressSettings::action(Some(&on), &IngressSettings { port: 9999, ..on.clone() }), IngressAction::Keep);
        assert_eq!(IngressSettings::action(Some(&on), &IngressSettings { require_token: true, ..on.clone() }), IngressAction::Restart);
        assert_eq!(IngressSettings::action(Some(&on), &on), IngressAction::Keep);
    }

    #[test]
    fn the_ingress_view_names_the_address_and_sends_the_token_only_when_required() {
        let mut ingress = IngressSettings { enabled: true, port: 9001, ..IngressSettings::default() };
        let open = IngressInfo::of(&ingress, "t0k", true, None);
        assert_eq!(open.address, "http://127.0.0.1:9001");
        assert!(open.example.starts_with("curl -s -X POST http://127.0.0.1:9001/signals "), "{}", open.example);
        assert!(!open.example.contains("t0k"), "no token when none is required");
        ingress.require_token = true;
        let guarded = IngressInfo::of(&ingress, "t0k", false, Some("port 9001 is taken".into()));
        assert!(guarded.example.contains("-H 'Authorization: Bearer t0k'"), "{}", guarded.example);
        assert_eq!(guarded.problem.as_deref(), Some("port 9001 is taken"));
        let body = guarded.example.rsplit_once(" -d '").unwrap().1.trim_end_matches('\'');
        let json: serde_json::Value = serde_json::from_str(body).expect("the example body is JSON");
        assert!(json["signals"].is_array());
        assert!(!format!("{ingress:?}").contains("t0k"));
        ingress.token = "secret".into();
        assert!(!format!("{ingress:?}").contains("secret"), "Debug hides the token");
        assert_eq!(IngressSettings::default().port, 8770);
        assert!(!IngressSettings::default().enabled, "off by default");
    }

    use super::*;

    #[test]
    fn push_url_follows_the_seed() {
        assert_eq!(push_url("https://host:8646").unwrap().as_str(), "wss://host:8646/ws");
        assert_eq!(push_url("http://127.0.0.1:9/").unwrap().as_str(), "ws://127.0.0.1:9/ws");
        assert_eq!(push_url("http://h/api").unwrap().as_str(), "ws://h/api/ws");
        assert!(push_url("ftp://h").is_err());
        assert!(push_url("not a url").is_err());
    }

    #[test]
    fn debug_never_shows_the_key() {
        let s = Settings { key: "sk-secret-123".into(), ..Default::default() };
        let shown = format!("{s:?}");
        assert!(!shown.contains("sk-secret-123"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }

    #[test]
    fn only_transport_fields_need_a_new_session() {
        let a = Settings { chat_base_url: "http://x".into(), key: "k".into(), ..Default::default() };
        let b = Settings { character: "c.vrm".into(), ..a.clone() };
        assert!(!a.transport_changed(&b));
        assert!(a.transport_changed(&Settings { key: "k2".into(), ..a.clone() }));
        assert!(a.transport_changed(&Settings { chat_api: ChatApi::Responses, ..a.clone() }));
        assert!(!a.transport_changed(&Settings { chat_base_url: " http://x ".into(), ..a.clone() }));
    }

    #[test]
    fn change_to_says_what_to_redo() {
        let a = Settings { chat_base_url: "http://x".into(), ..Default::default() };
        let c = a.change_to(&Settings { character: "/d/c.vrm".into(), ..a.clone() });
        assert_eq!(c, SettingsChange { restart_session: false, character_changed: true });
        let c = a.change_to(&Settings { chat_base_url: "http://y".into(), ..a.clone() });
        assert_eq!(c, SettingsChange { restart_session: true, character_changed: false });
        assert!(Settings { chat_base_url: "gopher://x".into(), ..a.clone() }.validate().is_err());
        assert!(Settings { chat_base_url: "ws://x".into(), chat_api: ChatApi::Responses, ..a.clone() }.validate().is_err());
        assert!(Settings::default().validate().is_ok(), "empty URL: the demo agent");
    }

    #[test]
    fn overrides_and_switch_defaults() {
        let mut s = Settings::default();
        assert!(!s.screenshot.enabled && !s.screenshot.allow_requests && !s.browser && s.relations);
        apply_override(&mut s, "look.screen=on").unwrap();
        apply_override(&mut s, "relations=off").unwrap();
        apply_override(&mut s, "screenshot.enabled=true").unwrap();
        apply_override(&mut s, "screenshot.window=Firefox:GitHub").unwrap();
        assert!(s.screenshot.allow_requests && !s.relations && s.screenshot.enabled);
        assert_eq!(s.screenshot.source, ScreenChoice::Window { app: "Firefox".into(), title: "GitHub".into() });
        apply_override(&mut s, "screenshot.monitor=1").unwrap();
        assert_eq!(s.screenshot.source, ScreenChoice::Monitor { index: 1 });
        assert!(apply_override(&mut s, "look.screen=maybe").is_err());
        assert!(apply_override(&mut s, "volume=3").is_err());
        assert!(apply_override(&mut s, "relations").is_err());
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["screenshot"]["allowRequests"], true);
        assert_eq!(json["screenshot"]["source"]["kind"], "monitor");
    }

    #[test]
    fn old_files_load_with_defaults() {
        let s: Settings = serde_json::from_str(r#"{"chat_base_url":"http://x"}"#).unwrap();
        assert_eq!(s.chat_api, ChatApi::Push);
        assert_eq!(s.chat_base_url, "http://x");
        assert!(!s.start_at_login);
        let on: Settings = serde_json::from_str(r#"{"start_at_login":true}"#).unwrap();
        assert!(on.start_at_login);
        assert!("nope".parse::<ChatApi>().is_err());
        assert_eq!("chat_completions".parse::<ChatApi>().unwrap(), ChatApi::ChatCompletions);
        for api in [ChatApi::Push, ChatApi::Responses, ChatApi::ChatCompletions, ChatApi::AgentChat] {
            assert_eq!(api.as_str().parse::<ChatApi>().unwrap(), api);
            assert_eq!(serde_json::to_value(api).unwrap(), api.as_str());
        }
    }
}
