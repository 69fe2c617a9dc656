//! Failures, stops and what is logged: the failure table, the chain after a failure, a stop, held text, the log without the key.

use super::*;

/// One failing answer: the parts the turn got and the notices.
async fn failure(answer: Answer) -> (Vec<ReplyPart>, Vec<Inbound>) {
    let (fake, base) = Fake::start().await;
    fake.push(answer);
    let mut h = Harness::start(config(&base)).await;
    let got = h.turn(turn("t1", "hi")).await;
    let notices = got.iter().filter(|e| matches!(e, Inbound::Notice { .. })).cloned().collect();
    (parts(&got), notices)
}

fn failed_with(message: &str) -> Vec<ReplyPart> {
    vec![ReplyPart::Error { message: message.into() }, ReplyPart::End { usage: None }]
}

#[tokio::test]
async fn failures_show_what_the_table_says() {
    let auth = vec![Inbound::Notice { code: ErrorCode::Auth, message: AUTH_NOTICE.into(), phrase: Some(yui_core::event::Phrase::new("notice-key-refused")) }];
    let (p, n) = failure(http(401, r#"{"error":{"message":"Incorrect API key provided: sk-test"}}"#)).await;
    assert_eq!((p, n), (failed_with(GENERIC_FAILURE), auth.clone()));
    let (p, n) = failure(http(403, r#"{"error":{"message":"Project has no access to model"}}"#)).await;
    assert_eq!((p, n), (failed_with(GENERIC_FAILURE), auth));
    let (p, n) = failure(http(429, r#"{"error":{"message":"Rate limit reached for gpt-test.","type":"requests"}}"#)).await;
    assert_eq!((p, n), (failed_with("HTTP 429: Rate limit reached for gpt-test."), vec![]));

    // What streamed before a failure is reported unsaid (an unfinished fragment).
    let half = |message: &str| [vec![ReplyPart::Unsaid { text: "Half".into() }], failed_with(message)].concat();
    let (p, _) = failure(ok(&[text("Half"), json!({"type":"error","code":500,"message":"The server had an error.","param":null})])).await;
    assert_eq!(p, half("HTTP 500: The server had an error."));
    let (p, _) = failure(ok(&[json!({"type":"error","code":"server_error","message":"secret detail"})])).await;
    assert_eq!(p, failed_with(GENERIC_FAILURE));
    let (p, _) = failure(Answer { status: 200, chunks: vec![sse(&[text("Half")])], tail: Tail::Break }).await;
    assert_eq!(p, half(GENERIC_FAILURE));
    let (p, _) = failure(ok(&[
        text("Half"),
        json!({"type":"response.failed","response":{"id":"r","status":"failed","error":{"code":"server_error","message":"secret detail"}}}),
    ]))
    .await;
    assert_eq!(p, half(GENERIC_FAILURE));
    let (p, _) =
        failure(ok(&[json!({"type":"response.incomplete","response":{"id":"r","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}})]))
            .await;
    assert_eq!(p, failed_with(GENERIC_FAILURE));
}

#[tokio::test]
async fn a_failed_response_leaves_the_chain_as_it_was() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("One."), call("c1", "generate_express", r#"{"emotion_id":"sad"}"#), completed("resp_1")]));
    fake.push(ok(&[call("c2", "generate_express", r#"{"emotion_id":"happy"}"#), json!({"type":"response.failed","response":{"id":"resp_2"}})]));
    fake.push(ok(&[text("Three."), completed("resp_3")]));
    let mut h = Harness::start(config(&base)).await;
    h.turn(turn("t1", "one")).await;
    h.turn(turn("t2", "two")).await;
    h.turn(turn("t3", "three")).await;
    let reqs = fake.requests();
    assert_eq!(reqs[2]["previous_response_id"], "resp_1");
    assert_eq!(reqs[2]["input"][0], json!({"type":"function_call_output","call_id":"c1","output":"ok"}));
    assert_eq!(reqs[2]["input"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_stop_ends_the_turn_at_once() {
    let (fake, mut h) = thinking_aloud().await;
    h.send(Outbound::Stop { turn_ids: vec!["t1".into()] });
    assert_eq!(h.next().await, Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::Unsaid { text: "Let me think".into() } }, "what the segmenter held");
    assert_eq!(h.next().await, Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::End { usage: None } });
    h.quiet(300).await;
    assert_eq!(fake.requests().len(), 1);
    // The next turn is not chained to the stopped one; it carries it.
    h.turn(turn("t2", "again")).await;
    assert!(fake.requests()[1].get("previous_response_id").is_none());
    assert_eq!(
        fake.requests()[1]["input"],
        json!([{"role":"user","content":user_text("hi")},{"role":"assistant","content":"Let me think"},{"role":"user","content":user_text("again")}])
    );
}

/// A log sink for one test (the runtime is current-thread, so the transport
/// task logs to the thread's default subscriber).
#[derive(Clone, Default)]
struct LogBuf(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for LogBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogBuf {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

#[tokio::test]
async fn failures_are_logged_without_the_key_or_a_refusal_body() {
    let logs = LogBuf::default();
    let sink = logs.clone();
    let subscriber = tracing_subscriber::fmt().with_writer(move || sink.clone()).with_ansi(false).with_max_level(tracing::Level::INFO).finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    // A 401 whose body repeats the key: the status and the kind, nothing of the body.
    let (p, _) = failure(http(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys."}}"#,
    ))
    .await;
    assert_eq!(p, failed_with(GENERIC_FAILURE));
    let log = logs.text();
    let line = log.lines().find(|l| l.contains("record=\"http_error\"")).unwrap_or_else(|| panic!("no http_error record:\n{log}"));
    assert!(line.contains("status=Some(401)") && line.contains("kind=\"http\""), "{line}");
    assert!(!log.contains("sk-test") && !log.contains("Incorrect API key"), "the 401 body leaked into the log:\n{log}");

    // Any other failure keeps its text, the key scrubbed.
    let (p, _) = failure(http(500, r#"{"error":{"message":"upstream echoed sk-test back"}}"#)).await;
    assert_eq!(p, failed_with("HTTP 500: upstream echoed sk-test back"));
    let log = logs.text();
    assert!(log.lines().any(|l| l.contains("record=\"http_error\"") && l.contains("status=Some(500)") && l.contains("upstream echoed <key> back")), "{log}");
    assert!(!log.contains("sk-test"), "the key leaked into the log:\n{log}");

    // A malformed event is logged as such, the key scrubbed there too.
    let raw = format!("event: sk-test\ndata: {{not json\n\n{}", sse(&[text("Fine."), completed("resp_1")]));
    let (p, _) = failure(Answer { status: 200, chunks: vec![raw], tail: Tail::End }).await;
    assert_eq!(p.last(), Some(&ReplyPart::End { usage: Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 }) }));
    let log = logs.text();
    assert!(log.lines().any(|l| l.contains("record=\"sse_malformed\"") && l.contains("event=<key>")), "{log}");
    assert!(!log.contains("sk-test"), "the key leaked into the log:\n{log}");
}

/// A complete sentence held for the next character is not lost when a stop,
/// an abandon (a stall) or a mid-stream error ends the stream, and the chain
/// keeps the exchange; a proxy's error envelope shows its status and text.
#[tokio::test]
async fn text_held_at_a_stop_an_abandon_or_an_error_is_shown_and_kept() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("Hi."), completed("resp_1")]));
    let held = sse(&[text("Before it stopped. ")]);
    fake.push(Answer { status: 200, chunks: vec![held.clone()], tail: Tail::Hang });
    fake.push(Answer { status: 200, chunks: vec![held.clone()], tail: Tail::Hang });
    // LiteLLM's proxy: a data line with no type and the status as a string.
    let litellm = json!({"error": {"message": "litellm.InternalServerError: upstream broke", "type": "None", "param": "None", "code": "500"}});
    fake.push(Answer { status: 200, chunks: vec![held.clone(), format!("data: {litellm}\n\n")], tail: Tail::End });
    // An `event: error` frame with a flat body, after a fragment.
    fake.push(Answer {
        status: 200,
        chunks: vec![sse(&[text("Half a sen")]), "event: error\ndata: {\"message\":\"overloaded\",\"code\":529}\n\n".into()],
        tail: Tail::End,
    });
    fake.push(ok(&[text("Fine."), completed("resp_6")]));
    let mut h = Harness::start(config(&base)).await;
    h.turn(turn("t0", "hello")).await;
    let unsaid = |id: &str, t: &str| Inbound::Reply { turn_id: id.into(), part: ReplyPart::Unsaid { text: t.into() } };
    let end = |id: &str| Inbound::Reply { turn_id: id.into(), part: ReplyPart::End { usage: None } };
    for (id, out) in [("t1", Outbound::Stop { turn_ids: vec!["t1".into()] }), ("t2", Outbound::Abandon { turn_id: "t2".into() })] {
        h.send(Outbound::Turn(turn(id, "stop test")));
        loop {
            if let Inbound::Reply { part: ReplyPart::Alive { after_speech: true }, .. } = h.next().await {
                break;
            }
        }
        h.send(out);
        assert_eq!(h.until_end(id).await, vec![unsaid(id, "Before it stopped. "), end(id)], "{id}");
    }
    let got = h.turn(turn("t3", "error test")).await;
    assert_eq!(
        parts(&got),
        vec![
            ReplyPart::Speech { segments: vec![Segment { cues: vec![], speech: "Before it stopped. ".into() }] },
            ReplyPart::Error { message: "HTTP 500: litellm.InternalServerError: upstream broke".into() },
            ReplyPart::End { usage: None },
        ],
        "the complete sentence is spoken, the status and the server's text shown"
    );
    let got = h.turn(turn("t4", "again")).await;
    assert_eq!(
        parts(&got),
        vec![ReplyPart::Unsaid { text: "Half a sen".into() }, ReplyPart::Error { message: "HTTP 529: overloaded".into() }, ReplyPart::End { usage: None }]
    );
    h.turn(turn("t5", "next")).await;
    let reqs = fake.requests();
    assert_eq!(reqs[5]["previous_response_id"], "resp_1", "still chained to the last completed response");
    let said = json!({"role":"assistant","content":"Before it stopped. "});
    assert_eq!(
        reqs[5]["input"],
        json!([
            {"role":"user","content":user_text("stop test")}, said,
            {"role":"user","content":user_text("stop test")}, said,
            {"role":"user","content":user_text("error test")}, said,
            {"role":"user","content":user_text("again")}, {"role":"assistant","content":"Half a sen"},
            {"role":"user","content":user_text("next")}
        ]),
        "every exchange cut short rides in the next request"
    );
    assert_eq!(reqs[1]["previous_response_id"], "resp_1");
    assert_eq!(reqs[2]["input"][0], json!({"role":"user","content":user_text("stop test")}), "each carried until a response completes");
}
