//! Conversations in the seed's shape (every message kept at its index, a
//! deleted one only marked), kept for `yui-mock`, which builds on them. The
//! demo's own engine stores conversations the way the PraisonAI desktop
//! engine does: see [`super::chats`].

use std::collections::HashMap;

use serde_json::{json, Value};

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// `"user"` or `"assistant"`.
    pub role: &'static str,
    /// Every version's text (a user message has one; an answer still
    /// streaming, cancelled or failed has `""`).
    pub versions: Vec<String>,
    /// The shown version, 0-based.
    pub active: usize,
    /// Deleted with `DELETE /messages/{cid}/{idx}` (indices never shift).
    pub deleted: bool,
}

impl Message {
    fn new(role: &'static str, text: &str) -> Message {
        Message {
            role,
            versions: vec![text.to_string()],
            active: 0,
            deleted: false,
        }
    }

    /// The message as JSON: `{role, text, versions, active, deleted}`,
    /// where `text` is the active version (`""` if there is none).
    pub fn to_json(&self) -> Value {
        json!({
            "role": self.role,
            "text": self.versions.get(self.active).cloned().unwrap_or_default(),
            "versions": self.versions,
            "active": self.active,
            "deleted": self.deleted,
        })
    }
}

/// Where one turn's answer is filed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The user message's index.
    pub user_index: usize,
    /// The answer's index.
    pub assistant_index: usize,
    /// Which version of the answer this turn writes (0-based).
    pub version: usize,
}

/// Every conversation, by id.
#[derive(Debug, Default)]
pub struct Conversations {
    by_id: HashMap<String, Vec<Message>>,
    forks: u64,
}

impl Conversations {
    /// A new turn: files the user message at `2k` and an empty answer at
    /// `2k + 1`.
    pub fn begin(&mut self, cid: &str, user_text: &str) -> Slot {
        let list = self.by_id.entry(cid.to_string()).or_default();
        let user_index = list.len();
        list.push(Message::new("user", user_text));
        list.push(Message::new("assistant", ""));
        Slot {
            user_index,
            assistant_index: user_index + 1,
            version: 0,
        }
    }

    /// A regenerate of message `idx` (the answer, or the user message it
    /// answers): adds an empty version to the answer and makes it the
    /// active one. Returns the slot and the user message's text; `None`
    /// when there is no such live answer.
    pub fn regenerate(&mut self, cid: &str, idx: usize) -> Option<(Slot, String)> {
        let list = self.by_id.get_mut(cid)?;
        let idx = match list.get(idx)?.role {
            "user" => idx + 1,
            _ => idx,
        };
        if idx == 0 || list.get(idx)?.role != "assistant" || list[idx].deleted {
            return None;
        }
        let user_text = list[idx - 1].versions[0].clone();
        let m = &mut list[idx];
        m.versions.push(String::new());
        m.active = m.versions.len() - 1;
        let slot = Slot {
            user_index: idx - 1,
            assistant_index: idx,
            version: m.active,
        };
        Some((slot, user_text))
    }

    /// Writes a finished answer's text into its slot.
    pub fn finish(&mut self, cid: &str, slot: Slot, text: &str) {
        let version = self
            .by_id
            .get_mut(cid)
            .and_then(|l| l.get_mut(slot.assistant_index))
            .and_then(|m| m.versions.get_mut(slot.version));
        if let Some(v) = version {
            *v = text.to_string();
        }
    }

    /// `(versions, active)` of message `idx`.
    pub fn versions(&self, cid: &str, idx: usize) -> Option<(usize, usize)> {
        let m = self.by_id.get(cid)?.get(idx)?;
        Some((m.versions.len(), m.active))
    }

    /// Forks `cid` at `idx`: a new conversation `<cid>-fork-<n>` holding
    /// messages `0..=idx`; its id, or `None` when there is no message `idx`.
    pub fn fork(&mut self, cid: &str, idx: usize) -> Option<String> {
        let kept = self.by_id.get(cid)?.get(..=idx)?.to_vec();
        self.forks += 1;
        let id = format!("{cid}-fork-{}", self.forks);
        self.by_id.insert(id.clone(), kept);
        Some(id)
    }

