//! Three characters started the way the app starts them: from the registry
//! of presets (`yui_core::presets`), each with her own folder, settings and
//! session, all seated in one ensemble, against yui-mock's demo agent over
//! Responses.

use crate::common::*;
use std::sync::Arc;
use std::time::Duration;
use yui_core::presets::{PresetChange, Presets};
use yui_core::tools::CastDesk;
use yui_core::{ChatApi, CollectingSink, DataDir, Session, SessionConfig, UiEvent, UserCommand};

/// The registry the settings make of `dir`: the root character Yui on
/// `api` at `base`, and two copies of her, Ann and Mio, added and opened.
fn three_open(dir: &DataDir, api: ChatApi, base: &str) -> Presets {
    dir.save_settings(&backend(api, base)).unwrap();
    let mut presets = Presets::load(dir, "Yui");
    for name in ["Ann", "Mio"] {
        presets.apply(dir, &PresetChange::Add { name: name.into(), copy_of: Some("Yui".into()) }).unwrap();
        presets.apply(dir, &PresetChange::Open { name: name.into() }).unwrap();
    }
    presets
}

#[tokio::test]
async fn three_presets_have_their_own_folders_and_chat_ids_and_the_third_overhears_both_in_registry_order() {
    let mock = mock_demo(Some("k")).await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::new(tmp.path()).unwrap();
    let presets = three_open(&dir, ChatApi::Responses, &mock.base_url());
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

/// Every character's events in the one order they came in, each with her name.
#[derive(Clone, Default)]
struct Tagged(Arc<std::sync::Mutex<Vec<(String, UiEvent)>>>);

impl Tagged {
    fn sink(&self, name: &str) -> Arc<dyn yui_core::EventSink> {
        let (log, name) = (self.0.clone(), name.to_string());
        Arc::new(move |event: UiEvent| log.lock().unwrap().push((name.clone(), event)))
    }

    fn events(&self) -> Vec<(String, UiEvent)> {
        self.0.lock().unwrap().clone()
    }

    /// Where the first event of `who` matching `what` is, if it came.
    fn first(&self, who: &str, what: impl Fn(&UiEvent) -> bool) -> Option<usize> {
        self.events().iter().position(|(name, e)| name == who && what(e))
    }

    /// Where the last event of `who` matching `what` is, if it came.
    fn last(&self, who: &str, what: impl Fn(&UiEvent) -> bool) -> Option<usize> {
        self.events().iter().rposition(|(name, e)| name == who && what(e))
    }
}

fn started(e: &UiEvent) -> bool {
    matches!(e, UiEvent::TurnStarted { .. })
}

fn turn_ended(e: &UiEvent) -> bool {
    matches!(e, UiEvent::TurnEnded { .. })
}

fn speaks(e: &UiEvent) -> bool {
    matches!(e, UiEvent::Speech { .. } | UiEvent::SpeechDone { .. })
}

#[tokio::test(start_paused = true)]
async fn three_presets_pass_an_exchange_along_in_playback_order_until_its_limit() {
    use sse::*;
    // Yui calls Ann, Ann calls Mio, Mio calls Yui back: with a limit of 2
    // addressed turns per exchange, Mio's call is the third and goes nowhere.
    let address = |to: &str| cc_wrap(cc_call(0, "call_1", "address_character", &[&format!(r#"{{"character":"{to}"}}"#)]), "tool_calls");
    let script = vec![address("Ann"), cc_text("Ann, wake up!"), address("Mio"), cc_text("Mio, your turn."), address("yui"), cc_text("Yui, done.")];
    let mock = mock_http(script).await;
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::new(tmp.path()).unwrap();
    let presets = three_open(&dir, ChatApi::ChatCompletions, &mock.base_url());
    let cast = presets.cast();
    let ensemble = yui_core::ensemble::Ensemble::new(cast.clone(), 2);
    let log = Tagged::default();
    let mut sessions = Vec::new();
    for (i, name) in cast.names().iter().enumerate() {
        let mut config = SessionConfig::new(presets.settings_of(&dir, name).unwrap(), presets.dir_of(&dir, name).unwrap());
        config.timeouts = fast_timeouts();
        config.seat = ensemble.seat(i);
        config.desk = Arc::new(CastDesk { others: cast.others(name), main: i == 0 });
        let session = Session::start(config, log.sink(name)).expect("session");
        assert!(session.wait_ready(WAIT).await, "{name} ready");
        sessions.push(session);
    }
    sessions[0].send(UserCommand::SendText { text: "wake everyone".into() }).unwrap();
    // Mio's turn is the last that comes; then nothing more for a while.
    let deadline = tokio::time::Instant::now() + WAIT;
    while log.last("Mio", turn_ended).is_none() {
        assert!(tokio::time::Instant::now() < deadline, "Mio's turn never ended: {:?}", log.events());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_secs(30)).await;
    for session in &sessions {
        assert!(session.wait_idle(WAIT).await);
    }

    let sent: Vec<String> = mock.requests().into_iter().filter(|r| r.path == "/v1/chat/completions").map(|r| r.body.to_string()).collect();
    assert_eq!(sent.len(), 6, "three turns of two rounds each, and no fourth turn past the limit");
    assert!(sent[2].contains(r#"trigger: addressed by Yui: \"Ann, wake up!\""#), "{}", sent[2]);
    assert!(sent[4].contains(r#"trigger: addressed by Ann: \"Mio, your turn.\""#), "{}", sent[4]);
    assert!(sent[5].contains("address_character") && sent[5].contains(r#""content":"ok""#), "Mio's call is answered ok at once: {}", sent[5]);
    // Mio's addressed turn carries the exchange so far, Yui's block before Ann's.
    let (yui_at, ann_at) = (sent[4].find("overheard: Yui ↔ user"), sent[4].find("overheard: Ann ↔ user"));
    assert!(matches!((yui_at, ann_at), (Some(y), Some(a)) if y < a), "{}", sent[4]);

    // Playback order: each addressed turn starts after the reply that made
    // it was spoken and ended, and speaks only after it.
    let count = log.events().iter().filter(|(_, e)| started(e)).count();
    assert_eq!(count, 3, "{:?}", log.events());
    for (from, to) in [("Yui", "Ann"), ("Ann", "Mio")] {
        let spoken = log.last(from, speaks).unwrap_or_else(|| panic!("{from} spoke"));
        let over = log.last(from, turn_ended).unwrap();
        let begun = log.first(to, started).unwrap_or_else(|| panic!("{to} had a turn"));
        let voiced = log.first(to, speaks).unwrap_or_else(|| panic!("{to} spoke"));
        assert!(spoken < begun && over < begun && begun < voiced, "{from} → {to}: {:?}", log.events());
    }
    assert_eq!(log.first("Yui", started), log.last("Yui", started), "Yui was not addressed again");
    for session in sessions {
        session.close().await;
    }
}
