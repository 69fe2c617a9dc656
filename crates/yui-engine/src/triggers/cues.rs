//! Cues: the turns the user configured or caused by touching the character
//! (`docs/triggers.md`, "Cues"; the headlines and markers in
//! `docs/client-context.md`).
//!
//! Pure: no clock, no I/O except [`load`], which reads `configs/avatar.json`
//! (or a user copy of it). The caller passes the local day key and the
//! local minutes of the day, the idle minutes, or the tap's epoch ms.
//!
//! - [`Schedule`]: each configured time of day fires once per local day, as
//!   a `schedule` turn named `schedule.<id>`, when a poll finds the local
//!   clock past it. Decision: only up to
//!   [`SCHEDULE_LATE_MAX_MIN`] late,
//!   so an app started (or a machine woken) hours later does not fire a
//!   stale check-in. A same-day restart inside that window fires it again
//!   (the fired days are not stored).
//! - [`IdleCues`]: each configured idle cue fires once per session, as a
//!   `proactive` turn named `proactive.<id>` carrying `idle_elapsed_min`,
//!   when the idle minutes reach its `after_min`; in `after_min` order.
//!   Decision: when one poll finds several due (a jump in idle time), only
//!   the longest fires and the shorter ones count as spent, so a returning
//!   user gets one turn, not a burst.
//! - [`Taps`]: pokes on a body region. The first tap of a streak fires
//!   `proactive.touch_<region>`; [`TAP_BORED_TAPS`] taps within
//!   [`TAP_BORED_WINDOW`] fire `proactive.tap_bored`, once per streak (a
//!   streak ends when a window passes without a tap); every other tap fires
//!   nothing.
//! - [`touch_trigger`]: the single-shot gestures (`head_pat`, `drag_held`,
//!   `window_sit`, `peek`, `dropped`, and the taps' own cues).
//!
//! Every cue carries a label (the built-in touch cues a default one, e.g.
//! `"head pat"`) and the user's context from `configs/avatar.json` when
//! they wrote one. The caller drops touch, head-pat, tap-bored and
//! drag-held cues while the bed scene runs, and drains the inbox's signal
//! groups into a `tap_bored` turn (`trigger.signals`).

use std::collections::{BTreeMap, VecDeque};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::context::{Cue, Trigger, TriggerKind};
use crate::limits::{
    CUE_CONTEXT_CHARS, CUE_IDLE_AFTER_MAX_MIN, CUE_IDLE_MAX, CUE_ID_CHARS, CUE_LABEL_CHARS, CUE_SCHEDULE_MAX, SCHEDULE_LATE_MAX_MIN, TAP_BORED_TAPS,
    TAP_BORED_WINDOW,
};

/// The shipped `configs/avatar.json`.
pub const SHIPPED_AVATAR_JSON: &str = include_str!("../../../../configs/avatar.json");

/// Proactive names an idle cue may not take: the built-in cues own their
/// markers.
const RESERVED_PROACTIVE: [&str; 7] = ["tap_bored", "head_pat", "drag_held", "window_sit", "peek", "dropped", "wake"];

/// The cue section of `configs/avatar.json` (its `cues` key).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CueConfig {
    /// Time-of-day cues; none by default.
    #[serde(default)]
    pub schedule: Vec<ScheduleCue>,
    /// Idle cues, once per session each.
    #[serde(default)]
    pub idle: Vec<IdleCue>,
    /// The user's label and context per built-in touch cue, keyed by its
    /// name: `head_pat`, `tap_bored`, `drag_held`, `window_sit`, `peek`,
    /// `dropped`, `touch_<region>`, or `touch_*` for every region without
    /// its own entry.
    #[serde(default)]
    pub touch: BTreeMap<String, TouchCue>,
}

