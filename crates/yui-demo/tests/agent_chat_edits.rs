//! The demo's `agent_chat` engine: approvals (allow, deny, always),
//! regenerate as versions, fork, version and delete.

#[path = "agent_chat/client.rs"]
mod client;
mod common;

use std::time::Duration;

use client::*;
use common::start;
use serde_json::json;

#[tokio::test]
async fn an_approval_waits_and_allow_releases_it() {
    let server = start().await;
    let addr = server.addr();
    let (mut live, events) = asking(addr, "a").await;
    let kinds = types(&events);
    assert_eq!(
        &kinds[kinds.len() - 2..],
        ["tool_drafting", "approval_request"]
    );
    let (run_id, ask) = (
        events[0]["run_id"].as_str().unwrap(),
        events.last().unwrap(),
    );
    assert_eq!(
        (&ask["name"], &ask["args"]["path"]),
        (&json!("list_files"), &json!("~/yui-demo"))
    );
    let aid = ask["approval_id"].as_str().unwrap();
    assert!(
        live.quiet(Duration::from_millis(300)).await,
        "the run waits"
    );

    let path = format!("/approve/{aid}");
    assert_eq!(
        call(
            addr,
            "POST",
            "/approve/nope",
            json!({ "decision": "allow" }),
            None
        )
        .await
        .0,
        404
    );
    assert_eq!(
        call(
            addr,
            "POST",
            &path,
            json!({ "decision": "allow", "run_id": "run-x" }),
            None
        )
        .await
        .0,
        409
    );
    assert_eq!(
        call(
            addr,
            "POST",
            &path,
            json!({ "decision": "maybe", "run_id": run_id }),
            None
        )
        .await
        .0,
        400
    );
    assert!(
        live.quiet(Duration::from_millis(100)).await,
        "still waiting"
    );
    let (status, body) = call(
        addr,
        "POST",
        &path,
        json!({ "decision": "allow", "run_id": run_id }),
        None,
    )
    .await;
    assert_eq!((status, body), (200, json!({ "ok": true })));

    let rest = live.rest().await;
    let kinds = types(&rest);
    assert_eq!(&kinds[..2], ["tool_call", "tool_result"], "{kinds:?}");
    assert_eq!(&kinds[kinds.len() - 2..], ["usage", "end"]);
    assert_eq!(
        (&rest[0]["call_id"], &rest[1]["call_id"]),
        (&ask["call_id"], &ask["call_id"])
    );
    assert_eq!(rest[1]["ok"], true);
    assert!(text(&rest).contains("notes.txt"), "{}", text(&rest));
    assert_eq!(
        call(addr, "POST", &path, json!({ "decision": "allow" }), None)
            .await
            .0,
        404,
        "answered already"
    );
}

#[tokio::test]
async fn deny_fails_the_tool_politely_and_always_stops_asking() {
    let server = start().await;
    let addr = server.addr();
    let (mut live, events) = asking(addr, "d").await;
    let aid = events.last().unwrap()["approval_id"]
        .as_str()
        .unwrap()
        .to_string();
    let body = json!({ "decision": "deny", "run_id": events[0]["run_id"] });
    assert_eq!(
        call(addr, "POST", &format!("/approve/{aid}"), body, None)
            .await
            .0,
        200
    );
    let rest = live.rest().await;
    assert_eq!(types(&rest)[0], "tool_result");
    assert_eq!(
        (&rest[0]["ok"], &rest[0]["output"], &rest[0]["name"]),
        (&json!(false), &json!("denied"), &json!("list_files"))
    );
    assert!(text(&rest).contains("won't look"), "{}", text(&rest));
    assert_eq!(rest.last().unwrap()["type"], "end");

    let (mut live, events) = asking(addr, "d").await;
    let aid = events.last().unwrap()["approval_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        call(
            addr,
            "POST",
            &format!("/approve/{aid}"),
            json!({ "decision": "always" }),
            None
        )
        .await
        .0,
        200
    );
    assert_eq!(live.rest().await.last().unwrap()["type"], "end");
    let events = turn(addr, chat("run ls again", "d")).await;
    let kinds = types(&events);
    assert!(!kinds.contains(&"approval_request"), "{kinds:?}");
    assert!(
        kinds.contains(&"tool_call") && kinds.ends_with(&["usage", "end"]),
        "{kinds:?}"
    );
    assert_eq!(events.last().unwrap()["user_index"], 4);
}

#[tokio::test]
async fn regenerate_files_another_version() {
    let server = start().await;
    let addr = server.addr();
    turn(addr, chat("hello", "r")).await;
    let events = turn(addr, json!({ "message": chat("hello", "r")["message"], "conversation_id": "r", "regenerate_of": 1 })).await;
    let end = events.last().unwrap();
    assert_eq!(
        (
            &end["type"],
            &end["user_index"],
            &end["assistant_index"],
            &end["versions"],
            &end["active"]
        ),
        (&json!("end"), &json!(0), &json!(1), &json!(2), &json!(1))
    );
    assert!(text(&events).starts_with("Hi! I'm Yui."));
    let next = turn(addr, chat("ok", "r")).await;
    assert_eq!(
        next.last().unwrap()["user_index"],
        2,
        "no duplicate user message"
    );
}

#[tokio::test]
async fn fork_version_and_delete_answer_200_or_404() {
    let server = start().await;
    let addr = server.addr();
    turn(addr, chat("hello", "v")).await;
    turn(
        addr,
        json!({ "message": "", "conversation_id": "v", "regenerate_of": 1 }),
    )
    .await;

    let (status, body) = call(addr, "POST", "/fork/v/1", json!({}), None).await;
    assert_eq!(status, 200);
    let fork = body["conversation_id"].as_str().unwrap().to_string();
    assert_ne!(fork, "v");
    let events = turn(addr, chat("hi", &fork)).await;
    assert_eq!(
        events.last().unwrap()["user_index"],
        2,
        "the fork holds messages 0..=1"
    );
    for (path, want) in [
        ("/fork/v/2", 404),
        ("/fork/nope/0", 404),
        ("/fork/v/x", 400),
    ] {
        assert_eq!(
            call(addr, "POST", path, json!({}), None).await.0,
            want,
            "{path}"
        );
    }

    for (path, want) in [
        ("/version/v/1/0", 200),
        ("/version/v/1/1", 200),
        ("/version/v/1/2", 404),
        ("/version/nope/1/0", 404),
        ("/version/v/9/0", 404),
    ] {
        assert_eq!(
            call(addr, "POST", path, json!({}), None).await.0,
            want,
            "{path}"
        );
    }

    assert_eq!(
        call(addr, "DELETE", "/messages/v/1", json!({}), None).await,
        (200, json!({ "ok": true }))
    );
    for (path, want) in [
        ("/messages/v/1", 404),
        ("/messages/v/7", 404),
        ("/messages/nope/0", 404),
        ("/messages/v/y", 400),
    ] {
        assert_eq!(
            call(addr, "DELETE", path, json!({}), None).await.0,
            want,
            "{path}"
        );
    }
    assert_eq!(
        call(addr, "POST", "/version/v/1/0", json!({}), None)
            .await
            .0,
        404,
        "a deleted message"
    );
}
