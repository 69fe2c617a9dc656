//! The demo's `agent_chat` engine: approvals (allow, deny, always, the
//! approval/tool call id split), regenerate as versions, version, fork,
//! delete an exchange and delete a conversation.

use crate::client;
use crate::common;

use std::time::Duration;

use client::*;
use common::start;
use serde_json::json;

const DECLINED: &str = "The user declined this tool call.";

#[tokio::test]
async fn an_approval_waits_and_allow_runs_the_tool_with_its_own_call_id() {
    let server = start().await;
    let addr = server.addr();
    let (mut live, events) = asking(addr, "a").await;
    let kinds = types(&events);
    assert_eq!(kinds.last(), Some(&"approval_request"));
    assert!(!kinds.contains(&"tool_drafting"), "the approval comes first: {kinds:?}");
    let ask = events.last().unwrap();
    assert_eq!((&ask["name"], &ask["args"]["path"]), (&json!("list_files"), &json!("~/yui-demo")));
    let aid = ask["approval_id"].as_str().unwrap();
    assert!(aid.starts_with("ap_"), "{aid}");
    assert!(ask["call_id"].as_str().is_some_and(|c| c.starts_with("c_")));
    assert!(live.quiet(Duration::from_millis(300)).await, "the run waits");

    assert_eq!(approve(addr, "nope", json!({ "choice": "allow" })).await, (404, json!({ "ok": false, "error": "no such pending approval" })));
    assert!(live.quiet(Duration::from_millis(100)).await, "still waiting");
    assert_eq!(approve(addr, aid, json!({ "choice": "allow" })).await, (200, json!({ "ok": true, "error": null })));

    let rest = live.rest().await;
    let kinds = types(&rest);
    assert_eq!(&kinds[..3], ["tool_drafting", "tool_call", "tool_result"], "{kinds:?}");
    assert_eq!(&kinds[kinds.len() - 2..], ["usage", "end"]);
    let (call, result) = (&rest[1], &rest[2]);
    assert_eq!(call["call_id"], "c_1_list_files");
    assert_ne!(call["call_id"], ask["call_id"], "not the approval's call id");
    assert_eq!(result["call_id"], call["call_id"]);
    assert_eq!((&call["name"], &call["args"]), (&ask["name"], &ask["args"]), "paired by name and args");
    assert_eq!(result["ok"], true);
    assert!(result["output"].as_str().unwrap().contains("notes.txt"));
    assert!(text(&rest).contains("notes.txt"), "{}", text(&rest));
    assert_eq!(approve(addr, aid, json!({ "choice": "allow" })).await.0, 404, "answered already");
}

#[tokio::test]
async fn deny_or_no_choice_declines_and_always_stops_asking() {
    let server = start().await;
    let addr = server.addr();
    for body in [r#"{"choice":"deny"}"#, "", r#"{"decision":"allow"}"#, r#"{"choice":"yes"}"#] {
        let (mut live, events) = asking(addr, "d").await;
        let aid = events.last().unwrap()["approval_id"].as_str().unwrap().to_string();
        let answered = call_raw(addr, "POST", &format!("/approve/{aid}"), body, None).await;
        assert_eq!(answered, (200, json!({ "ok": true, "error": null })), "{body:?}");
        let rest = live.rest().await;
        assert_eq!(&types(&rest)[..3], ["tool_drafting", "tool_call", "tool_result"]);
        assert_eq!((&rest[2]["ok"], &rest[2]["output"], &rest[2]["name"]), (&json!(true), &json!(DECLINED), &json!("list_files")), "{body:?}");
        assert!(text(&rest).contains("won't look"), "{body:?}: {}", text(&rest));
        assert_eq!(rest.last().unwrap()["type"], "end");
    }

    let (mut live, events) = asking(addr, "d").await;
    let aid = events.last().unwrap()["approval_id"].as_str().unwrap().to_string();
    assert_eq!(approve(addr, &aid, json!({ "choice": "always" })).await.0, 200);
    assert_eq!(live.rest().await.last().unwrap()["type"], "end");
    let events = turn(addr, chat("run ls again", "d")).await;
    let kinds = types(&events);
    assert!(!kinds.contains(&"approval_request"), "{kinds:?}");
    assert!(kinds.contains(&"tool_call") && kinds.ends_with(&["usage", "end"]), "{kinds:?}");
    assert!(text(&events).contains("notes.txt"));
    assert_eq!(events.last().unwrap()["user_index"], 10);
}

