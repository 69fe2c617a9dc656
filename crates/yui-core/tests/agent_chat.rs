//! The `agent_chat` transport (seed `004`): a whole session against
//! yui-mock's agent engine, and the transport task alone against a small
//! scripted fake for the sentence cutting, skipped events and error texts.

mod common;
use axum::body::Body;
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use common::*;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use yui_core::event::Status;
use yui_core::model::{ToolState, Usage};
use yui_core::transport::agent_chat::{run, AgentChatConfig, NO_OUTPUT};
use yui_core::transport::{Inbound, Link, Outbound, ReplyPart, TurnRequest};
use yui_core::{ChatApi, TurnOutcome, UiEvent, UserCommand};
use yui_mock::agent_chat::{SCRIPT_REPLY, SCRIPT_TOOL};
use yui_mock::{MockConfig, MockServer};

#[tokio::test]
async fn a_turn_over_agent_chat_speaks_reasons_shows_tools_and_ends_with_usage() {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..MockConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::AgentChat, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    session.send(UserCommand::SendText { text: "hello there".into() }).unwrap();
    let end = ended(&sink).await;
    match &end {
        UiEvent::TurnEnded { outcome: TurnOutcome::Complete, usage: Some(u), error: None, .. } => {
            let chars = SCRIPT_REPLY.chars().count() as u64;
            assert_eq!(*u, Usage { input_tokens: 0, output_tokens: chars.div_ceil(4), total_tokens: chars.div_ceil(4) });
        }
        other => panic!("{other:?}"),
    }
    assert!(session.wait_idle(WAIT).await, "everything played");
    assert_eq!(speeches(&sink), [SCRIPT_REPLY]);
    let events = sink.events();
    assert!(events.iter().any(|e| matches!(e, UiEvent::Reasoning { delta, .. } if delta == "Thinking about the sea.")), "reasoning streamed");
    let tools: Vec<(ToolState, String)> = events
        .iter()
        .filter_map(|e| match e {
            UiEvent::ToolStatus { state, tool_id, .. } => Some((*state, tool_id.clone())),
            _ => None,
        })
        .collect();
    assert!(tools.contains(&(ToolState::Running, SCRIPT_TOOL.to_string())), "{tools:?}");
    assert_eq!(tools.last(), Some(&(ToolState::Done, SCRIPT_TOOL.to_string())), "{tools:?}");
    assert!(events.iter().any(|e| matches!(e, UiEvent::ContextSent { transport, .. } if transport == "agent_chat")));

    let requests = mock.requests();
    assert_eq!(requests.len(), 1, "one POST /chat per turn, no follow-up");
    let r = &requests[0];
    assert_eq!(r.path, "/chat");
    assert_eq!(r.authorization.as_deref(), Some("Bearer k"));
    let message = r.body["message"].as_str().expect("message");
    assert!(message.starts_with("<client_context>"), "{message}");
    assert!(message.ends_with("\n\nhello there"), "{message}");
    assert!(r.body["conversation_id"].as_str().is_some_and(|c| !c.is_empty()), "{:?}", r.body);
    assert!(r.body.get("regenerate_of").is_none());
    session.close().await;
}

#[tokio::test]
async fn stop_ends_the_turn_and_sends_cancel_with_the_run_id() {
    // 40 ms × 5 per event: the run is still streaming when Stop comes.
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 5.0, ..MockConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::AgentChat, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    session.send(UserCommand::SendText { text: "hi".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Reasoning { .. })).await.expect("reasoning (after start)");
    session.send(UserCommand::Stop).unwrap();
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. }));
    let cancel = mock.wait_for_request("/cancel", 0, WAIT).await.expect("POST /cancel");
    assert!(cancel.body["run_id"].as_str().is_some_and(|r| r.starts_with("run-")), "{:?}", cancel.body);
    assert_eq!(cancel.authorization.as_deref(), Some("Bearer k"));
    session.close().await;
}

#[tokio::test]
async fn a_wrong_key_fails_the_turn_with_an_auth_notice() {
    let mock = MockServer::start(MockConfig { key: Some("right".into()), pace: 0.0, ..MockConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::AgentChat, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    session.send(UserCommand::SendText { text: "hi".into() }).unwrap();
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Failed, error: Some(_), .. }));
    assert!(sink.events().iter().any(|e| matches!(e, UiEvent::Notice { code: yui_core::ErrorCode::Auth, .. })));
    session.close().await;
}

// ---- The task alone against a scripted fake ----

#[derive(Clone)]
struct Fake {
    bodies: Arc<Mutex<Vec<Value>>>,
    streams: Arc<Mutex<Vec<String>>>,
}

async fn chat(State(f): State<Fake>, axum::Json(body): axum::Json<Value>) -> Response {
    f.bodies.lock().unwrap().push(body);
    let stream = f.streams.lock().unwrap().remove(0);
    Response::builder().header("content-type", "text/event-stream").body(Body::from(stream)).unwrap()
}

