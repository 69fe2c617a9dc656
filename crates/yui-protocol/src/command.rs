//! Everything a user can do, as one tagged union.

use crate::model::Vocabulary;
use serde::{Deserialize, Serialize};

/// A user action the core carries out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum UserCommand {
    /// Send a typed message as a user turn (queued while a turn runs).
    SendText {
        /// The message.
        text: String,
    },
    /// Send a message from the chat of several characters
    /// (`docs/characters.md`): a user turn like [`UserCommand::SendText`]
    /// whose block says whom the user wrote to (`trigger: user message
    /// (addressed to the character)` or `(addressed to everyone)`). The
    /// text keeps what the user typed, `@Name` included.
    SendAddressed {
        /// The message as typed.
        text: String,
        /// Whom it was for.
        to: Addressee,
    },
    /// Send a message with files (the chat window's composer): images and
    /// PDFs go to the model as bytes where the transport carries them, text
    /// files are clipped and folded into the prompt. Over a limit, the
    /// message is refused with a notice and nothing is sent.
    SendMessage {
        /// The message.
        text: String,
        /// The files.
        attachments: Vec<crate::chat::Attachment>,
    },
    /// Send what the user said (voice input, transcribed) as a user turn
    /// marked as spoken (queued while a turn runs).
    SendVoice {
        /// The transcript.
        text: String,
    },
    /// Ask her for help (the settings' Help section, the tray's Help,
    /// `/help` in the CLI): an ordinary user turn whose message is the short
    /// request in the UI language ("How do I use you?", "What can you
    /// do?") and whose block carries the bundled guide `guide`
    /// (`docs/guide/`).
    AskHelp {
        /// Which guide answers it.
        guide: HelpGuide,
    },
    /// Stop every outstanding turn and clear the queue.
    Stop,
    /// Voice barge-in: the user kept talking while she spoke. Stops speech
    /// and every outstanding turn, like [`UserCommand::Stop`].
    BargeIn,
    /// Start a new conversation under the same chat id (the chat window's
    /// New chat).
    Reset,
    /// Regenerate an assistant message: its user message goes again and
    /// the new answer becomes another version of `msg_id`.
    Regenerate {
        /// The assistant message.
        msg_id: String,
    },
    /// Show version `n` (0-based) of an assistant message (the `< 1/2 >`
    /// picker).
    PickVersion {
        /// The assistant message.
        msg_id: String,
        /// The answer to show.
        n: u32,
    },
    /// Start a new current conversation holding the current one's messages
    /// up to and including `msg_id`.
    Fork {
        /// The last message the fork keeps.
        msg_id: String,
    },
    /// Delete a message from the current conversation (the window asked
    /// for confirmation first when `confirm_delete` is on).
    DeleteMessage {
        /// The message.
        msg_id: String,
    },
    /// Delete a whole conversation (the chat window asked for confirmation
    /// first). When it is the current one, the newest remaining conversation
    /// becomes current, or a fresh empty one.
    DeleteConversation {
        /// The conversation.
        conversation_id: String,
    },
    /// Delete every conversation of the character (the chat window asked
    /// for confirmation first); a fresh empty one becomes current.
    DeleteAllConversations,
    /// Answer an approval card: Allow, Always allow or Deny.
    Approve {
        /// The card's approval id.
        approval_id: String,
        /// The answer.
        decision: crate::chat::ApprovalDecision,
    },
    /// Accept the offer to switch a tool switch on (`look.screen`,
    /// `browser` or `relations`; see [`crate::UiEvent::ToolOffer`]): the
    /// setting is turned on and saved as the settings window saves it, and
    /// the next call reads it.
    SwitchOn {
        /// The switch's name.
        switch: String,
    },
    /// A window opened (or reloaded): send the standing tool offers again
    /// ([`crate::UiEvent::ToolOffer`]) so it shows them too. Changes nothing.
    ShowOffers,
    /// Reconnect now (also after a refused key).
    Reconnect,
    /// The user touched the character on the pet window: a poke on a body
    /// region, a head pat, or a click on her bed. On the bed, any of them
    /// wakes her; otherwise each may become a touch cue's turn.
    Touch {
        /// What the user did.
        touch: Touch,
    },
    /// Put her to bed where she stands (the tray's "Go to bed"): she lies
    /// down and sleeps until a click, a message or the wake timeout.
    GoToBed,
    /// The user holds her: a press on her that moved (`start`), the pointer
    /// moving while held (`move`), the button let go (`end`). The core reads
    /// the pointer itself, in physical pixels.
    Drag {
        /// Which part of the hold.
        phase: DragPhase,
        /// The pointer in the page, CSS pixels from the pet window's
        /// top-left: used where the desktop cannot tell the core where the
        /// pointer is (a layer-shell pet on Wayland).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        at: Option<PagePoint>,
    },
    /// The page could not keep the body's scene: the VRM was swapped, or a
    /// clip or the bed failed to load. The bed scene ends with no wake
    /// signal and she stands.
    BodyInterrupted {
        /// What happened, for the log.
        reason: String,
    },
    /// The renderable set changed (a character loaded, a clip was added).
    /// Sent to the backend as a `vocabulary` frame when it differs.
    SetVocabulary {
        /// What the window can render now.
        vocabulary: Vocabulary,
    },
}

/// The bundled guides a help request names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum HelpGuide {
    /// How to use her: `docs/guide/controls.md`.
    Controls,
    /// What she can do: `docs/guide/capabilities.md`.
    Capabilities,
}

impl From<HelpGuide> for yui_engine::context::GuideKey {
    fn from(guide: HelpGuide) -> Self {
        match guide {
            HelpGuide::Controls => yui_engine::context::GuideKey::Controls,
            HelpGuide::Capabilities => yui_engine::context::GuideKey::Capabilities,
        }
    }
}

/// Whom a message of the chat of several characters was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Addressee {
    /// The user picked this one character (`@Name`).
    Character,
    /// The user wrote to every open character (`@everyone`).
    Everyone,
}

/// A point in the pet window's page, CSS pixels from its top-left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PagePoint {
    /// Right of the window's left edge (whole CSS pixels).
    pub x: i32,
    /// Below the window's top edge.
    pub y: i32,
}

/// A part of the user's hold on her.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum DragPhase {
    /// A press on her moved past the drag threshold: she is held.
    Start,
    /// The pointer moved while she is held.
    Move,
    /// The button was let go (or the hold was lost).
    End,
}

/// A touch on the pet window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Touch {
    /// A click on a body region (`head`, `face`, `chest`, `arm`, `legs`…):
    /// `proactive.touch_<region>`, or `tap_bored` after 4 in 3 s.
    Poke {
        /// The region the page hit.
        region: String,
    },
    /// Strokes over her head: `proactive.head_pat`.
    HeadPat,
    /// A click on the bed she lies on.
    Bed,
}
