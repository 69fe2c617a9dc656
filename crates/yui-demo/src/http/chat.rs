//! The demo's answer on `POST /v1/chat/completions`.
//!
//! Stream: `reasoning_content` deltas (the first with `role: assistant`),
//! per sentence a `content` delta followed by a `generate_express`
//! `tool_calls` delta carrying id and name, then the arguments split over
//! two more deltas of the same `index`; a finish chunk (`tool_calls`), a
//! usage chunk when `stream_options.include_usage` is set, `data: [DONE]`.
//! A follow-up (last message a `tool` message) gets a short plain reply that
//! finishes with `stop`.

use serde_json::{json, Value};

use super::{chat_user_text, is_chat_follow_up, split_args, wants_stream, HttpReply, Plan, SseEvent, FIRST_MS, REASONING_MS, SENTENCE_MS};
use crate::openai::chat as c;
use crate::push::Ids;
use crate::reply::chunks;

/// The demo's whole answer to a Chat Completions request; `now` is the
/// `HH:MM` it tells when asked the time, `ids` mints `chatcmpl-<n>`.
pub fn chat_reply(req: &Value, ids: &Ids, now: &str) -> HttpReply {
    let (text, follow_up) = (chat_user_text(req), is_chat_follow_up(req));
    Plan::new(req, ids, now, "chat_completions_request", text, follow_up).map_or_else(|e| e, |plan| chat_answer(req, &plan))
}

fn chat_answer(req: &Value, plan: &Plan) -> HttpReply {
    let (n, pieces, model) = (plan.n, &plan.pieces, &plan.model);
    let id = format!("chatcmpl-{n}");
    let (prompt_tokens, completion_tokens) = (plan.input_tokens, plan.output_tokens);
    let cues = pieces.iter().any(|(_, a)| a.is_some());
    let finish_reason = if cues { "tool_calls" } else { "stop" };

    if !wants_stream(req) {
        let mut message = json!({ "role": "assistant", "content": plan.full });
        if cues {
            message["tool_calls"] = pieces
                .iter()
                .enumerate()
                .filter_map(|(i, (_, a))| a.as_ref().map(|a| (i, a)))
                .map(|(i, a)| {
                    json!({ "id": format!("call_{n}_{}", i + 1), "type": "function",
                    "function": { "name": "generate_express", "arguments": a } })
                })
                .collect();
        }
        return HttpReply::Json(json!({
            "id": id, "object": "chat.completion", "created": crate::openai::now_secs(), "model": model,
            "choices": [{ "index": 0, "message": message, "finish_reason": finish_reason }],
            "usage": { "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens },
        }));
    }

    let mut events: Vec<(f64, Value)> = vec![(0.0, c::chunk_role(&id))];
    for part in chunks(&plan.reasoning, 3) {
        events.push((REASONING_MS, c::chunk_reasoning(&id, "reasoning_content", &part)));
    }
    let mut index = 0;
    for (i, (piece, args)) in pieces.iter().enumerate() {
        let delay = if i == 0 { FIRST_MS } else { SENTENCE_MS };
        events.push((delay, c::chunk_text(&id, piece)));
        let Some(args) = args else { continue };
        let call_id = format!("call_{n}_{}", i + 1);
        events.push((0.0, c::chunk_tool_call(&id, index, Some(&call_id), Some("generate_express"), "")));
        for part in split_args(args, 2) {
            events.push((0.0, c::chunk_tool_call(&id, index, None, None, &part)));
        }
        index += 1;
    }
    events.push((0.0, c::chunk_finish(&id, finish_reason)));
    let include_usage = req.pointer("/stream_options/include_usage").and_then(Value::as_bool).unwrap_or(false);
    if include_usage {
        events.push((0.0, c::chunk_usage(&id, prompt_tokens, completion_tokens, prompt_tokens + completion_tokens)));
    }
    let mut stream: Vec<SseEvent> = events
        .into_iter()
        .map(|(delay, mut chunk)| {
            chunk["model"] = model.clone();
            SseEvent::data(delay, chunk.to_string())
        })
        .collect();
    stream.push(SseEvent::data(0.0, "[DONE]"));
    HttpReply::Stream(stream)
}