fn sse(events: &[Value]) -> String {
    events.iter().map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap_or("message"))).collect()
}

async fn fake(streams: Vec<String>) -> (String, Fake) {
    let f = Fake { bodies: Arc::default(), streams: Arc::new(Mutex::new(streams)) };
    let app = Router::new().route("/chat", post(chat)).with_state(f.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, f)
}

fn turn(id: &str, text: &str) -> TurnRequest {
    TurnRequest {
        turn_id: id.into(),
        block: "<client_context>\ntrigger: user message\n</client_context>".into(),
        text: text.into(),
        input: text.into(),
        guide: None,
        images: Vec::new(),
        conversation_id: None,
        regenerate_of: None,
    }
}

/// The parts of `turn_id` up to and including its End.
async fn parts_until_end(rx: &mut mpsc::UnboundedReceiver<Inbound>) -> Vec<ReplyPart> {
    let mut out = Vec::new();
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(10), rx.recv()).await.expect("an inbound").expect("open");
        if let Inbound::Reply { part, .. } = ev {
            let end = matches!(part, ReplyPart::End { .. });
            out.push(part);
            if end {
                return out;
            }
        }
    }
}

fn spoken(parts: &[ReplyPart]) -> Vec<String> {
    parts
        .iter()
        .filter_map(|p| match p {
            ReplyPart::Speech { segments } => Some(segments.iter().map(|s| s.speech.trim().to_string()).collect::<String>()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn sentences_are_spoken_as_they_complete_and_bad_events_are_skipped() {
    let m = "m1";
    let first = {
        let mut s = sse(&[
            json!({"type":"start","msg_id":m,"run_id":"r1"}),
            json!({"type":"delta","msg_id":m,"text":"Hello there. How"}),
        ]);
        s.push_str("data: not json\n\n");
        s.push_str(&sse(&[json!({"type":"heartbeat","msg_id":m})]));
        s.push_str(&sse(&[
            json!({"type":"delta","msg_id":m,"text":" are you? Fine"}),
            json!({"type":"tool_result","msg_id":m,"call_id":"c","name":"shell","ok":false,"output":"boom","seconds":0.1}),
            json!({"type":"approval_request","msg_id":m,"approval_id":"a1","call_id":"c2","name":"shell","args":{}}),
            json!({"type":"usage","msg_id":m,"chars":33,"seconds":1.0,"ttft":null}),
            json!({"type":"end","msg_id":m,"user_index":0,"assistant_index":1,"versions":1,"active":0}),
        ]));
        s
    };
    let second = sse(&[json!({"type":"start","msg_id":"m2","run_id":"r2"}), json!({"type":"error","msg_id":"m2","message":"nothing","kind":"empty"})]);
    let (base, f) = fake(vec![first, second]).await;
    let (out_tx, out_rx) = mpsc::unbounded_channel();
    let (in_tx, mut in_rx) = mpsc::unbounded_channel();
    let cancel = CancellationToken::new();
    let cfg = AgentChatConfig { base_url: format!("{base}/"), key: String::new(), conversation_id: None };
    let task = tokio::spawn(run(cfg, Link { outbound: out_rx, inbound: in_tx, cancel: cancel.clone() }));
    assert_eq!(in_rx.recv().await, Some(Inbound::Status(Status::Stateless)));

    out_tx.send(Outbound::Turn(turn("t1", "how are you"))).unwrap();
    let parts = parts_until_end(&mut in_rx).await;
    assert_eq!(spoken(&parts), ["Hello there.", "How are you?", "Fine"]);
    let failed = parts.iter().position(|p| *p == ReplyPart::ToolStatus { state: ToolState::Failed, tool_id: "shell".into() }).expect("tool failed");
    assert_eq!(spoken(&parts[..failed]), ["Hello there.", "How are you?"], "complete sentences go out at once, the rest at end");
    assert_eq!(parts.iter().filter(|p| matches!(p, ReplyPart::Alive { after_speech: false })).count(), 5, "start, 2 skipped, approval, usage: {parts:?}");
    assert_eq!(parts.last(), Some(&ReplyPart::End { usage: Some(Usage { input_tokens: 0, output_tokens: 9, total_tokens: 9 }) }));
    let bodies = f.bodies.lock().unwrap().clone();
    assert_eq!(bodies[0], json!({"message": "<client_context>\ntrigger: user message\n</client_context>\n\nhow are you"}));

    out_tx.send(Outbound::Turn(turn("t2", "again"))).unwrap();
    let parts = parts_until_end(&mut in_rx).await;
    assert_eq!(parts[parts.len() - 2..], [ReplyPart::Error { message: NO_OUTPUT.into() }, ReplyPart::End { usage: None }]);
    cancel.cancel();
    task.await.unwrap();
}
