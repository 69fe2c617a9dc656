//! The body's tunables: the `body` section of `configs/avatar.json`. Every
//! key is required; a missing or bad one fails the session's start with its
//! name (`body.walk_speed: missing`).

use serde_json::{Map, Value};

/// How the body moves and where it meets the desktop. Lengths are logical
/// pixels of the pet window (scaled by the display's factor), times in ms.
#[derive(Debug, Clone, PartialEq)]
pub struct BodyTunables {
    /// Her soles above the window's bottom edge.
    pub feet_from_bottom: f64,
    /// Her hips above the window's bottom edge: the line she sits on.
    pub seat_from_bottom: f64,
    /// Her width, centred in the window: the room a sit or a peek needs.
    pub body_width: f64,
    /// Walking speed along the floor or a window top, px/s.
    pub walk_speed: f64,
    /// Climbing speed up or down a window's side, px/s.
    pub climb_speed: f64,
    /// How long one hop takes.
    pub hop_ms: f64,
    /// How high a hop rises above the higher of its two ends.
    pub hop_height: f64,
    /// Gravity for a fall, px/s².
    pub gravity: f64,
    /// A release this close to a window's top edge or side lands on it.
    pub snap: f64,
    /// Held by a drag this long: the `drag_held` cue.
    pub drag_held_ms: f64,
    /// A fall at least this long is a drop: the `dropped` cue.
    pub drop_min: f64,
    /// Mean time between ambient walks while she stands idle (0: none).
    pub ambient_walk_every_ms: f64,
    /// The longest ambient walk.
    pub ambient_walk_max: f64,
    /// How often the window she sits on or peeks from is checked.
    pub perch_check_ms: f64,
    /// The longest a `body_action` move may take; longer paths go faster.
    pub move_max_ms: f64,
}