/// One time-of-day cue.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScheduleCue {
    /// The event name's tail, `schedule.<id>` (`[a-z0-9_]`); from the label
    /// when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Local time of day, `HH:MM` (24-hour).
    pub at: String,
    /// The label quoted in the headline.
    pub label: String,
    /// The user's intent: the `cue note` line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// One idle cue.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdleCue {
    /// The event name's tail, `proactive.<id>` (`[a-z0-9_]`, not a built-in
    /// touch name); from the label when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Idle minutes after which it fires (1 to one day).
    pub after_min: u32,
    /// The label quoted in the headline.
    pub label: String,
    /// The user's intent: the `cue note` line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// The user's additions to a built-in touch cue.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TouchCue {
    /// Replaces the built-in label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The user's intent: the `cue note` line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// The whole `avatar.json`: other keys belong to other readers.
#[derive(Deserialize)]
struct AvatarFile {
    #[serde(default)]
    cues: CueConfig,
}

/// What is wrong with an `avatar.json`'s cues.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CueConfigError {
    /// The file could not be read.
    #[error("{path}: {error}")]
    Read {
        /// The file.
        path: String,
        /// The system's reason.
        error: String,
    },
    /// Not JSON, or not the shape of an `avatar.json`.
    #[error("not a valid avatar.json: {0}")]
    Json(String),
    /// A field's value is not allowed (the first one found).
    #[error("{field}: {problem}")]
    Invalid {
        /// Where, e.g. `cues.schedule[2].at`.
        field: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A problem of the file at `path`.
    #[error("{path}: {inner}")]
    In {
        /// The file.
        path: String,
        /// The problem.
        inner: Box<CueConfigError>,
    },
}

/// A [`CueConfigError::Invalid`].
fn invalid(field: impl Into<String>, problem: impl Into<String>) -> CueConfigError {
    CueConfigError::Invalid { field: field.into(), problem: problem.into() }
}

/// Read and check an `avatar.json` (the module's only I/O). The error names
/// the file and what is wrong with it.
pub fn load(path: &Path) -> Result<CueConfig, CueConfigError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| CueConfigError::Read { path: shown.clone(), error: e.to_string() })?;
    CueConfig::parse(&text).map_err(|e| CueConfigError::In { path: shown, inner: Box::new(e) })
}

impl CueConfig {
    /// Parse and check the text of an `avatar.json`.
    pub fn parse(text: &str) -> Result<CueConfig, CueConfigError> {
        let file: AvatarFile = serde_json::from_str(text).map_err(|e| CueConfigError::Json(e.to_string()))?;
        file.cues.validate()?;
        Ok(file.cues)
    }

    /// The shipped defaults (`configs/avatar.json`).
    pub fn shipped() -> CueConfig {
        CueConfig::parse(SHIPPED_AVATAR_JSON).expect("the shipped configs/avatar.json is valid")
    }

