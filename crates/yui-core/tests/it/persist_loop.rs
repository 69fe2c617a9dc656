//! Per-turn persistence runs off the session loop: with the session's
//! writer blocked (a disk that does not answer), a turn still shows its
//! speech and its end, and the records land, in order, once the disk answers.

use crate::common;
use common::*;
use std::sync::Arc;
use yui_core::context::Outcome;
use yui_core::outcome::OutcomeStore;
use yui_core::persist::Writer;
use yui_core::{CollectingSink, DataDir, Session, SessionConfig, Settings, UiEvent, UserCommand};

#[tokio::test]
async fn a_blocked_disk_does_not_hold_the_ui_events_and_the_records_land_after() {
    let mock = mock_scenario(
        r#"{"steps": [{"expect": "turn"},
        {"send": {"type": "delegations", "items": [{"id": "d-1", "title": "Sort the list", "started_at": 1, "state": "running"}]}},
        {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"speech": "Done."}]}},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}},
        {"expect": "turn"},
        {"send": {"type": "render", "turn_id": "$turn_id", "segments": [{"speech": "Again."}]}},
        {"send": {"type": "turn_end", "turn_id": "$turn_id"}}]}"#,
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let writer = Writer::spawn("test-blocked-disk");
    let settings = Settings::from(yui_core::settings::CharacterSettings { chat_base_url: mock.base_url(), key: "k".into(), ..Default::default() });
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
    cfg.timeouts = fast_timeouts();
    cfg.persist = writer.clone();
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    assert!(session.wait_ready(WAIT).await);

    // The disk stops answering.
    let (release, blocked) = std::sync::mpsc::channel::<()>();
    writer.submit(move || {
        let _ = blocked.recv();
    });
    session.send(UserCommand::SendText { text: "one".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { text, .. } if text == "Done.")).await.expect("the speech shows");
    ended(&sink).await;
    session.send(UserCommand::SendText { text: "two".into() }).unwrap();
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { text, .. } if text == "Again.")).await.expect("the next turn shows too");
    assert!(session.wait_idle(WAIT).await);
    let record = dir.path().join("previous-turn");
    assert!(!record.exists(), "nothing was written while the disk was blocked");
    assert!(!dir.path().join("delegations").exists());

    // The disk answers: everything sent lands.
    release.send(()).unwrap();
    session.close().await;
    let store = OutcomeStore::new(&DataDir::new(dir.path()).unwrap(), "").writing_through(writer.clone());
    let prev = store.load().expect("the previous-turn record landed");
    assert_eq!(prev.outcome, Outcome::Complete);
    let history = yui_core::delegations::DelegationHistory::open(&DataDir::new(dir.path()).unwrap(), "");
    assert_eq!(history.items().first().map(|d| d.id.as_str()), Some("d-1"));
}
