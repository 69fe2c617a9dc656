//! The `agent_chat` transport on the real engine's wire (the PraisonAI
//! desktop engine, protocol version 2): whole sessions against yui-mock's
//! engine (the exact request JSON, stops the engine confirms, approvals and
//! their tool cards, attachments as data URLs and text items, regenerate,
//! version, fork, delete, two conversations with their own histories), and
//! the transport task alone against the engine and against a scripted fake
//! that writes the engine's exact bytes (no `type` key, `null` fields).

use crate::common;
use axum::body::Body;
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use base64::Engine as _;
use common::*;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use yui_core::chat::{AnswerState, ApprovalState, Attachment, Conversation, Role};
use yui_core::event::Status;
use yui_core::model::{ToolState, Usage};
use yui_core::picture::PictureExt;
use yui_core::transport::agent_chat::{run, AgentChatConfig, ApprovalDecision, ChatErrorKind, ChatEvent, EVENT_TYPES};
use yui_core::transport::{Inbound, Link, Outbound, ReplyPart, SideRequest, TurnRequest};
use yui_core::{ChatApi, CollectingSink, Session, TurnOutcome, UiEvent, UserCommand};
use yui_mock::agent_chat::{history_reply, DENIED_OUTPUT, DENIED_REPLY, SCRIPT_REPLY, SCRIPT_TOOL, TOOL_OUTPUT};
use yui_mock::{MockConfig, MockServer};

// ---- Whole sessions against the mock engine ----

async fn engine_with(pace: f64, approval_timeout: Duration) -> MockServer {
    MockServer::start(MockConfig { key: Some("k".into()), pace, approval_timeout, ..MockConfig::default() }).await.unwrap()
}

async fn session_on(mock: &MockServer, dir: &std::path::Path) -> (Session, CollectingSink) {
    request_session(ChatApi::AgentChat, &mock.base_url(), dir, fast_timeouts(), |_| {}).await
}

fn chat_bodies(mock: &MockServer) -> Vec<Value> {
    mock.requests().into_iter().filter(|r| r.path == "/chat").map(|r| r.body).collect()
}

/// Waits for a whole-conversation event that satisfies `f`.
async fn conversation_where(sink: &CollectingSink, f: impl Fn(&Conversation) -> bool) -> Conversation {
    let hit = sink.wait_for(WAIT, |e| matches!(e, UiEvent::Conversation { conversation } if f(conversation))).await;
    match hit {
        Some(UiEvent::Conversation { conversation }) => conversation,
        other => panic!("no such conversation event: {other:?}"),
    }
}

async fn chat_end(sink: &CollectingSink, n: usize) {
    let count = |s: &CollectingSink| s.events().iter().filter(|e| matches!(e, UiEvent::Chat { event: ChatEvent::End { .. } })).count();
    sink.wait_for(WAIT, |_| count(sink) > n).await.expect("chat end");
}

#[tokio::test]
async fn a_turn_sends_the_engines_body_and_speaks_reasons_shows_tools() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    session.send(UserCommand::SendText { text: "hello there".into() }).unwrap();
    match ended(&sink).await {
        UiEvent::TurnEnded { outcome: TurnOutcome::Complete, usage: Some(u), error: None, .. } => {
            let chars = SCRIPT_REPLY.chars().count() as u64;
            assert_eq!(u, Usage { input_tokens: 0, output_tokens: chars.div_ceil(4), total_tokens: chars.div_ceil(4) });
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
    assert_eq!(tools.last(), Some(&(ToolState::Done, SCRIPT_TOOL.to_string())), "{tools:?}");

    let requests = mock.requests();
    assert_eq!(requests.len(), 1, "one POST /chat per turn, no follow-up");
    let r = &requests[0];
    assert_eq!((r.path.as_str(), r.authorization.as_deref()), ("/chat", Some("Bearer k")));
    let body = r.body.as_object().expect("an object");
    let mut keys: Vec<&str> = body.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["attachments", "chat_id", "prompt", "regenerate_of", "run_id", "session", "tools"]);
    let prompt = body["prompt"].as_str().unwrap();
    assert!(prompt.starts_with("<client_context>") && prompt.ends_with("</client_context>\n\nhello there"), "{prompt}");
    let chat_id = body["chat_id"].as_str().unwrap();
    assert!(!chat_id.is_empty());
    assert_eq!(body["session"], chat_id, "one agent history per conversation");
    assert_eq!(session.conversation(None, None).unwrap().wire_id(), chat_id, "the chat window's conversation");
    assert!(body["run_id"].as_str().is_some_and(|r| r.len() > 8), "{body:?}");
    assert_eq!((body["regenerate_of"].clone(), body["tools"].clone(), body["attachments"].clone()), (Value::Null, json!(true), json!([])));
    // The engine filed the exchange; the chat window knows its indices.
    let stored = mock.conversation(chat_id).unwrap();
    assert_eq!(stored.len(), 2);
    let c = session.conversation(None, None).unwrap();
    assert_eq!((c.messages[0].server_index, c.messages[1].server_index), (Some(0), Some(1)));
    session.close().await;
}

