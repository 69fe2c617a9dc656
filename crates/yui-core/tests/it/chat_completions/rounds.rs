//! Tool rounds: a round trip and the cap, the follow-up request's liveness wait, the capped round waiting for its results.

use super::*;

#[tokio::test]
async fn a_tool_round_trip_and_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    let tool_reply = |id: &str| {
        Answer::Sse(
            [call(0, Some(id), Some("address_character"), "{\"chara"), call(0, None, None, "cter\":\"Mio\"}"), finish("tool_calls"), usage(5, 1), DONE.into()]
                .concat(),
        )
    };
    h.script(tool_reply("call_1"));
    h.script(text_reply("Told her."));
    h.turn("t1", "tell Mio");
    let ev = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            match h.rx.recv().await.unwrap() {
                Inbound::ToolCall(c) => return c,
                Inbound::Reply { part: ReplyPart::Alive { .. }, .. } => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(ev, ToolCall { id: "call_1".into(), turn_id: "t1".into(), name: "address_character".into(), arguments: json!({"character":"Mio"}) });
    assert_eq!(h.bodies().len(), 1, "the follow-up waits for the result");
    h.send(Outbound::ToolResult(ToolResult { id: "call_1".into(), turn_id: "t1".into(), result: "ok".into(), images: vec![] }));
    assert_eq!(h.until_end().await, vec![reply("t1", speech(None, "Told her.")), reply("t1", end(Some((10, 2))))]);
    let b = h.bodies();
    assert_eq!(b.len(), 2);
    let m = b[1]["messages"].as_array().unwrap();
    assert_eq!(m.len(), 5);
    assert_eq!(m[2], user("tell Mio"));
    assert_eq!(
        m[3],
        json!({"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"address_character","arguments":"{\"character\":\"Mio\"}"}}]})
    );
    assert_eq!(m[4], json!({"role":"tool","tool_call_id":"call_1","content":"ok"}));

    // The cap: three requests, then the turn ends with what it has.
    for i in 0..4 {
        h.script(tool_reply(&format!("c{i}")));
    }
    h.turn("t2", "again");
    let mut ends = 0;
    while ends == 0 {
        match tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.unwrap().unwrap() {
            Inbound::ToolCall(c) => h.send(Outbound::ToolResult(ToolResult { id: c.id, turn_id: c.turn_id, result: "ok".into(), images: vec![] })),
            Inbound::Reply { part: ReplyPart::End { usage }, .. } => {
                assert_eq!(usage, Some(Usage { input_tokens: 5, output_tokens: 1, total_tokens: 6 }));
                ends += 1;
            }
            _ => {}
        }
    }
    assert_eq!(h.bodies().len(), 2 + 3);
}

#[tokio::test]
async fn a_follow_up_request_first_reports_a_long_liveness_wait() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Sse(
        [
            chunk(json!({"content":"Let me tell her."})),
            call(0, Some("call_1"), Some("address_character"), "{\"character\":\"Mio\"}"),
            finish("tool_calls"),
            usage(5, 1),
            DONE.into(),
        ]
        .concat(),
    ));
    // The follow-up's first event is speech, so only the transport's own report can come first.
    h.script(Answer::Sse([chunk(json!({"content":"Told her."})), finish("stop"), usage(10, 2), DONE.into()].concat()));
    h.turn("t1", "tell Mio");
    loop {
        if let Inbound::ToolCall(_) = tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.unwrap().unwrap() {
            break;
        }
    }
    // The rest of round 1 (its speech) before the result is sent.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    while h.rx.try_recv().is_ok() {}
    h.send(Outbound::ToolResult(ToolResult { id: "call_1".into(), turn_id: "t1".into(), result: "ok".into(), images: vec![] }));
    let mut all = Vec::new();
    loop {
        let ev = tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.expect("timed out").unwrap();
        let end = matches!(&ev, Inbound::Reply { part: ReplyPart::End { .. }, .. });
        all.push(ev);
        if end {
            break;
        }
    }
    assert_eq!(
        all,
        vec![
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", ReplyPart::Alive { after_speech: true }),
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", speech(None, "Told her.")),
            reply("t1", end(Some((10, 2)))),
        ]
    );
    assert_eq!(h.bodies().len(), 2);
}

#[tokio::test]
async fn the_capped_round_waits_for_its_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    let tool_reply = |id: &str| {
        Answer::Sse([call(0, Some(id), Some("address_character"), "{\"character\":\"Mio\"}"), finish("tool_calls"), usage(5, 1), DONE.into()].concat())
    };
    for i in 0..3 {
        h.script(tool_reply(&format!("c{i}")));
    }
    h.turn("t1", "again");
    let mut calls = 0;
    while calls < 3 {
        match tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.unwrap().unwrap() {
            Inbound::ToolCall(c) => {
                calls += 1;
                if calls < 3 {
                    h.send(Outbound::ToolResult(ToolResult { id: c.id, turn_id: c.turn_id, result: "ok".into(), images: vec![] }));
                }
            }
            Inbound::Reply { part: ReplyPart::End { .. }, .. } => panic!("the turn ended before its third call"),
            _ => {}
        }
    }
    // The capped round's call is still running: the turn waits for it.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    while let Ok(ev) = h.rx.try_recv() {
        assert!(matches!(ev, Inbound::Reply { part: ReplyPart::Alive { .. }, .. }), "nothing but liveness while the call runs: {ev:?}");
    }
    h.send(Outbound::ToolResult(ToolResult { id: "c2".into(), turn_id: "t1".into(), result: "Mio heard you".into(), images: vec![] }));
    assert_eq!(h.until_end().await, vec![reply("t1", end(Some((5, 1))))]);
    assert_eq!(h.bodies().len(), 3, "no request past the cap");
    h.script(text_reply("ok"));
    h.turn("t2", "next");
    h.until_end().await;
    let m = h.bodies()[3]["messages"].clone();
    assert_eq!(m[7], json!({"role":"tool","tool_call_id":"c2","content":"Mio heard you"}), "{m:#}");

    // A stop while the capped round's call runs ends the turn at once.
    for i in 3..6 {
        h.script(tool_reply(&format!("c{i}")));
    }
    h.turn("t3", "once more");
    let mut calls = 0;
    while calls < 3 {
        if let Inbound::ToolCall(c) = tokio::time::timeout(std::time::Duration::from_secs(10), h.rx.recv()).await.unwrap().unwrap() {
            calls += 1;
            if calls < 3 {
                h.send(Outbound::ToolResult(ToolResult { id: c.id, turn_id: c.turn_id, result: "ok".into(), images: vec![] }));
            }
        }
    }
    h.send(Outbound::Stop { turn_ids: vec!["t3".into()] });
    assert_eq!(h.until_end().await, vec![reply("t3", end(None))]);
}
