//! The client's delegation history and the pet's delegation chip
//! (`docs/push-protocol.md`, "Delegations" and "Limits").
//!
//! The backend sends its whole list of background work in each
//! `delegations` frame. The chip shows that latest list, minus done items
//! that ended more than [`DELEGATION_DONE_KEPT`] ago ([`chip`]). The
//! history ([`DelegationHistory`]) keeps every item the client has seen, one
//! entry per id, across backend and client restarts:
//!
//! - One store per character, kept in `<data>/delegations/<character>.json`
//!   (the file key of [`crate::data_dir::character_key`]), written whole
//!   after each change.
//! - A running item a later frame leaves out is recorded as done with status
//!   `"unknown"` (and `ended_at` the moment that frame arrived, when it had
//!   none).
//! - Past [`DELEGATION_HISTORY_ITEMS`] entries the oldest done ones are
//!   dropped; "oldest" is first-seen order (the order the client first got
//!   each id), not `started_at`, so a backend clock never reorders it. A
//!   running item is never dropped, so the history is longer than the limit
//!   only while more than that many items are running.

use crate::data_dir::DataDir;
use crate::limits::{DELEGATION_DONE_KEPT, DELEGATION_HISTORY_ITEMS, DELEGATION_ITEM_SUMMARY, DELEGATION_ITEM_TITLE};
use crate::model::{DelegationItem, DelegationState};
use crate::transport::push::frames::cut_chars;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

const DIR: &str = "delegations";
/// The status a running item gets when a later frame leaves it out.
pub const STATUS_UNKNOWN: &str = "unknown";

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Stored {
    /// Oldest first seen first.
    #[serde(default)]
    items: Vec<DelegationItem>,
}

/// One character's delegation history, read on open and written through its
/// file after each change.
#[derive(Debug)]
pub struct DelegationHistory {
    path: PathBuf,
    stored: Stored,
    writer: crate::persist::Writer,
}

impl DelegationHistory {
    /// The history of the character keyed `character` in `data_dir`, loaded
    /// now. A missing file is an empty history; a damaged one is logged
    /// (`delegation_history_unreadable`) and read as empty, and the next
    /// change writes a good file over it.
    pub fn open(data_dir: &DataDir, character: &str) -> Self {
        let key = crate::data_dir::character_key(character);
        Self::open_at(data_dir.root().join(DIR).join(format!("{key}.json")))
    }

    /// The same history, writing through `writer` (the session's); waits
    /// for what `writer` still had to write.
    pub fn writing_through(mut self, writer: crate::persist::Writer) -> Self {
        self.writer = writer;
        self
    }

