//! The request a turn makes and what the reply gives: the layout, the prefix and persistence, cues, reasoning and usage, liveness, trimming with the guide, a reset and a greeting.

use super::*;

#[tokio::test]
async fn layout_prefix_and_persistence() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |c| c.post_history = Some("POST".into())).await;
    h.script(text_reply("Hello!"));
    h.turn("t1", "hi");
    assert_eq!(h.until_end().await, vec![reply("t1", speech(None, "Hello!")), reply("t1", end(Some((10, 2))))]);
    h.script(text_reply("Again!"));
    h.turn("t2", "again");
    h.until_end().await;
    let b = h.bodies();
    assert_eq!(b[0]["model"], "m");
    assert_eq!(b[0]["stream"], true);
    assert_eq!(b[0]["stream_options"], json!({"include_usage": true}));
    assert!(b[0].get("reasoning_effort").is_none());
    assert_eq!(b[0]["tools"][0]["function"]["name"], "generate_express");
    assert_eq!(b[0]["tools"][1]["function"]["name"], "address_character");
    assert_eq!(b[0]["messages"], json!([sys("CARD"), sys("POST"), ctx("t1"), user("hi")]));
    assert_eq!(b[1]["messages"], json!([sys("CARD"), user("hi"), said("Hello!"), sys("POST"), ctx("t2"), user("again")]));
    // The prefix: request 2 starts with request 1's system message and transcript (none), then turn 1's entries.
    assert_eq!(b[1]["messages"][0], b[0]["messages"][0]);

    // A new task reloads the transcript; without post-history the context follows the transcript.
    let mut h = h.restart().await;
    h.cfg.post_history = None;
    let mut h = h.restart().await;
    h.script(text_reply("Back."));
    h.turn("t3", "back");
    h.until_end().await;
    let b = h.bodies();
    let m3 = b[2]["messages"].as_array().unwrap().clone();
    assert_eq!(m3, vec![sys("CARD"), user("hi"), said("Hello!"), user("again"), said("Again!"), ctx("t3"), user("back")]);
    assert_eq!(&m3[..3], &b[1]["messages"].as_array().unwrap()[..3], "identical prefix turn to turn");
}

#[tokio::test]
async fn cues_reasoning_usage_and_unknown_fields() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |c| c.reasoning_effort = Some("low".into())).await;
    let body = [
        chunk(json!({"role":"assistant","content":null,"reasoning_content":"thinking"})),
        chunk(json!({"reasoning":" more"})),
        chunk(json!({"content":"Hello ","x_unknown":{"a":1}})),
        chunk(json!({"content":"User!"})),
        call(0, Some("call_a"), Some("generate_express"), ""),
        call(0, None, None, "{\"emot"),
        call(0, None, None, "ion_id\":\"ha"),
        call(0, None, None, "ppy\"}"),
        chunk(json!({"content":" How was"})),
        chunk(json!({"content":" your day?"})),
        call(1, Some("call_b"), Some("generate_express"), "{\"motion_id\":\"wave\"}"),
        chunk(json!({"content":" Bye."})),
        finish("stop"),
        "data: {not json\n\n".to_string(),
        usage(40, 9),
        DONE.to_string(),
    ]
    .concat();
    h.script(Answer::Sse(body));
    h.turn("t1", "hi");
    let wave = Cue { motion_id: Some("wave".into()), ..Cue::default() };
    assert_eq!(
        h.until_end().await,
        vec![
            reply("t1", ReplyPart::Reasoning { delta: "thinking".into() }),
            reply("t1", ReplyPart::Reasoning { delta: " more".into() }),
            reply("t1", speech(Some(happy()), "Hello User!")),
            reply("t1", speech(Some(wave), " How was your day?")),
            reply("t1", speech(None, " Bye.")),
            reply("t1", end(Some((40, 9)))),
        ]
    );
    assert_eq!(h.bodies()[0]["reasoning_effort"], "low");
    // generate_express alone: no follow-up; the transcript keeps the calls and their answers.
    h.script(text_reply("ok"));
    h.turn("t2", "next");
    h.until_end().await;
    let m = h.bodies()[1]["messages"].clone();
    assert_eq!(m[2]["role"], "assistant");
    assert_eq!(m[2]["content"], "Hello User! How was your day? Bye.");
    assert_eq!(m[2]["tool_calls"][0], json!({"id":"call_a","type":"function","function":{"name":"generate_express","arguments":"{\"emotion_id\":\"happy\"}"}}));
    assert_eq!(m[3], json!({"role":"tool","tool_call_id":"call_a","content":"ok"}));
    assert_eq!(m[4], json!({"role":"tool","tool_call_id":"call_b","content":"ok"}));
    assert_eq!(h.bodies().len(), 2);
}

