//! The renderer's input (`docs/client-context.md`: these types are its shape).
//!
//! Every field is optional unless `docs/client-context.md` ("Decisions") marks it required; unknown fields
//! are ignored, and an unknown word in a closed vocabulary (an outcome, a wake
//! cause, a guide key, a screenshot kind) reads as `Other` instead of failing
//! the whole document. Times are epoch milliseconds.

mod trigger;

use serde::{Deserialize, Serialize};

pub use trigger::{
    AddressedBy, AddressedTo, AgentCatchup, AgentEvent, Cue, GuideKey, Milestone, ScreenSwitch, ScreenTransition, SignalEnvelope, SignalGroup, Trigger,
    TriggerKind, Wake, WakeCause,
};

/// Everything one turn's block is rendered from. Unknown fields are ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientContext {
    /// Time and the user's foreground (required).
    pub env: Env,
    /// The selected screenshot source, present only while automatic attachment is on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot: Option<Screenshot>,
    /// Where the character's body is (required).
    pub body_state: BodyState,
    /// This character's relation records, user first then the other presets in registry order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relations: Vec<Relation>,
    /// Every switchable tool the window declares, in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_switches: Vec<ToolSwitch>,
    /// How the last turn that tried to speak ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_turn: Option<PreviousTurn>,
    /// What other open characters exchanged with the user, one block per preset.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overheard: Vec<Overheard>,
    /// What fired the turn (required).
    pub trigger: Trigger,
    /// The utterance; absent or empty on a turn nobody typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_text: Option<String>,
    /// The user's name. Carried for the card; no line renders it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_name: Option<String>,
}

/// Time facts and the user's foreground, read once per turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Env {
    /// Local time with offset, RFC 3339 to the second, rendered as is (required).
    pub timestamp: String,
    /// The IANA zone name (required).
    pub timezone: String,
    /// The OS frontmost sample; absent before the watcher's first tick.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frontmost: Option<Frontmost>,
}

impl Env {
    /// Read the local clock and zone. No frontmost sample.
    pub fn now_local() -> Env {
        Self::local_at(chrono::Local::now().timestamp_millis())
    }

    /// The local time and zone at `wall_ms` (epoch milliseconds), in this
    /// machine's zone. No frontmost sample.
    pub fn local_at(wall_ms: i64) -> Env {
        use chrono::TimeZone;
        let now = chrono::Local.timestamp_millis_opt(wall_ms).single().unwrap_or_else(chrono::Local::now);
        Env {
            timestamp: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
            timezone: iana_time_zone::get_timezone().unwrap_or_else(|_| "UTC".to_string()),
            frontmost: None,
        }
    }
}

/// What the user has in the foreground.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Frontmost {
    /// The app name, the label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
    /// The window title, quoted after the label when it differs from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_title: Option<String>,
    /// Epoch ms of the last frontmost transition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<i64>,
}

/// The screenshot settings as the line needs them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Screenshot {
    /// Automatic attachment; `false` omits the line. Absent reads as on,
    /// since the object is present only while attachment is on.
    #[serde(default = "default_true")]
    pub enabled: bool,
    /// The selected source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<ScreenSource>,
}

fn default_true() -> bool {
    true
}

/// One of the three screenshot source kinds, tagged by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScreenSource {
    /// A whole display.
    Monitor {
        /// The display index.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<i64>,
        /// The display's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        label: Option<String>,
    },
    /// A browser tab.
    BrowserTab {
        /// The browser's name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        browser: Option<String>,
        /// The tab title, quoted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The tab's URL.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
    },
    /// One window.
    Window {
        /// The owning app.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        app: Option<String>,
        /// The window title, quoted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        title: Option<String>,
    },
    /// A kind this renderer does not know; renders no line.
    #[serde(other)]
    Other,
}

/// The body's posture and how long it has held.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BodyState {
    /// The posture (required: the body line is always present).
    pub posture: Posture,
    /// Epoch ms of the last posture change (required).
    pub since: i64,
    /// True on a turn that carries a wake: renders `, getting up now`.
    #[serde(default)]
    pub waking: bool,
}

/// A posture and what it is perched on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Posture {
    /// The state.
    pub state: PostureState,
    /// The window under the character, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perched_on: Option<Perch>,
}

/// The window the character sits on, peeks from or is dragged over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Perch {
    /// The owning app.
    #[serde(default)]
    pub app: Option<String>,
    /// The window title, the fallback label.
    #[serde(default)]
    pub window_title: Option<String>,
}

