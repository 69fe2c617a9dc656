//! What the conversation history costs after a long past: a conversation of
//! 100,000 messages (and a few short ones), then the start to the first page
//! (open, the current conversation, the list, the newest page), a page of 50
//! older messages, searches, and one turn's writes (`put_message` ×2 and a
//! flush) on that history and on an empty one; then the same conversation in
//! the JSON store the history replaced. Prints p50/p99 of each.
//! Run with `cargo bench -p yui-core --bench history` (`docs/history.md`
//! has figures); `HISTORY_BENCH_MESSAGES` sets the size. std::time only.

use std::time::{Duration, Instant};
use yui_core::chat::history::{Anchor, ConversationMeta, History};
use yui_core::chat::{Answer, AnswerState, ChatMessage, ChatStore, Role, ToolCard, ToolCardState};
use yui_core::limits::{CHAT_PAGE_MESSAGES, CHAT_TAIL_MESSAGES};

/// The long conversation.
const LONG: &str = "long";

const WORDS: &[&str] = &[
    "the",
    "sea",
    "weather",
    "tomorrow",
    "window",
    "music",
    "project",
    "deadline",
    "coffee",
    "train",
    "station",
    "garden",
    "remember",
    "because",
    "maybe",
    "quiet",
    "evening",
    "morning",
    "library",
    "question",
    "answer",
    "story",
    "river",
    "mountain",
    "recipe",
    "kitchen",
    "email",
    "meeting",
    "calendar",
    "report",
    "東京",
    "天気",
    "明日",
    "ありがとう",
    "今日は",
    "雨",
    "散歩",
    "音楽",
    "please",
    "thanks",
    "could",
    "would",
    "about",
    "again",
    "later",
    "today",
    "and",
    "a",
];

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn sentence(&mut self, words: usize) -> String {
        let mut s = String::new();
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(WORDS[(self.next() % WORDS.len() as u64) as usize]);
        }
        s.push('.');
        s
    }
}

fn user(k: usize, text: String) -> ChatMessage {
    ChatMessage {
        id: format!("u{k}"),
        role: Role::User,
        at_ms: 2 * k as i64,
        text,
        files: Vec::new(),
        answers: Vec::new(),
        active: 0,
        server_index: Some(2 * k as u64),
    }
}

fn assistant(k: usize, text: String, tool: bool) -> ChatMessage {
    let mut a = Answer::new(&format!("r{k}"), 2 * k as i64 + 1);
    a.text = text;
    a.state = AnswerState::Done;
    if tool {
        a.tools.push(ToolCard {
            call_id: format!("c{k}"),
            name: "search".into(),
            args: serde_json::json!({"q": "weather"}),
            state: ToolCardState::Done,
            output: "sunny, 21 °C".into(),
            seconds: Some(0.4),
            approval_id: None,
        });
    }
    ChatMessage {
        id: format!("a{k}"),
        role: Role::Assistant,
        at_ms: 2 * k as i64 + 1,
        text: String::new(),
        files: Vec::new(),
        answers: vec![a],
        active: 0,
        server_index: Some(2 * k as u64 + 1),
    }
}

fn meta(id: &str, at: i64) -> ConversationMeta {
    ConversationMeta { id: id.into(), title: format!("Conversation {id}"), created_ms: at, updated_ms: at, server_id: None }
}

/// p50 and p99 of `samples`, in milliseconds.
fn report(what: &str, mut samples: Vec<Duration>) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3;
    println!("{what:<44} p50 {:>8.3} ms   p99 {:>8.3} ms   ({} runs)", at(0.5), at(0.99), samples.len());
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmRSS:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok()))
        .unwrap_or(0)
}

/// One turn's writes: the user's message, the answer, a flush.
fn turn(h: &History, cid: &str, k: usize, rng: &mut Rng) -> Duration {
    let (u, a) = (user(k, rng.sentence(12)), assistant(k, rng.sentence(60), false));
    let start = Instant::now();
    h.put_message(cid, u);
    h.put_message(cid, a);
    h.flush().expect("the turn's writes");
    start.elapsed()
}

