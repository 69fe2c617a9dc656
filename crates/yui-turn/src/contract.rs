//! The transport contract: what the turn engine (this crate), the client
//! tools (`yui_core::tools`) and the transports (`yui_core::transport`)
//! exchange, and nothing that any of them implements.
//!
//! A transport turns [`Outbound`] messages into wire traffic and wire
//! traffic into [`Inbound`] events (a turn's reply arrives as
//! [`ReplyPart`]s). The engine asks for client tools as [`ToolCall`]s and
//! the tools answer [`ToolResult`]s (a failure's text is a [`ToolError`]).
//! The channels a transport task runs on (`Link`) and the fitting of a
//! request's pictures are `yui_core::contract`'s, which re-exports this.
//! `docs/transports.md` is the request transports' side of it.
//!
//! It imports the chat window's vocabulary, the UI's connection [`Status`]
//! and the data model (`yui-protocol`); the engine, the tools and the
//! transports import it, and it imports none of them.

use serde_json::Value;
use std::time::Duration;
use yui_engine::context::GuideKey;
use yui_engine::picture::Picture;
use yui_protocol::chat::{ApprovalDecision, ChatEvent};
use yui_protocol::event::Status;
use yui_protocol::model::{DelegationItem, Segment, ToolState, Usage, Vocabulary};
use yui_protocol::ErrorCode;

/// What the user is shown when a request fails and the table gives no
/// server text (401 and 403, an error event with no status,
/// `response.failed`, `response.incomplete`).
pub const GENERIC_FAILURE: &str = "The model server could not answer.";

/// One turn, rendered and ready for the wire.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRequest {
    /// The client turn id.
    pub turn_id: String,
    /// The rendered `<client_context>` block, tags included.
    pub block: String,
    /// What the user typed or said; "" on a turn nobody typed.
    pub text: String,
    /// The user-role text that trails the block: `text`, or the background
    /// marker when nobody typed.
    pub input: String,
    /// The guide the turn carried (the help button), kept by the transcript.
    pub guide: Option<GuideKey>,
    /// The language of that guide (the UI language's when the turn began).
    pub guide_language: yui_engine::context::GuideLanguage,
    /// Pictures: the turn's screenshot first, then attachments. The
    /// transport fits them into its budget (`yui_core::picture::fit`).
    pub images: Vec<Picture>,
    /// The chat window's conversation the turn belongs to, as the backend
    /// knows it (`agent_chat`'s `conversation_id`); `None` before the chat
    /// log named one.
    pub conversation_id: Option<String>,
    /// On Regenerate: the server index of the message whose answer is
    /// made again (`agent_chat`'s `regenerate_of`).
    pub regenerate_of: Option<u64>,
    /// Files that go to the model as bytes (PDFs from the chat window), on
    /// the transports that carry them.
    pub files: Vec<FileBytes>,
}

/// A call against a tool the client declared.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The call id, echoed by the result.
    pub id: String,
    /// The turn the call belongs to.
    pub turn_id: String,
    /// The tool name.
    pub name: String,
    /// The arguments object.
    pub arguments: Value,
}

/// The client's answer to a [`ToolCall`].
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The call id this answers.
    pub id: String,
    /// The call's turn id.
    pub turn_id: String,
    /// The answer, a string (`error: <reason>` on failure).
    pub result: String,
    /// Pictures beside the answer, fitted by the transport.
    pub images: Vec<Picture>,
}

/// What the engine asks a transport to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Outbound {
    /// Send a turn.
    Turn(TurnRequest),
    /// The user stopped these turns: push sends `stop`, the request
    /// transports abort their request.
    Stop {
        /// Every turn outstanding at that moment.
        turn_ids: Vec<String>,
    },
    /// The engine gave up on a turn (its wait passed). The request
    /// transports abort its request; push keeps the turn outstanding.
    Abandon {
        /// The turn.
        turn_id: String,
    },
    /// Answer a tool call.
    ToolResult(ToolResult),
    /// A failed previous-turn record (push's `playback` frame).
    Playback {
        /// The failed client turn.
        turn_id: String,
    },
    /// Start a new conversation: push sends `reset`, Responses clears its
    /// chain, Chat Completions writes a transcript boundary.
    Reset,
    /// The client performed one of the card's greetings after a reset; the
    /// request transports keep it as an assistant entry.
    Greeting {
        /// The greeting as spoken.
        text: String,
    },
    /// The renderable set changed.
    Vocabulary(Vocabulary),
    /// Reconnect now (push), also after a refused key.
    Reconnect,
    /// A request to one of `agent_chat`'s side endpoints; the other
    /// transports ignore it.
    Side(SideRequest),
}

