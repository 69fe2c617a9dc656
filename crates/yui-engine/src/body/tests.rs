//! The posture machine driven through whole moves on a made-up desktop.

use super::geometry::Rect;
use super::*;
use crate::context::PostureState;
use crate::triggers::cues::TouchKind;

const SCREEN: Rect = Rect { x: 0, y: 0, width: 1280, height: 800 };

fn notes() -> Surface {
    Surface { app: "Notes".into(), title: "todo.txt".into(), rect: Rect { x: 600, y: 400, width: 500, height: 300 } }
}

fn scene(windows: Vec<Surface>) -> Scene {
    Scene { windows, displays: vec![SCREEN] }
}

fn frame() -> Frame {
    Frame::new(360, 520, 1.0, &BodyTunables::shipped())
}

/// A body standing on the floor with its soles' centre at `x`.
fn standing_at(x: i32) -> (Body, Pt) {
    let f = frame();
    let origin = f.origin_for_feet(Pt::new(x, 800));
    let mut body = Body::new(BodyTunables::shipped(), 0);
    body.located(origin);
    (body, origin)
}

/// Tick every 33 ms from `from` until the move ends (at most 20 s); all steps.
fn run(body: &mut Body, from: i64) -> (Vec<BodyStep>, i64) {
    let mut steps = Vec::new();
    let mut now = from;
    while body.moving() && now < from + 20_000 {
        now += 33;
        steps.extend(body.tick(now));
    }
    (steps, now)
}

fn cues(steps: &[BodyStep]) -> Vec<TouchKind> {
    steps.iter().filter_map(|s| if let BodyStep::Cue(k) = s { Some(k.clone()) } else { None }).collect()
}

fn answers(steps: &[BodyStep]) -> Vec<Result<(), ActionError>> {
    steps.iter().filter_map(|s| if let BodyStep::Answer(a) = s { Some(*a) } else { None }).collect()
}

#[test]
fn a_drag_held_long_cues_once_and_a_release_in_the_air_falls_to_the_floor_as_a_drop() {
    let f = frame();
    let (mut body, origin) = standing_at(200);
    let steps = body.grab(Pt::new(380, 500), origin, 1_000);
    assert_eq!(body.now().posture, PostureState::Dragging);
    assert!(steps.contains(&BodyStep::Posture));
    // Up and to the right, 300 px into the air.
    let steps = body.drag_to(Pt::new(400, 200), 1_100);
    assert_eq!(steps, vec![BodyStep::Place(Pt::new(origin.x + 20, origin.y - 300))]);
    assert!(cues(&body.tick(4_900)).is_empty(), "not held long enough yet");
    assert_eq!(cues(&body.tick(5_000)), vec![TouchKind::DragHeld]);
    assert!(cues(&body.drag_to(Pt::new(401, 200), 6_000)).is_empty(), "once per hold");
    body.release(&scene(vec![]), &f, 6_000);
    let (steps, end) = run(&mut body, 6_000);
    assert_eq!(body.now().posture, PostureState::Standing);
    assert_eq!(f.feet_of(body.now().origin.unwrap()).y, 800, "on the floor");
    assert_eq!(cues(&steps), vec![TouchKind::Dropped]);
    // √(2·300/2600) s ≈ 480 ms of falling.
    assert!((6_450..=6_560).contains(&end), "the fall took {} ms", end - 6_000);
    assert!(answers(&steps).is_empty(), "no action waited");
}

