//! Several characters in yui-cli (`--character`, `docs/characters.md`)
//! against yui-mock's demo agent: each its own session, chat id and files;
//! `@NAME` and `@everyone` lines routed and worded; every line names its
//! character.

use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use yui_mock::{MockConfig, MockServer};

/// Run yui-cli with `characters` over `api` until EOF of `stdin`.
fn run_cli(api: &str, base_url: &str, data_dir: &Path, characters: &[&str], extra: &[&str], stdin: &str) -> (i32, Vec<Value>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_yui-cli"));
    cmd.args(["--chat-api", api, "--base-url", base_url, "--key", "k", "--model", "m", "--data-dir"]).arg(data_dir).args(["--set", "audio=none"]).args(extra);
    for name in characters {
        cmd.args(["--character", name]);
    }
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn yui-cli");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let events = stdout.lines().map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("not one JSON object per line: {l:?}: {e}"))).collect();
    (out.status.code().unwrap_or(-1), events, String::from_utf8(out.stderr).unwrap())
}

async fn run(api: &'static str, mock: &MockServer, dir: &Path, characters: &'static [&'static str], stdin: &'static str) -> (Vec<Value>, String) {
    run_with(api, mock, dir, characters, &[], stdin).await
}

async fn run_with(
    api: &'static str,
    mock: &MockServer,
    dir: &Path,
    characters: &'static [&'static str],
    extra: &'static [&'static str],
    stdin: &'static str,
) -> (Vec<Value>, String) {
    let url = mock.base_url();
    let d = dir.to_path_buf();
    let (code, events, stderr) = tokio::task::spawn_blocking(move || run_cli(api, &url, &d, characters, extra, stdin)).await.unwrap();
    assert_eq!(code, 0, "exits 0 on EOF; stderr: {stderr}");
    (events, stderr)
}

/// Where in `events` the first line of `kind` from `character` is (and whose `text` contains `text`, when given).
fn position(events: &[Value], kind: &str, character: &str, text: Option<&str>) -> usize {
    events
        .iter()
        .position(|e| e["type"] == kind && e["character"] == character && text.is_none_or(|t| e["text"].as_str().is_some_and(|s| s.contains(t))))
        .unwrap_or_else(|| panic!("no {kind} line from {character}: {:?}", events.iter().map(|e| (&e["type"], &e["character"])).collect::<Vec<_>>()))
}

#[tokio::test(flavor = "multi_thread")]
async fn over_push_each_character_has_its_session_and_lines_are_routed() {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (events, stderr) = run("push", &mock, dir.path(), &["Yui", "Ann"], "hello\n@ann what's up?\n").await;

    // Every line names its character, and both speak.
    assert!(events.iter().all(|e| e["character"] == "Yui" || e["character"] == "Ann"), "{events:?}");
    assert_eq!(events.iter().filter(|e| e["type"] == "turn_ended").count(), 2, "{stderr}");
    let ann_turn = position(&events, "turn_started", "Ann", Some("what's up?"));
    assert_eq!(events[ann_turn]["text"], "@ann what's up?", "the utterance keeps the @name");
    position(&events, "turn_started", "Yui", Some("hello"));

    // Two sessions: two hellos with their own chat ids; only main declares look.
    let frames = mock.received();
    let hellos: Vec<&Value> = frames.iter().filter(|f| f["type"] == "hello").collect();
    assert_eq!(hellos.len(), 2, "{hellos:?}");
    assert_ne!(hellos[0]["chat_id"], hellos[1]["chat_id"]);
    let declares_look = |h: &Value| h["tools"].as_array().unwrap().iter().any(|t| t["function"]["name"] == "look");
    assert_eq!(hellos.iter().filter(|h| declares_look(h)).count(), 1, "only main declares look: {hellos:?}");

    // The plain line goes to main as typed; the @ann line says whom it was for.
    let turns: Vec<&Value> = frames.iter().filter(|f| f["type"] == "turn").collect();
    let hello = turns.iter().find(|t| t["text"] == "hello").expect("main's turn");
    assert!(hello["client_context"].as_str().unwrap().contains("\ntrigger: user message\n"), "{hello}");
    let ann = turns.iter().find(|t| t["text"] == "@ann what's up?").expect("Ann's turn");
    assert!(ann["client_context"].as_str().unwrap().contains("\ntrigger: user message (addressed to the character)\n"), "{ann}");

    // Ann's files are her own, and her chat id stays across runs.
    let ann_id = std::fs::read_to_string(dir.path().join("characters/ann/chat_id")).expect("Ann's chat id file");
    assert!(hellos.iter().any(|h| h["chat_id"] == ann_id.trim()), "{hellos:?} {ann_id}");
    let (again, _) = run("push", &mock, dir.path(), &["Yui", "Ann"], "@Ann again\n").await;
    assert!(again.iter().all(|e| e["character"].is_string()));
    let hellos: Vec<Value> = mock.received().into_iter().filter(|f| f["type"] == "hello").collect();
    assert_eq!(hellos.len(), 4);
    assert!(hellos[2..].iter().any(|h| h["chat_id"] == ann_id.trim()), "the same chat id after a restart: {hellos:?}");
}

