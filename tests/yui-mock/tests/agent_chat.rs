//! The `agent_chat` engine of the mock: `/chat` streams the eleven events,
//! approvals make the run wait, `/cancel` stops it, conversations keep real
//! indices and versions, and fork / version / delete answer; every request
//! is recorded.

mod common;

use std::time::Duration;

use common::*;
use serde_json::{json, Value};
use yui_mock::agent_chat::{DENIED_OUTPUT, DENIED_REPLY, SCRIPT_REPLY, TIMED_OUT_OUTPUT};
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

fn text(events: &[(String, Value)]) -> String {
    events.iter().filter(|(k, _)| k == "delta").map(|(_, e)| e["text"].as_str().unwrap()).collect()
}

fn end_of(events: &[(String, Value)]) -> (Value, Value, Value, Value) {
    let (k, end) = events.last().unwrap();
    assert_eq!(k, "end", "{events:?}");
    (end["user_index"].clone(), end["assistant_index"].clone(), end["versions"].clone(), end["active"].clone())
}

async fn start_with(approval_timeout: Duration) -> MockServer {
    MockServer::start(MockConfig { pace: 0.0, approval_timeout, ..MockConfig::default() }).await.unwrap()
}

#[tokio::test]
async fn chat_streams_the_scripted_turn_in_order() {
    let server = start(Mode::Demo).await;
    let resp = http_post(server.addr(), "/chat", &json!({"message": "hello"}), None).await;
    assert_eq!(resp.status, 200);
    assert!(resp.header("content-type").unwrap().starts_with("text/event-stream"));
    let events = read_events(&resp.body);
    let deltas = SCRIPT_REPLY.split_inclusive(' ').count();
    let mut expected = vec!["start", "reasoning"];
    expected.extend(std::iter::repeat_n("delta", deltas));
    expected.extend(["tool_drafting", "tool_call", "tool_result", "usage", "end"]);
    assert_eq!(kinds(&events), expected);

    let msg_id = events[0].1["msg_id"].clone();
    assert!(events[0].1["run_id"].is_string());
    assert!(events.iter().all(|(_, e)| e["msg_id"] == msg_id), "one msg_id scopes the turn");
    assert_eq!(text(&events), SCRIPT_REPLY);
    let n = events.len();
    let (call, result) = (&events[n - 4].1, &events[n - 3].1);
    assert_eq!(call["call_id"], result["call_id"]);
    assert_eq!(result["ok"], true);
    assert_eq!(end_of(&events), (json!(0), json!(1), json!(1), json!(0)));

    let recorded = server.wait_for_request("/chat", 0, Duration::from_secs(1)).await.expect("recorded");
    assert_eq!(recorded.body, json!({"message": "hello"}));

    // The second turn sits two messages later.
    let resp = http_post(server.addr(), "/chat", &json!({"message": "again"}), None).await;
    let events = read_events(&resp.body);
    assert_eq!(end_of(&events), (json!(2), json!(3), json!(1), json!(0)));
    assert_ne!(events[0].1["msg_id"], msg_id);
}

#[tokio::test]
async fn conversations_keep_their_own_indices_and_regenerate_files_versions() {
    let server = start(Mode::Demo).await;
    let turn = |body: Value| {
        let addr = server.addr();
        async move { read_events(&http_post(addr, "/chat", &body, None).await.body) }
    };
    assert_eq!(end_of(&turn(json!({"message": "one", "conversation_id": "a"})).await).0, json!(0));
    assert_eq!(end_of(&turn(json!({"message": "two", "conversation_id": "a"})).await).0, json!(2));
    assert_eq!(end_of(&turn(json!({"message": "one", "conversation_id": "b"})).await).0, json!(0), "per conversation");

    let events = turn(json!({"message": "two", "conversation_id": "a", "regenerate_of": 3})).await;
    assert_eq!(end_of(&events), (json!(2), json!(3), json!(2), json!(1)));
    let events = turn(json!({"message": "two", "conversation_id": "a", "regenerate_of": 3})).await;
    assert_eq!(end_of(&events), (json!(2), json!(3), json!(3), json!(2)));
    let conv = server.conversation("a").unwrap();
    assert_eq!(conv.len(), 4, "the user message is not duplicated: {conv:?}");
    assert_eq!(conv[3]["versions"].as_array().unwrap().len(), 3);
    assert_eq!(conv[3]["text"], SCRIPT_REPLY);

    // A regenerate of something that is no answer fails the turn.
    let events = turn(json!({"message": "x", "conversation_id": "a", "regenerate_of": 2})).await;
    assert_eq!(kinds(&events), ["start", "error"]);
    assert_eq!(events[1].1["kind"], "internal");
    assert_eq!(server.conversation("a").unwrap().len(), 4);
    // Without conversation_id: the default conversation.
    turn(json!({"message": "hi"})).await;
    assert_eq!(server.conversation(yui_mock::agent_chat::DEFAULT_CONVERSATION).unwrap().len(), 2);
}

