//! The `trigger` part of the input: what fired the turn and its detail.

use serde::{Deserialize, Serialize};

/// What fired the turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trigger {
    /// The trigger kind (required).
    pub kind: TriggerKind,
    /// The event bus name; picks the background marker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_name: Option<String>,
    /// User turns from the unified chat window: who the message was for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addressed_to: Option<AddressedTo>,
    /// Minutes the user had been idle (idle-triggered cues, and user messages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle_elapsed_min: Option<i64>,
    /// The bundled help guide this turn carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guide: Option<GuideKey>,
    /// The language of the guide sent (the UI language's; English when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guide_language: Option<crate::context::GuideLanguage>,
    /// The schedule or proactive cue that fired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cue: Option<Cue>,
    /// The screen transition that fired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<ScreenTransition>,
    /// A single coding-agent lifecycle event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentEvent>,
    /// A burst of buffered coding-agent events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_catchup: Option<AgentCatchup>,
    /// Signal groups, one per ingress batch, in arrival order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signals: Option<Vec<SignalGroup>>,
    /// The once-per-day milestone that fired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub milestone: Option<Milestone>,
    /// The character just woke from the bed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wake: Option<Wake>,
    /// Another open character spoke to this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addressed: Option<AddressedBy>,
}

impl Trigger {
    /// A trigger of `kind` carrying nothing else.
    pub fn new(kind: TriggerKind, event_name: Option<String>) -> Trigger {
        Trigger {
            kind,
            event_name,
            addressed_to: None,
            idle_elapsed_min: None,
            guide: None,
            guide_language: None,
            cue: None,
            screen: None,
            agent: None,
            agent_catchup: None,
            signals: None,
            milestone: None,
            wake: None,
            addressed: None,
        }
    }
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

/// Who a unified-chat-window message was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AddressedTo {
    /// The user picked this character: `(addressed to the character)`.
    Character,
    /// The user wrote to every open character: `(addressed to everyone)`.
    Everyone,
    /// An unknown word; no suffix.
    #[serde(other)]
    Other,
}

/// The bundled guide keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GuideKey {
    /// `docs/guide/controls.md`.
    Controls,
    /// `docs/guide/capabilities.md`.
    Capabilities,
    /// An unknown key; no guide block.
    #[serde(other)]
    Other,
}

/// A configured cue.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cue {
    /// The cue's label, quoted in the headline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The intent the user authored for the cue: the `cue note` line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// A screen transition.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScreenTransition {
    /// `app_switched` or `long_session`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transition: Option<String>,
    /// The app the user left (app_switched).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_app: Option<String>,
    /// Minutes the user had held the app they left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_dwell_min: Option<i64>,
    /// Minutes in the current frontmost app.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dwell_min: Option<i64>,
    /// Held app switches, oldest first: the `recent switches:` line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recent: Vec<ScreenSwitch>,
}

/// One held app switch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScreenSwitch {
    /// The app left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_app: Option<String>,
    /// Minutes it was held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dwell_min: Option<i64>,
    /// The app switched to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_app: Option<String>,
}

/// One coding-agent lifecycle event. `cwd` and `session_id` are carried but never rendered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentEvent {
    /// The coding tool, e.g. `claude-code`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// `done` or `needs_input`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// `success` or `error`; rendered for phase `done` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The project, quoted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// Epoch ms when the hook fired.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<i64>,
    /// The coding agent's summary, quoted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// A transcript excerpt or the pending tool call, quoted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Host path; never rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Opaque hook-continuity token; never rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
}

/// A burst of buffered coding-agent events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentCatchup {
    /// The buffered items, in buffer order (oldest first).
    #[serde(default)]
    pub items: Vec<AgentEvent>,
}

/// One ingress batch of signals.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SignalGroup {
    /// The envelope; absent on a legacy group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub envelope: Option<SignalEnvelope>,
    /// Opaque items, rendered as compact JSON.
    #[serde(default)]
    pub items: Vec<serde_json::Value>,
}

/// A signal group's envelope. `delivery`, `label` and `urgent` are carried but never rendered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SignalEnvelope {
    /// The producer, e.g. `github`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The event type, e.g. `push`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    /// The producer's event id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_id: Option<String>,
    /// Epoch ms the event occurred, rendered in UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurred_at: Option<i64>,
    /// `immediate` or `batched`; not rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery: Option<String>,
    /// A producer's label; not rendered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Marked urgent by the producer; not rendered (it picks the event name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub urgent: Option<bool>,
}

/// A once-per-day milestone.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Milestone {
    /// The milestone, e.g. `first_activity`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Local clock time it fired at, `HH:MM`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fired_at: Option<String>,
}

/// A wake from the bed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Wake {
    /// What woke the character.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<WakeCause>,
}

/// What woke the character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WakeCause {
    /// A click on her or the bed, or a head pat: `woken by the user's click`.
    Click,
    /// The wake timeout: `woken by the wake timeout`.
    Timeout,
    /// A chat or voice message: `woken by this message`.
    Message,
    /// An unknown word: the line names no cause.
    #[serde(other)]
    Other,
}

/// Another open character's reply that named this one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AddressedBy {
    /// The speaker's preset name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The reply's spoken text, quoted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Epoch ms the reply was spoken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<i64>,
}
