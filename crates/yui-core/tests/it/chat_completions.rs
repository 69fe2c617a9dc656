//! The Chat Completions transport against a local fake server.

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

#[tokio::test]
async fn layout_prefix_and_persistence() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |c| c.post_history = Some("POST".into())).await;
    h.script(text_reply("Hello!"));
    h.turn("t1", "hi");
    assert_eq!(h.until_end().await, vec![reply("t1", speech(None, "Hello!")), reply("t1", end(Some((10, 2))))]);
    h.script(text_reply("Again!"));
    h.turn("t2", "again");
    h.until_end().await;
    let b = h.bodies();
    assert_eq!(b[0]["model"], "m");
    assert_eq!(b[0]["stream"], true);
    assert_eq!(b[0]["stream_options"], json!({"include_usage": true}));
    assert!(b[0].get("reasoning_effort").is_none());
    assert_eq!(b[0]["tools"][0]["function"]["name"], "generate_express");
    assert_eq!(b[0]["tools"][1]["function"]["name"], "address_character");
    assert_eq!(b[0]["messages"], json!([sys("CARD"), sys("POST"), ctx("t1"), user("hi")]));
    assert_eq!(b[1]["messages"], json!([sys("CARD"), user("hi"), said("Hello!"), sys("POST"), ctx("t2"), user("again")]));
    // The prefix: request 2 starts with request 1's system message and transcript (none), then turn 1's entries.
    assert_eq!(b[1]["messages"][0], b[0]["messages"][0]);

    // A new task reloads the transcript; without post-history the context follows the transcript.
    let mut h = h.restart().await;
    h.cfg.post_history = None;
    let mut h = h.restart().await;
    h.script(text_reply("Back."));
    h.turn("t3", "back");
    h.until_end().await;
    let b = h.bodies();
    let m3 = b[2]["messages"].as_array().unwrap().clone();
    assert_eq!(m3, vec![sys("CARD"), user("hi"), said("Hello!"), user("again"), said("Again!"), ctx("t3"), user("back")]);
    assert_eq!(&m3[..3], &b[1]["messages"].as_array().unwrap()[..3], "identical prefix turn to turn");
}

#[tokio::test]
async fn cues_reasoning_usage_and_unknown_fields() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |c| c.reasoning_effort = Some("low".into())).await;
    let body = [
        chunk(json!({"role":"assistant","content":null,"reasoning_content":"thinking"})),
        chunk(json!({"reasoning":" more"})),
        chunk(json!({"content":"Hello ","x_unknown":{"a":1}})),
        chunk(json!({"content":"User!"})),
        call(0, Some("call_a"), Some("generate_express"), ""),
        call(0, None, None, "{\"emot"),
        call(0, None, None, "ion_id\":\"ha"),
        call(0, None, None, "ppy\"}"),
        chunk(json!({"content":" How was"})),
        chunk(json!({"content":" your day?"})),
        call(1, Some("call_b"), Some("generate_express"), "{\"motion_id\":\"wave\"}"),
        chunk(json!({"content":" Bye."})),
        finish("stop"),
        "data: {not json\n\n".to_string(),
        usage(40, 9),
        DONE.to_string(),
    ]
    .concat();
    h.script(Answer::Sse(body));
    h.turn("t1", "hi");
    let wave = Cue { motion_id: Some("wave".into()), ..Cue::default() };
    assert_eq!(
        h.until_end().await,
        vec![
            reply("t1", ReplyPart::Reasoning { delta: "thinking".into() }),
            reply("t1", ReplyPart::Reasoning { delta: " more".into() }),
            reply("t1", speech(Some(happy()), "Hello User!")),
            reply("t1", speech(Some(wave), " How was your day?")),
            reply("t1", speech(None, " Bye.")),
            reply("t1", end(Some((40, 9)))),
        ]
    );
    assert_eq!(h.bodies()[0]["reasoning_effort"], "low");
    // generate_express alone: no follow-up; the transcript keeps the calls and their answers.
    h.script(text_reply("ok"));
    h.turn("t2", "next");
    h.until_end().await;
    let m = h.bodies()[1]["messages"].clone();
    assert_eq!(m[2]["role"], "assistant");
    assert_eq!(m[2]["content"], "Hello User! How was your day? Bye.");
    assert_eq!(m[2]["tool_calls"][0], json!({"id":"call_a","type":"function","function":{"name":"generate_express","arguments":"{\"emotion_id\":\"happy\"}"}}));
    assert_eq!(m[3], json!({"role":"tool","tool_call_id":"call_a","content":"ok"}));
    assert_eq!(m[4], json!({"role":"tool","tool_call_id":"call_b","content":"ok"}));
    assert_eq!(h.bodies().len(), 2);
}