    /// Check every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), CueConfigError> {
        if self.schedule.len() > CUE_SCHEDULE_MAX {
            return Err(invalid("cues.schedule", format!("at most {CUE_SCHEDULE_MAX} cues")));
        }
        if self.idle.len() > CUE_IDLE_MAX {
            return Err(invalid("cues.idle", format!("at most {CUE_IDLE_MAX} cues")));
        }
        let mut ids: Vec<String> = Vec::new();
        for (i, c) in self.schedule.iter().enumerate() {
            let at = format!("cues.schedule[{i}]");
            if parse_hhmm(&c.at).is_none() {
                return Err(invalid(format!("{at}.at"), format!("{:?} is not a time of day (HH:MM, 00:00 to 23:59)", c.at)));
            }
            check_text(&at, &c.label, c.context.as_deref())?;
            let id = cue_id(c.id.as_deref(), &c.label).map_err(|e| invalid(format!("{at}.id"), e))?;
            if ids.contains(&id) {
                return Err(invalid(format!("{at}.id"), format!("{id:?} is used twice")));
            }
            ids.push(id);
        }
        ids.clear();
        for (i, c) in self.idle.iter().enumerate() {
            let at = format!("cues.idle[{i}]");
            if c.after_min == 0 || c.after_min > CUE_IDLE_AFTER_MAX_MIN {
                return Err(invalid(format!("{at}.after_min"), format!("{} is not between 1 and {CUE_IDLE_AFTER_MAX_MIN}", c.after_min)));
            }
            check_text(&at, &c.label, c.context.as_deref())?;
            let id = cue_id(c.id.as_deref(), &c.label).map_err(|e| invalid(format!("{at}.id"), e))?;
            if RESERVED_PROACTIVE.contains(&id.as_str()) || id.starts_with("touch_") || id.starts_with("screen_") {
                return Err(invalid(format!("{at}.id"), format!("{id:?} is a built-in cue's name")));
            }
            if ids.contains(&id) {
                return Err(invalid(format!("{at}.id"), format!("{id:?} is used twice")));
            }
            ids.push(id);
        }
        for (name, c) in &self.touch {
            let at = format!("cues.touch.{name}");
            let known = RESERVED_PROACTIVE[..6].contains(&name.as_str())
                || name == "touch_*"
                || name.strip_prefix("touch_").is_some_and(|r| !r.is_empty() && slug(r) == r);
            if !known {
                return Err(invalid(at, "not a touch cue (head_pat, tap_bored, drag_held, window_sit, peek, dropped, touch_<region>, touch_*)"));
            }
            if let Some(label) = &c.label {
                check_text(&at, label, None)?;
            }
            check_text(&at, "-", c.context.as_deref())?;
        }
        Ok(())
    }

    /// The user's entry for a built-in touch cue: its own, else `touch_*`
    /// for a region.
    fn touch_entry(&self, name: &str) -> Option<&TouchCue> {
        self.touch.get(name).or_else(|| if name.starts_with("touch_") { self.touch.get("touch_*") } else { None })
    }
}

/// A label must say something; label and context stay within their caps.
fn check_text(at: &str, label: &str, context: Option<&str>) -> Result<(), CueConfigError> {
    if label.trim().is_empty() {
        return Err(invalid(format!("{at}.label"), "empty"));
    }
    if label.chars().count() > CUE_LABEL_CHARS {
        return Err(invalid(format!("{at}.label"), format!("longer than {CUE_LABEL_CHARS} characters")));
    }
    if context.is_some_and(|c| c.chars().count() > CUE_CONTEXT_CHARS) {
        return Err(invalid(format!("{at}.context"), format!("longer than {CUE_CONTEXT_CHARS} characters")));
    }
    Ok(())
}

/// The cue's id: the given one checked, else the label's slug.
fn cue_id(id: Option<&str>, label: &str) -> Result<String, String> {
    match id {
        Some(id) => {
            if id.is_empty() || id.chars().count() > CUE_ID_CHARS || slug(id) != id {
                Err(format!("{id:?} is not an id (1 to {CUE_ID_CHARS} of a-z, 0-9, _)"))
            } else {
                Ok(id.to_string())
            }
        }
        None => {
            let s = slug(label);
            if s.is_empty() {
                Err(format!("the label {label:?} gives no id; set one"))
            } else {
                Ok(s)
            }
        }
    }
}

