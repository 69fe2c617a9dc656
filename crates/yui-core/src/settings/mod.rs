//! The settings one window runs with: what belongs to the user and the
//! desktop ([`UserSettings`], `user.rs`) and what belongs to one character
//! ([`CharacterSettings`], `character.rs`), composed into [`Settings`]. Keys
//! and tokens are [`Secret`]s; `--set` overrides are one table
//! (`overrides.rs`). Which field sits where, and why:
//! `docs/architecture.md`, "Persistence and settings".

mod character;
mod overrides;
mod user;

pub use character::{BedSettings, CharacterSettings, ChatApi, ScreenChoice, ScreenshotSettings, VoiceSettings, DEFAULT_CONTEXT_WINDOW};
pub use overrides::{apply_override, override_help};
pub use user::{language_from_locale, os_locale, ChatSettings, IngressAction, IngressInfo, IngressSettings, ReactionsSettings, UserSettings, LANGUAGES};
pub use yui_protocol::settings::Secret;

use crate::error::CoreError;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The settings one window runs with: the character's and the user's,
/// each flattened so `settings.json` keeps its flat shape (an old file
/// loads as it always did). Missing fields take their defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct Settings {
    /// What belongs to the character: backend, key, model, card, voice,
    /// tool switches, bed.
    #[serde(flatten)]
    pub character: CharacterSettings,
    /// What belongs to the user and the desktop: language, names, chat
    /// window, ingress, reactions, login.
    #[serde(flatten)]
    pub user: UserSettings,
}

impl Settings {
    /// The settings of a first start (no `settings.json` yet): the
    /// defaults, in the UI language of the OS `locale` when the app speaks
    /// it (`language_from_locale`).
    pub fn first_start(locale: Option<&str>) -> Settings {
        let mut settings = Settings::default();
        settings.user.language = language_from_locale(locale.unwrap_or_default()).to_string();
        settings
    }

    /// True when going from `self` to `next` needs a new session: the
    /// protocol, endpoint or key changed (a refused key waits for this), or,
    /// on a request transport, what each request carries (model, reasoning
    /// effort, window, instructions, card, names, language). On push the
    /// model and the card ride nowhere, so they need none.
    pub fn transport_changed(&self, next: &Settings) -> bool {
        let (a, b) = (&self.character, &next.character);
        let wire = a.chat_api != b.chat_api || a.chat_base_url.trim() != b.chat_base_url.trim() || a.key != b.key;
        let request = b.chat_api != ChatApi::Push
            && (a.model != b.model
                || a.vrm != b.vrm
                || a.reasoning_effort != b.reasoning_effort
                || a.context_window != b.context_window
                || a.chat_instructions != b.chat_instructions
                || a.card_enabled != b.card_enabled
                || self.user.user_name != next.user.user_name
                || self.user.language != next.user.language);
        wire || request
    }

    /// True when no backend is configured and the demo agent should answer.
    pub fn uses_demo(&self) -> bool {
        self.character.chat_base_url.trim().is_empty()
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
        SettingsChange { restart_session: self.transport_changed(next), character_changed: self.character.vrm != next.character.vrm }
    }

