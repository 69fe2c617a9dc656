//! The Chat Completions transport against a local fake server: the fake,
//! its answers and the harness here; the request and reply, the failures and
//! the tool rounds in the modules below.

use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use yui_core::context::{GuideKey, GUIDE_INSTRUCTION};
use yui_core::error::ErrorCode;
use yui_core::event::Status;
use yui_core::model::{Cue, Segment, Usage, Vocabulary};
use yui_core::transport::chat_completions::run;
use yui_core::transport::request::{RequestConfig, GENERIC_FAILURE};
use yui_core::transport::{Inbound, Link, Outbound, ReplyPart, ToolCall, ToolResult, TurnRequest};

#[derive(Clone)]
enum Answer {
    Sse(String),
    Hang(String),
    Status(u16, String),
    Broken(String),
}

#[derive(Clone, Default)]
struct Fake {
    bodies: Arc<Mutex<Vec<Value>>>,
    script: Arc<Mutex<VecDeque<Answer>>>,
}

async fn handler(State(fake): State<Fake>, body: String) -> Response {
    fake.bodies.lock().unwrap().push(serde_json::from_str(&body).unwrap());
    let answer = fake.script.lock().unwrap().pop_front().unwrap_or(Answer::Sse(format!("{}{}{}", chunk(json!({"content":"?"})), finish("stop"), DONE)));
    let sse = |b: Body| Response::builder().header("content-type", "text/event-stream").body(b).unwrap();
    match answer {
        Answer::Sse(s) => sse(Body::from(s)),
        Answer::Hang(s) => {
            let first = futures_util::stream::once(async move { Ok::<_, std::io::Error>(s) });
            sse(Body::from_stream(futures_util::StreamExt::chain(first, futures_util::stream::pending())))
        }
        Answer::Broken(s) => {
            let items = futures_util::stream::unfold(0, move |n| {
                let s = s.clone();
                async move {
                    match n {
                        0 => Some((Ok(s), 1)),
                        1 => {
                            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                            Some((Err(std::io::Error::other("cut")), 2))
                        }
                        _ => None,
                    }
                }
            });
            sse(Body::from_stream(items))
        }
        Answer::Status(code, b) => {
            Response::builder().status(StatusCode::from_u16(code).unwrap()).header("content-type", "application/json").body(Body::from(b)).unwrap()
        }
    }
}

const DONE: &str = "data: [DONE]\n\n";

fn chunk(delta: Value) -> String {
    format!(
        "data: {}\n\n",
        json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":null,"choices":[{"index":0,"delta":delta,"logprobs":null,"finish_reason":null}]})
    )
}
fn finish(reason: &str) -> String {
    format!(
        "data: {}\n\n",
        json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":reason}]})
    )
}
fn usage(p: u64, c: u64) -> String {
    format!(
        "data: {}\n\n",
        json!({"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":p,"completion_tokens":c,"total_tokens":p+c}})
    )
}
fn call(index: usize, id: Option<&str>, name: Option<&str>, args: &str) -> String {
    let mut tc = json!({"index": index, "function": {"arguments": args}});
    if let Some(id) = id {
        tc["id"] = json!(id);
        tc["type"] = json!("function");
    }
    if let Some(name) = name {
        tc["function"]["name"] = json!(name);
    }
    chunk(json!({"tool_calls":[tc]}))
}
fn text_reply(s: &str) -> Answer {
    Answer::Sse(format!("{}{}{}{}{}", chunk(json!({"role":"assistant","content":""})), chunk(json!({"content":s})), finish("stop"), usage(10, 2), DONE))
}

struct Harness {
    fake: Fake,
    tx: mpsc::UnboundedSender<Outbound>,
    rx: mpsc::UnboundedReceiver<Inbound>,
    cancel: CancellationToken,
    cfg: RequestConfig,
}

