//! What the chat window shows and the data dir keeps: conversations of
//! messages, an assistant message's answers (one per regenerate), and the
//! pieces of an answer (reasoning, tool cards, approvals, usage, failure).
//! The UI's transcript slice uses these types as generated.

use super::vocabulary::Latency;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The user (typed or spoken).
    User,
    /// The agent, through the character.
    Assistant,
}

/// One row of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChatMessage {
    /// The message id: an assistant message's `msg_id` (the turn id that
    /// started it), or `u<turn id>` for the user's message of that turn.
    pub id: String,
    /// Who wrote it.
    pub role: Role,
    /// When it was written, epoch milliseconds.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub at_ms: i64,
    /// A user message's text (empty on an assistant message: its text is in
    /// its answers).
    #[serde(default)]
    pub text: String,
    /// A user message's files, as "name · size" (the bytes are not kept).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "ts", ts(optional, as = "Option<Vec<String>>"))]
    pub files: Vec<String>,
    /// An assistant message's answers, oldest first: Regenerate adds one.
    #[serde(default)]
    pub answers: Vec<Answer>,
    /// The answer shown (an index into `answers`).
    #[serde(default)]
    pub active: u32,
    /// The message's index in the server's conversation, when the
    /// `agent_chat` engine said (`end`'s `user_index`/`assistant_index`);
    /// fork, version and delete address it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub server_index: Option<u64>,
}

/// How an answer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum AnswerState {
    /// Still streaming.
    Streaming,
    /// Ended normally (`end`).
    Done,
    /// Stopped by the user (`cancelled`): "Stopped", nothing else.
    Stopped,
    /// Failed (`error`): its error card shows.
    Failed,
}

/// One answer of an assistant message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Answer {
    /// The run that wrote it (`start`'s `run_id`).
    pub run_id: String,
    /// How it stands.
    pub state: AnswerState,
    /// When it started, epoch milliseconds.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub started_ms: i64,
    /// The reply text.
    #[serde(default)]
    pub text: String,
    /// The reasoning text.
    #[serde(default)]
    pub reasoning: String,
    /// How long the reasoning ran, once it stopped ("Thought for Ns");
    /// `None` while it runs or when there was none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub reasoning_ms: Option<u64>,
    /// Tool cards, in call order.
    #[serde(default)]
    pub tools: Vec<ToolCard>,
    /// Approval cards, in request order.
    #[serde(default)]
    pub approvals: Vec<ApprovalCard>,
    /// The usage line, once `usage` came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub usage: Option<UsageLine>,
    /// The error card, once `error` came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error: Option<ErrorCard>,
    /// A stopped answer on an engine that confirms stops (`agent_chat`):
    /// `true` once the engine said `cancelled`, `false` when it did not
    /// confirm the stop (the chat window says so); `None` while waiting or
    /// where the wire has no confirmation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub stop_confirmed: Option<bool>,
}

/// How a tool card stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ToolCardState {
    /// `tool_drafting`: the model is writing the arguments.
    Drafting,
    /// `tool_call`: running (the card's dot).
    Running,
    /// `tool_result` with `ok`.
    Done,
    /// `tool_result` without `ok`.
    Failed,
    /// The answer ended with no result for this call: not a success.
    Unresolved,
}

/// One tool card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ToolCard {
    /// The call id (empty while drafting).
    pub call_id: String,
    /// The tool name.
    pub name: String,
    /// The arguments (null while drafting).
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub args: Value,
    /// How it stands.
    pub state: ToolCardState,
    /// What the tool answered (whole; the card tail-truncates it).
    #[serde(default)]
    pub output: String,
    /// How long the call took, in seconds, once it finished (when timed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub seconds: Option<f64>,
    /// The approval card that gated this call (paired by order, name and
    /// arguments, `fold.rs`): the card shows its answer, and the approval
    /// card is not shown again on its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub approval_id: Option<String>,
}