    fn open_at(path: PathBuf) -> Self {
        let writer = crate::persist::Writer::global();
        // What an earlier session sent is on disk before it is read.
        writer.flush();
        let mut stored = match std::fs::read_to_string(&path) {
            Ok(raw) => serde_json::from_str::<Stored>(&raw).unwrap_or_else(|e| {
                tracing::warn!(record = "delegation_history_unreadable", path = %path.display(), error = %e);
                Stored::default()
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Stored::default(),
            Err(e) => {
                tracing::warn!(record = "delegation_history_unreadable", path = %path.display(), error = %e);
                Stored::default()
            }
        };
        // A hand-edited file may carry long texts or repeated ids: the
        // history holds the same shape whatever it was read from.
        let items = std::mem::take(&mut stored.items);
        for item in items {
            upsert(&mut stored.items, fit(item));
        }
        Self { path, stored, writer }
    }

    /// Wait until every write this history sent has landed (blocks).
    pub fn flush(&self) {
        self.writer.flush();
    }

    /// The file this history lives in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Take one `delegations` frame's list, arrived at `now_ms` (epoch
    /// milliseconds): new ids are added, known ids take the frame's fields,
    /// a running item the list leaves out becomes done with status
    /// `"unknown"`, then the oldest done items past the limit are dropped.
    /// Writes the file when anything changed.
    pub fn apply(&mut self, items: &[DelegationItem], now_ms: i64) {
        let before = self.stored.clone();
        let now = u64::try_from(now_ms).unwrap_or(0);
        let s = &mut self.stored;
        for old in s.items.iter_mut() {
            if old.state == DelegationState::Running && !items.iter().any(|i| i.id == old.id) {
                old.state = DelegationState::Done;
                old.status = Some(STATUS_UNKNOWN.to_string());
                old.ended_at = old.ended_at.or(Some(now));
                tracing::info!(record = "delegation_lost", id = %old.id);
            }
        }
        for item in items {
            upsert(&mut s.items, fit(item.clone()));
        }
        cap(&mut s.items, DELEGATION_HISTORY_ITEMS);
        if self.stored != before {
            self.write();
        }
    }

    /// Every item in the history, newest (last first seen) first, for the
    /// settings window's Session section.
    pub fn items(&self) -> Vec<DelegationItem> {
        self.stored.items.iter().rev().cloned().collect()
    }

    /// How many items the history holds.
    pub fn len(&self) -> usize {
        self.stored.items.len()
    }

    /// True when the history holds no item.
    pub fn is_empty(&self) -> bool {
        self.stored.items.is_empty()
    }

    /// Write the file whole on the writer, off the caller (the in-memory
    /// history stays what is read).
    fn write(&self) {
        let (stored, path) = (self.stored.clone(), self.path.clone());
        self.writer.submit_whole(&self.path, move || {
            let bytes = serde_json::to_vec_pretty(&stored).expect("delegation history serializes");
            if let Err(e) = crate::data_dir::write_whole(&path, &bytes) {
                tracing::warn!(record = "delegation_history_unwritable", path = %path.display(), error = %e);
            }
        });
    }
}

/// What the pet's chip shows at `now_ms` (epoch milliseconds): the latest
/// list, in its order, minus done items whose `ended_at` is more than
/// [`DELEGATION_DONE_KEPT`] (30 min) before now. An item exactly 30 min
/// past its end still shows; a done item with no `ended_at` stays.
pub fn chip(latest: &[DelegationItem], now_ms: i64) -> Vec<DelegationItem> {
    let kept = DELEGATION_DONE_KEPT.as_millis() as i64;
    latest
        .iter()
        .filter(|i| match (i.state, i.ended_at) {
            (DelegationState::Done, Some(end)) => now_ms.saturating_sub(i64::try_from(end).unwrap_or(i64::MAX)) <= kept,
            _ => true,
        })
        .cloned()
        .collect()
}

/// Title to its first line and the limit, summary to its limit, by code
/// point (the frame parser already does this; the history holds to it
/// whatever it is handed).
fn fit(mut item: DelegationItem) -> DelegationItem {
    if item.title.contains(['\n', '\r']) || item.title.chars().nth(DELEGATION_ITEM_TITLE).is_some() {
        item.title = cut_chars(item.title.lines().next().unwrap_or(""), DELEGATION_ITEM_TITLE);
    }
    if let Some(s) = item.summary.as_mut() {
        if s.chars().nth(DELEGATION_ITEM_SUMMARY).is_some() {
            *s = cut_chars(s, DELEGATION_ITEM_SUMMARY);
        }
    }
    item
}

/// Replace the entry with `item`'s id in place (it keeps its first-seen
/// place), or add it last.
fn upsert(items: &mut Vec<DelegationItem>, item: DelegationItem) {
    match items.iter_mut().find(|i| i.id == item.id) {
        Some(old) => *old = item,
        None => items.push(item),
    }
}

/// Drop the first-seen done items until at most `max` remain or only
/// running ones are left over.
fn cap(items: &mut Vec<DelegationItem>, max: usize) {
    let mut over = items.len().saturating_sub(max);
    if over == 0 {
        return;
    }
    items.retain(|i| {
        if over > 0 && i.state == DelegationState::Done {
            over -= 1;
            false
        } else {
            true
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: i64 = 60_000;

    fn running(id: &str, started: u64) -> DelegationItem {
        DelegationItem {
            id: id.into(),
            title: format!("task {id}"),
            started_at: started,
            state: DelegationState::Running,
            ended_at: None,
            status: None,
            summary: None,
        }
    }

    fn done(id: &str, started: u64, ended: u64) -> DelegationItem {
        DelegationItem {
            state: DelegationState::Done,
            ended_at: Some(ended),
            status: Some("ok".into()),
            summary: Some(format!("answer {id}")),
            ..running(id, started)
        }
    }

    fn open(dir: &tempfile::TempDir) -> DelegationHistory {
        DelegationHistory::open(&DataDir::new(dir.path()).unwrap(), "")
    }

    fn ids(items: &[DelegationItem]) -> Vec<String> {
        items.iter().map(|i| i.id.clone()).collect()
    }

    #[test]
    fn the_cap_drops_the_oldest_done_first() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = open(&dir);
        // Seen first: r0 (running), then d0..d199 done; then 5 more done.
        h.apply(&[running("r0", 1)], 10);
        for n in 0..200u64 {
            h.apply(&[running("r0", 1), done(&format!("d{n}"), n, n + 1)], 20 + n as i64);
        }
        assert_eq!(h.len(), DELEGATION_HISTORY_ITEMS, "r0 and d1..d199: d0 went");
        let items = h.items();
        assert!(items.iter().any(|i| i.id == "r0"), "the first seen is running and stays");
        assert!(!items.iter().any(|i| i.id == "d0"));
        assert_eq!(items[0].id, "d199", "newest first");
        assert_eq!(items.last().unwrap().id, "r0", "first seen last");
        for n in 200..205u64 {
            h.apply(&[running("r0", 1), done(&format!("d{n}"), n, n + 1)], 300 + n as i64);
        }
        let items = h.items();
        assert_eq!(items.len(), DELEGATION_HISTORY_ITEMS);
        for gone in ["d1", "d2", "d3", "d4", "d5"] {
            assert!(!items.iter().any(|i| i.id == gone), "{gone} was among the oldest done");
        }
        assert!(items.iter().any(|i| i.id == "d6"));
        assert!(items.iter().any(|i| i.id == "r0"));
    }

    #[test]
    fn running_items_are_never_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = open(&dir);
        h.apply(&[done("old", 1, 2)], 5);
        let all: Vec<DelegationItem> = (0..210u64).map(|n| running(&format!("r{n}"), n)).collect();
        // The frame's own list is capped at 50 by the parser; the history
        // takes however many it is handed.
        h.apply(&all, 10);
        assert_eq!(h.len(), 210, "210 running kept, the one done item dropped");
        assert!(h.items().iter().all(|i| i.state == DelegationState::Running));
        // Once some finish, the history shrinks back to the limit.
        let mut later = all.clone();
        for item in later.iter_mut().take(15) {
            *item = done(&item.id, item.started_at, 20);
        }
        h.apply(&later, 30);
        assert_eq!(h.len(), DELEGATION_HISTORY_ITEMS);
        assert!(!h.items().iter().any(|i| i.id == "r0" || i.id == "r9"), "the first ten finished ones went");
        assert!(h.items().iter().any(|i| i.id == "r10"));
    }

    #[test]
    fn a_running_item_left_out_becomes_done_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = open(&dir);
        let mut ended = running("b", 2);
        ended.ended_at = Some(7);
        h.apply(&[running("a", 1), ended, done("c", 3, 4)], 100);
        h.apply(&[], 5 * MIN);
        let items = h.items();
        let a = items.iter().find(|i| i.id == "a").unwrap();
        assert_eq!((a.state, a.status.as_deref(), a.ended_at), (DelegationState::Done, Some(STATUS_UNKNOWN), Some(5 * MIN as u64)));
        let b = items.iter().find(|i| i.id == "b").unwrap();
        assert_eq!((b.state, b.status.as_deref(), b.ended_at), (DelegationState::Done, Some(STATUS_UNKNOWN), Some(7)), "an ended_at it had stays");
        let c = items.iter().find(|i| i.id == "c").unwrap();
        assert_eq!(c.status.as_deref(), Some("ok"), "a done item left out stays as it was");
    }

    #[test]
    fn updates_keep_one_entry_per_id() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = open(&dir);
        h.apply(&[running("a", 1), running("b", 2)], 10);
        h.apply(&[running("a", 1), running("b", 2), running("c", 3)], 20);
        h.apply(&[done("a", 1, 25), running("b", 2), running("c", 3)], 30);
        h.apply(&[done("a", 1, 25), running("b", 2), running("c", 3)], 40);
        assert_eq!(ids(&h.items()), ["c", "b", "a"], "first-seen order, newest first");
        let a = &h.items()[2];
        assert_eq!((a.state, a.ended_at, a.status.as_deref(), a.summary.as_deref()), (DelegationState::Done, Some(25), Some("ok"), Some("answer a")));
        // The same id twice in one list is one entry, the later fields.
        let mut again = done("c", 3, 50);
        again.status = Some("error".into());
        h.apply(&[done("c", 3, 45), again], 60);
        assert_eq!(h.len(), 3);
        assert_eq!(h.items()[0].status.as_deref(), Some("error"));
    }

    #[test]
    fn the_history_survives_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = open(&dir);
        h.apply(&[running("a", 1), done("b", 2, 3)], 10);
        drop(h);
        let mut h = open(&dir);
        assert_eq!(ids(&h.items()), ["b", "a"]);
        // The backend restarted and no longer knows "a".
        h.apply(&[running("c", 20)], 30);
        drop(h);
        let h = open(&dir);
        assert_eq!(ids(&h.items()), ["c", "b", "a"]);
        assert_eq!(h.items()[2].status.as_deref(), Some(STATUS_UNKNOWN));
        assert!(DelegationHistory::open(&DataDir::new(dir.path()).unwrap(), "other.vrm").is_empty(), "another character's history is its own");
    }