    /// Shows version `n` (0-based) of message `idx`; `false` when there is
    /// none (or the message is deleted).
    pub fn pick(&mut self, cid: &str, idx: usize, n: usize) -> bool {
        let message = self
            .by_id
            .get_mut(cid)
            .and_then(|l| l.get_mut(idx))
            .filter(|m| !m.deleted && n < m.versions.len());
        message.map(|m| m.active = n).is_some()
    }

    /// Deletes message `idx`; `false` when there is none (or it is deleted).
    pub fn delete(&mut self, cid: &str, idx: usize) -> bool {
        let message = self
            .by_id
            .get_mut(cid)
            .and_then(|l| l.get_mut(idx))
            .filter(|m| !m.deleted);
        message.map(|m| m.deleted = true).is_some()
    }

    /// The messages of `cid`.
    pub fn get(&self, cid: &str) -> Option<&[Message]> {
        self.by_id.get(cid).map(Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_file_pairs_and_regenerate_adds_versions() {
        let mut c = Conversations::default();
        assert_eq!(c.begin("c", "one").assistant_index, 1);
        let s = c.begin("c", "two");
        assert_eq!((s.user_index, s.assistant_index, s.version), (2, 3, 0));
        c.finish("c", s, "answer two");
        assert_eq!(c.begin("other", "x").user_index, 0, "per conversation");
        let (r, user) = c.regenerate("c", 3).unwrap();
        assert_eq!(
            (r.user_index, r.assistant_index, r.version, user.as_str()),
            (2, 3, 1, "two")
        );
        c.finish("c", r, "answer two again");
        assert_eq!(c.versions("c", 3), Some((2, 1)));
        assert_eq!(c.get("c").unwrap().len(), 4, "no duplicate user message");
        assert_eq!(
            c.regenerate("c", 2).unwrap().0.version,
            2,
            "a user index means its answer"
        );
        assert!(c.regenerate("c", 9).is_none() && c.regenerate("nope", 1).is_none());
        assert!(c.pick("c", 3, 0));
        assert_eq!(c.get("c").unwrap()[3].active, 0);
        assert!(!c.pick("c", 3, 3) && !c.pick("c", 7, 0));
    }

    #[test]
    fn to_json_shows_the_active_version() {
        let mut c = Conversations::default();
        let s = c.begin("c", "hi");
        c.finish("c", s, "first");
        let (r, _) = c.regenerate("c", 1).unwrap();
        c.finish("c", r, "second");
        let m = &c.get("c").unwrap()[1];
        assert_eq!(
            m.to_json(),
            json!({"role": "assistant", "text": "second", "versions": ["first", "second"], "active": 1, "deleted": false})
        );
        assert!(c.pick("c", 1, 0) && c.delete("c", 1));
        let m = &c.get("c").unwrap()[1];
        assert_eq!(m.to_json()["text"], "first");
        assert_eq!(m.to_json()["deleted"], true);
        let mut odd = m.clone();
        odd.active = 5;
        assert_eq!(odd.to_json()["text"], "", "no such version");
    }

    #[test]
    fn fork_copies_up_to_the_index_and_delete_marks() {
        let mut c = Conversations::default();
        c.begin("c", "one");
        c.begin("c", "two");
        assert_eq!(c.fork("c", 1).as_deref(), Some("c-fork-1"));
        assert_eq!(c.get("c-fork-1").unwrap().len(), 2);
        assert_eq!(c.fork("c", 4), None);
        assert_eq!(c.fork("nope", 0), None);
        assert!(c.delete("c", 1));
        assert!(!c.delete("c", 1), "already deleted");
        assert!(!c.delete("c", 4));
        assert_eq!(c.get("c").unwrap().len(), 4, "indices stay");
        assert!(c.regenerate("c", 1).is_none(), "a deleted answer");
    }
}
