//! Bad input and dead servers: a clear event or log line, and nothing lost.

use crate::common;
use common::*;
use std::time::Duration;
use yui_core::{ErrorCode, Status, TurnOutcome, UiEvent, UserCommand};

#[tokio::test]
async fn wrong_key_holds_auth_failed_and_does_not_retry() {
    let mock = mock_demo(Some("right")).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = start(&mock.base_url(), "wrong", dir.path(), fast_timeouts());
    let mut status = session.status();
    tokio::time::timeout(WAIT, status.wait_for(|s| *s == Status::AuthFailed)).await.expect("auth failed").unwrap();
    assert!(sink.events().iter().any(|e| matches!(e, UiEvent::Notice { code: ErrorCode::Auth, .. })));
    tokio::time::sleep(Duration::from_millis(600)).await; // > reconnect cap in fast_timeouts
    assert_eq!(mock.connections(), 1, "a 4401 close arms no retry");
    // A turn now fails at once as a network failure, with the failure line.
    session.send(UserCommand::SendText { text: "hi".into() }).unwrap();
    let end = ended(&sink).await;
    assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Failed, .. }), "{end:?}");
    assert!(sink.events().iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
    // The user asks for a reconnect: one more attempt.
    session.send(UserCommand::Reconnect).unwrap();
    assert!(mock.wait_for_connections(2, WAIT).await);
    session.close().await;
}

#[tokio::test]
async fn a_closed_socket_reconnects_with_backoff_and_resets_after_ready() {
    let mock = mock_demo(None).await;
    let (session, sink, _dir) = ready_session(&mock).await;
    mock.close_all(1011);
    let reconnecting = sink.wait_for(WAIT, |e| matches!(e, UiEvent::Status { status: Status::Reconnecting { .. } })).await.expect("reconnecting");
    match reconnecting {
        UiEvent::Status { status: Status::Reconnecting { delay_ms, close_code, .. } } => {
            assert_eq!(delay_ms, 50, "first delay after a ready is the first value");
            assert_eq!(close_code, Some(1011));
        }
        _ => unreachable!(),
    }
    assert!(mock.wait_for_connections(2, WAIT).await);
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "hello".into() }).unwrap();
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }));
    session.close().await;
}

#[tokio::test]
async fn a_dead_server_is_retried_with_growing_delays() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener); // nothing listens there now
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = start(&format!("http://127.0.0.1:{port}"), "k", dir.path(), fast_timeouts());
    let reconnecting = |e: &UiEvent| matches!(e, UiEvent::Status { status: Status::Reconnecting { .. } });
    let enough = tokio::time::timeout(WAIT, async {
        while sink.events().iter().filter(|e| reconnecting(e)).count() < 5 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    assert!(enough.await.is_ok(), "five reconnect attempts within {WAIT:?}");
    let delays: Vec<u64> = sink
        .events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::Status { status: Status::Reconnecting { delay_ms, .. } } => Some(delay_ms),
            _ => None,
        })
        .collect();
    assert!(delays.len() >= 4, "{delays:?}");
    assert_eq!(&delays[..4], &[50, 100, 200, 400], "doubling up to the cap");
    assert!(delays.iter().all(|d| *d <= 400));
    session.close().await;
}

#[tokio::test]
async fn a_stalled_turn_fails_with_the_failure_line_and_a_late_render_still_plays() {
    let mock = mock_scenario(
        r#"{"steps": [{"expect": "turn"}, {"sleep_ms": 700},
        {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"speech": "Late but here."}]}},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let mut t = fast_timeouts();
    t.frame_wait = Duration::from_millis(300);
    let (session, sink) = start(&mock.base_url(), "k", dir.path(), t);
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "anyone?".into() }).unwrap();
    let end = ended(&sink).await;
    assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Failed, .. }), "{end:?}");
    assert!(sink.events().iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
    assert!(sink.events().iter().any(|e| matches!(e, UiEvent::Notice { code: ErrorCode::Stall, .. })));
    // The turn stays outstanding: its late render plays.
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { text, .. } if text == "Late but here.")).await.expect("late render");
    session.close().await;
}

#[tokio::test]
async fn an_error_frame_fails_the_turn_with_the_server_text() {
    let long = "x".repeat(300);
    let mock = mock_scenario(&format!(
        r#"{{"steps": [{{"expect": "turn"}},
        {{"send": {{"type": "error", "turn_id": "$turn_id", "message": "Provider returned 429:\n rate limit {long}"}}}},
        {{"send": {{"type": "turn_end", "turn_id": "$turn_id"}}}}]}}"#
    ))
    .await;
    let (session, sink, _dir) = ready_session(&mock).await;
    session.send(UserCommand::SendText { text: "go".into() }).unwrap();
    match ended(&sink).await {
        UiEvent::TurnEnded { outcome, error: Some(error), .. } => {
            assert_eq!(outcome, TurnOutcome::Failed);
            assert!(error.starts_with("Provider returned 429: rate limit x"), "{error}");
            assert!(!error.contains('\n'));
            assert_eq!(error.chars().count(), 200);
        }
        other => panic!("{other:?}"),
    }
    assert!(sink.events().iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
    session.close().await;
}

