//! The chat window's side of a live session: every transport's turn becomes
//! the eleven chat events, the conversation is kept in the data dir and read
//! back after a restart, a backend turn gets its own message, and
//! regenerate, versions, fork, delete and search work on the stored
//! conversation.

use crate::common;

use common::sse::{cc_call, cc_text, cc_wrap};
use common::*;
use yui_core::chat::{AnswerState, Role, ToolCardState};
use yui_core::transport::agent_chat::ChatEvent;
use yui_core::{ChatApi, CollectingSink, UiEvent, UserCommand};
use yui_mock::{HttpScript, StreamStep};

fn chat_kinds(sink: &CollectingSink, msg_id: &str) -> Vec<&'static str> {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::Chat { event } if event.msg_id() == msg_id => Some(event.kind()),
            _ => None,
        })
        .collect()
}

fn started(sink: &CollectingSink, n: usize) -> String {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::TurnStarted { turn_id, .. } => Some(turn_id),
            _ => None,
        })
        .nth(n)
        .expect("turn started")
}

async fn chat_end(sink: &CollectingSink, n: usize) {
    let count = |s: &CollectingSink| s.events().iter().filter(|e| matches!(e, UiEvent::Chat { event: ChatEvent::End { .. } })).count();
    sink.wait_for(WAIT, |_| count(sink) > n).await.expect("a chat end");
}

#[tokio::test]
async fn a_push_turn_is_a_chat_turn_and_the_conversation_survives_a_restart() {
    let mock = mock_demo(Some("k")).await;
    let (session, sink, dir) = ready_session(&mock).await;
    session.send(UserCommand::SendText { text: "hello there".into() }).unwrap();
    chat_end(&sink, 0).await;
    let turn = started(&sink, 0);
    let kinds = chat_kinds(&sink, &turn);
    assert_eq!(kinds.first(), Some(&"start"));
    assert!(kinds.contains(&"delta"), "{kinds:?}");
    assert_eq!(&kinds[kinds.len() - 2..], ["usage", "end"]);

    // A backend turn (proactive) gets a message of its own.
    let proactive = serde_json::json!({"type": "render", "turn_id": "b-1", "segments": [{"speech": "I finished sorting your files."}]});
    assert!(mock.push(proactive).await);
    assert!(mock.push(serde_json::json!({"type": "turn_end", "turn_id": "b-1"})).await);
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Chat { event: ChatEvent::End { msg_id, .. } } if msg_id == "b-1")).await.expect("b-1 ends");

    let c = session.conversation(None, None).unwrap();
    assert_eq!(c.title, "hello there");
    // The demo mock also reports on its own (another backend turn).
    let roles: Vec<Role> = c.messages.iter().map(|m| m.role).collect();
    assert_eq!(&roles[..2], [Role::User, Role::Assistant]);
    assert!(roles[2..].iter().all(|r| *r == Role::Assistant));
    assert!(!c.messages[1].shown_text().is_empty());
    let b1 = c.messages.iter().find(|m| m.id == "b-1").expect("the backend turn's message");
    assert_eq!(b1.shown_text(), "I finished sorting your files.");
    let usage = c.messages[1].answers[0].usage.clone().expect("a usage line");
    assert!(usage.chars > 0 && usage.latency.and_then(|l| l.request_sent_ms).is_some());
    session.close().await;

    // Read back after a restart; search finds it.
    let (again, _sink) = start(&mock.base_url(), "k", dir.path(), fast_timeouts());
    let list = again.conversations();
    assert_eq!(list.len(), 1);
    assert!(list[0].current && list[0].messages as usize == c.messages.len());
    let hits = again.search_chats("SORTING your");
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0].message_id, "b-1");
    assert!(again.search_chats("nothing like this").is_empty());
    // New chat starts another conversation; the old one stays listed.
    assert!(again.wait_ready(WAIT).await);
    again.send(UserCommand::Reset).unwrap();
    _sink.wait_for(WAIT, |e| matches!(e, UiEvent::Conversation { .. })).await.expect("the new conversation");
    assert_eq!(again.conversation(None, None).unwrap().messages.len(), 0);
    assert_eq!(again.conversations().len(), 2);
    again.close().await;
}

