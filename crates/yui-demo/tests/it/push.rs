//! The demo agent over the push socket.

use crate::common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use yui_demo::{EMOTIONS, MOTIONS};

fn turn(id: &str, text: &str) -> Value {
    json!({ "type": "turn", "turn_id": id, "client_context": "<client_context>\ntrigger: user message\n</client_context>", "text": text })
}

fn is_end_of(id: &'static str) -> impl Fn(&Value) -> bool {
    move |f| f["type"] == "turn_end" && f["turn_id"] == id
}

fn speech_of(frames: &[Value]) -> Vec<String> {
    frames
        .iter()
        .filter(|f| f["type"] == "speech" || f["type"] == "render")
        .flat_map(|f| f["segments"].as_array().unwrap().iter())
        .map(|s| s["speech"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_greeting_turn_moves_every_part_of_the_ui() {
    let server = start().await;
    let (mut ws, _) = connect_ready(server.addr(), &["error"]).await;
    send(&mut ws, turn("1789365854947", "hello!")).await;
    let frames = frames_until(&mut ws, is_end_of("1789365854947")).await;
    let t = types(&frames);
    assert_eq!(
        t,
        ["reasoning", "reasoning", "reasoning", "tool_status", "delegations", "tool_status", "speech", "speech", "render", "turn_end"],
        "{frames:#?}"
    );
    assert!(frames.iter().filter(|f| f["type"] != "delegations").all(|f| f["turn_id"] == "1789365854947"));
    assert_eq!((frames[3]["state"].as_str(), frames[3]["tool_id"].as_str()), (Some("running"), Some("notes")));
    assert_eq!(frames[5]["state"], "done");
    // Speech frames carry one sentence each; the render closes with the rest and the whole reasoning.
    for f in &frames[6..8] {
        assert_eq!(f["segments"].as_array().unwrap().len(), 1);
    }
    let spoken = speech_of(&frames);
    assert_eq!(spoken[0], "Hi! I'm Yui.");
    assert!(spoken.iter().all(|s| !s.is_empty()));
    let reasoning: String = frames[..3].iter().map(|f| f["delta"].as_str().unwrap()).collect();
    assert_eq!(frames[8]["reasoning"].as_str().unwrap(), reasoning);
    for f in frames.iter().filter(|f| f["segments"].is_array()) {
        for cue in f["segments"].as_array().unwrap().iter().flat_map(|s| s["cues"].as_array().unwrap()) {
            assert!(EMOTIONS.contains(&cue["emotion_id"].as_str().unwrap()));
            assert!(MOTIONS.contains(&cue["motion_id"].as_str().unwrap()));
        }
    }
    assert_eq!(frames[6]["segments"][0]["cues"][0]["emotion_id"], "happy");
    let usage = &frames[9]["usage"];
    let (i, o, total) = (usage["input_tokens"].as_u64().unwrap(), usage["output_tokens"].as_u64().unwrap(), usage["total_tokens"].as_u64().unwrap());
    assert!(i > 0 && o > 0 && total == i + o, "{usage}");

    // The first turn's delegation finishes after the turn: done list, then a backend-minted render.
    let running = &frames[4]["items"][0];
    assert_eq!(running["state"], "running");
    assert!(running["id"].as_str().unwrap().starts_with("d-"));
    assert!(running["title"].as_str().unwrap().chars().count() <= 120);
    assert!(running["started_at"].as_u64().unwrap() > 1_600_000_000_000);
    let after = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(types(&after), ["delegations", "render", "turn_end"]);
    let done = &after[0]["items"][0];
    assert_eq!((done["state"].as_str(), done["status"].as_str()), (Some("done"), Some("ok")));
    assert!(done["ended_at"].as_u64().unwrap() >= running["started_at"].as_u64().unwrap());
    assert!(!done["summary"].as_str().unwrap().is_empty());
    let bg = after[1]["turn_id"].as_str().unwrap();
    assert!(bg.starts_with("bg-") && bg[3..].parse::<u64>().is_ok(), "{bg}");
    assert_eq!(after[2]["turn_id"], bg);
    assert!(speech_of(&after[1..2])[0].contains("Tidy up the notes"));
}

#[tokio::test]
async fn time_task_and_background_turns() {
    let server = start().await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, turn("10", "what time is it?")).await;
    let frames = frames_until(&mut ws, is_end_of("10")).await;
    let tool: Vec<_> = frames.iter().filter(|f| f["type"] == "tool_status").map(|f| f["tool_id"].as_str().unwrap()).collect();
    assert_eq!(tool, ["clock", "clock"]);
    let spoken = speech_of(&frames);
    assert!(spoken[0].starts_with("It's ") && spoken[0].len() == "It's 14:05.".len(), "{spoken:?}");
    assert_eq!(frames.iter().find(|f| f["type"] == "speech").unwrap()["segments"][0]["cues"][0]["emotion_id"], "surprised");
    frames_until(&mut ws, |f| f["type"] == "turn_end").await; // first-turn delegation report

    send(&mut ws, turn("11", "remind me to water the plants")).await;
    let frames = frames_until(&mut ws, is_end_of("11")).await;
    let list = frames.iter().find(|f| f["type"] == "delegations").expect("a task turn delegates");
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.last().unwrap()["title"], "remind me to water the plants");
    assert_eq!(items.last().unwrap()["state"], "running");
    assert!(speech_of(&frames)[0].contains("You said: \"remind me to water the plants\""));
    frames_until(&mut ws, |f| f["type"] == "turn_end").await;

    // Background turns alternate between a short remark and silence (turn_end alone).
    send(&mut ws, turn("12", "")).await;
    let remark = frames_until(&mut ws, is_end_of("12")).await;
    assert_eq!(speech_of(&remark).len(), 1);
    send(&mut ws, turn("13", "")).await;
    let silent = frames_until(&mut ws, is_end_of("13")).await;
    assert!(speech_of(&silent).is_empty() && !types(&silent).contains(&"delegations"));
}

#[tokio::test]
async fn fail_sends_an_error_frame_only_to_clients_that_accept_it() {
    let server = start().await;
    let (mut ws, _) = connect_ready(server.addr(), &["error"]).await;
    send(&mut ws, turn("5", "please fail")).await;
    let frames = frames_until(&mut ws, is_end_of("5")).await;
    let t = types(&frames);
    assert_eq!(&t[t.len() - 2..], ["error", "turn_end"]);
    assert_eq!(frames[t.len() - 2]["message"], "Provider returned 429: rate limit reached");
    assert!(!t.contains(&"render") && !t.contains(&"speech"));
    assert!(frames.iter().any(|f| f["type"] == "tool_status" && f["state"] == "failed"));

    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, turn("6", "please fail")).await;
    let frames = frames_until(&mut ws, is_end_of("6")).await;
    assert!(!types(&frames).contains(&"error"));
    assert!(speech_of(&frames)[0].starts_with("Sorry"));

    // accepts that is not a list of strings reads as absent.
    let mut ws = connect(server.addr()).await;
    send(&mut ws, json!({ "type": "hello", "key": "", "chat_id": "x", "accepts": ["error", 3] })).await;
    assert_eq!(frame(&mut ws).await["type"], "ready");
    send(&mut ws, turn("7", "fail")).await;
    assert!(!types(&frames_until(&mut ws, is_end_of("7")).await).contains(&"error"));
}