#[tokio::test]
async fn every_event_keeps_the_turn_alive() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Sse(
        [chunk(json!({"role":"assistant"})), chunk(json!({"content":"Hi"})), "data: {bad\n\n".into(), finish("stop"), usage(1, 1), DONE.into()].concat(),
    ));
    h.turn("t1", "hi");
    let mut all = Vec::new();
    loop {
        let ev = h.rx.recv().await.unwrap();
        let end = matches!(&ev, Inbound::Reply { part: ReplyPart::End { .. }, .. });
        all.push(ev);
        if end {
            break;
        }
    }
    assert_eq!(
        all,
        vec![
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", ReplyPart::Alive { after_speech: true }),
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", speech(None, "Hi")),
            reply("t1", end(Some((1, 1)))),
        ]
    );
}

#[tokio::test]
async fn errors_follow_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    for status in [401u16, 403] {
        h.script(Answer::Status(status, r#"{"error":{"message":"Incorrect API key provided: sk-test"}}"#.into()));
        h.turn("t", "hi");
        assert_eq!(
            h.until_end().await,
            vec![
                Inbound::Notice {
                    code: ErrorCode::Auth,
                    message: format!("The server refused the key (HTTP {status}). Check the key in settings."),
                    phrase: Some(yui_core::event::Phrase::new("notice-key-refused-http").arg("status", status)),
                },
                reply("t", ReplyPart::Error { message: GENERIC_FAILURE.into() }),
                reply("t", end(None)),
            ]
        );
    }
    h.script(Answer::Status(429, r#"{"error":{"message":"Rate limit reached.","type":"requests"}}"#.into()));
    h.turn("t", "hi");
    assert_eq!(h.until_end().await, vec![reply("t", ReplyPart::Error { message: "HTTP 429: Rate limit reached.".into() }), reply("t", end(None))]);
    h.script(Answer::Sse(format!("{}data: {}\n\n", chunk(json!({"content":"Hel"})), json!({"error":{"message":"upstream overloaded","code":500}}))));
    h.turn("t", "hi");
    let unsaid = |t: &str| reply("t", ReplyPart::Unsaid { text: t.into() });
    assert_eq!(
        h.until_end().await,
        vec![unsaid("Hel"), reply("t", ReplyPart::Error { message: "HTTP 500: upstream overloaded".into() }), reply("t", end(None))]
    );
    h.script(Answer::Broken(chunk(json!({"content":"Hel"}))));
    h.turn("t", "hi");
    assert_eq!(h.until_end().await, vec![unsaid("Hel"), reply("t", ReplyPart::Error { message: GENERIC_FAILURE.into() }), reply("t", end(None))]);
    // Failed turns that streamed nothing record nothing; those that streamed
    // text keep it.
    h.script(text_reply("fine"));
    h.turn("t9", "ok?");
    h.until_end().await;
    assert_eq!(h.bodies().last().unwrap()["messages"], json!([sys("CARD"), user("hi"), said("Hel"), user("hi"), said("Hel"), ctx("t9"), user("ok?")]));
}

#[tokio::test]
async fn a_stop_mid_stream_ends_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Hang(chunk(json!({"content":"Hello there"}))));
    h.turn("t1", "hi");
    assert_eq!(h.rx.recv().await, Some(reply("t1", ReplyPart::Alive { after_speech: true })));
    h.send(Outbound::Stop { turn_ids: vec!["t1".into()] });
    assert_eq!(h.rx.recv().await, Some(reply("t1", ReplyPart::Unsaid { text: "Hello there".into() })), "what the segmenter held");
    assert_eq!(h.rx.recv().await, Some(reply("t1", end(None))));
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(h.rx.try_recv().is_err(), "nothing after End");
    assert_eq!(h.bodies().len(), 1);
    // The stopped turn keeps the user entry and the text said so far.
    h.script(text_reply("ok"));
    h.turn("t2", "next");
    h.until_end().await;
    assert_eq!(h.bodies()[1]["messages"], json!([sys("CARD"), user("hi"), said("Hello there"), ctx("t2"), user("next")]));
}

#[tokio::test]
async fn a_tool_round_trip_and_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    let tool_reply = |id: &str| {
        Answer::Sse(
            [call(0, Some(id), Some("address_character"), "{\"chara"), call(0, None, None, "cter\":\"Mio\"}"), finish("tool_calls"), usage(5, 1), DONE.into()]
                .concat(),
        )
    };
    h.script(tool_reply("call_1"));
    h.script(text_reply("Told her."));
    h.turn("t1", "tell Mio");
    let ev = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            match h.rx.recv().await.unwrap() {
                Inbound::ToolCall(c) => return c,
                Inbound::Reply { part: ReplyPart::Alive { .. }, .. } => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(ev, ToolCall { id: "call_1".into(), turn_id: "t1".into(), name: "address_character".into(), arguments: json!({"character":"Mio"}) });
    assert_eq!(h.bodies().len(), 1, "the follow-up waits for the result");
    h.send(Outbound::ToolResult(ToolResult { id: "call_1".into(), turn_id: "t1".into(), result: "ok".into(), images: vec![] }));
    assert_eq!(h.until_end().await, vec![reply("t1", speech(None, "Told her.")), reply("t1", end(Some((10, 2))))]);
    let b = h.bodies();
    assert_eq!(b.len(), 2);
    let m = b[1]["messages"].as_array().unwrap();
    assert_eq!(m.len(), 5);
    assert_eq!(m[2], user("tell Mio"));
    assert_eq!(
        m[3],
        json!({"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"address_character","arguments":"{\"character\":\"Mio\"}"}}]})
    );
    assert_eq!(m[4], json!({"role":"tool","tool_call_id":"call_1","content":"ok"}));

    // The cap: three requests, then the turn ends with what it has.
    for i in 0..4 {
        h.script(tool_reply(&format!("c{i}")));
    }
    h.turn("t2", "again");
    let mut ends = 0;
    while ends == 0 {
        match tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.unwrap().unwrap() {
            Inbound::ToolCall(c) => h.send(Outbound::ToolResult(ToolResult { id: c.id, turn_id: c.turn_id, result: "ok".into(), images: vec![] })),
            Inbound::Reply { part: ReplyPart::End { usage }, .. } => {
                assert_eq!(usage, Some(Usage { input_tokens: 5, output_tokens: 1, total_tokens: 6 }));
                ends += 1;
            }
            _ => {}
        }
    }
    assert_eq!(h.bodies().len(), 2 + 3);
}

