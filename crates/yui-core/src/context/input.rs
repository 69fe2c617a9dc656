//! The renderer's input, shaped as `shared/spec/client-context-input.md` fixes it.

use serde::{Deserialize, Serialize};

/// Everything one turn's block is rendered from. Unknown fields are ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientContext {
    /// Time and the user's foreground.
    pub env: Env,
    /// Where the character's body is.
    pub body_state: BodyState,
    /// What fired the turn.
    pub trigger: Trigger,
    /// The utterance; absent or empty on a turn nobody typed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_text: Option<String>,
}

/// Time facts, read once per turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Env {
    /// Local time with offset, RFC 3339 to the second, rendered as is.
    pub timestamp: String,
    /// The IANA zone name.
    pub timezone: String,
}

impl Env {
    /// Read the local clock and zone.
    pub fn now_local() -> Env {
        let now = chrono::Local::now();
        Env {
            timestamp: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, false),
            timezone: iana_time_zone::get_timezone().unwrap_or_else(|_| "UTC".to_string()),
        }
    }
}

/// The body's posture and how long it has held.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BodyState {
    /// The posture.
    pub posture: Posture,
    /// Epoch ms of the last posture change.
    pub since: i64,
    /// True on a turn that carries a wake.
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

/// The window the character sits on or peeks from.
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
    /// The label: the app, else the window title; sanitized; None when both are empty.
    pub fn label(&self) -> Option<String> {
        [&self.app, &self.window_title]
            .into_iter()
            .flatten()
            .map(|s| super::sanitize(s))
            .find(|s| !s.is_empty())
    }
}

/// The body states the seed names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// What fired the turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trigger {
    /// The trigger kind.
    pub kind: TriggerKind,
    /// The event bus name; picks the background marker.
    #[serde(default)]
    pub event_name: Option<String>,
}

/// The seven trigger kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TriggerKind {
    /// The user typed or spoke.
    User,
    /// A time-of-day cue.
    Schedule,
    /// An engagement cue, a screen transition or a wake.
    Proactive,
    /// A coding-agent hook.
    Agent,
    /// The /signals ingress.
    Signals,
    /// A once-per-day clock fact.
    Milestone,
    /// Another character addressed this one.
    Addressed,
}

impl TriggerKind {
    /// The wire word.
    pub fn as_str(self) -> &'static str {
        match self {
            TriggerKind::User => "user",
            TriggerKind::Schedule => "schedule",
            TriggerKind::Proactive => "proactive",
            TriggerKind::Agent => "agent",
            TriggerKind::Signals => "signals",
            TriggerKind::Milestone => "milestone",
            TriggerKind::Addressed => "addressed",
        }
    }
}

impl ClientContext {
    /// The context of a typed user message, sampled now.
    pub fn user_message(text: &str, body_since_ms: i64) -> ClientContext {
        ClientContext {
            env: Env::now_local(),
            body_state: BodyState {
                posture: Posture { state: PostureState::Standing, perched_on: None },
                since: body_since_ms,
                waking: false,
            },
            trigger: Trigger { kind: TriggerKind::User, event_name: Some("user.text_submitted".into()) },
            user_text: Some(text.to_string()),
        }
    }
}
