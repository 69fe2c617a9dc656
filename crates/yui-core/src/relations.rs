//! How this character stands toward the user and the other characters
//! (`docs/client-tools.md`, "The tools", `rate_relation`).
//!
//! One store per character, kept in `<data>/relations/<character>.json`:
//! the current record per target (value, band, last change) and the
//! accepted changes of the last days, which the caps read. The backend moves
//! a value with `rate_relation`; the user sets one by hand in settings.
//!
//! - Values are whole numbers clamped to -10..=10, starting at 0.
//! - Bands: `hostile` (-10..-6), `cold` (-5..-2), `neutral` (-1..1),
//!   `warm` (2..5), `close` (6..10).
//! - Caps: one accepted change per target per turn; the changes to one
//!   target in one local day sum to at most ±5. A change past a cap answers
//!   `error: capped` and changes nothing.

use crate::context::Relation;
use crate::data_dir::DataDir;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Mutex;
use ts_rs::TS;

const DIR: &str = "relations";
/// The lowest value.
pub const VALUE_MIN: i32 = -10;
/// The highest value.
pub const VALUE_MAX: i32 = 10;
/// Changes to one target in one local day sum to at most this, either way.
pub const DAY_CAP: i32 = 5;
/// The `why` of a value the user set by hand.
pub const SET_BY_USER: &str = "set by the user";
/// Accepted changes older than this many days are forgotten.
const CHANGES_KEPT_DAYS: i64 = 2;

/// The band a value falls in.
pub fn band(value: i32) -> &'static str {
    match value {
        i32::MIN..=-6 => "hostile",
        -5..=-2 => "cold",
        -1..=1 => "neutral",
        2..=5 => "warm",
        _ => "close",
    }
}

/// One target's current record, as the settings window lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RelationRecord {
    /// `user`, or another character's name.
    pub target: String,
    /// -10..=10.
    pub value: i32,
    /// The band of `value`.
    pub band: String,
    /// The last accepted change, signed (for a value set by hand: new minus old).
    pub delta: i32,
    /// Why, one line; `set by the user` for a value set by hand.
    pub why: String,
    /// When, epoch milliseconds.
    #[ts(type = "number")]
    pub at: i64,
    /// An external engine's one-line summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub note: Option<String>,
}

/// A record as an external relations engine sends it
/// (`PUT /relations/<character>`): the target and value are required; a
/// missing `why` reads [`SET_BY_ENGINE`], a missing `at` is the receive time.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ExternalRecord {
    /// `user`, or another character's name.
    pub target: String,
    /// -10..=10 (clamped).
    pub value: i32,
    /// The last change, signed.
    #[serde(default)]
    pub delta: i32,
    /// Why, one line.
    #[serde(default)]
    pub why: String,
    /// When, epoch milliseconds.
    #[serde(default)]
    pub at: Option<i64>,
    /// The engine's one-line summary, rendered quoted after the band.
    #[serde(default)]
    pub note: Option<String>,
}

/// The `why` of a record an external engine set without saying why.
pub const SET_BY_ENGINE: &str = "set by the relations engine";

/// One accepted change, kept for the caps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Change {
    target: String,
    delta: i32,
    turn_id: String,
    /// The local day, `YYYY-MM-DD`.
    day: String,
    at: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Stored {
    #[serde(default)]
    records: Vec<RelationRecord>,
    #[serde(default)]
    changes: Vec<Change>,
}

/// Why a change was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    /// Past the per-turn or the per-day cap.
    #[error("error: capped")]
    Capped,
}

/// One character's relations, read and written through its file.
#[derive(Debug)]
pub struct RelationStore {
    path: PathBuf,
    state: Mutex<Stored>,
    writer: crate::persist::Writer,
}

impl RelationStore {
    /// The store of the character keyed `character` in `data_dir`, loaded
    /// now. A damaged file is logged and read as empty (and kept until the
    /// next accepted change replaces it).
    pub fn open(data_dir: &DataDir, character: &str) -> Self {
        let key = crate::data_dir::character_key(character);
        let path = data_dir.root().join(DIR).join(format!("{key}.json"));
        let writer = crate::persist::Writer::global();
        // What an earlier store sent is on disk before it is read.
        writer.flush();
        let state = match std::fs::read_to_string(&path) {
            Ok(raw) => serde_json::from_str(&raw).unwrap_or_else(|e| {
                tracing::warn!(record = "relations_unreadable", path = %path.display(), error = %e);
                Stored::default()
            }),
            Err(_) => Stored::default(),
        };
        Self { path, state: Mutex::new(state), writer }
    }