async fn everyone_in_order(api: &'static str, path: &'static str) {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (events, stderr) = run(api, &mock, dir.path(), &["Yui", "Ann", "Mio"], "@everyone good night\n").await;
    // One after another in registry order: each turn starts after the one before ended.
    let order: Vec<(usize, usize)> = ["Yui", "Ann", "Mio"]
        .iter()
        .map(|name| (position(&events, "turn_started", name, Some("good night")), position(&events, "turn_ended", name, None)))
        .collect();
    assert!(order[0].1 < order[1].0 && order[1].1 < order[2].0, "{order:?}\n{stderr}");
    for (_, ended) in &order {
        assert_eq!(events[*ended]["outcome"], "complete", "{:?}", events[*ended]);
    }
    // Each request carries the line as typed, worded as addressed to everyone.
    let requests: Vec<_> = mock.requests().into_iter().filter(|r| r.path == path).collect();
    assert_eq!(requests.len(), 3, "{:?}", requests.iter().map(|r| &r.path).collect::<Vec<_>>());
    for r in &requests {
        let body = r.body.to_string();
        assert!(body.contains("trigger: user message (addressed to everyone)"), "{body}");
        assert!(body.contains("@everyone good night"), "{body}");
    }
    // Each later one overhears the earlier replies, in registry order; the
    // first one has no one to overhear yet.
    let blocks: Vec<Vec<String>> = requests
        .iter()
        .map(|r| r.body.to_string().match_indices("overheard: ").map(|(i, _)| r.body.to_string()[i..].chars().take(30).collect()).collect())
        .collect();
    assert!(blocks[0].is_empty(), "{:?}", blocks[0]);
    assert_eq!(blocks[1], ["overheard: Yui ↔ user, 2 lines"], "{blocks:?}");
    assert_eq!(blocks[2], ["overheard: Yui ↔ user, 2 lines", "overheard: Ann ↔ user, 2 lines"], "{blocks:?}");
    let ann = requests[1].body.to_string();
    assert!(ann.contains(r#"user: \"@everyone good night\""#), "the user's half, quoted: {ann}");
    // Cursors move once a turn ended ok: the next round carries only what is new.
    let (_, _) = run(
        api,
        &mock,
        dir.path(),
        &["Yui", "Ann", "Mio"],
        "@ann and you?
",
    )
    .await;
    let last = mock.requests().into_iter().rfind(|r| r.path == path).unwrap().body.to_string();
    assert!(!last.contains("overheard: Yui"), "Ann heard Yui's lines already: {last}");
    assert!(last.contains("overheard: Mio ↔ user, 2 lines"), "Mio's reply came after Ann's turn: {last}");
}

#[tokio::test(flavor = "multi_thread")]
async fn over_responses_everyone_answers_in_registry_order() {
    everyone_in_order("responses", "/v1/responses").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn over_chat_completions_everyone_answers_in_registry_order() {
    everyone_in_order("chat_completions", "/v1/chat/completions").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_name_is_refused_and_nothing_is_sent() {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (events, _) = run("chat_completions", &mock, dir.path(), &["Yui", "Ann"], "@Bob are you there?\n").await;
    let notice = events.iter().find(|e| e["type"] == "notice").expect("a notice line");
    assert_eq!(notice["code"], "unknown_character");
    assert_eq!(notice["character"], "Yui", "an app-wide line names main");
    assert!(notice["message"].as_str().unwrap().contains("\"Bob\""), "{notice}");
    assert!(events.iter().all(|e| e["type"] != "turn_started"), "{events:?}");
    assert!(mock.requests().iter().all(|r| r.path != "/v1/chat/completions"), "nothing was sent");

    // A name twice (without case), or `everyone`, stops the run before it starts.
    for names in [["Yui", "yui"], ["Yui", "Everyone"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_yui-cli"))
            .args(["--base-url", &mock.base_url(), "--key", "k", "--data-dir"])
            .arg(dir.path())
            .args(["--character", names[0], "--character", names[1]])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{names:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(names[1]), "{stderr}");
    }
}

/// A Chat Completions answer that calls `address_character` for `name`.
fn calls(name: &str) -> Value {
    json!({"events": [
        {"data": {"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{"index": 0, "id": "call_$n", "type": "function",
            "function": {"name": "address_character", "arguments": format!("{{\"character\":\"{name}\"}}")}}]}}]}},
        {"data": {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}},
        {"raw": "data: [DONE]\n\n"}
    ]})
}