#[tokio::test]
async fn approve_waits_for_the_answer_then_runs_the_tool() {
    let server = start(Mode::Demo).await;
    let mut s = open_stream(server.addr(), "/chat", &json!({"message": "please approve ls"})).await;
    assert_eq!(s.status, 200);
    let asked = s.until("approval_request").await;
    assert_eq!(kinds(&asked), ["start", "reasoning", "tool_drafting", "approval_request"]);
    let run_id = asked[0].1["run_id"].as_str().unwrap().to_string();
    let ask = &asked[3].1;
    assert_eq!(ask["name"], "execute_command");
    let aid = ask["approval_id"].as_str().unwrap().to_string();
    assert!(s.next_within(Duration::from_millis(300)).await.is_err(), "the run waits");

    // A wrong run id, an unknown approval and a bad decision do not release it.
    let wrong = http_post(server.addr(), &format!("/approve/{aid}"), &json!({"decision": "allow", "run_id": "run-x"}), None).await;
    assert_eq!(wrong.status, 409);
    let unknown = http_post(server.addr(), "/approve/apr-nope", &json!({"decision": "allow", "run_id": run_id}), None).await;
    assert_eq!(unknown.status, 404);
    let bad = http_post(server.addr(), &format!("/approve/{aid}"), &json!({"decision": "maybe", "run_id": run_id}), None).await;
    assert_eq!(bad.status, 400);
    assert!(s.next_within(Duration::from_millis(200)).await.is_err(), "still waiting");

    let approve = json!({"decision": "always", "run_id": run_id});
    let resp = http_post(server.addr(), &format!("/approve/{aid}"), &approve, None).await;
    assert_eq!((resp.status, resp.body.as_str()), (200, r#"{"ok":true}"#));
    let rest = s.rest().await;
    assert_eq!(kinds(&rest)[..2], ["tool_call", "tool_result"]);
    assert_eq!(rest[0].1["call_id"], ask["call_id"]);
    assert_eq!(rest[1].1["ok"], true);
    assert_eq!(text(&rest), SCRIPT_REPLY);
    assert_eq!(end_of(&rest), (json!(0), json!(1), json!(1), json!(0)));
    // Answered: a second answer finds nobody waiting.
    assert_eq!(http_post(server.addr(), &format!("/approve/{aid}"), &approve, None).await.status, 404);

    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    let a = format!("/approve/{aid}");
    assert_eq!(paths, ["/chat", &a, "/approve/apr-nope", &a, &a, &a]);
    assert_eq!(server.requests()[4].body, approve);
}

#[tokio::test]
async fn deny_and_timeout_fail_the_call_and_answer_briefly() {
    let server = start_with(Duration::from_millis(300)).await;
    let mut s = open_stream(server.addr(), "/chat", &json!({"message": "approve this"})).await;
    let asked = s.until("approval_request").await;
    let run_id = asked[0].1["run_id"].as_str().unwrap();
    let aid = asked[3].1["approval_id"].as_str().unwrap();
    let resp = http_post(server.addr(), &format!("/approve/{aid}"), &json!({"decision": "deny", "run_id": run_id}), None).await;
    assert_eq!(resp.status, 200);
    let rest = s.rest().await;
    assert_eq!(kinds(&rest)[0], "tool_result");
    assert_eq!((rest[0].1["ok"].clone(), rest[0].1["output"].clone()), (json!(false), json!(DENIED_OUTPUT)));
    assert!(!kinds(&rest).contains(&"tool_call"));
    assert_eq!(text(&rest), DENIED_REPLY);
    assert_eq!(kinds(&rest)[rest.len() - 2..], ["usage", "end"]);

    // Nobody answers: the timeout denies.
    let mut s = open_stream(server.addr(), "/chat", &json!({"message": "approve again"})).await;
    let asked = s.until("approval_request").await;
    let aid = asked[3].1["approval_id"].as_str().unwrap().to_string();
    let rest = s.rest().await;
    assert_eq!((rest[0].1["ok"].clone(), rest[0].1["output"].clone()), (json!(false), json!(TIMED_OUT_OUTPUT)));
    assert_eq!(text(&rest), DENIED_REPLY);
    assert_eq!(end_of(&rest).0, json!(2));
    let late = http_post(server.addr(), &format!("/approve/{aid}"), &json!({"decision": "allow", "run_id": asked[0].1["run_id"]}), None).await;
    assert_eq!(late.status, 404, "a timed-out approval is gone");
}

#[tokio::test]
async fn approve_twice_asks_both_before_running_and_needs_both() {
    let server = start(Mode::Demo).await;
    let mut s = open_stream(server.addr(), "/chat", &json!({"message": "approve twice"})).await;
    let first = s.until("approval_request").await;
    let second = s.until("approval_request").await;
    assert_eq!(kinds(&second), ["tool_drafting", "approval_request"]);
    let run_id = first[0].1["run_id"].as_str().unwrap();
    let (a, b) = (first[3].1["approval_id"].as_str().unwrap(), second[1].1["approval_id"].as_str().unwrap());
    assert!(a.ends_with("-a") && b.ends_with("-b"), "{a} {b}");
    assert_ne!(first[3].1["call_id"], second[1].1["call_id"]);

    // The second answered first; the run still waits for the other one.
    assert_eq!(http_post(server.addr(), &format!("/approve/{b}"), &json!({"decision": "deny", "run_id": run_id}), None).await.status, 200);
    assert!(s.next_within(Duration::from_millis(300)).await.is_err(), "one answer is not enough");
    assert_eq!(http_post(server.addr(), &format!("/approve/{a}"), &json!({"decision": "allow", "run_id": run_id}), None).await.status, 200);
    let rest = s.rest().await;
    assert_eq!(kinds(&rest)[..3], ["tool_call", "tool_result", "tool_result"]);
    assert_eq!(rest[0].1["call_id"], first[3].1["call_id"]);
    assert_eq!((rest[1].1["ok"].clone(), rest[2].1["ok"].clone()), (json!(true), json!(false)));
    assert_eq!(rest[2].1["call_id"], second[1].1["call_id"]);
    assert_eq!(text(&rest), SCRIPT_REPLY);
    assert_eq!(kinds(&rest).last(), Some(&"end"));
}

#[tokio::test]
async fn cancel_stops_the_live_run_with_cancelled() {
    let server = start(Mode::Demo).await;
    let mut s = open_stream(server.addr(), "/chat", &json!({"message": "please approve"})).await;
    let asked = s.until("approval_request").await;
    let (msg_id, run_id) = (asked[0].1["msg_id"].clone(), asked[0].1["run_id"].clone());
    let other = http_post(server.addr(), "/cancel", &json!({"run_id": "run-other"}), None).await;
    assert_eq!((other.status, other.body.as_str()), (200, r#"{"ok":false}"#));
    let resp = http_post(server.addr(), "/cancel", &json!({"run_id": run_id}), None).await;
    assert_eq!((resp.status, resp.body.as_str()), (200, r#"{"ok":true}"#));
    let rest = s.rest().await;
    assert_eq!(rest, [("cancelled".to_string(), json!({"type": "cancelled", "msg_id": msg_id, "run_id": run_id}))]);
    let aid = asked[3].1["approval_id"].as_str().unwrap();
    let late = http_post(server.addr(), &format!("/approve/{aid}"), &json!({"decision": "allow", "run_id": run_id}), None).await;
    assert_eq!(late.status, 404, "a cancelled run's approval is gone");
    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).collect();
    assert_eq!(paths[..3], ["/chat", "/cancel", "/cancel"]);
}

#[tokio::test]
async fn fail_and_empty_answer_typed_errors() {
    let server = start(Mode::Demo).await;
    let events = read_events(&http_post(server.addr(), "/chat", &json!({"message": "please fail"}), None).await.body);
    assert_eq!(kinds(&events), ["start", "reasoning", "error"]);
    assert_eq!(events[2].1["kind"], "internal");
    let events = read_events(&http_post(server.addr(), "/chat", &json!({"message": "be empty"}), None).await.body);
    assert_eq!(kinds(&events), ["start", "error"]);
    assert_eq!(events[1].1["kind"], "empty");
}

#[tokio::test]
async fn fork_version_and_delete_answer_and_are_recorded() {
    let server = start(Mode::Demo).await;
    let addr = server.addr();
    for m in ["one", "two"] {
        http_post(addr, "/chat", &json!({"message": m, "conversation_id": "c"}), None).await;
    }
    http_post(addr, "/chat", &json!({"message": "two", "conversation_id": "c", "regenerate_of": 3}), None).await;

    let (status, body) = http_bare(addr, "POST", "/fork/c/1").await;
    assert_eq!((status, body.as_str()), (200, r#"{"conversation_id":"c-fork-1"}"#));
    assert_eq!(server.conversation("c-fork-1").unwrap().len(), 2);
    assert_eq!(http_bare(addr, "POST", "/fork/c/4").await.0, 404);
    assert_eq!(http_bare(addr, "POST", "/fork/nope/0").await.0, 404);
    assert_eq!(http_bare(addr, "POST", "/fork/c/x").await.0, 400);
    // The fork is a conversation of its own.
    let events = read_events(&http_post(addr, "/chat", &json!({"message": "three", "conversation_id": "c-fork-1"}), None).await.body);
    assert_eq!(end_of(&events).0, json!(2));

    assert_eq!(http_bare(addr, "POST", "/version/c/3/0").await, (200, r#"{"ok":true}"#.to_string()));
    assert_eq!(server.conversation("c").unwrap()[3]["active"], 0);
    assert_eq!(http_bare(addr, "POST", "/version/c/3/2").await.0, 404, "two versions only");
    assert_eq!(http_bare(addr, "POST", "/version/c/9/0").await.0, 404);

    assert_eq!(http_bare(addr, "DELETE", "/messages/c/2").await, (200, r#"{"ok":true}"#.to_string()));
    assert_eq!(server.conversation("c").unwrap()[2]["deleted"], true);
    assert_eq!(http_bare(addr, "DELETE", "/messages/c/2").await.0, 404, "already deleted");
    assert_eq!(http_bare(addr, "DELETE", "/messages/c/9").await.0, 404);

    let paths: Vec<String> = server.requests().into_iter().map(|r| r.path).filter(|p| p != "/chat").collect();
    assert_eq!(
        paths,
        ["/fork/c/1", "/fork/c/4", "/fork/nope/0", "/fork/c/x", "/version/c/3/0", "/version/c/3/2", "/version/c/9/0", "/messages/c/2", "/messages/c/2", "/messages/c/9"]
    );
}

#[tokio::test]
async fn chat_checks_the_key_and_records_first() {
    let server = MockServer::start(MockConfig { key: Some("sk-chat".into()), pace: 0.0, ..MockConfig::default() }).await.unwrap();
    let resp = http_post(server.addr(), "/chat", &json!({"message": "hi"}), Some("wrong")).await;
    assert_eq!(resp.status, 401);
    let resp = http_post(server.addr(), "/chat", &json!({"message": "hi"}), Some("sk-chat")).await;
    assert_eq!(resp.status, 200);
    let resp = http_post(server.addr(), "/approve/apr-1", &json!({"decision": "allow", "run_id": "r"}), Some("wrong")).await;
    assert_eq!(resp.status, 401);
    assert_eq!(http_bare(server.addr(), "DELETE", "/messages/default/0").await.0, 401);
    let auth: Vec<Option<String>> = server.requests().into_iter().map(|r| r.authorization).collect();
    assert_eq!(auth, [Some("Bearer wrong".to_string()), Some("Bearer sk-chat".to_string()), Some("Bearer wrong".to_string()), None]);
}