    /// The same store, writing through `writer` (the session's).
    pub fn writing_through(mut self, writer: crate::persist::Writer) -> Self {
        self.writer = writer;
        self
    }

    /// Wait until every write this store sent has landed (blocks).
    pub fn flush(&self) {
        self.writer.flush();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Stored> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Move `target` by `delta` for `why` in turn `turn_id` at `now_ms`
    /// (local day `day`, `YYYY-MM-DD`). Answers the new band, or
    /// [`RateError::Capped`] and changes nothing.
    pub fn rate(&self, target: &str, delta: i32, why: &str, turn_id: &str, now_ms: i64, day: &str) -> Result<&'static str, RateError> {
        let mut s = self.lock();
        let mine = |c: &&Change| c.target == target;
        if s.changes.iter().filter(mine).any(|c| c.turn_id == turn_id) {
            return Err(RateError::Capped);
        }
        let today: i32 = s.changes.iter().filter(mine).filter(|c| c.day == day).map(|c| c.delta).sum();
        if (today + delta).abs() > DAY_CAP {
            return Err(RateError::Capped);
        }
        let old = s.records.iter().find(|r| r.target == target).map_or(0, |r| r.value);
        let value = (old + delta).clamp(VALUE_MIN, VALUE_MAX);
        let record = RelationRecord { target: target.into(), value, band: band(value).into(), delta, why: why.into(), at: now_ms, note: None };
        upsert(&mut s.records, record);
        s.changes.push(Change { target: target.into(), delta, turn_id: turn_id.into(), day: day.into(), at: now_ms });
        let horizon = now_ms - CHANGES_KEPT_DAYS * 86_400_000;
        s.changes.retain(|c| c.at >= horizon);
        self.write(&s);
        tracing::info!(record = "relation", target, delta, value, band = band(value));
        Ok(band(value))
    }

    /// The user sets `target` to `value` (clamped) by hand at `now_ms`.
    pub fn set_by_user(&self, target: &str, value: i32, now_ms: i64) -> RelationRecord {
        let mut s = self.lock();
        let value = value.clamp(VALUE_MIN, VALUE_MAX);
        let old = s.records.iter().find(|r| r.target == target).map_or(0, |r| r.value);
        let note = s.records.iter().find(|r| r.target == target).and_then(|r| r.note.clone());
        let record = RelationRecord { target: target.into(), value, band: band(value).into(), delta: value - old, why: SET_BY_USER.into(), at: now_ms, note };
        upsert(&mut s.records, record.clone());
        self.write(&s);
        tracing::info!(record = "relation_set_by_user", target, value);
        record
    }

    /// An external engine replaces every record at `now_ms` (values
    /// clamped, bands recomputed, one record per target: the last wins,
    /// `user` first). The caps' history is kept. Answers what is stored now.
    pub fn replace(&self, records: Vec<ExternalRecord>, now_ms: i64) -> Vec<RelationRecord> {
        let mut s = self.lock();
        s.records.clear();
        for r in records {
            let value = r.value.clamp(VALUE_MIN, VALUE_MAX);
            let why = if r.why.trim().is_empty() { SET_BY_ENGINE.to_string() } else { crate::context::sanitize(&r.why) };
            let note = r.note.map(|n| crate::context::sanitize(&n)).filter(|n| !n.is_empty());
            let record =
                RelationRecord { target: r.target.trim().into(), value, band: band(value).into(), delta: r.delta, why, at: r.at.unwrap_or(now_ms), note };
            if !record.target.is_empty() {
                upsert(&mut s.records, record);
            }
        }
        self.write(&s);
        tracing::info!(record = "relations_replaced", count = s.records.len());
        s.records.clone()
    }

    /// Every record, `user` first, then the others in the order they were first rated.
    pub fn list(&self) -> Vec<RelationRecord> {
        self.lock().records.clone()
    }

    /// The records as the client_context renderer reads them.
    pub fn context(&self) -> Vec<Relation> {
        self.list()
            .into_iter()
            .map(|r| Relation {
                set_by_user: r.why == SET_BY_USER,
                target: Some(r.target),
                band: Some(r.band),
                delta: Some(r.delta as i64),
                why: Some(r.why),
                at: Some(r.at),
                note: r.note,
            })
            .collect()
    }

