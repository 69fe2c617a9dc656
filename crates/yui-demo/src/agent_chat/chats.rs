//! The conversations the demo's `agent_chat` engine stores, per `chat_id`,
//! the way the PraisonAI desktop engine stores them (see
//! `docs/transports.md`): `{id, title, messages, updated}`, each message
//! `{role, content}` and, for an answer regenerated at least once,
//! `versions` (every text) and `active` (the shown one, 0-based).
//!
//! An exchange is stored only when its run succeeded: the user message at
//! `u`, the answer at `u + 1`. Deleting an exchange removes both messages
//! (later indices shift down); deleting a conversation removes it whole.

use std::collections::HashMap;

use serde_json::{json, Value};

/// How many characters of the first prompt (its `<client_context>` block
/// skipped) become the title.
pub const TITLE_CHARS: usize = 48;

/// One stored message.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    /// `"user"` or `"assistant"`.
    pub role: &'static str,
    /// The text shown (for a versioned answer, the active version).
    pub content: String,
    /// Every version of an answer once it was regenerated (empty before).
    pub versions: Vec<String>,
    /// The shown version, 0-based.
    pub active: usize,
}

impl Stored {
    fn new(role: &'static str, content: &str) -> Stored {
        Stored { role, content: content.to_string(), versions: Vec::new(), active: 0 }
    }

    /// `(count, active)`: 1 and 0 for an answer never regenerated.
    pub fn version_info(&self) -> (usize, usize) {
        if self.versions.is_empty() {
            (1, 0)
        } else {
            (self.versions.len(), self.active)
        }
    }
}

/// One stored conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Chat {
    /// Its id (the request's `chat_id`).
    pub id: String,
    /// The first prompt's first [`TITLE_CHARS`] characters.
    pub title: String,
    /// Oldest first.
    pub messages: Vec<Stored>,
    /// A change counter (the engine's `updated` is a Unix time).
    pub updated: u64,
}

impl Chat {
    /// As `GET /chats/{id}` answers it: a versioned answer's `content` is
    /// the active version, with `version_count` and `version_active` instead
    /// of its `versions`.
    pub fn to_json(&self) -> Value {
        let messages: Vec<Value> = self
            .messages
            .iter()
            .map(|m| {
                let mut v = json!({ "role": m.role, "content": m.content });
                if m.role == "assistant" && !m.versions.is_empty() {
                    let (count, active) = m.version_info();
                    v["content"] = json!(m.versions[active.min(count - 1)]);
                    v["version_count"] = json!(count);
                    v["version_active"] = json!(active.min(count - 1));
                }
                v
            })
            .collect();
        json!({ "id": self.id, "title": self.title, "messages": messages, "updated": self.updated })
    }
}

/// Why an edit of a stored conversation was refused (the 404's `error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// No conversation has that id.
    NoConversation,
    /// No message at that index.
    NoMessage,
    /// No such version of an answer there.
    NoVersion,
}

impl Refused {
    /// The engine's wording.
    pub fn message(self) -> &'static str {
        match self {
            Refused::NoConversation => "no such conversation",
            Refused::NoMessage => "no such message",
            Refused::NoVersion => "no such version",
        }
    }
}

/// Every stored conversation, by id.
#[derive(Debug, Default)]
pub struct Chats {
    by_id: HashMap<String, Chat>,
    /// Bumped by every change; the next `updated` and fork number.
    clock: u64,
}

impl Chats {
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Stores a successful run's exchange in `cid` (created when new) and
    /// returns the user message's index. With `regenerate_of: Some(u)` and an
    /// answer at `u + 1`, `reply` becomes that answer's newest, active
    /// version instead; any other `u` appends a new exchange.
    pub fn persist(&mut self, cid: &str, prompt: &str, reply: &str, regenerate_of: Option<u64>) -> usize {
        let now = self.tick();
        let chat = self.by_id.entry(cid.to_string()).or_insert_with(|| Chat { id: cid.to_string(), title: String::new(), messages: Vec::new(), updated: now });
        chat.updated = now;
        if chat.title.is_empty() {
            let typed = crate::reply::strip_context(prompt);
            chat.title = typed.chars().take(TITLE_CHARS).collect();
        }
        let target = regenerate_of.and_then(|u| usize::try_from(u).ok()).filter(|&u| chat.messages.get(u + 1).is_some_and(|m| m.role == "assistant"));
        if let Some(u) = target {
            let answer = &mut chat.messages[u + 1];
            if answer.versions.is_empty() {
                answer.versions.push(answer.content.clone());
            }
            answer.versions.push(reply.to_string());
            answer.active = answer.versions.len() - 1;
            answer.content = reply.to_string();
            return u;
        }
        let u = chat.messages.len();
        chat.messages.push(Stored::new("user", prompt));
        chat.messages.push(Stored::new("assistant", reply));
        u
    }

    /// `(versions, active)` of the answer to user message `u` of `cid`
    /// (`(1, 0)` when there is none).
    pub fn version_info(&self, cid: &str, u: usize) -> (usize, usize) {
        self.by_id.get(cid).and_then(|c| c.messages.get(u + 1)).map_or((1, 0), Stored::version_info)
    }

    /// The user message at `u` of `cid`, if there is one.
    pub fn user_text(&self, cid: &str, u: usize) -> Option<&str> {
        let m = self.by_id.get(cid)?.messages.get(u)?;
        (m.role == "user").then_some(m.content.as_str())
    }

