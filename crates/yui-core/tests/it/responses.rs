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

#[tokio::test]
async fn the_request_is_exact() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("Hi."), completed("resp_1")]));
    let mut h = Harness::start(config(&base)).await;
    h.turn(turn("t1", "hello")).await;
    let req = &fake.requests()[0];
    let vocab = Vocabulary::default();
    assert_eq!(req["model"], "gpt-test");
    assert_eq!(req["stream"], true);
    assert_eq!(req["instructions"], "You are Yui.");
    assert!(req.get("previous_response_id").is_none());
    assert!(req.get("reasoning").is_none());
    assert_eq!(req["input"], json!([{"role":"user","content":user_text("hello")}]));
    let tools = req["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[0]["type"], "function");
    assert_eq!(tools[0]["name"], "generate_express");
    assert_eq!(tools[0]["strict"], false);
    assert_eq!(tools[0]["parameters"]["properties"]["emotion_id"]["enum"], json!(vocab.emotion_ids));
    assert_eq!(tools[0]["parameters"]["properties"]["motion_id"]["enum"], json!(vocab.motion_ids));
    assert_eq!(tools[0]["parameters"]["additionalProperties"], false);
    assert_eq!(
        tools[1],
        json!({"type":"function","name":"address_character","description":"Speak to another open character","parameters":{"type":"object","properties":{"character":{"type":"string"}},"required":["character"]},"strict":false})
    );

    // Post-history, images and reasoning effort.
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("Hi."), completed("resp_1")]));
    let mut cfg = config(&base);
    cfg.post_history = Some("Keep every reply under two sentences.".into());
    cfg.reasoning_effort = Some("low".into());
    let mut h = Harness::start(cfg).await;
    let mut t = turn("t1", "look");
    // Small encoded pictures ride as they are.
    let pic = |u: &str| yui_core::transport::request::from_data_url(u).unwrap();
    t.images = vec![pic("data:image/jpeg;base64,AAAA"), pic("data:image/png;base64,BBBB")];
    h.turn(t).await;
    let req = &fake.requests()[0];
    assert_eq!(req["reasoning"], json!({"effort":"low"}));
    assert_eq!(
        req["input"],
        json!([{"role":"user","content":[
            {"type":"input_text","text":format!("<post_history_instructions>\nKeep every reply under two sentences.\n</post_history_instructions>\n{}", user_text("look"))},
            {"type":"input_image","image_url":"data:image/jpeg;base64,AAAA"},
            {"type":"input_image","image_url":"data:image/png;base64,BBBB"}
        ]}])
    );
}

#[tokio::test]
async fn cues_land_where_their_calls_arrive() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&seed_stream()));
    let mut h = Harness::start(config(&base)).await;
    let got = parts(&h.turn(turn("t1", "hi")).await);
    let happy = Cue { emotion_id: Some("happy".into()), motion_id: Some("dance".into()), emotion_text: Some("🤭".into()), caption: None };
    let curious = Cue { emotion_id: Some("curious".into()), motion_id: Some("calm".into()), emotion_text: Some("😏".into()), caption: None };
    assert_eq!(
        got,
        vec![
            ReplyPart::Speech { segments: vec![Segment { cues: vec![happy], speech: "Hello User!".into() }] },
            ReplyPart::Speech { segments: vec![Segment { cues: vec![curious], speech: " How was your day?".into() }] },
            ReplyPart::End { usage: None },
        ]
    );
    assert_eq!(fake.requests().len(), 1, "generate_express answers need no request of their own");
}

