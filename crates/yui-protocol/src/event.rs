//! Everything the UI can show, as one tagged union, and the shapes inside it.

pub use crate::model::{Cue, DelegationItem, DelegationState, ToolState, Usage};
use crate::ErrorCode;
use serde::{Deserialize, Serialize};

/// How a turn ended, as far as the UI is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TurnOutcome {
    /// The backend closed the turn after replying (or replying with silence).
    Complete,
    /// The turn failed: an error frame, a stall before any render, or a drop.
    Failed,
    /// The user stopped it.
    Stopped,
}

/// Connection state of one window's transport. One flat enum on a watch channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    /// Opening the socket.
    Connecting {
        /// 1 for the first attempt, counting up across failures.
        attempt: u32,
    },
    /// The socket is open and hello went out; waiting for ready.
    Handshaking,
    /// ready arrived; turns may be sent.
    Ready {
        /// The largest turn frame the backend accepts, when it stated one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
        max_turn_bytes: Option<u64>,
    },
    /// The last attempt failed; the next one starts after `delay_ms`.
    Reconnecting {
        /// Milliseconds until the next attempt.
        #[cfg_attr(feature = "ts", ts(type = "number"))]
        delay_ms: u64,
        /// Close code of the socket that closed, when there was one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        close_code: Option<u16>,
        /// What went wrong, one line.
        reason: String,
    },
    /// The backend refused the key (close 4401). No retry until the settings
    /// change or the user asks for a reconnect.
    AuthFailed,
    /// A request transport (Responses, Chat Completions): no socket to hold.
    Stateless,
    /// The session ended.
    Closed,
}

impl Status {
    /// True when a turn can be sent right now.
    pub fn is_ready(&self) -> bool {
        matches!(self, Status::Ready { .. } | Status::Stateless)
    }
}

/// What voice input is doing, as the status pill shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum VoiceState {
    /// The microphone is closed.
    #[default]
    Off,
    /// The microphone is open and waiting for speech.
    Listening,
    /// The user is speaking.
    Hearing,
    /// What the user said is being turned into text.
    Transcribing,
    /// Voice input failed; the pill shows `message`.
    Failed {
        /// `no_permission`, `no_device`, `device_busy`, `stream`, `no_stt`
        /// or `stt`.
        kind: String,
        /// One short line for the pill.
        message: String,
    },
}

/// A peek as the page draws it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PeekView {
    /// The side she peeks out of.
    pub side: yui_engine::body::Side,
    /// The window edge she peeks around, in CSS pixels from the pet
    /// window's left edge: the page hides what is behind it. None at a
    /// display's edge (the screen hides it).
    #[cfg_attr(feature = "ts", ts(optional))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge: Option<f64>,
}

