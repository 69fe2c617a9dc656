//! Failures and stops: the error table, a stop mid-stream, what is logged (never the key), a cut stream, an error chunk, text held at a stop or error.

use super::*;

/// Everything the transport logs while `f` runs (the test runtime is
/// current-thread, so the spawned transport task logs on this thread).
struct LogBuf(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct LogCapture {
    _guard: tracing::subscriber::DefaultGuard,
    /// A second registered dispatcher: with only one, tracing-core computes
    /// a callsite's interest from the default of whichever thread hits it
    /// first (another test's thread, with none), and caches "never".
    _other: tracing::Dispatch,
}

fn capture_logs() -> (Arc<Mutex<Vec<u8>>>, LogCapture) {
    let other = tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default());
    let buf = Arc::new(Mutex::new(Vec::new()));
    let writer = buf.clone();
    let subscriber = tracing_subscriber::fmt().with_max_level(tracing::Level::TRACE).with_ansi(false).with_writer(move || LogBuf(writer.clone())).finish();
    let guard = tracing::dispatcher::set_default(&tracing::Dispatch::new(subscriber));
    tracing::callsite::rebuild_interest_cache();
    (buf, LogCapture { _guard: guard, _other: other })
}

#[tokio::test]
async fn errors_follow_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    for status in [401u16, 403] {
        h.script(Answer::Status(status, r#"{"error":{"message":"Incorrect API key provided: sk-test"}}"#.into()));
        h.turn("t", "hi");
        assert_eq!(
            h.until_end().await,
            vec![
                Inbound::Notice {
                    code: ErrorCode::Auth,
                    message: format!("The server refused the key (HTTP {status}). Check the key in settings."),
                    phrase: Some(yui_core::event::Phrase::new("notice-key-refused-http").arg("status", status)),
                },
                reply("t", ReplyPart::Error { message: GENERIC_FAILURE.into() }),
                reply("t", end(None)),
            ]
        );
    }
    h.script(Answer::Status(429, r#"{"error":{"message":"Rate limit reached.","type":"requests"}}"#.into()));
    h.turn("t", "hi");
    assert_eq!(h.until_end().await, vec![reply("t", ReplyPart::Error { message: "HTTP 429: Rate limit reached.".into() }), reply("t", end(None))]);
    h.script(Answer::Sse(format!("{}data: {}\n\n", chunk(json!({"content":"Hel"})), json!({"error":{"message":"upstream overloaded","code":500}}))));
    h.turn("t", "hi");
    let unsaid = |t: &str| reply("t", ReplyPart::Unsaid { text: t.into() });
    assert_eq!(
        h.until_end().await,
        vec![unsaid("Hel"), reply("t", ReplyPart::Error { message: "HTTP 500: upstream overloaded".into() }), reply("t", end(None))]
    );
    h.script(Answer::Broken(chunk(json!({"content":"Hel"}))));
    h.turn("t", "hi");
    assert_eq!(h.until_end().await, vec![unsaid("Hel"), reply("t", ReplyPart::Error { message: GENERIC_FAILURE.into() }), reply("t", end(None))]);
    // Failed turns that streamed nothing record nothing; those that streamed
    // text keep it.
    h.script(text_reply("fine"));
    h.turn("t9", "ok?");
    h.until_end().await;
    assert_eq!(h.bodies().last().unwrap()["messages"], json!([sys("CARD"), user("hi"), said("Hel"), user("hi"), said("Hel"), ctx("t9"), user("ok?")]));
}

#[tokio::test]
async fn a_stop_mid_stream_ends_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Hang(chunk(json!({"content":"Hello there"}))));
    h.turn("t1", "hi");
    assert_eq!(h.rx.recv().await, Some(reply("t1", ReplyPart::Alive { after_speech: true })));
    h.send(Outbound::Stop { turn_ids: vec!["t1".into()] });
    assert_eq!(h.rx.recv().await, Some(reply("t1", ReplyPart::Unsaid { text: "Hello there".into() })), "what the segmenter held");
    assert_eq!(h.rx.recv().await, Some(reply("t1", end(None))));
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    assert!(h.rx.try_recv().is_err(), "nothing after End");
    assert_eq!(h.bodies().len(), 1);
    // The stopped turn keeps the user entry and the text said so far.
    h.script(text_reply("ok"));
    h.turn("t2", "next");
    h.until_end().await;
    assert_eq!(h.bodies()[1]["messages"], json!([sys("CARD"), user("hi"), said("Hello there"), ctx("t2"), user("next")]));
}

#[tokio::test]
async fn failure_logs_carry_the_status_and_kind_never_the_key() {
    let (logs, _guard) = capture_logs();
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Status(401, r#"{"error":{"message":"Incorrect API key provided: sk-test"}}"#.into()));
    h.turn("t1", "hi");
    h.until_end().await;
    h.script(Answer::Status(500, r#"{"error":{"message":"backend echoed Bearer sk-test"}}"#.into()));
    h.turn("t2", "hi");
    assert_eq!(h.until_end().await, vec![reply("t2", ReplyPart::Error { message: "HTTP 500: backend echoed Bearer sk-test".into() }), reply("t2", end(None))]);
    h.script(Answer::Sse(format!("{}data: {}\n\n", chunk(json!({"content":"Hel"})), json!({"error":{"message":"key sk-test overloaded","code":503}}))));
    h.turn("t3", "hi");
    h.until_end().await;
    let text = String::from_utf8(logs.lock().unwrap().clone()).unwrap();
    let failures: Vec<&str> = text.lines().filter(|l| l.contains("http_error")).collect();
    assert_eq!(failures.len(), 3, "{text}");
    assert!(failures[0].contains("status=Some(401)") && failures[0].contains("kind=\"http\""), "{}", failures[0]);
    assert!(failures[1].contains("status=Some(500)"), "{}", failures[1]);
    assert!(failures[2].contains("status=Some(503)"), "{}", failures[2]);
    assert!(!text.contains("sk-test"), "the key reached the log:\n{text}");
    assert!(!text.contains("Incorrect API key"), "a 401 body reached the log:\n{text}");
}

#[tokio::test]
async fn a_stream_cut_before_its_finish_is_a_failure_that_keeps_what_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    // The connection closes mid-reply: no finish_reason, no [DONE].
    h.script(Answer::Sse([chunk(json!({"role":"assistant","content":""})), chunk(json!({"content":"Hello, I was say"}))].concat()));
    h.turn("t1", "hi");
    let unsaid = |id: &str, t: &str| reply(id, ReplyPart::Unsaid { text: t.into() });
    assert_eq!(
        h.until_end().await,
        vec![unsaid("t1", "Hello, I was say"), reply("t1", ReplyPart::Error { message: GENERIC_FAILURE.into() }), reply("t1", end(None))]
    );
    // A [DONE] without any finish_reason is no proper end either.
    h.script(Answer::Sse([chunk(json!({"content":"Partial"})), DONE.into()].concat()));
    h.turn("t2", "hi");
    assert_eq!(h.until_end().await, vec![unsaid("t2", "Partial"), reply("t2", ReplyPart::Error { message: GENERIC_FAILURE.into() }), reply("t2", end(None))]);
    // A finished reply followed by its usage chunk is complete.
    h.script(text_reply("fine"));
    h.turn("t9", "ok?");
    assert_eq!(h.until_end().await, vec![reply("t9", speech(None, "fine")), reply("t9", end(Some((10, 2))))]);
    assert_eq!(
        h.bodies()[2]["messages"],
        json!([sys("CARD"), user("hi"), said("Hello, I was say"), user("hi"), said("Partial"), ctx("t9"), user("ok?")]),
        "the cut turns keep what streamed"
    );
}

#[tokio::test]
async fn an_error_chunk_with_a_string_error_fails_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Sse(format!("{}data: {}\n\n{}", chunk(json!({"content":"Hel"})), json!({"error":"upstream timeout"}), finish("stop"))));
    h.turn("t1", "hi");
    let unsaid = |id: &str| reply(id, ReplyPart::Unsaid { text: "Hel".into() });
    assert_eq!(h.until_end().await, vec![unsaid("t1"), reply("t1", ReplyPart::Error { message: GENERIC_FAILURE.into() }), reply("t1", end(None))]);
    h.script(Answer::Sse(format!("{}data: {}\n\n", chunk(json!({"content":"Hel"})), json!({"error":{"message":"slow down","code":"429"}}))));
    h.turn("t2", "hi");
    assert_eq!(h.until_end().await, vec![unsaid("t2"), reply("t2", ReplyPart::Error { message: "HTTP 429: slow down".into() }), reply("t2", end(None))]);
}

/// A complete sentence held for the next character is not lost when a stop,
/// an abandon (a stall) or a mid-stream error ends the stream; a proxy's
/// error envelope shows its status and text.
#[tokio::test]
async fn text_held_at_a_stop_an_abandon_or_an_error_is_shown_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    let held = chunk(json!({"content":"Before it stopped. "}));
    for (id, out) in [("t1", Outbound::Stop { turn_ids: vec!["t1".into()] }), ("t2", Outbound::Abandon { turn_id: "t2".into() })] {
        h.script(Answer::Hang(held.clone()));
        h.turn(id, "stop test");
        assert_eq!(h.rx.recv().await, Some(reply(id, ReplyPart::Alive { after_speech: true })));
        h.send(out);
        assert_eq!(h.until_end().await, vec![reply(id, ReplyPart::Unsaid { text: "Before it stopped. ".into() }), reply(id, end(None))], "{id}");
    }
    // LiteLLM's proxy writes the upstream failure as a data line: the
    // complete sentence is spoken, as the stream's end would have, and the
    // error shows the status and the server's text.
    let litellm = json!({"error": {"message": "litellm.InternalServerError: upstream broke", "type": "None", "param": "None", "code": "500"}});
    h.script(Answer::Sse(format!("{held}data: {litellm}\n\n")));
    h.turn("t3", "error test");
    assert_eq!(
        h.until_end().await,
        vec![
            reply("t3", speech(None, "Before it stopped. ")),
            reply("t3", ReplyPart::Error { message: "HTTP 500: litellm.InternalServerError: upstream broke".into() }),
            reply("t3", end(None)),
        ]
    );
    // An `event: error` frame with a flat body, after a fragment: the fragment is unsaid.
    h.script(Answer::Sse(format!("{}event: error\ndata: {}\n\n", chunk(json!({"content":"Half a sen"})), json!({"message": "overloaded", "code": 529}))));
    h.turn("t4", "again");
    assert_eq!(
        h.until_end().await,
        vec![
            reply("t4", ReplyPart::Unsaid { text: "Half a sen".into() }),
            reply("t4", ReplyPart::Error { message: "HTTP 529: overloaded".into() }),
            reply("t4", end(None))
        ]
    );
    // Every one of them is in the transcript, each after its user entry.
    h.script(text_reply("ok"));
    h.turn("t5", "next");
    h.until_end().await;
    let said_it = said("Before it stopped. ");
    assert_eq!(
        h.bodies()[4]["messages"],
        json!([
            sys("CARD"),
            user("stop test"),
            said_it,
            user("stop test"),
            said_it,
            user("error test"),
            said_it,
            user("again"),
            said("Half a sen"),
            ctx("t5"),
            user("next")
        ])
    );
}
