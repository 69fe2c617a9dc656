//! The last client_context blocks that actually left the machine, for the
//! context inspector: the user's way to see exactly what is sent.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Mutex;
use ts_rs::TS;

/// How many sent blocks the inspector keeps.
pub const CONTEXT_LOG_ENTRIES: usize = 20;

/// One block as it was sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SentContext {
    /// The turn it rode on.
    pub turn_id: String,
    /// `push`, `responses`, `chat_completions` or `agent_chat`.
    pub transport: String,
    /// When it was sent, epoch milliseconds.
    #[ts(type = "number")]
    pub sent_at: u64,
    /// The rendered block, byte for byte.
    pub block: String,
    /// The pictures that left with it (data URLs as sent), screenshot first.
    #[serde(default)]
    pub images: Vec<String>,
}

impl ContextLog {
    /// Attach the pictures that left with `turn_id`'s block.
    pub fn attach_images(&self, turn_id: &str, images: Vec<String>) {
        let mut e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = e.iter_mut().rev().find(|c| c.turn_id == turn_id) {
            entry.images = images;
        }
    }
}

/// A ring of the last [`CONTEXT_LOG_ENTRIES`] sent blocks, newest last.
#[derive(Debug, Default)]
pub struct ContextLog {
    entries: Mutex<VecDeque<SentContext>>,
}

impl ContextLog {
    /// Record a block that was sent.
    pub fn push(&self, entry: SentContext) {
        let mut e = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if e.len() == CONTEXT_LOG_ENTRIES {
            e.pop_front();
        }
        e.push_back(entry);
    }

    /// The kept blocks, oldest first.
    pub fn entries(&self) -> Vec<SentContext> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_twenty() {
        let log = ContextLog::default();
        for i in 0..25u64 {
            log.push(SentContext { turn_id: i.to_string(), transport: "push".into(), sent_at: i, block: String::new(), images: Vec::new() });
        }
        let e = log.entries();
        assert_eq!(e.len(), CONTEXT_LOG_ENTRIES);
        assert_eq!(e.first().unwrap().turn_id, "5");
        assert_eq!(e.last().unwrap().turn_id, "24");
    }
}
