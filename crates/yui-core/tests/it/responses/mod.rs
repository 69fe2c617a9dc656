//! The Responses transport against a fake `/v1/responses` server on
//! 127.0.0.1:0: the exact request JSON, chaining, the 404 chain reset, cue
//! placement, reasoning, usage, failures, stop, a newer turn aborting the
//! one in flight, tool round trips, stream liveness and what is logged.

use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use yui_core::model::{Cue, Segment, ToolState, Usage, Vocabulary};
use yui_core::transport::request::{RequestConfig, GENERIC_FAILURE};
use yui_core::transport::responses::{self, AUTH_NOTICE, CONTEXT_RESET_NOTICE};
use yui_core::transport::{Inbound, Link, Outbound, ReplyPart, ToolResult, TurnRequest};
use yui_core::{ErrorCode, Status};

const WAIT: Duration = Duration::from_secs(10);

/// How an answer's body ends after its chunks.
#[derive(Clone, Copy)]
enum Tail {
    End,
    Hang,
    Break,
}

#[derive(Clone)]
struct Answer {
    status: u16,
    chunks: Vec<String>,
    tail: Tail,
}

fn ok(events: &[Value]) -> Answer {
    Answer { status: 200, chunks: vec![sse(events)], tail: Tail::End }
}

fn http(status: u16, body: &str) -> Answer {
    Answer { status, chunks: vec![body.to_string()], tail: Tail::End }
}

fn sse(events: &[Value]) -> String {
    events.iter().map(|e| format!("event: {}\ndata: {}\n\n", e["type"].as_str().unwrap(), e)).collect()
}

#[derive(Clone, Default)]
struct Fake {
    requests: Arc<Mutex<Vec<Value>>>,
    answers: Arc<Mutex<VecDeque<Answer>>>,
    /// Given when the queue is empty.
    always: Arc<Mutex<Option<Answer>>>,
}

async fn handle(State(fake): State<Fake>, Json(body): Json<Value>) -> Response {
    fake.requests.lock().unwrap().push(body);
    let answer = fake.answers.lock().unwrap().pop_front().or_else(|| fake.always.lock().unwrap().clone());
    let Some(a) = answer else { return (StatusCode::INTERNAL_SERVER_ERROR, "no answer scripted").into_response() };
    let status = StatusCode::from_u16(a.status).unwrap();
    if a.status != 200 {
        return Response::builder().status(status).header("content-type", "application/json").body(Body::from(a.chunks.concat())).unwrap();
    }
    let head = futures_util::stream::iter(a.chunks.into_iter().map(Ok::<_, std::io::Error>));
    let body = match a.tail {
        Tail::End => Body::from_stream(head),
        Tail::Hang => Body::from_stream(head.chain(futures_util::stream::pending())),
        // The break comes after the head reached the client, as a body cut mid-stream does.
        Tail::Break => Body::from_stream(head.chain(futures_util::stream::once(async {
            tokio::time::sleep(Duration::from_millis(100)).await;
            Err(std::io::Error::other("boom"))
        }))),
    };
    Response::builder().status(status).header("content-type", "text/event-stream").body(body).unwrap()
}

impl Fake {
    async fn start() -> (Fake, String) {
        let fake = Fake::default();
        let app = Router::new().route("/v1/responses", post(handle)).with_state(fake.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (fake, format!("http://{addr}"))
    }
    fn push(&self, a: Answer) {
        self.answers.lock().unwrap().push_back(a);
    }
    fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap().clone()
    }
}

fn config(base: &str) -> RequestConfig {
    RequestConfig {
        base_url: base.to_string(),
        key: "sk-test".into(),
        model: "gpt-test".into(),
        reasoning_effort: None,
        instructions: "You are Yui.".into(),
        post_history: None,
        tools: vec![
            json!({"type":"function","function":{"name":"address_character","description":"Speak to another open character","parameters":{"type":"object","properties":{"character":{"type":"string"}},"required":["character"]}}}),
        ],
        vocabulary: Vocabulary::default(),
        context_window: 8192,
        transcript_path: "/nonexistent/transcript.jsonl".into(),
    }
}

fn turn(id: &str, input: &str) -> TurnRequest {
    TurnRequest {
        turn_id: id.into(),
        block: "<client_context>\ntrigger: user message\n</client_context>".into(),
        text: input.into(),
        input: input.into(),
        guide: None,
        guide_language: Default::default(),
        images: vec![],
        conversation_id: None,
        regenerate_of: None,
        files: Vec::new(),
    }
}

fn user_text(input: &str) -> String {
    format!("<client_context>\ntrigger: user message\n</client_context>\n\n{input}")
}

struct Harness {
    tx: mpsc::UnboundedSender<Outbound>,
    rx: mpsc::UnboundedReceiver<Inbound>,
    cancel: CancellationToken,
}

impl Harness {
    async fn start(cfg: RequestConfig) -> Harness {
        let (tx, outbound) = mpsc::unbounded_channel();
        let (inbound, mut rx) = mpsc::unbounded_channel();
        let cancel = CancellationToken::new();
        tokio::spawn(responses::run(cfg, Link { outbound, inbound, cancel: cancel.clone() }));
        assert_eq!(rx.recv().await, Some(Inbound::Status(Status::Stateless)));
        Harness { tx, rx, cancel }
    }