#[tokio::test]
async fn malformed_and_oversize_frames_are_dropped_and_the_turn_goes_on() {
    let mock = mock_scenario(
        r#"{"steps": [{"expect": "turn"},
        {"send_raw": "{not json"},
        {"send": {"type": "tool_call", "id": 5, "turn_id": "$turn_id", "name": "look", "arguments": {}}},
        {"send": {"type": "no_such_frame", "turn_id": "$turn_id"}},
        {"send_oversize": "render"},
        {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"speech": "Still here."}]}},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .await;
    let (session, sink, _dir) = ready_session(&mock).await;
    session.send(UserCommand::SendText { text: "go".into() }).unwrap();
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }));
    assert_eq!(speeches(&sink), ["Still here."], "the oversize render was dropped unread");
    assert_eq!(mock.connections(), 1, "bad frames do not cost the connection");
    assert!(mock.received().iter().all(|f| f["type"] != "tool_result"), "an unreadable tool_call gets no tool_result");
    session.close().await;
}

#[tokio::test]
async fn tool_calls_are_answered_by_the_client_rules() {
    let mock = mock_scenario(
        r#"{"steps": [{"expect": "turn"},
        {"send": {"type": "tool_call", "id": "c-1", "turn_id": "$turn_id", "name": "body_action", "arguments": {"action": "stand_down"}}},
        {"send": {"type": "tool_call", "id": "c-2", "turn_id": "$turn_id", "name": "address_character", "arguments": {}}},
        {"send": {"type": "tool_call", "id": "c-3", "turn_id": "$turn_id", "name": "look", "arguments": {"at": "body"}}},
        {"expect": "tool_result"}, {"expect": "tool_result"}, {"expect": "tool_result"},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .await;
    let (session, sink, _dir) = ready_session(&mock).await;
    session.send(UserCommand::SendText { text: "go".into() }).unwrap();
    ended(&sink).await;
    let results: Vec<_> = mock.received().into_iter().filter(|f| f["type"] == "tool_result").collect();
    assert_eq!(results.len(), 3);
    let answer = |id: &str| results.iter().find(|r| r["id"] == id).map(|r| r["result"].as_str().unwrap().to_string()).unwrap();
    assert_eq!(answer("c-1"), "error: unknown tool", "a client with no body (no pet window) does not declare body_action");
    assert_eq!(answer("c-2"), "error: missing field character");
    assert_eq!(answer("c-3"), "standing (for 0min)");
    assert_eq!(results[1]["turn_id"], mock.wait_for_frame("turn", 0, WAIT).await.unwrap()["turn_id"]);
    session.close().await;
}

#[tokio::test]
async fn stop_names_outstanding_turns_and_drops_their_frames() {
    let mock = mock_scenario(
        r#"{"steps": [{"expect": "turn"},
        {"send": {"type": "speech", "turn_id": "$turn_id", "segments": [{"speech": "One."}]}},
        {"expect": "stop"},
        {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"speech": "Should not show."}]}},
        {"send": {"type": "tool_status", "turn_id": "$turn_id", "state": "done", "tool_id": "x"}},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}},
        {"expect": "turn"},
        {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"speech": "Fresh."}]}},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .await;
    let (session, sink, _dir) = ready_session(&mock).await;
    session.send(UserCommand::SendText { text: "long story".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { .. })).await.unwrap();
    session.send(UserCommand::Stop).unwrap();
    let stop = mock.wait_for_frame("stop", 0, WAIT).await.expect("stop frame");
    let turn = mock.wait_for_frame("turn", 0, WAIT).await.unwrap();
    assert_eq!(stop["turn_ids"], serde_json::json!([turn["turn_id"]]));
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. }));
    tokio::time::sleep(Duration::from_millis(100)).await;
    session.send(UserCommand::SendText { text: "next".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { text, .. } if text == "Fresh.")).await.expect("next turn");
    assert_eq!(speeches(&sink), ["One.", "Fresh."]);
    assert!(!sink.events().iter().any(|e| matches!(e, UiEvent::ToolStatus { .. })));
    session.close().await;
}

#[tokio::test]
async fn a_drop_mid_turn_fails_it_and_the_client_reconnects() {
    let mock = mock_scenario(
        r#"{"connections": [[{"expect": "turn"}, {"drop": true}], [{"expect": "turn"},
        {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"speech": "Back."}]}},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]]}"#,
    )
    .await;
    let (session, sink, _dir) = ready_session(&mock).await;
    session.send(UserCommand::SendText { text: "one".into() }).unwrap();
    let end = ended(&sink).await;
    assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Failed, .. }), "{end:?}");
    assert!(mock.wait_for_connections(2, WAIT).await);
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "two".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { text, .. } if text == "Back.")).await.expect("after reconnect");
    session.close().await;
}