/// How an approval card stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ApprovalState {
    /// Waiting for Allow / Always allow / Deny.
    Pending,
    /// Allowed once.
    Allowed,
    /// Always allowed.
    Always,
    /// Denied by the user.
    Denied,
    /// Nobody answered in time: denied.
    TimedOut,
    /// The run ended before an answer.
    Ended,
    /// The answer reached the engine after it stopped waiting (its 404):
    /// no longer pending.
    Gone,
}

/// One approval card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ApprovalCard {
    /// The approval id (`POST /approve/{aid}`).
    pub approval_id: String,
    /// The call waiting for it.
    pub call_id: String,
    /// The tool name.
    pub name: String,
    /// The call's arguments.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub args: Value,
    /// How it stands.
    pub state: ApprovalState,
    /// When it was asked, epoch milliseconds (the card counts down from it).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub asked_ms: i64,
}

/// The usage line under an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct UsageLine {
    /// Characters of the reply.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub chars: u64,
    /// Seconds the turn took.
    pub seconds: f64,
    /// Time to first token, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub ttft: Option<f64>,
    /// Tokens of the turn's last call, where the transport has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub tokens: Option<crate::model::Usage>,
    /// The model's context window in tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional, type = "number"))]
    pub context_window: Option<u64>,
    /// The latency breakdown (the line's hover).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub latency: Option<Latency>,
}

/// The typed error card of a failed answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ErrorCard {
    /// `auth`, `rate_limit`, `no_answer`, `empty`, `internal`, or another
    /// kind as the server sent it.
    pub kind: String,
    /// What to show.
    pub message: String,
    /// For `no_answer`: how many tool calls succeeded.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub tools_ok: u32,
}

/// One conversation of a character.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Conversation {
    /// Its id (also its file name).
    pub id: String,
    /// Its title: the first user message, cut short ("New chat" before one).
    pub title: String,
    /// When it was created, epoch milliseconds.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub created_ms: i64,
    /// When it last changed, epoch milliseconds.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub updated_ms: i64,
    /// Its messages, oldest first: the newest ones only (a window, see
    /// `more_before` and `more_after`); a chat window loads the rest page by
    /// page ([`ChatPage`]).
    pub messages: Vec<ChatMessage>,
    /// Messages older than the first of `messages` exist.
    #[serde(default)]
    pub more_before: bool,
    /// Messages newer than the last of `messages` exist (a window opened
    /// at an older message, a search hit).
    #[serde(default)]
    pub more_after: bool,
    /// Its id on an `agent_chat` server when that differs from `id` (a
    /// fork the server named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub server_id: Option<String>,
}

/// A page of a conversation's messages, loaded as the chat window
/// scrolls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ChatPage {
    /// The conversation.
    pub conversation_id: String,
    /// The messages, oldest first.
    pub messages: Vec<ChatMessage>,
    /// Messages older than the first of `messages` exist.
    pub more_before: bool,
    /// Messages newer than the last of `messages` exist.
    pub more_after: bool,
}

/// One line of the conversation list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConversationSummary {
    /// The conversation id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// When it last changed, epoch milliseconds.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub updated_ms: i64,
    /// How many messages it holds.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub messages: u32,
    /// True for the conversation new turns go to.
    pub current: bool,
}

/// One search result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SearchHit {
    /// The conversation.
    pub conversation_id: String,
    /// Its title.
    pub title: String,
    /// The message that matched.
    pub message_id: String,
    /// The text around the match, one line.
    pub snippet: String,
    /// When the message was written, epoch milliseconds.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub at_ms: i64,
}

/// A file sent with a message (paste, drag and drop, the + button).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Attachment {
    /// The file name.
    pub name: String,
    /// Its MIME type as the page read it (`image/png`, `application/pdf`,
    /// `text/plain`; empty when unknown).
    pub mime: String,
    /// Its bytes, base64.
    pub data_base64: String,
}
