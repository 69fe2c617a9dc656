//! The coding-agent trigger lines: a single event, or a catch-up burst.

use super::input::{AgentEvent, Trigger};
use super::minutes_since;
use super::sanitize::{clean, count, quote};

/// A single event (`trigger: agent …`, `agent note`, `agent detail`), else a
/// catch-up burst (`trigger: agent catchup (N events)` and one `agent event:`
/// line per item, each followed by its `agent detail`), else `trigger: agent`.
pub(crate) fn lines(t: &Trigger, now_ms: i64, out: &mut Vec<String>) {
    if let Some(event) = &t.agent {
        let shape = event_shape(event, now_ms, false);
        out.push(if shape.is_empty() { "trigger: agent".to_string() } else { format!("trigger: agent {shape}") });
        if let Some(summary) = clean(event.summary.as_deref()) {
            out.push(format!("agent note (the coding agent's summary): {}", quote(&summary)));
        }
        push_detail(event, out);
    } else if let Some(burst) = &t.agent_catchup {
        out.push(format!("trigger: agent catchup ({})", count(burst.items.len(), "event")));
        for item in &burst.items {
            out.push(format!("agent event: {}", event_shape(item, now_ms, true)));
            push_detail(item, out);
        }
    } else {
        out.push("trigger: agent".to_string());
    }
}

fn push_detail(event: &AgentEvent, out: &mut Vec<String>) {
    if let Some(detail) = clean(event.detail.as_deref()) {
        out.push(format!("agent detail (quoted from the coding agent): {}", quote(&detail)));
    }
}

/// `<tool> <phase>[ (<status>)], project "<project>"[ - "<summary>"] (Nmin ago)`.
/// The status renders for phase `done` only; the summary only in a catch-up item.
fn event_shape(e: &AgentEvent, now_ms: i64, with_summary: bool) -> String {
    let phase = clean(e.phase.as_deref());
    let mut s = [clean(e.tool.as_deref()), phase.clone()].into_iter().flatten().collect::<Vec<_>>().join(" ");
    if phase.as_deref() == Some("done") {
        if let Some(status) = clean(e.status.as_deref()) {
            s.push_str(&format!(" ({status})"));
        }
    }
    if let Some(project) = clean(e.project.as_deref()) {
        if !s.is_empty() {
            s.push_str(", ");
        }
        s.push_str("project ");
        s.push_str(&quote(&project));
    }
    if with_summary {
        if let Some(summary) = clean(e.summary.as_deref()) {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str("- ");
            s.push_str(&quote(&summary));
        }
    }
    if let Some(ts) = e.ts {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&format!("({}min ago)", minutes_since(now_ms, ts)));
    }
    s
}
