//! The `agent_chat` engine of the mock on the real engine's wire: the
//! request body as sent, `event:` + `data:` with no type key and
//! `Connection: close`, approvals that block inside the tool with their own
//! id apart from the tool call's, `choice` semantics, cancels seen only
//! between chunks, one history per session, stored conversations with
//! versions, fork, exchange delete and conversation delete.

use crate::common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use yui_mock::agent_chat::{history_reply, DENIED_OUTPUT, DENIED_REPLY, EMPTY_MESSAGE, SCRIPT_REPLY, TOOL_OUTPUT};
use yui_mock::{MockConfig, MockServer, Mode};

fn read_events(body: &str) -> Vec<(String, Value)> {
    parse_sse(body)
        .into_iter()
        .map(|e| {
            let data: Value = serde_json::from_str(&e.data).expect("data is JSON");
            assert!(data.get("type").is_none(), "no type key: {data}");
            (e.event.expect("every event is named"), data)
        })
        .collect()
}

fn text(events: &[(String, Value)]) -> String {
    events.iter().filter(|(k, _)| k == "delta").map(|(_, e)| e["text"].as_str().unwrap()).collect()
}

fn end_of(events: &[(String, Value)]) -> Value {
    let (k, end) = events.last().unwrap();
    assert_eq!(k, "end", "{events:?}");
    json!([end["user_index"], end["assistant_index"], end["versions"], end["active"]])
}

fn body(prompt: &str, chat: &str, run_id: &str) -> Value {
    json!({"prompt": prompt, "chat_id": chat, "session": chat, "run_id": run_id, "regenerate_of": null, "tools": true, "attachments": []})
}

async fn start_with(approval_timeout: Duration, pace: f64) -> MockServer {
    MockServer::start(MockConfig { pace, approval_timeout, ..MockConfig::default() }).await.unwrap()
}

#[tokio::test]
async fn chat_streams_the_engines_bytes_in_order() {
    let server = start(Mode::Demo).await;
    let sent = body("hello", "c", "r-1");
    let resp = http_post(server.addr(), "/chat", &sent, None).await;
    assert_eq!(resp.status, 200);
    assert!(resp.header("content-type").unwrap().starts_with("text/event-stream"));
    assert_eq!(resp.header("connection"), Some("close"));
    assert!(resp.body.starts_with("event: start\ndata: {\"msg_id\": \"m_"), "python's json layout: {:?}", &resp.body[..60]);
    let events = read_events(&resp.body);
    let deltas = SCRIPT_REPLY.split_inclusive(' ').count();
    let mut expected = vec!["start", "reasoning"];
    expected.extend(std::iter::repeat_n("delta", deltas));
    expected.extend(["tool_drafting", "tool_call", "tool_result", "usage", "end"]);
    assert_eq!(kinds(&events), expected);
    assert_eq!(events[0].1["run_id"], "r-1", "start echoes the client's run id");
    let msg_id = events[0].1["msg_id"].clone();
    assert!(events.iter().all(|(_, e)| e["msg_id"] == msg_id), "one msg_id scopes the turn");
    assert_eq!(text(&events), SCRIPT_REPLY);
    let n = events.len();
    assert_eq!(events[n - 4].1["call_id"], events[n - 3].1["call_id"]);
    assert!(events[n - 3].1["seconds"].is_number());
    assert_eq!(end_of(&events), json!([0, 1, 1, 0]));
    let recorded = server.wait_for_request("/chat", 0, Duration::from_secs(1)).await.expect("recorded");
    assert_eq!(recorded.body, sent, "the exact body");

    let events = read_events(&http_post(server.addr(), "/chat", &body("again", "c", ""), None).await.body);
    assert_eq!(events[0].1["run_id"], "", "no run id sent: \"\"");
    assert_eq!(end_of(&events), json!([2, 3, 1, 0]));
    let stored = server.conversation("c").unwrap();
    assert_eq!(stored[0], json!({"role": "user", "content": "hello"}));
    assert_eq!(stored[3], json!({"role": "assistant", "content": SCRIPT_REPLY}));
    assert_eq!(http_bare(server.addr(), "POST", "/chat").await.0, 400, "no JSON body");
}

