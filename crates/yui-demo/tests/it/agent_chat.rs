//! The demo's `agent_chat` engine as a client sees it: the PraisonAI desktop
//! engine's `POST /chat` body and stream, cancel, sessions, attachments and
//! the key check (approvals, versions, fork and delete:
//! `agent_chat_edits.rs`).

use crate::client;
use crate::common;

use client::*;
use common::{start, start_with};
use serde_json::json;

#[tokio::test]
async fn a_plain_turn_streams_start_to_end_in_the_engines_order() {
    let server = start().await;
    let body = chat("hello yui", "c1");
    let mut live = Live::open(server.addr(), body.clone(), None).await;
    assert_eq!(live.status, 200);
    assert!(live.content_type.starts_with("text/event-stream"), "{}", live.content_type);
    assert_eq!(live.connection, "close");
    let events = live.rest().await;
    let kinds = types(&events);
    assert_eq!(kinds[0], "start");
    assert_eq!(&kinds[kinds.len() - 2..], ["usage", "end"]);
    let middle: Vec<&str> = kinds[1..kinds.len() - 2].to_vec();
    let reasoning = middle.iter().take_while(|k| **k == "reasoning").count();
    assert!(reasoning >= 1 && middle[reasoning..].iter().all(|k| *k == "delta"), "{kinds:?}");
    assert!(middle.len() - reasoning >= 2, "a few deltas: {kinds:?}");
    let msg_id = events[0]["msg_id"].as_str().unwrap();
    assert!(msg_id.starts_with("m_"), "{msg_id}");
    assert!(events.iter().all(|e| e["msg_id"] == msg_id));
    assert_eq!(events[0]["run_id"], body["run_id"], "the client's run id");
    let reply = text(&events);
    assert!(reply.starts_with("Hi! I'm Yui."), "{reply}");
    let usage = &events[events.len() - 2];
    assert_eq!(usage["chars"].as_u64(), Some(reply.chars().count() as u64));
    assert!(usage["seconds"].as_f64().unwrap() >= usage["ttft"].as_f64().unwrap());
    let end = &events[events.len() - 1];
    assert_eq!((&end["user_index"], &end["assistant_index"], &end["versions"], &end["active"]), (&json!(0), &json!(1), &json!(1), &json!(0)));

    let second = turn(server.addr(), chat("I feel sad", "c1")).await;
    let end = second.last().unwrap();
    assert_eq!((&end["user_index"], &end["assistant_index"]), (&json!(2), &json!(3)));
    assert!(text(&second).starts_with("You said: \"I feel sad\"."));
    let (status, stored) = call(server.addr(), "GET", "/chats/c1", json!(null), None).await;
    assert_eq!(status, 200);
    assert_eq!(stored["id"], "c1");
    assert_eq!(stored["title"], "hello yui", "the first prompt, context skipped");
    let messages = stored["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(messages[3], json!({ "role": "assistant", "content": text(&second) }));

    // Neither chat_id nor run_id: the session's conversation, run_id "".
    let other = turn(server.addr(), json!({ "prompt": "hi", "session": "s9" })).await;
    assert_eq!(other[0]["run_id"], "", "no run id sent");
    assert_eq!(other.last().unwrap()["user_index"], 0, "another conversation");
    assert_eq!(call(server.addr(), "GET", "/chats/s9", json!(null), None).await.0, 200);
    let bare = turn(server.addr(), json!({})).await;
    assert_eq!(bare.last().unwrap()["type"], "end");
    let (_, list) = call(server.addr(), "GET", "/chats", json!(null), None).await;
    let ids: Vec<&str> = list["chats"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["default", "s9", "c1"], "newest first");
}

#[tokio::test]
async fn the_data_carries_no_type_and_bad_bodies_are_refused() {
    let server = start().await;
    let addr = server.addr();
    // `Live::next` asserts the data has no `type`; this reads the raw frame.
    let (status, _) = call_raw(addr, "POST", "/chat", "{not json", None).await;
    assert_eq!(status, 400);
    let (status, _) = call_raw(addr, "POST", "/chat", "[1]", None).await;
    assert_eq!(status, 400);
    let mut live = Live::open(addr, chat("hello", "raw"), None).await;
    let first = live.next().await.unwrap();
    assert_eq!(first["type"], "start");
    let mut keys: Vec<&str> = first.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["msg_id", "run_id", "type"], "type added by the test client");
    live.rest().await;
}

