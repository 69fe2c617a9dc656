//! The state lines: `time`, `frontmost`, `screenshot source`, `body` and
//! `tool switches`.

use super::input::{BodyState, ClientContext, Env, ScreenSource, Screenshot};
use super::minutes_since;
use super::sanitize::{clean, quote, sanitize};

/// `time: <timestamp> (<timezone>)`, always present.
pub(crate) fn time(env: &Env) -> String {
    format!("time: {} ({})", sanitize(&env.timestamp), sanitize(&env.timezone))
}

/// `frontmost: <app> — "<title>" (for Nmin)`. The title is left out when it
/// repeats the app; a title alone stands as the label (quoted); nothing
/// resolved omits the line.
pub(crate) fn frontmost(env: &Env, now_ms: i64) -> Option<String> {
    let f = env.frontmost.as_ref()?;
    let app = clean(f.app.as_deref());
    let title = clean(f.window_title.as_deref());
    let label = match (app, title) {
        (Some(app), Some(title)) if title != app => format!("{app} — {}", quote(&title)),
        (Some(app), _) => app,
        (None, Some(title)) => quote(&title),
        (None, None) => return None,
    };
    Some(match f.since {
        Some(since) => format!("frontmost: {label} (for {}min)", minutes_since(now_ms, since)),
        None => format!("frontmost: {label}"),
    })
}

/// `screenshot source: …`, one shape per source kind; omitted unless
/// automatic attachment is on and a known source is selected.
pub(crate) fn screenshot(shot: Option<&Screenshot>) -> Option<String> {
    let shot = shot.filter(|s| s.enabled)?;
    let text = match shot.source.as_ref()? {
        ScreenSource::Monitor { index, label } => {
            let mut s = String::from("monitor");
            if let Some(i) = index {
                s.push_str(&format!(" {i}"));
            }
            if let Some(label) = clean(label.as_deref()) {
                s.push_str(&format!(" ({label})"));
            }
            s
        }
        ScreenSource::BrowserTab { browser, title, url } => {
            let mut s = String::from("browser_tab");
            s.push_str(&owner_and_title(clean(browser.as_deref()), clean(title.as_deref())));
            if let Some(url) = clean(url.as_deref()) {
                s.push_str(&format!(" ({url})"));
            }
            s
        }
        ScreenSource::Window { app, title } => {
            format!("window{}", owner_and_title(clean(app.as_deref()), clean(title.as_deref())))
        }
        ScreenSource::Other => return None,
    };
    Some(format!("screenshot source: {text}"))
}

/// ` <owner> — "<title>"`, either part left out when empty.
fn owner_and_title(owner: Option<String>, title: Option<String>) -> String {
    match (owner, title) {
        (Some(o), Some(t)) => format!(" {o} — {}", quote(&t)),
        (Some(o), None) => format!(" {o}"),
        (None, Some(t)) => format!(" {}", quote(&t)),
        (None, None) => String::new(),
    }
}

/// `body: <state>[ on <label>][, getting up now] (for Nmin)`, always present.
pub(crate) fn body(body: &BodyState, now_ms: i64) -> String {
    let state = body.posture.state;
    let mut s = format!("body: {}", state.as_str());
    if state.carries_perch() {
        if let Some(label) = body.posture.perched_on.as_ref().and_then(|p| p.label()) {
            s.push_str(" on ");
            s.push_str(&label);
        }
    }
    if body.waking {
        s.push_str(", getting up now");
    }
    s.push_str(&format!(" (for {}min)", minutes_since(now_ms, body.since)));
    s
}

/// `tool switches: id=on, id=off`, in declaration order; omitted when the
/// turn declares no switch.
pub(crate) fn tool_switches(ctx: &ClientContext) -> Option<String> {
    let entries: Vec<String> = ctx
        .tool_switches
        .iter()
        .filter_map(|t| {
            let on = t.on?;
            let id = clean(Some(&t.id))?;
            Some(format!("{id}={}", if on { "on" } else { "off" }))
        })
        .collect();
    if entries.is_empty() {
        None
    } else {
        Some(format!("tool switches: {}", entries.join(", ")))
    }
}
