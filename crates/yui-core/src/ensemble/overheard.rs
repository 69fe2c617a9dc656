//! [`Overhearing`]: what one character has heard of the others, and the
//! `overheard` blocks of her turns (`docs/characters.md`, "Overheard").
//!
//! - One cursor per other character (by name, without case): the
//!   conversation it was in and the position of the last message heard,
//!   kept in `overheard.json` in her folder.
//! - A turn carries, for each other open character with unheard lines, the
//!   messages of its current conversation (a new conversation is a session
//!   boundary: nothing before it counts) after the cursor, up to the first
//!   reply still being written, at most the newest
//!   [`OVERHEARD_LINES`], oldest first:
//!   `user` for the user's half and the character's name for its reply.
//! - The cursors move only when that turn ended ok
//!   ([`Overhearing::ended`]); a failed or stopped turn leaves them, and the
//!   next turn carries the lines again.
//! - The other character's history is read, never written.

use crate::chat::history::History;
use crate::chat::{AnswerState, ChatMessage, Role as ChatRole};
use crate::context::{Overheard, OverheardEntry, Role};
use crate::data_dir::DataDir;
use crate::limits::OVERHEARD_LINES;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

/// The file of the cursors in a character's folder.
pub const FILE_NAME: &str = "overheard.json";

/// Unheard messages read at most per other character and turn (the newest;
/// only [`OVERHEARD_LINES`] of them are carried).
const READ_AT_MOST: usize = 64;

/// Turns whose lines wait for their end at most (older ones are forgotten:
/// a turn that never ended moves nothing).
const PENDING_TURNS: usize = 16;

/// Where one character stopped hearing another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    /// The conversation the last heard message was in.
    pub conversation: String,
    /// That message's position in it.
    pub pos: i64,
}

/// One character's cursors and the turns whose lines wait for their end.
/// See the module doc.
#[derive(Debug)]
pub struct Overhearing {
    path: PathBuf,
    /// By the other character's name, lowercased.
    cursors: BTreeMap<String, Cursor>,
    /// Turn id → the cursors its end moves.
    pending: VecDeque<(String, Vec<(String, Cursor)>)>,
    writer: crate::persist::Writer,
}

impl Overhearing {
    /// The cursors kept in `data_dir` (none when the file is missing; a
    /// damaged file is logged and read as none).
    pub fn open(data_dir: &DataDir) -> Self {
        let path = data_dir.root().join(FILE_NAME);
        let writer = crate::persist::Writer::global();
        writer.flush();
        let cursors = match std::fs::read_to_string(&path) {
            Ok(raw) => serde_json::from_str(&raw).unwrap_or_else(|e| {
                tracing::warn!(record = "overheard_unreadable", path = %path.display(), error = %e);
                BTreeMap::new()
            }),
            Err(_) => BTreeMap::new(),
        };
        Overhearing { path, cursors, pending: VecDeque::new(), writer }
    }

    /// The same, writing through `writer` (the session's).
    pub fn writing_through(mut self, writer: crate::persist::Writer) -> Self {
        self.writer = writer;
        self
    }

    /// The cursor toward `name` (without case).
    pub fn cursor(&self, name: &str) -> Option<&Cursor> {
        self.cursors.get(&name.to_lowercase())
    }

    /// The `overheard` blocks of turn `turn_id`: each of `others` (name and
    /// history, in registry order) with unheard lines. Their cursors move
    /// when [`Overhearing::ended`] says the turn ended ok.
    pub fn collect(&mut self, turn_id: &str, others: &[(String, History)]) -> Vec<Overheard> {
        let mut blocks = Vec::new();
        let mut moves = Vec::new();
        for (name, history) in others {
            let key = name.to_lowercase();
            let Some(conversation) = history.current_id() else { continue };
            // A new conversation is a session boundary: from its start.
            let after = self.cursors.get(&key).filter(|c| c.conversation == conversation).map(|c| c.pos);
            let messages = history.newest_after(&conversation, after, READ_AT_MOST);
            let heard = finished(&messages);
            let Some((last, _)) = heard.last() else { continue };
            moves.push((key.clone(), Cursor { conversation: conversation.clone(), pos: *last }));
            let entries: Vec<OverheardEntry> = heard.iter().filter_map(|(_, m)| entry(m)).collect();
            let entries = entries[entries.len().saturating_sub(OVERHEARD_LINES)..].to_vec();
            if !entries.is_empty() {
                blocks.push(Overheard { preset: Some(key), name: Some(name.clone()), entries });
            }
        }
        if !moves.is_empty() {
            self.pending.retain(|(t, _)| t != turn_id);
            self.pending.push_back((turn_id.to_string(), moves));
            while self.pending.len() > PENDING_TURNS {
                self.pending.pop_front();
            }
        }
        blocks
    }

    /// Turn `turn_id` ended: ok moves the cursors past the lines it carried
    /// (saved), anything else leaves them.
    pub fn ended(&mut self, turn_id: &str, ok: bool) {
        let Some(at) = self.pending.iter().position(|(t, _)| t == turn_id) else { return };
        let (_, moves) = self.pending.remove(at).expect("found above");
        if !ok {
            tracing::info!(record = "overheard_kept", turn_id = %turn_id, "the turn did not end ok: its lines go again");
            return;
        }
        for (key, cursor) in moves {
            self.cursors.insert(key, cursor);
        }
        let (cursors, path) = (self.cursors.clone(), self.path.clone());
        self.writer.submit_whole(&self.path, move || {
            let bytes = serde_json::to_vec_pretty(&cursors).expect("cursors serialize");
            if let Err(e) = crate::data_dir::write_whole(&path, &bytes) {
                tracing::warn!(record = "overheard_unwritable", path = %path.display(), error = %e);
            }
        });
    }
}

/// The messages up to the first reply still being written (its user
/// message included): what can be heard now.
fn finished(messages: &[(i64, ChatMessage)]) -> &[(i64, ChatMessage)] {
    let open =
        messages.iter().position(|(_, m)| m.role == ChatRole::Assistant && m.answers.get(m.active as usize).is_none_or(|a| a.state == AnswerState::Streaming));
    &messages[..open.unwrap_or(messages.len())]
}

/// A message as a transcript entry: the user's text, or the reply shown
/// (none when it said nothing, or only `[SILENT]`).
fn entry(m: &ChatMessage) -> Option<OverheardEntry> {
    let (role, text) = match m.role {
        ChatRole::User => (Role::User, m.text.clone()),
        ChatRole::Assistant => (Role::Assistant, m.answers.get(m.active as usize)?.text.clone()),
    };
    if !crate::turn::speaks(&text) {
        return None;
    }
    Some(OverheardEntry { role, text, ts: Some(m.at_ms) })
}
