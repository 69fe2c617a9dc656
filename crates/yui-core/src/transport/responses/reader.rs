//! Reading one response stream into reply parts and function calls.
//!
//! [`Reader`] is fed the typed events of one response and reports what the
//! engine sees ([`Inbound`] events) into an outbox, while it keeps what the
//! transport needs afterwards: the function calls of the response and the
//! answers it could give itself (`generate_express`). [`TurnText`] is what
//! lives across the rounds of one turn: the cue placement and the reasoning.

use super::wire::{error_status, ItemKind, OutputItem, StreamEvent};
use crate::model::{ToolState, Usage};
use crate::transport::express::{self, Segmenter};
use crate::transport::sse::RequestError;
use crate::transport::{Inbound, ReplyPart, ToolCall};
use serde_json::Value;
use std::collections::HashMap;

/// What lives across the rounds of one turn.
#[derive(Debug, Default)]
pub struct TurnText {
    /// Places `generate_express` cues in the streamed text.
    pub segmenter: Segmenter,
    /// All reasoning of the turn so far.
    pub reasoning: String,
    /// All assistant text streamed in the turn so far, as it came (what
    /// the chain keeps of a turn cut short).
    pub streamed: String,
    /// The reasoning summary part written last (item id, summary index).
    summary_part: Option<(Option<String>, u64)>,
}

/// A function call the response made.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The id its `function_call_output` answers.
    pub call_id: String,
    /// The function name.
    pub name: String,
    /// The assembled argument text.
    pub arguments: String,
    /// The answer the transport gave itself (`generate_express`); `None`
    /// for a client tool, which the engine runs.
    pub answer: Option<String>,
}

/// How a response stream stands after an event.
#[derive(Debug)]
pub enum Step {
    /// More events to come.
    Continue,
    /// `response.completed`: the response id (to chain to) and its usage.
    Completed {
        /// The response id, when the server sent one.
        id: Option<String>,
        /// The response's usage.
        usage: Option<Usage>,
    },
    /// `response.failed` or `response.incomplete`: generic text, no server text.
    Failed,
    /// An `error` event.
    Error(RequestError),
}

/// Reads one response.
#[derive(Debug)]
pub struct Reader {
    turn_id: String,
    calls: Vec<Call>,
    /// Argument text streamed so far, keyed by item id or `#<output_index>`.
    arguments: HashMap<String, String>,
    /// Backend tools running, by item id, with the tool id they reported.
    running: HashMap<String, String>,
    outbox: Vec<Inbound>,
}

fn index_key(i: Option<u64>) -> Option<String> {
    i.map(|i| format!("#{i}"))
}

impl Reader {
    /// A reader for one response of `turn_id`.
    pub fn new(turn_id: &str) -> Self {
        Self { turn_id: turn_id.to_string(), calls: Vec::new(), arguments: HashMap::new(), running: HashMap::new(), outbox: Vec::new() }
    }

    /// The function calls completed so far, in order.
    pub fn calls(&self) -> &[Call] {
        &self.calls
    }

    /// Take the events to report.
    pub fn drain(&mut self) -> Vec<Inbound> {
        std::mem::take(&mut self.outbox)
    }

    fn part(&mut self, part: ReplyPart) {
        self.outbox.push(Inbound::Reply { turn_id: self.turn_id.clone(), part });
    }

