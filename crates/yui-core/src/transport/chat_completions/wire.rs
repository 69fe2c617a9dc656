//! The typed `chat.completion.chunk`s of a streamed Chat Completions answer.
//!
//! Chunks carry no `type` tag: every field is optional (`#[serde(default)]`)
//! and unknown fields are ignored, so a server that adds fields or leaves
//! some out still parses. A data line `{"error": {...}}` is an error the
//! server raised mid-stream.

use crate::model::Usage;
use crate::transport::responses::wire::error_status;
use crate::transport::sse::RequestError;
use serde::Deserialize;
use serde_json::Value;

/// One data line of the stream.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct Chunk {
    /// The choices; the usage chunk has none.
    #[serde(default)]
    pub choices: Vec<Choice>,
    /// Token usage, on the last chunk when `stream_options.include_usage` is set.
    #[serde(default)]
    pub usage: Option<WireUsage>,
    /// An error raised mid-stream.
    #[serde(default)]
    pub error: Option<WireError>,
}

/// One choice of a chunk.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct Choice {
    /// The choice index (only `0` is read).
    #[serde(default)]
    pub index: u32,
    /// What the choice adds.
    #[serde(default)]
    pub delta: Delta,
    /// Why the choice stopped (`stop`, `tool_calls`, `length`, …).
    #[serde(default)]
    pub finish_reason: Option<String>,
}

/// What one chunk adds to the assistant message.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct Delta {
    /// Assistant text.
    #[serde(default)]
    pub content: Option<String>,
    /// Reasoning text (DeepSeek, vLLM, LM Studio).
    #[serde(default)]
    pub reasoning_content: Option<String>,
    /// Reasoning text (Ollama, OpenRouter, newer vLLM).
    #[serde(default)]
    pub reasoning: Option<String>,
    /// Pieces of tool calls, keyed by `index`.
    #[serde(default, deserialize_with = "null_as_empty")]
    pub tool_calls: Vec<ToolCallDelta>,
}

/// A piece of one tool call.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct ToolCallDelta {
    /// Which call of the message this piece belongs to.
    #[serde(default)]
    pub index: usize,
    /// The call id (on the first piece of a call).
    #[serde(default)]
    pub id: Option<String>,
    /// The function name and an arguments piece.
    #[serde(default)]
    pub function: Option<FunctionDelta>,
}

/// The function part of a tool-call piece.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct FunctionDelta {
    /// The tool name (on the first piece of a call).
    #[serde(default)]
    pub name: Option<String>,
    /// A piece of the arguments JSON text.
    #[serde(default)]
    pub arguments: Option<String>,
}

/// The usage chunk's counts.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
pub struct WireUsage {
    /// Input tokens.
    #[serde(default)]
    pub prompt_tokens: u64,
    /// Output tokens.
    #[serde(default)]
    pub completion_tokens: u64,
    /// Both; when absent, the sum of the two.
    #[serde(default)]
    pub total_tokens: Option<u64>,
}

impl From<WireUsage> for Usage {
    fn from(u: WireUsage) -> Self {
        Usage::from_parts(u.prompt_tokens, u.completion_tokens, u.total_tokens)
    }
}

/// An error raised mid-stream: `{"error": {...}}`, or `{"error": "text"}`
/// (read as a JSON value, so either shape keeps the error).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(from = "Value")]
pub struct WireError {
    /// What the server said.
    pub message: Option<String>,
    /// A code: a number, a numeric string or a word.
    pub code: Option<Value>,
    /// A status, when the server gives one.
    pub status: Option<Value>,
}

impl From<Value> for WireError {
    fn from(v: Value) -> Self {
        match v {
            Value::String(s) => WireError { message: Some(s), ..WireError::default() },
            Value::Object(mut o) => WireError {
                message: o.get("message").and_then(Value::as_str).map(str::to_string),
                code: o.remove("code").filter(|c| !c.is_null()),
                status: o.remove("status").filter(|c| !c.is_null()),
            },
            _ => WireError::default(),
        }
    }
}