#[tokio::test]
async fn stop_ends_the_turn_at_once_and_the_engine_confirms_it() {
    // 40 ms × 5 per chunk: the run is still streaming when Stop comes.
    let mock = engine_with(5.0, Duration::from_secs(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    session.send(UserCommand::SendText { text: "hi".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Chat { event: ChatEvent::Delta { .. } })).await.expect("a first delta");
    session.send(UserCommand::Stop).unwrap();
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. }));
    let run_id = chat_bodies(&mock)[0]["run_id"].as_str().unwrap().to_string();
    let cancel = mock.wait_for_request(&format!("/cancel/{run_id}"), 0, WAIT).await.expect("POST /cancel/<run_id>");
    assert_eq!((cancel.body.clone(), cancel.authorization.as_deref()), (Value::Null, Some("Bearer k")), "no body");
    let c = conversation_where(&sink, |c| c.messages.last().is_some_and(|m| m.answers.last().is_some_and(|a| a.stop_confirmed.is_some()))).await;
    let a = c.messages[1].answers.last().unwrap();
    assert_eq!((a.state, a.stop_confirmed), (AnswerState::Stopped, Some(true)), "the engine's cancelled confirmed it");
    assert!(SCRIPT_REPLY.starts_with(a.text.as_str()) && !a.text.is_empty(), "what streamed stays: {:?}", a.text);
    assert!(mock.conversation(c.wire_id()).is_none(), "a cancelled run is not saved");
    session.close().await;
}

#[tokio::test]
async fn stop_while_an_approval_waits_denies_it_and_cancels_the_run() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    session.send(UserCommand::SendText { text: "please approve".into() }).unwrap();
    let asked = sink.wait_for(WAIT, |e| matches!(e, UiEvent::Chat { event: ChatEvent::ApprovalRequest { .. } })).await.expect("asked");
    let UiEvent::Chat { event: ChatEvent::ApprovalRequest { approval_id, .. } } = asked else { unreachable!() };
    session.send(UserCommand::Stop).unwrap();
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. }));
    let run_id = chat_bodies(&mock)[0]["run_id"].as_str().unwrap().to_string();
    mock.wait_for_request(&format!("/cancel/{run_id}"), 0, WAIT).await.expect("the run cancelled");
    let deny = mock.wait_for_request(&format!("/approve/{approval_id}"), 0, WAIT).await.expect("the waiting approval denied");
    assert_eq!(deny.body, json!({"choice": "deny"}));
    let c = conversation_where(&sink, |c| c.messages.last().is_some_and(|m| m.answers.last().is_some_and(|a| a.stop_confirmed.is_some()))).await;
    assert_eq!(c.messages[1].answers[0].stop_confirmed, Some(true));
    session.close().await;
}

fn file(name: &str, mime: &str, bytes: &[u8]) -> Attachment {
    Attachment { name: name.into(), mime: mime.into(), data_base64: base64::engine::general_purpose::STANDARD.encode(bytes) }
}

#[tokio::test]
async fn attachments_go_as_data_urls_and_text_items_not_folded_into_the_prompt() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    let png = {
        let p = yui_core::picture::Picture::from_rgba(2, 2, vec![255; 16]).unwrap();
        let url = &yui_core::transport::request::urls(&[p])[0];
        base64::engine::general_purpose::STANDARD.decode(url.split_once(";base64,").unwrap().1).unwrap()
    };
    let attachments = vec![file("a.png", "image/png", &png), file("d.pdf", "application/pdf", b"%PDF-1.4 x"), file("n.txt", "text/plain", b"hello file")];
    session.send(UserCommand::SendMessage { text: "see attached".into(), attachments }).unwrap();
    ended(&sink).await;
    let body = &chat_bodies(&mock)[0];
    let items = body["attachments"].as_array().unwrap();
    assert_eq!(items.len(), 3, "{items:?}");
    assert!(items[0]["url"].as_str().unwrap().starts_with("data:image/"), "{:?}", items[0]);
    assert_eq!(
        items[1],
        json!({"name": "d.pdf", "url": format!("data:application/pdf;base64,{}", base64::engine::general_purpose::STANDARD.encode(b"%PDF-1.4 x"))})
    );
    assert_eq!(items[2], json!({"name": "n.txt", "text": "hello file"}));
    let prompt = body["prompt"].as_str().unwrap();
    assert!(prompt.ends_with("\n\nsee attached") && !prompt.contains("hello file"), "the client folds no text file in: {prompt}");
    assert_eq!(mock.media()[0].len(), 2, "the engine read two media attachments");
    let stored = mock.conversation(body["chat_id"].as_str().unwrap()).unwrap();
    assert!(stored[0]["content"].as_str().unwrap().ends_with("--- attached: n.txt ---\nhello file"), "{stored:?}");
    session.close().await;
}

