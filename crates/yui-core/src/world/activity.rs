//! The activity log: frontmost transitions only, one JSON-lines file per
//! local day, `<data dir>/activity/YYYY-MM-DD.jsonl`. Each line is one
//! [`Transition`] (`{"at_ms":…,"from":"Firefox","to":"Code"}`), filed under
//! the local day of its `at_ms`. Opening the log deletes the day files
//! older than [`ACTIVITY_LOG_DAYS`] (today and the 13 days before it stay);
//! other files in the folder are left alone.

use super::Transition;
use crate::data_dir::DataDir;
use crate::limits::ACTIVITY_LOG_DAYS;
use chrono::{FixedOffset, NaiveDate, TimeZone};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// The folder under the data directory.
pub const ACTIVITY_DIR: &str = "activity";

/// The activity log of one installation.
#[derive(Debug, Clone)]
pub struct ActivityLog {
    dir: PathBuf,
    /// The zone days are counted in; `None`: this machine's local zone.
    offset: Option<FixedOffset>,
}

impl ActivityLog {
    /// Open the log under `data` (local days), pruning as of `now_ms`.
    pub fn open(data: &DataDir, now_ms: i64) -> io::Result<Self> {
        Self::open_in(data.root().join(ACTIVITY_DIR), None, now_ms)
    }

    /// Open the log in `dir`, counting days at `offset` from UTC (`None`:
    /// this machine's local zone), and prune the day files older than
    /// [`ACTIVITY_LOG_DAYS`] as of `now_ms`.
    pub fn open_in(dir: impl Into<PathBuf>, offset: Option<FixedOffset>, now_ms: i64) -> io::Result<Self> {
        let log = Self { dir: dir.into(), offset };
        std::fs::create_dir_all(&log.dir)?;
        log.prune(now_ms)?;
        Ok(log)
    }

    /// The folder of the day files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The day `at_ms` falls on, in the log's zone.
    pub fn day_of(&self, at_ms: i64) -> NaiveDate {
        match self.offset {
            Some(offset) => offset.timestamp_millis_opt(at_ms).single().map(|t| t.date_naive()),
            None => chrono::Local.timestamp_millis_opt(at_ms).earliest().map(|t| t.date_naive()),
        }
        .unwrap_or_default()
    }

    /// The file of `day`.
    pub fn path_for(&self, day: NaiveDate) -> PathBuf {
        self.dir.join(format!("{}.jsonl", day.format("%Y-%m-%d")))
    }

    /// Append `transition` to the file of its day.
    pub fn append(&self, transition: &Transition) -> io::Result<()> {
        let mut line = serde_json::to_vec(transition).map_err(io::Error::other)?;
        line.push(b'\n');
        let path = self.path_for(self.day_of(transition.at_ms));
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        file.write_all(&line)
    }

    /// Append `transition` on `writer`, in order and off the caller (the
    /// session loop's way); a failure is logged.
    pub fn append_later(&self, transition: Transition, writer: &crate::persist::Writer) {
        let log = self.clone();
        writer.submit(move || {
            if let Err(e) = log.append(&transition) {
                tracing::warn!(record = "activity_log_failed", error = %e);
            }
        });
    }

    /// The transitions filed under `day`, oldest first; a damaged line is
    /// skipped, a missing file is an empty day.
    pub fn read_day(&self, day: NaiveDate) -> io::Result<Vec<Transition>> {
        let file = match std::fs::File::open(self.path_for(day)) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut out = Vec::new();
        for line in io::BufReader::new(file).lines() {
            match serde_json::from_str(&line?) {
                Ok(t) => out.push(t),
                Err(e) => tracing::debug!(error = %e, "activity log: damaged line skipped"),
            }
        }
        Ok(out)
    }

    /// Delete the day files older than [`ACTIVITY_LOG_DAYS`] as of `now_ms`;
    /// answers how many went.
    pub fn prune(&self, now_ms: i64) -> io::Result<usize> {
        let today = self.day_of(now_ms);
        let Some(oldest_kept) = today.checked_sub_days(chrono::Days::new(u64::from(ACTIVITY_LOG_DAYS.saturating_sub(1)))) else {
            return Ok(0);
        };
        let mut pruned = 0;
        for entry in std::fs::read_dir(&self.dir)? {
            let path = entry?.path();
            let Some(day) = day_of_file(&path) else { continue };
            if day < oldest_kept {
                std::fs::remove_file(&path)?;
                pruned += 1;
            }
        }
        Ok(pruned)
    }
}