#[test]
fn a_short_drop_is_no_drop_and_a_release_over_a_window_sits_on_it() {
    let f = frame();
    let (mut body, origin) = standing_at(200);
    body.grab(Pt::new(0, 0), origin, 0);
    body.drag_to(Pt::new(0, -20), 100);
    body.release(&scene(vec![]), &f, 200);
    assert!(cues(&run(&mut body, 200).0).is_empty(), "20 px is no drop");

    // Let go with her soles 10 px above the Notes window's top edge.
    let o = body.now().origin.unwrap();
    body.grab(Pt::new(0, 0), o, 1_000);
    let target = f.origin_for_feet(Pt::new(800, 390));
    body.drag_to(Pt::new(target.x - o.x, target.y - o.y), 1_100);
    body.release(&scene(vec![notes()]), &f, 1_200);
    let (steps, _) = run(&mut body, 1_200);
    let now = body.now();
    assert_eq!(now.posture, PostureState::Sitting);
    assert_eq!(now.perch.as_ref().map(|w| w.app.as_str()), Some("Notes"));
    assert_eq!(f.seat_of(now.origin.unwrap()), Pt::new(800, 400), "hips on the edge");
    assert_eq!(cues(&steps), vec![TouchKind::WindowSit]);
}

#[test]
fn a_release_at_a_window_side_peeks_and_a_moved_window_lets_her_fall() {
    let f = frame();
    let (mut body, origin) = standing_at(200);
    body.grab(Pt::new(0, 0), origin, 0);
    let at_side = f.origin_for_feet(Pt::new(590, 650));
    body.drag_to(Pt::new(at_side.x - origin.x, at_side.y - origin.y), 100);
    body.release(&scene(vec![notes()]), &f, 200);
    let (steps, now) = run(&mut body, 200);
    let b = body.now();
    assert_eq!(b.posture, PostureState::Peeking);
    assert_eq!(b.peek.as_ref().map(|p| (p.side, p.edge_x)), Some((Side::Left, 600)));
    assert_eq!(cues(&steps), vec![TouchKind::Peek]);
    assert!(body.scene_changed(&scene(vec![notes()]), &f, now + 400).is_empty(), "the window is still there");
    let mut moved = notes();
    moved.rect.x += 50;
    body.scene_changed(&scene(vec![moved]), &f, now + 800);
    run(&mut body, now + 800);
    assert_eq!(body.now().posture, PostureState::Standing);
    assert_eq!(body.now().peek, None);
    assert_eq!(f.feet_of(body.now().origin.unwrap()).y, 800);
}

#[test]
fn sit_on_window_walks_climbs_and_hops_then_answers_and_a_cover_ends_the_sit() {
    let f = frame();
    let (mut body, origin) = standing_at(200);
    let desk = scene(vec![notes()]);
    let mut postures = Vec::new();
    let first = body.act(&BodyMove::SitOnWindow { app: "notes".into() }, &desk, &f, origin, 0).unwrap();
    assert!(answers(&first).is_empty(), "answers when the move ends");
    let mut now = 0;
    let mut answered = Vec::new();
    while body.moving() {
        now += 33;
        let steps = body.tick(now);
        if steps.contains(&BodyStep::Posture) {
            postures.push((body.now().posture, body.now().gait));
        }
        answered.extend(answers(&steps));
    }
    assert_eq!(answered, vec![Ok(())]);
    assert_eq!(postures.first(), Some(&(PostureState::Climbing, Some(Gait::Climb))), "she climbs up the side: {postures:?}");
    assert_eq!(postures.last(), Some(&(PostureState::Sitting, None)));
    assert!(now <= 12_100, "within move_max_ms: {now}");
    let b = body.now();
    assert_eq!(f.seat_of(b.origin.unwrap()).y, 400);
    assert!(cues(&[]).is_empty());
    // Another window comes in front of her edge: the sit ends, she falls.
    let cover = Surface { app: "Term".into(), title: "sh".into(), rect: Rect { x: 500, y: 300, width: 600, height: 200 } };
    let covered = scene(vec![cover, notes()]);
    assert!(!body.scene_changed(&covered, &f, now + 400).is_empty());
    run(&mut body, now + 400);
    assert_eq!(body.now().posture, PostureState::Standing);
}

