//! The demo's answer on `POST /v1/responses`.
//!
//! Stream: `response.created`, `response.in_progress`, a reasoning item with
//! summary deltas, a message item whose `output_text.delta`s are each
//! followed by one `generate_express` function call item (added with empty
//! arguments, arguments streamed in two deltas, arguments done, item done),
//! `output_text.done`, the message item done, `response.completed` with `id`
//! and `usage`. Every event has a `sequence_number`. A follow-up (last input
//! item a `function_call_output`) gets a short plain message and no calls.

use serde_json::{json, Value};

use super::{is_responses_follow_up, responses_user_text, split_args, wants_stream, HttpReply, Plan, SseEvent, FIRST_MS, REASONING_MS, SENTENCE_MS};
use crate::openai::responses as r;
use crate::push::Ids;
use crate::reply::{chunks, tokens};

/// The demo's whole answer to a Responses request; `now` is the `HH:MM` it
/// tells when asked the time, `ids` mints `resp_<n>` etc.
pub fn responses_reply(req: &Value, ids: &Ids, now: &str) -> HttpReply {
    let (text, follow_up) = (responses_user_text(req), is_responses_follow_up(req));
    Plan::new(req, ids, now, "responses_request", text, follow_up).map_or_else(|e| e, |plan| responses_answer(req, &plan))
}

fn responses_answer(req: &Value, plan: &Plan) -> HttpReply {
    let (n, pieces, model, full) = (plan.n, &plan.pieces, &plan.model, plan.full.as_str());
    let reasoning = plan.reasoning.as_str();
    let (resp_id, msg_id, rs_id) = (format!("resp_{n}"), format!("msg_{n}"), format!("rs_{n}"));
    let usage = r::usage(plan.input_tokens, plan.output_tokens, tokens(reasoning));

    // Output indices: reasoning 0 (when any), the message, then one per call.
    let msg_index = usize::from(!reasoning.is_empty());
    let mut output = Vec::new();
    let mut events: Vec<(f64, Value)> = vec![(0.0, r::created(&resp_id)), (0.0, r::in_progress(&resp_id))];
    if !reasoning.is_empty() {
        let item = r::reasoning_item(&rs_id, Some(reasoning));
        events.push((0.0, r::item_added(0, r::reasoning_item(&rs_id, None))));
        events.push((0.0, r::reasoning_summary_part_added(&rs_id)));
        for delta in chunks(reasoning, 3) {
            events.push((REASONING_MS, r::reasoning_summary_delta(&rs_id, &delta)));
        }
        events.push((0.0, r::reasoning_summary_done(&rs_id, reasoning)));
        events.push((0.0, r::reasoning_summary_part_done(&rs_id, reasoning)));
        events.push((0.0, r::item_done(0, item.clone())));
        output.push(item);
    }
    let at = |e: Value| r::at(e, msg_index);
    events.push((FIRST_MS, r::item_added(msg_index, r::message_item(&msg_id, "in_progress", None))));
    events.push((0.0, at(r::content_part_added(&msg_id))));
    let mut calls = Vec::new();
    for (i, (piece, args)) in pieces.iter().enumerate() {
        let delay = if i == 0 { 0.0 } else { SENTENCE_MS };
        events.push((delay, at(r::text_delta(&msg_id, piece))));
        let Some(args) = args else { continue };
        let index = msg_index + 1 + calls.len();
        let (fc_id, call_id) = (format!("fc_{n}_{}", i + 1), format!("call_{n}_{}", i + 1));
        events.push((0.0, r::function_call_added(index, &fc_id, &call_id, "generate_express", "")));
        for part in split_args(args, 2) {
            events.push((0.0, r::function_call_arguments_delta(index, &fc_id, &part)));
        }
        events.push((0.0, r::function_call_arguments_done(index, &fc_id, args)));
        events.push((0.0, r::function_call_done(index, &fc_id, &call_id, "generate_express", args)));
        calls.push(r::function_call_item(&fc_id, &call_id, "generate_express", args, "completed"));
    }
    let message = r::message_item(&msg_id, "completed", Some(full));
    events.push((0.0, at(r::output_text_done(&msg_id, full))));
    events.push((0.0, at(r::content_part_done(&msg_id, full))));
    events.push((0.0, r::item_done(msg_index, message.clone())));
    output.push(message);
    output.extend(calls);
    let mut completed = r::completed(&resp_id, Value::Array(output), usage);
    completed["response"]["model"] = model.clone();
    if !wants_stream(req) {
        return HttpReply::Json(completed["response"].take());
    }
    let stream = events
        .into_iter()
        .chain(std::iter::once((0.0, completed)))
        .enumerate()
        .map(|(seq, (delay, mut event))| {
            if let Some(resp) = event.get_mut("response") {
                resp["model"] = model.clone();
            }
            event["sequence_number"] = json!(seq);
            SseEvent::named(delay, &event)
        })
        .collect();
    HttpReply::Stream(stream)
}