#[tokio::test]
async fn every_event_keeps_the_turn_alive() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(Answer::Sse(
        [chunk(json!({"role":"assistant"})), chunk(json!({"content":"Hi"})), "data: {bad\n\n".into(), finish("stop"), usage(1, 1), DONE.into()].concat(),
    ));
    h.turn("t1", "hi");
    let mut all = Vec::new();
    loop {
        let ev = h.rx.recv().await.unwrap();
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
            reply("t1", ReplyPart::Alive { after_speech: false }),
            reply("t1", speech(None, "Hi")),
            reply("t1", end(Some((1, 1)))),
        ]
    );
}

#[tokio::test]
async fn trimming_holds_a_cursor_and_the_guide_leaves_with_its_entry() {
    let dir = tempfile::tempdir().unwrap();
    // Window 1200 with a 1666-byte guide: reserve 300; fixed ≈ 6 + 23 + 5 = 34
    // → budget ≈ 866 tokens. The window grows with the guide (a byte is a
    // quarter token, three quarters of the window are budget) so the budget
    // left beside the guide stays the same.
    let window = 1200 + (yui_core::context::CONTROLS_GUIDE.len() as u32).saturating_sub(1666) / 3;
    let mut h = Harness::start(dir.path(), |c| c.context_window = window).await;
    let long = "y".repeat(1200); // 300 + 4 tokens
    let mut help = turn("g", "help");
    help.guide = Some(GuideKey::Controls);
    h.script(text_reply(&long));
    h.send(Outbound::Turn(help));
    h.until_end().await;
    let first = h.bodies()[0]["messages"].clone();
    assert_eq!(first.as_array().unwrap().len(), 3, "the guide rides in the turn's own block, not a replay");
    let short = "z".repeat(400); // 100 + 4 tokens
    for i in 1..=4 {
        h.script(text_reply(&short));
        h.turn(&format!("t{i}"), &format!("u{i}"));
        h.until_end().await;
    }
    let b = h.bodies();
    let msgs = |i: usize| b[i]["messages"].as_array().unwrap().clone();
    // Request 2 replays the guide right before its user entry.
    let m1 = msgs(1);
    assert!(m1[1]["content"].as_str().unwrap().starts_with(&format!("client_context:\nguide:\n{GUIDE_INSTRUCTION}\n\n")), "{}", m1[1]);
    assert_eq!(m1[2], user("help"));
    let guided = |m: &Vec<Value>| m.iter().any(|x| x["content"].as_str().is_some_and(|s| s.contains(GUIDE_INSTRUCTION)));
    let has_help = |m: &Vec<Value>| m.contains(&user("help"));
    for i in 1..b.len() {
        let m = msgs(i);
        assert_eq!(guided(&m), has_help(&m), "the guide and its entry leave together (request {i})");
        assert_ne!(m[1]["role"], "tool");
        assert_eq!(m[0], sys("CARD"));
    }
    assert!(!has_help(&msgs(4)), "the oldest entries left");
    // Request 3 overflowed and moved the cursor past the guided entry (to the
    // reply after it: never a tool entry); requests 4 and 5 hold it.
    let (m2, m3, m4) = (msgs(2), msgs(3), msgs(4));
    assert!(!has_help(&m2) && m2[1]["role"] == "assistant", "the guided entry left first, with its guide");
    let prefix = m2.len() - 2; // card + transcript of request 3
    assert_eq!(&m3[..prefix], &m2[..prefix], "requests 3 and 4 share a prefix");
    assert_eq!(m3[prefix], user("u2"));
    let prefix = m3.len() - 2;
    assert_eq!(&m4[..prefix], &m3[..prefix], "requests 4 and 5 share a prefix");
}

#[tokio::test]
async fn reset_writes_a_boundary_and_a_greeting_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = Harness::start(dir.path(), |_| {}).await;
    h.script(text_reply("before"));
    h.turn("t1", "old");
    h.until_end().await;
    h.send(Outbound::Reset);
    h.send(Outbound::Greeting { text: "Hi, I'm Yui!".into() });
    h.script(text_reply("after"));
    h.turn("t2", "new");
    h.until_end().await;
    assert_eq!(h.bodies()[1]["messages"], json!([sys("CARD"), said("Hi, I'm Yui!"), ctx("t2"), user("new")]));
    yui_core::persist::Writer::global().flush();
    let text = std::fs::read_to_string(dir.path().join("yui.jsonl")).unwrap();
    assert!(text.lines().any(|l| l == r#"{"role":"boundary"}"#));
    let mut h = h.restart().await;
    h.turn("t3", "x");
    h.until_end().await;
    assert_eq!(h.bodies()[2]["messages"][1], said("Hi, I'm Yui!"));
}