#[tokio::test]
async fn two_conversations_keep_separate_agent_histories() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    session.send(UserCommand::SendText { text: "what history do you have".into() }).unwrap();
    chat_end(&sink, 0).await;
    session.send(UserCommand::SendText { text: "and now, history?".into() }).unwrap();
    chat_end(&sink, 1).await;
    session.wait_idle(WAIT).await;
    session.send(UserCommand::Reset).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Conversation { conversation } if conversation.messages.is_empty())).await.expect("a new conversation");
    session.send(UserCommand::SendText { text: "history in the new one".into() }).unwrap();
    chat_end(&sink, 2).await;
    let said: Vec<String> = sink
        .events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::Chat { event: ChatEvent::Delta { text, .. } } => Some(text),
            UiEvent::Chat { event: ChatEvent::End { .. } } => Some("|".into()),
            _ => None,
        })
        .collect();
    let replies: Vec<&str> = said.concat().leak().split('|').filter(|s| !s.is_empty()).collect();
    assert_eq!(replies, [history_reply(0), history_reply(2), history_reply(0)]);
    let bodies = chat_bodies(&mock);
    let (a, b) = (bodies[0]["session"].as_str().unwrap(), bodies[2]["session"].as_str().unwrap());
    assert_eq!(bodies[1]["session"], a);
    assert_ne!(a, b, "the new conversation is its own session");
    assert_eq!((bodies[2]["chat_id"].as_str(), mock.agent_history(a), mock.agent_history(b)), (Some(b), 4, 2));
    session.close().await;
}

#[tokio::test]
async fn regenerate_sends_the_user_index_and_the_engine_files_version_2_then_a_version_pick() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    for (i, text) in ["first", "second"].into_iter().enumerate() {
        session.send(UserCommand::SendText { text: text.into() }).unwrap();
        nth_ended(&sink, i).await;
        session.wait_idle(WAIT).await;
    }
    let c = session.conversation(None, None).unwrap();
    let answer = c.messages[3].id.clone();
    session.send(UserCommand::Regenerate { msg_id: answer.clone() }).unwrap();
    chat_end(&sink, 2).await;
    session.wait_idle(WAIT).await;
    let bodies = chat_bodies(&mock);
    assert_eq!(bodies[2]["regenerate_of"], 2, "the USER message's index");
    assert_ne!(bodies[2]["run_id"], bodies[1]["run_id"], "a fresh run id");
    let cid = c.wire_id().to_string();
    let stored = mock.conversation(&cid).unwrap();
    assert_eq!(stored.len(), 4, "no new exchange: {stored:?}");
    assert_eq!((stored[3]["versions"].as_array().map(Vec::len), stored[3]["active"].clone()), (Some(2), json!(1)));
    let m = &session.conversation(None, None).unwrap().messages[3];
    assert_eq!((m.answers.len(), m.active, m.server_index), (2, 1, Some(3)));

    session.send(UserCommand::PickVersion { msg_id: answer, n: 0 }).unwrap();
    let r = mock.wait_for_request(&format!("/version/{cid}/2/0"), 0, WAIT).await.expect("POST /version/<cid>/<user index>/0");
    assert_eq!(r.authorization.as_deref(), Some("Bearer k"));
    for _ in 0..100 {
        if mock.conversation(&cid).unwrap()[3]["active"] == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(mock.conversation(&cid).unwrap()[3]["active"], 0);
    session.close().await;
}

#[tokio::test]
async fn deleting_either_message_deletes_the_exchange_on_both_sides() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    for (i, text) in ["one", "two", "three"].into_iter().enumerate() {
        session.send(UserCommand::SendText { text: text.into() }).unwrap();
        nth_ended(&sink, i).await;
        session.wait_idle(WAIT).await;
    }
    let c = session.conversation(None, None).unwrap();
    let cid = c.wire_id().to_string();
    // The answer of "two": the engine drops messages 2 and 3.
    session.send(UserCommand::DeleteMessage { msg_id: c.messages[3].id.clone() }).unwrap();
    let after = conversation_where(&sink, |c| c.messages.len() == 4).await;
    assert_eq!(after.messages.iter().map(|m| m.role).collect::<Vec<_>>(), [Role::User, Role::Assistant, Role::User, Role::Assistant]);
    assert_eq!(after.messages[2].text, "three");
    assert_eq!((after.messages[2].server_index, after.messages[3].server_index), (Some(2), Some(3)), "later indices moved up");
    mock.wait_for_request(&format!("/messages/{cid}/2"), 0, WAIT).await.expect("POST /messages/<cid>/2");
    // The engine's in-memory agent forgets it too: its session is reset, to be seeded again from what is stored.
    let reset = mock.wait_for_request("/reset", 0, WAIT).await.expect("POST /reset after the delete");
    assert_eq!(reset.body, json!({ "session": cid }), "{reset:?}");
    // The user message of "three" (now at 2).
    session.send(UserCommand::DeleteMessage { msg_id: after.messages[2].id.clone() }).unwrap();
    conversation_where(&sink, |c| c.messages.len() == 2).await;
    mock.wait_for_request(&format!("/messages/{cid}/2"), 1, WAIT).await.expect("the second delete");
    let mut stored = Vec::new();
    for _ in 0..100 {
        stored = mock.conversation(&cid).unwrap();
        if stored.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(stored.len(), 2, "{stored:?}");
    assert!(stored[0]["content"].as_str().unwrap().ends_with("one"));
    session.close().await;
}