#[tokio::test]
async fn asking_the_time_runs_get_time_before_the_text() {
    let server = start().await;
    let events = turn(server.addr(), chat("what time is it?", "t")).await;
    let kinds = types(&events);
    let drafting = kinds.iter().position(|k| *k == "tool_drafting").expect("drafting");
    assert_eq!(&kinds[drafting..drafting + 4], ["tool_drafting", "tool_call", "tool_result", "delta"], "{kinds:?}");
    let (call, result) = (&events[drafting + 1], &events[drafting + 2]);
    assert_eq!((&events[drafting]["name"], &call["name"], &result["name"]), (&json!("get_time"), &json!("get_time"), &json!("get_time")));
    assert_eq!(call["call_id"], "c_1_get_time");
    assert_eq!(call["call_id"], result["call_id"]);
    assert!(call["args"].is_object());
    assert_eq!(result["ok"], true);
    assert!(result["seconds"].is_number());
    let now = result["output"].as_str().unwrap();
    assert!(text(&events).contains(&format!("It's {now}.")), "{}", text(&events));

    // With tools off, no tool runs (the reply still tells the time).
    let mut body = chat("what time is it?", "t");
    body["tools"] = json!(false);
    let events = turn(server.addr(), body).await;
    assert!(!types(&events).contains(&"tool_call"), "{:?}", types(&events));
    assert!(text(&events).contains("It's "));
}

#[tokio::test]
async fn a_failing_turn_ends_with_an_error_and_stores_nothing() {
    let server = start().await;
    let events = turn(server.addr(), chat("please fail", "f")).await;
    let last = events.last().unwrap();
    assert_eq!((&last["type"], &last["kind"]), (&json!("error"), &json!("rate_limit")));
    assert!(last["message"].as_str().is_some_and(|m| !m.is_empty()));
    let kinds = types(&events);
    assert!(!kinds.contains(&"end") && !kinds.contains(&"usage"), "{kinds:?}");
    assert_eq!(call(server.addr(), "GET", "/chats/f", json!(null), None).await, (404, json!({ "ok": false, "error": "no such conversation" })));
}

#[tokio::test]
async fn cancel_by_run_id_sends_cancelled_and_ends_the_stream() {
    let server = start().await;
    let addr = server.addr();
    let (mut live, events) = asking(addr, "x").await;
    let (msg_id, run_id) = (&events[0]["msg_id"], events[0]["run_id"].as_str().unwrap());
    let path = format!("/cancel/{run_id}");
    let (status, body) = call_raw(addr, "POST", &path, "", None).await;
    assert_eq!((status, body), (200, json!({ "ok": true, "run_id": run_id, "error": null })));
    let rest = live.rest().await;
    assert_eq!(rest, [json!({ "type": "cancelled", "msg_id": msg_id, "run_id": run_id })]);
    let (status, body) = call_raw(addr, "POST", &path, "", None).await;
    assert_eq!((status, body), (404, json!({ "ok": false, "run_id": run_id, "error": "no such active run" })), "no longer live");
    assert_eq!(call_raw(addr, "POST", "/cancel/nope", "", None).await.0, 404);
    assert_eq!(call(addr, "GET", "/chats/x", json!(null), None).await.0, 404, "a cancelled exchange is not stored");

    // A paced plain turn (~5 s at pace 5) is stopped mid-way too.
    let server = start_with(5.0, None).await;
    let mut live = Live::open(server.addr(), chat("hello", "x"), None).await;
    let start = live.until("start").await;
    let path = format!("/cancel/{}", start[0]["run_id"].as_str().unwrap());
    assert_eq!(call_raw(server.addr(), "POST", &path, "", None).await.0, 200);
    let rest = live.rest().await;
    assert_eq!(rest.last().unwrap()["type"], "cancelled", "{rest:?}");
    let kinds = types(&rest);
    assert!(!kinds.contains(&"end") && !kinds.contains(&"usage"), "{kinds:?}");
}

#[tokio::test]
async fn each_session_keeps_its_own_history() {
    let server = start().await;
    let addr = server.addr();
    let reasoning =
        |events: &[serde_json::Value]| -> String { events.iter().filter(|e| e["type"] == "reasoning").map(|e| e["text"].as_str().unwrap()).collect() };
    let first = turn(addr, chat("hello", "a")).await;
    assert!(!reasoning(&first).contains("Earlier"), "{}", reasoning(&first));
    let other = turn(addr, chat("I like tea", "b")).await;
    assert!(!reasoning(&other).contains("Earlier"), "{}", reasoning(&other));
    let again = turn(addr, chat("and you?", "a")).await;
    assert!(reasoning(&again).starts_with("Earlier in this session you said \"hello\"."), "{}", reasoning(&again));
    let b = turn(addr, chat("more", "b")).await;
    assert!(reasoning(&b).contains("\"I like tea\""), "{}", reasoning(&b));
    // POST /reset forgets one session's history.
    let (status, body) = call(addr, "POST", "/reset", json!({ "session": "a" }), None).await;
    assert_eq!((status, body), (200, json!({ "ok": true })));
    let fresh = turn(addr, chat("hi again", "a")).await;
    assert!(!reasoning(&fresh).contains("Earlier"), "{}", reasoning(&fresh));
    assert_eq!(fresh.last().unwrap()["user_index"], 4, "the stored conversation stays");
}

