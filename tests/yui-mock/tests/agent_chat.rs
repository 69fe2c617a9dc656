//! The `agent_chat` endpoints of the mock: `/chat` streams the eleven-event
//! script, `/approve/{aid}` and `/cancel` are recorded.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use yui_mock::agent_chat::SCRIPT_REPLY;
use yui_mock::{MockConfig, MockServer, Mode};

fn read_events(body: &str) -> Vec<(String, Value)> {
    parse_sse(body)
        .into_iter()
        .map(|e| {
            let data: Value = serde_json::from_str(&e.data).expect("data is JSON");
            let name = e.event.expect("every event is named");
            assert_eq!(data["type"], name.as_str(), "the event name and the data type agree");
            (name, data)
        })
        .collect()
}

#[tokio::test]
async fn chat_streams_the_scripted_turn_in_order() {
    let server = start(Mode::Demo).await;
    let resp = http_post(server.addr(), "/chat", &json!({"message": "hello"}), None).await;
    assert_eq!(resp.status, 200);
    assert!(resp.header("content-type").unwrap().starts_with("text/event-stream"));
    let events = read_events(&resp.body);
    let kinds: Vec<&str> = events.iter().map(|(k, _)| k.as_str()).collect();
    let deltas = SCRIPT_REPLY.split_inclusive(' ').count();
    let mut expected = vec!["start", "reasoning"];
    expected.extend(std::iter::repeat_n("delta", deltas));
    expected.extend(["tool_drafting", "tool_call", "tool_result", "usage", "end"]);
    assert_eq!(kinds, expected);

    let msg_id = events[0].1["msg_id"].clone();
    assert!(events[0].1["run_id"].is_string());
    assert!(events.iter().all(|(_, e)| e["msg_id"] == msg_id), "one msg_id scopes the turn");
    let text: String = events.iter().filter(|(k, _)| k == "delta").map(|(_, e)| e["text"].as_str().unwrap()).collect();
    assert_eq!(text, SCRIPT_REPLY);
    let (call, result) = (&events[kinds.len() - 4].1, &events[kinds.len() - 3].1);
    assert_eq!(call["call_id"], result["call_id"]);
    assert_eq!(result["ok"], true);
    let end = &events.last().unwrap().1;
    assert_eq!((end["user_index"].clone(), end["assistant_index"].clone()), (json!(0), json!(1)));
    assert_eq!((end["versions"].clone(), end["active"].clone()), (json!(1), json!(0)));

    let recorded = server.wait_for_request("/chat", 0, Duration::from_secs(1)).await.expect("recorded");
    assert_eq!(recorded.body, json!({"message": "hello"}));

    // The second turn sits two messages later; a regenerate is a second version.
    let resp = http_post(server.addr(), "/chat", &json!({"message": "again", "regenerate_of": 1}), None).await;
    let end = read_events(&resp.body).pop().unwrap().1;
    assert_eq!((end["user_index"].clone(), end["assistant_index"].clone()), (json!(2), json!(3)));
    assert_eq!((end["versions"].clone(), end["active"].clone()), (json!(2), json!(1)));
    assert_ne!(end["msg_id"], msg_id);
}

#[tokio::test]
async fn approve_in_the_message_asks_and_approve_and_cancel_are_recorded() {
    let server = start(Mode::Demo).await;
    let resp = http_post(server.addr(), "/chat", &json!({"message": "please approve ls"}), None).await;
    let events = read_events(&resp.body);
    let kinds: Vec<&str> = events.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(&kinds[..6], ["start", "reasoning", "tool_drafting", "approval_request", "tool_call", "tool_result"]);
    assert_eq!(kinds.last(), Some(&"end"));
    let ask = &events[3].1;
    assert_eq!(ask["call_id"], events[4].1["call_id"]);
    assert_eq!(ask["name"], "execute_command");
    let aid = ask["approval_id"].as_str().unwrap().to_string();
    let run_id = events[0].1["run_id"].as_str().unwrap().to_string();

    let approve = json!({"decision": "always", "run_id": run_id});
    let resp = http_post(server.addr(), &format!("/approve/{aid}"), &approve, None).await;
    assert_eq!((resp.status, resp.body.as_str()), (200, r#"{"ok":true}"#));
    let resp = http_post(server.addr(), "/cancel", &json!({"run_id": run_id}), None).await;
    assert_eq!(resp.status, 200);

    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths, ["/chat".to_string(), format!("/approve/{aid}"), "/cancel".to_string()]);
    assert_eq!(server.requests()[1].body, approve);
}

#[tokio::test]
async fn chat_checks_the_key_and_records_first() {
    let server = MockServer::start(MockConfig { key: Some("sk-chat".into()), pace: 0.0, ..MockConfig::default() }).await.unwrap();
    let resp = http_post(server.addr(), "/chat", &json!({"message": "hi"}), Some("wrong")).await;
    assert_eq!(resp.status, 401);
    let resp = http_post(server.addr(), "/chat", &json!({"message": "hi"}), Some("sk-chat")).await;
    assert_eq!(resp.status, 200);
    let auth: Vec<Option<String>> = server.requests().into_iter().map(|r| r.authorization).collect();
    assert_eq!(auth, [Some("Bearer wrong".to_string()), Some("Bearer sk-chat".to_string())]);
}
