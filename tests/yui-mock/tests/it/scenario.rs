//! Scenario mode: scripts, variables, expectations and fault injection.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::*;
use serde_json::json;
use yui_mock::{Mode, Scenario, Step, MAX_FRAME_BYTES};

fn scenario_file(name: &str) -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios").join(name)).expect("scenario file loads")
}

#[test]
fn every_shipped_scenario_loads() {
    let dir = Scenario::shipped_dir();
    assert_eq!(dir, Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"));
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        Scenario::load(&path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        n += 1;
    }
    assert!(n >= 5);
}

#[test]
fn bad_scenarios_are_rejected_with_a_reason() {
    for (json, why) in [
        (r#"{"steps": [{"expect": "turn", "send": {}}]}"#, "exactly one"),
        (r#"{"steps": [{"sned": {}}]}"#, "exactly one"),
        (r#"{"steps": [{"close": 1011, "timeout_ms": 4}]}"#, "unknown key"),
        (r#"{"steps": [{"drop": false}]}"#, "drop takes true"),
        (r#"{"steps": [{"send": "text"}]}"#, "JSON object"),
        (r#"{"steps": [{"close": 1}], "connections": [[]]}"#, "not both"),
        (r#"{"stpes": []}"#, "unknown field"),
    ] {
        let err = format!("{:#}", Scenario::from_json(json).expect_err(json));
        assert!(err.contains(why), "{json}: {err}");
    }
    let s = Scenario::from_json(r#"{"steps": [{"expect": "turn", "timeout_ms": 5, "match": {"text": "hi"}, "comment": "c"}]}"#).unwrap();
    assert!(s.auto_ready);
    assert!(matches!(&s.steps[0], Step::Expect { frame_type, timeout_ms: Some(5), matches } if frame_type == "turn" && matches["text"] == "hi"));
    assert_eq!(Scenario::default().auto_ready, Scenario::from_json("{}").unwrap().auto_ready);
}

#[tokio::test]
async fn one_turn_substitutes_the_turn_id() {
    let server = start(Mode::Scenario(scenario_file("one_turn.json"))).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "1789365854947", "text": "How did the tests go?" })).await;
    let frames = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(types(&frames), ["reasoning", "speech", "render", "turn_end"]);
    assert!(frames.iter().all(|f| f["turn_id"] == "1789365854947"), "{frames:?}");
    assert_eq!(frames[3]["usage"]["total_tokens"], 1280);
    assert!(server.failures().is_empty());
}

#[tokio::test]
async fn expectations_record_failures() {
    let server = start_scenario(
        r#"{"name": "strict", "steps": [
            {"expect": "turn", "match": {"text": "hi", "turn_id": "$turn_id"}},
            {"send": {"type": "turn_end", "turn_id": "$turn_id", "chat": "$chat_id", "call": "$call_id"}},
            {"expect": "tool_result", "timeout_ms": 100},
            {"send": {"type": "render", "turn_id": "never"}}
        ]}"#,
    )
    .await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "playback", "turn_id": "0", "ended": "failed" })).await; // skipped by expect
    send(&mut ws, json!({ "type": "turn", "turn_id": "9", "text": "bye" })).await;
    let end = frame(&mut ws).await;
    assert_eq!(end, json!({ "type": "turn_end", "turn_id": "9", "chat": "yui-test", "call": "$call_id" }));
    assert!(matches!(next(&mut ws, Duration::from_millis(400)).await, Next::Timeout), "the script ended on the timeout");
    let failures = server.failures();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert!(failures[0].contains("\"text\"") && failures[0].contains("\"bye\"") && failures[0].contains("strict"), "{}", failures[0]);
    assert!(failures[1].contains("tool_result") && failures[1].contains("100 ms"), "{}", failures[1]);
    assert_eq!(server.wait_for_frame("turn", 0, WAIT).await.unwrap()["text"], "bye");
}

#[tokio::test]
async fn tool_call_round_trip_uses_call_id() {
    let server = start(Mode::Scenario(scenario_file("tool_call.json"))).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "77", "text": "where are you?" })).await;
    let call = frame(&mut ws).await;
    assert_eq!((call["type"].as_str(), call["id"].as_str(), call["turn_id"].as_str()), (Some("tool_call"), Some("c-1a2b3c"), Some("77")));
    send(&mut ws, json!({ "type": "tool_result", "id": "c-1a2b3c", "turn_id": "77", "result": "standing" })).await;
    let frames = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(types(&frames), ["render", "turn_end"]);
    assert!(server.failures().is_empty(), "{:?}", server.failures());
    // A wrong answer is reported.
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "78", "text": "" })).await;
    frame(&mut ws).await;
    send(&mut ws, json!({ "type": "tool_result", "id": "c-other", "turn_id": "78", "result": "x" })).await;
    frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(server.failures().len(), 1);
    assert!(server.failures()[0].contains("c-other"));
}