#[tokio::test]
async fn fork_is_filed_under_the_engines_new_id_and_later_turns_go_there() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    for (i, text) in ["one", "two"].into_iter().enumerate() {
        session.send(UserCommand::SendText { text: text.into() }).unwrap();
        nth_ended(&sink, i).await;
        session.wait_idle(WAIT).await;
    }
    let c = session.conversation(None, None).unwrap();
    let cid = c.wire_id().to_string();
    // Fork at the first user message: its answer comes along, as on the engine.
    session.send(UserCommand::Fork { msg_id: c.messages[0].id.clone() }).unwrap();
    mock.wait_for_request(&format!("/fork/{cid}/1"), 0, WAIT).await.expect("POST /fork/<cid>/<user index + 1>");
    let fork_id = format!("{cid}-f1");
    for _ in 0..100 {
        if session.conversation(None, None).unwrap().server_id.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let fork = session.conversation(None, None).unwrap();
    assert_eq!((fork.messages.len(), fork.server_id.as_deref()), (2, Some(fork_id.as_str())));
    assert_eq!(mock.conversation(&fork_id).unwrap().len(), 2);
    session.send(UserCommand::SendText { text: "three".into() }).unwrap();
    nth_ended(&sink, 2).await;
    let last = chat_bodies(&mock).pop().unwrap();
    assert_eq!((last["chat_id"].as_str(), last["session"].as_str()), (Some(fork_id.as_str()), Some(fork_id.as_str())));
    assert_eq!(mock.conversation(&fork_id).unwrap().len(), 4);
    assert_eq!(mock.conversation(&cid).unwrap().len(), 4, "the original is untouched");
    session.close().await;
}

#[tokio::test]
async fn an_approval_card_pairs_with_its_tool_card_and_a_late_answer_says_no_longer_pending() {
    let mock = engine_with(0.0, Duration::from_millis(200)).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = session_on(&mock, dir.path()).await;
    session.send(UserCommand::SendText { text: "please approve".into() }).unwrap();
    let asked = sink.wait_for(WAIT, |e| matches!(e, UiEvent::Chat { event: ChatEvent::ApprovalRequest { .. } })).await.expect("asked");
    let UiEvent::Chat { event: ChatEvent::ApprovalRequest { approval_id, .. } } = asked else { unreachable!() };
    // Nobody answers within the engine's wait: it denies, and the run goes on.
    ended(&sink).await;
    session.wait_idle(WAIT).await;
    let a = session.conversation(None, None).unwrap().messages[1].answers[0].clone();
    assert_eq!(a.tools.len(), 1);
    assert_ne!(a.tools[0].call_id, a.approvals[0].call_id, "the engine's two ids");
    assert_eq!(a.tools[0].approval_id.as_deref(), Some(approval_id.as_str()), "paired by order, name and arguments");
    assert_eq!(a.tools[0].output, DENIED_OUTPUT);
    // The user answers now: the engine says 404, the card says so.
    session.send(UserCommand::Approve { approval_id: approval_id.clone(), decision: ApprovalDecision::Allow }).unwrap();
    let c = conversation_where(&sink, |c| c.messages[1].answers[0].approvals[0].state == ApprovalState::Gone).await;
    assert_eq!(c.messages[1].answers[0].approvals[0].approval_id, approval_id);
    let r = mock.wait_for_request(&format!("/approve/{approval_id}"), 0, WAIT).await.unwrap();
    assert_eq!(r.body, json!({"choice": "allow"}));
    session.close().await;
}

// ---- The task alone against the engine ----

fn turn(id: &str, text: &str) -> TurnRequest {
    TurnRequest {
        turn_id: id.into(),
        block: "<client_context>\ntrigger: user message\n</client_context>".into(),
        text: text.into(),
        input: text.into(),
        guide: None,
        guide_language: Default::default(),
        images: Vec::new(),
        conversation_id: None,
        regenerate_of: None,
        files: Vec::new(),
    }
}

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