/// A Chat Completions answer that says `text`.
fn says(text: &str) -> Value {
    json!({"events": [
        {"data": {"choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]}},
        {"data": {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}},
        {"raw": "data: [DONE]\n\n"}
    ]})
}

async fn scripted(http: Vec<Value>) -> MockServer {
    let scenario = json!({"name": "characters talk", "steps": [], "http": http, "http_default": {"status": 500, "body": "no more replies"}});
    let scenario = yui_mock::Scenario::from_json(&scenario.to_string()).unwrap();
    MockServer::start(MockConfig { key: Some("k".into()), mode: yui_mock::Mode::Scenario(scenario), pace: 0.0, ..Default::default() }).await.unwrap()
}

fn bodies(mock: &MockServer) -> Vec<String> {
    mock.requests().into_iter().filter(|r| r.path == "/v1/chat/completions").map(|r| r.body.to_string()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reply_that_addresses_another_character_gives_her_a_turn_and_the_exchange_stops_at_its_limit() {
    // Yui is asked, calls address_character(Ann) and speaks; Ann answers
    // and calls Yui back; Yui answers and calls Ann again: the third
    // addressed turn is past the limit of 2 and never happens.
    let mock = scripted(vec![calls("ann"), says("Ann, good morning!"), calls("Yui"), says("Morning, Yui."), calls("Ann"), says("Slept well?")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (events, stderr) = run_with("chat_completions", &mock, dir.path(), &["Yui", "Ann"], &["--set", "exchange_limit=2"], "say hi to Ann\n").await;
    let sent = bodies(&mock);
    assert_eq!(sent.len(), 6, "two turns of Yui's, one of Ann's, each with its tool round: {stderr}");
    // Ann's turn: addressed by Yui with what Yui said, after it played; no utterance.
    let ann = &sent[2];
    assert!(ann.contains(r#"trigger: addressed by Yui: \"Ann, good morning!\" (0min ago)"#), "{ann}");
    assert!(ann.contains("(Yui just spoke to you)"), "the background marker: {ann}");
    assert!(ann.contains("You are Ann,"), "her card speaks as her name among them: {ann}");
    assert!(ann.contains("overheard: Yui ↔ user, 2 lines"), "the exchange so far, overheard: {ann}");
    let yui_again = &sent[4];
    assert!(yui_again.contains(r#"trigger: addressed by Ann: \"Morning, Yui.\""#), "{yui_again}");
    // Playback order: each addressed turn starts after the reply that made it ended.
    let ended = position(&events, "turn_ended", "Yui", None);
    let ann_started = events.iter().position(|e| e["type"] == "turn_started" && e["character"] == "Ann").expect("Ann's turn");
    assert!(ended < ann_started, "{events:?}");
    assert_eq!(events.iter().filter(|e| e["type"] == "turn_started").count(), 3, "{events:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_silent_reply_addresses_no_one_and_a_name_that_is_not_open_is_refused() {
    let mock = scripted(vec![calls("Ann"), says("[SILENT]"), calls("Yui"), says("Talking to myself.")]).await;
    let dir = tempfile::tempdir().unwrap();
    let (events, stderr) = run("chat_completions", &mock, dir.path(), &["Yui", "Ann"], "hmm\nand now?\n").await;
    let sent = bodies(&mock);
    // The first turn called Ann but said [SILENT]: no addressed turn. The
    // second called herself: refused with the field named.
    assert_eq!(sent.len(), 4, "{stderr}");
    assert!(sent.iter().all(|b| !b.contains("trigger: addressed by")), "{sent:?}");
    assert!(sent[3].contains("error: invalid field character"), "{}", sent[3]);
    assert!(events.iter().all(|e| e["type"] != "turn_started" || e["character"] == "Yui"), "Ann never had a turn: {events:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn two_characters_answering_at_once_never_talk_over_each_other() {
    // Both are asked at once and both replies stream at once; each sentence
    // plays for its real length (the mock's TTS, audio=null). One voice at
    // a time: the second one's sentences show and play only after the
    // first one's last sentence ended.
    let two = "The first sentence takes a while. The second one too.";
    let mock = scripted(vec![says(two), says(two)]).await;
    let dir = tempfile::tempdir().unwrap();
    let tts = format!("tts.base_url={}", mock.base_url());
    let extra: &'static [&'static str] =
        Box::leak(vec!["--set", "audio=null", "--set", "filler=off", "--set", Box::leak(tts.into_boxed_str())].into_boxed_slice());
    let (events, stderr) = run_with("chat_completions", &mock, dir.path(), &["Yui", "Ann"], extra, "@yui hi\n@ann hi\n").await;
    let voice: Vec<(&str, &str)> = events
        .iter()
        .filter(|e| e["type"] == "speech" || e["type"] == "speech_done")
        .map(|e| (e["character"].as_str().unwrap(), e["type"].as_str().unwrap()))
        .collect();
    assert_eq!(voice.len(), 8, "two sentences each, shown and done: {voice:?}\n{stderr}");
    // Whoever spoke first said all of it before the other began.
    let first = voice[0].0;
    assert!(voice[..4].iter().all(|(c, _)| *c == first), "{voice:?}");
    assert!(voice[4..].iter().all(|(c, _)| *c != first), "{voice:?}");
    assert_eq!(events.iter().filter(|e| e["type"] == "turn_ended" && e["outcome"] == "complete").count(), 2, "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn over_push_a_later_character_overhears_the_earlier_reply() {
    let mock = MockServer::start(MockConfig { key: Some("k".into()), pace: 0.0, ..Default::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (_, stderr) = run("push", &mock, dir.path(), &["Yui", "Ann"], "@everyone good night\n").await;
    let turns: Vec<Value> = mock.received().into_iter().filter(|f| f["type"] == "turn").collect();
    assert_eq!(turns.len(), 2, "{stderr}");
    let first = turns[0]["client_context"].as_str().unwrap();
    let second = turns[1]["client_context"].as_str().unwrap();
    assert!(!first.contains("overheard:"), "{first}");
    // The demo backend may also have spoken on its own (a task update): a
    // line of Yui's too.
    assert!(second.contains("overheard: Yui ↔ user, "), "push keeps a transcript too: {second}");
    assert!(second.contains("  user: \"@everyone good night\"\n  Yui: \""), "{second}");
}
