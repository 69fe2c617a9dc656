//! The previous-turn record: how the last turn that tried to speak ended,
//! stored per character in the data directory so it survives a restart.
//!
//! Only the backend's own turns write it: `complete` when its speech played,
//! `interrupted` when speech had started and was cut, `failed` when the call
//! settled badly before any speech. A silent reply, the filler and the
//! client's failure line leave it as it was.

use crate::context::PreviousTurn;
use crate::data_dir::DataDir;
use crate::persist::Writer;
use std::path::PathBuf;

const DIR: &str = "previous-turn";

/// Where one character's record lives.
#[derive(Debug, Clone)]
pub struct OutcomeStore {
    path: PathBuf,
    writer: Writer,
}

impl OutcomeStore {
    /// The store of the character keyed `character` (a file stem; empty for
    /// the bundled default) in `data_dir`.
    pub fn new(data_dir: &DataDir, character: &str) -> Self {
        let key = crate::data_dir::character_key(character);
        Self { path: data_dir.root().join(DIR).join(format!("{key}.json")), writer: Writer::global() }
    }

    /// The same store, writing through `writer` (the session's).
    pub fn writing_through(mut self, writer: Writer) -> Self {
        self.writer = writer;
        self
    }

    /// The stored record; `None` when there is none or it cannot be read
    /// (logged). Waits for the writes already sent (blocks: at start only).
    pub fn load(&self) -> Option<PreviousTurn> {
        self.writer.flush();
        let raw = std::fs::read_to_string(&self.path).ok()?;
        match serde_json::from_str(&raw) {
            Ok(rec) => Some(rec),
            Err(e) => {
                tracing::warn!(record = "previous_turn_unreadable", path = %self.path.display(), error = %e);
                None
            }
        }
    }

    /// Store `record`, replacing the last one, on the writer (in order,
    /// off the caller). A write failure is logged.
    pub fn save(&self, record: PreviousTurn) {
        let path = self.path.clone();
        self.writer.submit_whole(&self.path, move || match crate::data_dir::write_whole(&path, &serde_json::to_vec(&record).expect("record serializes")) {
            Ok(()) => tracing::info!(record = "previous_turn", outcome = ?record.outcome, turn_id = ?record.turn_id),
            Err(e) => tracing::warn!(record = "previous_turn_unwritable", path = %path.display(), error = %e),
        });
    }
}

pub use yui_turn::outcome::record;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Outcome;

    #[test]
    fn records_are_per_character_and_survive_a_new_store() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path()).unwrap();
        let a = OutcomeStore::new(&dir, "");
        assert!(a.load().is_none());
        a.save(record(Outcome::Interrupted, "user.text_submitted", "7", 1000, "Three logs are left.", ""));
        let again = OutcomeStore::new(&dir, "").load().unwrap();
        assert_eq!(again.outcome, Outcome::Interrupted);
        assert_eq!(again.already_spoken.as_deref(), Some("Three logs are left."));
        assert_eq!(again.never_spoken, None, "an empty part is left out");
        assert!(OutcomeStore::new(&dir, "/data/characters/mio.vrm").load().is_none(), "another character, another record");
        let failed = record(Outcome::Failed, "user.text_submitted", "8", 1, "ignored", "ignored");
        assert_eq!((failed.already_spoken, failed.never_spoken), (None, None));
    }

    #[test]
    fn a_damaged_record_reads_as_none() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = DataDir::new(tmp.path()).unwrap();
        let store = OutcomeStore::new(&dir, "");
        std::fs::create_dir_all(tmp.path().join(DIR)).unwrap();
        std::fs::write(tmp.path().join(DIR).join("default.json"), "{oops").unwrap();
        assert!(store.load().is_none());
    }
}