    /// Write the file whole on the writer, off the caller; the in-memory
    /// state stays what is read.
    fn write(&self, s: &Stored) {
        let (stored, path) = (s.clone(), self.path.clone());
        self.writer.submit_whole(&self.path, move || {
            let bytes = serde_json::to_vec_pretty(&stored).expect("relations serialize");
            if let Err(e) = crate::data_dir::write_whole(&path, &bytes) {
                tracing::warn!(record = "relations_unwritable", path = %path.display(), error = %e);
            }
        });
    }
}

/// `relations` as the block lists them: toward the user first, then toward
/// the other open characters in registry order (`others`, names compared
/// without case; a character named `user` is the target
/// `user (character)`), then the rest as stored.
pub fn in_registry_order(mut relations: Vec<Relation>, others: &[String]) -> Vec<Relation> {
    let rank = |r: &Relation| -> usize {
        let target = r.target.as_deref().unwrap_or("");
        if target == "user" {
            return 0;
        }
        let name = if target == "user (character)" { "user" } else { target };
        others.iter().position(|o| crate::cast::same_name(o, name)).map_or(others.len() + 1, |i| i + 1)
    };
    // A stable sort: the rest keep their stored order.
    relations.sort_by_key(rank);
    relations
}

/// Replace `record`'s target in place, or add it (`user` always first).
fn upsert(records: &mut Vec<RelationRecord>, record: RelationRecord) {
    if let Some(r) = records.iter_mut().find(|r| r.target == record.target) {
        *r = record;
    } else if record.target == "user" {
        records.insert(0, record);
    } else {
        records.push(record);
    }
}