#[tokio::test]
async fn trimming_holds_a_cursor_and_the_guide_leaves_with_its_entry() {
    let dir = tempfile::tempdir().unwrap();
    // Window 1200 with a 1666-byte guide: reserve 300; fixed ≈ 6 + 23 + 5 = 34
    // → budget ≈ 866 tokens. The window grows with the guide (a byte is a
    // quarter token, three quarters of the window are budget) so the budget
    // left beside the guide stays the same.
    let window = 1200 + (yui_core::context::CONTROLS_GUIDE.len() as u32).saturating_sub(1666) / 3;
    let mut h = Harness::start(dir.path(), |c| c.context_window = window).await;
    let long = "y".repeat(1200); // 300 + 4 tokens
    let mut help = turn("g", "help");
    help.guide = Some(GuideKey::Controls);
    h.script(text_reply(&long));
    h.send(Outbound::Turn(help));
    h.until_end().await;
    let first = h.bodies()[0]["messages"].clone();
    assert_eq!(first.as_array().unwrap().len(), 3, "the guide rides in the turn's own block, not a replay");
    let short = "z".repeat(400); // 100 + 4 tokens
    for i in 1..=4 {
        h.script(text_reply(&short));
        h.turn(&format!("t{i}"), &format!("u{i}"));
        h.until_end().await;
    }
    let b = h.bodies();
    let msgs = |i: usize| b[i]["messages"].as_array().unwrap().clone();
    // Request 2 replays the guide right before its user entry.
    let m1 = msgs(1);
    assert!(m1[1]["content"].as_str().unwrap().starts_with(&format!("client_context:\nguide:\n{GUIDE_INSTRUCTION}\n\n")), "{}", m1[1]);
    assert_eq!(m1[2], user("help"));
    let guided = |m: &Vec<Value>| m.iter().any(|x| x["content"].as_str().is_some_and(|s| s.contains(GUIDE_INSTRUCTION)));
    let has_help = |m: &Vec<Value>| m.contains(&user("help"));
    for i in 1..b.len() {
        let m = msgs(i);
        assert_eq!(guided(&m), has_help(&m), "the guide and its entry leave together (request {i})");
        assert_ne!(m[1]["role"], "tool");
        assert_eq!(m[0], sys("CARD"));
    }
    assert!(!has_help(&msgs(4)), "the oldest entries left");
    // Request 3 overflowed and moved the cursor past the guided entry (to the
    // reply after it: never a tool entry); requests 4 and 5 hold it.
    let (m2, m3, m4) = (msgs(2), msgs(3), msgs(4));
    assert!(!has_help(&m2) && m2[1]["role"] == "assistant", "the guided entry left first, with its guide");
    let prefix = m2.len() - 2; // card + transcript of request 3
    assert_eq!(&m3[..prefix], &m2[..prefix], "requests 3 and 4 share a prefix");
    assert_eq!(m3[prefix], user("u2"));
    let prefix = m3.len() - 2;
    assert_eq!(&m4[..prefix], &m3[..prefix], "requests 4 and 5 share a prefix");
}