#[tokio::test]
async fn sessions_keep_their_own_history_and_chats_default_to_the_session() {
    let server = start(Mode::Demo).await;
    let addr = server.addr();
    let say = |b: Value| async move { text(&read_events(&http_post(addr, "/chat", &b, None).await.body)) };
    assert_eq!(say(body("history?", "a", "r1")).await, history_reply(0));
    assert_eq!(say(body("history?", "a", "r2")).await, history_reply(2));
    assert_eq!(say(body("history?", "b", "r3")).await, history_reply(0), "another session");
    assert_eq!(say(json!({"prompt": "history?", "session": "s"})).await, history_reply(0));
    assert_eq!(server.conversation("s").unwrap().len(), 2, "chat_id defaults to the session");
    assert_eq!((server.agent_history("a"), server.agent_history("b")), (4, 2));
    let answer = http_post(addr, "/reset", &json!({"session": "a"}), None).await;
    assert_eq!((answer.status, answer.body.as_str()), (200, r#"{"ok":true}"#));
    assert_eq!(server.agent_history("a"), 0);
}

#[tokio::test]
async fn regenerate_files_versions_under_the_user_index_and_version_picks_them() {
    let server = start(Mode::Demo).await;
    let addr = server.addr();
    let turn = |b: Value| async move { read_events(&http_post(addr, "/chat", &b, None).await.body) };
    turn(body("one", "a", "r1")).await;
    turn(body("two", "a", "r2")).await;
    let mut regen = body("two", "a", "r3");
    regen["regenerate_of"] = json!(2);
    assert_eq!(end_of(&turn(regen.clone()).await), json!([2, 3, 2, 1]));
    assert_eq!(end_of(&turn(regen).await), json!([2, 3, 3, 2]));
    let conv = server.conversation("a").unwrap();
    assert_eq!(conv.len(), 4, "no new exchange: {conv:?}");
    assert_eq!((conv[3]["versions"].as_array().unwrap().len(), conv[3]["active"].clone()), (3, json!(2)));
    // Out of range: a new exchange.
    let mut far = body("x", "a", "r4");
    far["regenerate_of"] = json!(9);
    assert_eq!(end_of(&turn(far).await), json!([4, 5, 1, 0]));

    assert_eq!(http_bare(addr, "POST", "/version/a/2/0").await, (200, json!({"ok": true, "active": 0, "count": 3, "content": SCRIPT_REPLY}).to_string()));
    assert_eq!(server.conversation("a").unwrap()[3]["active"], 0);
    for bad in ["/version/a/2/3", "/version/a/0/0", "/version/a/9/0", "/version/nope/0/0", "/version/a/x/0"] {
        assert_eq!(http_bare(addr, "POST", bad).await, (404, r#"{"ok":false,"error":"no such version"}"#.to_string()), "{bad}");
    }
    let (status, chat) = http_bare(addr, "GET", "/chats/a").await;
    let chat: Value = serde_json::from_str(&chat).unwrap();
    assert_eq!(status, 200);
    assert_eq!((chat["messages"][3]["version_count"].clone(), chat["messages"][3]["version_active"].clone()), (json!(3), json!(0)));
    assert!(chat["messages"][3].get("versions").is_none());
}

#[tokio::test]
async fn approve_blocks_inside_the_tool_then_the_tool_reports_under_its_own_id() {
    let server = start(Mode::Demo).await;
    let mut s = open_stream(server.addr(), "/chat", &body("please approve ls", "c", "r1")).await;
    assert_eq!(s.status, 200);
    let asked = s.until("approval_request").await;
    assert_eq!(kinds(&asked), ["start", "reasoning", "approval_request"]);
    let ask = asked[2].1.clone();
    assert_eq!((ask["name"].clone(), ask["args"].clone()), (json!("execute_command"), json!({"command": "ls"})));
    let aid = ask["approval_id"].as_str().unwrap().to_string();
    assert!(aid.starts_with("ap_"));
    assert!(s.next_within(Duration::from_millis(300)).await.is_err(), "the run waits");
    let unknown = http_post(server.addr(), "/approve/ap_nope", &json!({"choice": "allow"}), None).await;
    assert_eq!((unknown.status, unknown.body.as_str()), (404, r#"{"ok":false,"error":"no such pending approval"}"#));

    let resp = http_post(server.addr(), &format!("/approve/{aid}"), &json!({"choice": "allow"}), None).await;
    assert_eq!((resp.status, resp.body.as_str()), (200, r#"{"ok":true,"error":null}"#));
    let rest = s.rest().await;
    assert_eq!(kinds(&rest)[..3], ["tool_drafting", "tool_call", "tool_result"]);
    assert_ne!(rest[1].1["call_id"], ask["call_id"], "the tool call's id is not the approval's");
    assert_eq!(rest[1].1["call_id"], rest[2].1["call_id"]);
    assert_eq!(rest[1].1["args"], ask["args"]);
    assert_eq!((rest[2].1["ok"].clone(), rest[2].1["output"].clone()), (json!(true), json!(TOOL_OUTPUT)));
    assert_eq!(text(&rest), SCRIPT_REPLY);
    assert_eq!(end_of(&rest), json!([0, 1, 1, 0]));
    assert_eq!(http_post(server.addr(), &format!("/approve/{aid}"), &json!({"choice": "allow"}), None).await.status, 404, "answered");
}

#[tokio::test]
async fn a_missing_or_other_choice_denies_and_always_is_remembered() {
    let server = start_with(Duration::from_millis(300), 0.0).await;
    let addr = server.addr();
    for answer in [json!({}), json!({"choice": "yes please"}), json!({"choice": "deny"})] {
        let mut s = open_stream(addr, "/chat", &body("approve this", "c", "r")).await;
        let aid = s.until("approval_request").await[2].1["approval_id"].as_str().unwrap().to_string();
        assert_eq!(http_post(addr, &format!("/approve/{aid}"), &answer, None).await.status, 200);
        let rest = s.rest().await;
        assert_eq!((rest[2].1["ok"].clone(), rest[2].1["output"].clone()), (json!(true), json!(DENIED_OUTPUT)), "{answer}");
        assert_eq!(text(&rest), DENIED_REPLY);
    }
    // Nobody answers: the timeout denies.
    let mut s = open_stream(addr, "/chat", &body("approve again", "c", "r")).await;
    let aid = s.until("approval_request").await[2].1["approval_id"].as_str().unwrap().to_string();
    let rest = s.rest().await;
    assert_eq!(rest[2].1["output"], DENIED_OUTPUT);
    assert_eq!(http_post(addr, &format!("/approve/{aid}"), &json!({"choice": "allow"}), None).await.status, 404, "timed out: gone");
    // Always: this call runs, later ones are not asked.
    let mut s = open_stream(addr, "/chat", &body("approve it", "c", "r")).await;
    let aid = s.until("approval_request").await[2].1["approval_id"].as_str().unwrap().to_string();
    http_post(addr, &format!("/approve/{aid}"), &json!({"choice": "always"}), None).await;
    assert_eq!(s.rest().await[2].1["output"], TOOL_OUTPUT);
    let events = read_events(&http_post(addr, "/chat", &body("approve twice", "c", "r"), None).await.body);
    assert!(!kinds(&events).contains(&"approval_request"), "{events:?}");
    assert_eq!(events.iter().filter(|(k, _)| k == "tool_result").count(), 2);
}

#[tokio::test]
async fn approve_twice_asks_one_after_the_other() {
    let server = start(Mode::Demo).await;
    let addr = server.addr();
    let mut s = open_stream(addr, "/chat", &body("approve twice", "c", "r")).await;
    let first = s.until("approval_request").await[2].1.clone();
    assert!(s.next_within(Duration::from_millis(200)).await.is_err(), "the second is asked only after the first");
    http_post(addr, &format!("/approve/{}", first["approval_id"].as_str().unwrap()), &json!({"choice": "deny"}), None).await;
    let second = s.until("approval_request").await;
    assert_eq!(kinds(&second), ["approval_request"]);
    assert_eq!(second[0].1["args"], json!({"command": "pwd"}));
    http_post(addr, &format!("/approve/{}", second[0].1["approval_id"].as_str().unwrap()), &json!({"choice": "allow"}), None).await;
    let rest = s.rest().await;
    let outputs: Vec<Value> = rest.iter().filter(|(k, _)| k == "tool_result").map(|(_, e)| e["output"].clone()).collect();
    assert_eq!(outputs, [json!(DENIED_OUTPUT), json!(TOOL_OUTPUT)]);
    assert_eq!(text(&rest), SCRIPT_REPLY);
}

#[tokio::test]
async fn cancel_is_seen_between_chunks_never_during_an_approval_wait() {
    let server = start_with(Duration::from_secs(300), 5.0).await;
    let addr = server.addr();
    let mut s = open_stream(addr, "/chat", &body("hello", "c", "run-a")).await;
    s.until("reasoning").await;
    let other = http_bare(addr, "POST", "/cancel/run-other").await;
    assert_eq!(other, (404, r#"{"ok":false,"run_id":"run-other","error":"no such active run"}"#.to_string()));
    let resp = http_bare(addr, "POST", "/cancel/run-a").await;
    assert_eq!(resp, (200, r#"{"ok":true,"run_id":"run-a","error":null}"#.to_string()));
    let rest = s.rest().await;
    assert_eq!(kinds(&rest).last(), Some(&"cancelled"), "{rest:?}");
    assert_eq!(rest.last().unwrap().1["run_id"], "run-a");
    assert!(!kinds(&rest).contains(&"end") && !kinds(&rest).contains(&"usage"));
    assert!(server.conversation("c").is_none(), "not saved");
    assert_eq!(http_bare(addr, "POST", "/cancel/run-a").await.0, 404, "no longer live");

    // Waiting for an approval, the cancel waits for the next chunk.
    let fast = start(Mode::Demo).await;
    let mut s = open_stream(fast.addr(), "/chat", &body("please approve", "c", "run-b")).await;
    let aid = s.until("approval_request").await[2].1["approval_id"].as_str().unwrap().to_string();
    assert_eq!(http_bare(fast.addr(), "POST", "/cancel/run-b").await.0, 200);
    assert!(s.next_within(Duration::from_millis(300)).await.is_err(), "still blocked in the tool");
    http_post(fast.addr(), &format!("/approve/{aid}"), &json!({"choice": "deny"}), None).await;
    let rest = s.rest().await;
    assert_eq!(kinds(&rest), ["tool_drafting", "tool_call", "tool_result", "cancelled"], "the drained tool, then cancelled");
}

#[tokio::test]
async fn fail_empty_quoted_and_unsaved_show_the_engines_shapes() {
    let server = start(Mode::Demo).await;
    let addr = server.addr();
    let turn = |p: &'static str| async move { read_events(&http_post(addr, "/chat", &body(p, "c", "r"), None).await.body) };
    let events = turn("please fail").await;
    assert_eq!(kinds(&events), ["start", "reasoning", "error"]);
    assert_eq!(events[2].1["kind"], "internal");
    let events = turn("be empty").await;
    assert_eq!(kinds(&events), ["start", "error"]);
    assert_eq!((events[1].1["kind"].clone(), events[1].1["message"].clone()), (json!("empty"), json!(EMPTY_MESSAGE)));
    let events = turn("quoted").await;
    let result = &events.iter().find(|(k, _)| k == "tool_result").unwrap().1;
    assert_eq!((result["output"].clone(), result["seconds"].clone()), (json!("\"21:00\""), Value::Null));
    let events = read_events(&http_post(addr, "/chat", &body("unsaved", "u", "r"), None).await.body);
    assert_eq!(end_of(&events), json!([null, null, 1, 0]));
    assert!(server.conversation("u").is_none(), "nothing saved");
}

#[tokio::test]
async fn attachments_are_media_or_text_folded_into_the_prompt() {
    let server = start(Mode::Demo).await;
    let mut b = body("see attached", "c", "r");
    b["attachments"] = json!([{"name": "a.png", "url": "data:image/png;base64,AAAA"}, {"name": "n.txt", "text": "hello"}]);
    http_post(server.addr(), "/chat", &b, None).await;
    assert_eq!(server.media(), [vec!["data:image/png;base64,AAAA".to_string()]]);
    assert_eq!(server.conversation("c").unwrap()[0]["content"], "see attached\n\n--- attached: n.txt ---\nhello");
}

#[tokio::test]
async fn fork_exchange_delete_and_conversation_delete() {
    let server = start(Mode::Demo).await;
    let addr = server.addr();
    for m in ["one", "two", "three"] {
        http_post(addr, "/chat", &body(m, "c", "r"), None).await;
    }
    assert_eq!(http_bare(addr, "POST", "/fork/c/1").await, (200, r#"{"ok":true,"id":"c-f1"}"#.to_string()));
    assert_eq!(server.conversation("c-f1").unwrap().len(), 2);
    let (_, chat) = http_bare(addr, "GET", "/chats/c-f1").await;
    assert_eq!(serde_json::from_str::<Value>(&chat).unwrap()["title"], "one (fork)");
    assert_eq!(http_bare(addr, "POST", "/fork/nope/0").await, (404, r#"{"ok":false,"error":"no such conversation"}"#.to_string()));

    assert_eq!(http_bare(addr, "POST", "/messages/c/2").await, (200, r#"{"ok":true,"remaining":4}"#.to_string()));
    let contents: Vec<Value> = server.conversation("c").unwrap().iter().map(|m| m["content"].clone()).collect();
    assert_eq!(contents, [json!("one"), json!(SCRIPT_REPLY), json!("three"), json!(SCRIPT_REPLY)]);
    assert_eq!(http_bare(addr, "POST", "/messages/c/9").await, (404, r#"{"ok":false,"error":"no such message"}"#.to_string()));
    assert_eq!(http_bare(addr, "POST", "/messages/nope/0").await, (404, r#"{"ok":false,"error":"no such conversation"}"#.to_string()));
    assert_eq!(http_bare(addr, "DELETE", "/messages/c/0").await.0, 405, "DELETE serves /chats only");

    assert_eq!(http_bare(addr, "DELETE", "/chats/c").await, (200, r#"{"ok":true}"#.to_string()));
    assert!(server.conversation("c").is_none());
    assert_eq!(http_bare(addr, "GET", "/chats/c").await.0, 404);
    let (_, list) = http_bare(addr, "GET", "/chats").await;
    assert_eq!(serde_json::from_str::<Value>(&list).unwrap()["chats"], json!([{"id": "c-f1", "title": "one (fork)"}]));
}

#[tokio::test]
async fn every_endpoint_records_and_checks_the_key() {
    let server = MockServer::start(MockConfig { key: Some("sk-chat".into()), pace: 0.0, ..MockConfig::default() }).await.unwrap();
    let resp = http_post(server.addr(), "/chat", &body("hi", "c", "r"), Some("wrong")).await;
    assert_eq!(resp.status, 401);
    let resp = http_post(server.addr(), "/chat", &body("hi", "c", "r"), Some("sk-chat")).await;
    assert_eq!(resp.status, 200);
    assert_eq!(http_post(server.addr(), "/approve/ap_1", &json!({"choice": "allow"}), Some("wrong")).await.status, 401);
    assert_eq!(http_bare(server.addr(), "POST", "/cancel/r").await.0, 401);
    let seen: Vec<(String, Option<String>)> = server.requests().into_iter().map(|r| (r.path, r.authorization)).collect();
    assert_eq!(
        seen,
        [
            ("/chat".to_string(), Some("Bearer wrong".to_string())),
            ("/chat".to_string(), Some("Bearer sk-chat".to_string())),
            ("/approve/ap_1".to_string(), Some("Bearer wrong".to_string())),
            ("/cancel/r".to_string(), None),
        ]
    );
}