#[tokio::test]
async fn regenerate_versions_fork_and_delete_on_chat_completions() {
    let mock = mock_http(vec![cc_text("First answer."), cc_text("Second answer.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    session.send(UserCommand::SendText { text: "tell me a joke".into() }).unwrap();
    chat_end(&sink, 0).await;
    let msg = started(&sink, 0);
    session.wait_idle(WAIT).await;

    session.send(UserCommand::Regenerate { msg_id: msg.clone() }).unwrap();
    chat_end(&sink, 1).await;
    let remade = sink.events().into_iter().find_map(|e| match e {
        UiEvent::TurnStarted { remakes: Some(m), .. } => Some(m),
        _ => None,
    });
    assert_eq!(remade.as_deref(), Some(msg.as_str()), "the window is told the turn remakes the message");
    session.wait_idle(WAIT).await;
    let c = session.conversation(None, None).unwrap();
    assert_eq!(c.messages.len(), 2, "no second user row: {:?}", c.messages);
    let m = &c.messages[1];
    assert_eq!(m.id, msg);
    assert_eq!((m.answers.len(), m.active), (2, 1));
    assert_eq!(m.shown_text(), "Second answer.");
    // The second request sent the same question again.
    let bodies: Vec<String> = mock.requests().iter().map(|r| r.body.to_string()).collect();
    assert_eq!(bodies.len(), 2);
    assert!(bodies[1].contains("tell me a joke"));

    session.send(UserCommand::PickVersion { msg_id: msg.clone(), n: 0 }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Conversation { conversation } if conversation.messages[1].active == 0)).await.expect("version 1 shown");

    session.send(UserCommand::Fork { msg_id: format!("u{msg}") }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Conversation { conversation } if conversation.title.ends_with("(fork)"))).await.expect("the fork");
    let fork = session.conversation(None, None).unwrap();
    // A fork keeps whole exchanges (as the agent_chat engine does): the question and its answer.
    assert_eq!(fork.messages.len(), 2);
    assert_eq!(session.conversations().len(), 2);

    session.send(UserCommand::DeleteMessage { msg_id: format!("u{msg}") }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Conversation { conversation } if conversation.messages.is_empty())).await.expect("deleted");
    // The original conversation is untouched by the fork's delete.
    let original = session.conversations().into_iter().find(|c| !c.current).unwrap();
    assert_eq!(session.conversation(Some(&original.id), None).unwrap().messages.len(), 2);
    session.close().await;
}

