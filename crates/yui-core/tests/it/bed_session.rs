//! The bed scene through a whole session (`docs/triggers.md`, "Wake and the
//! bed scene"), against
//! yui-mock's demo agent over Responses: the launch scene, `go_to_bed`, and
//! each wake cause (a click, a message, the timeout, a click during the
//! lie-down clip), with the wall clock under the test's control. The
//! desktop is a fake that reads the user present, so its sampler ticks
//! the driver once a second.

use crate::common;
use common::*;
use std::sync::Arc;
use std::time::Duration;
use yui_core::body::BedPhase;
use yui_core::clock::ManualClock;
use yui_core::command::Touch;
use yui_core::context::PostureState;
use yui_core::{ChatApi, CollectingSink, DataDir, Session, SessionConfig, UiEvent, UserCommand};

struct Present;

impl yui_core::world::DesktopFacts for Present {
    fn frontmost(&self) -> Option<yui_core::world::Sample> {
        Some(yui_core::world::Sample { app: "Editor".into(), title: "notes.md".into(), pid: None, fullscreen: false })
    }
    fn idle_ms(&self) -> Option<u64> {
        Some(0)
    }
}

/// 2026-12-01 07:05 UTC.
const T0: i64 = 1_796_108_700_000;

async fn bed_session(mock: &yui_mock::MockServer, launch: bool, schedule: bool) -> (Session, CollectingSink, Arc<ManualClock>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut settings = crate::common::backend(ChatApi::Responses, mock.base_url());
    settings.character.bed.at_launch = true;
    settings.character.bed.wake_timeout_min = 1;
    settings.user.reactions.schedule = schedule;
    settings.user.reactions.idle_cues = false;
    settings.user.reactions.pacing.after_user_min = 0;
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir.path()).unwrap());
    cfg.timeouts = fast_timeouts();
    cfg.world = Arc::new(Present);
    cfg.launch = launch;
    let clock = ManualClock::at(T0);
    cfg.clock = clock.clone();
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    assert!(session.wait_ready(WAIT).await);
    (session, sink, clock, dir)
}

