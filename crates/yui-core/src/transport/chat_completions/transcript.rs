//! The conversation transcript the client keeps for Chat Completions, one
//! per character, persisted as JSON lines at `RequestConfig::transcript_path`.
//!
//! Lines are appended (one write per committed turn). A boundary line,
//! written on reset, hides everything before it; a damaged line is skipped
//! with a log line. The replay is trimmed to the context window with a
//! stable cursor so consecutive requests share a byte-identical prefix.

use crate::context::{guide_text, GuideKey, GuideLanguage, GUIDE_INSTRUCTION};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One call an assistant entry made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallRecord {
    /// The call id.
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The arguments JSON text, as the server sent it.
    pub arguments: String,
}

/// One line of the transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Entry {
    /// What the user message carried (the utterance or background marker).
    User {
        /// The input as sent.
        input: String,
        /// The guide the turn carried.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guide: Option<GuideKey>,
        /// The language of that guide (English when left out).
        #[serde(default, skip_serializing_if = "GuideLanguage::is_en")]
        language: GuideLanguage,
    },
    /// An assistant message.
    Assistant {
        /// Its text.
        content: String,
        /// The calls it made.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<CallRecord>,
    },
    /// The answer to one call.
    Tool {
        /// The call answered.
        tool_call_id: String,
        /// The answer.
        content: String,
    },
    /// A reset: nothing before it is replayed.
    Boundary,
}

/// The Chat Completions message of a system text.
pub fn system(content: &str) -> Value {
    json!({ "role": "system", "content": content })
}

/// The estimated token cost of a message text: `ceil(chars / 4) + 4`.
pub fn estimate(text: &str) -> usize {
    text.chars().count().div_ceil(4) + 4
}

/// The replayed guide of a user entry: `client_context:\n` and the `guide:`
/// block the renderer writes. None for an unknown key.
pub fn guide_message(key: GuideKey, language: GuideLanguage) -> Option<String> {
    let text = guide_text(key, language)?;
    Some(format!("client_context:\nguide:\n{GUIDE_INSTRUCTION}\n\n{}", text.trim_end()))
}

impl Entry {
    /// The messages this entry replays as (a user entry with a guide key
    /// replays the current guide right before it).
    pub fn messages(&self) -> Vec<Value> {
        match self {
            Entry::User { input, guide, language } => {
                let mut out = Vec::new();
                if let Some(g) = guide.and_then(|key| guide_message(key, *language)) {
                    out.push(system(&g));
                }
                out.push(json!({ "role": "user", "content": input }));
                out
            }
            Entry::Assistant { content, tool_calls } => vec![assistant_message(content, tool_calls)],
            Entry::Tool { tool_call_id, content } => {
                vec![json!({ "role": "tool", "tool_call_id": tool_call_id, "content": content })]
            }
            Entry::Boundary => Vec::new(),
        }
    }

    /// The estimated token cost of this entry's messages.
    pub fn cost(&self) -> usize {
        match self {
            Entry::User { input, guide, language } => estimate(input) + guide.and_then(|key| guide_message(key, *language)).map_or(0, |g| estimate(&g)),
            Entry::Assistant { content, tool_calls } => {
                let calls: String = tool_calls.iter().map(|c| format!("{}{}{}", c.id, c.name, c.arguments)).collect();
                estimate(&format!("{content}{calls}"))
            }
            Entry::Tool { content, .. } => estimate(content),
            Entry::Boundary => 0,
        }
    }
}

/// An assistant message in the Chat Completions shape; `content` is null
/// when it is empty and there are calls.
pub fn assistant_message(content: &str, calls: &[CallRecord]) -> Value {
    if calls.is_empty() {
        return json!({ "role": "assistant", "content": content });
    }
    let calls: Vec<Value> = calls.iter().map(|c| json!({ "id": c.id, "type": "function", "function": { "name": c.name, "arguments": c.arguments } })).collect();
    let content = if content.is_empty() { Value::Null } else { json!(content) };
    json!({ "role": "assistant", "content": content, "tool_calls": calls })
}

