//! What belongs to the user and the desktop: her name for the user, the UI
//! language, the chat window, the signals ingress, what the world tells
//! her, and starting at login. Every character on one desktop shares these
//! (`docs/architecture.md`, "Persistence and settings").

use super::Secret;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The user's and the desktop's settings. In `settings.json` its fields sit
/// at the top level beside the character's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct UserSettings {
    /// The user's name for the card's `{{user}}`; empty uses a fallback word.
    pub user_name: String,
    /// The UI language (`en`, `ja`, `ko`): picks the default card.
    pub language: String,
    /// The chat window.
    pub chat: ChatSettings,
    /// The signals ingress.
    pub ingress: IngressSettings,
    /// The frontmost line and presence.
    pub reactions: ReactionsSettings,
    /// Start YUI when the user logs in (default off; the app registers or
    /// removes the OS's login item, see [`crate::presence::autostart_action`]).
    pub start_at_login: bool,
    /// With several characters open: how many addressed turns one exchange
    /// of them speaking to each other has at most (default 6,
    /// `docs/characters.md`).
    pub exchange_limit: u32,
    /// The welcome opened by itself once (`docs/welcome.md`): it does so
    /// only before that, and only while the demo answers.
    pub welcomed: bool,
}

impl Default for UserSettings {
    fn default() -> Self {
        Self {
            user_name: String::new(),
            language: "en".into(),
            chat: ChatSettings::default(),
            ingress: IngressSettings::default(),
            reactions: ReactionsSettings::default(),
            start_at_login: false,
            exchange_limit: crate::limits::ADDRESSED_TURNS_PER_EXCHANGE,
            welcomed: false,
        }
    }
}

/// The signals ingress (`docs/triggers.md`): a loopback HTTP
/// server other local programs post signals to. Off by default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
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
    pub token: Secret,
}

impl Default for IngressSettings {
    fn default() -> Self {
        Self { enabled: false, port: crate::limits::INGRESS_PORT_DEFAULT, require_token: false, token: Secret::default() }
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
    /// The per-installation token (or this run's override), shown to the
    /// user on purpose so they can copy it.
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

/// The chat window's settings (`docs/history.md`).
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

/// The UI languages the app speaks, the first the fallback.
pub const LANGUAGES: [&str; 3] = ["en", "ja", "ko"];

/// The UI language for an OS locale (`ja_JP.UTF-8`, `ko-KR`, `en_US`, `C`):
/// its language when the app speaks it, English otherwise.
pub fn language_from_locale(locale: &str) -> &'static str {
    let lang = locale.trim().split(['_', '-', '.', '@']).next().unwrap_or_default().to_ascii_lowercase();
    LANGUAGES.into_iter().find(|l| *l == lang).unwrap_or(LANGUAGES[0])
}

/// The OS's locale as the environment names it (`LC_ALL`, then
/// `LC_MESSAGES`, then `LANG`); `None` when none is set.
pub fn os_locale() -> Option<String> {
    ["LC_ALL", "LC_MESSAGES", "LANG"].into_iter().filter_map(|k| std::env::var(k).ok()).find(|v| !v.trim().is_empty())
}

#[cfg(test)]
mod language_tests {
    use super::*;

    #[test]
    fn the_ui_language_follows_the_os_locale_when_the_app_speaks_it() {
        assert_eq!(language_from_locale("ja_JP.UTF-8"), "ja");
        assert_eq!(language_from_locale("ko-KR"), "ko");
        assert_eq!(language_from_locale("KO"), "ko");
        assert_eq!(language_from_locale("en_GB.UTF-8"), "en");
        assert_eq!(language_from_locale("de_DE@euro"), "en", "a language the app does not speak: English");
        assert_eq!(language_from_locale("C"), "en");
        assert_eq!(language_from_locale(""), "en");
    }
}
