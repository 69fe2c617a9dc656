//! The trigger lines: exactly one `trigger:` headline, chosen by the kind and
//! by what the turn carries, then its follow-up lines.
//!
//! Order: the headline, then `wake:` (`docs/triggers.md`, "Wake and the bed scene": the wake: line follows the
//! headline; a milestone that rides a wake turn with drained signals reads
//! `trigger:`, `wake:`, then the `signal` lines), then the headline's own
//! follow-ups (`cue note`, `agent note`, `agent detail`, `agent event:`
//! lines, `recent switches:`), then the `signal` lines (independent of the
//! headline).

use super::agent;
use super::input::{AddressedTo, ClientContext, ScreenTransition, Trigger, TriggerKind, WakeCause};
use super::minutes_since;
use super::sanitize::{character_name, clean, quote};
use super::signals;

/// The headline and every follow-up line, in order.
pub(crate) fn lines(ctx: &ClientContext, now_ms: i64) -> Vec<String> {
    let t = &ctx.trigger;
    let mut out = Vec::with_capacity(4);
    match t.kind {
        TriggerKind::User => out.push(user_message(t)),
        TriggerKind::Addressed => out.push(addressed(t, now_ms)),
        TriggerKind::Agent => agent::lines(t, now_ms, &mut out),
        TriggerKind::Signals => out.push(signals::headline(t.signals.as_deref())),
        TriggerKind::Milestone => out.push(milestone(t).unwrap_or_else(|| "trigger: milestone".to_string())),
        TriggerKind::Schedule | TriggerKind::Proactive => cue_or_screen(t, &mut out),
    }
    if let Some(wake) = &t.wake {
        let mut s = String::from("wake: the character just woke from the bed");
        match wake.cause {
            Some(WakeCause::Click) => s.push_str(", woken by the user's click"),
            Some(WakeCause::Timeout) => s.push_str(", woken by the wake timeout"),
            Some(WakeCause::Message) => s.push_str(", woken by this message"),
            Some(WakeCause::Other) | None => {}
        }
        out.insert(out.len().min(1), s);
    }
    if let Some(groups) = t.signals.as_deref() {
        signals::lines(groups, &mut out);
    }
    out
}

/// ` (the user has been idle for Nmin)` when `idle_elapsed_min` is present.
fn idle_clause(t: &Trigger) -> String {
    match t.idle_elapsed_min {
        Some(min) => format!(" (the user has been idle for {}min)", min.max(0)),
        None => String::new(),
    }
}

/// `trigger: user message[ (addressed to …)][ (the user has been idle for Nmin)]`.
fn user_message(t: &Trigger) -> String {
    let suffix = match t.addressed_to {
        Some(AddressedTo::Character) => " (addressed to the character)",
        Some(AddressedTo::Everyone) => " (addressed to everyone)",
        Some(AddressedTo::Other) | None => "",
    };
    format!("trigger: user message{suffix}{}", idle_clause(t))
}

/// `trigger: addressed by <from>: "<text>" (Nmin ago)`.
fn addressed(t: &Trigger, now_ms: i64) -> String {
    let mut s = String::from("trigger: addressed");
    if let Some(a) = &t.addressed {
        if let Some(from) = clean(a.from.as_deref()).map(character_name) {
            s.push_str(" by ");
            s.push_str(&from);
        }
        if let Some(text) = clean(a.text.as_deref()) {
            s.push_str(": ");
            s.push_str(&quote(&text));
        }
        if let Some(ts) = a.ts {
            s.push_str(&format!(" ({}min ago)", minutes_since(now_ms, ts)));
        }
    }
    s
}

/// `trigger: milestone <name> (fired at HH:MM)`, when the turn carries one.
fn milestone(t: &Trigger) -> Option<String> {
    let m = t.milestone.as_ref()?;
    let mut s = String::from("trigger: milestone");
    if let Some(name) = clean(m.name.as_deref()) {
        s.push(' ');
        s.push_str(&name);
    }
    if let Some(at) = clean(m.fired_at.as_deref()) {
        s.push_str(&format!(" (fired at {at})"));
    }
    Some(s)
}

/// Schedule and proactive turns: a screen transition, else a labelled cue,
/// else a milestone the turn carries, else a wake, else the bare kind (with
/// the idle clause when present).
fn cue_or_screen(t: &Trigger, out: &mut Vec<String>) {
    let kind = t.kind.as_str();
    if let Some(screen) = &t.screen {
        out.push(screen_headline(screen));
        if let Some(chain) = recent_switches(screen) {
            out.push(chain);
        }
    } else if let Some(label) = t.cue.as_ref().and_then(|c| clean(c.label.as_deref())) {
        out.push(format!("trigger: {kind} cue {}{}", quote(&label), idle_clause(t)));
    } else if let Some(m) = milestone(t) {
        out.push(m);
    } else if t.wake.is_some() {
        out.push("trigger: wake".to_string());
    } else {
        out.push(format!("trigger: {kind}{}", idle_clause(t)));
    }
    if t.screen.is_none() {
        if let Some(note) = t.cue.as_ref().and_then(|c| clean(c.context.as_deref())) {
            out.push(format!("cue note (the user's own intent for this cue): {note}"));
        }
    }
}

/// `trigger: screen <transition>; the user left <app> after Nmin and has been
/// in the frontmost app for Mmin`. The `left` clause needs both `from_app` and
/// `from_dwell_min`.
fn screen_headline(s: &ScreenTransition) -> String {
    let mut line = String::from("trigger: screen");
    if let Some(transition) = clean(s.transition.as_deref()) {
        line.push(' ');
        line.push_str(&transition);
    }
    let left = match (clean(s.from_app.as_deref()), s.from_dwell_min) {
        (Some(app), Some(min)) => Some(format!("the user left {app} after {}min", min.max(0))),
        _ => None,
    };
    let dwell = s.dwell_min.map(|min| format!("has been in the frontmost app for {}min", min.max(0)));
    match (left, dwell) {
        (Some(l), Some(d)) => line.push_str(&format!("; {l} and {d}")),
        (Some(l), None) => line.push_str(&format!("; {l}")),
        (None, Some(d)) => line.push_str(&format!("; the user {d}")),
        (None, None) => {}
    }
    line
}

/// `recent switches: A (Nmin) then B (Mmin) then C`: the held switches as one
/// chain, oldest first. An entry that starts where the last one ended names
/// that app once; one that starts elsewhere adds its app after the last
/// `to_app`. Entries missing either app are left out.
fn recent_switches(s: &ScreenTransition) -> Option<String> {
    let mut chain = String::new();
    let mut last_to: Option<String> = None;
    for entry in &s.recent {
        let (Some(from), Some(to)) = (clean(entry.from_app.as_deref()), clean(entry.to_app.as_deref())) else {
            continue;
        };
        let from_part = match entry.dwell_min {
            Some(min) => format!("{from} ({}min)", min.max(0)),
            None => from.clone(),
        };
        match &last_to {
            None => chain.push_str(&from_part),
            Some(prev) if *prev == from => {
                // The chain already ends in `prev`: give it its dwell.
                chain.truncate(chain.len() - prev.len());
                chain.push_str(&from_part);
            }
            Some(_) => {
                chain.push_str(" then ");
                chain.push_str(&from_part);
            }
        }
        chain.push_str(" then ");
        chain.push_str(&to);
        last_to = Some(to);
    }
    if chain.is_empty() {
        None
    } else {
        Some(format!("recent switches: {chain}"))
    }
}