#[tokio::test]
async fn reset_writes_a_boundary_and_a_greeting_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(text_reply("before"));
    h.turn("t1", "old");
    h.until_end().await;
    h.send(Outbound::Reset);
    h.send(Outbound::Greeting { text: "Hi, I'm Yui!".into() });
    h.script(text_reply("after"));
    h.turn("t2", "new");
    h.until_end().await;
    assert_eq!(h.bodies()[1]["messages"], json!([sys("CARD"), said("Hi, I'm Yui!"), ctx("t2"), user("new")]));
    yui_core::persist::Writer::global().flush();
    let text = std::fs::read_to_string(dir.path().join("yui.jsonl")).unwrap();
    assert!(text.lines().any(|l| l == r#"{"role":"boundary"}"#));
    let mut h = h.restart().await;
    h.turn("t3", "x");
    h.until_end().await;
    assert_eq!(h.bodies()[2]["messages"][1], said("Hi, I'm Yui!"));
}

/// Everything the transport logs while `f` runs (the test runtime is
/// current-thread, so the spawned transport task logs on this thread).
struct LogBuf(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct LogCapture {
    _guard: tracing::subscriber::DefaultGuard,
    /// A second registered dispatcher: with only one, tracing-core computes
    /// a callsite's interest from the default of whichever thread hits it
    /// first (another test's thread, with none), and caches "never".
    _other: tracing::Dispatch,
}

fn capture_logs() -> (Arc<Mutex<Vec<u8>>>, LogCapture) {
    let other = tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default());
    let buf = Arc::new(Mutex::new(Vec::new()));
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt().with_max_level(tracing::Level::TRACE).with_ansi(false).with_writer(move || LogBuf(writer.clone())).finish();
    let guard = tracing::dispatcher::set_default(&tracing::Dispatch::new(subscriber));
    tracing::callsite::rebuild_interest_cache();
    (buf, LogCapture { _guard: guard, _other: other })
}

#[tokio::test]
async fn failure_logs_carry_the_status_and_kind_never_the_key() {
    let (logs, _guard) = capture_logs();
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Status(401, r#"{"error":{"message":"Incorrect API key provided: sk-test"}}"#.into()));
    h.turn("t1", "hi");
    h.until_end().await;
    h.script(Answer::Status(500, r#"{"error":{"message":"backend echoed Bearer sk-test"}}"#.into()));
    h.turn("t2", "hi");
    assert_eq!(h.until_end().await, vec![reply("t2", ReplyPart::Error { message: "HTTP 500: backend echoed Bearer sk-test".into() }), reply("t2", end(None))]);
    h.script(Answer::Sse(format!("{}data: {}\n\n", chunk(json!({"content":"Hel"})), json!({"error":{"message":"key sk-test overloaded","code":503}}))));
    h.turn("t3", "hi");
    h.until_end().await;
    let text = String::from_utf8(logs.lock().unwrap().clone()).unwrap();
    let failures: Vec<&str> = text.lines().filter(|l| l.contains("http_error")).collect();
    assert_eq!(failures.len(), 3, "{text}");
    assert!(failures[0].contains("status=Some(401)") && failures[0].contains("kind=\"http\""), "{}", failures[0]);
    assert!(failures[1].contains("status=Some(500)"), "{}", failures[1]);
    assert!(failures[2].contains("status=Some(503)"), "{}", failures[2]);
    assert!(!text.contains("sk-test"), "the key reached the log:\n{text}");
    assert!(!text.contains("Incorrect API key"), "a 401 body reached the log:\n{text}");
}

#[tokio::test]
async fn a_stream_cut_before_its_finish_is_a_failure_that_keeps_what_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    // The connection closes mid-reply: no finish_reason, no [DONE].
    h.script(Answer::Sse([chunk(json!({"role":"assistant","content":""})), chunk(json!({"content":"Hello, I was say"}))].concat()));
    h.turn("t1", "hi");
    let unsaid = |id: &str, t: &str| reply(id, ReplyPart::Unsaid { text: t.into() });
    assert_eq!(
        h.until_end().await,
        vec![unsaid("t1", "Hello, I was say"), reply("t1", ReplyPart::Error { message: GENERIC_FAILURE.into() }), reply("t1", end(None))]
    );
    // A [DONE] without any finish_reason is no proper end either.
    h.script(Answer::Sse([chunk(json!({"content":"Partial"})), DONE.into()].concat()));
    h.turn("t2", "hi");
    assert_eq!(h.until_end().await, vec![unsaid("t2", "Partial"), reply("t2", ReplyPart::Error { message: GENERIC_FAILURE.into() }), reply("t2", end(None))]);
    // A finished reply followed by its usage chunk is complete.
    h.script(text_reply("fine"));
    h.turn("t9", "ok?");
    assert_eq!(h.until_end().await, vec![reply("t9", speech(None, "fine")), reply("t9", end(Some((10, 2))))]);
    assert_eq!(
        h.bodies()[2]["messages"],
        json!([sys("CARD"), user("hi"), said("Hello, I was say"), user("hi"), said("Partial"), ctx("t9"), user("ok?")]),
        "the cut turns keep what streamed"
    );
}

#[tokio::test]
async fn an_error_chunk_with_a_string_error_fails_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Sse(format!("{}data: {}\n\n{}", chunk(json!({"content":"Hel"})), json!({"error":"upstream timeout"}), finish("stop"))));
    h.turn("t1", "hi");
    let unsaid = |id: &str| reply(id, ReplyPart::Unsaid { text: "Hel".into() });
    assert_eq!(h.until_end().await, vec![unsaid("t1"), reply("t1", ReplyPart::Error { message: GENERIC_FAILURE.into() }), reply("t1", end(None))]);
    h.script(Answer::Sse(format!("{}data: {}\n\n", chunk(json!({"content":"Hel"})), json!({"error":{"message":"slow down","code":"429"}}))));
    h.turn("t2", "hi");
    assert_eq!(h.until_end().await, vec![unsaid("t2"), reply("t2", ReplyPart::Error { message: "HTTP 429: slow down".into() }), reply("t2", end(None))]);
}

#[tokio::test]
async fn a_follow_up_request_first_reports_a_long_liveness_wait() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Sse(
        [
            chunk(json!({"content":"Let me tell her."})),
            call(0, Some("call_1"), Some("address_character"), "{\"character\":\"Mio\"}"),
            finish("tool_calls"),
            usage(5, 1),
            DONE.into(),
        ]
        .concat(),
    ));
    // The follow-up's first event is speech, so only the transport's own report can come first.
    h.script(Answer::Sse([chunk(json!({"content":"Told her."})), finish("stop"), usage(10, 2), DONE.into()].concat()));
    h.turn("t1", "tell Mio");
    loop {
        if let Inbound::ToolCall(_) = tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.unwrap().unwrap() {
            break;
        }
    }
    // The rest of round 1 (its speech) before the result is sent.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    while h.rx.try_recv().is_ok() {}
    h.send(Outbound::ToolResult(ToolResult { id: "call_1".into(), turn_id: "t1".into(), result: "ok".into(), images: vec![] }));
    let mut all = Vec::new();
    loop {
        let ev = tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.expect("timed out").unwrap();
        let end = matches!(&ev, Inbound::Reply { part: ReplyPart::End { .. }, .. });
        all.push(ev);
        if end {
            break;
        }
    }
    assert_eq!(
        all,
        vec![
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", ReplyPart::Alive { after_speech: true }),
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", speech(None, "Told her.")),
            reply("t1", end(Some((10, 2)))),
        ]
    );
    assert_eq!(h.bodies().len(), 2);
}