/// A request to one of `agent_chat`'s side endpoints ([`Outbound::Side`]):
/// sent in the background beside the turns.
#[derive(Debug, Clone, PartialEq)]
pub enum SideRequest {
    /// Fork the server's conversation after the exchange of user message
    /// `index` (`agent_chat`: `POST /fork/{cid}/{index + 1}`); the answer's
    /// `id` comes back as [`Inbound::Forked`] for the local conversation
    /// `local_id`.
    Fork {
        /// The server's conversation.
        conversation_id: String,
        /// The user message of the last exchange the fork keeps (server index).
        index: u64,
        /// The local conversation the fork became.
        local_id: String,
    },
    /// Show version `n` of the answer to user message `index`
    /// (`agent_chat`: `POST /version/{cid}/{index}/{n}`).
    PickVersion {
        /// The server's conversation.
        conversation_id: String,
        /// The user message whose answer it is (server index).
        index: u64,
        /// The version (0-based).
        n: u32,
    },
    /// Delete the exchange of user message `index`: it and its answer
    /// (`agent_chat`: `POST /messages/{cid}/{index}`).
    DeleteMessage {
        /// The server's conversation.
        conversation_id: String,
        /// The exchange's user message (server index).
        index: u64,
    },
    /// Delete a whole conversation the server keeps (`agent_chat`:
    /// `DELETE /chats/{cid}`).
    DeleteConversation {
        /// The server's conversation.
        conversation_id: String,
    },
    /// The user answered an approval card (`agent_chat`:
    /// `POST /approve/{aid}` `{"choice": ...}`).
    Approve {
        /// The approval id.
        approval_id: String,
        /// The answer.
        decision: ApprovalDecision,
    },
}

/// What a transport reports.
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    /// The connection state changed. `Status::Ready` and
    /// `Status::Stateless` mean turns can go out.
    Status(Status),
    /// A problem worth showing that belongs to no turn.
    Notice {
        /// What kind of problem.
        code: ErrorCode,
        /// One line for a person, in English.
        message: String,
        /// The same line as a catalog message, when the transport wrote it
        /// itself (see `UiEvent::Notice`).
        phrase: Option<yui_protocol::event::Phrase>,
    },
    /// Part of a turn's reply.
    Reply {
        /// The turn: a client turn id or one the backend minted.
        turn_id: String,
        /// What arrived.
        part: ReplyPart,
    },
    /// A call against a declared tool (answered with [`Outbound::ToolResult`]).
    ToolCall(ToolCall),
    /// The backend's delegations list, replacing the last one.
    Delegations(Vec<DelegationItem>),
    /// The pictures that left with a turn, fitted and encoded as sent.
    ImagesSent {
        /// The turn.
        turn_id: String,
        /// The data URLs.
        images: Vec<String>,
    },
    /// The server forked a conversation: the local conversation `local_id`
    /// is `server_id` on the server from now on.
    Forked {
        /// The local conversation.
        local_id: String,
        /// The server's id for it.
        server_id: String,
    },
    /// What became of a stopped `agent_chat` run on the engine: `confirmed`
    /// when its stream said `cancelled`; false when `/cancel` found no such
    /// run, or the stream ended or the wait passed without it.
    StopConfirmed {
        /// The stopped turn.
        turn_id: String,
        /// The engine confirmed the stop.
        confirmed: bool,
    },
    /// An answer to an approval reached the engine too late: it no longer
    /// waited for it (`agent_chat`: 404 from `/approve/{aid}`).
    ApprovalGone {
        /// The approval.
        approval_id: String,
    },
    /// A turn could not be sent: its frame is over the limit, or the
    /// transport is not connected. The turn fails at once.
    Rejected {
        /// The turn.
        turn_id: String,
        /// Why, as a code.
        code: ErrorCode,
        /// One line for a person.
        reason: String,
    },
}

