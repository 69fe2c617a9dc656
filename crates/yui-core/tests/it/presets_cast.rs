//! Three characters started the way the app starts them: from the registry
//! of presets (`yui_core::presets`), each with her own folder, settings and
//! session, all seated in one ensemble, against yui-mock's demo agent over
//! Responses.

use crate::common::*;
use std::sync::Arc;
use yui_core::presets::{PresetChange, Presets};
use yui_core::tools::CastDesk;
use yui_core::{ChatApi, CollectingSink, DataDir, Session, SessionConfig, UiEvent, UserCommand};

#[tokio::test]
async fn three_presets_have_their_own_folders_and_chat_ids_and_the_third_overhears_both_in_registry_order() {
    let mock = mock_demo(Some("k")).await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::new(tmp.path()).unwrap();
    dir.save_settings(&backend(ChatApi::Responses, mock.base_url())).unwrap();
    // The settings add two copies of the root character and open them.
    let mut presets = Presets::load(&dir, "Yui");
    for name in ["Ann", "Mio"] {
        presets.apply(&dir, &PresetChange::Add { name: name.into(), copy_of: Some("Yui".into()) }).unwrap();
        presets.apply(&dir, &PresetChange::Open { name: name.into() }).unwrap();
    }
    let cast = presets.cast();
    assert_eq!(cast.names(), ["Yui", "Ann", "Mio"]);
    let ensemble = yui_core::ensemble::Ensemble::new(cast.clone(), 6);
    let mut sessions = Vec::new();
    let mut dirs = Vec::new();
    for (i, name) in cast.names().iter().enumerate() {
        let own = presets.dir_of(&dir, name).unwrap();
        let mut config = SessionConfig::new(presets.settings_of(&dir, name).unwrap(), own.clone());
        config.timeouts = fast_timeouts();
        config.seat = ensemble.seat(i);
        config.desk = Arc::new(CastDesk { others: cast.others(name), main: i == 0 });
        let sink = CollectingSink::new();
        let session = Session::start(config, Arc::new(sink.clone())).expect("session");
        assert!(session.wait_ready(WAIT).await, "{name} ready");
        sessions.push((session, sink));
        dirs.push(own);
    }
    // Her own folder and chat id each; the root preset's are the directory's.
    assert_eq!(dirs[0], dir);
    let ids: Vec<String> = dirs.iter().map(|d| d.chat_id().unwrap()).collect();
    assert!(ids[0] != ids[1] && ids[1] != ids[2] && ids[0] != ids[2], "{ids:?}");
    assert!(dirs[1].root().starts_with(tmp.path().join("characters")) && dirs[1] != dirs[2]);

    // The user talks to Yui, then Ann, then Mio; each answers in turn.
    for (i, text) in ["hello there", "hi Ann", "and Mio?"].iter().enumerate() {
        let (session, sink) = &sessions[i];
        session.send(UserCommand::SendText { text: text.to_string() }).unwrap();
        let end = ended(sink).await;
        assert!(matches!(end, UiEvent::TurnEnded { outcome: yui_core::TurnOutcome::Complete, .. }), "{end:?}");
        assert!(session.wait_idle(WAIT).await);
    }
    // Mio's turn carried both others' exchanges, Yui's block before Ann's
    // (registry order), the user's half first in each.
    let mio = blocks(&sessions[2].1).pop().expect("Mio sent a context");
    let yui_at = mio.find("overheard: Yui ↔ user").unwrap_or_else(|| panic!("Yui's block in\n{mio}"));
    let ann_at = mio.find("overheard: Ann ↔ user").unwrap_or_else(|| panic!("Ann's block in\n{mio}"));
    assert!(yui_at < ann_at, "registry order:\n{mio}");
    let ann_block = &mio[ann_at..];
    let first_line = ann_block.lines().nth(1).unwrap_or_default().trim();
    assert!(first_line.starts_with("user: ") && first_line.contains("hi Ann"), "{ann_block}");
    assert!(!mio.contains("and Mio?\"\n  "), "her own line is not overheard:\n{mio}");
    // Ann heard Yui only; Yui, who spoke first, heard nobody.
    let ann = blocks(&sessions[1].1).pop().unwrap();
    assert!(ann.contains("overheard: Yui ↔ user") && !ann.contains("overheard: Mio"), "{ann}");
    assert!(!blocks(&sessions[0].1).pop().unwrap().contains("overheard:"));
    for (session, _) in sessions {
        session.close().await;
    }
}