async fn serve(fake: Fake) -> String {
    let app = Router::new().route("/v1/chat/completions", post(handler)).with_state(fake);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

fn config(base: String, dir: &std::path::Path) -> RequestConfig {
    RequestConfig {
        base_url: base,
        key: "sk-test".into(),
        model: "m".into(),
        reasoning_effort: None,
        instructions: "CARD".into(),
        post_history: None,
        tools: vec![
            json!({"type":"function","function":{"name":"address_character","description":"d","parameters":{"type":"object","properties":{"character":{"type":"string"}}}}}),
        ],
        vocabulary: Vocabulary::default(),
        context_window: 100_000,
        transcript_path: dir.join("yui.jsonl"),
    }
}

impl Harness {
    async fn start(dir: &std::path::Path, edit: impl FnOnce(&mut RequestConfig)) -> Harness {
        let fake = Fake::default();
        let base = serve(fake.clone()).await;
        let mut cfg = config(base, dir);
        edit(&mut cfg);
        Self::spawn(fake, cfg).await
    }

    async fn spawn(fake: Fake, cfg: RequestConfig) -> Harness {
        let (tx, outbound) = mpsc::unbounded_channel();
        let (inbound, mut rx) = mpsc::unbounded_channel();
        let cancel = CancellationToken::new();
        tokio::spawn(run(cfg.clone(), Link { outbound, inbound, cancel: cancel.clone() }));
        assert_eq!(rx.recv().await, Some(Inbound::Status(Status::Stateless)));
        Harness { fake, tx, rx, cancel, cfg }
    }

    /// A second task on the same server and transcript.
    async fn restart(self) -> Harness {
        self.cancel.cancel();
        Self::spawn(self.fake.clone(), self.cfg.clone()).await
    }

    fn script(&self, a: Answer) {
        self.fake.script.lock().unwrap().push_back(a);
    }

    fn bodies(&self) -> Vec<Value> {
        self.fake.bodies.lock().unwrap().clone()
    }

    fn send(&self, m: Outbound) {
        self.tx.send(m).unwrap();
    }

    fn turn(&self, id: &str, input: &str) {
        self.send(Outbound::Turn(turn(id, input)));
    }

    /// Inbounds until this turn's End, Alive parts left out.
    async fn until_end(&mut self) -> Vec<Inbound> {
        let mut out = Vec::new();
        loop {
            let ev = tokio::time::timeout(std::time::Duration::from_secs(10), self.rx.recv()).await.expect("timed out").unwrap();
            let end = matches!(&ev, Inbound::Reply { part: ReplyPart::End { .. }, .. });
            if !matches!(&ev, Inbound::Reply { part: ReplyPart::Alive { .. }, .. }) {
                out.push(ev);
            }
            if end {
                return out;
            }
        }
    }
}

fn turn(id: &str, input: &str) -> TurnRequest {
    TurnRequest {
        turn_id: id.into(),
        block: format!("<client_context>\nClient-injected context; not typed by the user.\ntime: {id}\ntrigger: user message\n</client_context>"),
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

fn reply(id: &str, part: ReplyPart) -> Inbound {
    Inbound::Reply { turn_id: id.into(), part }
}
fn speech(cue: Option<Cue>, s: &str) -> ReplyPart {
    ReplyPart::Speech { segments: vec![Segment { cues: cue.into_iter().collect(), speech: s.into() }] }
}
fn end(u: Option<(u64, u64)>) -> ReplyPart {
    ReplyPart::End { usage: u.map(|(i, o)| Usage { input_tokens: i, output_tokens: o, total_tokens: i + o }) }
}
fn ctx(id: &str) -> Value {
    json!({"role":"system","content":format!("client_context:\nClient-injected context; not typed by the user.\ntime: {id}\ntrigger: user message")})
}
fn sys(s: &str) -> Value {
    json!({"role":"system","content":s})
}
fn user(s: &str) -> Value {
    json!({"role":"user","content":s})
}
fn said(s: &str) -> Value {
    json!({"role":"assistant","content":s})
}
fn happy() -> Cue {
    Cue { emotion_id: Some("happy".into()), ..Cue::default() }
}

mod failures;
mod request;
mod rounds;