impl WireError {
    /// The stream error this is: its `code` or `status` as the status when it
    /// is a number or a numeric string in 100..=599.
    pub fn into_request_error(self, raw: &str) -> RequestError {
        let status = error_status(self.code.as_ref()).or_else(|| error_status(self.status.as_ref()));
        RequestError::Stream { status, message: self.message.unwrap_or_default(), raw: raw.to_string() }
    }
}

fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<ToolCallDelta>, D::Error> {
    Ok(Option::<Vec<ToolCallDelta>>::deserialize(d)?.unwrap_or_default())
}

/// Read one data line. `Err` when its JSON cannot be read at all.
pub fn parse(data: &str) -> Result<Chunk, serde_json::Error> {
    serde_json::from_str(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_parse_with_extra_and_missing_fields() {
        let c = parse(r#"{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":null,"choices":[{"index":0,"delta":{"role":"assistant","content":"Hi","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null,"x_new":{"a":1}}"#).unwrap();
        assert_eq!(c.choices[0].delta.content.as_deref(), Some("Hi"));
        assert!(c.usage.is_none());
        let c = parse(
            r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"look","arguments":""}}]}}]}"#,
        )
        .unwrap();
        assert_eq!(c.choices[0].delta.tool_calls[0].index, 1);
        let c = parse(r#"{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15,"prompt_tokens_details":{"cached_tokens":0}}}"#)
            .unwrap();
        assert_eq!(Usage::from(c.usage.unwrap()).total_tokens, 15);
        let c = parse(r#"{"choices":[{"delta":{"tool_calls":null}}]}"#).unwrap();
        assert!(c.choices[0].delta.tool_calls.is_empty());
        assert!(parse("{not json").is_err());
    }

    #[test]
    fn error_chunks_keep_a_numeric_status() {
        let e = parse(r#"{"error":{"message":"boom","code":"500"}}"#).unwrap().error.unwrap();
        assert_eq!(e.into_request_error("raw").status(), Some(500));
        let e = parse(r#"{"error":{"message":"boom","code":"server_error"}}"#).unwrap().error.unwrap();
        assert_eq!(e.into_request_error("raw").status(), None);
        let e = parse(r#"{"error":{"message":"boom","status":503}}"#).unwrap().error.unwrap();
        assert_eq!(e.into_request_error("raw").status(), Some(503));
    }

    #[test]
    fn a_string_error_is_an_error_and_only_real_statuses_count() {
        let e = parse(r#"{"error":"upstream timeout"}"#).unwrap().error.unwrap();
        assert_eq!(e.message.as_deref(), Some("upstream timeout"));
        assert_eq!(e.into_request_error("raw").status(), None);
        for (code, status) in [("42", None), ("700", None), ("\"429\"", Some(429)), ("\"1000\"", None), ("599", Some(599)), ("100", Some(100)), ("99", None)] {
            let c = parse(&format!(r#"{{"error":{{"message":"m","code":{code}}}}}"#)).unwrap();
            assert_eq!(c.error.unwrap().into_request_error("raw").status(), status, "code {code}");
        }
        let c = parse(r#"{"error":{"message":"m","code":"server_error","status":"503"}}"#).unwrap();
        assert_eq!(c.error.unwrap().into_request_error("raw").status(), Some(503));
        assert!(parse(r#"{"error":null,"choices":[]}"#).unwrap().error.is_none());
    }

    #[test]
    fn a_missing_total_is_the_sum() {
        let c = parse(r#"{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5}}"#).unwrap();
        assert_eq!(Usage::from(c.usage.unwrap()), Usage { input_tokens: 10, output_tokens: 5, total_tokens: 15 });
        let c = parse(r#"{"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":20}}"#).unwrap();
        assert_eq!(Usage::from(c.usage.unwrap()).total_tokens, 20, "a total the server gives is kept");
        let c = parse(&format!(r#"{{"choices":[],"usage":{{"prompt_tokens":{},"completion_tokens":5}}}}"#, u64::MAX)).unwrap();
        assert_eq!(Usage::from(c.usage.unwrap()).total_tokens, u64::MAX);
    }
}