impl Perch {
    /// The label: the app, else the quoted window title; sanitized; None when both are empty.
    pub fn label(&self) -> Option<String> {
        if let Some(app) = self.app.as_deref().map(super::sanitize).filter(|s| !s.is_empty()) {
            return Some(app);
        }
        self.window_title.as_deref().map(super::sanitize).filter(|s| !s.is_empty()).map(|t| super::quote(&t))
    }
}

/// The body states the `body:` line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum PostureState {
    /// On the floor.
    Standing,
    /// On a window's top edge.
    Sitting,
    /// Peeking from a window's side.
    Peeking,
    /// Held by the user's drag.
    Dragging,
    /// An ambient stroll.
    Walking,
    /// An ambient climb.
    Climbing,
    /// On the bed.
    Lying,
}

impl PostureState {
    /// The word the `body:` line uses.
    pub fn as_str(self) -> &'static str {
        match self {
            PostureState::Standing => "standing",
            PostureState::Sitting => "sitting",
            PostureState::Peeking => "peeking",
            PostureState::Dragging => "dragging",
            PostureState::Walking => "walking",
            PostureState::Climbing => "climbing",
            PostureState::Lying => "lying",
        }
    }

    /// Only sitting, peeking and dragging carry the `on <label>` clause.
    pub fn carries_perch(self) -> bool {
        matches!(self, PostureState::Sitting | PostureState::Peeking | PostureState::Dragging)
    }
}

/// One relation record: how this character stands toward one target.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Relation {
    /// `user` for the human, or the other preset's name (`user (character)` for a preset named user).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// `hostile`, `cold`, `neutral`, `warm` or `close`, rendered as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band: Option<String>,
    /// The last accepted change, signed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<i64>,
    /// The reason given for the last change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// Epoch ms of the last change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<i64>,
    /// An external engine's one-line summary, quoted after the band.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// True when the user set the value by hand: the reason reads `set by the user`.
    #[serde(default)]
    pub set_by_user: bool,
}

/// One switchable in-app tool and its state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSwitch {
    /// The tool id, e.g. `look.screen`, `browser`, `relations`.
    #[serde(default)]
    pub id: String,
    /// On or off; an entry without it is left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on: Option<bool>,
}

/// How the last turn that tried to speak ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreviousTurn {
    /// The stored outcome; only `interrupted` and `failed` render.
    #[serde(default)]
    pub outcome: Outcome,
    /// The cut or failed utterance's raw event name, or the literal `backend`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_name: Option<String>,
    /// Epoch ms when the client recorded the outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<i64>,
    /// What the listener heard (interrupted only); its last 50 code points render.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub already_spoken: Option<String>,
    /// What was still owed (interrupted only); its first 50 code points render.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub never_spoken: Option<String>,
    /// The turn's id, when the record has one. Not rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<String>,
}

/// The three stored outcomes of a turn that tried to speak.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Speech started and its playback ended; renders nothing.
    Complete,
    /// Speech started and was cut: `was cut off mid-speech`.
    Interrupted,
    /// The call settled badly before any speech: `failed before speaking`.
    Failed,
    /// An unknown or absent outcome; renders nothing.
    #[default]
    #[serde(other)]
    Other,
}

/// One other open preset's unheard exchange with the user.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Overheard {
    /// The other preset's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// The other preset's name, the speaker label of its replies (falls back to `preset`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Transcript entries, oldest first.
    #[serde(default)]
    pub entries: Vec<OverheardEntry>,
}

/// One raw transcript entry of another preset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OverheardEntry {
    /// Who spoke.
    #[serde(default)]
    pub role: Role,
    /// What was said.
    #[serde(default)]
    pub text: String,
    /// Epoch ms of the entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<i64>,
}

/// The speaker of a transcript entry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The user's half, labelled `user`.
    User,
    /// The preset's reply, labelled with its name.
    Assistant,
    /// Anything else; the entry is left out.
    #[default]
    #[serde(other)]
    Other,
}

impl ClientContext {
    /// The context of a typed user message, sampled now.
    pub fn user_message(text: &str, body_since_ms: i64) -> ClientContext {
        ClientContext {
            env: Env::now_local(),
            screenshot: None,
            body_state: BodyState { posture: Posture { state: PostureState::Standing, perched_on: None }, since: body_since_ms, waking: false },
            relations: Vec::new(),
            tool_switches: Vec::new(),
            previous_turn: None,
            overheard: Vec::new(),
            trigger: Trigger::new(TriggerKind::User, Some("user.text_submitted".into())),
            user_text: Some(text.to_string()),
            user_name: None,
        }
    }

    /// False when a `relations` tool switch is declared off: the relation lines are then omitted.
    pub fn relations_switched_on(&self) -> bool {
        !self.tool_switches.iter().any(|s| super::sanitize(&s.id) == "relations" && s.on == Some(false))
    }
}
