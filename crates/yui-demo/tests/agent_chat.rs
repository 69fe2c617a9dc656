//! The demo's `agent_chat` engine (seed 004) as a client sees it: the
//! eleven-event stream of `POST /chat`, cancel and the key check
//! (approvals, versions, fork and delete: `agent_chat_edits.rs`).

#[path = "agent_chat/client.rs"]
mod client;
mod common;

use client::*;
use common::{start, start_with};
use serde_json::json;

#[tokio::test]
async fn a_plain_turn_streams_start_to_end_in_the_seeds_order() {
    let server = start().await;
    let mut live = Live::open(server.addr(), chat("hello yui", "c1"), None).await;
    assert_eq!(live.status, 200);
    assert!(
        live.content_type.starts_with("text/event-stream"),
        "{}",
        live.content_type
    );
    let events = live.rest().await;
    let kinds = types(&events);
    assert_eq!(kinds[0], "start");
    assert_eq!(&kinds[kinds.len() - 2..], ["usage", "end"]);
    let middle: Vec<&str> = kinds[1..kinds.len() - 2].to_vec();
    let reasoning = middle.iter().take_while(|k| **k == "reasoning").count();
    assert!(
        reasoning >= 1 && middle[reasoning..].iter().all(|k| *k == "delta"),
        "{kinds:?}"
    );
    assert!(middle.len() - reasoning >= 2, "a few deltas: {kinds:?}");
    let msg_id = events[0]["msg_id"].as_str().unwrap();
    assert!(events.iter().all(|e| e["msg_id"] == msg_id));
    assert!(events[0]["run_id"].as_str().is_some_and(|r| !r.is_empty()));
    let reply = text(&events);
    assert!(reply.starts_with("Hi! I'm Yui."), "{reply}");
    let usage = &events[events.len() - 2];
    assert_eq!(usage["chars"].as_u64(), Some(reply.chars().count() as u64));
    assert!(usage["seconds"].as_f64().unwrap() >= usage["ttft"].as_f64().unwrap());
    let end = &events[events.len() - 1];
    assert_eq!(
        (
            &end["user_index"],
            &end["assistant_index"],
            &end["versions"],
            &end["active"]
        ),
        (&json!(0), &json!(1), &json!(1), &json!(0))
    );

    let second = turn(server.addr(), chat("I feel sad", "c1")).await;
    let end = second.last().unwrap();
    assert_eq!(
        (&end["user_index"], &end["assistant_index"]),
        (&json!(2), &json!(3))
    );
    assert!(text(&second).starts_with("You said: \"I feel sad\"."));
    assert_ne!(second[0]["run_id"], events[0]["run_id"]);
    let other = turn(server.addr(), json!({ "message": "hi" })).await;
    assert_eq!(
        other.last().unwrap()["user_index"],
        0,
        "another conversation"
    );
}

#[tokio::test]
async fn asking_the_time_runs_get_time_before_the_text() {
    let server = start().await;
    let events = turn(server.addr(), chat("what time is it?", "t")).await;
    let kinds = types(&events);
    let drafting = kinds
        .iter()
        .position(|k| *k == "tool_drafting")
        .expect("drafting");
    assert_eq!(
        &kinds[drafting..drafting + 4],
        ["tool_drafting", "tool_call", "tool_result", "delta"],
        "{kinds:?}"
    );
    let (call, result) = (&events[drafting + 1], &events[drafting + 2]);
    assert_eq!(
        (&events[drafting]["name"], &call["name"], &result["name"]),
        (&json!("get_time"), &json!("get_time"), &json!("get_time"))
    );
    assert_eq!(call["call_id"], result["call_id"]);
    assert!(call["args"].is_object());
    assert_eq!(result["ok"], true);
    assert!(result["seconds"].is_number());
    let now = result["output"].as_str().unwrap();
    assert!(
        text(&events).contains(&format!("It's {now}.")),
        "{}",
        text(&events)
    );
}

#[tokio::test]
async fn a_failing_turn_ends_with_a_rate_limit_error() {
    let server = start().await;
    let events = turn(server.addr(), chat("please fail", "f")).await;
    let last = events.last().unwrap();
    assert_eq!(
        (&last["type"], &last["kind"]),
        (&json!("error"), &json!("rate_limit"))
    );
    assert!(!types(&events).contains(&"end"));
    let events = turn(
        server.addr(),
        json!({ "message": "again", "conversation_id": "f", "regenerate_of": 9 }),
    )
    .await;
    assert_eq!(types(&events), ["start", "error"]);
    assert_eq!(events[1]["kind"], "internal");
}

#[tokio::test]
async fn cancel_sends_cancelled_and_ends_the_stream() {
    let server = start().await;
    let addr = server.addr();
    let (mut live, events) = asking(addr, "x").await;
    let (msg_id, run_id) = (&events[0]["msg_id"], &events[0]["run_id"]);
    let (status, body) = call(addr, "POST", "/cancel", json!({ "run_id": run_id }), None).await;
    assert_eq!((status, body), (200, json!({ "ok": true })));
    let rest = live.rest().await;
    assert_eq!(
        rest,
        [json!({ "type": "cancelled", "msg_id": msg_id, "run_id": run_id })]
    );
    let (status, body) = call(addr, "POST", "/cancel", json!({ "run_id": run_id }), None).await;
    assert_eq!(
        (status, body),
        (200, json!({ "ok": false })),
        "no longer live"
    );

    // A paced plain turn (~5 s at pace 5) is stopped mid-way too.
    let server = start_with(5.0, None).await;
    let mut live = Live::open(server.addr(), chat("hello", "x"), None).await;
    let start = live.until("start").await;
    let body = json!({ "run_id": start[0]["run_id"] });
    assert_eq!(
        call(server.addr(), "POST", "/cancel", body, None).await.0,
        200
    );
    let rest = live.rest().await;
    assert_eq!(rest.last().unwrap()["type"], "cancelled", "{rest:?}");
    assert!(!types(&rest).contains(&"end"));
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
        ("POST", "/approve/apr-1"),
        ("POST", "/cancel"),
        ("POST", "/fork/k/1"),
        ("POST", "/version/k/1/0"),
        ("DELETE", "/messages/k/1"),
    ] {
        let (status, body) = call(
            addr,
            method,
            path,
            json!({ "decision": "allow", "run_id": "r" }),
            None,
        )
        .await;
        assert_eq!(status, 401, "{path}");
        assert_eq!(body["error"]["code"], "invalid_api_key");
    }
    assert_eq!(
        call(addr, "POST", "/fork/k/1", json!({}), Some("k-1"))
            .await
            .0,
        200
    );
}