/// Each key, its allowed range, and where it goes.
type Slot = (&'static str, f64, f64, fn(&mut BodyTunables) -> &mut f64);

const KEYS: [Slot; 15] = [
    ("feet_from_bottom", 0.0, 2000.0, |t| &mut t.feet_from_bottom),
    ("seat_from_bottom", 0.0, 2000.0, |t| &mut t.seat_from_bottom),
    ("body_width", 10.0, 2000.0, |t| &mut t.body_width),
    ("walk_speed", 10.0, 5000.0, |t| &mut t.walk_speed),
    ("climb_speed", 10.0, 5000.0, |t| &mut t.climb_speed),
    ("hop_ms", 100.0, 5000.0, |t| &mut t.hop_ms),
    ("hop_height", 0.0, 1000.0, |t| &mut t.hop_height),
    ("gravity", 100.0, 100_000.0, |t| &mut t.gravity),
    ("snap", 0.0, 400.0, |t| &mut t.snap),
    ("drag_held_ms", 500.0, 600_000.0, |t| &mut t.drag_held_ms),
    ("drop_min", 0.0, 5000.0, |t| &mut t.drop_min),
    ("ambient_walk_every_ms", 0.0, 86_400_000.0, |t| &mut t.ambient_walk_every_ms),
    ("ambient_walk_max", 0.0, 5000.0, |t| &mut t.ambient_walk_max),
    ("perch_check_ms", 50.0, 10_000.0, |t| &mut t.perch_check_ms),
    ("move_max_ms", 1000.0, 14_000.0, |t| &mut t.move_max_ms),
];

/// Why a `body` section was refused: the message names the first bad key.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TunablesError {
    /// The section is not a JSON object.
    #[error("body: must be an object")]
    NotAnObject,
    /// A key the body does not know.
    #[error("body.{0}: unknown key")]
    UnknownKey(String),
    /// A key the body needs is missing.
    #[error("body.{0}: missing")]
    Missing(&'static str),
    /// A value that is not a number in its range.
    #[error("body.{name}: must be a number from {lo} to {hi}")]
    OutOfRange {
        /// The key.
        name: &'static str,
        /// The least value it takes.
        lo: f64,
        /// The greatest value it takes.
        hi: f64,
    },
    /// The seat is below the feet.
    #[error("body.seat_from_bottom: must not be below feet_from_bottom")]
    SeatBelowFeet,
    /// The file is not JSON (the parser's message).
    #[error("not a valid avatar.json: {0}")]
    NotJson(String),
}

impl BodyTunables {
    /// Read the `body` object; the error names the first bad key.
    pub fn from_json(body: &Value) -> Result<Self, TunablesError> {
        let obj: &Map<String, Value> = body.as_object().ok_or(TunablesError::NotAnObject)?;
        if let Some(unknown) = obj.keys().find(|k| !KEYS.iter().any(|(name, ..)| name == k)) {
            return Err(TunablesError::UnknownKey(unknown.clone()));
        }
        let mut t = BodyTunables::zero();
        for (name, lo, hi, slot) in KEYS {
            let v = obj.get(name).ok_or(TunablesError::Missing(name))?;
            let n = v.as_f64().filter(|n| (lo..=hi).contains(n)).ok_or(TunablesError::OutOfRange { name, lo, hi })?;
            *slot(&mut t) = n;
        }
        if t.seat_from_bottom < t.feet_from_bottom {
            return Err(TunablesError::SeatBelowFeet);
        }
        Ok(t)
    }

    /// The `body` section of an `avatar.json` text: its own when present,
    /// else the shipped one.
    pub fn from_avatar_json(text: &str) -> Result<Self, TunablesError> {
        let file: Value = serde_json::from_str(text).map_err(|e| TunablesError::NotJson(e.to_string()))?;
        match file.get("body") {
            Some(body) => Self::from_json(body),
            None => Ok(Self::shipped()),
        }
    }

    /// The shipped tunables (`configs/avatar.json`).
    pub fn shipped() -> Self {
        let file: Value = serde_json::from_str(crate::triggers::cues::SHIPPED_AVATAR_JSON).expect("the shipped avatar.json parses");
        Self::from_json(file.get("body").expect("the shipped avatar.json has a body section")).expect("the shipped body section is valid")
    }

    fn zero() -> Self {
        BodyTunables {
            feet_from_bottom: 0.0,
            seat_from_bottom: 0.0,
            body_width: 0.0,
            walk_speed: 0.0,
            climb_speed: 0.0,
            hop_ms: 0.0,
            hop_height: 0.0,
            gravity: 0.0,
            snap: 0.0,
            drag_held_ms: 0.0,
            drop_min: 0.0,
            ambient_walk_every_ms: 0.0,
            ambient_walk_max: 0.0,
            perch_check_ms: 0.0,
            move_max_ms: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_shipped_section_reads_and_every_key_is_checked_by_name() {
        let t = BodyTunables::shipped();
        assert!(t.walk_speed > 0.0 && t.seat_from_bottom > t.feet_from_bottom);
        let file: Value = serde_json::from_str(crate::triggers::cues::SHIPPED_AVATAR_JSON).unwrap();
        let body = file["body"].clone();
        for (name, ..) in KEYS {
            let mut missing = body.clone();
            missing.as_object_mut().unwrap().remove(name);
            assert_eq!(BodyTunables::from_json(&missing).unwrap_err().to_string(), format!("body.{name}: missing"));
            let mut bad = body.clone();
            bad[name] = json!("fast");
            assert!(BodyTunables::from_json(&bad).unwrap_err().to_string().starts_with(&format!("body.{name}: must be a number")));
        }
        let mut extra = body.clone();
        extra["wings"] = json!(2);
        assert_eq!(BodyTunables::from_json(&extra).unwrap_err().to_string(), "body.wings: unknown key");
        assert_eq!(BodyTunables::from_avatar_json(r#"{"cues":{}}"#).unwrap(), t, "no body section: the shipped one");
        assert!(BodyTunables::from_avatar_json("{").is_err());
    }
}