fn spoken(parts: &[ReplyPart]) -> Vec<String> {
    parts
        .iter()
        .filter_map(|p| match p {
            ReplyPart::Speech { segments } => Some(segments.iter().map(|s| s.speech.trim().to_string()).collect::<String>()),
            _ => None,
        })
        .collect()
}

/// The transport task on a link to `base`.
struct Wired {
    out: mpsc::UnboundedSender<Outbound>,
    rx: mpsc::UnboundedReceiver<Inbound>,
    cancel: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl Wired {
    async fn new(base: &str, stop_wait: Duration) -> Wired {
        let (out, out_rx) = mpsc::unbounded_channel();
        let (in_tx, mut rx) = mpsc::unbounded_channel();
        let cancel = CancellationToken::new();
        let cfg = AgentChatConfig { base_url: base.into(), key: "k".into(), conversation_id: Some("client-chat".into()), stop_wait };
        let task = tokio::spawn(run(cfg, Link { outbound: out_rx, inbound: in_tx, cancel: cancel.clone() }));
        assert_eq!(rx.recv().await, Some(Inbound::Status(Status::Stateless)));
        Wired { out, rx, cancel, task }
    }

    fn send(&self, m: Outbound) {
        self.out.send(m).unwrap();
    }

    fn turn(&self, id: &str, text: &str, cid: Option<&str>) {
        let mut t = turn(id, text);
        t.conversation_id = cid.map(str::to_string);
        self.send(Outbound::Turn(t));
    }

    async fn next(&mut self) -> Inbound {
        tokio::time::timeout(Duration::from_secs(10), self.rx.recv()).await.expect("an inbound").expect("open")
    }

    /// Reply parts up to and including the first chat event of `kind`.
    async fn until_chat(&mut self, kind: &str) -> Vec<ReplyPart> {
        let mut out = Vec::new();
        loop {
            if let Inbound::Reply { part, .. } = self.next().await {
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
        let mut out = Vec::new();
        loop {
            if let Inbound::Reply { part, .. } = self.next().await {
                let end = matches!(part, ReplyPart::End { .. });
                out.push(part);
                if end {
                    return out;
                }
            }
        }
    }

    /// The next inbound that `f` picks, skipping the others.
    async fn until<T>(&mut self, f: impl Fn(Inbound) -> Option<T>) -> T {
        loop {
            if let Some(t) = f(self.next().await) {
                return t;
            }
        }
    }

    async fn close(self) {
        self.cancel.cancel();
        self.task.await.unwrap();
    }
}

const LONG: Duration = Duration::from_secs(10);

fn approval_of(parts: &[ReplyPart]) -> String {
    chat_events(parts)
        .into_iter()
        .rev()
        .find_map(|e| match e {
            ChatEvent::ApprovalRequest { approval_id, .. } => Some(approval_id),
            _ => None,
        })
        .expect("approval_request")
}

#[tokio::test]
async fn all_eleven_events_arrive_and_approvals_send_the_choice() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock.base_url(), LONG).await;
    let mut seen: Vec<&str> = Vec::new();
    w.turn("t1", "hello", None);
    seen.extend(chat_kinds(&w.until_end().await));
    assert_eq!(chat_bodies(&mock)[0]["chat_id"], "client-chat", "no conversation of its own: the client's chat id");

    w.turn("t2", "please approve", Some("c"));
    let parts = w.until_chat("approval_request").await;
    assert_eq!(chat_kinds(&parts), ["start", "reasoning", "approval_request"]);
    seen.extend(chat_kinds(&parts));
    let aid = approval_of(&parts);
    w.send(Outbound::Side(SideRequest::Approve { approval_id: aid.clone(), decision: ApprovalDecision::Always }));
    let parts = w.until_end().await;
    assert_eq!(chat_kinds(&parts)[..3], ["tool_drafting", "tool_call", "tool_result"], "together, after the decision");
    seen.extend(chat_kinds(&parts));
    let r = mock.wait_for_request(&format!("/approve/{aid}"), 0, WAIT).await.unwrap();
    assert_eq!((r.body.clone(), r.authorization.as_deref()), (json!({"choice": "always"}), Some("Bearer k")));
    // Always: the engine no longer asks for that tool.
    w.turn("t3", "approve again", Some("c"));
    assert!(!chat_kinds(&w.until_end().await).contains(&"approval_request"));

    w.turn("t4", "this will fail", Some("c"));
    let parts = w.until_end().await;
    assert_eq!(chat_kinds(&parts), ["start", "reasoning", "error"], "no end, no usage after an error");
    seen.extend(chat_kinds(&parts));
    w.turn("t5", "say nothing, empty", Some("c"));
    let parts = w.until_end().await;
    // `empty` is the engine's word for a reply with no text: deliberate silence, no failure line.
    assert!(matches!(&parts[parts.len() - 2], ReplyPart::Chat { event: ChatEvent::Error { kind: ChatErrorKind::Empty, .. } }), "{parts:?}");
    assert_eq!(parts.last(), Some(&ReplyPart::End { usage: None }));
    assert!(!parts.iter().any(|p| matches!(p, ReplyPart::Error { .. })), "an empty reply says no failure line: {parts:?}");

    // A stop: the turn ends at once; the engine's cancelled confirms it.
    let slow = engine_with(5.0, Duration::from_secs(300)).await;
    let mut s = Wired::new(&slow.base_url(), LONG).await;
    s.turn("t6", "hello", Some("c"));
    s.until_chat("reasoning").await;
    s.send(Outbound::Stop { turn_ids: vec!["t6".into()] });
    assert!(matches!(s.until_end().await.last(), Some(ReplyPart::End { usage: None })));
    let confirmed = s.until(|i| match i {
        Inbound::StopConfirmed { turn_id, confirmed } => Some((turn_id, confirmed)),
        _ => None,
    });
    assert_eq!(confirmed.await, ("t6".to_string(), true));
    seen.push("cancelled");
    seen.sort_unstable();
    seen.dedup();
    let mut all = EVENT_TYPES.to_vec();
    all.sort_unstable();
    assert_eq!(seen, all);
    w.close().await;
    s.close().await;
}

#[tokio::test]
async fn deny_runs_the_tool_as_declined_and_the_tool_id_is_not_the_approvals() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock.base_url(), LONG).await;
    w.turn("t1", "please approve", Some("c"));
    let parts = w.until_chat("approval_request").await;
    let asked_call = chat_events(&parts).into_iter().find_map(|e| match e {
        ChatEvent::ApprovalRequest { call_id, .. } => Some(call_id),
        _ => None,
    });
    w.send(Outbound::Side(SideRequest::Approve { approval_id: approval_of(&parts), decision: ApprovalDecision::Deny }));
    let parts = w.until_end().await;
    let results: Vec<(String, bool, String)> = chat_events(&parts)
        .into_iter()
        .filter_map(|e| match e {
            ChatEvent::ToolResult { call_id, ok, output, .. } => Some((call_id, ok, output)),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 1);
    assert_eq!((results[0].1, results[0].2.as_str()), (true, DENIED_OUTPUT));
    assert_ne!(Some(results[0].0.clone()), asked_call, "the approval's call id is not the tool call's");
    let text: String = chat_events(&parts).into_iter().filter_map(|e| if let ChatEvent::Delta { text, .. } = e { Some(text) } else { None }).collect();
    assert_eq!(text, DENIED_REPLY);
    w.close().await;
}

