//! The Responses stream events the transport reads, typed.
//!
//! One `#[serde(tag = "type")]` enum with the wire names. Every field the
//! transport does not need is left out (serde ignores it), every field it
//! reads has a default, and an event type it does not know is
//! [`StreamEvent::Other`]: the OpenAI stream grows new events and a local
//! server may send fewer fields, and neither may break a turn.

use crate::model::Usage;
use serde::Deserialize;
use serde_json::Value;

/// One event of a streamed `POST /v1/responses`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type")]
pub enum StreamEvent {
    /// The response was created.
    #[serde(rename = "response.created")]
    Created {
        /// The response so far.
        #[serde(default)]
        response: ResponseInfo,
    },
    /// The response is being generated.
    #[serde(rename = "response.in_progress")]
    InProgress {
        /// The response so far.
        #[serde(default)]
        response: ResponseInfo,
    },
    /// An output item (message, function call, backend tool call, reasoning) started.
    #[serde(rename = "response.output_item.added")]
    OutputItemAdded {
        /// Its index in the response's output.
        #[serde(default)]
        output_index: Option<u64>,
        /// The item as it starts.
        item: OutputItem,
    },
    /// An output item is complete.
    #[serde(rename = "response.output_item.done")]
    OutputItemDone {
        /// Its index in the response's output.
        #[serde(default)]
        output_index: Option<u64>,
        /// The finished item.
        item: OutputItem,
    },
    /// A content part of a message started.
    #[serde(rename = "response.content_part.added")]
    ContentPartAdded,
    /// A content part of a message is complete.
    #[serde(rename = "response.content_part.done")]
    ContentPartDone,
    /// Assistant text.
    #[serde(rename = "response.output_text.delta")]
    OutputTextDelta {
        /// The new text.
        #[serde(default)]
        delta: String,
    },
    /// The assistant text of one content part is complete.
    #[serde(rename = "response.output_text.done")]
    OutputTextDone,
    /// A piece of a function call's arguments.
    #[serde(rename = "response.function_call_arguments.delta")]
    FunctionCallArgumentsDelta {
        /// The call's output item id.
        #[serde(default)]
        item_id: Option<String>,
        /// The call's output index.
        #[serde(default)]
        output_index: Option<u64>,
        /// The new argument text.
        #[serde(default)]
        delta: String,
    },
    /// A function call's arguments are complete.
    #[serde(rename = "response.function_call_arguments.done")]
    FunctionCallArgumentsDone {
        /// The call's output item id.
        #[serde(default)]
        item_id: Option<String>,
        /// The call's output index.
        #[serde(default)]
        output_index: Option<u64>,
        /// The whole argument text.
        #[serde(default)]
        arguments: Option<String>,
    },
    /// A piece of a reasoning summary.
    #[serde(rename = "response.reasoning_summary_text.delta")]
    ReasoningSummaryTextDelta {
        /// The reasoning item id.
        #[serde(default)]
        item_id: Option<String>,
        /// Which summary part of the item.
        #[serde(default)]
        summary_index: u64,
        /// The new text.
        #[serde(default)]
        delta: String,
    },
    /// A piece of raw reasoning text.
    #[serde(rename = "response.reasoning_text.delta")]
    ReasoningTextDelta {
        /// The new text.
        #[serde(default)]
        delta: String,
    },
    /// The response finished; its id continues the chain.
    #[serde(rename = "response.completed")]
    Completed {
        /// The finished response.
        response: ResponseInfo,
    },
    /// The response failed.
    #[serde(rename = "response.failed")]
    Failed {
        /// The failed response.
        #[serde(default)]
        response: ResponseInfo,
    },
    /// The response stopped short (a token limit, a content filter).
    #[serde(rename = "response.incomplete")]
    Incomplete {
        /// The unfinished response.
        #[serde(default)]
        response: ResponseInfo,
    },
    /// An error raised in the stream.
    #[serde(rename = "error")]
    Error {
        /// The error code: a string, or a number some servers send as the HTTP status.
        #[serde(default)]
        code: Option<Value>,
        /// The error's message.
        #[serde(default)]
        message: Option<String>,
        /// The nested form some servers send (`{"error": {code, message}}`).
        #[serde(default)]
        error: Option<Value>,
    },
    /// Any event type the transport does not read; it still keeps the turn alive.
    #[serde(other)]
    Other,
}

/// The parts of a response object the transport reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct ResponseInfo {
    /// The response id (`resp_…`).
    #[serde(default)]
    pub id: Option<String>,
    /// `completed`, `failed`, `incomplete`, …
    #[serde(default)]
    pub status: Option<String>,
    /// Token usage, on a finished response.
    #[serde(default)]
    pub usage: Option<WireUsage>,
}

/// `usage` of a finished response.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
pub struct WireUsage {
    /// Input tokens.
    #[serde(default)]
    pub input_tokens: u64,
    /// Output tokens.
    #[serde(default)]
    pub output_tokens: u64,
    /// Total tokens; input plus output when the server leaves it out.
    #[serde(default)]
    pub total_tokens: Option<u64>,
}

impl From<WireUsage> for Usage {
    fn from(u: WireUsage) -> Self {
        Usage::from_parts(u.input_tokens, u.output_tokens, u.total_tokens)
    }
}