/// Everything the UI can show. Sent into the core's event sink (`yui_core::EventSink`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum UiEvent {
    /// The user's hold cannot move the window through the core here (a
    /// native Wayland client cannot place itself): the page hands the drag
    /// to the system (its window-move request) while the button is held.
    DragBySystem,
    /// The body changed: her posture, and the bed scene while it runs
    /// (`bed` absent: no bed; she stands).
    Body {
        /// The posture the `body:` line reads.
        posture: yui_engine::context::PostureState,
        /// The bed scene, while it runs.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        bed: Option<yui_engine::body::BedView>,
        /// The gait of the move under way (walk, climb, hop, fall).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        gait: Option<yui_engine::body::Gait>,
        /// While she peeks: the side and the edge she peeks around.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        peek: Option<PeekView>,
        /// How much of her window's bottom hangs below the display she is
        /// on, CSS px (standing on the floor, her feet are on its bottom
        /// edge and the controls under them would be out of sight: the
        /// page lifts them by this much). Absent when nothing hangs below.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        below: Option<f64>,
    },
    /// The connection state changed.
    Status {
        /// The new state.
        status: Status,
    },
    /// A turn went out: lock the composer, show thinking, play the thinking motion.
    TurnStarted {
        /// The turn id.
        turn_id: String,
        /// What the user typed ("" for a turn nobody typed).
        text: String,
        /// On Regenerate: the assistant message this turn makes again (its
        /// user message is already in the conversation: no new row).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        remakes: Option<String>,
        /// The files sent with the message, as "name · size" (empty: none).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[cfg_attr(feature = "ts", ts(optional, as = "Option<Vec<String>>"))]
        files: Vec<String>,
    },
    /// A message typed while a turn runs waits for that turn to end.
    TurnQueued {
        /// The queued text.
        text: String,
        /// How many messages wait now.
        queued: u32,
    },
    /// Play a cue (expression, motion, voice tone) now: it fires at a playback boundary.
    Cue {
        /// The turn it belongs to.
        turn_id: String,
        /// The cue.
        cue: Cue,
    },
    /// A sentence's turn to play came: show it in the bubble now. Its sound
    /// starts with it, or once made (a system or cloud voice); nothing
    /// plays before it.
    Speech {
        /// The turn it belongs to.
        turn_id: String,
        /// The text to show in the bubble.
        text: String,
    },
    /// The sentence shown last ended (its sound finished, or it
    /// had none). The bubble may move on; the lips close.
    SpeechDone {
        /// The turn it belongs to.
        turn_id: String,
        /// The sentence.
        text: String,
    },
    /// A stop (a new turn, barge-in, the stop button) cut speech: the sound,
    /// the lips and the bubble's progress stop at once.
    SpeechHalted,
    /// Voice input changed state (the mic toggle, push-to-talk, the
    /// transcription, an error).
    VoiceInput {
        /// The new state.
        state: VoiceState,
    },
    /// Reasoning written since the last one.
    Reasoning {
        /// The turn it belongs to.
        turn_id: String,
        /// The new text.
        delta: String,
    },
    /// The whole reasoning of the turn so far, from a render frame.
    ReasoningFull {
        /// The turn it belongs to.
        turn_id: String,
        /// The full text.
        text: String,
    },
    /// A backend tool call changed state.
    ToolStatus {
        /// The turn it belongs to.
        turn_id: String,
        /// Running, done or failed.
        state: ToolState,
        /// The tool name as the backend knows it.
        tool_id: String,
    },
    /// The backend's delegations list, replacing the last one.
    Delegations {
        /// The items, cut to the limits.
        items: Vec<DelegationItem>,
    },
    /// The running state of a turn ended.
    TurnEnded {
        /// The turn id.
        turn_id: String,
        /// How it ended.
        outcome: TurnOutcome,
        /// Token usage, when the backend sent it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        usage: Option<Usage>,
        /// The server's failure text, one line, at most 200 characters.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        error: Option<String>,
    },
    /// The client's own failure line, spoken when a turn fails before replying.
    FailureLine {
        /// The failed turn.
        turn_id: String,
        /// The line to speak and show.
        text: String,
    },
    /// The conversation was reset.
    SessionReset,
    /// The client_context block that actually left the machine.
    ContextSent {
        /// The turn it rode on.
        turn_id: String,
        /// Which transport sent it.
        transport: String,
        /// The rendered block.
        block: String,
    },
    /// The character or its clips changed: reload them.
    CharacterChanged {
        /// The user's character, or `None` for the bundled default.
        #[cfg_attr(feature = "ts", ts(optional))]
        #[serde(default, skip_serializing_if = "Option::is_none")]
        character: Option<crate::character::CharacterInfo>,
        /// Motion ids of the user's `.vrma` clips.
        motions: Vec<String>,
    },
    /// Whether the screen is being watched: the turn screenshot is on.
    /// The pet shows a small indicator while it is.
    ScreenWatch {
        /// True while each turn attaches the screen.
        on: bool,
    },
    /// A client tool call was refused by a switch that is off (it answered
    /// `error: <switch> is switched off` at once): the pet shows a notice and
    /// the chat window a card offering to switch it on
    /// ([`crate::UserCommand::SwitchOn`]), until `until_ms`. Sent again with
    /// no `until_ms` when the offer is over (accepted in any window, or the
    /// switch turned on in the settings). See `tools/offer.rs`.
    ToolOffer {
        /// The switch: `look.screen`, `browser` or `relations`.
        switch: String,
        /// Until when the offer stands (epoch ms); null once it is over.
        #[cfg_attr(feature = "ts", ts(type = "number | null"))]
        until_ms: Option<i64>,
    },
    /// The pictures that left with a turn's block, as sent (data URLs).
    ImagesSent {
        /// The turn they rode on.
        turn_id: String,
        /// The data URLs, screenshot first.
        images: Vec<String>,
    },
    /// One of the chat window's eleven events (`docs/transports.md`,
    /// "`agent_chat`"), on every
    /// transport; `msg_id` is the turn id.
    Chat {
        /// The event.
        event: crate::chat::ChatEvent,
    },
    /// The current conversation was replaced (New chat): the chat window
    /// shows this one.
    Conversation {
        /// The conversation, whole.
        conversation: crate::chat::Conversation,
    },
    /// A problem worth showing, with a code.
    Notice {
        /// What kind of problem.
        code: ErrorCode,
        /// One line for a person, in English (logs, the CLI, and a page
        /// whose catalog lacks `phrase`).
        message: String,
        /// The same line as a catalog message, when the core wrote it
        /// itself: a page says it in the user's language (`docs/i18n.md`).
        /// None when the line is someone else's words (a server's, a
        /// device's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        phrase: Option<Phrase>,
    },
}

/// A line as a catalog message (`crates/yui-i18n/locales/<language>/common.ftl`):
/// its id and its variables.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Phrase {
    /// The message id (`notice-not-connected`).
    pub id: String,
    /// Its variables by name (`{ $status }` in the catalog).
    pub args: std::collections::BTreeMap<String, String>,
}

impl Phrase {
    /// Message `id` with no variables.
    pub fn new(id: &str) -> Phrase {
        Phrase { id: id.to_string(), args: Default::default() }
    }

    /// This phrase with variable `name` set to `value`.
    pub fn arg(mut self, name: &str, value: impl ToString) -> Phrase {
        self.args.insert(name.to_string(), value.to_string());
        self
    }
}

impl UiEvent {
    /// A notice in someone else's words (no catalog message).
    pub fn notice(code: ErrorCode, message: impl Into<String>) -> UiEvent {
        UiEvent::Notice { code, message: message.into(), phrase: None }
    }

    /// A notice the core wrote itself: `message` in English and `phrase`,
    /// the same line in the catalog.
    pub fn notice_said(code: ErrorCode, message: impl Into<String>, phrase: Phrase) -> UiEvent {
        UiEvent::Notice { code, message: message.into(), phrase: Some(phrase) }
    }
}
