//! A whole session over each request transport against yui-mock's demo
//! agent: the engine, the driver, the transport and the card together.

use crate::common;
use common::*;
use std::sync::Arc;
use yui_core::{ChatApi, CollectingSink, DataDir, Session, SessionConfig, Settings, TurnOutcome, UiEvent, UserCommand};

async fn session(api: ChatApi, base: &str) -> (Session, CollectingSink, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let settings = crate::common::backend(api, base);
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
    cfg.timeouts = fast_timeouts();
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    assert!(session.wait_ready(WAIT).await, "a request transport is ready at once");
    (session, sink, dir)
}

async fn one_turn(api: ChatApi) {
    let mock = mock_demo(Some("k")).await;
    let (session, sink, _dir) = session(api, &mock.base_url()).await;
    session.send(UserCommand::SendText { text: "hello there".into() }).unwrap();
    let end = ended(&sink).await;
    assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, usage: Some(_), .. }), "{end:?}");
    assert!(session.wait_idle(WAIT).await, "everything played");
    let said = speeches(&sink);
    // The streamed text is cut into sentences as it arrives: "Hi! " went to
    // TTS before the cue call that follows "I'm Yui." arrived.
    assert_eq!(said[..2], ["Hi!", "I'm Yui."], "{said:?}");
    let events = sink.events();
    let first_cue = events.iter().position(|e| matches!(e, UiEvent::Cue { .. })).expect("a cue");
    let cued = events.iter().position(|e| matches!(e, UiEvent::Speech { text, .. } if text == "I'm Yui.")).unwrap();
    assert!(first_cue < cued, "the cue renders before the text it was placed on");
    assert!(events.iter().any(|e| matches!(e, UiEvent::Reasoning { .. })), "reasoning streamed");
    assert!(events.iter().any(|e| matches!(e, UiEvent::ContextSent { transport, .. } if transport == api.as_str())));
    session.close().await;
}

#[tokio::test]
async fn a_turn_over_responses_speaks_with_cues_reasoning_and_usage() {
    one_turn(ChatApi::Responses).await;
}

#[tokio::test]
async fn a_turn_over_chat_completions_speaks_with_cues_reasoning_and_usage() {
    one_turn(ChatApi::ChatCompletions).await;
}

#[tokio::test]
async fn a_wrong_key_fails_the_turn_with_the_generic_text_and_an_auth_notice() {
    let mock = mock_demo(Some("right")).await;
    for api in [ChatApi::Responses, ChatApi::ChatCompletions] {
        let (session, sink, _dir) = session(api, &mock.base_url()).await;
        session.send(UserCommand::SendText { text: "hi".into() }).unwrap();
        let end = ended(&sink).await;
        match end {
            UiEvent::TurnEnded { outcome: TurnOutcome::Failed, error: Some(e), .. } => {
                assert_eq!(e, yui_core::transport::request::GENERIC_FAILURE, "401 shows no server text")
            }
            other => panic!("{other:?}"),
        }
        assert!(sink.events().iter().any(|e| matches!(e, UiEvent::Notice { code: yui_core::ErrorCode::Auth, .. })));
        assert!(sink.events().iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
        session.close().await;
    }
}

#[tokio::test]
async fn a_dead_server_fails_the_turn_and_the_session_keeps_working() {
    let dead = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", dead.local_addr().unwrap());
    drop(dead);
    let (session, sink, _dir) = session(ChatApi::ChatCompletions, &url).await;
    session.send(UserCommand::SendText { text: "hi".into() }).unwrap();
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Failed, .. }));
    assert!(session.wait_idle(WAIT).await);
    session.send(UserCommand::SendText { text: "again".into() }).unwrap();
    assert!(session.wait_idle(WAIT).await);
    let ends = sink.events().iter().filter(|e| matches!(e, UiEvent::TurnEnded { .. })).count();
    assert_eq!(ends, 2, "the second turn also ended");
}