#[tokio::test]
async fn attachments_fold_text_into_the_prompt_and_take_five() {
    let server = start().await;
    let addr = server.addr();
    let mut body = chat("see attached", "att");
    body["attachments"] = json!([
        { "name": "notes.txt", "text": "buy milk" },
        { "name": "dot.png", "url": "data:image/png;base64,iVBORw0KGgo=" },
        { "name": "paper.pdf", "url": "data:application/pdf;base64,JVBERi0=" },
        { "name": "a.md", "text": "A" },
        { "name": "b.md", "text": "B" },
        { "name": "sixth.md", "text": "never" },
    ]);
    let events = turn(addr, body).await;
    let reasoning: String = events.iter().filter(|e| e["type"] == "reasoning").map(|e| e["text"].as_str().unwrap()).collect();
    assert!(reasoning.starts_with("Attached: notes.txt, dot.png, paper.pdf, a.md, b.md."), "{reasoning}");
    assert!(text(&events).contains("see attached"), "{}", text(&events));
    let (_, stored) = call(addr, "GET", "/chats/att", json!(null), None).await;
    let user = stored["messages"][0]["content"].as_str().unwrap();
    assert!(user.ends_with("see attached\n\n--- attached: notes.txt ---\nbuy milk\n\n--- attached: a.md ---\nA\n\n--- attached: b.md ---\nB"), "{user:?}");
    assert!(!user.contains("never") && !user.contains("base64"), "{user:?}");
}

#[tokio::test]
async fn every_route_checks_the_key() {
    let server = start_with(0.0, Some("k-1")).await;
    let addr = server.addr();
    let live = Live::open(addr, chat("hello", "k"), None).await;
    assert_eq!(live.status, 401);
    let wrong = Live::open(addr, chat("hello", "k"), Some("nope")).await;
    assert_eq!(wrong.status, 401);
    let mut live = Live::open(addr, chat("hello", "k"), Some("k-1")).await;
    assert_eq!(live.status, 200);
    assert_eq!(live.rest().await.last().unwrap()["type"], "end");
    for (method, path) in [
        ("POST", "/approve/ap_1"),
        ("POST", "/cancel/r"),
        ("POST", "/fork/k/1"),
        ("POST", "/version/k/0/0"),
        ("POST", "/messages/k/0"),
        ("DELETE", "/chats/k"),
        ("GET", "/chats"),
        ("GET", "/chats/k"),
        ("POST", "/reset"),
    ] {
        let (status, body) = call(addr, method, path, json!({ "choice": "allow" }), None).await;
        assert_eq!(status, 401, "{path}");
        assert_eq!(body["error"]["code"], "invalid_api_key");
    }
    assert_eq!(call(addr, "POST", "/fork/k/1", json!({}), Some("k-1")).await.0, 200);
}

#[tokio::test]
async fn replies_and_reasoning_follow_the_utterances_language() {
    let server = start().await;
    let addr = server.addr();
    let reasoning =
        |events: &[serde_json::Value]| -> String { events.iter().filter(|e| e["type"] == "reasoning").map(|e| e["text"].as_str().unwrap()).collect() };
    let first = turn(addr, chat("어떻게 사용하면 돼?", "ko")).await;
    assert!(text(&first).starts_with("\"어떻게 사용하면 돼?\"라고 했네요. 좋은 질문이에요!"), "{}", text(&first));
    assert!(reasoning(&first).starts_with("사용자가 \"어떻게 사용하면 돼?\"라고 썼어요."), "{}", reasoning(&first));
    let again = turn(addr, chat("使い方を教えて。", "ko")).await;
    assert_eq!(text(&again), "「使い方を教えて。」って言ったね。ただのデモだけど、ちゃんと聞いてるよ。");
    assert!(reasoning(&again).starts_with("このセッションの少し前に「어떻게 사용하면 돼?」って言ってたね。ユーザーは"), "{}", reasoning(&again));
}