    /// Feed one event.
    pub fn on_event(&mut self, event: StreamEvent, text: &mut TurnText) -> Step {
        match event {
            StreamEvent::OutputTextDelta { delta } => {
                text.streamed.push_str(&delta);
                for segment in text.segmenter.text(&delta) {
                    self.part(ReplyPart::Speech { segments: vec![segment] });
                }
                self.part(ReplyPart::Alive { after_speech: true });
            }
            StreamEvent::OutputTextDone => self.part(ReplyPart::Alive { after_speech: true }),
            StreamEvent::OutputItemAdded { output_index, item } => match item.classify() {
                ItemKind::BackendTool(tool_id) => {
                    if let Some(id) = &item.id {
                        self.running.insert(id.clone(), tool_id.clone());
                    }
                    self.part(ReplyPart::ToolStatus { state: ToolState::Running, tool_id });
                }
                ItemKind::FunctionCall => {
                    // Arguments the added item already carries start the buffer.
                    if let Some(args) = item.arguments.as_ref().filter(|a| !a.is_empty()) {
                        if let Some(key) = item.id.clone().or_else(|| index_key(output_index)) {
                            self.arguments.insert(key, args.clone());
                        }
                    }
                    self.part(ReplyPart::Alive { after_speech: false });
                }
                ItemKind::Plain => self.part(ReplyPart::Alive { after_speech: false }),
            },
            StreamEvent::FunctionCallArgumentsDelta { item_id, output_index, delta } => {
                if let Some(key) = item_id.or_else(|| index_key(output_index)) {
                    self.arguments.entry(key).or_default().push_str(&delta);
                }
                self.part(ReplyPart::Alive { after_speech: false });
            }
            StreamEvent::FunctionCallArgumentsDone { item_id, output_index, arguments } => {
                if let (Some(key), Some(args)) = (item_id.or_else(|| index_key(output_index)), arguments) {
                    self.arguments.insert(key, args);
                }
                self.part(ReplyPart::Alive { after_speech: false });
            }
            StreamEvent::OutputItemDone { output_index, item } => match item.classify() {
                ItemKind::FunctionCall => self.call_done(output_index, item, text),
                ItemKind::BackendTool(tool_id) => {
                    let tool_id = item.id.as_ref().and_then(|id| self.running.remove(id)).unwrap_or(tool_id);
                    let state = if item.failed() { ToolState::Failed } else { ToolState::Done };
                    self.part(ReplyPart::ToolStatus { state, tool_id });
                }
                ItemKind::Plain => self.part(ReplyPart::Alive { after_speech: false }),
            },
            StreamEvent::ReasoningSummaryTextDelta { item_id, summary_index, delta } => {
                let key = (item_id, summary_index);
                let mut delta = delta;
                if text.summary_part.as_ref().is_some_and(|k| *k != key) && !text.reasoning.is_empty() {
                    delta.insert_str(0, "\n\n");
                }
                text.summary_part = Some(key);
                self.reasoning(delta, text);
            }
            StreamEvent::ReasoningTextDelta { delta } => self.reasoning(delta, text),
            StreamEvent::Completed { response } => {
                // A parsed event like any other: it restarts the engine's
                // stream deadline with the long budget, so a round that ended
                // on speech does not carry the after-speech deadline into the
                // tool wait and the follow-up request.
                self.part(ReplyPart::Alive { after_speech: false });
                return Step::Completed { id: response.id, usage: response.usage.map(Usage::from) };
            }
            StreamEvent::Failed { .. } | StreamEvent::Incomplete { .. } => return Step::Failed,
            StreamEvent::Error { code, message, error } => return Step::Error(stream_error(code, message, error)),
            StreamEvent::Created { .. }
            | StreamEvent::InProgress { .. }
            | StreamEvent::ContentPartAdded
            | StreamEvent::ContentPartDone
            | StreamEvent::Other => self.part(ReplyPart::Alive { after_speech: false }),
        }
        Step::Continue
    }

    fn reasoning(&mut self, delta: String, text: &mut TurnText) {
        if delta.is_empty() {
            self.part(ReplyPart::Alive { after_speech: false });
            return;
        }
        text.reasoning.push_str(&delta);
        self.part(ReplyPart::Reasoning { delta });
    }