/// Make the file at `path` end on a line boundary before appending, so
/// the appended lines never join a torn last line (a write a kill cut
/// short). A last line without its newline that still reads as an entry
/// is kept and closed; one that does not is cut off, with a log line. A
/// missing or empty file needs nothing.
fn repair_tail(path: &Path) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = match std::fs::OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    let len = f.metadata()?.len();
    if len == 0 {
        return Ok(());
    }
    let mut last = [0u8; 1];
    f.seek(SeekFrom::Start(len - 1))?;
    f.read_exact(&mut last)?;
    if last[0] == b'\n' {
        return Ok(());
    }
    // Find where the torn line starts: after the last newline before it.
    let mut start = len;
    let mut buf = vec![0u8; 64 * 1024];
    while start > 0 {
        let from = start.saturating_sub(buf.len() as u64);
        let n = (start - from) as usize;
        f.seek(SeekFrom::Start(from))?;
        f.read_exact(&mut buf[..n])?;
        match buf[..n].iter().rposition(|&b| b == b'\n') {
            Some(i) => {
                start = from + i as u64 + 1;
                break;
            }
            None => start = from,
        }
    }
    f.seek(SeekFrom::Start(start))?;
    let mut fragment = Vec::new();
    f.read_to_end(&mut fragment)?;
    let whole = std::str::from_utf8(&fragment).ok().is_some_and(|t| serde_json::from_str::<Entry>(t).is_ok());
    if whole {
        tracing::info!(record = "transcript_tail_closed", bytes = fragment.len(), "the last line had no newline; closed before appending");
        f.seek(SeekFrom::End(0))?;
        f.write_all(b"\n")?;
    } else {
        tracing::warn!(record = "transcript_torn_tail", bytes = fragment.len(), "a torn last line was cut off before appending");
        f.set_len(start)?;
    }
    f.flush()
}