/// The local calendar day of `now_ms`, `YYYY-MM-DD`.
pub fn local_day(now_ms: i64) -> String {
    use chrono::TimeZone;
    match chrono::Local.timestamp_millis_opt(now_ms) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => t.format("%Y-%m-%d").to_string(),
        chrono::LocalResult::None => String::from("?"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, RelationStore) {
        let dir = tempfile::tempdir().unwrap();
        let s = RelationStore::open(&DataDir::new(dir.path()).unwrap(), "");
        (dir, s)
    }

    #[test]
    fn an_engine_replaces_every_record_with_notes_clamped_and_user_first() {
        let (d, s) = store();
        s.rate("perlica", 2, "kind", "t1", 1, "d1").unwrap();
        let got = s.replace(
            vec![
                ExternalRecord { target: "natsume".into(), value: 40, delta: 3, why: "".into(), at: None, note: Some("shares  snacks".into()) },
                ExternalRecord { target: "user".into(), value: -3, delta: -1, why: "late\nagain".into(), at: Some(7), note: None },
            ],
            99,
        );
        assert_eq!(got.iter().map(|r| r.target.as_str()).collect::<Vec<_>>(), ["user", "natsume"], "perlica is gone; user first");
        assert_eq!((got[0].value, got[0].band.as_str(), got[0].why.as_str(), got[0].at), (-3, "cold", "late again", 7));
        assert_eq!((got[1].value, got[1].band.as_str(), got[1].why.as_str(), got[1].at), (10, "close", SET_BY_ENGINE, 99));
        assert_eq!(got[1].note.as_deref(), Some("shares snacks"));
        let again = RelationStore::open(&DataDir::new(d.path()).unwrap(), "");
        assert_eq!(again.list(), got, "kept on disk");
        assert!(again.context()[1].note.is_some(), "the note reaches the renderer");
    }

    #[test]
    fn bands_at_every_edge() {
        let cases = [
            (-10, "hostile"),
            (-6, "hostile"),
            (-5, "cold"),
            (-2, "cold"),
            (-1, "neutral"),
            (0, "neutral"),
            (1, "neutral"),
            (2, "warm"),
            (5, "warm"),
            (6, "close"),
            (10, "close"),
        ];
        for (v, b) in cases {
            assert_eq!(band(v), b, "{v}");
        }
    }

    #[test]
    fn one_change_per_target_per_turn() {
        let (_d, s) = store();
        assert_eq!(s.rate("user", 2, "helped", "t1", 1000, "d1"), Ok("warm"));
        assert_eq!(s.rate("user", 1, "again", "t1", 1001, "d1"), Err(RateError::Capped));
        assert_eq!(s.rate("perlica", -1, "rude", "t1", 1002, "d1"), Ok("neutral"), "another target in the same turn");
        assert_eq!(s.rate("user", 1, "again", "t2", 1003, "d1"), Ok("warm"));
        assert_eq!(s.list()[0].value, 3);
        assert_eq!(s.list()[0].why, "again");
    }

    #[test]
    fn the_day_cap_both_ways_and_a_new_day() {
        let (_d, s) = store();
        assert!(s.rate("user", 3, "a", "t1", 1, "d1").is_ok());
        assert!(s.rate("user", 2, "b", "t2", 2, "d1").is_ok());
        assert_eq!(s.rate("user", 1, "c", "t3", 3, "d1"), Err(RateError::Capped), "+6 in a day");
        assert_eq!(s.list()[0].value, 5, "a capped change changes nothing");
        assert_eq!(s.rate("user", -3, "d", "t4", 4, "d1"), Ok("warm"), "back down is within the cap");
        assert!(s.rate("user", 3, "e", "t5", 5, "d2").is_ok(), "a new day");
        assert_eq!(s.list()[0].value, 5);
        let (_d, s) = store();
        assert!(s.rate("user", -3, "a", "t1", 1, "d1").is_ok());
        assert!(s.rate("user", -2, "b", "t2", 2, "d1").is_ok());
        assert_eq!(s.rate("user", -1, "c", "t3", 3, "d1"), Err(RateError::Capped), "-6 in a day");
    }

    #[test]
    fn values_clamp_and_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let data = DataDir::new(dir.path()).unwrap();
        let s = RelationStore::open(&data, "");
        s.set_by_user("user", 9, 10);
        assert_eq!(s.rate("user", 3, "best day", "t1", 20, "d1"), Ok("close"));
        assert_eq!(s.list()[0].value, VALUE_MAX);
        s.rate("rin", -2, "took my chair", "t1", 30, "d1").unwrap();
        drop(s);
        let s = RelationStore::open(&data, "");
        let list = s.list();
        assert_eq!(list.len(), 2);
        assert_eq!((list[0].target.as_str(), list[0].value, list[0].band.as_str()), ("user", 10, "close"));
        assert_eq!((list[1].target.as_str(), list[1].value, list[1].delta), ("rin", -2, -2));
        // The caps read the stored changes too.
        assert_eq!(s.rate("user", 1, "again", "t1", 40, "d1"), Err(RateError::Capped));
        // Another character's store is its own.
        assert!(RelationStore::open(&data, "other.vrm").list().is_empty());
    }

    #[test]
    fn set_by_hand_reads_so_in_the_context() {
        let (_d, s) = store();
        s.rate("rin", 1, "fine", "t1", 5, "d1").unwrap();
        let r = s.set_by_user("user", -7, 10);
        assert_eq!((r.band.as_str(), r.delta, r.why.as_str()), ("hostile", -7, SET_BY_USER));
        let ctx = s.context();
        assert_eq!(ctx[0].target.as_deref(), Some("user"), "user first");
        assert!(ctx[0].set_by_user);
        assert!(!ctx[1].set_by_user);
        assert_eq!(s.set_by_user("user", 40, 11).value, VALUE_MAX);
    }

    #[test]
    fn a_damaged_file_reads_as_empty() {
        let dir = tempfile::tempdir().unwrap();
        let data = DataDir::new(dir.path()).unwrap();
        std::fs::create_dir_all(dir.path().join(DIR)).unwrap();
        std::fs::write(dir.path().join(DIR).join(format!("{}.json", crate::data_dir::character_key(""))), "{not json").unwrap();
        let s = RelationStore::open(&data, "");
        assert!(s.list().is_empty());
        assert_eq!(s.rate("user", 1, "x", "t", 1, "d"), Ok("neutral"));
    }

    #[test]
    fn lines_go_user_first_then_the_other_characters_in_registry_order() {
        let rel = |t: &str| Relation { target: Some(t.into()), ..Relation::default() };
        let stored = vec![rel("user"), rel("Zed"), rel("mio"), rel("user (character)"), rel("Ann")];
        let others = ["Ann".to_string(), "user".to_string(), "Mio".to_string()];
        let got: Vec<String> = in_registry_order(stored, &others).into_iter().map(|r| r.target.unwrap()).collect();
        assert_eq!(got, ["user", "Ann", "user (character)", "mio", "Zed"], "a closed character's record comes last");
    }
}
