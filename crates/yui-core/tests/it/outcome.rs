//! The previous-turn record: written from what really happened to the reply,
//! stored in the data dir, carried by the next turn's client_context.

use crate::common;
use common::*;
use std::time::Duration;
use yui_core::{UiEvent, UserCommand};

fn previous_line(turn: &serde_json::Value) -> Option<String> {
    turn["client_context"].as_str().unwrap().lines().find(|l| l.starts_with("previous turn:")).map(str::to_string)
}

#[tokio::test]
async fn a_failed_turn_is_replayed_as_playback_and_survives_a_restart() {
    let mock = mock_scenario(
        r#"{"connections": [
        [{"expect": "turn"}, {"expect": "playback"}],
        [{"expect": "turn"}, {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"speech": "Back."}]}},
         {"send": {"type": "turn_end", "turn_id": "$turn_id"}},
         {"expect": "turn"}, {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]]}"#,
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let mut t = fast_timeouts();
    t.frame_wait = Duration::from_millis(300);
    let (session, sink) = start(&mock.base_url(), "k", dir.path(), t);
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "anyone?".into() }).unwrap();
    ended(&sink).await;
    let first = mock.wait_for_frame("turn", 0, WAIT).await.unwrap();
    let playback = mock.wait_for_frame("playback", 0, WAIT).await.expect("a playback frame for the failed turn");
    assert_eq!(playback["turn_id"], first["turn_id"]);
    assert_eq!(playback["ended"], "failed");
    session.close().await;

    // A new run on the same data dir: the record is still there.
    let (session, sink) = start(&mock.base_url(), "k", dir.path(), fast_timeouts());
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "hello again".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { text, .. } if text == "Back.")).await.unwrap();
    let second = mock.wait_for_frame("turn", 1, WAIT).await.unwrap();
    assert_eq!(previous_line(&second).as_deref(), Some("previous turn: the reply to user.text_submitted failed before speaking (0min ago)"));
    assert!(session.wait_idle(WAIT).await);
    // The reply played: complete clears the line.
    session.send(UserCommand::SendText { text: "and now?".into() }).unwrap();
    assert!(session.wait_idle(WAIT).await);
    let third = mock.wait_for_frame("turn", 2, WAIT).await.unwrap();
    assert_eq!(previous_line(&third), None, "{}", third["client_context"]);
    session.close().await;
}

#[tokio::test]
async fn a_stopped_reply_is_interrupted_with_what_was_heard_and_silence_keeps_the_record() {
    let mock = mock_scenario(
        r#"{"steps": [{"expect": "turn"},
        {"send": {"type": "speech", "turn_id": "$turn_id", "segments": [{"speech": "Three logs are left."}]}},
        {"expect": "stop"}, {"send": {"type": "turn_end", "turn_id": "$turn_id"}},
        {"expect": "turn"}, {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"cues": [{"emotion_id": "sad"}], "speech": "[SILENT]"}]}},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}},
        {"expect": "turn"}, {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .await;
    let (session, sink, _dir) = ready_session(&mock).await;
    session.send(UserCommand::SendText { text: "status?".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { .. })).await.unwrap();
    session.send(UserCommand::Stop).unwrap();
    mock.wait_for_frame("stop", 0, WAIT).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    session.send(UserCommand::SendText { text: "go on".into() }).unwrap();
    assert!(session.wait_idle(WAIT).await);
    let second = mock.wait_for_frame("turn", 1, WAIT).await.unwrap();
    assert_eq!(
        previous_line(&second).as_deref(),
        Some(r#"previous turn: the reply to user.text_submitted was cut off mid-speech (0min ago), already spoken: "Three logs are left.""#)
    );
    // The second reply was silent: the record stays.
    session.send(UserCommand::SendText { text: "hm".into() }).unwrap();
    assert!(session.wait_idle(WAIT).await);
    let third = mock.wait_for_frame("turn", 2, WAIT).await.unwrap();
    assert_eq!(previous_line(&third), previous_line(&second));
    assert!(mock.received().iter().all(|f| f["type"] != "playback"), "only failed records are played back");
    session.close().await;
}
