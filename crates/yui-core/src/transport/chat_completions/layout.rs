//! The request body and its message layout (`docs/client-context.md`, "Where
//! the block goes"):
//! system(card) · trimmed transcript · system(post-history, when any) ·
//! system(`client_context:\n` + the block's lines) · user(input alone),
//! then, on a follow-up request, the turn's earlier rounds.

use super::transcript::{estimate, system, Transcript};
use crate::context::{CLOSE_TAG, OPEN_TAG};
use crate::transport::request::RequestConfig;
use crate::transport::{express, TurnRequest};
use serde_json::{json, Value};

/// The largest reply reserve, in tokens.
pub const REPLY_RESERVE_MAX: usize = 1024;

/// The context message: `client_context:\n` and the block without its
/// opening and closing tag lines.
pub fn context_message(block: &str) -> String {
    let mut lines: Vec<&str> = block.lines().collect();
    if lines.first().is_some_and(|l| l.trim() == OPEN_TAG) {
        lines.remove(0);
    }
    if lines.last().is_some_and(|l| l.trim() == CLOSE_TAG) {
        lines.pop();
    }
    format!("client_context:\n{}", lines.join("\n"))
}

/// The user message: the input alone, or the text-and-images part array.
pub fn user_message(input: &str, images: &[String], files: &[crate::chat::attach::FileBytes]) -> Value {
    if images.is_empty() && files.is_empty() {
        return json!({ "role": "user", "content": input });
    }
    let mut parts = vec![json!({ "type": "text", "text": input })];
    parts.extend(images.iter().map(|u| json!({ "type": "image_url", "image_url": { "url": u } })));
    // Files (PDFs from the chat window) as OpenAI's `file` content part.
    parts.extend(files.iter().map(|f| json!({ "type": "file", "file": { "filename": f.name, "file_data": f.data_url() } })));
    json!({ "role": "user", "content": parts })
}

/// The tools of every request: `generate_express` first, then `cfg.tools`.
pub fn tools(cfg: &RequestConfig) -> Vec<Value> {
    let mut out = vec![express::declaration(&cfg.vocabulary)];
    out.extend(cfg.tools.iter().cloned());
    out
}

/// The messages of a turn's request: the layout above, with the transcript
/// trimmed to `cfg.context_window` less the fixed messages and the reply
/// reserve (`min(1024, window / 4)`), then `rounds` (the messages of the
/// turn's earlier rounds, empty on the first request).
pub fn messages(cfg: &RequestConfig, transcript: &mut Transcript, turn: &TurnRequest, rounds: &[Value]) -> Vec<Value> {
    let context = context_message(&turn.block);
    let window = cfg.context_window as usize;
    let fixed = estimate(&cfg.instructions) + cfg.post_history.as_deref().map_or(0, estimate) + estimate(&context) + estimate(&turn.input);
    let reserve = REPLY_RESERVE_MAX.min(window / 4);
    let budget = window.saturating_sub(fixed).saturating_sub(reserve);
    let mut out = vec![system(&cfg.instructions)];
    out.extend(transcript.replay(budget));
    if let Some(post) = &cfg.post_history {
        out.push(system(post));
    }
    out.push(system(&context));
    out.push(user_message(&turn.input, &crate::transport::request::urls(&turn.images), &turn.files));
    out.extend(rounds.iter().cloned());
    out
}

/// The request body.
pub fn body(cfg: &RequestConfig, messages: Vec<Value>) -> Value {
    let mut body = json!({
        "model": cfg.model,
        "stream": true,
        "stream_options": { "include_usage": true },
        "messages": messages,
        "tools": tools(cfg),
    });
    if let Some(effort) = &cfg.reasoning_effort {
        body["reasoning_effort"] = json!(effort);
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_message_drops_only_the_tags() {
        let block = "<client_context>\nClient-injected context; not typed by the user.\ntime: t\ntrigger: user message\n</client_context>";
        assert_eq!(context_message(block), "client_context:\nClient-injected context; not typed by the user.\ntime: t\ntrigger: user message");
    }

    #[test]
    fn images_make_a_part_array() {
        let m = user_message("hi", &["data:image/jpeg;base64,AA".into()], &[]);
        assert_eq!(m, json!({"role":"user","content":[{"type":"text","text":"hi"},{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,AA"}}]}));
        assert_eq!(user_message("hi", &[], &[]), json!({"role":"user","content":"hi"}));
        let pdf = crate::chat::attach::FileBytes { name: "d.pdf".into(), mime: "application/pdf".into(), data_base64: "JVBERg==".into() };
        let m = user_message("read", &[], &[pdf]);
        assert_eq!(m["content"][1], json!({"type": "file", "file": {"filename": "d.pdf", "file_data": "data:application/pdf;base64,JVBERg=="}}));
    }
}
