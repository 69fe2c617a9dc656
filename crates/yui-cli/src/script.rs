//! The scripted clock and desktop of `--clock` and `--desktop-script`: the
//! session's wall clock is a [`ManualClock`], and the script's readings are
//! fed to the session (no sampler runs) at their scripted times.

use anyhow::{anyhow, bail, Context};
use std::path::Path;
use std::time::Duration;
use yui_core::clock::{ManualClock, WallClock};
use yui_core::session::world::WorldSample;
use yui_core::world::Sample;
use yui_core::{Session, Status};

/// The script format, for `--help` and the parse errors.
pub const FORMAT_HELP: &str = "\
Desktop script (--desktop-script FILE): one JSON object a line; blank lines and
lines starting with # are skipped. Fields:
  at_s        seconds after --clock START (integer >= 0, never decreasing; required)
  app         the frontmost app's name (string); with it, optionally:
  title       its window title (string, default \"\")
  pid         its process id (integer, default none)
  fullscreen  it covers its display (bool, default false)
  frontmost   null: no frontmost window (instead of app)
  idle_s      seconds since the user's last input (integer >= 0; null or
              absent: unknown, which counts as present)
Each line is one reading at START + at_s; until the next line's at_s the same
reading repeats every scripted second, as the real sampler reads once a
second (idle_s does not grow by itself: write a line for each change).
Before each reading the clock is set to its time, after the session is quiet
(no turn running, nothing being said; at most 60 s of real time).
Example:
  {\"at_s\": 0, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 0}
  {\"at_s\": 700, \"app\": \"Browser\", \"title\": \"news\", \"idle_s\": 3, \"fullscreen\": false}
  {\"at_s\": 900, \"frontmost\": null, \"idle_s\": 400}";

/// The longest real-time wait for the session to be quiet before a reading.
const QUIET_WAIT: Duration = Duration::from_secs(60);

/// One script line: a reading at `at_s`.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Seconds after the clock's start.
    pub at_s: u64,
    /// The reading.
    pub sample: WorldSample,
}

/// `--clock START`: epoch milliseconds or an RFC 3339 time.
pub fn parse_clock(s: &str) -> anyhow::Result<i64> {
    let s = s.trim();
    if let Ok(ms) = s.parse::<i64>() {
        return Ok(ms);
    }
    chrono::DateTime::parse_from_rfc3339(s)
        .map(|t| t.timestamp_millis())
        .map_err(|e| anyhow!("--clock {s:?}: not epoch milliseconds nor an RFC 3339 time (e.g. 2026-12-01T08:00:00Z): {e}"))
}

/// Read and check a whole script; the error names the file and line.
pub fn load(path: &Path) -> anyhow::Result<Vec<Line>> {
    let raw = std::fs::read_to_string(path).with_context(|| format!("--desktop-script: reading {}", path.display()))?;
    parse(&raw).map_err(|e| anyhow!("--desktop-script {}: {e:#}\n\n{FORMAT_HELP}", path.display()))
}

/// Parse a script's text (see [`FORMAT_HELP`]).
pub fn parse(raw: &str) -> anyhow::Result<Vec<Line>> {
    let mut lines = Vec::new();
    let mut last_at = 0;
    for (i, text) in raw.lines().enumerate() {
        let n = i + 1;
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let line = parse_line(text).with_context(|| format!("line {n}"))?;
        if line.at_s < last_at {
            bail!("line {n}: at_s {} is before the previous line's {last_at}", line.at_s);
        }
        last_at = line.at_s;
        lines.push(line);
    }
    Ok(lines)
}

fn parse_line(text: &str) -> anyhow::Result<Line> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| anyhow!("not JSON: {e}"))?;
    let obj = value.as_object().ok_or_else(|| anyhow!("not a JSON object"))?;
    for key in obj.keys() {
        if !["at_s", "app", "title", "pid", "fullscreen", "frontmost", "idle_s"].contains(&key.as_str()) {
            bail!("unknown field {key:?}");
        }
    }
    let at_s = obj.get("at_s").ok_or_else(|| anyhow!("no at_s"))?.as_u64().ok_or_else(|| anyhow!("at_s must be a whole number of seconds >= 0"))?;
    let idle_ms = match obj.get("idle_s") {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| anyhow!("idle_s must be a whole number of seconds >= 0 or null"))?.saturating_mul(1000)),
    };
    let frontmost = match (obj.get("app"), obj.get("frontmost")) {
        (Some(_), Some(_)) => bail!("give app or \"frontmost\": null, not both"),
        (None, Some(serde_json::Value::Null)) => {
            if ["title", "pid", "fullscreen"].iter().any(|k| obj.contains_key(*k)) {
                bail!("title, pid and fullscreen go with app, not with \"frontmost\": null");
            }
            None
        }
        (None, Some(_)) => bail!("frontmost may only be null (give app for a window)"),
        (None, None) => bail!("no app (or \"frontmost\": null for no window)"),
        (Some(app), None) => {
            let app = app.as_str().ok_or_else(|| anyhow!("app must be a string"))?.to_string();
            let title = match obj.get("title") {
                None => String::new(),
                Some(t) => t.as_str().ok_or_else(|| anyhow!("title must be a string"))?.to_string(),
            };
            let pid = match obj.get("pid") {
                None | Some(serde_json::Value::Null) => None,
                Some(p) => Some(p.as_u64().and_then(|p| u32::try_from(p).ok()).ok_or_else(|| anyhow!("pid must be a process id"))?),
            };
            let fullscreen = match obj.get("fullscreen") {
                None => false,
                Some(f) => f.as_bool().ok_or_else(|| anyhow!("fullscreen must be true or false"))?,
            };
            Some(Sample { app, title, pid, fullscreen })
        }
    };
    Ok(Line { at_s, sample: WorldSample { frontmost, idle_ms } })
}

