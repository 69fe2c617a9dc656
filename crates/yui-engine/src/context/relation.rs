//! The `relation:` lines: one per rated target, user first.

use super::input::{ClientContext, Relation};
use super::sanitize::{clean, quote};

/// One line per record with a target and a band, the human `user` first and
/// the rest in input (registry) order; none while `relations` is switched off.
pub(crate) fn lines(ctx: &ClientContext, now_ms: i64) -> Vec<String> {
    if !ctx.relations_switched_on() {
        return Vec::new();
    }
    let mut rendered: Vec<(bool, String)> = ctx.relations.iter().filter_map(|r| line(r, now_ms).map(|(target, l)| (target == "user", l))).collect();
    // Stable: the human first, the others keep their order.
    rendered.sort_by_key(|(is_user, _)| !*is_user);
    rendered.into_iter().map(|(_, l)| l).collect()
}

/// The sanitized target and the line.
fn line(r: &Relation, now_ms: i64) -> Option<(String, String)> {
    let target = clean(r.target.as_deref())?;
    let band = clean(r.band.as_deref())?;
    let mut s = format!("relation: toward {target} {band}");
    if let Some(note) = clean(r.note.as_deref()) {
        s.push_str(", ");
        s.push_str(&quote(&note));
    }
    let reason = if r.set_by_user { Some("set by the user".to_string()) } else { clean(r.why.as_deref()).map(|w| quote(&w)) };
    if r.delta.is_some() || r.at.is_some() || reason.is_some() {
        s.push_str(" (last change");
        if let Some(delta) = r.delta {
            s.push_str(&format!(" {delta:+}"));
        }
        if let Some(at) = r.at {
            s.push_str(&format!(", {} ago", age(now_ms, at)));
        }
        if let Some(reason) = reason {
            s.push_str(": ");
            s.push_str(&reason);
        }
        s.push(')');
    }
    Some((target, s))
}

/// `Nmin` up to an hour, `Nh` up to a day, `Nd` past it; each rounded half up
/// from the same elapsed milliseconds, never negative.
pub(crate) fn age(now_ms: i64, at_ms: i64) -> String {
    let elapsed = (now_ms as i128 - at_ms as i128).max(0) as f64;
    let minutes = (elapsed / 60_000.0).round();
    if minutes <= 60.0 {
        format!("{}min", minutes as i64)
    } else if minutes <= 1440.0 {
        format!("{}h", (elapsed / 3_600_000.0).round() as i64)
    } else {
        format!("{}d", (elapsed / 86_400_000.0).round() as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::age;

    #[test]
    fn ages_switch_units_past_an_hour_and_a_day() {
        let min = 60_000;
        assert_eq!(age(0, 0), "0min");
        assert_eq!(age(60 * min, 0), "60min");
        assert_eq!(age(61 * min, 0), "1h");
        assert_eq!(age(90 * min, 0), "2h");
        assert_eq!(age(1440 * min, 0), "24h");
        assert_eq!(age(1441 * min, 0), "1d");
        assert_eq!(age(3 * 1440 * min, 0), "3d");
        assert_eq!(age(0, 5 * min), "0min");
        assert!(age(i64::MAX, i64::MIN).ends_with('d'), "extremes neither overflow nor panic");
    }
}