    /// Check a settings value before it is saved: a known scheme for a
    /// non-empty base URL. Errors name the field.
    pub fn validate(&self) -> Result<(), CoreError> {
        if !self.uses_demo() {
            match self.character.chat_api {
                ChatApi::Push => {
                    push_url(&self.character.chat_base_url)?;
                }
                _ => {
                    let url = url::Url::parse(self.character.chat_base_url.trim())
                        .map_err(|e| CoreError::Settings { field: "chat_base_url", reason: e.to_string() })?;
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

impl From<CharacterSettings> for Settings {
    /// The user's defaults with `character`'s settings.
    fn from(character: CharacterSettings) -> Self {
        Settings { character, user: UserSettings::default() }
    }
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

    /// Default settings with the character's part changed by `f`.
    fn with(f: impl FnOnce(&mut CharacterSettings)) -> Settings {
        but(&Settings::default(), f)
    }

    /// `base` with the character's part changed by `f`.
    fn but(base: &Settings, f: impl FnOnce(&mut CharacterSettings)) -> Settings {
        let mut s = base.clone();
        f(&mut s.character);
        s
    }

    #[test]
    fn push_url_follows_the_base_url() {
        assert_eq!(push_url("https://host:8646").unwrap().as_str(), "wss://host:8646/ws");
        assert_eq!(push_url("http://127.0.0.1:9/").unwrap().as_str(), "ws://127.0.0.1:9/ws");
        assert_eq!(push_url("http://h/api").unwrap().as_str(), "ws://h/api/ws");
        assert!(push_url("ftp://h").is_err());
        assert!(push_url("not a url").is_err());
    }

    #[test]
    fn debug_never_shows_the_key() {
        let s = with(|c| c.key = "sk-secret-123".into());
        let shown = format!("{s:?}");
        assert!(!shown.contains("sk-secret-123"), "{shown}");
        assert!(shown.contains("<redacted>"));
    }

    #[test]
    fn only_transport_fields_need_a_new_session() {
        let a = with(|c| {
            c.chat_base_url = "http://x".into();
            c.key = "k".into();
        });
        let b = but(&a, |c| c.vrm = "c.vrm".into());
        assert!(!a.transport_changed(&b));
        assert!(a.transport_changed(&but(&a, |c| c.key = "k2".into())));
        assert!(a.transport_changed(&but(&a, |c| c.chat_api = ChatApi::Responses)));
        assert!(!a.transport_changed(&but(&a, |c| c.chat_base_url = " http://x ".into())));
    }

    #[test]
    fn change_to_says_what_to_redo() {
        let a = with(|c| c.chat_base_url = "http://x".into());
        let c = a.change_to(&but(&a, |c| c.vrm = "/d/c.vrm".into()));
        assert_eq!(c, SettingsChange { restart_session: false, character_changed: true });
        let c = a.change_to(&but(&a, |c| c.chat_base_url = "http://y".into()));
        assert_eq!(c, SettingsChange { restart_session: true, character_changed: false });
        assert!(but(&a, |c| c.chat_base_url = "gopher://x".into()).validate().is_err());
        assert!(but(&a, |c| {
            c.chat_base_url = "ws://x".into();
            c.chat_api = ChatApi::Responses;
        })
        .validate()
        .is_err());
        assert!(Settings::default().validate().is_ok(), "empty URL: the demo agent");
    }

    #[test]
    fn overrides_and_switch_defaults() {
        let mut s = Settings::default();
        let c = &s.character;
        assert!(!c.screenshot.enabled && !c.screenshot.allow_requests && !c.browser && c.relations);
        apply_override(&mut s, "look.screen=on").unwrap();
        apply_override(&mut s, "relations=off").unwrap();
        apply_override(&mut s, "screenshot.enabled=true").unwrap();
        apply_override(&mut s, "screenshot.window=Firefox:GitHub").unwrap();
        assert!(s.character.screenshot.allow_requests && !s.character.relations && s.character.screenshot.enabled);
        assert_eq!(s.character.screenshot.source, ScreenChoice::Window { app: "Firefox".into(), title: "GitHub".into() });
        apply_override(&mut s, "screenshot.monitor=1").unwrap();
        assert_eq!(s.character.screenshot.source, ScreenChoice::Monitor { index: 1 });
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
        assert_eq!(s.character.chat_api, ChatApi::Push);
        assert_eq!(s.character.chat_base_url, "http://x");
        assert!(!s.user.start_at_login);
        let on: Settings = serde_json::from_str(r#"{"start_at_login":true}"#).unwrap();
        assert!(on.user.start_at_login);
        assert!("nope".parse::<ChatApi>().is_err());
        assert_eq!("chat_completions".parse::<ChatApi>().unwrap(), ChatApi::ChatCompletions);
        for api in [ChatApi::Push, ChatApi::Responses, ChatApi::ChatCompletions, ChatApi::AgentChat] {
            assert_eq!(api.as_str().parse::<ChatApi>().unwrap(), api);
            assert_eq!(serde_json::to_value(api).unwrap(), api.as_str());
        }
    }

    #[test]
    fn the_file_stays_flat_with_the_same_keys() {
        let mut s = Settings::default();
        s.character.vrm = "me.vrm".into();
        s.character.key = "k".into();
        s.user.user_name = "Ann".into();
        let json = serde_json::to_value(&s).unwrap();
        let keys: std::collections::BTreeSet<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        let want = [
            "chat_api",
            "chat_base_url",
            "key",
            "model",
            "character",
            "reasoning_effort",
            "context_window",
            "chat_instructions",
            "card_enabled",
            "user_name",
            "language",
            "screenshot",
            "browser",
            "relations",
            "voice",
            "chat",
            "ingress",
            "reactions",
            "bed",
            "start_at_login",
            "exchange_limit",
            "welcomed",
        ];
        assert_eq!(keys, want.into_iter().collect());
        assert_eq!((json["character"].as_str(), json["key"].as_str(), json["user_name"].as_str()), (Some("me.vrm"), Some("k"), Some("Ann")));
        let back: Settings = serde_json::from_value(json).unwrap();
        assert_eq!(back, s);
        let old: Settings = serde_json::from_str(r#"{"character":"a.vrm","language":"ja","voice":{"tts_key":"t"},"ingress":{"token":"x"}}"#).unwrap();
        assert_eq!((old.character.vrm.as_str(), old.user.language.as_str()), ("a.vrm", "ja"));
        assert_eq!((old.character.voice.tts_key.expose(), old.user.ingress.token.expose()), ("t", "x"));
    }
}