#[tokio::test]
async fn turns_chain_and_reset_starts_fresh_with_greetings() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[
        text("A."),
        call("c1", "generate_express", r#"{"emotion_id":"happy"}"#),
        text("B."),
        call("c2", "generate_express", "{}"),
        completed("resp_1"),
    ]));
    fake.push(ok(&[text("Again."), completed("resp_2")]));
    fake.push(ok(&[text("Fresh."), completed("resp_3")]));
    let mut h = Harness::start(config(&base)).await;
    let first = h.turn(turn("t1", "one")).await;
    assert_eq!(
        parts(&first),
        vec![
            ReplyPart::Speech { segments: vec![Segment { cues: vec![cue("happy")], speech: "A.".into() }] },
            ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![Segment { cues: vec![], speech: "B.".into() }], reasoning: None },
            ReplyPart::End { usage: Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 }) },
        ]
    );
    h.turn(turn("t2", "two")).await;
    h.send(Outbound::Reset);
    h.send(Outbound::Greeting { text: "Welcome back!".into() });
    h.send(Outbound::Greeting { text: "Shall we?".into() });
    h.turn(turn("t3", "three")).await;
    let reqs = fake.requests();
    assert_eq!(reqs[1]["previous_response_id"], "resp_1");
    assert_eq!(
        reqs[1]["input"],
        json!([
            {"type":"function_call_output","call_id":"c1","output":"ok"},
            {"type":"function_call_output","call_id":"c2","output":"error: empty cue"},
            {"role":"user","content":user_text("two")}
        ])
    );
    assert!(reqs[2].get("previous_response_id").is_none(), "a reset clears the chain");
    assert_eq!(
        reqs[2]["input"],
        json!([
            {"role":"assistant","content":"Welcome back!"},
            {"role":"assistant","content":"Shall we?"},
            {"role":"user","content":user_text("three")}
        ])
    );
}

#[tokio::test]
async fn a_lost_chain_restarts_fresh_once() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("One."), completed("resp_1")]));
    fake.push(http(404, r#"{"error":{"message":"Previous response with id 'resp_1' not found.","code":"previous_response_not_found"}}"#));
    fake.push(ok(&[text("Two."), completed("resp_2")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Greeting { text: "Hi there!".into() });
    h.turn(turn("t1", "one")).await;
    let got = h.turn(turn("t2", "two")).await;
    assert!(got.contains(&Inbound::Notice { code: ErrorCode::ContextReset, message: CONTEXT_RESET_NOTICE.into() }), "{got:?}");
    assert!(parts(&got).contains(&ReplyPart::Render {
        source: Some("gpt-test".into()),
        segments: vec![Segment { cues: vec![], speech: "Two.".into() }],
        reasoning: None
    }));
    assert!(!parts(&got).iter().any(|p| matches!(p, ReplyPart::Error { .. })));
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[1]["previous_response_id"], "resp_1");
    assert!(reqs[2].get("previous_response_id").is_none());
    assert_eq!(reqs[2]["input"], json!([{"role":"assistant","content":"Hi there!"},{"role":"user","content":user_text("two")}]));

    // A 404 on a fresh chain is an ordinary HTTP error.
    let (fake, base) = Fake::start().await;
    fake.push(http(404, r#"{"error":{"message":"no such model"}}"#));
    let mut h = Harness::start(config(&base)).await;
    let got = h.turn(turn("t1", "one")).await;
    assert_eq!(parts(&got), vec![ReplyPart::Error { message: "HTTP 404: no such model".into() }, ReplyPart::End { usage: None }]);
    assert_eq!(fake.requests().len(), 1);
}

#[tokio::test]
async fn streamed_arguments_reasoning_tools_and_usage() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[
        json!({"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"The user "}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"says hi."}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":1,"delta":"Greet back."}),
        json!({"type":"response.output_item.added","output_index":1,"item":{"id":"ws_1","type":"web_search_call","status":"in_progress"}}),
        json!({"type":"response.output_item.done","output_index":1,"item":{"id":"ws_1","type":"web_search_call","status":"completed"}}),
        text("Hey!"),
        json!({"type":"response.output_item.added","output_index":2,"item":{"id":"fc_9","type":"function_call","name":"generate_express","call_id":"c9","arguments":""}}),
        json!({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":2,"delta":"{\"emo"}),
        json!({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":2,"delta":"tion_id\":"}),
        json!({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":2,"delta":"\"happy\"}"}),
        json!({"type":"response.function_call_arguments.done","item_id":"fc_9","output_index":2,"arguments":"{\"emotion_id\":\"happy\"}"}),
        json!({"type":"response.output_item.done","output_index":2,"item":{"id":"fc_9","type":"function_call","name":"generate_express","call_id":"c9","arguments":""}}),
        json!({"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":1234,"output_tokens":56,"total_tokens":1290,"output_tokens_details":{"reasoning_tokens":12}}}}),
    ]));
    let mut h = Harness::start(config(&base)).await;
    let got = h.turn(turn("t1", "hi")).await;
    assert_eq!(
        parts(&got),
        vec![
            ReplyPart::Reasoning { delta: "The user ".into() },
            ReplyPart::Reasoning { delta: "says hi.".into() },
            ReplyPart::Reasoning { delta: "\n\nGreet back.".into() },
            ReplyPart::ToolStatus { state: ToolState::Running, tool_id: "web_search".into() },
            ReplyPart::ToolStatus { state: ToolState::Done, tool_id: "web_search".into() },
            ReplyPart::Speech { segments: vec![Segment { cues: vec![cue("happy")], speech: "Hey!".into() }] },
            ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![], reasoning: Some("The user says hi.\n\nGreet back.".into()) },
            ReplyPart::End { usage: Some(Usage { input_tokens: 1234, output_tokens: 56, total_tokens: 1290 }) },
        ]
    );
}