#[tokio::test]
async fn the_capped_round_waits_for_its_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    let tool_reply = |id: &str| {
        Answer::Sse([call(0, Some(id), Some("address_character"), "{\"character\":\"Mio\"}"), finish("tool_calls"), usage(5, 1), DONE.into()].concat())
    };
    for i in 0..3 {
        h.script(tool_reply(&format!("c{i}")));
    }
    h.turn("t1", "again");
    let mut calls = 0;
    while calls < 3 {
        match tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.unwrap().unwrap() {
            Inbound::ToolCall(c) => {
                calls += 1;
                if calls < 3 {
                    h.send(Outbound::ToolResult(ToolResult { id: c.id, turn_id: c.turn_id, result: "ok".into(), images: vec![] }));
                }
            }
            Inbound::Reply { part: ReplyPart::End { .. }, .. } => panic!("the turn ended before its third call"),
            _ => {}
        }
    }
    // The capped round's call is still running: the turn waits for it.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    while let Ok(ev) = h.rx.try_recv() {
        assert!(matches!(ev, Inbound::Reply { part: ReplyPart::Alive { .. }, .. }), "nothing but liveness while the call runs: {ev:?}");
    }
    h.send(Outbound::ToolResult(ToolResult { id: "c2".into(), turn_id: "t1".into(), result: "Mio heard you".into(), images: vec![] }));
    assert_eq!(h.until_end().await, vec![reply("t1", end(Some((5, 1))))]);
    assert_eq!(h.bodies().len(), 3, "no request past the cap");
    h.script(text_reply("ok"));
    h.turn("t2", "next");
    h.until_end().await;
    let m = h.bodies()[3]["messages"].clone();
    assert_eq!(m[7], json!({"role":"tool","tool_call_id":"c2","content":"Mio heard you"}), "{m:#}");

    // A stop while the capped round's call runs ends the turn at once.
    for i in 3..6 {
        h.script(tool_reply(&format!("c{i}")));
    }
    h.turn("t3", "once more");
    let mut calls = 0;
    while calls < 3 {
        if let Inbound::ToolCall(c) = tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.unwrap().unwrap() {
            calls += 1;
            if calls < 3 {
                h.send(Outbound::ToolResult(ToolResult { id: c.id, turn_id: c.turn_id, result: "ok".into(), images: vec![] }));
            }
        }
    }
    h.send(Outbound::Stop { turn_ids: vec!["t3".into()] });
    assert_eq!(h.until_end().await, vec![reply("t3", end(None))]);
}

