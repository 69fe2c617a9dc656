//! The delegation history through a push session: every `delegations` frame
//! lands in the character's history, a running item a later frame leaves out
//! becomes done with status `unknown`, and the history survives a restart.

use crate::common;

use common::*;
use std::sync::Arc;
use yui_core::model::DelegationState;
use yui_core::{ChatApi, CollectingSink, DataDir, Session, SessionConfig, Settings};

async fn wait_for(session: &Session, n: usize) {
    for _ in 0..200 {
        if session.delegation_history().len() >= n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the history never reached {n} items: {:?}", session.delegation_history());
}

#[tokio::test]
async fn frames_fill_the_history_and_it_survives_a_restart() {
    let mock = mock_demo(Some("k")).await;
    let dir = tempfile::tempdir().unwrap();
    let start = || {
        let settings = Settings::from(yui_core::settings::CharacterSettings {
            chat_api: ChatApi::Push,
            chat_base_url: mock.base_url(),
            key: "k".into(),
            ..Default::default()
        });
        Session::start(SessionConfig::new(settings, DataDir::new(dir.path()).unwrap()), Arc::new(CollectingSink::new())).unwrap()
    };
    let session = start();
    assert!(session.wait_ready(WAIT).await);
    let first = serde_json::json!({"type": "delegations", "items": [
        {"id": "d-7f21", "title": "Sort the regression test list", "started_at": 1789365854947u64, "state": "running"},
        {"id": "d-5a03", "title": "Check log file sizes", "started_at": 1789365123000u64, "state": "done",
         "ended_at": 1789365701000u64, "status": "ok", "summary": "All three logs are under 10 MB."}]});
    assert!(mock.push(first).await);
    wait_for(&session, 2).await;
    // A later list leaves the running item out: it ended without a word.
    assert!(mock.push(serde_json::json!({"type": "delegations", "items": []})).await);
    for _ in 0..200 {
        if session.delegation_history().iter().all(|d| d.state == DelegationState::Done) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let items = session.delegation_history();
    let lost = items.iter().find(|d| d.id == "d-7f21").unwrap();
    assert_eq!((lost.state, lost.status.as_deref()), (DelegationState::Done, Some("unknown")));
    session.close().await;

    let again = start();
    let kept = again.delegation_history();
    assert_eq!(kept.len(), 2, "the history is read back after a restart: {kept:?}");
    assert_eq!(kept.iter().find(|d| d.id == "d-5a03").unwrap().summary.as_deref(), Some("All three logs are under 10 MB."));
    again.close().await;
}
