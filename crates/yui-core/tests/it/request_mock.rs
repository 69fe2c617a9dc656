//! Whole sessions (engine, driver, transport, card) over the two request
//! transports against yui-mock's scripted SSE endpoints: the exact JSON the
//! client sends, turn after turn, and the events the UI gets.

use crate::common;
use common::sse::*;
use common::*;
use serde_json::{json, Value};
use std::time::Duration;
use yui_core::card::{self, Names};
use yui_core::{ChatApi, CollectingSink, ErrorCode, TurnOutcome, UiEvent, Usage, UserCommand};
use yui_mock::openai::{chat, responses as r};
use yui_mock::{HttpScript, MockServer, RecordedRequest};

const EXPRESS: &str = "generate_express";
const HAPPY: &str = r#"{"emotion_id":"happy"}"#;

/// The default en card, assembled as the session does with default settings.
fn default_instructions() -> String {
    let names = Names { char_name: String::new(), user_name: None, lang: "en".into() };
    card::instructions(Some(&card::default_card("en")), &names, "")
}

fn post_history() -> String {
    let names = Names { char_name: String::new(), user_name: None, lang: "en".into() };
    card::post_history(&card::default_card("en"), &names).expect("the default card has post-history")
}

fn vocabulary_file() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/vocabulary.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

async fn req(mock: &MockServer, path: &str, nth: usize) -> RecordedRequest {
    mock.wait_for_request(path, nth, WAIT).await.unwrap_or_else(|| panic!("request {nth} to {path}"))
}

async fn say(session: &yui_core::Session, sink: &CollectingSink, n: usize, text: &str) -> UiEvent {
    session.send(UserCommand::SendText { text: text.into() }).unwrap();
    nth_ended(sink, n).await
}

/// Cue and Speech events of `turn_id`, as (kind, value).
fn beats(sink: &CollectingSink, turn_id: &str) -> Vec<(String, String)> {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::Cue { turn_id: t, cue } if t == turn_id => Some(("cue".into(), cue.emotion_id.unwrap_or_default())),
            UiEvent::Speech { turn_id: t, text } if t == turn_id => Some(("speech".into(), text)),
            _ => None,
        })
        .collect()
}

fn ended_id(e: &UiEvent) -> String {
    match e {
        UiEvent::TurnEnded { turn_id, .. } => turn_id.clone(),
        other => panic!("{other:?}"),
    }
}

fn complete(e: &UiEvent) -> bool {
    matches!(e, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. })
}