/// The transcript of one character: the entries since the last boundary
/// and the trim cursor.
#[derive(Debug)]
pub struct Transcript {
    path: PathBuf,
    entries: Vec<Entry>,
    cursor: usize,
    /// Appends run here, in order, off the transport task.
    writer: crate::persist::Writer,
    /// Set when an append failed (it may have left a torn line): the next
    /// append repairs the tail first. The tail is repaired once at load.
    torn: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Transcript {
    /// Load the transcript at `path` (missing file: empty). Damaged lines
    /// are skipped and logged; only entries after the last boundary are kept.
    pub fn load(path: &Path) -> Self {
        let writer = crate::persist::Writer::global();
        // What an earlier session appended is on disk before it is read.
        writer.flush();
        // Once per open, not per append: a torn last line (a kill mid-write)
        // is closed or cut before anything joins it.
        let torn = repair_tail(path).map_err(|e| tracing::warn!(record = "transcript_write_failed", error = %e)).is_err();
        let mut entries = Vec::new();
        match std::fs::read_to_string(path) {
            Ok(text) => {
                for (n, line) in text.lines().enumerate() {
                    if line.trim().is_empty() {
                        continue;
                    }
                    match serde_json::from_str::<Entry>(line) {
                        Ok(Entry::Boundary) => entries.clear(),
                        Ok(e) => entries.push(e),
                        Err(e) => tracing::warn!(record = "transcript_line_skipped", line = n + 1, error = %e),
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => tracing::warn!(record = "transcript_unreadable", error = %e),
        }
        Transcript { path: path.to_path_buf(), entries, cursor: 0, writer, torn: std::sync::Arc::new(torn.into()) }
    }

    /// The entries since the last boundary.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The first entry replayed.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Append entries and persist them (an I/O failure is logged; the
    /// entries stay in memory).
    pub fn commit(&mut self, new: Vec<Entry>) {
        if new.is_empty() {
            return;
        }
        self.append_lines(&new);
        for e in new {
            if e == Entry::Boundary {
                self.entries.clear();
                self.cursor = 0;
            } else {
                self.entries.push(e);
            }
        }
    }

    /// Write a boundary: nothing before it is replayed.
    pub fn reset(&mut self) {
        self.commit(vec![Entry::Boundary]);
    }

    fn append_lines(&self, new: &[Entry]) {
        let mut text = String::new();
        for e in new {
            if let Ok(line) = serde_json::to_string(e) {
                text.push_str(&line);
                text.push('\n');
            }
        }
        let (path, torn) = (self.path.clone(), self.torn.clone());
        self.writer.submit(move || {
            use std::sync::atomic::Ordering;
            let write = || -> std::io::Result<()> {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir)?;
                }
                if torn.load(Ordering::Relaxed) {
                    repair_tail(&path)?;
                    torn.store(false, Ordering::Relaxed);
                }
                let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&path)?;
                f.write_all(text.as_bytes())?;
                f.flush()
            };
            if let Err(e) = write() {
                torn.store(true, Ordering::Relaxed);
                tracing::warn!(record = "transcript_write_failed", error = %e);
            }
        });
    }

    /// Wait until every append sent so far has landed (blocks).
    pub fn flush(&self) {
        self.writer.flush();
    }

    /// Move the cursor when the replay from it would overflow `budget`
    /// tokens: far enough that the rest fits in 3/4 of the budget, never onto
    /// a `tool` entry (which keeps an assistant's calls with their answers).
    /// Then answer the replayed messages.
    pub fn replay(&mut self, budget: usize) -> Vec<Value> {
        self.cursor = self.cursor.min(self.entries.len());
        let live = &self.entries[self.cursor..];
        // The cost from each entry to the end, summed once walking backward
        // (`from[k]` is the cost of `live[k..]`): each entry's cost is
        // computed once, not once per candidate.
        let mut from = vec![0usize; live.len() + 1];
        for (k, e) in live.iter().enumerate().rev() {
            from[k] = from[k + 1] + e.cost();
        }
        if from[0] > budget {
            let target = budget * 3 / 4;
            let at = (0..live.len()).find(|&k| !matches!(live[k], Entry::Tool { .. }) && from[k] <= target).unwrap_or(live.len());
            self.cursor += at;
        }
        self.entries[self.cursor..].iter().flat_map(Entry::messages).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(s: &str) -> Entry {
        Entry::User { input: s.into(), guide: None, language: GuideLanguage::En }
    }
    fn said(s: &str) -> Entry {
        Entry::Assistant { content: s.into(), tool_calls: vec![] }
    }

    #[test]
    fn persisted_lines_reload_after_the_last_boundary_skipping_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c").join("t.jsonl");
        let mut t = Transcript::load(&path);
        t.commit(vec![user("old"), said("old reply")]);
        t.reset();
        t.commit(vec![
            user("hi"),
            Entry::Assistant { content: String::new(), tool_calls: vec![CallRecord { id: "c1".into(), name: "look".into(), arguments: "{}".into() }] },
            Entry::Tool { tool_call_id: "c1".into(), content: "ok".into() },
        ]);
        t.flush();
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(b"{broken\n").unwrap();
        t.commit(vec![said("bye")]);
        let again = Transcript::load(&path);
        assert_eq!(again.entries(), t.entries());
        assert_eq!(again.entries().len(), 4);
        assert_eq!(again.entries()[0], user("hi"));
    }

    #[test]
    fn an_append_after_a_torn_last_line_starts_on_a_line_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("transcripts").join("yui.jsonl");
        let mut t = Transcript::load(&path);
        t.commit(vec![user("one"), said("first reply")]);
        // A kill cut the next turn's write short: a torn line with no newline.
        let full = serde_json::to_string(&user("two")).unwrap();
        t.flush();
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(&full.as_bytes()[..full.len() / 2]).unwrap();
        let mut t = Transcript::load(&path);
        assert_eq!(t.entries(), &[user("one"), said("first reply")], "the fragment is skipped on load");
        t.commit(vec![user("three"), said("third reply")]);
        t.flush();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with('\n'));
        for line in text.lines() {
            serde_json::from_str::<Entry>(line).unwrap_or_else(|e| panic!("every line reads: {line:?}: {e}"));
        }
        assert_eq!(Transcript::load(&path).entries(), &[user("one"), said("first reply"), user("three"), said("third reply")]);

