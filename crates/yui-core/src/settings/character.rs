//! What belongs to one character: her backend (which chat API, where, with
//! which key and model), her card and model file, her voice, her tool and
//! screenshot switches, her bed. A second character on the same desktop
//! would want each of these different (`docs/architecture.md`,
//! "Persistence and settings").

use super::Secret;
pub use crate::body::BedSettings;
use crate::error::CoreError;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
pub use yui_protocol::settings::VoiceSettings;

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
    /// A local agent engine's `POST /chat` event stream (`docs/transports.md`).
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

/// The context window assumed when none is set: 32k tokens.
pub const DEFAULT_CONTEXT_WINDOW: u32 = 32_768;

/// One character's settings. In `settings.json` its fields sit at the top
/// level beside the user's (the file keeps the flat shape it always had).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct CharacterSettings {
    /// Which transport to use.
    pub chat_api: ChatApi,
    /// The backend's base URL, e.g. `https://host:8646`. Empty: the built-in demo agent.
    pub chat_base_url: String,
    /// The chat API key. Never logged (a [`Secret`]). Kept by the
    /// [`crate::keystore::KeyStore`], never written to `settings.json`.
    pub key: Secret,
    /// The model name (request transports only).
    pub model: String,
    /// Her model file: a `.vrm` inside the data directory (see
    /// [`crate::character::import_vrm`]). Empty: the bundled default. The
    /// file's key is `character`.
    #[serde(rename = "character")]
    pub vrm: String,
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
    /// The turn screenshot and the `look.screen` switch.
    pub screenshot: ScreenshotSettings,
    /// The `browser` switch: every `browser` call (default off).
    pub browser: bool,
    /// The `relations` switch: `rate_relation` and the `relation:` lines
    /// (default on).
    pub relations: bool,
    /// Speech out and voice in.
    pub voice: VoiceSettings,
    /// The bed scene (the Character section).
    pub bed: BedSettings,
}

impl Default for CharacterSettings {
    fn default() -> Self {
        Self {
            chat_api: ChatApi::default(),
            chat_base_url: String::new(),
            key: Secret::default(),
            model: String::new(),
            vrm: String::new(),
            reasoning_effort: String::new(),
            context_window: DEFAULT_CONTEXT_WINDOW,
            chat_instructions: String::new(),
            card_enabled: true,
            screenshot: ScreenshotSettings::default(),
            browser: false,
            relations: true,
            voice: VoiceSettings::default(),
            bed: BedSettings::default(),
        }
    }
}

/// The turn screenshot settings (`docs/capture.md`): two independent switches
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