/// One thing that arrived for a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum ReplyPart {
    /// Finished sentences of a reply still being written (push `speech`, or
    /// a segment the request transports closed at a cue).
    Speech {
        /// The segments, in order.
        segments: Vec<Segment>,
    },
    /// A finished reply, or its rest (push `render`).
    Render {
        /// Backend name for logs.
        source: Option<String>,
        /// The segments, in order.
        segments: Vec<Segment>,
        /// The reasoning so far, whole.
        reasoning: Option<String>,
    },
    /// Reasoning written since the last one.
    Reasoning {
        /// The new text.
        delta: String,
    },
    /// A tool the backend runs changed state.
    ToolStatus {
        /// Running, done or failed.
        state: ToolState,
        /// The tool name as the backend knows it.
        tool_id: String,
    },
    /// Reply text that streamed but will never be spoken: what a request
    /// transport's segmenter still held (a sentence waiting for the
    /// character that proves it complete, or text a cue could still take)
    /// when a stop, an abandon (a stall) or a stream error ended the turn.
    /// Reported at most once, right before the turn's `Error` or `End`, also
    /// for a turn the engine already stopped: the chat window shows it as
    /// the reply's text and the previous-turn record keeps it as never
    /// spoken. It is never played.
    Unsaid {
        /// The text, as streamed.
        text: String,
    },
    /// The turn failed; `message` is the text to show (one line).
    Error {
        /// What to show.
        message: String,
    },
    /// A stream event that carries nothing else; it keeps the turn alive.
    /// `after_speech` is true for assistant text (a text delta or the
    /// text-done marker).
    Alive {
        /// The event was assistant speech.
        after_speech: bool,
    },
    /// One of `agent_chat`'s own events, as sent, for the chat window (the
    /// transport also reports what it means for the character as the parts
    /// above). It keeps the turn alive like [`ReplyPart::Alive`].
    Chat {
        /// The event.
        event: ChatEvent,
    },
    /// The turn is over (push `turn_end`, or the last request's end).
    End {
        /// The token usage of the turn's last call.
        usage: Option<Usage>,
    },
}

/// A request transport's endpoint: `base` plus `/v1/<path>`, where a base
/// that already ends in `/v1` (as users paste it for OpenAI, Ollama or LM
/// Studio) does not get a second one.
///
/// `endpoint("http://h:11434", "responses")` and
/// `endpoint("https://api.openai.com/v1/", "responses")` both end in
/// `/v1/responses`; a base whose path names another version
/// (`…/v1beta/openai`) is taken as it is.
pub fn endpoint(base: &str, path: &str) -> String {
    let base = base.trim().trim_end_matches('/');
    let path = path.trim_start_matches('/');
    if base.ends_with("/v1") || names_a_version(base) {
        format!("{base}/{path}")
    } else {
        format!("{base}/v1/{path}")
    }
}

/// Whether the path of `base` already names a pre-release API version
/// (`/v1beta/openai`, Google's OpenAI-compatible endpoint; `v2alpha`, …):
/// then nothing is added to it. A plain `/v2/…` (a proxy's mount) still
/// gets `/v1` as before.
fn names_a_version(base: &str) -> bool {
    let path = base.split_once("://").map_or(base, |(_, rest)| rest);
    path.split('/').skip(1).any(|segment| {
        let Some(rest) = segment.strip_prefix('v') else { return false };
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let tag = &rest[digits..];
        digits > 0 && ["alpha", "beta"].iter().any(|t| tag.strip_prefix(t).is_some_and(|n| n.chars().all(|c| c.is_ascii_digit())))
    })
}

/// Why a call failed; its `Display` is the answer sent, word for word.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// The name is not a declared tool.
    #[error("error: unknown tool")]
    UnknownTool,
    /// A field the tool needs is absent.
    #[error("error: missing field {0}")]
    MissingField(&'static str),
    /// A field carries a value the tool does not accept.
    #[error("error: invalid field {0}")]
    InvalidField(&'static str),
    /// The call's turn was stopped.
    #[error("error: turn stopped")]
    TurnStopped,
    /// The answer does not fit its frame or request, even fitted.
    #[error("error: result too large")]
    ResultTooLarge,
    /// The call ran past its client wait. `docs/push-protocol.md` names only the backend's
    /// wording (`error: no reply from the client within <n> s`); the client's
    /// own is this shorter `error: no reply within <n> s`, in whole seconds.
    #[error("error: no reply within {} s", .0.as_secs())]
    NoReply(Duration),
}

/// Cut to `max` code points (how the contract's texts are clipped: a
/// failed turn's error line, a delegation's title and summary).
pub fn cut_chars(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// A file that goes to the model as bytes (a PDF).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileBytes {
    /// The file name.
    pub name: String,
    /// Its MIME type (`application/pdf`).
    pub mime: String,
    /// Its bytes, base64.
    pub data_base64: String,
}

impl FileBytes {
    /// The file as a `data:` URL.
    pub fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.mime, self.data_base64)
    }
}