/// Wait until the last `body` event matches.
async fn body_becomes(sink: &CollectingSink, posture: PostureState, phase: Option<BedPhase>) {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let last = sink.events().into_iter().rev().find_map(|e| match e {
            UiEvent::Body { posture, bed, .. } => Some((posture, bed.map(|b| b.phase))),
            _ => None,
        });
        if last == Some((posture, phase)) {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "the body never became {posture:?} {phase:?}; last {last:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn nth_block(sink: &CollectingSink, n: usize) -> String {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        if let Some(b) = blocks(sink).get(n - 1) {
            return b.clone();
        }
        assert!(std::time::Instant::now() < deadline, "turn {n} never went out");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_launch_scene_sleeps_through_the_milestone_and_a_click_wakes_her_with_it() {
    let mock = mock_demo(Some("k")).await;
    let (session, sink, clock, dir) = bed_session(&mock, true, true).await;
    body_becomes(&sink, PostureState::Lying, Some(BedPhase::Asleep)).await;
    assert_eq!(
        session.body(),
        UiEvent::Body {
            posture: PostureState::Lying,
            bed: sink.events().iter().rev().find_map(|e| match e {
                UiEvent::Body { bed, .. } => *bed,
                _ => None,
            }),
            gait: None,
            peek: None,
            below: None
        }
    );
    // Present and the day's milestone owed: it waits while she sleeps.
    tokio::time::sleep(Duration::from_millis(2_200)).await;
    assert!(blocks(&sink).is_empty(), "nothing fires while she is on the bed");
    // A poke while asleep wakes her: no touch cue, a wake turn that carries
    // the milestone.
    session.send(UserCommand::Touch { touch: Touch::Poke { region: "head".into() } }).unwrap();
    body_becomes(&sink, PostureState::Lying, Some(BedPhase::Waking)).await;
    let block = nth_block(&sink, 1).await;
    assert!(block.contains("trigger: milestone first_activity (fired at "), "{block}");
    assert!(block.contains("\nwake: the character just woke from the bed, woken by the user's click"), "{block}");
    assert!(block.contains("body: lying, getting up now"), "{block}");
    assert!(!block.contains("touch"), "the poke made no touch cue: {block}");
    assert!(dir.path().join("milestone-fired").exists(), "the wake turn was the day's first activity");
    // The wake clip ends: she stands.
    clock.advance(3_300);
    body_becomes(&sink, PostureState::Standing, None).await;
    assert!(session.wait_idle(WAIT).await);
    assert_eq!(blocks(&sink).len(), 1, "one turn: the milestone rode the wake");
    session.close().await;
}

#[tokio::test]
async fn go_to_bed_then_a_message_wakes_her_on_its_own_turn_and_later_the_timeout() {
    let mock = mock_demo(Some("k")).await;
    let (session, sink, clock, _dir) = bed_session(&mock, false, false).await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert!(!sink.events().iter().any(|e| matches!(e, UiEvent::Body { .. })), "no launch scene on a session that does not start the app");
    session.send(UserCommand::GoToBed).unwrap();
    body_becomes(&sink, PostureState::Lying, Some(BedPhase::LyingDown)).await;
    clock.advance(2_500);
    body_becomes(&sink, PostureState::Lying, Some(BedPhase::Asleep)).await;
    session.send(UserCommand::SendText { text: "good morning".into() }).unwrap();
    let block = nth_block(&sink, 1).await;
    assert!(block.contains("trigger: user message\nwake: the character just woke from the bed, woken by this message"), "{block}");
    assert!(block.contains("body: lying, getting up now"), "{block}");
    ended(&sink).await;
    assert!(session.wait_idle(WAIT).await);
    clock.advance(3_300);
    body_becomes(&sink, PostureState::Standing, None).await;

    // Back to bed; the one-minute wake timeout wakes her.
    session.send(UserCommand::GoToBed).unwrap();
    body_becomes(&sink, PostureState::Lying, Some(BedPhase::LyingDown)).await;
    clock.advance(2_500);
    body_becomes(&sink, PostureState::Lying, Some(BedPhase::Asleep)).await;
    clock.advance(60_000);
    body_becomes(&sink, PostureState::Lying, Some(BedPhase::Waking)).await;
    let block = nth_block(&sink, 2).await;
    assert!(block.contains("trigger: wake\nwake: the character just woke from the bed, woken by the wake timeout"), "{block}");
    clock.advance(3_300);
    body_becomes(&sink, PostureState::Standing, None).await;
    assert!(session.wait_idle(WAIT).await);

    // A click during the lie-down clip ends the scene with no wake turn.
    session.send(UserCommand::GoToBed).unwrap();
    body_becomes(&sink, PostureState::Lying, Some(BedPhase::LyingDown)).await;
    session.send(UserCommand::Touch { touch: Touch::Bed }).unwrap();
    body_becomes(&sink, PostureState::Standing, Some(BedPhase::Leaving)).await;
    clock.advance(700);
    body_becomes(&sink, PostureState::Standing, None).await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(blocks(&sink).len(), 2, "no wake signal for a wake before she lay down");
    session.close().await;
}

#[tokio::test]
async fn up_and_about_a_poke_is_a_touch_cue_and_a_second_one_is_debounced() {
    let mock = mock_demo(Some("k")).await;
    let (session, sink, clock, _dir) = bed_session(&mock, false, false).await;
    session.send(UserCommand::Touch { touch: Touch::Poke { region: "head".into() } }).unwrap();
    let block = nth_block(&sink, 1).await;
    assert!(block.contains("trigger: proactive cue \"head touch\""), "{block}");
    ended(&sink).await;
    assert!(session.wait_idle(WAIT).await);
    clock.advance(4_000);
    session.send(UserCommand::Touch { touch: Touch::HeadPat }).unwrap();
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(blocks(&sink).len(), 1, "within touch_gap_s of the last touch turn: dropped");
    clock.advance(10_000);
    session.send(UserCommand::Touch { touch: Touch::HeadPat }).unwrap();
    let block = nth_block(&sink, 2).await;
    assert!(block.contains("trigger: proactive cue \"head pat\""), "{block}");
    session.close().await;
}
