//! What the chat window's record costs on the session's loop: folding one
//! streamed delta into a long conversation (map + fold + the UI event), a
//! turn's end (handing the history what changed: the writes themselves run
//! on its writer thread), and opening the store at startup. Run with
//! `cargo bench -p yui-core --bench chat`; std::time only. The history's own
//! figures (100,000 messages) are `--bench history`.

use std::hint::black_box;
use std::time::Instant;
use yui_core::chat::ChatStore;
use yui_core::session::chat_log::ChatLog;
use yui_core::transport::agent_chat::ChatEvent;
use yui_core::UiEvent;

/// Earlier exchanges in the conversation the deltas land in.
const TURNS: usize = 400;
/// Deltas in the timed reply.
const DELTAS: usize = 4_000;

fn wire(json: serde_json::Value) -> ChatEvent {
    serde_json::from_value(json).expect("a wire event")
}

fn started(turn: &str, text: &str) -> UiEvent {
    serde_json::from_value(serde_json::json!({"type": "turn_started", "turn_id": turn, "text": text})).expect("turn_started")
}

/// One whole exchange: the user's line and an answer of `words` words.
fn exchange(log: &mut ChatLog, turn: &str, words: usize, now: i64) {
    log.ui(&started(turn, "tell me something about the sea, with some detail please"), now);
    log.wire(turn, &wire(serde_json::json!({"type": "start", "msg_id": turn, "run_id": turn})), now);
    for i in 0..words {
        log.wire(turn, &wire(serde_json::json!({"type": "delta", "msg_id": turn, "text": format!("word{i} ")})), now);
    }
    let end = serde_json::json!({"type": "end", "msg_id": turn, "user_index": 0, "assistant_index": 0, "versions": 1, "active": 0});
    log.wire(turn, &wire(end), now);
}

fn main() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut log = ChatLog::new(ChatStore::open_at(dir.path().to_path_buf(), 0), Some(32_768));
    for t in 0..TURNS {
        exchange(&mut log, &format!("t{t}"), 120, t as i64);
    }
    log.store().flush();
    let bytes: u64 = std::fs::read_dir(dir.path()).expect("the dir").flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum();

    // One more reply, delta by delta, on the long conversation.
    let turn = "live";
    log.ui(&started(turn, "and the sky?"), 1);
    log.wire(turn, &wire(serde_json::json!({"type": "start", "msg_id": turn, "run_id": turn})), 1);
    let deltas: Vec<ChatEvent> = (0..DELTAS).map(|i| wire(serde_json::json!({"type": "delta", "msg_id": turn, "text": format!("w{i} ")}))).collect();
    let start = Instant::now();
    for d in &deltas {
        black_box(log.wire(turn, black_box(d), 2));
    }
    let per_delta = start.elapsed().as_secs_f64() * 1e6 / DELTAS as f64;

    // A turn's end: the end event folded, the new and changed messages
    // handed to the writer (its writes run on its own thread).
    let rounds = 50u32;
    let mut spent = std::time::Duration::ZERO;
    for i in 0..rounds {
        let t = format!("end{i}");
        log.ui(&started(&t, "one more"), 4);
        log.wire(&t, &wire(serde_json::json!({"type": "start", "msg_id": t, "run_id": t})), 4);
        for w in 0..120 {
            log.wire(&t, &wire(serde_json::json!({"type": "delta", "msg_id": t, "text": format!("word{w} ")})), 4);
        }
        let end = wire(serde_json::json!({"type": "end", "msg_id": t, "user_index": null, "assistant_index": null, "versions": 1, "active": 0}));
        let start = Instant::now();
        black_box(log.wire(&t, &end, 5));
        spent += start.elapsed();
    }
    let per_save = spent.as_secs_f64() * 1e3 / f64::from(rounds);
    log.store().flush();

    // Startup opens the store: the current conversation's newest messages.
    let start = Instant::now();
    for _ in 0..10 {
        black_box(ChatStore::open_at(dir.path().to_path_buf(), 0));
    }
    let per_open = start.elapsed().as_secs_f64() * 1e3 / 10.0;

    println!("conversation: {} messages, {:.0} kB of history database", TURNS * 2 + 2, bytes as f64 / 1e3);
    println!("one streamed delta (map + fold + UI event): {per_delta:.2} µs ({DELTAS} deltas)");
    println!("turn end on the loop (end event + changes handed to the writer): {per_save:.3} ms ({rounds} rounds)");
    println!("startup, the store opened (newest messages of the current conversation): {per_open:.2} ms");
}