    /// A function call is complete: place its cue, or hand it to the engine.
    fn call_done(&mut self, output_index: Option<u64>, item: OutputItem, text: &mut TurnText) {
        let streamed = item.id.as_ref().and_then(|id| self.arguments.remove(id)).or_else(|| index_key(output_index).and_then(|k| self.arguments.remove(&k)));
        let arguments = item.arguments.clone().filter(|a| !a.trim().is_empty()).or(streamed).unwrap_or_default();
        let call_id = item.call_id.clone().or_else(|| item.id.clone()).unwrap_or_else(|| format!("call_{}", self.calls.len() + 1));
        let name = item.name.clone().unwrap_or_default();
        if express::is_express(&name) {
            let answer = match express::parse_cue(&arguments) {
                Ok(cue) => {
                    let segment = text.segmenter.cue(cue);
                    self.part(ReplyPart::Speech { segments: vec![segment] });
                    express::OK.to_string()
                }
                Err(e) => {
                    self.part(ReplyPart::Alive { after_speech: false });
                    e.to_string()
                }
            };
            self.calls.push(Call { call_id, name, arguments, answer: Some(answer) });
            return;
        }
        let parsed = if arguments.trim().is_empty() {
            Value::Object(Default::default())
        } else {
            serde_json::from_str(&arguments).unwrap_or_else(|_| Value::String(arguments.clone()))
        };
        self.outbox.push(Inbound::ToolCall(ToolCall { id: call_id.clone(), turn_id: self.turn_id.clone(), name: name.clone(), arguments: parsed }));
        self.calls.push(Call { call_id, name, arguments, answer: None });
    }
}