/// Lowercase ASCII letters and digits, every other run as one `_`, no `_`
/// at either end, at most [`CUE_ID_CHARS`].
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let mut out: String = out.trim_end_matches('_').chars().take(CUE_ID_CHARS).collect();
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// `HH:MM` as minutes of the day.
fn parse_hhmm(s: &str) -> Option<u32> {
    let (h, m) = s.split_once(':')?;
    if h.len() != 2 || m.len() != 2 || !h.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// The context text, or None when empty.
fn context(c: Option<&str>) -> Option<String> {
    c.filter(|c| !c.trim().is_empty()).map(str::to_string)
}

/// A cue trigger.
fn cue_trigger(kind: TriggerKind, event: String, label: &str, ctx: Option<&str>) -> Trigger {
    let mut t = Trigger::new(kind, Some(event));
    t.cue = Some(Cue { label: Some(label.to_string()), context: context(ctx) });
    t
}

/// Time-of-day cues for one session.
#[derive(Debug, Clone)]
pub struct Schedule {
    /// (minutes of day, id, label, context), by time.
    cues: Vec<(u32, String, String, Option<String>)>,
    /// The day key each cue last fired on.
    fired: Vec<Option<String>>,
}

impl Schedule {
    /// The schedule of a checked config (entries that fail the check are
    /// left out).
    pub fn new(config: &CueConfig) -> Schedule {
        let mut cues: Vec<_> = config
            .schedule
            .iter()
            .filter_map(|c| {
                let at = parse_hhmm(&c.at)?;
                let id = cue_id(c.id.as_deref(), &c.label).ok()?;
                Some((at, id, c.label.clone(), c.context.clone()))
            })
            .collect();
        cues.sort_by_key(|c| c.0);
        let fired = vec![None; cues.len()];
        Schedule { cues, fired }
    }

    /// The next cue due: one whose time the local clock has passed today, at
    /// most [`SCHEDULE_LATE_MAX_MIN`] ago, that has not fired on `day`.
    /// `day` is the local day key (e.g. `2026-06-15`), `local_minutes_of_day`
    /// the local clock (0..1440). At most one per call, the earliest first;
    /// call again for the next. The caller polls only while the schedule
    /// setting is on.
    pub fn poll(&mut self, day: &str, local_minutes_of_day: u32) -> Option<Trigger> {
        let i = self.due_index(day, local_minutes_of_day)?;
        self.fired[i] = Some(day.to_string());
        let (_, id, label, ctx) = &self.cues[i];
        Some(cue_trigger(TriggerKind::Schedule, format!("schedule.{id}"), label, ctx.as_deref()))
    }

    /// The event name of the cue [`Schedule::poll`] would fire now, without
    /// firing it (for the log of a held turn).
    pub fn due(&self, day: &str, local_minutes_of_day: u32) -> Option<String> {
        self.due_index(day, local_minutes_of_day).map(|i| format!("schedule.{}", self.cues[i].1))
    }

    fn due_index(&self, day: &str, local_minutes_of_day: u32) -> Option<usize> {
        let now = local_minutes_of_day;
        self.cues.iter().enumerate().position(|(i, c)| self.fired[i].as_deref() != Some(day) && now >= c.0 && now - c.0 <= SCHEDULE_LATE_MAX_MIN)
    }
}

/// Idle cues for one session.
#[derive(Debug, Clone)]
pub struct IdleCues {
    /// (after_min, id, label, context), by `after_min`.
    cues: Vec<(u32, String, String, Option<String>)>,
    /// Spent this session.
    fired: Vec<bool>,
}

impl IdleCues {
    /// The idle cues of a checked config (entries that fail the check are
    /// left out), none spent.
    pub fn new(config: &CueConfig) -> IdleCues {
        let mut cues: Vec<_> = config
            .idle
            .iter()
            .filter(|c| c.after_min > 0)
            .filter_map(|c| {
                let id = cue_id(c.id.as_deref(), &c.label).ok()?;
                Some((c.after_min, id, c.label.clone(), c.context.clone()))
            })
            .collect();
        cues.sort_by_key(|c| c.0);
        let fired = vec![false; cues.len()];
        IdleCues { cues, fired }
    }

    /// Start a new session: every cue may fire once more.
    pub fn new_session(&mut self) {
        self.fired.iter_mut().for_each(|f| *f = false);
    }

    /// The cue due at `idle_elapsed_min` idle minutes, if any: the longest
    /// unspent one it has reached. It and every shorter one are spent.
    pub fn poll(&mut self, idle_elapsed_min: i64) -> Option<Trigger> {
        let i = self.due_index(idle_elapsed_min)?;
        self.fired[..=i].iter_mut().for_each(|f| *f = true);
        let (_, id, label, ctx) = &self.cues[i];
        let mut t = cue_trigger(TriggerKind::Proactive, format!("proactive.{id}"), label, ctx.as_deref());
        t.idle_elapsed_min = Some(idle_elapsed_min);
        Some(t)
    }

    /// The event name of the cue [`IdleCues::poll`] would fire now, without
    /// spending it (for the log of a held turn).
    pub fn due(&self, idle_elapsed_min: i64) -> Option<String> {
        self.due_index(idle_elapsed_min).map(|i| format!("proactive.{}", self.cues[i].1))
    }

    fn due_index(&self, idle_elapsed_min: i64) -> Option<usize> {
        self.cues.iter().enumerate().rposition(|(i, c)| !self.fired[i] && idle_elapsed_min >= i64::from(c.0))
    }
}

/// A built-in touch or gesture cue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TouchKind {
    /// A head pat: `proactive.head_pat`.
    HeadPat,
    /// A poke on a body region: `proactive.touch_<region>` (the region as a
    /// slug, `body` when nothing is left of it).
    Region(String),
    /// Poked too often: `proactive.tap_bored`.
    TapBored,
    /// Dragged around for a while: `proactive.drag_held`.
    DragHeld,
    /// Dropped onto a window's edge, sitting: `proactive.window_sit`.
    WindowSit,
    /// Dropped at a window's side, peeking: `proactive.peek`.
    Peek,
    /// Dropped from mid-air to the floor: `proactive.dropped`.
    Dropped,
}