    fn send(&self, m: Outbound) {
        self.tx.send(m).unwrap();
    }

    async fn next(&mut self) -> Inbound {
        tokio::time::timeout(WAIT, self.rx.recv()).await.expect("an inbound event in time").expect("transport alive")
    }

    /// Every event until `turn_id`'s End (included), Alive left out.
    async fn until_end(&mut self, turn_id: &str) -> Vec<Inbound> {
        let mut out = Vec::new();
        loop {
            let ev = self.next().await;
            let end = matches!(&ev, Inbound::Reply { turn_id: t, part: ReplyPart::End { .. } } if t == turn_id);
            if !matches!(ev, Inbound::Reply { part: ReplyPart::Alive { .. }, .. }) {
                out.push(ev);
            }
            if end {
                return out;
            }
        }
    }

    async fn turn(&mut self, t: TurnRequest) -> Vec<Inbound> {
        let id = t.turn_id.clone();
        self.send(Outbound::Turn(t));
        self.until_end(&id).await
    }

    /// Nothing but Alive arrives within `ms`.
    async fn quiet(&mut self, ms: u64) {
        let deadline = tokio::time::Instant::now() + Duration::from_millis(ms);
        while let Ok(Some(ev)) = tokio::time::timeout_at(deadline, self.rx.recv()).await {
            assert!(matches!(ev, Inbound::Reply { part: ReplyPart::Alive { .. }, .. }), "unexpected {ev:?}");
        }
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

/// Turn `t1` ("hi") mid-reply: "Let me think" streamed, then the stream
/// hangs (its alive report after speech came). The fake's next answer is
/// "Next." (`resp_2`).
async fn thinking_aloud() -> (Fake, Harness) {
    let (fake, base) = Fake::start().await;
    fake.push(Answer { status: 200, chunks: vec![sse(&[text("Let me think")])], tail: Tail::Hang });
    fake.push(ok(&[text("Next."), completed("resp_2")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Turn(turn("t1", "hi")));
    loop {
        if let Inbound::Reply { part: ReplyPart::Alive { after_speech: true }, .. } = h.next().await {
            break;
        }
    }
    (fake, h)
}

fn parts(events: &[Inbound]) -> Vec<ReplyPart> {
    events
        .iter()
        .filter_map(|e| match e {
            Inbound::Reply { part, .. } => Some(part.clone()),
            _ => None,
        })
        .collect()
}

fn completed(id: &str) -> Value {
    json!({"type":"response.completed","response":{"id":id,"status":"completed","output":[],"usage":{"input_tokens":100,"output_tokens":20,"total_tokens":120}}})
}

fn text(delta: &str) -> Value {
    json!({"type":"response.output_text.delta","item_id":"msg_1","delta":delta})
}

fn call(call_id: &str, name: &str, args: &str) -> Value {
    json!({"type":"response.output_item.done","output_index":1,"item":{"id":format!("fc_{call_id}"),"type":"function_call","status":"completed","name":name,"call_id":call_id,"arguments":args}})
}

fn cue(emotion: &str) -> Cue {
    Cue { emotion_id: Some(emotion.into()), ..Cue::default() }
}

/// A Responses stream with two cues (`docs/transports.md`, "Where a cue goes") (no call_id: the item id stands in).
fn seed_stream() -> Vec<Value> {
    let raw = r#"{"type":"response.output_text.delta","item_id":"msg_1","delta":"Hello User!","sequence_number":2}
{"type":"response.output_item.added","output_index":1,"item":{"id":"fc_1","type":"function_call","name":"generate_express","arguments":"{\"emotion_id\":\"happy\",\"motion_id\":\"dance\",\"emotion_text\":\"🤭\"}"},"sequence_number":3}
{"type":"response.output_item.done","output_index":1,"item":{"id":"fc_1","type":"function_call","name":"generate_express","arguments":"{\"emotion_id\":\"happy\",\"motion_id\":\"dance\",\"emotion_text\":\"🤭\"}"},"sequence_number":4}
{"type":"response.output_text.delta","item_id":"msg_1","delta":" How was your day?","sequence_number":5}
{"type":"response.output_item.added","output_index":2,"item":{"id":"fc_2","type":"function_call","name":"generate_express","arguments":"{\"emotion_id\":\"curious\",\"motion_id\":\"calm\",\"emotion_text\":\"😏\"}"},"sequence_number":6}
{"type":"response.output_item.done","output_index":2,"item":{"id":"fc_2","type":"function_call","name":"generate_express","arguments":"{\"emotion_id\":\"curious\",\"motion_id\":\"calm\",\"emotion_text\":\"😏\"}"},"sequence_number":7}
{"type":"response.output_text.done","item_id":"msg_1","text":"Hello User! How was your day?","sequence_number":8}
{"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello User! How was your day?"}]}]},"sequence_number":9}"#;
    raw.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

mod failures;
mod request;
mod rounds;