        // A last line cut just before its newline is whole: it is kept.
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(full.as_bytes()).unwrap();
        let mut t = Transcript::load(&path);
        t.commit(vec![said("after")]);
        let again = Transcript::load(&path);
        assert_eq!(again.entries().len(), 6);
        assert_eq!(again.entries()[4], user("two"));
        assert_eq!(again.entries()[5], said("after"));
    }

    #[test]
    fn the_cursor_moves_only_on_overflow_and_never_onto_a_tool_entry() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Transcript::load(&dir.path().join("t.jsonl"));
        let calls = vec![CallRecord { id: "c".into(), name: "look".into(), arguments: "{}".into() }];
        // each cost: "x"*36 → 9 + 4 = 13
        let x = "x".repeat(36);
        t.commit(vec![
            user(&x),
            Entry::Assistant { content: x.clone(), tool_calls: calls },
            Entry::Tool { tool_call_id: "c".into(), content: x.clone() },
            said(&x),
        ]);
        assert_eq!(t.replay(1000).len(), 4);
        assert_eq!(t.cursor(), 0);
        // budget 30: total from 0 is > 30; 3/4 = 22 → only the last entry fits (13), index 2 is a tool entry
        let msgs = t.replay(30);
        assert_eq!(t.cursor(), 3);
        assert_eq!(msgs.len(), 1);
        t.commit(vec![user(&x)]);
        // 26 <= 30: holds
        t.replay(30);
        assert_eq!(t.cursor(), 3);
    }

    #[test]
    fn a_guide_entry_replays_the_guide_and_pays_for_it() {
        let e = Entry::User { input: "help".into(), guide: Some(GuideKey::Controls), language: GuideLanguage::En };
        let m = e.messages();
        assert_eq!(m.len(), 2);
        assert!(m[0]["content"].as_str().unwrap().starts_with(&format!("client_context:\nguide:\n{GUIDE_INSTRUCTION}\n\n")));
        assert!(e.cost() > estimate("help") + 100);
        assert_eq!(serde_json::to_string(&e).unwrap(), r#"{"role":"user","input":"help","guide":"controls"}"#);
    }

    /// The replay rule written the slow way: the cost from each candidate
    /// recomputed.
    fn naive_cursor(entries: &[Entry], cursor: usize, budget: usize) -> usize {
        let cursor = cursor.min(entries.len());
        let cost_from = |i: usize| -> usize { entries[i..].iter().map(Entry::cost).sum() };
        if cost_from(cursor) <= budget {
            return cursor;
        }
        (cursor..entries.len()).find(|&i| !matches!(entries[i], Entry::Tool { .. }) && cost_from(i) <= budget * 3 / 4).unwrap_or(entries.len())
    }

    fn mixed(n: usize) -> Vec<Entry> {
        let calls = vec![CallRecord { id: "c".into(), name: "look".into(), arguments: "{}".into() }];
        (0..n)
            .map(|i| {
                let x = "x".repeat((i * 37) % 200);
                match i % 5 {
                    0 => user(&x),
                    1 => Entry::Assistant { content: x, tool_calls: calls.clone() },
                    2 | 3 => Entry::Tool { tool_call_id: "c".into(), content: x },
                    _ => said(&x),
                }
            })
            .collect()
    }

    #[test]
    fn the_cursor_matches_the_rule_written_the_slow_way() {
        let dir = tempfile::tempdir().unwrap();
        for n in [0, 1, 2, 5, 13, 40] {
            for start in [0, 1, 3, 7, 50] {
                for budget in [0, 10, 40, 100, 300, 1000, 100_000] {
                    let mut t = Transcript::load(&dir.path().join("none.jsonl"));
                    t.entries = mixed(n);
                    t.cursor = start;
                    let want = naive_cursor(&t.entries, start, budget);
                    let msgs = t.replay(budget);
                    assert_eq!(t.cursor(), want, "n {n} start {start} budget {budget}");
                    assert_eq!(msgs, t.entries[want..].iter().flat_map(Entry::messages).collect::<Vec<_>>());
                }
            }
        }
    }

    #[test]
    fn a_long_transcript_trims_in_one_pass() {
        let dir = tempfile::tempdir().unwrap();
        let mut t = Transcript::load(&dir.path().join("none.jsonl"));
        // 20,000 entries of 13 tokens each; the rest must fit 750 → the last 57.
        let x = "x".repeat(36);
        t.entries = (0..20_000).map(|i| if i % 2 == 0 { user(&x) } else { said(&x) }).collect();
        let msgs = t.replay(1000);
        assert_eq!(t.cursor(), 20_000 - 57);
        assert_eq!(msgs.len(), 57);
        // The next request holds the cursor.
        t.replay(1000);
        assert_eq!(t.cursor(), 20_000 - 57);
    }
}