#[tokio::test]
async fn faults_raw_oversize_and_close() {
    let server = start_scenario(
        r#"{"steps": [
            {"expect": "turn"},
            {"send_raw": "{not json"},
            {"send_oversize": "render"},
            {"close": 1011}
        ]}"#,
    )
    .await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "3", "text": "x" })).await;
    assert!(matches!(next(&mut ws, WAIT).await, Next::Raw(t) if t == "{not json"));
    let big = frame(&mut ws).await;
    assert_eq!((big["type"].as_str(), big["turn_id"].as_str()), (Some("render"), Some("3")));
    assert!(big.to_string().len() > MAX_FRAME_BYTES);
    assert!(matches!(next(&mut ws, WAIT).await, Next::Closed(Some(1011))));
}

#[tokio::test]
async fn drop_ends_the_tcp_connection_without_a_close_frame() {
    let server = start_scenario(r#"{"steps": [{"drop": true}]}"#).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    match next(&mut ws, WAIT).await {
        Next::Ended(_) => {}
        other => panic!("expected an abrupt end, got {other:?}"),
    }
}

#[tokio::test]
async fn per_connection_scripts_and_manual_ready() {
    let server = start(Mode::Scenario(scenario_file("reconnect.json"))).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    assert!(matches!(next(&mut ws, WAIT).await, Next::Closed(Some(1011))));
    for n in 0..2 {
        // Connections past the list run the last script.
        let (mut ws, _) = connect_ready(server.addr(), &[]).await;
        send(&mut ws, json!({ "type": "turn", "turn_id": format!("t{n}"), "text": "again" })).await;
        let frames = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
        assert_eq!(frames[0]["segments"][0]["speech"], "Back again.");
        assert_eq!(frames[1]["turn_id"], format!("t{n}"));
    }
    assert_eq!(server.connections(), 3);

    let server =
        start_scenario(r#"{"auto_ready": false, "steps": [{"sleep_ms": 150}, {"send": {"type": "ready", "chat_id": "$chat_id", "max_turn_bytes": 5}}]}"#).await;
    let mut ws = connect(server.addr()).await;
    send(&mut ws, hello_frame("late", "", &[])).await;
    assert!(matches!(next(&mut ws, Duration::from_millis(80)).await, Next::Timeout));
    assert_eq!(frame(&mut ws).await, json!({ "type": "ready", "chat_id": "late", "max_turn_bytes": 5 }));
    // A scripted ready counts for push().
    assert!(server.push(json!({ "type": "turn_end", "turn_id": "x" })).await);
}

#[tokio::test]
async fn stall_records_and_never_answers() {
    let server = start(Mode::Scenario(scenario_file("stall.json"))).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "1", "text": "hello?" })).await;
    assert!(server.wait_for_frame("turn", 0, WAIT).await.is_some());
    assert!(matches!(next(&mut ws, Duration::from_millis(300)).await, Next::Timeout));
}

#[tokio::test]
async fn rust_built_scenarios_run_too() {
    let steps = vec![Step::expect("stop"), Step::Send(json!({ "type": "turn_end", "turn_id": "$turn_id" }))];
    let server = start(Mode::Scenario(Scenario::new("built", steps))).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "41", "text": "" })).await;
    send(&mut ws, json!({ "type": "stop", "turn_ids": ["41"] })).await;
    assert_eq!(frame(&mut ws).await, json!({ "type": "turn_end", "turn_id": "41" }));
}

#[tokio::test]
async fn shipped_error_malformed_and_backend_initiated_scenarios() {
    let server = start(Mode::Scenario(scenario_file("error_turn.json"))).await;
    let (mut ws, _) = connect_ready(server.addr(), &["error"]).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "e1", "text": "x" })).await;
    let frames = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(types(&frames), ["tool_status", "tool_status", "error", "turn_end"]);
    assert_eq!(frames[2]["turn_id"], "e1");

    let server = start(Mode::Scenario(scenario_file("malformed.json"))).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    send(&mut ws, json!({ "type": "turn", "turn_id": "m1", "text": "x" })).await;
    assert!(matches!(next(&mut ws, WAIT).await, Next::Raw(_)));
    assert_eq!(frame(&mut ws).await["turn_id"], 17);
    assert!(frame(&mut ws).await.to_string().len() > MAX_FRAME_BYTES);
    let frames = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(frames[0]["segments"][0]["speech"], "Still here.");

    let server = start(Mode::Scenario(Scenario::shipped("backend_initiated").unwrap())).await;
    let (mut ws, _) = connect_ready(server.addr(), &[]).await;
    let frames = frames_until(&mut ws, |f| f["type"] == "turn_end").await;
    assert_eq!(types(&frames), ["delegations", "render", "turn_end"]);
    assert_eq!(frames[1]["turn_id"], "bg-1");
}