#[tokio::test]
async fn a_session_on_its_own_thread_answers_and_closes() {
    let mock = mock_demo(Some("k")).await;
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings::from(yui_core::settings::CharacterSettings {
        chat_api: ChatApi::Push,
        chat_base_url: mock.base_url(),
        key: "k".into(),
        ..Default::default()
    });
    let sink = CollectingSink::new();
    let session = Session::start_on_own_thread(SessionConfig::new(settings, DataDir::new(dir.path()).unwrap()), Arc::new(sink.clone())).unwrap();
    assert!(session.wait_ready(WAIT).await);
    session.send(UserCommand::SendText { text: "hello".into() }).unwrap();
    assert!(matches!(ended(&sink).await, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }));
    assert!(session.wait_idle(WAIT).await);
    assert!(!speeches(&sink).is_empty());
    let closed = tokio::time::timeout(WAIT, session.close()).await;
    assert!(closed.is_ok(), "close() returns once the session's thread has ended");
}

/// The block of the turn that went out last.
fn last_block(sink: &CollectingSink) -> String {
    sink.events()
        .iter()
        .rev()
        .find_map(|e| match e {
            UiEvent::ContextSent { block, .. } => Some(block.clone()),
            _ => None,
        })
        .expect("a turn went out")
}

#[tokio::test]
async fn a_signal_becomes_a_turn_with_its_line_and_marker_and_waits_for_a_running_reply() {
    use yui_core::context::{SignalEnvelope, SignalGroup};
    use yui_core::triggers::Arrival;
    let mock = mock_demo(Some("k")).await;
    let (session, sink, _dir) = session(ChatApi::Responses, &mock.base_url()).await;
    // No wait after the user's own turn (the pacer's default is 2 min); the
    // reading time of her reply still holds the signal back.
    let mut paced = session.live_settings().read(|s| s.clone());
    paced.user.reactions.pacing.after_user_min = 0;
    session.update_settings(&paced);
    let group = |id: &str| SignalGroup {
        envelope: Some(SignalEnvelope {
            source: Some("github".into()),
            event_type: Some("push".into()),
            event_id: Some(id.into()),
            occurred_at: Some(1_787_449_000_000),
            delivery: Some("immediate".into()),
            ..Default::default()
        }),
        items: vec![serde_json::json!({"repo": "acme/app", "branch": "main"})],
    };
    session.arrive(Arrival::Signals { group: group("delivery-42"), received_ms: 0 }).unwrap();
    let end = ended(&sink).await;
    assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }), "{end:?}");
    let started = sink.events().into_iter().find_map(|e| match e {
        UiEvent::TurnStarted { text, .. } => Some(text),
        _ => None,
    });
    assert_eq!(started.as_deref(), Some(""), "nobody typed it");
    let block = last_block(&sink);
    assert!(block.contains("trigger: signals (1 signal)"), "{block}");
    assert!(block.contains("signal [github/push @2026-08-23T01:36:40.000Z, id delivery-42]"), "{block}");
    assert!(block.contains("id delivery-42]: {\"repo\":\"acme/app\",\"branch\":\"main\"}"), "{block}");
    assert!(!speeches(&sink).is_empty(), "she speaks the reply");
    assert!(session.wait_idle(WAIT).await);

    // While the user's own turn runs, a signal waits; it comes after her
    // reply has had its reading time, as a catch-up.
    session.send(UserCommand::SendText { text: "hello there".into() }).unwrap();
    session.arrive(Arrival::Signals { group: group("delivery-43"), received_ms: 1 }).unwrap();
    let deadline = std::time::Instant::now() + WAIT + std::time::Duration::from_secs(30);
    while sink.events().iter().filter(|e| matches!(e, UiEvent::ContextSent { .. })).count() < 3 {
        assert!(std::time::Instant::now() < deadline, "the held signal never fired");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let blocks: Vec<String> = sink
        .events()
        .iter()
        .filter_map(|e| match e {
            UiEvent::ContextSent { block, .. } => Some(block.clone()),
            _ => None,
        })
        .collect();
    assert!(!blocks[1].contains("delivery-43"), "the user's turn carries no signal: {}", blocks[1]);
    assert!(blocks[2].contains("trigger: signals (1 signal)"), "{}", blocks[2]);
    assert!(blocks[2].contains("id delivery-43]"), "{}", blocks[2]);
    assert!(session.wait_idle(WAIT).await);
    session.close().await;
}

/// A desktop whose frontmost app and idle time the test sets.
struct FakeDesktop {
    idle_ms: std::sync::atomic::AtomicU64,
}

impl yui_core::world::DesktopFacts for FakeDesktop {
    fn frontmost(&self) -> Option<yui_core::world::Sample> {
        Some(yui_core::world::Sample { app: "Editor".into(), title: "notes.md".into(), pid: None, fullscreen: false })
    }
    fn idle_ms(&self) -> Option<u64> {
        Some(self.idle_ms.load(std::sync::atomic::Ordering::SeqCst))
    }
}