#[tokio::test]
async fn stop_ends_the_named_running_turn() {
    let server = start_with(0.5, None).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, turn("100", "tell me a story")).await;
    assert_eq!(frame(&mut ws).await["type"], "reasoning");
    send(&mut ws, json!({ "type": "stop", "turn_ids": ["99", "100"] })).await;
    let frames = frames_until(&mut ws, is_end_of("100")).await;
    assert!(!types(&frames).contains(&"render"), "{frames:?}");
    let rest = drain(&mut ws, Duration::from_millis(800)).await;
    assert!(rest.iter().all(|n| !matches!(n, Next::Frame(f) if f["turn_id"] == "100")), "{rest:?}");
}

#[tokio::test]
async fn a_newer_turn_takes_over_and_both_end() {
    let server = start_with(0.2, None).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, turn("200", "first")).await;
    send(&mut ws, turn("201", "second")).await;
    let frames = frames_until(&mut ws, is_end_of("200")).await;
    let ends: Vec<_> = frames.iter().filter(|f| f["type"] == "turn_end").map(|f| f["turn_id"].as_str().unwrap()).collect();
    assert_eq!(ends, ["201", "200"]);
    assert!(frames.iter().all(|f| f["type"] != "render" || f["turn_id"] == "201"));
    assert!(frames.iter().any(|f| f["type"] == "render" && f["turn_id"] == "201"));
}

#[tokio::test]
async fn reset_forgets_the_conversation_and_its_delegations() {
    let server = start_with(0.3, None).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, turn("300", "add a todo: buy milk")).await;
    frames_until(&mut ws, is_end_of("300")).await; // the delegation finishes ~0.9 s after this
    send(&mut ws, json!({ "type": "reset" })).await;
    assert_eq!(frame(&mut ws).await, json!({ "type": "delegations", "items": [] }));
    let rest = drain(&mut ws, Duration::from_millis(1500)).await;
    assert!(rest.is_empty(), "the reset delegation never reports: {rest:?}");
}

#[tokio::test]
async fn a_japanese_or_korean_turn_is_answered_and_reported_in_that_language() {
    let server = start().await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    let mut first = turn("400", "こんにちは");
    first["images"] = json!(["data:image/jpeg;base64,AAAA"]);
    send(&mut ws, first).await;
    let frames = frames_until(&mut ws, is_end_of("400")).await;
    assert_eq!(speech_of(&frames)[..2], ["画面、ちゃんと見えてるよ。", "こんにちは！ユイだよ。"]);
    let list = frames.iter().find(|f| f["type"] == "delegations").expect("the first turn delegates");
    assert_eq!(list["items"][0]["title"], "このチャットのメモを整理する");
    let after = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(speech_of(&after), ["ちょっと報告！「このチャットのメモを整理する」、終わったよ。", "全部問題なさそうだよ。"]);

    send(&mut ws, turn("401", "내일 회의 기억해 줘")).await;
    let frames = frames_until(&mut ws, is_end_of("401")).await;
    assert_eq!(speech_of(&frames)[0], "\"내일 회의 기억해 줘\"라고 했네요.");
    let after = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(speech_of(&after), ["잠깐 알려 드릴게요. \"내일 회의 기억해 줘\", 다 끝냈어요.", "다 괜찮아 보여요."]);
}