#[tokio::test]
async fn side_requests_reach_the_engines_paths_and_answers() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock.base_url(), LONG).await;
    for id in ["t1", "t2"] {
        w.turn(id, "hello", Some("conv"));
        w.until_end().await;
    }
    // A fork the engine refuses (unknown chat) reports nothing; a good one its id.
    w.send(Outbound::Side(SideRequest::Fork { conversation_id: "nope".into(), index: 0, local_id: "local-bad".into() }));
    w.send(Outbound::Side(SideRequest::Fork { conversation_id: "conv".into(), index: 0, local_id: "local-1".into() }));
    let forked = w.until(|i| match i {
        Inbound::Forked { local_id, server_id } => Some((local_id, server_id)),
        _ => None,
    });
    assert_eq!(forked.await, ("local-1".to_string(), "conv-f1".to_string()));
    assert!(mock.requests().iter().any(|r| r.path == "/fork/nope/1"));
    assert_eq!(mock.conversation("conv-f1").unwrap().len(), 2, "user index 0 + 1: the exchange");

    w.turn("t3", "hello", Some("conv"));
    w.until_end().await;
    let mut t = turn("t4", "hello");
    (t.conversation_id, t.regenerate_of) = (Some("conv".into()), Some(4));
    w.send(Outbound::Turn(t));
    match chat_events(&w.until_end().await).pop() {
        Some(ChatEvent::End { user_index, assistant_index, versions, active, .. }) => {
            assert_eq!((user_index, assistant_index, versions, active), (Some(4), Some(5), Some(2), Some(1)))
        }
        other => panic!("{other:?}"),
    }
    w.send(Outbound::Side(SideRequest::PickVersion { conversation_id: "conv".into(), index: 4, n: 0 }));
    mock.wait_for_request("/version/conv/4/0", 0, WAIT).await.expect("POST /version");
    w.send(Outbound::Side(SideRequest::DeleteMessage { conversation_id: "conv".into(), index: 0 }));
    mock.wait_for_request("/messages/conv/0", 0, WAIT).await.expect("POST /messages");
    w.send(Outbound::Side(SideRequest::DeleteConversation { conversation_id: "conv-f1".into() }));
    let r = mock.wait_for_request("/chats/conv-f1", 0, WAIT).await.expect("DELETE /chats");
    assert_eq!(r.authorization.as_deref(), Some("Bearer k"));
    let mut done = false;
    for _ in 0..100 {
        let conv = mock.conversation("conv").unwrap();
        if conv.len() == 4 && mock.conversation("conv-f1").is_none() {
            assert_eq!(conv[3]["active"], 0, "version 0 picked before the delete");
            done = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(done, "{:?}", mock.conversation("conv"));
    w.close().await;
}

#[tokio::test]
async fn unsaved_exchanges_and_quoted_outputs_read_with_their_nulls() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock.base_url(), LONG).await;
    w.turn("t1", "an unsaved one", Some("c"));
    match chat_events(&w.until_end().await).pop() {
        Some(ChatEvent::End { user_index: None, assistant_index: None, versions: Some(1), active: Some(0), .. }) => {}
        other => panic!("{other:?}"),
    }
    w.turn("t2", "quoted output", Some("c"));
    let parts = w.until_end().await;
    let result = chat_events(&parts).into_iter().find(|e| e.kind() == "tool_result").unwrap();
    assert!(matches!(result, ChatEvent::ToolResult { ref output, seconds: None, .. } if output == "21:00"), "{result:?}");
    assert!(matches!(parts.last(), Some(ReplyPart::End { usage: Some(_) })));
    w.close().await;
}

