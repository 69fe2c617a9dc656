//! The `agent_chat` transport (seed `004`): a whole session against
//! yui-mock's agent engine; the transport task alone against the same
//! engine for the eleven events, approvals (allow / deny / timeout, each
//! answered with its own run id), an engine-side cancel, regenerate
//! versions, fork, version and delete; and the task against a small
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
use yui_core::transport::agent_chat::{run, AgentChatConfig, ApprovalDecision, ChatEvent, EVENT_TYPES, NO_OUTPUT};
use yui_core::transport::{Inbound, Link, Outbound, ReplyPart, SideRequest, TurnRequest};
use yui_core::{ChatApi, TurnOutcome, UiEvent, UserCommand};
use yui_mock::agent_chat::{DENIED_OUTPUT, DENIED_REPLY, SCRIPT_REPLY, SCRIPT_TOOL, TIMED_OUT_OUTPUT};
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
        files: Vec::new(),
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
    // The two skipped events report an Alive; every good one reports its Chat part.
    assert_eq!(parts.iter().filter(|p| matches!(p, ReplyPart::Alive { after_speech: false })).count(), 2, "2 skipped: {parts:?}");
    assert_eq!(chat_kinds(&parts), ["start", "delta", "delta", "tool_result", "approval_request", "usage", "end"]);
    assert_eq!(parts.last(), Some(&ReplyPart::End { usage: Some(Usage { input_tokens: 0, output_tokens: 9, total_tokens: 9 }) }));
    let bodies = f.bodies.lock().unwrap().clone();
    assert_eq!(bodies[0], json!({"message": "<client_context>\ntrigger: user message\n</client_context>\n\nhow are you"}));

    out_tx.send(Outbound::Turn(turn("t2", "again"))).unwrap();
    let parts = parts_until_end(&mut in_rx).await;
    assert_eq!(parts[parts.len() - 2..], [ReplyPart::Error { message: NO_OUTPUT.into() }, ReplyPart::End { usage: None }]);
    cancel.cancel();
    task.await.unwrap();
}

// ---- The task alone against yui-mock's engine ----

fn chat_events(parts: &[ReplyPart]) -> Vec<ChatEvent> {
    parts
        .iter()
        .filter_map(|p| match p {
            ReplyPart::Chat { event } => Some(event.clone()),
            _ => None,
        })
        .collect()
}

fn chat_kinds(parts: &[ReplyPart]) -> Vec<&'static str> {
    chat_events(parts).iter().map(ChatEvent::kind).collect()
}