// 1. Responses: the first request's body, and the chain into the second.
#[tokio::test]
async fn responses_two_turns_send_the_card_the_context_and_chain_with_call_outputs() {
    let mut first = vec![data(r::text_delta("msg_1", "Hello!"))];
    first.extend(r_call(1, "call_a", EXPRESS, &[r#"{"emotion"#, r#"_id":"hap"#, r#"py"}"#]));
    let mock = mock_http(vec![r_wrap("resp_A", first), r_text("resp_B", "Fine.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::Responses, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;

    let end = say(&session, &sink, 0, "hello").await;
    assert!(complete(&end), "{end:?}");
    let one = req(&mock, "/v1/responses", 0).await.body;
    assert_eq!(one["model"], "m");
    assert_eq!(one["stream"], true);
    let instructions = one["instructions"].as_str().unwrap();
    assert_eq!(instructions, default_instructions());
    assert!(instructions.starts_with("You are Yui, a character who lives on User's desktop"), "{instructions}");
    assert!(instructions.contains("Personality: cheerful"), "{instructions}");
    assert!(one.get("previous_response_id").is_none());
    assert_eq!(one["tools"][0]["name"], EXPRESS);
    assert_eq!(one["tools"][0]["parameters"]["properties"]["emotion_id"]["enum"], vocabulary_file()["emotion_ids"]);
    let names: Vec<&str> = one["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, [EXPRESS, "rate_relation", "address_character", "look"], "exactly the tools that run");
    let input = one["input"].as_array().unwrap();
    assert_eq!(input.len(), 1, "a fresh chain with no greeting: only the user item: {input:?}");
    assert_eq!(input[0]["role"], "user");
    let text = input[0]["content"].as_str().unwrap();
    let lead = format!("<post_history_instructions>\n{}\n</post_history_instructions>\n<client_context>\n", post_history());
    assert!(post_history().starts_with("Keep every reply"));
    assert!(text.starts_with(&lead), "{text}");
    assert!(text.ends_with("\n\nhello"), "{text}");
    assert_eq!(text, format!("<post_history_instructions>\n{}\n</post_history_instructions>\n{}\n\nhello", post_history(), blocks(&sink)[0]));

    let end = say(&session, &sink, 1, "second").await;
    assert!(complete(&end), "{end:?}");
    let two = req(&mock, "/v1/responses", 1).await.body;
    assert_eq!(two["previous_response_id"], "resp_A");
    let input = two["input"].as_array().unwrap();
    assert_eq!(input.len(), 2, "{input:?}");
    assert_eq!(input[0], json!({"type": "function_call_output", "call_id": "call_a", "output": "ok"}));
    assert_eq!(input[1]["role"], "user");
    assert!(input[1]["content"].as_str().unwrap().ends_with("\n\nsecond"));
    assert_eq!(two["instructions"], one["instructions"]);
    assert_eq!(mock.requests().len(), 2, "generate_express alone after speech makes no follow-up");
    session.close().await;
}

// 2. Responses: a lost chain (404) starts afresh once; a reset sends the greeting.
#[tokio::test]
async fn responses_404_resets_the_chain_and_a_reset_carries_the_greeting() {
    let lost = HttpScript::Error { status: 404, body: json!({"error": {"message": "Previous response not found"}}) };
    let mock = mock_http(vec![r_text("resp_1", "One."), lost, r_text("resp_3", "Three."), r_text("resp_4", "Four.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::Responses, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    assert!(complete(&say(&session, &sink, 0, "hello").await));
    let end = say(&session, &sink, 1, "again").await;
    assert!(complete(&end), "the retried turn completes: {end:?}");
    let second = ended_id(&end);
    let two = req(&mock, "/v1/responses", 1).await.body;
    assert_eq!(two["previous_response_id"], "resp_1");
    let three = req(&mock, "/v1/responses", 2).await.body;
    assert!(three.get("previous_response_id").is_none(), "{three}");
    assert_eq!(three["input"].as_array().unwrap().len(), 1);
    assert_eq!(three["input"][0], two["input"].as_array().unwrap().last().unwrap().clone(), "the same user item again");
    assert!(sink.events().iter().any(|e| matches!(e, UiEvent::Notice { code: ErrorCode::ContextReset, .. })));
    assert_eq!(beats(&sink, &second), [("speech".to_string(), "Three.".to_string())]);
    assert!(!sink.events().iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));

    session.send(UserCommand::Reset).unwrap();
    let greeting =
        sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { turn_id, .. } if turn_id.starts_with("greeting-"))).await.expect("a greeting after the reset");
    let UiEvent::Speech { text: greeting, .. } = greeting else { unreachable!() };
    assert_eq!(greeting, "Hi, User! I'm Yui. I'll be right here on your desktop.");
    assert!(complete(&say(&session, &sink, 2, "after").await));
    let four = req(&mock, "/v1/responses", 3).await.body;
    assert!(four.get("previous_response_id").is_none(), "{four}");
    let input = four["input"].as_array().unwrap();
    assert_eq!(input.len(), 2, "{input:?}");
    assert_eq!(input[0], json!({"role": "assistant", "content": greeting}));
    assert_eq!(input[1]["role"], "user");
    assert!(input[1]["content"].as_str().unwrap().ends_with("\n\nafter"));
    session.close().await;
}

// 3. Chat Completions: the layout and the byte-identical prefix across turns.
#[tokio::test]
async fn chat_completions_layout_keeps_the_card_and_transcript_as_a_stable_prefix() {
    let mut first = vec![data(chat::chunk_text("cc", "Hello!"))];
    first.extend(cc_call(0, "call_a", EXPRESS, &[r#"{"emotion_id":"#, r#""happy"}"#]));
    let mock = mock_http(vec![cc_wrap(first, "tool_calls"), cc_text("Fine."), cc_text("Sure.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let path = "/v1/chat/completions";

    assert!(complete(&say(&session, &sink, 0, "hello").await));
    let one = req(&mock, path, 0).await.body;
    let block = blocks(&sink)[0].clone();
    let lines: Vec<&str> = block.lines().collect();
    let ctx = format!("client_context:\n{}", lines[1..lines.len() - 1].join("\n"));
    assert!(lines[1].starts_with("Client-injected context"), "{block}");
    let m1 = one["messages"].as_array().unwrap().clone();
    assert_eq!(
        m1,
        vec![
            json!({"role": "system", "content": default_instructions()}),
            json!({"role": "system", "content": post_history()}),
            json!({"role": "system", "content": ctx}),
            json!({"role": "user", "content": "hello"}),
        ]
    );
    assert_eq!(one["tools"][0]["function"]["name"], EXPRESS);
    let names: Vec<&str> = one["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(names, [EXPRESS, "rate_relation", "address_character", "look"], "exactly the tools that run");

    assert!(complete(&say(&session, &sink, 1, "second").await));
    let m2 = req(&mock, path, 1).await.body["messages"].as_array().unwrap().clone();
    assert_eq!(m2.len(), 7, "{m2:#?}");
    assert_eq!(m2[0], m1[0]);
    assert_eq!(m2[1], json!({"role": "user", "content": "hello"}));
    assert_eq!(
        m2[2],
        json!({"role": "assistant", "content": "Hello!", "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": EXPRESS, "arguments": r#"{"emotion_id":"happy"}"#}}]})
    );
    assert_eq!(m2[3], json!({"role": "tool", "tool_call_id": "call_a", "content": "ok"}));
    assert_eq!(m2[4], m1[1]);
    assert_eq!(m2[5]["role"], "system");
    assert!(m2[5]["content"].as_str().unwrap().starts_with("client_context:\n"));
    assert_eq!(m2[6], json!({"role": "user", "content": "second"}));

    assert!(complete(&say(&session, &sink, 2, "third").await));
    let m3 = req(&mock, path, 2).await.body["messages"].as_array().unwrap().clone();
    let bytes = |m: &[Value]| serde_json::to_string(m).unwrap();
    assert_eq!(bytes(&m3[..4]), bytes(&m2[..4]), "card + transcript: a byte-identical prefix");
    assert_eq!(m3[4], json!({"role": "user", "content": "second"}));
    assert_eq!(m3[5], json!({"role": "assistant", "content": "Fine."}));
    assert_eq!(m3.last().unwrap(), &json!({"role": "user", "content": "third"}));
    let file = dir.path().join("transcripts").join("default.jsonl");
    yui_core::persist::Writer::global().flush();
    let text = std::fs::read_to_string(&file).expect("the transcript file");
    assert_eq!(text.lines().count(), 7, "{text}");
    session.close().await;
}

// 4. Chat Completions: a small window trims the oldest turns, never leading with a tool message.
#[tokio::test]
async fn chat_completions_trims_to_a_small_window_without_leading_tool_messages() {
    let long = "That is a lovely thing to hear, and I am glad you told me about it today. ".repeat(4);
    let mut reply = vec![data(chat::chunk_text("cc", long.trim_end()))];
    reply.extend(cc_call(0, "call_$n", EXPRESS, &[HAPPY]));
    let mock = mock_http(vec![cc_wrap(reply, "tool_calls")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |s| s.character.context_window = 1200).await;
    let turns = 10;
    for n in 0..turns {
        let end = say(&session, &sink, n, &format!("message {n}: here is a fairly long line of user text to fill the window up")).await;
        assert!(complete(&end), "{end:?}");
    }
    let all = mock.requests();
    assert_eq!(all.len(), turns);
    let mut trimmed = false;
    for (n, r) in all.iter().enumerate() {
        let m = r.body["messages"].as_array().unwrap();
        assert_eq!(m[0]["role"], "system");
        assert_ne!(m[1]["role"], "tool", "request {n} starts its transcript with a tool message: {m:#?}");
        if n > 0 && m[1]["role"] == "user" {
            assert!(m[1]["content"].as_str().unwrap().starts_with("message "), "{m:#?}");
        }
        let tail = &m[m.len() - 3..];
        assert_eq!(tail[2], json!({"role": "user", "content": format!("message {n}: here is a fairly long line of user text to fill the window up")}));
        // Every tool message answers a call of the assistant message before it.
        for (i, msg) in m.iter().enumerate() {
            if msg["role"] == "tool" {
                let prev = &m[i - 1];
                assert!(prev["role"] == "assistant" || prev["role"] == "tool", "an orphan tool message in request {n}: {m:#?}");
            }
        }
        let first_user = m.iter().find(|x| x["role"] == "user").unwrap();
        if first_user["content"].as_str().unwrap().starts_with(&format!("message {n}:")) && n > 0 {
            // Nothing of the transcript fit (the whole of it was trimmed).
            trimmed = true;
        }
        if n > 0 && !m.iter().any(|x| x["content"].as_str().is_some_and(|c| c.starts_with("message 0:"))) {
            trimmed = true;
        }
    }
    assert!(trimmed, "the oldest entries leave the request");
    let last = all.last().unwrap().body["messages"].as_array().unwrap().clone();
    assert!(!last.iter().any(|x| x["content"].as_str().is_some_and(|c| c.starts_with("message 0:"))), "{last:#?}");
    assert!(
        last.iter().any(|x| x["content"].as_str().is_some_and(|c| c.starts_with(&format!("message {}:", turns - 2)))),
        "the newest history stays: {last:#?}"
    );
    session.close().await;
}

// 5. Cue placement through the whole stack.
async fn cue_placement(api: ChatApi, script: HttpScript) {
    let mock = mock_http(vec![script]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(api, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let end = say(&session, &sink, 0, "hi").await;
    assert!(complete(&end), "{end:?}");
    assert!(session.wait_idle(Duration::from_secs(10)).await, "everything played");
    let expect = [("cue", "happy"), ("speech", "Hello User!"), ("cue", "curious"), ("speech", "How was your day?")];
    let expect: Vec<(String, String)> = expect.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(beats(&sink, &ended_id(&end)), expect, "{:#?}", sink.events());
    session.close().await;
}

#[tokio::test]
async fn chat_completions_cues_render_before_the_text_they_follow() {
    let mut steps = vec![data(chat::chunk_text("cc", "Hello "))];
    steps.push(data(chat::chunk_text("cc", "User!")));
    steps.extend(cc_call(0, "call_1", EXPRESS, &[r#"{"emo"#, r#"tion_id":"ha"#, r#"ppy"}"#]));
    steps.push(data(chat::chunk_text("cc", " How was your day?")));
    steps.extend(cc_call(1, "call_2", EXPRESS, &[r#"{"emotion_id":"curious"}"#]));
    cue_placement(ChatApi::ChatCompletions, cc_wrap(steps, "tool_calls")).await;
}

#[tokio::test]
async fn responses_cues_render_before_the_text_they_follow() {
    let mut steps = vec![data(r::text_delta("msg_1", "Hello ")), data(r::text_delta("msg_1", "User!"))];
    steps.extend(r_call(1, "call_1", EXPRESS, &[r#"{"emo"#, r#"tion_id":"ha"#, r#"ppy"}"#]));
    steps.push(data(r::at(r::text_delta("msg_2", " How was your day?"), 2)));
    steps.extend(r_call(3, "call_2", EXPRESS, &[r#"{"emotion_id":"#, r#""curious"}"#]));
    cue_placement(ChatApi::Responses, r_wrap("resp_1", steps)).await;
}

// 6. Reasoning deltas and usage.
fn reasoning(sink: &CollectingSink) -> Vec<String> {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::Reasoning { delta, .. } => Some(delta),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn chat_completions_reasoning_streams_and_usage_reaches_turn_ended() {
    let steps = vec![
        data(chat::chunk_reasoning("cc", "reasoning_content", "Let me ")),
        data(chat::chunk_reasoning("cc", "reasoning_content", "think.")),
        data(chat::chunk_text("cc", "Done.")),
        data(chat::chunk_finish("cc", "stop")),
        data(chat::chunk_usage("cc", 11, 7, 18)),
        yui_mock::StreamStep::Raw("data: [DONE]\n\n".into()),
    ];
    let mock = mock_http(vec![HttpScript::Events(steps)]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let end = say(&session, &sink, 0, "hi").await;
    let body = req(&mock, "/v1/chat/completions", 0).await.body;
    assert_eq!(body["stream_options"], json!({"include_usage": true}));
    assert_eq!(reasoning(&sink), ["Let me ", "think."]);
    match end {
        UiEvent::TurnEnded { outcome: TurnOutcome::Complete, usage, .. } => {
            assert_eq!(usage, Some(Usage { input_tokens: 11, output_tokens: 7, total_tokens: 18 }))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(speeches(&sink), ["Done."]);
    session.close().await;
}

#[tokio::test]
async fn responses_reasoning_summary_streams_and_usage_reaches_turn_ended() {
    let steps = vec![
        data(r::created("resp_1")),
        data(r::item_added(0, r::reasoning_item("rs_1", None))),
        data(r::reasoning_summary_part_added("rs_1")),
        data(r::reasoning_summary_delta("rs_1", "Let me ")),
        data(r::reasoning_summary_delta("rs_1", "think.")),
        data(r::reasoning_summary_done("rs_1", "Let me think.")),
        data(r::at(r::text_delta("msg_1", "Done."), 1)),
        data(r::completed("resp_1", json!([]), r::usage(20, 9, 3))),
    ];
    let mock = mock_http(vec![HttpScript::Events(steps)]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::Responses, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let end = say(&session, &sink, 0, "hi").await;
    assert_eq!(reasoning(&sink), ["Let me ", "think."]);
    match end {
        UiEvent::TurnEnded { outcome: TurnOutcome::Complete, usage, .. } => {
            assert_eq!(usage, Some(Usage { input_tokens: 20, output_tokens: 9, total_tokens: 29 }))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(speeches(&sink), ["Done."]);
    session.close().await;
}

// 7. A client tool round trip, and the round-trip cap.
#[tokio::test]
async fn chat_completions_address_character_round_trip_and_cap() {
    let call = cc_wrap(cc_call(0, "call_x", "address_character", &[r#"{"character":"#, r#""Mio"}"#]), "tool_calls");
    let mock = mock_http(vec![call.clone(), cc_text("Nobody else is here.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let end = say(&session, &sink, 0, "talk to Mio").await;
    assert!(complete(&end), "{end:?}");
    let two = req(&mock, "/v1/chat/completions", 1).await.body;
    let m = two["messages"].as_array().unwrap();
    let n = m.len();
    assert_eq!(m[n - 2]["role"], "assistant");
    assert_eq!(m[n - 2]["tool_calls"][0]["function"]["name"], "address_character");
    assert_eq!(m[n - 1], json!({"role": "tool", "tool_call_id": "call_x", "content": "error: invalid field character"}));
    assert_eq!(speeches(&sink), ["Nobody else is here."]);
    assert_eq!(mock.requests().len(), 2);
    session.close().await;

    // A server that always calls it: exactly three requests in the turn.
    let always = mock_http(vec![cc_wrap(cc_call(0, "call_$n", "address_character", &[r#"{"character":"Mio"}"#]), "tool_calls")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::ChatCompletions, &always.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let end = say(&session, &sink, 0, "talk to Mio").await;
    assert!(matches!(end, UiEvent::TurnEnded { .. }));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(always.requests().len(), 3, "MAX_ROUND_TRIPS requests, no more");
    session.close().await;
}

#[tokio::test]
async fn responses_address_character_round_trip_and_cap() {
    let call = r_wrap("resp_$n", r_call(0, "call_x", "address_character", &[r#"{"character":"#, r#""Mio"}"#]));
    let mock = mock_http(vec![call, r_text("resp_2", "Nobody else is here.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::Responses, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let end = say(&session, &sink, 0, "talk to Mio").await;
    assert!(complete(&end), "{end:?}");
    let two = req(&mock, "/v1/responses", 1).await.body;
    assert_eq!(two["previous_response_id"], "resp_1");
    assert_eq!(two["input"], json!([{"type": "function_call_output", "call_id": "call_x", "output": "error: invalid field character"}]));
    assert_eq!(speeches(&sink), ["Nobody else is here."]);
    session.close().await;

    let always = mock_http(vec![r_wrap("resp_$n", r_call(0, "call_$n", "address_character", &[r#"{"character":"Mio"}"#]))]).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(ChatApi::Responses, &always.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
    let end = say(&session, &sink, 0, "talk to Mio").await;
    assert!(matches!(end, UiEvent::TurnEnded { .. }));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(always.requests().len(), 3, "MAX_ROUND_TRIPS requests, no more");
    session.close().await;
}

// 8. Help: the settings' Help section, the tray's Help and `/help` send it.
#[tokio::test]
async fn a_help_request_is_an_ordinary_user_turn_in_the_ui_language_whose_block_carries_its_guide() {
    use yui_core::context::{guide_text, GuideKey, GuideLanguage, CAPABILITIES_GUIDE, GUIDE_INSTRUCTION};
    use yui_core::HelpGuide;
    let japanese = guide_text(GuideKey::Controls, GuideLanguage::Ja).unwrap();
    assert!(japanese.starts_with("# 操作ガイド"));
    for (language, guide, asked, text) in
        [("ja", HelpGuide::Controls, "使い方を教えて。", japanese), ("en", HelpGuide::Capabilities, "What can you do?", CAPABILITIES_GUIDE)]
    {
        let mock = mock_http(vec![cc_text("Type below me and press Enter.")]).await;
        let dir = tempfile::tempdir().unwrap();
        let (session, sink) =
            request_session(ChatApi::ChatCompletions, &mock.base_url(), dir.path(), fast_timeouts(), |s| s.user.language = language.into()).await;
        session.send(UserCommand::AskHelp { guide }).unwrap();
        assert!(complete(&ended(&sink).await));
        let started = sink.events().into_iter().find_map(|e| match e {
            UiEvent::TurnStarted { text, .. } => Some(text),
            _ => None,
        });
        assert_eq!(started.as_deref(), Some(asked), "the user's row is the short request");
        let body = req(&mock, "/v1/chat/completions", 0).await.body.to_string();
        let block = serde_json::to_string(&format!("guide:\n{GUIDE_INSTRUCTION}\n\n{}", text.trim_end())).unwrap();
        assert!(body.contains(block.trim_matches('"')), "the block carries the guide ({language}): {body}");
        assert!(body.contains("trigger: user message"), "an ordinary user turn: {body}");
        assert!(body.contains(asked), "the user's message is the request: {body}");
        assert_eq!(speeches(&sink), ["Type below me and press Enter."], "her answer");
        session.close().await;
    }
}