// ---- The task against a fake that writes the engine's exact bytes ----

#[derive(Clone, Default)]
struct Fake {
    bodies: Arc<Mutex<Vec<Value>>>,
    streams: Arc<Mutex<Vec<Vec<String>>>>,
    cancels: Arc<Mutex<Vec<String>>>,
    /// What `/cancel/{run_id}` answers.
    cancel_status: u16,
}

async fn fake_chat(State(f): State<Fake>, axum::Json(body): axum::Json<Value>) -> Response {
    f.bodies.lock().unwrap().push(body);
    let chunks = f.streams.lock().unwrap().remove(0);
    // A `None` chunk keeps the stream open (the engine still working).
    let stream = futures_util::stream::iter(chunks.into_iter().map(Ok::<_, std::convert::Infallible>)).chain(futures_util::stream::pending());
    Response::builder().header("content-type", "text/event-stream").header("connection", "close").body(Body::from_stream(stream)).unwrap()
}

async fn fake_cancel(State(f): State<Fake>, axum::extract::Path(run_id): axum::extract::Path<String>) -> Response {
    f.cancels.lock().unwrap().push(run_id.clone());
    let status = axum::http::StatusCode::from_u16(f.cancel_status).unwrap();
    Response::builder().status(status).body(Body::from(json!({"ok": status.is_success(), "run_id": run_id}).to_string())).unwrap()
}

use futures_util::StreamExt as _;