impl TouchKind {
    /// The cue's name, the event name's tail and its `touch` config key.
    pub fn name(&self) -> String {
        match self {
            TouchKind::HeadPat => "head_pat".to_string(),
            TouchKind::Region(r) => format!("touch_{}", region_slug(r)),
            TouchKind::TapBored => "tap_bored".to_string(),
            TouchKind::DragHeld => "drag_held".to_string(),
            TouchKind::WindowSit => "window_sit".to_string(),
            TouchKind::Peek => "peek".to_string(),
            TouchKind::Dropped => "dropped".to_string(),
        }
    }

    /// The built-in label: `head pat`, `<region> touch`, `tap bored`, …
    pub fn label(&self) -> String {
        match self {
            TouchKind::Region(r) => format!("{} touch", region_slug(r).replace('_', " ")),
            other => other.name().replace('_', " "),
        }
    }
}

/// A region as a slug, `body` when nothing is left.
fn region_slug(r: &str) -> String {
    let s = slug(r);
    if s.is_empty() {
        "body".to_string()
    } else {
        s
    }
}

/// The `proactive` trigger of a built-in touch cue: its label (the user's,
/// else the built-in one) and the user's context when they wrote one.
pub fn touch_trigger(kind: &TouchKind, config: &CueConfig) -> Trigger {
    let name = kind.name();
    let entry = config.touch_entry(&name);
    let label = entry.and_then(|e| e.label.clone()).filter(|l| !l.trim().is_empty()).unwrap_or_else(|| kind.label());
    let ctx = entry.and_then(|e| e.context.as_deref());
    cue_trigger(TriggerKind::Proactive, format!("proactive.{name}"), &label, ctx)
}

/// Counts pokes for `tap_bored`.
#[derive(Debug, Clone, Default)]
pub struct Taps {
    /// Taps of this streak within the last window (epoch ms).
    recent: VecDeque<i64>,
    /// The streak's last tap.
    last_ms: Option<i64>,
    /// This streak fired `tap_bored` already.
    bored: bool,
    /// The streak's `touch_<region>` cue was not answered (she was busy):
    /// the next tap of the streak makes it again.
    owed: bool,
}

impl Taps {
    /// No taps yet.
    pub fn new() -> Taps {
        Taps::default()
    }

    /// A poke on `region` at `now_ms`: the streak's first tap fires
    /// `touch_<region>`, the [`TAP_BORED_TAPS`]th tap within
    /// [`TAP_BORED_WINDOW`] fires `tap_bored` (once per streak), any other
    /// tap nothing.
    pub fn tap(&mut self, now_ms: i64, region: &str, config: &CueConfig) -> Option<Trigger> {
        let window = TAP_BORED_WINDOW.as_millis() as i64;
        let first = self.last_ms.is_none_or(|last| now_ms.saturating_sub(last) > window);
        if first {
            self.recent.clear();
            self.bored = false;
            self.owed = false;
        }
        self.last_ms = Some(now_ms);
        if self.bored {
            return None;
        }
        while self.recent.front().is_some_and(|&t| now_ms.saturating_sub(t) > window) {
            self.recent.pop_front();
        }
        self.recent.push_back(now_ms);
        if self.recent.len() >= TAP_BORED_TAPS {
            self.recent.clear();
            self.bored = true;
            return Some(touch_trigger(&TouchKind::TapBored, config));
        }
        let region_cue = first || std::mem::take(&mut self.owed);
        region_cue.then(|| touch_trigger(&TouchKind::Region(region.to_string()), config))
    }