/// One output item, as `response.output_item.added` and `.done` carry it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
pub struct OutputItem {
    /// `message`, `function_call`, `reasoning`, `web_search_call`, …
    #[serde(rename = "type", default)]
    pub kind: String,
    /// The item id.
    #[serde(default)]
    pub id: Option<String>,
    /// The tool or function name, on call items that have one.
    #[serde(default)]
    pub name: Option<String>,
    /// The call id a `function_call_output` answers.
    #[serde(default)]
    pub call_id: Option<String>,
    /// A function call's argument text.
    #[serde(default)]
    pub arguments: Option<String>,
    /// `in_progress`, `completed`, `failed`, `incomplete`, …
    #[serde(default)]
    pub status: Option<String>,
}

/// How the transport treats an output item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ItemKind {
    /// A call the client answers (`function_call`).
    FunctionCall,
    /// A tool the backend runs itself; the name shown as its tool id.
    BackendTool(String),
    /// Anything else (a message, reasoning).
    Plain,
}

impl OutputItem {
    /// What kind of item this is. A backend tool's id is its `name`, else
    /// its type without `_call` (`web_search_call` → `web_search`).
    pub fn classify(&self) -> ItemKind {
        if self.kind == "function_call" {
            return ItemKind::FunctionCall;
        }
        match self.kind.strip_suffix("_call") {
            Some(bare) if !bare.is_empty() => {
                let id = self.name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| bare.to_string());
                ItemKind::BackendTool(id)
            }
            _ => ItemKind::Plain,
        }
    }

    /// True when a backend tool item finished badly (`failed` or `incomplete`).
    pub fn failed(&self) -> bool {
        matches!(self.status.as_deref(), Some("failed" | "incomplete"))
    }
}

/// The HTTP status an `error` event carries, when its code is one: a number,
/// or a string of digits, from 100 to 599.
pub fn error_status(code: Option<&Value>) -> Option<u16> {
    crate::transport::sse::status_of(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(v: Value) -> StreamEvent {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn the_seed_shape_parses() {
        let ev = parse(
            json!({"type":"response.output_item.done","output_index":1,"item":{"id":"fc_1","type":"function_call","name":"generate_express","call_id":"call_1","arguments":"{\"emotion_id\":\"happy\"}"},"sequence_number":4}),
        );
        let StreamEvent::OutputItemDone { item, output_index } = ev else { panic!("{ev:?}") };
        assert_eq!(output_index, Some(1));
        assert_eq!(item.classify(), ItemKind::FunctionCall);
        assert_eq!(item.call_id.as_deref(), Some("call_1"));
        let done = parse(
            json!({"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":10,"output_tokens":5,"total_tokens":15},"output":[]}}),
        );
        let StreamEvent::Completed { response } = done else { panic!() };
        assert_eq!(response.id.as_deref(), Some("resp_1"));
        assert_eq!(Usage::from(response.usage.unwrap()), Usage { input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    }

    #[test]
    fn usage_prefers_the_server_total_and_never_overflows() {
        let usage = |v: Value| Usage::from(serde_json::from_value::<WireUsage>(v).unwrap());
        // The server's total wins, even when the sum would overflow.
        assert_eq!(
            usage(json!({"input_tokens":u64::MAX,"output_tokens":u64::MAX,"total_tokens":7})),
            Usage { input_tokens: u64::MAX, output_tokens: u64::MAX, total_tokens: 7 }
        );
        assert_eq!(usage(json!({"input_tokens":u64::MAX,"output_tokens":1})).total_tokens, u64::MAX);
        assert_eq!(usage(json!({"input_tokens":3,"output_tokens":4})).total_tokens, 7);
        assert_eq!(usage(json!({"input_tokens":3,"output_tokens":4,"total_tokens":9})).total_tokens, 9);
    }

    #[test]
    fn unknown_events_and_fields_are_other_or_ignored() {
        assert_eq!(parse(json!({"type":"response.audio.delta","delta":"x"})), StreamEvent::Other);
        assert_eq!(
            parse(json!({"type":"response.output_text.delta","delta":"hi","logprobs":[],"extra":{"a":1}})),
            StreamEvent::OutputTextDelta { delta: "hi".into() }
        );
        assert_eq!(parse(json!({"type":"response.content_part.added","part":{"type":"output_text"}})), StreamEvent::ContentPartAdded);
    }

    #[test]
    fn backend_tools_are_named() {
        let item = |v: Value| -> OutputItem { serde_json::from_value(v).unwrap() };
        assert_eq!(item(json!({"type":"web_search_call","status":"in_progress"})).classify(), ItemKind::BackendTool("web_search".into()));
        assert_eq!(item(json!({"type":"mcp_call","name":"fetch"})).classify(), ItemKind::BackendTool("fetch".into()));
        assert_eq!(item(json!({"type":"message"})).classify(), ItemKind::Plain);
        assert_eq!(item(json!({"type":"function_call_output"})).classify(), ItemKind::Plain);
        assert!(item(json!({"type":"code_interpreter_call","status":"incomplete"})).failed());
    }

    #[test]
    fn error_codes_that_are_statuses() {
        assert_eq!(error_status(Some(&json!(500))), Some(500));
        assert_eq!(error_status(Some(&json!("429"))), Some(429));
        assert_eq!(error_status(Some(&json!("server_error"))), None);
        assert_eq!(error_status(Some(&json!(42))), None);
        assert_eq!(error_status(None), None);
    }
}
