//! Tool rounds and turns in flight: follow-up requests, the round limit, a newer turn aborting the one in flight, the long budget.

use super::*;

#[tokio::test]
async fn a_client_tool_makes_a_follow_up_round() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[
        text("Let me tell Rin."),
        call("c1", "generate_express", r#"{"emotion_id":"happy"}"#),
        call("c2", "address_character", r#"{"character":"Rin"}"#),
        completed("resp_1"),
    ]));
    fake.push(ok(&[text("Done!"), completed("resp_2")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Turn(turn("t1", "say hi to Rin")));
    let tool_call = loop {
        match h.next().await {
            Inbound::ToolCall(c) => break c,
            Inbound::Reply { part: ReplyPart::End { .. }, .. } => panic!("ended before the tool call"),
            _ => {}
        }
    };
    assert_eq!((tool_call.id.as_str(), tool_call.name.as_str(), &tool_call.arguments), ("c2", "address_character", &json!({"character":"Rin"})));
    h.send(Outbound::ToolResult(ToolResult { id: "c2".into(), turn_id: "t1".into(), result: "ok".into(), images: vec![] }));
    let rest = h.until_end("t1").await;
    assert!(parts(&rest).contains(&ReplyPart::Render {
        source: Some("gpt-test".into()),
        segments: vec![Segment { cues: vec![], speech: "Done!".into() }],
        reasoning: None
    }));
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(reqs[1]["previous_response_id"], "resp_1");
    assert_eq!(
        reqs[1]["input"],
        json!([
            {"type":"function_call_output","call_id":"c1","output":"ok"},
            {"type":"function_call_output","call_id":"c2","output":"ok"}
        ])
    );
    assert_eq!(reqs[1]["instructions"], reqs[0]["instructions"]);
    assert_eq!(reqs[1]["tools"], reqs[0]["tools"]);
}

#[tokio::test]
async fn tool_rounds_stop_at_three_requests() {
    let (fake, base) = Fake::start().await;
    *fake.always.lock().unwrap() = Some(ok(&[call("c1", "address_character", r#"{"character":"Rin"}"#), completed("resp_x")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Turn(turn("t1", "loop")));
    let mut calls = 0;
    loop {
        match h.next().await {
            Inbound::ToolCall(c) => {
                calls += 1;
                h.send(Outbound::ToolResult(ToolResult { id: c.id, turn_id: c.turn_id, result: "ok".into(), images: vec![] }));
            }
            Inbound::Reply { part: ReplyPart::End { .. }, .. } => break,
            _ => {}
        }
    }
    h.quiet(300).await;
    assert_eq!(fake.requests().len(), 3);
    assert_eq!(calls, 3);
    // The capped round's answer rides at the start of the next turn.
    *fake.always.lock().unwrap() = Some(ok(&[text("Enough."), completed("resp_y")]));
    h.turn(turn("t2", "next")).await;
    let reqs = fake.requests();
    assert_eq!(reqs[3]["previous_response_id"], "resp_x");
    assert_eq!(reqs[3]["input"][0], json!({"type":"function_call_output","call_id":"c1","output":"ok"}));
}

/// Every event until `turn_id`'s End (included), Alive kept.
async fn all_until_end(h: &mut Harness, turn_id: &str) -> Vec<Inbound> {
    let mut out = Vec::new();
    loop {
        let ev = h.next().await;
        let end = matches!(&ev, Inbound::Reply { turn_id: t, part: ReplyPart::End { .. } } if t == turn_id);
        out.push(ev);
        if end {
            return out;
        }
    }
}

#[tokio::test]
async fn a_newer_turn_aborts_the_one_in_flight() {
    let (fake, mut h) = thinking_aloud().await;
    // A greeting kept during the turn still comes before the newer turn.
    h.send(Outbound::Greeting { text: "Welcome back!".into() });
    h.send(Outbound::Turn(turn("t2", "again")));
    assert_eq!(h.next().await, Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::Unsaid { text: "Let me think".into() } });
    assert_eq!(h.next().await, Inbound::Reply { turn_id: "t1".into(), part: ReplyPart::End { usage: None } });
    let got = h.until_end("t2").await;
    assert_eq!(
        got,
        vec![
            Inbound::Reply {
                turn_id: "t2".into(),
                part: ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![Segment { cues: vec![], speech: "Next.".into() }], reasoning: None }
            },
            Inbound::Reply { turn_id: "t2".into(), part: ReplyPart::End { usage: Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 }) } },
        ],
        "nothing more of t1"
    );
    h.quiet(300).await;
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 2);
    assert!(reqs[1].get("previous_response_id").is_none(), "not chained to the aborted turn");
    assert_eq!(
        reqs[1]["input"],
        json!([{"role":"assistant","content":"Welcome back!"},{"role":"user","content":user_text("hi")},{"role":"assistant","content":"Let me think"},{"role":"user","content":user_text("again")}]),
        "the aborted turn rides along"
    );
}

#[tokio::test]
async fn completion_and_a_follow_up_request_report_the_long_budget() {
    let (fake, base) = Fake::start().await;
    // The round ends on speech: the client tool was called first, the text
    // (closed by its cue) came after it.
    fake.push(ok(&[
        call("c2", "address_character", r#"{"character":"Rin"}"#),
        text("Telling Rin."),
        call("c1", "generate_express", r#"{"emotion_id":"happy"}"#),
        json!({"type":"response.output_text.done","item_id":"msg_1","text":"Telling Rin."}),
        completed("resp_1"),
    ]));
    fake.push(ok(&[text("Done!"), completed("resp_2")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Turn(turn("t1", "say hi to Rin")));
    let mut got = Vec::new();
    loop {
        let ev = h.next().await;
        let call = matches!(ev, Inbound::ToolCall(_));
        got.push(ev);
        if call {
            break;
        }
    }
    // Everything of round 1 arrives before the result is given.
    while let Ok(Some(ev)) = tokio::time::timeout(Duration::from_millis(300), h.rx.recv()).await {
        got.push(ev);
    }
    h.send(Outbound::ToolResult(ToolResult { id: "c2".into(), turn_id: "t1".into(), result: "ok".into(), images: vec![] }));
    got.extend(all_until_end(&mut h, "t1").await);
    let reply = |part| Inbound::Reply { turn_id: "t1".into(), part };
    let alive = |after_speech| reply(ReplyPart::Alive { after_speech });
    let usage = Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 });
    assert_eq!(
        got,
        vec![
            Inbound::ToolCall(yui_core::transport::ToolCall {
                id: "c2".into(),
                turn_id: "t1".into(),
                name: "address_character".into(),
                arguments: json!({"character":"Rin"})
            }),
            alive(true),
            reply(ReplyPart::Speech { segments: vec![Segment { cues: vec![cue("happy")], speech: "Telling Rin.".into() }] }),
            alive(true),
            alive(false), // response.completed
            alive(false), // the follow-up request is sent
            alive(true),
            alive(false), // response.completed
            reply(ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![Segment { cues: vec![], speech: "Done!".into() }], reasoning: None }),
            reply(ReplyPart::End { usage }),
        ]
    );
    assert_eq!(fake.requests().len(), 2);
}