#[tokio::test]
async fn while_the_user_is_away_a_signal_waits_and_their_first_activity_carries_it_with_the_frontmost_line() {
    use std::sync::atomic::Ordering;
    use yui_core::context::SignalGroup;
    use yui_core::triggers::Arrival;
    let mock = mock_demo(Some("k")).await;
    let dir = tempfile::tempdir().unwrap();
    let settings = crate::common::backend(ChatApi::Responses, mock.base_url());
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
    cfg.timeouts = fast_timeouts();
    let desktop = Arc::new(FakeDesktop { idle_ms: std::sync::atomic::AtomicU64::new(60 * 60_000) });
    cfg.world = desktop.clone();
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    // The first reading (an hour idle) finds the user away.
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    session.arrive(Arrival::Signals { group: SignalGroup { envelope: None, items: vec![serde_json::json!({"n": 1})] }, received_ms: 0 }).unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    assert!(!sink.events().iter().any(|e| matches!(e, UiEvent::TurnStarted { .. })), "nothing fires while the user is away");
    desktop.idle_ms.store(0, Ordering::SeqCst);
    let end = ended(&sink).await;
    assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }), "{end:?}");
    let block = last_block(&sink);
    // Their return is the day's first activity: the milestone turn carries
    // the signal that waited (`docs/triggers.md`: buffered groups drain into it).
    assert!(block.contains("trigger: milestone first_activity (fired at "), "{block}");
    assert!(block.contains("signal: {\"n\":1}"), "a legacy group: {block}");
    assert_eq!(sink.events().iter().filter(|e| matches!(e, UiEvent::TurnStarted { .. })).count(), 1, "one turn, not a milestone and a catch-up");
    assert!(dir.path().join("milestone-fired").exists(), "the day is latched");
    assert!(block.contains("frontmost: Editor — \"notes.md\" (for "), "{block}");
    // The activity log has the transition to Editor.
    let day_files: Vec<_> = std::fs::read_dir(dir.path().join("activity")).unwrap().flatten().collect();
    assert_eq!(day_files.len(), 1);
    assert!(std::fs::read_to_string(day_files[0].path()).unwrap().contains("Editor"));
    session.close().await;
}

#[tokio::test]
async fn a_fed_world_replaces_the_sampler_and_each_reading_is_acknowledged_once_folded() {
    use yui_core::clock::ManualClock;
    use yui_core::session::world::{WorldInput, WorldSample};
    let mock = mock_demo(Some("k")).await;
    let dir = tempfile::tempdir().unwrap();
    let settings = crate::common::backend(ChatApi::Responses, mock.base_url());
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
    cfg.timeouts = fast_timeouts();
    // The desktop says present: were it sampled, the milestone would fire.
    cfg.world = Arc::new(FakeDesktop { idle_ms: std::sync::atomic::AtomicU64::new(0) });
    cfg.world_input = WorldInput::Fed;
    let clock = ManualClock::at(1_764_576_000_000);
    cfg.clock = clock.clone();
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    assert!(session.wait_ready(WAIT).await);
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    assert!(!sink.events().iter().any(|e| matches!(e, UiEvent::TurnStarted { .. })), "no sampler runs");
    let editor = |idle_ms| WorldSample {
        frontmost: Some(yui_core::world::Sample { app: "Editor".into(), title: "notes.md".into(), pid: None, fullscreen: false }),
        idle_ms: Some(idle_ms),
    };
    // Away: folded, nothing begins.
    session.feed_world(editor(60 * 60_000)).await.expect("folded");
    assert!(!session.activity().borrow().busy);
    // Back two minutes later: the milestone turn has begun when the feed resolves.
    clock.advance(120_000);
    session.feed_world(editor(0)).await.expect("folded");
    assert!(session.activity().borrow().busy, "the turn the reading began shows in the activity");
    let end = ended(&sink).await;
    assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }), "{end:?}");
    let block = last_block(&sink);
    assert!(block.contains("trigger: milestone first_activity (fired at "), "{block}");
    assert!(block.contains("frontmost: Editor — \"notes.md\" (for 2min)"), "the fed readings' times are the manual clock's: {block}");
    session.close().await;
}