async fn fake(streams: Vec<Vec<String>>, cancel_status: u16) -> (String, Fake) {
    let f = Fake { streams: Arc::new(Mutex::new(streams)), cancel_status, ..Fake::default() };
    let app = Router::new().route("/chat", post(fake_chat)).route("/cancel/{run_id}", post(fake_cancel)).with_state(f.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (base, f)
}

#[tokio::test]
async fn the_engines_exact_bytes_read_with_nulls_and_a_bad_event_is_skipped() {
    let m = "m_18c2f3a9b10";
    let bytes: String = [
        format!("event: start\ndata: {{\"msg_id\": \"{m}\", \"run_id\": \"\"}}\n\n"),
        format!("event: delta\ndata: {{\"msg_id\": \"{m}\", \"text\": \"Hello there. How\"}}\n\n"),
        "event: delta\ndata: not json\n\n".to_string(),
        format!("event: heartbeat\ndata: {{\"msg_id\": \"{m}\"}}\n\n"),
        format!("event: delta\ndata: {{\"msg_id\": \"{m}\", \"text\": \" are you? Fine\"}}\n\n"),
        format!("event: tool_drafting\ndata: {{\"msg_id\": \"{m}\", \"name\": \"shell\"}}\n\n"),
        format!("event: tool_call\ndata: {{\"msg_id\": \"{m}\", \"call_id\": \"c_1_shell\", \"name\": \"shell\", \"args\": {{\"cmd\": \"ls\"}}}}\n\n"),
        format!("event: tool_result\ndata: {{\"msg_id\": \"{m}\", \"call_id\": \"c_1_shell\", \"name\": \"shell\", \"ok\": false, \"output\": \"\\\"boom\\\"\", \"seconds\": null}}\n\n"),
        format!("event: usage\ndata: {{\"msg_id\": \"{m}\", \"chars\": 33, \"seconds\": 1.0, \"ttft\": null}}\n\n"),
        format!("event: end\ndata: {{\"msg_id\": \"{m}\", \"user_index\": null, \"assistant_index\": null, \"versions\": 1, \"active\": 0}}\n\n"),
    ]
    .concat();
    let second = vec![
        format!("event: start\ndata: {{\"msg_id\": \"m2\", \"run_id\": \"r\"}}\n\n"),
        "event: error\ndata: {\"msg_id\": \"m2\", \"kind\": \"empty\", \"message\": \"the engine produced no output\"}\n\n".to_string(),
    ];
    let (base, f) = fake(vec![vec![bytes], second], 200).await;
    let mut w = Wired::new(&format!("{base}/"), LONG).await;
    w.turn("t1", "how are you", Some("c1"));
    let parts = w.until_end().await;
    assert_eq!(spoken(&parts), ["Hello there.", "How are you?", "Fine"]);
    assert_eq!(parts.iter().filter(|p| matches!(p, ReplyPart::Alive { after_speech: false })).count(), 2, "2 skipped: {parts:?}");
    assert_eq!(chat_kinds(&parts), ["start", "delta", "delta", "tool_drafting", "tool_call", "tool_result", "usage", "end"]);
    let events = chat_events(&parts);
    assert_eq!(events[0], ChatEvent::Start { msg_id: m.into(), run_id: String::new() });
    assert!(matches!(&events[5], ChatEvent::ToolResult { output, seconds: None, ok: false, .. } if output == "boom"), "{:?}", events[5]);
    assert!(matches!(&events[7], ChatEvent::End { user_index: None, assistant_index: None, versions: Some(1), active: Some(0), .. }));
    assert_eq!(parts.last(), Some(&ReplyPart::End { usage: Some(Usage { input_tokens: 0, output_tokens: 9, total_tokens: 9 }) }));
    let body = f.bodies.lock().unwrap()[0].clone();
    let run_id = body["run_id"].as_str().expect("a run id").to_string();
    assert_eq!(
        body,
        json!({"prompt": "<client_context>\ntrigger: user message\n</client_context>\n\nhow are you", "chat_id": "c1", "session": "c1",
               "run_id": run_id, "regenerate_of": null, "tools": true, "attachments": []}),
        "the exact request"
    );
    w.turn("t2", "again", Some("c1"));
    let parts = w.until_end().await;
    assert_eq!(parts.last(), Some(&ReplyPart::End { usage: None }));
    assert!(!parts.iter().any(|p| matches!(p, ReplyPart::Error { .. })), "an empty reply ends quietly: {parts:?}");
    let bodies = f.bodies.lock().unwrap().clone();
    assert_ne!(bodies[0]["run_id"], bodies[1]["run_id"], "a fresh run id per run");
    w.close().await;
}

#[tokio::test]
async fn a_stop_the_engine_does_not_confirm_says_so() {
    let start = |run: &str| format!("event: start\ndata: {{\"msg_id\": \"m\", \"run_id\": \"{run}\"}}\n\n");
    // 404 from /cancel: not confirmed at once.
    let (base, f) = fake(vec![vec![start("x")]], 404).await;
    let mut w = Wired::new(&base, LONG).await;
    w.turn("t1", "hi", Some("c"));
    w.until_chat("start").await;
    w.send(Outbound::Stop { turn_ids: vec!["t1".into()] });
    assert_eq!(w.until_end().await, [ReplyPart::End { usage: None }], "the turn ends for the user at once");
    let c = w.until(|i| if let Inbound::StopConfirmed { turn_id, confirmed } = i { Some((turn_id, confirmed)) } else { None });
    assert_eq!(c.await, ("t1".to_string(), false));
    let sent = f.bodies.lock().unwrap()[0]["run_id"].as_str().unwrap().to_string();
    assert_eq!(*f.cancels.lock().unwrap(), [sent], "/cancel/<the run id the client made>");
    w.close().await;

    // /cancel answers 200 but no cancelled comes: not confirmed once the wait passes.
    let (base, _f) = fake(vec![vec![start("y")]], 200).await;
    let mut w = Wired::new(&base, Duration::from_millis(300)).await;
    w.turn("t2", "hi", Some("c"));
    w.until_chat("start").await;
    w.send(Outbound::Stop { turn_ids: vec!["t2".into()] });
    w.until_end().await;
    let c = w.until(|i| if let Inbound::StopConfirmed { turn_id, confirmed } = i { Some((turn_id, confirmed)) } else { None });
    assert_eq!(c.await, ("t2".to_string(), false));
    w.close().await;
}

#[tokio::test]
async fn an_answer_the_engine_no_longer_waits_for_is_reported() {
    let mock = engine_with(0.0, Duration::from_secs(300)).await;
    let mut w = Wired::new(&mock.base_url(), LONG).await;
    w.send(Outbound::Side(SideRequest::Approve { approval_id: "ap_gone".into(), decision: ApprovalDecision::Allow }));
    let gone = w.until(|i| if let Inbound::ApprovalGone { approval_id } = i { Some(approval_id) } else { None });
    assert_eq!(gone.await, "ap_gone");
    let _ = TOOL_OUTPUT;
    w.close().await;
}
