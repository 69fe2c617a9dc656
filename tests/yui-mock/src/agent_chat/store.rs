//! The engine's stored conversations, per `chat_id`, as the PraisonAI
//! desktop engine keeps them: `{id, title, messages: [{role, content,
//! versions?, active?}], updated}`. A regenerated answer keeps every text in
//! `versions` and the shown one in `content` (`active` its 0-based index).

use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Characters of the first prompt a conversation's title keeps.
pub const TITLE_CHARS: usize = 48;

/// One stored message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// `user` or `assistant`.
    pub role: &'static str,
    /// The shown text.
    pub content: String,
    /// Every version of a regenerated answer (empty: never regenerated).
    pub versions: Vec<String>,
    /// The shown version (0-based) when `versions` is not empty.
    pub active: usize,
}

impl Message {
    fn new(role: &'static str, content: &str) -> Message {
        Message { role, content: content.to_string(), versions: Vec::new(), active: 0 }
    }

    /// As stored: `{role, content}`, plus `versions` and `active` once
    /// regenerated.
    pub fn stored(&self) -> Value {
        let mut v = json!({"role": self.role, "content": self.content});
        if !self.versions.is_empty() {
            v["versions"] = json!(self.versions);
            v["active"] = json!(self.active);
        }
        v
    }

    /// As `GET /chats/{id}` shows it: the active version's text as
    /// `content`, with `version_count` and `version_active`.
    pub fn shown(&self) -> Value {
        let mut v = json!({"role": self.role, "content": self.content});
        if !self.versions.is_empty() {
            v["version_count"] = json!(self.versions.len());
            v["version_active"] = json!(self.active.min(self.versions.len() - 1));
        }
        v
    }
}

/// One stored conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Chat {
    /// Its id (the `chat_id`).
    pub id: String,
    /// Its title.
    pub title: String,
    /// Its messages, user and assistant in turn.
    pub messages: Vec<Message>,
}

/// Every stored conversation, by id.
#[derive(Debug, Default)]
pub struct Conversations {
    chats: BTreeMap<String, Chat>,
    forks: u64,
}

impl Conversations {
    /// The conversation `id`.
    pub fn get(&self, id: &str) -> Option<&Chat> {
        self.chats.get(id)
    }

    /// Every conversation's `{id, title}`, for `GET /chats`.
    pub fn list(&self) -> Vec<Value> {
        self.chats.values().map(|c| json!({"id": c.id, "title": c.title})).collect()
    }

    /// Files a finished run: with `regenerate_of = Some(u)` naming a user
    /// message followed by an answer, the reply becomes that answer's newest
    /// version; otherwise a new exchange is appended. Returns the user
    /// message's index.
    pub fn persist(&mut self, chat_id: &str, prompt: &str, reply: &str, regenerate_of: Option<usize>) -> usize {
        let chat = self.chats.entry(chat_id.to_string()).or_insert_with(|| Chat {
            id: chat_id.to_string(),
            title: prompt.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(TITLE_CHARS).collect(),
            messages: Vec::new(),
        });
        if let Some(u) = regenerate_of {
            if let Some(m) = chat.messages.get_mut(u + 1).filter(|m| m.role == "assistant") {
                if m.versions.is_empty() {
                    m.versions.push(m.content.clone());
                }
                m.versions.push(reply.to_string());
                m.active = m.versions.len() - 1;
                m.content = reply.to_string();
                return u;
            }
        }
        chat.messages.push(Message::new("user", prompt));
        chat.messages.push(Message::new("assistant", reply));
        chat.messages.len() - 2
    }

    /// `(versions, active)` of the answer to user message `u`: `(1, 0)`
    /// for an answer never regenerated.
    pub fn version_info(&self, chat_id: &str, u: usize) -> (usize, usize) {
        match self.chats.get(chat_id).and_then(|c| c.messages.get(u + 1)) {
            Some(m) if !m.versions.is_empty() => (m.versions.len(), m.active),
            _ => (1, 0),
        }
    }

    /// Shows version `n` of the answer to user message `u`: `(active,
    /// count, content)`, or `None` (no such chat, no answer, no versions,
    /// `n` out of range).
    pub fn pick(&mut self, chat_id: &str, u: usize, n: usize) -> Option<(usize, usize, String)> {
        let m = self.chats.get_mut(chat_id)?.messages.get_mut(u + 1)?;
        if m.role != "assistant" || n >= m.versions.len() {
            return None;
        }
        m.active = n;
        m.content = m.versions[n].clone();
        Some((n, m.versions.len(), m.content.clone()))
    }

    /// A new conversation with messages `..=idx` of `chat_id`, titled
    /// "`<title>` (fork)", named `<chat_id>-f<n>`; `None` for an unknown chat.
    pub fn fork(&mut self, chat_id: &str, idx: usize) -> Option<String> {
        let src = self.chats.get(chat_id)?.clone();
        self.forks += 1;
        let id = format!("{chat_id}-f{}", self.forks);
        let messages = src.messages.iter().take(idx + 1).cloned().collect();
        self.chats.insert(id.clone(), Chat { id: id.clone(), title: format!("{} (fork)", src.title), messages });
        Some(id)
    }

    /// Deletes the exchange at `i` (messages `i` and `i + 1`): the messages
    /// left, or `Err` with the engine's error text.
    pub fn delete_exchange(&mut self, chat_id: &str, i: usize) -> Result<usize, &'static str> {
        let chat = self.chats.get_mut(chat_id).ok_or("no such conversation")?;
        if i >= chat.messages.len() {
            return Err("no such message");
        }
        let end = (i + 2).min(chat.messages.len());
        chat.messages.drain(i..end);
        Ok(chat.messages.len())
    }

    /// Removes a conversation (a missing one is not an error).
    pub fn remove(&mut self, chat_id: &str) {
        self.chats.remove(chat_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn persist_appends_exchanges_and_regenerate_files_versions() {
        let mut c = Conversations::default();
        assert_eq!(c.persist("c", "one", "a1", None), 0);
        assert_eq!(c.persist("c", "two", "a2", None), 2);
        assert_eq!(c.version_info("c", 2), (1, 0));
        assert_eq!(c.persist("c", "two", "a2 again", Some(2)), 2);
        assert_eq!(c.version_info("c", 2), (2, 1));
        assert_eq!(c.get("c").unwrap().messages.len(), 4);
        assert_eq!(c.persist("c", "x", "y", Some(9)), 4, "out of range: a new exchange");
        assert_eq!(c.pick("c", 2, 0), Some((0, 2, "a2".to_string())));
        assert_eq!(c.pick("c", 2, 2), None);
        assert_eq!(c.pick("c", 0, 0), None, "never regenerated");
        assert_eq!(c.fork("c", 3).as_deref(), Some("c-f1"));
        assert_eq!(c.get("c-f1").unwrap().messages.len(), 4);
        assert_eq!(c.get("c-f1").unwrap().title, "one (fork)");
        assert_eq!(c.delete_exchange("c", 0), Ok(4));
        assert_eq!(c.delete_exchange("c", 9), Err("no such message"));
        assert_eq!(c.delete_exchange("nope", 0), Err("no such conversation"));
        c.remove("c");
        assert!(c.get("c").is_none());
    }
}