#[test]
fn a_grab_interrupts_an_action_and_refusals_name_their_reason() {
    let f = frame();
    let (mut body, origin) = standing_at(200);
    let desk = scene(vec![notes()]);
    assert_eq!(body.act(&BodyMove::SitOnWindow { app: "Mail".into() }, &desk, &f, origin, 0).unwrap_err(), ActionError::NotFound);
    assert_eq!(body.act(&BodyMove::MoveTo { spot: Spot::Center, monitor: Some(3) }, &desk, &f, origin, 0).unwrap_err(), ActionError::NotFound);
    // A window at the very top of the screen leaves no room for her head.
    let high = Surface { app: "Bar".into(), title: "".into(), rect: Rect { x: 0, y: 0, width: 1280, height: 40 } };
    assert_eq!(body.act(&BodyMove::SitOnWindow { app: "Bar".into() }, &scene(vec![high]), &f, origin, 0).unwrap_err(), ActionError::Blocked);

    body.act(&BodyMove::MoveTo { spot: Spot::TopRight, monitor: None }, &desk, &f, origin, 0).unwrap();
    body.tick(500);
    assert_eq!(body.act(&BodyMove::StandDown, &desk, &f, origin, 600).unwrap_err(), ActionError::Busy);
    let here = body.now().origin.unwrap();
    assert_ne!(here, origin, "she was under way");
    let steps = body.grab(Pt::new(10, 10), origin, 700);
    assert_eq!(answers(&steps), vec![Err(ActionError::Interrupted)]);
    assert_eq!(body.now().posture, PostureState::Dragging);
    assert_eq!(body.act(&BodyMove::StandDown, &desk, &f, origin, 800).unwrap_err(), ActionError::Interrupted);
    assert!(!body.moving());
}

#[test]
fn move_to_peek_and_stand_down_end_where_they_say() {
    let f = frame();
    let (mut body, origin) = standing_at(200);
    let desk = scene(vec![notes()]);
    body.act(&BodyMove::MoveTo { spot: Spot::BottomRight, monitor: Some(0) }, &desk, &f, origin, 0).unwrap();
    let (steps, t) = run(&mut body, 0);
    assert_eq!(answers(&steps), vec![Ok(())]);
    let o = body.now().origin.unwrap();
    assert_eq!(f.feet_of(o).y, 800);
    assert!(o.x + f.width <= 1280 && o.x + f.width > 1200, "at the right: {o:?}");
    // Under the Notes window's span now? Peek from the screen's right edge.
    let mut clear = desk.clone();
    clear.windows.clear();
    body.act(&BodyMove::Peek { side: Side::Right }, &clear, &f, o, t).unwrap();
    let (steps, t) = run(&mut body, t);
    assert_eq!(answers(&steps), vec![Ok(())]);
    assert_eq!(body.now().posture, PostureState::Peeking);
    assert_eq!(f.feet_of(body.now().origin.unwrap()).x, 1280, "half past the screen's edge");
    let o = body.now().origin.unwrap();
    body.act(&BodyMove::StandDown, &clear, &f, o, t).unwrap();
    let (steps, _) = run(&mut body, t);
    assert_eq!(answers(&steps), vec![Ok(())]);
    assert_eq!(body.now().posture, PostureState::Standing);
    assert_eq!(f.feet_of(body.now().origin.unwrap()).x, 1280 - f.width / 2, "out from behind the edge, her whole window on the screen");
    assert_eq!(body.now().origin.unwrap().x + f.width, 1280);
    // Standing already: stand_down answers at once.
    let steps = body.act(&BodyMove::StandDown, &clear, &f, o, t + 10).unwrap();
    assert_eq!(answers(&steps), vec![Ok(())]);
}

#[test]
fn an_idle_stand_strolls_now_and_then_but_not_while_lying() {
    let f = frame();
    let (mut body, origin) = standing_at(640);
    let every = body.tunables().ambient_walk_every_ms as i64;
    assert_eq!(body.ambient_due(), Some(every));
    assert!(body.ambient(&scene(vec![]), &f, origin, 0.2, every - 1).is_empty(), "not yet");
    body.ambient(&scene(vec![]), &f, origin, 0.2, every);
    assert_eq!(body.now().posture, PostureState::Walking);
    run(&mut body, every);
    assert_eq!(body.now().posture, PostureState::Standing);
    assert!(f.feet_of(body.now().origin.unwrap()).x < 640, "0.2 walks left");
    body.set_lying(true, every + 30_000);
    assert_eq!(body.ambient_due(), None);
    assert_eq!(body.act(&BodyMove::StandDown, &scene(vec![]), &f, origin, every + 30_001).unwrap_err(), ActionError::Busy);
}

