//! A set that forgets its oldest entries past a cap, for ids the engine
//! remembers only until a frame that may never come (a stopped turn's
//! `turn_end`, a backend turn's end).

use std::collections::{HashSet, VecDeque};

/// Insertion-ordered set of ids holding at most `cap` entries; inserting
/// past the cap forgets the oldest.
#[derive(Debug, Clone)]
pub struct RecentSet {
    cap: usize,
    order: VecDeque<String>,
    members: HashSet<String>,
}

impl RecentSet {
    /// An empty set of at most `cap` (at least 1) ids.
    pub fn new(cap: usize) -> Self {
        Self { cap: cap.max(1), order: VecDeque::new(), members: HashSet::new() }
    }

    /// Add `id`; answers the id forgotten to make room, if any.
    pub fn insert(&mut self, id: String) -> Option<String> {
        if self.members.contains(&id) {
            return None;
        }
        let evicted = if self.order.len() >= self.cap {
            let old = self.order.pop_front();
            if let Some(old) = &old {
                self.members.remove(old);
            }
            old
        } else {
            None
        };
        self.members.insert(id.clone());
        self.order.push_back(id);
        evicted
    }

    /// True when `id` is in the set.
    pub fn contains(&self, id: &str) -> bool {
        self.members.contains(id)
    }

    /// Remove `id`; true when it was there.
    pub fn remove(&mut self, id: &str) -> bool {
        if self.members.remove(id) {
            self.order.retain(|x| x != id);
            true
        } else {
            false
        }
    }

    /// How many ids are held.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Take every id out, oldest first.
    pub fn drain(&mut self) -> Vec<String> {
        self.members.clear();
        self.order.drain(..).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forgets_the_oldest_past_the_cap() {
        let mut s = RecentSet::new(2);
        assert_eq!(s.insert("a".into()), None);
        assert_eq!(s.insert("b".into()), None);
        assert_eq!(s.insert("b".into()), None, "a repeat is not a new entry");
        assert_eq!(s.insert("c".into()), Some("a".into()));
        assert!(!s.contains("a") && s.contains("b") && s.contains("c"));
        assert!(s.remove("b") && !s.remove("b"));
        assert_eq!(s.drain(), vec!["c".to_string()]);
        assert!(s.is_empty());
    }
}