#[tokio::test]
async fn unknown_events_and_extra_fields_are_ignored() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[
        json!({"type":"response.created","response":{"id":"r","object":"response","model":"x","tools":[]},"sequence_number":0}),
        json!({"type":"response.in_progress","response":{"id":"r"},"sequence_number":1}),
        json!({"type":"response.future_thing.delta","whatever":[1,2,3]}),
        json!({"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}),
        json!({"type":"response.content_part.added","item_id":"msg_1","part":{"type":"output_text","text":""}}),
        json!({"type":"response.output_text.delta","item_id":"msg_1","delta":"Fine.","logprobs":[],"obfuscation":"xyz"}),
        json!({"type":"response.output_text.done","item_id":"msg_1","text":"Fine."}),
        json!({"type":"response.content_part.done","item_id":"msg_1","part":{"type":"output_text","text":"Fine."}}),
        json!({"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","status":"completed"}}),
        json!({"type":"keepalive"}),
        completed("resp_1"),
    ]));
    let mut h = Harness::start(config(&base)).await;
    let got = h.turn(turn("t1", "hi")).await;
    assert_eq!(
        parts(&got),
        vec![
            ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![Segment { cues: vec![], speech: "Fine.".into() }], reasoning: None },
            ReplyPart::End { usage: Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 }) },
        ]
    );
}

/// One failing answer: the parts the turn got and the notices.
async fn failure(answer: Answer) -> (Vec<ReplyPart>, Vec<Inbound>) {
    let (fake, base) = Fake::start().await;
    fake.push(answer);
    let mut h = Harness::start(config(&base)).await;
    let got = h.turn(turn("t1", "hi")).await;
    let notices = got.iter().filter(|e| matches!(e, Inbound::Notice { .. })).cloned().collect();
    (parts(&got), notices)
}

fn failed_with(message: &str) -> Vec<ReplyPart> {
    vec![ReplyPart::Error { message: message.into() }, ReplyPart::End { usage: None }]
}