/// Feed `lines` to `session`: the clock set to `start_ms + at_s` before
/// each reading, the previous reading repeated every scripted second up to
/// the next line, each after the session is quiet. Starts once the session
/// is connected (or `ready_wait` has passed).
pub async fn run(session: &Session, clock: &ManualClock, start_ms: i64, lines: Vec<Line>, ready_wait: Duration) {
    let mut status = session.status();
    let _ = tokio::time::timeout(ready_wait, status.wait_for(|s| s.is_ready() || *s == Status::AuthFailed)).await;
    let mut prev: Option<Line> = None;
    for line in lines {
        if let Some(p) = &prev {
            for t in p.at_s + 1..line.at_s {
                if !feed(session, clock, start_ms, t, p.sample.clone()).await {
                    return;
                }
            }
        }
        if !feed(session, clock, start_ms, line.at_s, line.sample.clone()).await {
            return;
        }
        prev = Some(line);
    }
    eprintln!("yui-cli: desktop script done (at_s {})", prev.map_or(0, |l| l.at_s));
}

/// One reading at `start_ms + at_s`; false when the session has ended.
async fn feed(session: &Session, clock: &ManualClock, start_ms: i64, at_s: u64, mut sample: WorldSample) -> bool {
    let mut activity = session.activity();
    if tokio::time::timeout(QUIET_WAIT, activity.wait_for(|a| !a.busy && !a.speaking)).await.is_err() {
        eprintln!("yui-cli: desktop script: the session was not quiet after {} s; reading at_s {at_s} goes anyway", QUIET_WAIT.as_secs());
    }
    let at = start_ms.saturating_add(at_s.saturating_mul(1000) as i64);
    clock.advance(at - clock.now_ms());
    // As the sampler: the window is not read while the setting is off.
    if !session.live_settings().read(|s| s.user.reactions.frontmost) {
        sample.frontmost = None;
    }
    session.feed_world(sample).await.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_bad_ones_name_their_line() {
        let lines = parse(
            "# a comment\n\
             {\"at_s\": 0, \"app\": \"Editor\", \"title\": \"main.rs\", \"idle_s\": 0}\n\
             \n\
             {\"at_s\": 700, \"app\": \"Browser\", \"title\": \"news\", \"idle_s\": 3, \"fullscreen\": true, \"pid\": 7}\n\
             {\"at_s\": 900, \"frontmost\": null, \"idle_s\": 400}\n\
             {\"at_s\": 900, \"app\": \"X\"}\n",
        )
        .unwrap();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[0],
            Line {
                at_s: 0,
                sample: WorldSample {
                    frontmost: Some(Sample { app: "Editor".into(), title: "main.rs".into(), pid: None, fullscreen: false }),
                    idle_ms: Some(0)
                }
            }
        );
        assert_eq!(lines[1].sample.frontmost, Some(Sample { app: "Browser".into(), title: "news".into(), pid: Some(7), fullscreen: true }));
        assert_eq!(lines[1].sample.idle_ms, Some(3000));
        assert_eq!(lines[2].sample, WorldSample { frontmost: None, idle_ms: Some(400_000) });
        assert_eq!(lines[3].sample, WorldSample { frontmost: Some(Sample { app: "X".into(), ..Default::default() }), idle_ms: None });
        let err = |raw: &str| format!("{:#}", parse(raw).expect_err(raw));
        assert!(
            err("{\"at_s\": 0, \"app\": \"A\"}\n{\"at_s\": 1, \"app\": 3}").starts_with("line 2: app must be a string"),
            "{}",
            err("{\"at_s\": 1, \"app\": 3}")
        );
        assert!(err("\n\n{nope").starts_with("line 3: not JSON"));
        assert!(err("{\"app\": \"A\"}").contains("line 1: no at_s"));
        assert!(err("{\"at_s\": 5, \"app\": \"A\"}\n{\"at_s\": 4, \"app\": \"A\"}").contains("line 2: at_s 4 is before"));
        assert!(err("{\"at_s\": 0, \"idle_s\": 1}").contains("no app"));
        assert!(err("{\"at_s\": 0, \"app\": \"A\", \"frontmost\": null}").contains("not both"));
        assert!(err("{\"at_s\": 0, \"app\": \"A\", \"idle\": 1}").contains("unknown field \"idle\""));
        assert!(err("{\"at_s\": -1, \"app\": \"A\"}").contains("at_s must be"));
    }

    #[test]
    fn the_clock_takes_epoch_ms_or_rfc3339() {
        assert_eq!(parse_clock("1764576000000").unwrap(), 1_764_576_000_000);
        assert_eq!(parse_clock("2025-12-01T08:00:00Z").unwrap(), 1_764_576_000_000);
        assert_eq!(parse_clock("2025-12-01T09:00:00+01:00").unwrap(), 1_764_576_000_000);
        assert!(parse_clock("tomorrow").is_err());
    }
}