    /// The cue the last tap made was not answered (she was talking): the
    /// streak's next tap makes its `touch_<region>` cue again.
    pub fn unanswered(&mut self) {
        self.owed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::SignalGroup;

    fn config(json: &str) -> CueConfig {
        CueConfig::parse(json).unwrap()
    }

    use crate::triggers::rendered;

    #[test]
    fn shipped_config_parses_and_is_quiet() {
        let c = CueConfig::shipped();
        assert!(c.schedule.is_empty());
        assert_eq!(c.idle.len(), 1);
        assert!(c.idle[0].after_min >= 45);
        assert!(c.touch.is_empty());
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/avatar.json");
        assert_eq!(load(&path).unwrap(), c);
    }

    #[test]
    fn malformed_config_is_a_clear_error() {
        let e = CueConfig::parse(r#"{"cues":{"schedule":[{"at":"12:30""label":"x"}]}}"#).unwrap_err().to_string();
        assert!(e.contains("not a valid avatar.json") && e.contains("line 1"), "{e}");
        let e = CueConfig::parse(r#"{"cues":{"schedule":[{"at":"25:00","label":"x"}]}}"#).unwrap_err().to_string();
        assert!(e.contains("cues.schedule[0].at") && e.contains("\"25:00\""), "{e}");
        let typed = CueConfig::parse(r#"{"cues":{"schedule":[{"at":"25:00","label":"x"}]}}"#).unwrap_err();
        assert!(matches!(&typed, CueConfigError::Invalid { field, .. } if field == "cues.schedule[0].at"), "{typed:?}");
        let e = CueConfig::parse(r#"{"cues":{"idel":[]}}"#).unwrap_err().to_string();
        assert!(e.contains("unknown field `idel`"), "{e}");
        let e = CueConfig::parse(r#"{"cues":{"idle":[{"after_min":0,"label":"x"}]}}"#).unwrap_err().to_string();
        assert!(e.contains("cues.idle[0].after_min"), "{e}");
        let e = CueConfig::parse(r#"{"cues":{"idle":[{"after_min":5,"label":"tap bored"}]}}"#).unwrap_err().to_string();
        assert!(e.contains("built-in"), "{e}");
        let e = CueConfig::parse(r#"{"cues":{"touch":{"tickle":{}}}}"#).unwrap_err().to_string();
        assert!(e.contains("cues.touch.tickle"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("avatar.json");
        std::fs::write(&path, "{").unwrap();
        let e = load(&path).unwrap_err().to_string();
        assert!(e.starts_with(&path.display().to_string()), "{e}");
        assert!(load(&dir.path().join("missing.json")).is_err());
        // Other avatar keys are not ours.
        assert_eq!(config(r#"{"scale":1.2}"#), CueConfig::default());
    }

    #[test]
    fn schedule_fires_once_a_day_and_again_the_next() {
        let c = config(r#"{"cues":{"schedule":[{"at":"12:30","label":"lunch check-in","context":"ask about lunch"}]}}"#);
        let mut s = Schedule::new(&c);
        assert_eq!(s.poll("2026-06-15", 12 * 60 + 29), None);
        let t = s.poll("2026-06-15", 12 * 60 + 30).unwrap();
        assert_eq!(t.kind, TriggerKind::Schedule);
        assert_eq!(t.event_name.as_deref(), Some("schedule.lunch_check_in"));
        assert_eq!(t.idle_elapsed_min, None);
        assert_eq!(t.cue.as_ref().unwrap().context.as_deref(), Some("ask about lunch"));
        assert_eq!(s.poll("2026-06-15", 12 * 60 + 31), None);
        assert_eq!(s.poll("2026-06-15", 23 * 60), None);
        assert_eq!(s.poll("2026-06-16", 0), None);
        assert!(s.poll("2026-06-16", 12 * 60 + 45).is_some());
        assert_eq!(s.poll("2026-06-16", 12 * 60 + 46), None);
        // Too late: a launch hours past the time skips the day.
        assert_eq!(s.poll("2026-06-17", 15 * 60), None);
    }

    #[test]
    fn schedule_fires_due_cues_one_per_call_by_time() {
        let c = config(r#"{"cues":{"schedule":[{"id":"b","at":"09:10","label":"b"},{"id":"a","at":"09:00","label":"a"}]}}"#);
        let mut s = Schedule::new(&c);
        assert_eq!(s.poll("d", 9 * 60 + 15).unwrap().event_name.as_deref(), Some("schedule.a"));
        assert_eq!(s.poll("d", 9 * 60 + 15).unwrap().event_name.as_deref(), Some("schedule.b"));
        assert_eq!(s.poll("d", 9 * 60 + 15), None);
    }

    #[test]
    fn idle_cues_fire_once_per_session_in_order() {
        let c = config(r#"{"cues":{"idle":[{"after_min":90,"label":"long"},{"id":"short","after_min":30,"label":"short one"}]}}"#);
        let mut idle = IdleCues::new(&c);
        assert_eq!(idle.poll(29), None);
        let t = idle.poll(30).unwrap();
        assert_eq!(t.event_name.as_deref(), Some("proactive.short"));
        assert_eq!(t.idle_elapsed_min, Some(30));
        assert_eq!(idle.poll(45), None);
        let t = idle.poll(91).unwrap();
        assert_eq!(t.event_name.as_deref(), Some("proactive.long"));
        assert_eq!(t.idle_elapsed_min, Some(91));
        assert_eq!(idle.poll(200), None);
        assert_eq!(idle.poll(5), None);
        idle.new_session();
        // A jump past both fires the longer only.
        assert_eq!(idle.poll(120).unwrap().event_name.as_deref(), Some("proactive.long"));
        assert_eq!(idle.poll(120), None);
    }

    #[test]
    fn tap_bored_after_four_taps_in_three_seconds() {
        let c = CueConfig::default();
        let mut taps = Taps::new();
        let t = taps.tap(0, "arm", &c).unwrap();
        assert_eq!(t.event_name.as_deref(), Some("proactive.touch_arm"));
        assert_eq!(taps.tap(1_000, "arm", &c), None);
        assert_eq!(taps.tap(2_000, "head", &c), None);
        let t = taps.tap(3_000, "arm", &c).unwrap();
        assert_eq!(t.event_name.as_deref(), Some("proactive.tap_bored"));
        assert_eq!(t.cue.as_ref().unwrap().label.as_deref(), Some("tap bored"));
        // The streak goes on: no more turns until it ends.
        for ms in [3_500, 4_000, 4_500, 5_000, 5_500] {
            assert_eq!(taps.tap(ms, "arm", &c), None);
        }
        // A new streak starts with a touch again.
        assert!(taps.tap(9_000, "arm", &c).is_some());
    }

    #[test]
    fn four_taps_over_four_seconds_are_not_bored() {
        let c = CueConfig::default();
        let mut taps = Taps::new();
        assert!(taps.tap(0, "arm", &c).is_some());
        for ms in [1_333, 2_667, 4_000] {
            assert_eq!(taps.tap(ms, "arm", &c), None);
        }
        // The fourth tap inside the last 3 s is bored.
        assert_eq!(taps.tap(4_100, "arm", &c).unwrap().event_name.as_deref(), Some("proactive.tap_bored"));
    }

    #[test]
    fn touch_cues_carry_the_configured_context() {
        let c = config(
            r#"{"cues":{"touch":{"head_pat":{"context":"she loves it"},"touch_*":{"context":"any poke"},
                "touch_arm":{"label":"arm poke","context":"arm"},"dropped":{"context":""}}}}"#,
        );
        let t = touch_trigger(&TouchKind::HeadPat, &c);
        assert_eq!(t.kind, TriggerKind::Proactive);
        assert_eq!(t.event_name.as_deref(), Some("proactive.head_pat"));
        assert_eq!(t.cue, Some(Cue { label: Some("head pat".into()), context: Some("she loves it".into()) }));
        let t = touch_trigger(&TouchKind::Region("Left Leg".into()), &c);
        assert_eq!(t.event_name.as_deref(), Some("proactive.touch_left_leg"));
        assert_eq!(t.cue, Some(Cue { label: Some("left leg touch".into()), context: Some("any poke".into()) }));
        let t = touch_trigger(&TouchKind::Region("arm".into()), &c);
        assert_eq!(t.cue, Some(Cue { label: Some("arm poke".into()), context: Some("arm".into()) }));
        let t = touch_trigger(&TouchKind::Dropped, &c);
        assert_eq!(t.cue, Some(Cue { label: Some("dropped".into()), context: None }));
        for (kind, name) in
            [(TouchKind::DragHeld, "drag_held"), (TouchKind::WindowSit, "window_sit"), (TouchKind::Peek, "peek"), (TouchKind::TapBored, "tap_bored")]
        {
            let t = touch_trigger(&kind, &CueConfig::default());
            assert_eq!(t.event_name, Some(format!("proactive.{name}")));
            assert_eq!(t.cue.unwrap().context, None);
        }
    }

    #[test]
    fn renders_the_seed_cue_lines_and_markers() {
        // Seed: the idle cue with its note.
        let mut idle = IdleCues::new(&CueConfig::shipped());
        let (lines, marker) = rendered(idle.poll(60).unwrap());
        assert_eq!(
            lines,
            [
                "trigger: proactive cue \"focus break reminder\" (the user has been idle for 60min)",
                "cue note (the user's own intent for this cue): remind user to take a break if they're focusing for too long",
            ]
        );
        assert_eq!(marker, "(I've gone quiet for a while)");

        let c = config(r#"{"cues":{"schedule":[{"at":"08:00","label":"morning check-in"}]}}"#);
        let (lines, marker) = rendered(Schedule::new(&c).poll("d", 8 * 60).unwrap());
        assert_eq!(lines, ["trigger: schedule cue \"morning check-in\""]);
        assert_eq!(marker, "(it's the time of day you check in on me)");

        let none = CueConfig::default();
        for (kind, headline, want) in [
            (TouchKind::HeadPat, "head pat", "(I just patted your head)"),
            (TouchKind::Region("arm".into()), "arm touch", "(I just poked you)"),
            (TouchKind::DragHeld, "drag held", "(I keep dragging you around)"),
            (TouchKind::WindowSit, "window sit", "(I just sat you down on a window's edge)"),
            (TouchKind::Peek, "peek", "(I left you peeking out from the side of a window)"),
            (TouchKind::Dropped, "dropped", "(I just dropped you from mid-air)"),
        ] {
            let (lines, marker) = rendered(touch_trigger(&kind, &none));
            assert_eq!(lines, [format!("trigger: proactive cue \"{headline}\"")]);
            assert_eq!(marker, want);
        }

        // tap_bored carries drained signal groups under its headline.
        let mut t = touch_trigger(&TouchKind::TapBored, &none);
        let group: SignalGroup =
            serde_json::from_str(r#"{"envelope":{"source":"ci","event_type":"build","event_id":"b-7","occurred_at":1787449000000},"items":[{"ok":true}]}"#)
                .unwrap();
        t.signals = Some(vec![group]);
        let (lines, marker) = rendered(t);
        assert_eq!(lines, ["trigger: proactive cue \"tap bored\"", "signal [ci/build @2026-08-23T01:36:40.000Z, id b-7]: {\"ok\":true}"]);
        assert_eq!(marker, "(I keep poking at you)");
    }
}