#[test]
fn from_the_floor_she_sometimes_climbs_a_window_and_from_its_edge_she_hops_to_another() {
    let f = frame();
    let (mut body, origin) = standing_at(500);
    let other = Surface { app: "Mail".into(), title: "inbox".into(), rect: Rect { x: 100, y: 450, width: 400, height: 300 } };
    let desk = scene(vec![notes(), other]);
    let every = body.tunables().ambient_walk_every_ms as i64;
    body.ambient(&desk, &f, origin, 0.9, every);
    assert_eq!(body.now().posture, PostureState::Climbing, "0.9 climbs");
    let (_, t) = run(&mut body, every);
    assert_eq!(body.now().posture, PostureState::Sitting);
    let first = body.now().perch.unwrap();
    // From the edge, 0.1 hops to the other window's top.
    let due = body.ambient_due().expect("a sit may stir too");
    assert!(due > t);
    body.ambient(&desk, &f, body.now().origin.unwrap(), 0.1, due);
    run(&mut body, due);
    let second = body.now().perch.unwrap();
    assert_eq!(body.now().posture, PostureState::Sitting);
    assert!(!second.same_window(&first), "hopped from {} to {}", first.app, second.app);
    assert_eq!(f.seat_of(body.now().origin.unwrap()).y, second.rect.y, "on its edge");
    // 0.5 scoots along the same edge.
    let due = body.ambient_due().unwrap();
    let before = body.now().origin.unwrap();
    body.ambient(&desk, &f, before, 0.5, due);
    run(&mut body, due);
    assert_eq!(body.now().perch.as_ref().map(|w| w.app.clone()), Some(second.app.clone()));
    assert_ne!(body.now().origin.unwrap(), before, "she moved along it");
    assert_eq!(f.seat_of(body.now().origin.unwrap()).y, second.rect.y);
}

#[test]
fn home_is_on_the_floor_towards_the_right_with_her_whole_window_on_the_display() {
    let f = frame();
    let d = super::geometry::Rect { x: 1280, y: 0, width: 1920, height: 1080 };
    let o = super::plan::home(d, &f);
    assert_eq!(f.feet_of(o).y, 1080, "feet on the floor");
    assert_eq!(o.x + f.width, 1280 + 1920 - 96, "a twentieth in from the right edge");
    let narrow = super::geometry::Rect { x: 0, y: 0, width: 300, height: 600 };
    let o = super::plan::home(narrow, &f);
    assert!(f.feet_of(o).x >= f.body / 2 && f.feet_of(o).x <= 300 - f.body / 2, "her body on a display narrower than her window: {o:?}");
}

#[test]
fn characters_beside_main_first_stand_in_a_row_to_her_left_never_on_each_other() {
    let f = frame();
    let d = super::geometry::Rect { x: 0, y: 0, width: 1280, height: 800 };
    let main = super::plan::home(d, &f);
    assert_eq!(super::plan::home_beside(d, &f, 0), main, "main stands at home");
    let spots: Vec<_> = (0..6).map(|i| super::plan::home_beside(d, &f, i)).collect();
    for (i, o) in spots.iter().enumerate() {
        assert_eq!(f.feet_of(*o).y, 800, "place {i} on the floor");
        assert!(o.x >= 0 && o.x + f.width <= 1280, "place {i}: her whole window on the display: {o:?}");
    }
    // Those that fit on this floor stand apart: windows side by side.
    let fit = ((f.feet_of(main).x - f.width / 2) / f.width + 1) as usize;
    assert!(fit >= 2, "a 1280-wide floor holds two windows at least");
    for i in 1..fit.min(6) {
        assert_eq!(spots[i - 1].x - spots[i].x, f.width, "place {i} is one window to the left");
    }
    // When the floor is full the row starts again at home.
    assert_eq!(super::plan::home_beside(d, &f, fit), main);
}