#[tokio::test]
async fn a_stop_is_cancelled_only_and_an_empty_reply_shows_nothing() {
    // An empty reply is deliberate silence: no "No output" card.
    let mock = mock_http(vec![cc_text("")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    session.send(UserCommand::SendText { text: "say nothing".into() }).unwrap();
    chat_end(&sink, 0).await;
    let a = &session.conversation(None, None).unwrap().messages[1].answers[0];
    assert_eq!((a.state, a.text.as_str()), (AnswerState::Done, ""));
    assert!(a.error.is_none(), "{:?}", a.error);
    session.close().await;

    // A stop before any answer: `cancelled`, never also an error.
    let slow = mock_http(vec![HttpScript::Events(vec![StreamStep::Sleep(3000), StreamStep::Raw("data: [DONE]\n\n".into())])]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &slow.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    session.send(UserCommand::SendText { text: "wait".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Chat { event: ChatEvent::Start { .. } })).await.unwrap();
    session.send(UserCommand::Stop).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Chat { event: ChatEvent::Cancelled { .. } })).await.expect("cancelled");
    let kinds = chat_kinds(&sink, &started(&sink, 0));
    assert_eq!(kinds, ["start", "cancelled"]);
    let a = &session.conversation(None, None).unwrap().messages[1].answers[0];
    assert_eq!((a.state, a.error.is_none()), (AnswerState::Stopped, true));
    session.close().await;
}

#[tokio::test]
async fn client_tool_calls_are_tool_cards_with_their_output() {
    let steps = cc_call(0, "call_1", "look", &["{\"at\":", "\"body\"}"]);
    let mock = mock_http(vec![cc_wrap(steps, "tool_calls"), cc_text("Waved!")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    session.send(UserCommand::SendText { text: "wave".into() }).unwrap();
    chat_end(&sink, 0).await;
    let a = session.conversation(None, None).unwrap().messages[1].answers[0].clone();
    assert_eq!(a.tools.len(), 1, "{a:?}");
    assert_eq!(a.tools[0].name, "look");
    assert_eq!(a.tools[0].call_id, "call_1");
    assert_eq!(a.tools[0].state, ToolCardState::Done, "{:?}", a.tools[0]);
    assert!(!a.tools[0].output.is_empty());
    assert_eq!(a.tools[0].args["at"], "body");
    assert_eq!(a.text, "Waved!");
    session.close().await;
}

#[tokio::test]
async fn attachments_reach_the_model_by_kind_and_a_file_over_the_limit_sends_nothing() {
    use base64::Engine as _;
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let png = {
        let mut out = std::io::Cursor::new(Vec::new());
        image::RgbaImage::from_pixel(4, 4, image::Rgba([200, 30, 30, 255])).write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    };
    let att = |name: &str, mime: &str, bytes: &[u8]| yui_core::chat::Attachment { name: name.into(), mime: mime.into(), data_base64: b64(bytes) };
    let mock = mock_http(vec![cc_text("Got them.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |s| {
        s.user.chat.max_attachment_bytes = 64 * 1024;
    })
    .await;

    // Over the limit: a clear line, nothing sent, the session goes on.
    let big = vec![b'x'; 65 * 1024];
    session.send(UserCommand::SendMessage { text: "too big".into(), attachments: vec![att("big.txt", "text/plain", &big)] }).unwrap();
    let notice = sink.wait_for(WAIT, |e| matches!(e, UiEvent::Notice { .. })).await.expect("a notice");
    let UiEvent::Notice { message, .. } = notice else { unreachable!() };
    assert!(message.starts_with("big.txt is 66.6 kB; the limit is 65.5 kB"), "{message}");
    assert!(mock.requests().is_empty(), "nothing was sent");

    let files = vec![att("notes.txt", "text/plain", b"buy milk"), att("dot.png", "image/png", &png), att("d.pdf", "application/pdf", b"%PDF-1.4")];
    session.send(UserCommand::SendMessage { text: "look at these".into(), attachments: files }).unwrap();
    chat_end(&sink, 0).await;
    let body = mock.requests()[0].body.clone();
    let user = body["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "user").unwrap().clone();
    let parts = user["content"].as_array().expect("a part array");
    let text = parts[0]["text"].as_str().unwrap();
    assert!(text.contains("look at these") && text.contains("<file name=\"notes.txt\">\nbuy milk\n</file>"), "{text}");
    assert!(parts.iter().any(|p| p["type"] == "image_url"), "{parts:?}");
    assert!(parts.iter().any(|p| p["type"] == "file" && p["file"]["filename"] == "d.pdf"), "{parts:?}");
    // The conversation keeps the names and sizes, not the bytes.
    let c = session.conversation(None, None).unwrap();
    assert_eq!(c.messages[0].files, ["notes.txt · 8 B", format!("dot.png · {}", yui_core::chat::attach::size(png.len() as u64)).as_str(), "d.pdf · 8 B"]);
    session.close().await;
}

/// `[SILENT]` shows nothing in the chat on every request transport and on
/// push, while its cue still plays; a silent backend turn leaves no entry.
#[tokio::test]
async fn silence_shows_nothing_and_its_cues_still_play() {
    use common::sse::{r_call, r_wrap};
    use yui_mock::openai::{chat, responses as r};
    let cue = r#"{"emotion_id":"happy"}"#;
    let silent_cc =
        cc_wrap([vec![StreamStep::Data(chat::chunk_text("cc", "[SILENT]"))], cc_call(0, "call_1", "generate_express", &[cue])].concat(), "tool_calls");
    let silent_r = r_wrap("resp_1", [vec![StreamStep::Data(r::text_delta("msg_1", "[SILENT]"))], r_call(1, "call_1", "generate_express", &[cue])].concat());
    for (api, script) in [(ChatApi::ChatCompletions, silent_cc), (ChatApi::Responses, silent_r)] {
        let mock = mock_http(vec![script]).await;
        let dir = tempfile::tempdir().unwrap();
        let (session, sink) = request_session(api, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
        session.send(UserCommand::SendText { text: "say nothing".into() }).unwrap();
        chat_end(&sink, 0).await;
        let turn = started(&sink, 0);
        assert_eq!(chat_kinds(&sink, &turn), ["start", "usage", "end"], "{api:?}: {:#?}", sink.events());
        assert!(sink.events().iter().any(|e| matches!(e, UiEvent::Cue { cue, .. } if cue.emotion_id.as_deref() == Some("happy"))), "{api:?}: the cue plays");
        assert!(speeches(&sink).is_empty(), "{api:?}");
        let a = &session.conversation(None, None).unwrap().messages[1].answers[0];
        assert_eq!((a.text.as_str(), a.state, a.error.is_none()), ("", AnswerState::Done, true), "{api:?}");
        session.close().await;
    }

    // Push: a backend turn that renders `[SILENT]` with a cue leaves no entry.
    let mock = mock_demo(Some("k")).await;
    let (session, sink, _dir) = ready_session(&mock).await;
    let silent = serde_json::json!({"type": "render", "turn_id": "b-9", "segments": [{"cues": [{"emotion_id": "happy"}], "speech": "[SILENT]"}]});
    assert!(mock.push(silent).await);
    assert!(mock.push(serde_json::json!({"type": "turn_end", "turn_id": "b-9"})).await);
    let spoken = serde_json::json!({"type": "render", "turn_id": "b-10", "segments": [{"speech": "Back again."}]});
    assert!(mock.push(spoken).await);
    assert!(mock.push(serde_json::json!({"type": "turn_end", "turn_id": "b-10"})).await);
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Chat { event: ChatEvent::End { msg_id, .. } } if msg_id == "b-10")).await.expect("b-10 ends");
    assert!(chat_kinds(&sink, "b-9").is_empty(), "{:#?}", sink.events());
    let c = session.conversation(None, None).unwrap();
    assert!(c.messages.iter().all(|m| m.id != "b-9"), "no stray entry");
    assert!(c.messages.iter().any(|m| m.id == "b-10"));
    session.close().await;
}