/// A complete sentence held for the next character is not lost when a stop,
/// an abandon (a stall) or a mid-stream error ends the stream; a proxy's
/// error envelope shows its status and text.
#[tokio::test]
async fn text_held_at_a_stop_an_abandon_or_an_error_is_shown_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    let held = chunk(json!({"content":"Before it stopped. "}));
    for (id, out) in [("t1", Outbound::Stop { turn_ids: vec!["t1".into()] }), ("t2", Outbound::Abandon { turn_id: "t2".into() })] {
        h.script(Answer::Hang(held.clone()));
        h.turn(id, "stop test");
        assert_eq!(h.rx.recv().await, Some(reply(id, ReplyPart::Alive { after_speech: true })));
        h.send(out);
        assert_eq!(h.until_end().await, vec![reply(id, ReplyPart::Unsaid { text: "Before it stopped. ".into() }), reply(id, end(None))], "{id}");
    }
    // LiteLLM's proxy writes the upstream failure as a data line: the
    // complete sentence is spoken, as the stream's end would have, and the
    // error shows the status and the server's text.
    let litellm = json!({"error": {"message": "litellm.InternalServerError: upstream broke", "type": "None", "param": "None", "code": "500"}});
    h.script(Answer::Sse(format!("{held}data: {litellm}\n\n")));
    h.turn("t3", "error test");
    assert_eq!(
        h.until_end().await,
        vec![
            reply("t3", speech(None, "Before it stopped. ")),
            reply("t3", ReplyPart::Error { message: "HTTP 500: litellm.InternalServerError: upstream broke".into() }),
            reply("t3", end(None)),
        ]
    );
    // An `event: error` frame with a flat body, after a fragment: the fragment is unsaid.
    h.script(Answer::Sse(format!("{}event: error\ndata: {}\n\n", chunk(json!({"content":"Half a sen"})), json!({"message": "overloaded", "code": 529}))));
    h.turn("t4", "again");
    assert_eq!(
        h.until_end().await,
        vec![
            reply("t4", ReplyPart::Unsaid { text: "Half a sen".into() }),
            reply("t4", ReplyPart::Error { message: "HTTP 529: overloaded".into() }),
            reply("t4", end(None))
        ]
    );
    // Every one of them is in the transcript, each after its user entry.
    h.script(text_reply("ok"));
    h.turn("t5", "next");
    h.until_end().await;
    let said_it = said("Before it stopped. ");
    assert_eq!(
        h.bodies()[4]["messages"],
        json!([
            sys("CARD"),
            user("stop test"),
            said_it,
            user("stop test"),
            said_it,
            user("error test"),
            said_it,
            user("again"),
            said("Half a sen"),
            ctx("t5"),
            user("next")
        ])
    );
}
