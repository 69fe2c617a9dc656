//! The virtual pointer and its script.

use std::time::{Duration, Instant};
use wayland_client::globals::{registry_queue_init, GlobalListContents};
use wayland_client::protocol::{wl_pointer, wl_registry, wl_seat};
use wayland_client::{Connection, Dispatch, EventQueue, QueueHandle};
use wayland_protocols_wlr::virtual_pointer::v1::client::{zwlr_virtual_pointer_manager_v1 as manager, zwlr_virtual_pointer_v1 as vp};

/// Linux input's left button (`BTN_LEFT`).
const BTN_LEFT: u32 = 0x110;

struct State;

impl Dispatch<wl_registry::WlRegistry, GlobalListContents> for State {
    fn event(_: &mut Self, _: &wl_registry::WlRegistry, _: wl_registry::Event, _: &GlobalListContents, _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<wl_seat::WlSeat, ()> for State {
    fn event(_: &mut Self, _: &wl_seat::WlSeat, _: wl_seat::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<manager::ZwlrVirtualPointerManagerV1, ()> for State {
    fn event(_: &mut Self, _: &manager::ZwlrVirtualPointerManagerV1, _: manager::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}
impl Dispatch<vp::ZwlrVirtualPointerV1, ()> for State {
    fn event(_: &mut Self, _: &vp::ZwlrVirtualPointerV1, _: vp::Event, _: &(), _: &Connection, _: &QueueHandle<Self>) {}
}

/// One step of the script.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Step {
    Move(f64, f64),
    Down,
    Up,
    Wait(u64),
}

/// The options and steps of a script.
#[derive(Debug, PartialEq)]
struct Script {
    extent: (u32, u32),
    steps_per_move: u32,
    steps: Vec<Step>,
}

fn parse(args: &[String]) -> Result<Script, String> {
    let mut script = Script { extent: (1280, 800), steps_per_move: 1, steps: Vec::new() };
    let mut it = args.iter();
    let num = |w: Option<&String>, what: &str| -> Result<f64, String> {
        w.ok_or(format!("{what}: a number is missing"))?.parse::<f64>().map_err(|e| format!("{what}: {e}"))
    };
    while let Some(word) = it.next() {
        match word.as_str() {
            "--extent" => {
                let v = it.next().ok_or("--extent: WxH is missing")?;
                let (w, h) = v.split_once('x').ok_or(format!("--extent {v}: not WxH"))?;
                script.extent = (w.parse().map_err(|e| format!("--extent: {e}"))?, h.parse().map_err(|e| format!("--extent: {e}"))?);
            }
            "--steps" => script.steps_per_move = num(it.next(), "--steps")?.max(1.0) as u32,
            "move" => script.steps.push(Step::Move(num(it.next(), "move x")?, num(it.next(), "move y")?)),
            "down" => script.steps.push(Step::Down),
            "up" => script.steps.push(Step::Up),
            "wait" => script.steps.push(Step::Wait(num(it.next(), "wait")? as u64)),
            other => return Err(format!("unknown word {other:?}")),
        }
    }
    Ok(script)
}

/// Play `args` (see the crate doc) on the compositor of `$WAYLAND_DISPLAY`.
pub fn run(args: &[String]) -> Result<(), String> {
    let script = parse(args)?;
    let conn = Connection::connect_to_env().map_err(|e| format!("no Wayland compositor: {e}"))?;
    let (globals, mut queue): (_, EventQueue<State>) = registry_queue_init(&conn).map_err(|e| format!("registry: {e}"))?;
    let qh = queue.handle();
    let seat: wl_seat::WlSeat = globals.bind(&qh, 1..=1, ()).map_err(|e| format!("no seat: {e}"))?;
    let mgr: manager::ZwlrVirtualPointerManagerV1 =
        globals.bind(&qh, 1..=2, ()).map_err(|e| format!("the compositor has no zwlr_virtual_pointer_manager_v1: {e}"))?;
    let pointer = mgr.create_virtual_pointer(Some(&seat), &qh, ());
    let start = Instant::now();
    let time = || u32::try_from(start.elapsed().as_millis()).unwrap_or(u32::MAX);
    let mut state = State;
    let mut at: Option<(f64, f64)> = None;
    let (ew, eh) = script.extent;
    for step in &script.steps {
        match *step {
            Step::Move(x, y) => {
                let from = at.unwrap_or((x, y));
                for i in 1..=script.steps_per_move {
                    let f = f64::from(i) / f64::from(script.steps_per_move);
                    let (px, py) = (from.0 + (x - from.0) * f, from.1 + (y - from.1) * f);
                    pointer.motion_absolute(time(), px.clamp(0.0, f64::from(ew)) as u32, py.clamp(0.0, f64::from(eh)) as u32, ew, eh);
                    pointer.frame();
                    queue.roundtrip(&mut state).map_err(|e| format!("roundtrip: {e}"))?;
                    if script.steps_per_move > 1 {
                        std::thread::sleep(Duration::from_millis(16));
                    }
                }
                at = Some((x, y));
            }
            Step::Down | Step::Up => {
                let pressed = if *step == Step::Down { wl_pointer::ButtonState::Pressed } else { wl_pointer::ButtonState::Released };
                pointer.button(time(), BTN_LEFT, pressed);
                pointer.frame();
                queue.roundtrip(&mut state).map_err(|e| format!("roundtrip: {e}"))?;
            }
            Step::Wait(ms) => std::thread::sleep(Duration::from_millis(ms)),
        }
    }
    pointer.destroy();
    queue.roundtrip(&mut state).map_err(|e| format!("roundtrip: {e}"))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn a_script_parses_and_bad_words_are_named() {
        let s = parse(&words("--extent 2560x800 --steps 4 move 10 20.5 down wait 50 up")).unwrap();
        assert_eq!(s.extent, (2560, 800));
        assert_eq!(s.steps_per_move, 4);
        assert_eq!(s.steps, vec![Step::Move(10.0, 20.5), Step::Down, Step::Wait(50), Step::Up]);
        assert!(parse(&words("jump")).unwrap_err().contains("jump"));
        assert!(parse(&words("move 1")).unwrap_err().contains("move y"));
        assert!(parse(&words("--extent 12")).unwrap_err().contains("WxH"));
    }
}