#[tokio::test]
async fn regenerate_of_a_user_index_files_another_version() {
    let server = start().await;
    let addr = server.addr();
    turn(addr, chat("hello", "r")).await;
    let mut again = chat("hello", "r");
    again["regenerate_of"] = json!(0);
    let events = turn(addr, again).await;
    let end = events.last().unwrap();
    assert_eq!(
        (&end["type"], &end["user_index"], &end["assistant_index"], &end["versions"], &end["active"]),
        (&json!("end"), &json!(0), &json!(1), &json!(2), &json!(1))
    );
    assert!(text(&events).starts_with("Hi! I'm Yui."));
    // No text: the stored question is answered again.
    let events = turn(addr, json!({ "prompt": "", "chat_id": "r", "session": "r", "run_id": "x", "regenerate_of": 0 })).await;
    assert!(text(&events).starts_with("Hi! I'm Yui."), "{}", text(&events));
    assert_eq!(events.last().unwrap()["versions"], 3);
    let (_, stored) = call(addr, "GET", "/chats/r", json!(null), None).await;
    assert_eq!(stored["messages"].as_array().unwrap().len(), 2, "no duplicate question");
    assert_eq!((&stored["messages"][1]["version_count"], &stored["messages"][1]["version_active"]), (&json!(3), &json!(2)));
    let next = turn(addr, chat("ok", "r")).await;
    assert_eq!(next.last().unwrap()["user_index"], 2);
    // The answer's own index is not a user index: a new exchange.
    let mut odd = chat("ok", "r");
    odd["regenerate_of"] = json!(3);
    let end = turn(addr, odd).await.pop().unwrap();
    assert_eq!((&end["user_index"], &end["versions"]), (&json!(4), &json!(1)));
}

#[tokio::test]
async fn version_fork_and_delete_speak_the_engines_answers() {
    let server = start().await;
    let addr = server.addr();
    turn(addr, chat("hello", "v")).await;
    let mut again = chat("hello", "v");
    again["regenerate_of"] = json!(0);
    let second = text(&turn(addr, again).await);
    turn(addr, chat("I feel sad", "v")).await;

    let (status, body) = call(addr, "POST", "/version/v/0/0", json!(null), None).await;
    assert_eq!(status, 200);
    assert_eq!((&body["ok"], &body["active"], &body["count"]), (&json!(true), &json!(0), &json!(2)));
    assert!(body["content"].as_str().unwrap().starts_with("Hi! I'm Yui."));
    let (_, picked) = call(addr, "POST", "/version/v/0/1", json!(null), None).await;
    assert_eq!(picked["content"], second);
    for path in ["/version/v/0/2", "/version/nope/0/0", "/version/v/2/0", "/version/v/x/0"] {
        assert_eq!(call(addr, "POST", path, json!(null), None).await, (404, json!({ "ok": false, "error": "no such version" })), "{path}");
    }

    // The client forks at user_index + 1: the question and its answer.
    let (status, body) = call(addr, "POST", "/fork/v/1", json!(null), None).await;
    assert_eq!(status, 200);
    assert_eq!(body["ok"], true);
    let fork = body["id"].as_str().unwrap().to_string();
    assert!(fork.starts_with("v-f"), "{fork}");
    let (_, stored) = call(addr, "GET", &format!("/chats/{fork}"), json!(null), None).await;
    assert_eq!(stored["messages"].as_array().unwrap().len(), 2);
    assert_eq!(stored["title"], "hello (fork)");
    let events = turn(addr, chat("hi", &fork)).await;
    assert_eq!(events.last().unwrap()["user_index"], 2, "the fork goes on");
    assert_eq!(call(addr, "POST", "/fork/nope/0", json!(null), None).await.0, 404);
    assert_eq!(call(addr, "POST", "/fork/v/x", json!(null), None).await.0, 404);

    // Delete the first exchange: both messages go, the rest shift down.
    assert_eq!(call(addr, "POST", "/messages/v/0", json!(null), None).await, (200, json!({ "ok": true, "remaining": 2 })));
    let (_, stored) = call(addr, "GET", "/chats/v", json!(null), None).await;
    assert_eq!(stored["messages"][0]["content"], "<client_context>\ntrigger: user message\n</client_context>\n\nI feel sad");
    for (path, why) in [("/messages/v/2", "no such message"), ("/messages/v/y", "no such message"), ("/messages/nope/0", "no such conversation")] {
        assert_eq!(call(addr, "POST", path, json!(null), None).await, (404, json!({ "ok": false, "error": why })), "{path}");
    }
    assert_eq!(call(addr, "DELETE", "/messages/v/0", json!(null), None).await.0, 405, "no DELETE /messages route");

    // Delete the whole conversation: gone, and a second delete is still ok.
    assert_eq!(call(addr, "DELETE", "/chats/v", json!(null), None).await, (200, json!({ "ok": true })));
    assert_eq!(call(addr, "GET", "/chats/v", json!(null), None).await.0, 404);
    assert_eq!(call(addr, "DELETE", "/chats/v", json!(null), None).await, (200, json!({ "ok": true })));
    assert_eq!(call(addr, "GET", &format!("/chats/{fork}"), json!(null), None).await.0, 200, "the fork stays");
    let events = turn(addr, chat("hello", "v")).await;
    assert_eq!(events.last().unwrap()["user_index"], 0, "a fresh conversation");
}