/// The transport task on a link to `mock`.
struct Wired {
    out: mpsc::UnboundedSender<Outbound>,
    rx: mpsc::UnboundedReceiver<Inbound>,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Wired {
    async fn new(mock: &MockServer) -> Wired {
        let (out, out_rx) = mpsc::unbounded_channel();
        let (in_tx, mut rx) = mpsc::unbounded_channel();
        let cancel = CancellationToken::new();
        let cfg = AgentChatConfig { base_url: mock.base_url(), key: "k".into(), conversation_id: None };
        let task = tokio::spawn(run(cfg, Link { outbound: out_rx, inbound: in_tx, cancel: cancel.clone() }));
        assert_eq!(rx.recv().await, Some(Inbound::Status(Status::Stateless)));
        Wired { out, rx, cancel, task }
    }

    fn send(&self, m: Outbound) {
        self.out.send(m).unwrap();
    }

    /// Sends a turn in conversation `cid`.
    fn turn(&self, id: &str, text: &str, cid: &str, regenerate_of: Option<u64>) {
        let mut t = turn(id, text);
        t.conversation_id = Some(cid.into());
        t.regenerate_of = regenerate_of;
        self.send(Outbound::Turn(t));
    }

    /// Reply parts up to and including the first chat event of `kind`.
    async fn until_chat(&mut self, kind: &str) -> Vec<ReplyPart> {
        let mut out = Vec::new();
        loop {
            let ev = tokio::time::timeout(Duration::from_secs(10), self.rx.recv()).await.expect("an inbound").expect("open");
            if let Inbound::Reply { part, .. } = ev {
                let hit = matches!(&part, ReplyPart::Chat { event } if event.kind() == kind);
                assert!(!matches!(part, ReplyPart::End { .. }), "the turn ended before {kind}: {out:?}");
                out.push(part);
                if hit {
                    return out;
                }
            }
        }
    }

    async fn until_end(&mut self) -> Vec<ReplyPart> {
        parts_until_end(&mut self.rx).await
    }

    async fn close(self) {
        self.cancel.cancel();
        self.task.await.unwrap();
    }
}

/// `(run_id, approval_id)` of a turn that asked.
fn asked(parts: &[ReplyPart]) -> (String, String) {
    let events = chat_events(parts);
    let run_id = events.iter().find_map(|e| match e {
        ChatEvent::Start { run_id, .. } => Some(run_id.clone()),
        _ => None,
    });
    let aid = events.iter().rev().find_map(|e| match e {
        ChatEvent::ApprovalRequest { approval_id, .. } => Some(approval_id.clone()),
        _ => None,
    });
    (run_id.expect("start"), aid.expect("approval_request"))
}

fn tool_results(parts: &[ReplyPart]) -> Vec<(bool, String)> {
    chat_events(parts)
        .into_iter()
        .filter_map(|e| match e {
            ChatEvent::ToolResult { ok, output, .. } => Some((ok, output)),
            _ => None,
        })
        .collect()
}

fn reply_text(parts: &[ReplyPart]) -> String {
    chat_events(parts)
        .into_iter()
        .filter_map(|e| match e {
            ChatEvent::Delta { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

fn end_event(parts: &[ReplyPart]) -> ChatEvent {
    chat_events(parts).into_iter().rfind(|e| e.kind() == "end").expect("an end event")
}

async fn engine(approval_timeout: Duration) -> MockServer {
    MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, approval_timeout, ..MockConfig::default() }).await.unwrap()
}

/// POSTs `/cancel {run_id}` to the engine as another client would.
async fn cancel_on_engine(mock: &MockServer, run_id: &str) {
    let r = reqwest::Client::new()
        .post(format!("{}/cancel", mock.base_url()))
        .bearer_auth("k")
        .json(&json!({"run_id": run_id}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), json!({"ok": true}), "the run was live");
}

#[tokio::test]
async fn all_eleven_events_arrive_as_chat_parts() {
    let mock = engine(Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock).await;
    let mut seen: Vec<&str> = Vec::new();

    w.turn("t1", "hello", "c", None);
    seen.extend(chat_kinds(&w.until_end().await));

    w.turn("t2", "please approve", "c", None);
    let parts = w.until_chat("approval_request").await;
    seen.extend(chat_kinds(&parts));
    let (_, aid) = asked(&parts);
    w.send(Outbound::Side(SideRequest::Approve { approval_id: aid, decision: ApprovalDecision::Allow }));
    seen.extend(chat_kinds(&w.until_end().await));

    w.turn("t3", "please approve", "c", None);
    let parts = w.until_chat("approval_request").await;
    let (run_id, _) = asked(&parts);
    cancel_on_engine(&mock, &run_id).await;
    let parts = w.until_end().await;
    assert_eq!(chat_kinds(&parts), ["cancelled"]);
    seen.extend(chat_kinds(&parts));

    w.turn("t4", "this will fail", "c", None);
    let parts = w.until_end().await;
    assert_eq!(chat_kinds(&parts), ["start", "reasoning", "error"]);
    seen.extend(chat_kinds(&parts));
    w.turn("t5", "say nothing, empty", "c", None);
    let parts = w.until_end().await;
    assert_eq!(parts[parts.len() - 2..], [ReplyPart::Error { message: NO_OUTPUT.into() }, ReplyPart::End { usage: None }]);

    seen.sort_unstable();
    seen.dedup();
    let mut all = EVENT_TYPES.to_vec();
    all.sort_unstable();
    assert_eq!(seen, all);
    w.close().await;
}

#[tokio::test]
async fn approve_and_deny_release_their_runs_with_the_runs_own_id() {
    let mock = engine(Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock).await;

    w.turn("t1", "please approve", "c", None);
    let (run1, aid1) = asked(&w.until_chat("approval_request").await);
    w.send(Outbound::Side(SideRequest::Approve { approval_id: aid1.clone(), decision: ApprovalDecision::Allow }));
    let parts = w.until_end().await;
    assert_eq!(tool_results(&parts), [(true, "notes.txt\n".to_string())]);
    assert!(chat_kinds(&parts).contains(&"tool_call"));
    assert_eq!(reply_text(&parts), SCRIPT_REPLY);
    assert!(matches!(parts.last(), Some(ReplyPart::End { usage: Some(_) })));

    w.turn("t2", "approve again", "c", None);
    let (run2, aid2) = asked(&w.until_chat("approval_request").await);
    assert_ne!((&run1, &aid1), (&run2, &aid2));
    w.send(Outbound::Side(SideRequest::Approve { approval_id: aid2.clone(), decision: ApprovalDecision::Deny }));
    let parts = w.until_end().await;
    assert_eq!(tool_results(&parts), [(false, DENIED_OUTPUT.to_string())]);
    assert!(!chat_kinds(&parts).contains(&"tool_call"));
    assert_eq!(reply_text(&parts), DENIED_REPLY);

    let first = mock.wait_for_request(&format!("/approve/{aid1}"), 0, WAIT).await.expect("first approve");
    assert_eq!(first.body, json!({"decision": "allow", "run_id": run1}));
    assert_eq!(first.authorization.as_deref(), Some("Bearer k"));
    let second = mock.wait_for_request(&format!("/approve/{aid2}"), 0, WAIT).await.expect("second approve");
    assert_eq!(second.body, json!({"decision": "deny", "run_id": run2}));
    w.close().await;
}

#[tokio::test]
async fn an_unanswered_approval_times_out_as_a_denial() {
    let mock = engine(Duration::from_millis(300)).await;
    let mut w = Wired::new(&mock).await;
    w.turn("t1", "please approve", "c", None);
    let parts = w.until_end().await;
    assert!(chat_kinds(&parts).contains(&"approval_request"));
    assert_eq!(tool_results(&parts), [(false, TIMED_OUT_OUTPUT.to_string())]);
    assert_eq!(reply_text(&parts), DENIED_REPLY);
    assert_eq!(spoken(&parts), [DENIED_REPLY]);
    assert!(mock.requests().iter().all(|r| !r.path.starts_with("/approve/")), "nothing was sent");
    w.close().await;
}

#[tokio::test]
async fn a_cancel_on_the_engine_reports_cancelled_and_ends_the_turn() {
    let mock = engine(Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock).await;
    w.turn("t1", "please approve", "c", None);
    let (run_id, _) = asked(&w.until_chat("approval_request").await);
    cancel_on_engine(&mock, &run_id).await;
    let parts = w.until_end().await;
    assert!(matches!(&chat_events(&parts)[..], [ChatEvent::Cancelled { run_id: r, .. }] if *r == run_id), "{parts:?}");
    assert_eq!(parts.last(), Some(&ReplyPart::End { usage: None }));

    // Stop while the engine waits: the transport cancels the run itself.
    w.turn("t2", "please approve", "c", None);
    let (run2, _) = asked(&w.until_chat("approval_request").await);
    w.send(Outbound::Stop { turn_ids: vec!["t2".into()] });
    assert_eq!(w.until_end().await, [ReplyPart::End { usage: None }]);
    let cancel = mock.wait_for_request("/cancel", 1, WAIT).await.expect("the transport's POST /cancel");
    assert_eq!(cancel.body, json!({"run_id": run2}));
    w.close().await;
}

#[tokio::test]
async fn regenerate_sends_regenerate_of_and_gets_a_second_version() {
    let mock = engine(Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock).await;
    w.turn("t1", "hello", "conv-r", None);
    match end_event(&w.until_end().await) {
        ChatEvent::End { user_index, assistant_index, versions, active, .. } => {
            assert_eq!((user_index, assistant_index, versions, active), (0, 1, json!(1), json!(0)))
        }
        other => panic!("{other:?}"),
    }
    w.turn("t2", "hello", "conv-r", Some(1));
    match end_event(&w.until_end().await) {
        ChatEvent::End { msg_id, user_index, assistant_index, versions, active } => {
            assert!(msg_id.starts_with("msg-"), "{msg_id}");
            assert_eq!((user_index, assistant_index, versions, active), (0, 1, json!(2), json!(1)))
        }
        other => panic!("{other:?}"),
    }
    let bodies: Vec<Value> = mock.requests().into_iter().filter(|r| r.path == "/chat").map(|r| r.body).collect();
    assert_eq!(bodies[0]["conversation_id"], "conv-r");
    assert!(bodies[0].get("regenerate_of").is_none(), "{:?}", bodies[0]);
    assert_eq!((bodies[1]["conversation_id"].clone(), bodies[1]["regenerate_of"].clone()), (json!("conv-r"), json!(1)));
    assert_eq!(mock.conversation("conv-r").unwrap().len(), 2, "no second user message");
    w.close().await;
}

#[tokio::test]
async fn fork_reports_forked_with_the_servers_id() {
    let mock = engine(Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock).await;
    w.turn("t1", "hello", "conv-f", None);
    w.until_end().await;
    // A fork of a message the engine does not have answers 404: no Forked.
    w.send(Outbound::Side(SideRequest::Fork { conversation_id: "conv-f".into(), index: 7, local_id: "local-bad".into() }));
    w.send(Outbound::Side(SideRequest::Fork { conversation_id: "conv-f".into(), index: 1, local_id: "local-2".into() }));
    let forked = tokio::time::timeout(WAIT, async {
        loop {
            match w.rx.recv().await.expect("open") {
                Inbound::Forked { local_id, server_id } => return (local_id, server_id),
                _ => continue,
            }
        }
    })
    .await
    .expect("Inbound::Forked");
    assert_eq!(forked, ("local-2".to_string(), "conv-f-fork-1".to_string()));
    let r = mock.wait_for_request("/fork/conv-f/1", 0, WAIT).await.expect("POST /fork");
    assert_eq!(r.authorization.as_deref(), Some("Bearer k"));
    assert!(mock.wait_for_request("/fork/conv-f/7", 0, WAIT).await.is_some());
    assert_eq!(mock.conversation("conv-f-fork-1").unwrap().len(), 2);
    tokio::time::sleep(Duration::from_millis(100)).await;
    while let Ok(ev) = w.rx.try_recv() {
        assert!(!matches!(ev, Inbound::Forked { .. }), "{ev:?}");
    }
    w.close().await;
}

#[tokio::test]
async fn version_and_delete_reach_their_paths() {
    let mock = engine(Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock).await;
    w.turn("t1", "hello", "conv-v", None);
    w.until_end().await;
    w.turn("t2", "hello", "conv-v", Some(1));
    w.until_end().await;

    w.send(Outbound::Side(SideRequest::PickVersion { conversation_id: "conv-v".into(), index: 1, n: 0 }));
    let r = mock.wait_for_request("/version/conv-v/1/0", 0, WAIT).await.expect("POST /version");
    assert_eq!(r.authorization.as_deref(), Some("Bearer k"));
    w.send(Outbound::Side(SideRequest::DeleteMessage { conversation_id: "conv-v".into(), index: 1 }));
    mock.wait_for_request("/messages/conv-v/1", 0, WAIT).await.expect("DELETE /messages");
    // The engine applied both (the requests are recorded before the answer).
    let mut conv = Vec::new();
    for _ in 0..50 {
        conv = mock.conversation("conv-v").unwrap();
        if conv[1]["deleted"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!((conv[1]["active"].clone(), conv[1]["deleted"].clone()), (json!(0), json!(true)), "{conv:?}");
    w.close().await;
}