/// The day a `YYYY-MM-DD.jsonl` file is for; `None` for any other file.
fn day_of_file(path: &Path) -> Option<NaiveDate> {
    let name = path.file_name()?.to_str()?;
    NaiveDate::parse_from_str(name.strip_suffix(".jsonl")?, "%Y-%m-%d").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;
    /// 2026-06-15T00:00:00Z.
    const JUNE_15: i64 = 1_781_481_600_000;

    fn utc() -> Option<FixedOffset> {
        FixedOffset::east_opt(0)
    }

    fn date(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn t(at_ms: i64, from: Option<&str>, to: Option<&str>) -> Transition {
        Transition { at_ms, from: from.map(str::to_string), to: to.map(str::to_string) }
    }

    #[test]
    fn transitions_go_to_the_file_of_their_day() {
        let tmp = tempfile::tempdir().unwrap();
        let log = ActivityLog::open_in(tmp.path().join("activity"), utc(), JUNE_15).unwrap();
        let a = t(JUNE_15 + 1_000, None, Some("Firefox"));
        let b = t(JUNE_15 + DAY - 1, Some("Firefox"), Some("Code"));
        let c = t(JUNE_15 + DAY, Some("Code"), None);
        for x in [&a, &b, &c] {
            log.append(x).unwrap();
        }
        assert_eq!(log.read_day(date("2026-06-15")).unwrap(), vec![a, b]);
        assert_eq!(log.read_day(date("2026-06-16")).unwrap(), vec![c]);
        assert_eq!(log.read_day(date("2026-06-17")).unwrap(), vec![]);
        let raw = std::fs::read_to_string(tmp.path().join("activity/2026-06-16.jsonl")).unwrap();
        assert_eq!(raw, format!("{{\"at_ms\":{},\"from\":\"Code\",\"to\":null}}\n", JUNE_15 + DAY));
    }

    #[test]
    fn days_follow_the_zone() {
        let tmp = tempfile::tempdir().unwrap();
        let seoul = FixedOffset::east_opt(9 * 3600);
        let log = ActivityLog::open_in(tmp.path(), seoul, JUNE_15).unwrap();
        // 16:00Z on June 14 is 01:00 on June 15 in Seoul.
        log.append(&t(JUNE_15 - 8 * 3_600_000, None, Some("A"))).unwrap();
        assert_eq!(log.read_day(date("2026-06-15")).unwrap().len(), 1);
    }

    #[test]
    fn opening_prunes_files_older_than_fourteen_days() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("activity");
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["2026-05-31.jsonl", "2026-06-01.jsonl", "2026-06-02.jsonl", "2026-06-15.jsonl", "notes.txt", "2026-01-01.bak"] {
            std::fs::write(dir.join(name), "").unwrap();
        }
        ActivityLog::open_in(&dir, utc(), JUNE_15 + 5_000).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        // June 15 and the 13 days before it (June 2 on) stay.
        assert_eq!(left, ["2026-01-01.bak", "2026-06-02.jsonl", "2026-06-15.jsonl", "notes.txt"]);
    }

    #[test]
    fn a_damaged_line_is_skipped_and_the_data_dir_is_the_root() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::new(tmp.path()).unwrap().without_keychain();
        let log = ActivityLog::open(&data, JUNE_15).unwrap();
        assert_eq!(log.dir(), tmp.path().join("activity"));
        let day = log.day_of(JUNE_15);
        log.append(&t(JUNE_15, None, Some("A"))).unwrap();
        let mut f = std::fs::OpenOptions::new().append(true).open(log.path_for(day)).unwrap();
        f.write_all(b"{half\n").unwrap();
        log.append(&t(JUNE_15 + 1, Some("A"), None)).unwrap();
        assert_eq!(log.read_day(day).unwrap().len(), 2);
    }
}