fn main() {
    let messages: usize = std::env::var("HISTORY_BENCH_MESSAGES").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let exchanges = messages / 2;
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("history.db");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);

    // Build the history: a few short conversations, then the long one, current.
    let start = Instant::now();
    let h = History::open(&path).expect("the history");
    for c in 0..5 {
        let id = format!("short{c}");
        h.put_conversation(meta(&id, c));
        for k in 0..100 {
            h.put_message(&id, user(k, rng.sentence(10)));
            h.put_message(&id, assistant(k, rng.sentence(40), false));
        }
    }
    h.put_conversation(meta(LONG, 10));
    for k in 0..exchanges {
        let words = 10 + (rng.next() % 10) as usize;
        let mut question = rng.sentence(words);
        if k % 5_000 == 17 {
            question.push_str(" Tell me about the lighthouse keeper.");
        }
        let words = 30 + (rng.next() % 60) as usize;
        let (u, a) = (user(k, question), assistant(k, rng.sentence(words), k % 10 == 0));
        h.put_message(LONG, u);
        h.put_message(LONG, a);
        if k % 1_000 == 999 {
            // The queue is unbounded: a builder far faster than a chat keeps it short.
            h.flush().expect("the build");
        }
    }
    h.put_conversation(ConversationMeta { updated_ms: 2 * exchanges as i64, ..meta(LONG, 10) });
    h.set_current(LONG);
    h.flush().expect("the build");
    let built = start.elapsed();
    drop(h);
    let bytes: u64 = std::fs::read_dir(dir.path()).expect("the dir").flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum();
    println!("history bench: {messages} messages in one conversation + 5 x 200, built in {:.1} s, {:.1} MB on disk", built.as_secs_f64(), bytes as f64 / 1e6);

    // Start to the first page: open, current, list, the newest page.
    let rss_before = rss_kib();
    let mut starts = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let h = History::open(&path).expect("the history");
        let current = h.current_id().expect("a current conversation");
        let list = h.list(&current);
        let page = h.page(&current, Anchor::Newest, CHAT_PAGE_MESSAGES);
        starts.push(t.elapsed());
        assert_eq!((list.len(), page.messages.len()), (6, CHAT_PAGE_MESSAGES));
    }
    report("start: open + current + list + newest page", starts);
    // The same through the session's store: the import check, the current
    // conversation and its newest messages (what the first `conversation`
    // event and `chat_conversation` carry).
    let mut store_starts = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let store = ChatStore::open_at(dir.path().to_path_buf(), 0);
        let shown = store.current().messages.len();
        store_starts.push(t.elapsed());
        assert_eq!(shown, CHAT_TAIL_MESSAGES);
    }
    report("start: the session's ChatStore::open (newest 100)", store_starts);

    let h = History::open(&path).expect("the history");
    // A page of 50 older messages, anywhere in the long conversation.
    let mut pages = Vec::new();
    for _ in 0..300 {
        let k = (rng.next() % exchanges as u64) as usize;
        let t = Instant::now();
        let page = h.page(LONG, Anchor::Before(format!("u{k}")), CHAT_PAGE_MESSAGES);
        pages.push(t.elapsed());
        assert_eq!(page.messages.len(), (2 * k).min(CHAT_PAGE_MESSAGES));
    }
    report("page of 50 older messages", pages);
    let mut walk = Vec::new();
    let mut page = h.page(LONG, Anchor::Newest, CHAT_PAGE_MESSAGES);
    while walk.len() < 300 && page.more_before {
        let t = Instant::now();
        page = h.page(LONG, Anchor::Before(page.messages[0].id.clone()), CHAT_PAGE_MESSAGES);
        walk.push(t.elapsed());
    }
    report("scrolling back from the newest, page by page", walk);
    let mut opened = Vec::new();
    for _ in 0..100 {
        let k = (rng.next() % exchanges as u64) as usize;
        let t = Instant::now();
        h.page(LONG, Anchor::Around(format!("a{k}")), CHAT_PAGE_MESSAGES);
        opened.push(t.elapsed());
    }
    report("a search hit opened (around, 50)", opened);

    // Searches.
    for (what, q) in [
        ("search: a rare phrase", "lighthouse keeper"),
        ("search: part of a word", "ighthou"),
        ("search: a common word (every message)", "the"),
        ("search: Japanese", "ありがとう"),
        ("search: two characters (the index of pairs)", "東京"),
        ("search: one letter (the index of pairs)", "q"),
        ("search: nothing found", "zqxj"),
        ("search: two letters found nowhere (the index of pairs)", "qz"),
    ] {
        let mut samples = Vec::new();
        let mut hits = 0;
        for _ in 0..20 {
            let t = Instant::now();
            hits = h.search(q).len();
            samples.push(t.elapsed());
        }
        report(&format!("{what} ({hits} hits)"), samples);
    }
    let rss_after = rss_kib();

    // One turn's writes, on the long history and on an empty one.
    let mut long = Vec::new();
    for k in 0..500 {
        long.push(turn(&h, LONG, exchanges + k, &mut rng));
    }
    report(&format!("turn writes on {messages} messages"), long);
    let empty_dir = tempfile::tempdir().expect("a temp dir");
    let empty = History::open(&empty_dir.path().join("history.db")).expect("an empty history");
    let mut fresh = Vec::new();
    for k in 0..500 {
        fresh.push(turn(&empty, "fresh", k, &mut rng));
    }
    report("turn writes on an empty history", fresh);
    println!("RSS growth over all the reads above: {} KiB (SQLite's page cache filling)", rss_after.saturating_sub(rss_before));
    drop((h, empty));
}

// The JSON file store this history replaced is gone; its figures on the same
// 100,000 messages (measured with this bench before it went) are in
// docs/history.md.