#[tokio::test]
async fn failures_show_what_the_table_says() {
    let auth = vec![Inbound::Notice { code: ErrorCode::Auth, message: AUTH_NOTICE.into() }];
    let (p, n) = failure(http(401, r#"{"error":{"message":"Incorrect API key provided: sk-test"}}"#)).await;
    assert_eq!((p, n), (failed_with(GENERIC_FAILURE), auth.clone()));
    let (p, n) = failure(http(403, r#"{"error":{"message":"Project has no access to model"}}"#)).await;
    assert_eq!((p, n), (failed_with(GENERIC_FAILURE), auth));
    let (p, n) = failure(http(429, r#"{"error":{"message":"Rate limit reached for gpt-test.","type":"requests"}}"#)).await;
    assert_eq!((p, n), (failed_with("HTTP 429: Rate limit reached for gpt-test."), vec![]));

    // What streamed before a failure is reported unsaid (an unfinished fragment).
    let half = |message: &str| [vec![ReplyPart::Unsaid { text: "Half".into() }], failed_with(message)].concat();
    let (p, _) = failure(ok(&[text("Half"), json!({"type":"error","code":500,"message":"The server had an error.","param":null})])).await;
    assert_eq!(p, half("HTTP 500: The server had an error."));
    let (p, _) = failure(ok(&[json!({"type":"error","code":"server_error","message":"secret detail"})])).await;
    assert_eq!(p, failed_with(GENERIC_FAILURE));
    let (p, _) = failure(Answer { status: 200, chunks: vec![sse(&[text("Half")])], tail: Tail::Break }).await;
    assert_eq!(p, half(GENERIC_FAILURE));
    let (p, _) = failure(ok(&[
        text("Half"),
        json!({"type":"response.failed","response":{"id":"r","status":"failed","error":{"code":"server_error","message":"secret detail"}}}),
    ]))
    .await;
    assert_eq!(p, half(GENERIC_FAILURE));
    let (p, _) =
        failure(ok(&[json!({"type":"response.incomplete","response":{"id":"r","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}})]))
            .await;
    assert_eq!(p, failed_with(GENERIC_FAILURE));
}

#[tokio::test]
async fn a_failed_response_leaves_the_chain_as_it_was() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("One."), call("c1", "generate_express", r#"{"emotion_id":"sad"}"#), completed("resp_1")]));
    fake.push(ok(&[call("c2", "generate_express", r#"{"emotion_id":"happy"}"#), json!({"type":"response.failed","response":{"id":"resp_2"}})]));
    fake.push(ok(&[text("Three."), completed("resp_3")]));
    let mut h = Harness::start(config(&base)).await;
    h.turn(turn("t1", "one")).await;
    h.turn(turn("t2", "two")).await;
    h.turn(turn("t3", "three")).await;
    let reqs = fake.requests();
    assert_eq!(reqs[2]["previous_response_id"], "resp_1");
    assert_eq!(reqs[2]["input"][0], json!({"type":"function_call_output","call_id":"c1","output":"ok"}));
    assert_eq!(reqs[2]["input"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_stop_ends_the_turn_at_once() {
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
    h.send(Outbound::Stop { turn_ids: vec!["t1".into()] });
    assert_eq!(h.next().await, Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::Unsaid { text: "Let me think".into() } }, "what the segmenter held");
    assert_eq!(h.next().await, Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::End { usage: None } });
    h.quiet(300).await;
    assert_eq!(fake.requests().len(), 1);
    // The next turn is not chained to the stopped one; it carries it.
    h.turn(turn("t2", "again")).await;
    assert!(fake.requests()[1].get("previous_response_id").is_none());
    assert_eq!(
        fake.requests()[1]["input"],
        json!([{"role":"user","content":user_text("hi")},{"role":"assistant","content":"Let me think"},{"role":"user","content":user_text("again")}])
    );
}

#[tokio::test]
async fn a_client_tool_makes_a_follow_up_round() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[
        text("Let me tell Rin."),
        call("c1", "generate_express", r#"{"emotion_id":"happy"}"#),
        call("c2", "address_character", r#"{"character":"Rin"}"#),
        completed("resp_1"),
    ]));
    fake.push(ok(&[text("Done!"), completed("resp_2")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Turn(turn("t1", "say hi to Rin")));
    let tool_call = loop {
        match h.next().await {
            Inbound::ToolCall(c) => break c,
            Inbound::Reply { part: ReplyPart::End { .. }, .. } => panic!("ended before the tool call"),
            _ => {}
        }
    };
    assert_eq!((tool_call.id.as_str(), tool_call.name.as_str(), &tool_call.arguments), ("c2", "address_character", &json!({"character":"Rin"})));
    h.send(Outbound::ToolResult(ToolResult { id: "c2".into(), turn_id: "t1".into(), result: "ok".into(), images: vec![] }));
    let rest = h.until_end("t1").await;
    assert!(parts(&rest).contains(&ReplyPart::Render {
        source: Some("gpt-test".into()),
        segments: vec![Segment { cues: vec![], speech: "Done!".into() }],
        reasoning: None
    }));
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[1]["previous_response_id"], "resp_1");
    assert_eq!(
        reqs[1]["input"],
        json!([
            {"type":"function_call_output","call_id":"c1","output":"ok"},
            {"type":"function_call_output","call_id":"c2","output":"ok"}
        ])
    );
    assert_eq!(reqs[1]["instructions"], reqs[0]["instructions"]);
    assert_eq!(reqs[1]["tools"], reqs[0]["tools"]);
}

#[tokio::test]
async fn tool_rounds_stop_at_three_requests() {
    let (fake, base) = Fake::start().await;
    *fake.always.lock().unwrap() = Some(ok(&[call("c1", "address_character", r#"{"character":"Rin"}"#), completed("resp_x")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Turn(turn("t1", "loop")));
    let mut calls = 0;
    loop {
        match h.next().await {
            Inbound::ToolCall(c) => {
                calls += 1;
                h.send(Outbound::ToolResult(ToolResult { id: c.id, turn_id: c.turn_id, result: "ok".into(), images: vec![] }));
            }
            Inbound::Reply { part: ReplyPart::End { .. }, .. } => break,
            _ => {}
        }
    }
    h.quiet(300).await;
    assert_eq!(fake.requests().len(), 3);
    assert_eq!(calls, 3);
    // The capped round's answer rides at the start of the next turn.
    *fake.always.lock().unwrap() = Some(ok(&[text("Enough."), completed("resp_y")]));
    h.turn(turn("t2", "next")).await;
    let reqs = fake.requests();
    assert_eq!(reqs[3]["previous_response_id"], "resp_x");
    assert_eq!(reqs[3]["input"][0], json!({"type":"function_call_output","call_id":"c1","output":"ok"}));
}

/// Every event until `turn_id`'s End (included), Alive kept.
async fn all_until_end(h: &mut Harness, turn_id: &str) -> Vec<Inbound> {
    let mut out = Vec::new();
    loop {
        let ev = h.next().await;
        let end = matches!(&ev, Inbound::Reply { turn_id: t, part: ReplyPart::End { .. } } if t == turn_id);
        out.push(ev);
        if end {
            return out;
        }
    }
}

#[tokio::test]
async fn a_newer_turn_aborts_the_one_in_flight() {
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
    // A greeting kept during the turn still comes before the newer turn.
    h.send(Outbound::Greeting { text: "Welcome back!".into() });
    h.send(Outbound::Turn(turn("t2", "again")));
    assert_eq!(h.next().await, Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::Unsaid { text: "Let me think".into() } });
    assert_eq!(h.next().await, Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::End { usage: None } });
    let got = h.until_end("t2").await;
    assert_eq!(
        got,
        vec![
            Inbound::Reply {
                turn_id: "t2".into(),
                part: ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![Segment { cues: vec![], speech: "Next.".into() }], reasoning: None }
            },
            Inbound::Reply { turn_id: "t2".into(), part: ReplyPart::End { usage: Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 }) } },
        ],
        "nothing more of t1"
    );
    h.quiet(300).await;
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 2);
    assert!(reqs[1].get("previous_response_id").is_none(), "not chained to the aborted turn");
    assert_eq!(
        reqs[1]["input"],
        json!([{"role":"assistant","content":"Welcome back!"},{"role":"user","content":user_text("hi")},{"role":"assistant","content":"Let me think"},{"role":"user","content":user_text("again")}]),
        "the aborted turn rides along"
    );
}

#[tokio::test]
async fn completion_and_a_follow_up_request_report_the_long_budget() {
    let (fake, base) = Fake::start().await;
    // The round ends on speech: the client tool was called first, the text
    // (closed by its cue) came after it.
    fake.push(ok(&[
        call("c2", "address_character", r#"{"character":"Rin"}"#),
        text("Telling Rin."),
        call("c1", "generate_express", r#"{"emotion_id":"happy"}"#),
        json!({"type":"response.output_text.done","item_id":"msg_1","text":"Telling Rin."}),
        completed("resp_1"),
    ]));
    fake.push(ok(&[text("Done!"), completed("resp_2")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Turn(turn("t1", "say hi to Rin")));
    let mut got = Vec::new();
    loop {
        let ev = h.next().await;
        let call = matches!(ev, Inbound::ToolCall(_));
        got.push(ev);
        if call {
            break;
        }
    }
    // Everything of round 1 arrives before the result is given.
    while let Ok(Some(ev)) = tokio::time::timeout(Duration::from_millis(300), h.rx.recv()).await {
        got.push(ev);
    }
    h.send(Outbound::ToolResult(ToolResult { id: "c2".into(), turn_id: "t1".into(), result: "ok".into(), images: vec![] }));
    got.extend(all_until_end(&mut h, "t1").await);
    let reply = |part| Inbound::Reply { turn_id: "t1".into(), part };
    let alive = |after_speech| reply(ReplyPart::Alive { after_speech });
    let usage = Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 });
    assert_eq!(
        got,
        vec![
            Inbound::ToolCall(yui_core::transport::ToolCall {
                id: "c2".into(),
                turn_id: "t1".into(),
                name: "address_character".into(),
                arguments: json!({"character":"Rin"})
            }),
            alive(true),
            reply(ReplyPart::Speech { segments: vec![Segment { cues: vec![cue("happy")], speech: "Telling Rin.".into() }] }),
            alive(true),
            alive(false), // response.completed
            alive(false), // the follow-up request is sent
            alive(true),
            alive(false), // response.completed
            reply(ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![Segment { cues: vec![], speech: "Done!".into() }], reasoning: None }),
            reply(ReplyPart::End { usage }),
        ]
    );
    assert_eq!(fake.requests().len(), 2);
}

/// A log sink for one test (the runtime is current-thread, so the transport
/// task logs to the thread's default subscriber).
#[derive(Clone, Default)]
struct LogBuf(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuf {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

#[tokio::test]
async fn failures_are_logged_without_the_key_or_a_refusal_body() {
    let logs = LogBuf::default();
    let sink = logs.clone();
    let subscriber = tracing_subscriber::fmt().with_writer(move || sink.clone()).with_ansi(false).with_max_level(tracing::Level::INFO).finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    // A 401 whose body repeats the key: the status and the kind, nothing of the body.
    let (p, _) = failure(http(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."}}"#,
    ))
    .await;
    assert_eq!(p, failed_with(GENERIC_FAILURE));
    let log = logs.text();
    let line = log.lines().find(|l| l.contains("record=\"http_error\"")).unwrap_or_else(|| panic!("no http_error record:\n{log}"));
    assert!(line.contains("status=Some(401)") && line.contains("kind=\"http\""), "{line}");
    assert!(!log.contains("sk-test") && !log.contains("Incorrect API key"), "the 401 body leaked into the log:\n{log}");

    // Any other failure keeps its text, the key scrubbed.
    let (p, _) = failure(http(500, r#"{"error":{"message":"upstream echoed sk-test back"}}"#)).await;
    assert_eq!(p, failed_with("HTTP 500: upstream echoed sk-test back"));
    let log = logs.text();
    assert!(log.lines().any(|l| l.contains("record=\"http_error\"") && l.contains("status=Some(500)") && l.contains("upstream echoed <key> back")), "{log}");
    assert!(!log.contains("sk-test"), "the key leaked into the log:\n{log}");

    // A malformed event is logged as such, the key scrubbed there too.
    let raw = format!("event: sk-test\ndata: {{not json\n\n{}", sse(&[text("Fine."), completed("resp_1")]));
    let (p, _) = failure(Answer { status: 200, chunks: vec![raw], tail: Tail::End }).await;
    assert_eq!(p.last(), Some(&ReplyPart::End { usage: Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 }) }));
    let log = logs.text();
    assert!(log.lines().any(|l| l.contains("record=\"sse_malformed\"") && l.contains("event=<key>")), "{log}");
    assert!(!log.contains("sk-test"), "the key leaked into the log:\n{log}");
}

/// A complete sentence held for the next character is not lost when a stop,
/// an abandon (a stall) or a mid-stream error ends the stream, and the chain
/// keeps the exchange; a proxy's error envelope shows its status and text.
#[tokio::test]
async fn text_held_at_a_stop_an_abandon_or_an_error_is_shown_and_kept() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("Hi."), completed("resp_1")]));
    let held = sse(&[text("Before it stopped. ")]);
    fake.push(Answer { status: 200, chunks: vec![held.clone()], tail: Tail::Hang });
    fake.push(Answer { status: 200, chunks: vec![held.clone()], tail: Tail::Hang });
    // LiteLLM's proxy: a data line with no type and the status as a string.
    let litellm = json!({"error": {"message": "litellm.InternalServerError: upstream broke", "type": "None", "param": "None", "code": "500"}});
    fake.push(Answer { status: 200, chunks: vec![held.clone(), format!("data: {litellm}\n\n")], tail: Tail::End });
    // An `event: error` frame with a flat body, after a fragment.
    fake.push(Answer {
        status: 200,
        chunks: vec![sse(&[text("Half a sen")]), "event: error\ndata: {\"message\":\"overloaded\",\"code\":529}\n\n".into()],
        tail: Tail::End,
    });
    fake.push(ok(&[text("Fine."), completed("resp_6")]));
    let mut h = Harness::start(config(&base)).await;
    h.turn(turn("t0", "hello")).await;
    let unsaid = |id: &str, t: &str| Inbound::Reply { turn_id: id.into(), part: ReplyPart::Unsaid { text: t.into() } };
    let end = |id: &str| Inbound::Reply { turn_id: id.into(), part: ReplyPart::End { usage: None } };
    for (id, out) in [("t1", Outbound::Stop { turn_ids: vec!["t1".into()] }), ("t2", Outbound::Abandon { turn_id: "t2".into() })] {
        h.send(Outbound::Turn(turn(id, "stop test")));
        loop {
            if let Inbound::Reply { part: ReplyPart::Alive { after_speech: true }, .. } = h.next().await {
                break;
            }
        }
        h.send(out);
        assert_eq!(h.until_end(id).await, vec![unsaid(id, "Before it stopped. "), end(id)], "{id}");
    }
    let got = h.turn(turn("t3", "error test")).await;
    assert_eq!(
        parts(&got),
        vec![
            ReplyPart::Speech { segments: vec![Segment { cues: vec![], speech: "Before it stopped. ".into() }] },
            ReplyPart::Error { message: "HTTP 500: litellm.InternalServerError: upstream broke".into() },
            ReplyPart::End { usage: None },
        ],
        "the complete sentence is spoken, the status and the server's text shown"
    );
    let got = h.turn(turn("t4", "again")).await;
    assert_eq!(
        parts(&got),
        vec![ReplyPart::Unsaid { text: "Half a sen".into() }, ReplyPart::Error { message: "HTTP 529: overloaded".into() }, ReplyPart::End { usage: None }]
    );
    h.turn(turn("t5", "next")).await;
    let reqs = fake.requests();
    assert_eq!(reqs[5]["previous_response_id"], "resp_1", "still chained to the last completed response");
    let said = json!({"role":"assistant","content":"Before it stopped. "});
    assert_eq!(
        reqs[5]["input"],
        json!([
            {"role":"user","content":user_text("stop test")}, said,
            {"role":"user","content":user_text("stop test")}, said,
            {"role":"user","content":user_text("error test")}, said,
            {"role":"user","content":user_text("again")}, {"role":"assistant","content":"Half a sen"},
            {"role":"user","content":user_text("next")}
        ]),
        "every exchange cut short rides in the next request"
    );
    assert_eq!(reqs[1]["previous_response_id"], "resp_1");
    assert_eq!(reqs[2]["input"][0], json!({"role":"user","content":user_text("stop test")}), "each carried until a response completes");
}