    /// Shows version `n` of the answer to user message `u`: `(active,
    /// count, content)`.
    pub fn pick_version(&mut self, cid: &str, u: usize, n: usize) -> Result<(usize, usize, String), Refused> {
        let now = self.tick();
        let chat = self.by_id.get_mut(cid).ok_or(Refused::NoVersion)?;
        let m = chat.messages.get_mut(u + 1).ok_or(Refused::NoVersion)?;
        if m.role != "assistant" || n >= m.versions.len() {
            return Err(Refused::NoVersion);
        }
        m.active = n;
        m.content = m.versions[n].clone();
        let out = (n, m.versions.len(), m.content.clone());
        chat.updated = now;
        Ok(out)
    }

    /// A new conversation `<cid>-f<n>` holding `cid`'s messages `..=idx`
    /// (all of them when `idx` is past the end), titled `<title> (fork)`;
    /// its id.
    pub fn fork(&mut self, cid: &str, idx: usize) -> Result<String, Refused> {
        let src = self.by_id.get(cid).ok_or(Refused::NoConversation)?;
        let keep = idx.saturating_add(1).min(src.messages.len());
        let title = if src.title.is_empty() { "New chat" } else { &src.title };
        let mut fork = Chat { id: String::new(), title: format!("{title} (fork)"), messages: src.messages[..keep].to_vec(), updated: 0 };
        let n = self.tick();
        fork.id = format!("{cid}-f{n}");
        fork.updated = n;
        let id = fork.id.clone();
        self.by_id.insert(id.clone(), fork);
        Ok(id)
    }

    /// Deletes the exchange at user index `u` (messages `u` and `u + 1`);
    /// how many messages remain.
    pub fn delete_exchange(&mut self, cid: &str, u: usize) -> Result<usize, Refused> {
        let now = self.tick();
        let chat = self.by_id.get_mut(cid).ok_or(Refused::NoConversation)?;
        if u >= chat.messages.len() {
            return Err(Refused::NoMessage);
        }
        let end = (u + 2).min(chat.messages.len());
        chat.messages.drain(u..end);
        chat.updated = now;
        Ok(chat.messages.len())
    }

    /// Removes conversation `cid` (nothing happens when there is none).
    pub fn delete_chat(&mut self, cid: &str) -> bool {
        self.by_id.remove(cid).is_some()
    }

    /// Conversation `cid`.
    pub fn get(&self, cid: &str) -> Option<&Chat> {
        self.by_id.get(cid)
    }

    /// `{id, title, updated}` of every conversation, newest change first.
    pub fn list(&self) -> Vec<Value> {
        let mut all: Vec<&Chat> = self.by_id.values().collect();
        all.sort_by_key(|c| std::cmp::Reverse(c.updated));
        all.iter().map(|c| json!({ "id": c.id, "title": c.title, "updated": c.updated })).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exchanges_file_in_pairs_and_regenerate_adds_versions() {
        let mut c = Chats::default();
        assert_eq!(c.persist("c", "hello there", "one", None), 0);
        assert_eq!(c.persist("c", "two", "answer two", None), 2);
        assert_eq!(c.persist("other", "x", "y", None), 0, "per conversation");
        assert_eq!(c.version_info("c", 2), (1, 0));
        assert_eq!(c.persist("c", "two", "answer two again", Some(2)), 2);
        assert_eq!(c.version_info("c", 2), (2, 1));
        assert_eq!(c.get("c").unwrap().messages.len(), 4, "no new user message");
        assert_eq!(c.get("c").unwrap().title, "hello there");
        // An index with no answer after it appends a new exchange.
        assert_eq!(c.persist("c", "odd", "r", Some(1)), 4);
        assert_eq!(c.persist("c", "far", "r", Some(40)), 6);
        assert_eq!(c.pick_version("c", 2, 0), Ok((0, 2, "answer two".to_string())));
        let shown = c.get("c").unwrap().to_json();
        assert_eq!(shown["messages"][3], json!({"role": "assistant", "content": "answer two", "version_count": 2, "version_active": 0}));
        assert_eq!(shown["messages"][1], json!({"role": "assistant", "content": "one"}));
        assert_eq!(c.pick_version("c", 2, 2), Err(Refused::NoVersion));
        assert_eq!(c.pick_version("c", 0, 0), Err(Refused::NoVersion), "never regenerated");
        assert_eq!(c.pick_version("nope", 0, 0), Err(Refused::NoVersion));
    }

    #[test]
    fn fork_copies_up_to_the_index_and_deletes_remove() {
        let mut c = Chats::default();
        c.persist("c", "one", "a", None);
        c.persist("c", "two", "b", None);
        let f = c.fork("c", 1).unwrap();
        assert!(f.starts_with("c-f"), "{f}");
        let fork = c.get(&f).unwrap();
        assert_eq!((fork.messages.len(), fork.title.as_str()), (2, "one (fork)"));
        let all = c.fork("c", 99).unwrap();
        assert_eq!(c.get(&all).unwrap().messages.len(), 4);
        assert_eq!(c.fork("nope", 0), Err(Refused::NoConversation));
        assert_eq!(c.delete_exchange("c", 0), Ok(2));
        assert_eq!(c.get("c").unwrap().messages[0].content, "two", "indices shift");
        assert_eq!(c.delete_exchange("c", 2), Err(Refused::NoMessage));
        assert_eq!(c.delete_exchange("nope", 0), Err(Refused::NoConversation));
        assert!(c.delete_chat("c") && !c.delete_chat("c"));
        assert!(c.get("c").is_none() && c.get(&f).is_some());
        assert_eq!(c.list().len(), 2);
    }
}