/// An `error` event as a [`RequestError::Stream`]: the status when its code
/// is one, its message, and the raw event.
fn stream_error(code: Option<Value>, message: Option<String>, nested: Option<Value>) -> RequestError {
    let nested_code = nested.as_ref().and_then(|e| e.get("code")).cloned();
    let nested_message = nested.as_ref().and_then(|e| e.get("message")).and_then(Value::as_str).map(str::to_string);
    let status = error_status(code.as_ref()).or_else(|| error_status(nested_code.as_ref()));
    let message = message.or(nested_message).unwrap_or_else(|| "error event".to_string());
    let raw = serde_json::json!({ "code": code.or(nested_code), "message": message }).to_string();
    RequestError::Stream { status, message, raw }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Segment;
    use serde_json::json;

    fn feed(reader: &mut Reader, text: &mut TurnText, events: &[Value]) -> Vec<Step> {
        events.iter().map(|e| reader.on_event(serde_json::from_value(e.clone()).unwrap(), text)).collect()
    }

    fn parts(out: Vec<Inbound>) -> Vec<ReplyPart> {
        out.into_iter()
            .filter_map(|e| match e {
                Inbound::Reply { part: ReplyPart::Alive { .. }, .. } => None,
                Inbound::Reply { part, .. } => Some(part),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn arguments_assemble_from_deltas_by_item_id() {
        let (mut r, mut t) = (Reader::new("t1"), TurnText::default());
        feed(
            &mut r,
            &mut t,
            &[
                json!({"type":"response.output_item.added","output_index":0,"item":{"id":"fc_9","type":"function_call","name":"generate_express","call_id":"c9","arguments":""}}),
                json!({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":0,"delta":"{\"emotion"}),
                json!({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":0,"delta":"_id\":\"sad\"}"}),
                json!({"type":"response.output_item.done","output_index":0,"item":{"id":"fc_9","type":"function_call","name":"generate_express","call_id":"c9"}}),
            ],
        );
        assert_eq!(r.calls()[0].arguments, r#"{"emotion_id":"sad"}"#);
        assert_eq!(r.calls()[0].answer.as_deref(), Some("ok"));
        let got = parts(r.drain());
        assert_eq!(got.len(), 1);
        let ReplyPart::Speech { segments } = &got[0] else { panic!() };
        assert_eq!(segments[0].cues[0].emotion_id.as_deref(), Some("sad"));
    }

    #[test]
    fn an_empty_cue_answers_an_error_and_places_nothing() {
        let (mut r, mut t) = (Reader::new("t1"), TurnText::default());
        feed(
            &mut r,
            &mut t,
            &[json!({"type":"response.output_item.done","item":{"id":"fc","type":"function_call","name":"generate_express","call_id":"c","arguments":"{}"}})],
        );
        assert_eq!(r.calls()[0].answer.as_deref(), Some(express::EMPTY_CUE));
        assert!(parts(r.drain()).is_empty());
    }

    #[test]
    fn client_calls_go_to_the_engine() {
        let (mut r, mut t) = (Reader::new("t1"), TurnText::default());
        assert!(t.segmenter.text("Hi").is_empty());
        feed(
            &mut r,
            &mut t,
            &[
                json!({"type":"response.output_item.done","item":{"type":"function_call","name":"address_character","call_id":"c1","arguments":"{\"character\":\"Rin\"}"}}),
            ],
        );
        let out = r.drain();
        assert_eq!(
            out,
            vec![Inbound::ToolCall(ToolCall {
                id: "c1".into(),
                turn_id: "t1".into(),
                name: "address_character".into(),
                arguments: json!({"character":"Rin"})
            })]
        );
        assert_eq!(r.calls()[0].answer, None);
        assert_eq!(t.segmenter.finish(), Some(Segment { cues: vec![], speech: "Hi".into() }), "a client call places no cue");
    }

    #[test]
    fn reasoning_parts_are_separated_and_backend_tools_report() {
        let (mut r, mut t) = (Reader::new("t1"), TurnText::default());
        feed(
            &mut r,
            &mut t,
            &[
                json!({"type":"response.reasoning_summary_text.delta","item_id":"rs","summary_index":0,"delta":"First."}),
                json!({"type":"response.reasoning_summary_text.delta","item_id":"rs","summary_index":1,"delta":"Second."}),
                json!({"type":"response.output_item.added","item":{"id":"ws","type":"web_search_call","status":"in_progress"}}),
                json!({"type":"response.output_item.done","item":{"id":"ws","type":"web_search_call","status":"failed"}}),
            ],
        );
        assert_eq!(t.reasoning, "First.\n\nSecond.");
        assert_eq!(
            parts(r.drain()),
            vec![
                ReplyPart::Reasoning { delta: "First.".into() },
                ReplyPart::Reasoning { delta: "\n\nSecond.".into() },
                ReplyPart::ToolStatus { state: ToolState::Running, tool_id: "web_search".into() },
                ReplyPart::ToolStatus { state: ToolState::Failed, tool_id: "web_search".into() },
            ]
        );
    }

    #[test]
    fn completed_reports_the_stream_alive_with_the_long_budget() {
        let (mut r, mut t) = (Reader::new("t1"), TurnText::default());
        let steps = feed(
            &mut r,
            &mut t,
            &[
                json!({"type":"response.output_text.delta","item_id":"msg_1","delta":"Hi."}),
                json!({"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3}}}),
            ],
        );
        assert!(matches!(&steps[1], Step::Completed { id: Some(id), .. } if id == "resp_1"));
        let alive = |after_speech| Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::Alive { after_speech } };
        assert_eq!(r.drain(), vec![alive(true), alive(false)]);
    }

    #[test]
    fn terminal_events() {
        let (mut r, mut t) = (Reader::new("t1"), TurnText::default());
        let steps = feed(
            &mut r,
            &mut t,
            &[
                json!({"type":"response.failed","response":{"id":"r","status":"failed","error":{"code":"server_error","message":"secret"}}}),
                json!({"type":"response.incomplete","response":{"id":"r","status":"incomplete"}}),
                json!({"type":"error","code":500,"message":"upstream broke"}),
                json!({"type":"error","code":"rate_limit_exceeded","message":"slow down"}),
                json!({"type":"error","error":{"code":"503","message":"overloaded"}}),
            ],
        );
        assert!(matches!(steps[0], Step::Failed) && matches!(steps[1], Step::Failed));
        let Step::Error(e) = &steps[2] else { panic!() };
        assert_eq!(e.shown(), "HTTP 500: upstream broke");
        let Step::Error(e) = &steps[3] else { panic!() };
        assert_eq!(e.shown(), crate::transport::request::GENERIC_FAILURE);
        let Step::Error(e) = &steps[4] else { panic!() };
        assert_eq!(e.shown(), "HTTP 503: overloaded");
    }
}
