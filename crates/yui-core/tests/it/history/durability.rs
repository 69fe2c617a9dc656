//! Failures reported by flush, and a kill -9 loop over a history being written.

use super::*;

#[test]
fn a_failed_write_is_reported_by_the_next_flush_and_the_rest_carries_on() {
    let dir = tempfile::tempdir().unwrap();
    let h = with_exchanges(dir.path(), "c", 2);
    h.fork("c", "a1", meta("f", "fork", 5));
    h.flush().unwrap();
    // Forking into a conversation that already holds the same messages fails alone.
    h.fork("c", "a1", meta("f", "fork", 6));
    h.put_message("c", user("u9", "after the failure", 99, None));
    let err = h.flush().unwrap_err();
    match &err {
        HistoryError::WriteFailed { failures, path } => {
            assert_eq!(failures.len(), 1, "{failures:?}");
            assert!(failures[0].starts_with("fork: ") && failures[0].contains("UNIQUE"), "{failures:?}");
            assert!(path.ends_with("history.db"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(all(&h, "c").last().unwrap().id, "u9", "the write after it was carried out");
    assert_eq!(all(&h, "f").len(), 4, "the failed fork left nothing half-done");
    assert_eq!(h.conversation("f").unwrap().created_ms, 5, "rolled back whole");
    h.flush().unwrap();
}

/// The child of the kill loop: appends exchanges to the history named by
/// the environment and prints each id once `flush` returned.
const KILL_DB: &str = "YUI_HISTORY_KILL_DB";
const KILL_RUN: &str = "YUI_HISTORY_KILL_RUN";

#[test]
#[ignore = "the child of a_killed_writer_loses_no_flushed_message"]
fn kill_child() {
    let (Some(db), Some(run)) = (std::env::var_os(KILL_DB), std::env::var(KILL_RUN).ok()) else { return };
    let h = History::open(Path::new(&db)).unwrap();
    let cid = format!("run{run}");
    h.put_conversation(meta(&cid, "killed", 0));
    h.set_current(&cid);
    let started = std::time::Instant::now();
    let mut k = 0;
    // Bounded: the parent kills it long before.
    while k < 100_000 && started.elapsed() < std::time::Duration::from_secs(20) {
        let mut a = assistant(&format!("a{run}-{k}"), "", k, None);
        h.put_message(&cid, user(&format!("u{run}-{k}"), &format!("message {k} of run {run} 東京"), k, None));
        for word in ["The", " answer", " grows", " word", " by", " word."] {
            a.answers[0].text.push_str(word);
            h.put_message(&cid, a.clone());
        }
        h.flush().unwrap();
        println!("acked {run} {k}");
        k += 1;
    }
}

#[test]
fn a_killed_writer_loses_no_flushed_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.db");
    let exe = std::env::current_exe().unwrap();
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1;
    let mut acked: Vec<(u32, u64)> = Vec::new();
    let runs = 24;
    for run in 0..runs {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let wait_for = 1 + seed % 40;
        let mut child = std::process::Command::new(&exe)
            .args(["history::durability::kill_child", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
            .env(KILL_DB, &db)
            .env(KILL_RUN, run.to_string())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut seen = 0;
        let mut line = String::new();
        while seen < wait_for {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                break;
            }
            if let Some(ack) = ack(&line) {
                acked.push(ack);
                seen += 1;
            }
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Lines printed before the kill landed are acknowledged too.
        loop {
            line.clear();
            if out.read_line(&mut line).unwrap() == 0 {
                break;
            }
            acked.extend(ack(&line));
        }
        assert!(seen > 0, "run {run}: the child acknowledged nothing");
        integrity(&db);
        let conn = raw(&db);
        let mut stmt = conn.prepare("SELECT m.id, a.text FROM messages m LEFT JOIN answers a ON a.message_seq = m.seq").unwrap();
        let stored: HashSet<(String, Option<String>)> = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
        for (r, k) in &acked {
            assert!(stored.contains(&(format!("u{r}-{k}"), None)), "run {run}: u{r}-{k} lost");
            assert!(stored.contains(&(format!("a{r}-{k}"), Some("The answer grows word by word.".into()))), "run {run}: a{r}-{k} lost or cut");
        }
    }
    assert!(acked.len() >= runs as usize);
    let h = History::open(&db).unwrap();
    assert_eq!(h.current_id(), Some(format!("run{}", runs - 1)));
    assert!(h.search("東京").len() == CHAT_SEARCH_HITS);
}

/// A whole `acked <run> <k>` line of the child: what it acknowledged.
fn ack(line: &str) -> Option<(u32, u64)> {
    let rest = line.strip_prefix("acked ").filter(|_| line.ends_with('\n'))?;
    let mut it = rest.split_whitespace().map(|s| s.parse::<u64>().unwrap());
    Some((it.next().unwrap() as u32, it.next().unwrap()))
}
