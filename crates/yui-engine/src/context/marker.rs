//! Background markers: the user-role line that stands in for an utterance on
//! a turn nobody typed, keyed by `trigger.event_name` (`docs/client-context.md`, "Background markers").

use super::input::{ClientContext, Trigger, WakeCause};
use super::sanitize::{character_name, marker_name, sanitize};

/// The marker for this turn's `trigger.event_name`.
pub fn background_marker(ctx: &ClientContext) -> String {
    let t = &ctx.trigger;
    let event = sanitize(t.event_name.as_deref().unwrap_or(""));
    let fixed = match event.as_str() {
        "proactive.tap_bored" => "(I keep poking at you)",
        "proactive.head_pat" => "(I just patted your head)",
        "proactive.drag_held" => "(I keep dragging you around)",
        "proactive.window_sit" => "(I just sat you down on a window's edge)",
        "proactive.peek" => "(I left you peeking out from the side of a window)",
        "proactive.dropped" => "(I just dropped you from mid-air)",
        "proactive.screen_app_switched" => "(I just moved over to something else on my screen)",
        "proactive.screen_long_session" => "(I've been in the same thing on my screen for a while)",
        "proactive.wake" => match t.wake.as_ref().and_then(|w| w.cause) {
            Some(WakeCause::Click) => "(I just woke you up)",
            // The timeout, and a wake whose cause is not known: the plain fact.
            _ => "(you just woke up)",
        },
        "agent.done" => return agent_single(t, "(my {} task just finished)", "(one of my coding tasks just finished)"),
        "agent.needs_input" => return agent_single(t, "(my {} task is waiting on my input)", "(one of my coding tasks is waiting on my input)"),
        "agent.catchup" => return agent_catchup(t),
        "signals.push" => "(a new signal just arrived for you)",
        "signals.batch" => "(a few signals batched up for you)",
        "signals.catchup" => "(signals piled up for you)",
        "signals.urgent" => "(something urgent just came in for you)",
        "signals.urgent_catchup" => "(urgent things piled up for you)",
        "addressed.character" => return addressed(t),
        "time_milestone.first_activity" => "(I've just started my day)",
        e if e.starts_with("proactive.touch_") => "(I just poked you)",
        e if e.starts_with("proactive.") => "(I've gone quiet for a while)",
        e if e.starts_with("schedule.") => "(it's the time of day you check in on me)",
        _ => "(something just caught your attention)",
    };
    fixed.to_string()
}

/// `agent.done` / `agent.needs_input`: the tool named, else the unnamed wording.
fn agent_single(t: &Trigger, named: &str, unnamed: &str) -> String {
    match marker_name(t.agent.as_ref().and_then(|a| a.tool.as_deref())) {
        Some(tool) => named.replace("{}", &tool),
        None => unnamed.to_string(),
    }
}

/// `agent.catchup`: the distinct tools in first-seen order, `a`, `a and b`,
/// `a, b and c`; the unnamed wording when no name is left.
fn agent_catchup(t: &Trigger) -> String {
    let mut names: Vec<String> = Vec::new();
    for item in t.agent_catchup.iter().flat_map(|c| c.items.iter()) {
        if let Some(name) = marker_name(item.tool.as_deref()) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    match names.split_last() {
        None => "(my coding tasks piled up while I was away)".to_string(),
        Some((last, [])) => format!("(my {last} tasks piled up while I was away)"),
        Some((last, rest)) => format!("(my {} and {last} tasks piled up while I was away)", rest.join(", ")),
    }
}

/// `addressed.character`: `(<name> just spoke to you)`.
fn addressed(t: &Trigger) -> String {
    let from = t.addressed.as_ref().and_then(|a| marker_name(a.from.as_deref()));
    match from {
        Some(name) => format!("({} just spoke to you)", character_name(name)),
        None => "(another character just spoke to you)".to_string(),
    }
}