    #[test]
    fn a_damaged_file_reads_as_empty_and_the_next_write_repairs_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DIR).join(format!("{}.json", crate::data_dir::character_key("")));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, "{not json").unwrap();
        let mut h = open(&dir);
        assert!(h.is_empty());
        assert_eq!(h.path(), path);
        h.apply(&[running("a", 1)], 10);
        h.flush();
        let raw = std::fs::read_to_string(&path).unwrap();
        assert!(serde_json::from_str::<Stored>(&raw).is_ok(), "a good file again: {raw}");
        assert_eq!(ids(&open(&dir).items()), ["a"]);
    }

    #[test]
    fn texts_are_held_to_the_limits() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = open(&dir);
        let mut long = done("a", 1, 2);
        long.title = format!("{}\nsecond line", "é".repeat(DELEGATION_ITEM_TITLE + 5));
        long.summary = Some("ユ".repeat(DELEGATION_ITEM_SUMMARY + 1));
        h.apply(&[long], 3);
        let a = &h.items()[0];
        assert_eq!(a.title.chars().count(), DELEGATION_ITEM_TITLE);
        assert_eq!(a.summary.as_ref().unwrap().chars().count(), DELEGATION_ITEM_SUMMARY);
    }

    #[test]
    fn the_chip_keeps_a_done_item_thirty_minutes() {
        let end: u64 = 1_789_365_701_000;
        let latest = [running("r", 1), done("d", 1, end)];
        let at = |ms: i64| ids(&chip(&latest, end as i64 + ms));
        assert_eq!(at(30 * MIN - 1_000), ["r", "d"], "29:59 after the end");
        assert_eq!(at(30 * MIN), ["r", "d"], "30:00 exactly still shows");
        assert_eq!(at(30 * MIN + 1_000), ["r"], "30:01 after the end");
        let mut no_end = done("n", 1, 0);
        no_end.ended_at = None;
        assert_eq!(ids(&chip(&[no_end], i64::MAX)), ["n"], "no ended_at, no rule to drop it by");
    }
}
