//! The request and its stream: the exact JSON, chaining and its reset, cue placement, reasoning, usage, unknown events.

use super::*;

#[tokio::test]
async fn the_request_is_exact() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("Hi."), completed("resp_1")]));
    let mut h = Harness::start(config(&base)).await;
    h.turn(turn("t1", "hello")).await;
    let req = &fake.requests()[0];
    let vocab = Vocabulary::default();
    assert_eq!(req["model"], "gpt-test");
    assert_eq!(req["stream"], true);
    assert_eq!(req["instructions"], "You are Yui.");
    assert!(req.get("previous_response_id").is_none());
    assert!(req.get("reasoning").is_none());
    assert_eq!(req["input"], json!([{"role":"user","content":user_text("hello")}]));
    let tools = req["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[0]["type"], "function");
    assert_eq!(tools[0]["name"], "generate_express");
    assert_eq!(tools[0]["strict"], false);
    assert_eq!(tools[0]["parameters"]["properties"]["emotion_id"]["enum"], json!(vocab.emotion_ids));
    assert_eq!(tools[0]["parameters"]["properties"]["motion_id"]["enum"], json!(vocab.motion_ids));
    assert_eq!(tools[0]["parameters"]["additionalProperties"], false);
    assert_eq!(
        tools[1],
        json!({"type":"function","name":"address_character","description":"Speak to another open character","parameters":{"type":"object","properties":{"character":{"type":"string"}},"required":["character"]},"strict":false})
    );

    // Post-history, images and reasoning effort.
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("Hi."), completed("resp_1")]));
    let mut cfg = config(&base);
    cfg.post_history = Some("Keep every reply under two sentences.".into());
    cfg.reasoning_effort = Some("low".into());
    let mut h = Harness::start(cfg).await;
    let mut t = turn("t1", "look");
    // Small encoded pictures ride as they are.
    let pic = |u: &str| yui_core::transport::request::from_data_url(u).unwrap();
    t.images = vec![pic("data:image/jpeg;base64,AAAA"), pic("data:image/png;base64,BBBB")];
    h.turn(t).await;
    let req = &fake.requests()[0];
    assert_eq!(req["reasoning"], json!({"effort":"low"}));
    assert_eq!(
        req["input"],
        json!([{"role":"user","content":[
            {"type":"input_text","text":format!("<post_history_instructions>\nKeep every reply under two sentences.\n</post_history_instructions>\n{}", user_text("look"))},
            {"type":"input_image","image_url":"data:image/jpeg;base64,AAAA"},
            {"type":"input_image","image_url":"data:image/png;base64,BBBB"}
        ]}])
    );
}

#[tokio::test]
async fn cues_land_where_their_calls_arrive() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&seed_stream()));
    let mut h = Harness::start(config(&base)).await;
    let got = parts(&h.turn(turn("t1", "hi")).await);
    let happy = Cue { emotion_id: Some("happy".into()), motion_id: Some("dance".into()), emotion_text: Some("🤭".into()), caption: None };
    let curious = Cue { emotion_id: Some("curious".into()), motion_id: Some("calm".into()), emotion_text: Some("😏".into()), caption: None };
    assert_eq!(
        got,
        vec![
            ReplyPart::Speech { segments: vec![Segment { cues: vec![happy], speech: "Hello User!".into() }] },
            ReplyPart::Speech { segments: vec![Segment { cues: vec![curious], speech: " How was your day?".into() }] },
            ReplyPart::End { usage: None },
        ]
    );
    assert_eq!(fake.requests().len(), 1, "generate_express answers need no request of their own");
}

#[tokio::test]
async fn turns_chain_and_reset_starts_fresh_with_greetings() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[
        text("A."),
        call("c1", "generate_express", r#"{"emotion_id":"happy"}"#),
        text("B."),
        call("c2", "generate_express", "{}"),
        completed("resp_1"),
    ]));
    fake.push(ok(&[text("Again."), completed("resp_2")]));
    fake.push(ok(&[text("Fresh."), completed("resp_3")]));
    let mut h = Harness::start(config(&base)).await;
    let first = h.turn(turn("t1", "one")).await;
    assert_eq!(
        parts(&first),
        vec![
            ReplyPart::Speech { segments: vec![Segment { cues: vec![cue("happy")], speech: "A.".into() }] },
            ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![Segment { cues: vec![], speech: "B.".into() }], reasoning: None },
            ReplyPart::End { usage: Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 }) },
        ]
    );
    h.turn(turn("t2", "two")).await;
    h.send(Outbound::Reset);
    h.send(Outbound::Greeting { text: "Welcome back!".into() });
    h.send(Outbound::Greeting { text: "Shall we?".into() });
    h.turn(turn("t3", "three")).await;
    let reqs = fake.requests();
    assert_eq!(reqs[1]["previous_response_id"], "resp_1");
    assert_eq!(
        reqs[1]["input"],
        json!([
            {"type":"function_call_output","call_id":"c1","output":"ok"},
            {"type":"function_call_output","call_id":"c2","output":"error: empty cue"},
            {"role":"user","content":user_text("two")}
        ])
    );
    assert!(reqs[2].get("previous_response_id").is_none(), "a reset clears the chain");
    assert_eq!(
        reqs[2]["input"],
        json!([
            {"role":"assistant","content":"Welcome back!"},
            {"role":"assistant","content":"Shall we?"},
            {"role":"user","content":user_text("three")}
        ])
    );
}

#[tokio::test]
async fn a_lost_chain_restarts_fresh_once() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[text("One."), completed("resp_1")]));
    fake.push(http(404, r#"{"error":{"message":"Previous response with id 'resp_1' not found.","code":"previous_response_not_found"}}"#));
    fake.push(ok(&[text("Two."), completed("resp_2")]));
    let mut h = Harness::start(config(&base)).await;
    h.send(Outbound::Greeting { text: "Hi there!".into() });
    h.turn(turn("t1", "one")).await;
    let got = h.turn(turn("t2", "two")).await;
    assert!(
        got.contains(&Inbound::Notice {
            code: ErrorCode::ContextReset,
            message: CONTEXT_RESET_NOTICE.into(),
            phrase: Some(yui_core::event::Phrase::new("notice-context-reset")),
        }),
        "{got:?}"
    );
    assert!(parts(&got).contains(&ReplyPart::Render {
        source: Some("gpt-test".into()),
        segments: vec![Segment { cues: vec![], speech: "Two.".into() }],
        reasoning: None
    }));
    assert!(!parts(&got).iter().any(|p| matches!(p, ReplyPart::Error { .. })));
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[1]["previous_response_id"], "resp_1");
    assert!(reqs[2].get("previous_response_id").is_none());
    assert_eq!(reqs[2]["input"], json!([{"role":"assistant","content":"Hi there!"},{"role":"user","content":user_text("two")}]));

    // A 404 on a fresh chain is an ordinary HTTP error.
    let (fake, base) = Fake::start().await;
    fake.push(http(404, r#"{"error":{"message":"no such model"}}"#));
    let mut h = Harness::start(config(&base)).await;
    let got = h.turn(turn("t1", "one")).await;
    assert_eq!(parts(&got), vec![ReplyPart::Error { message: "HTTP 404: no such model".into() }, ReplyPart::End { usage: None }]);
    assert_eq!(fake.requests().len(), 1);
}

#[tokio::test]
async fn streamed_arguments_reasoning_tools_and_usage() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[
        json!({"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"The user "}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"says hi."}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":1,"delta":"Greet back."}),
        json!({"type":"response.output_item.added","output_index":1,"item":{"id":"ws_1","type":"web_search_call","status":"in_progress"}}),
        json!({"type":"response.output_item.done","output_index":1,"item":{"id":"ws_1","type":"web_search_call","status":"completed"}}),
        text("Hey!"),
        json!({"type":"response.output_item.added","output_index":2,"item":{"id":"fc_9","type":"function_call","name":"generate_express","call_id":"c9","arguments":""}}),
        json!({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":2,"delta":"{\"emo"}),
        json!({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":2,"delta":"tion_id\":"}),
        json!({"type":"response.function_call_arguments.delta","item_id":"fc_9","output_index":2,"delta":"\"happy\"}"}),
        json!({"type":"response.function_call_arguments.done","item_id":"fc_9","output_index":2,"arguments":"{\"emotion_id\":\"happy\"}"}),
        json!({"type":"response.output_item.done","output_index":2,"item":{"id":"fc_9","type":"function_call","name":"generate_express","call_id":"c9","arguments":""}}),
        json!({"type":"response.completed","response":{"id":"resp_1","status":"completed","usage":{"input_tokens":1234,"output_tokens":56,"total_tokens":1290,"output_tokens_details":{"reasoning_tokens":12}}}}),
    ]));
    let mut h = Harness::start(config(&base)).await;
    let got = h.turn(turn("t1", "hi")).await;
    assert_eq!(
        parts(&got),
        vec![
            ReplyPart::Reasoning { delta: "The user ".into() },
            ReplyPart::Reasoning { delta: "says hi.".into() },
            ReplyPart::Reasoning { delta: "\n\nGreet back.".into() },
            ReplyPart::ToolStatus { state: ToolState::Running, tool_id: "web_search".into() },
            ReplyPart::ToolStatus { state: ToolState::Done, tool_id: "web_search".into() },
            ReplyPart::Speech { segments: vec![Segment { cues: vec![cue("happy")], speech: "Hey!".into() }] },
            ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![], reasoning: Some("The user says hi.\n\nGreet back.".into()) },
            ReplyPart::End { usage: Some(Usage { input_tokens: 1234, output_tokens: 56, total_tokens: 1290 }) },
        ]
    );
}

#[tokio::test]
async fn unknown_events_and_extra_fields_are_ignored() {
    let (fake, base) = Fake::start().await;
    fake.push(ok(&[
        json!({"type":"response.created","response":{"id":"r","object":"response","model":"x","tools":[]},"sequence_number":0}),
        json!({"type":"response.in_progress","response":{"id":"r"},"sequence_number":1}),
        json!({"type":"response.future_thing.delta","whatever":[1,2,3]}),
        json!({"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}),
        json!({"type":"response.content_part.added","item_id":"msg_1","part":{"type":"output_text","text":""}}),
        json!({"type":"response.output_text.delta","item_id":"msg_1","delta":"Fine.","logprobs":[],"obfuscation":"xyz"}),
        json!({"type":"response.output_text.done","item_id":"msg_1","text":"Fine."}),
        json!({"type":"response.content_part.done","item_id":"msg_1","part":{"type":"output_text","text":"Fine."}}),
        json!({"type":"response.output_item.done","output_index":0,"item":{"id":"msg_1","type":"message","status":"completed"}}),
        json!({"type":"keepalive"}),
        completed("resp_1"),
    ]));
    let mut h = Harness::start(config(&base)).await;
    let got = h.turn(turn("t1", "hi")).await;
    assert_eq!(
        parts(&got),
        vec![
            ReplyPart::Render { source: Some("gpt-test".into()), segments: vec![Segment { cues: vec![], speech: "Fine.".into() }], reasoning: None },
            ReplyPart::End { usage: Some(Usage { input_tokens: 100, output_tokens: 20, total_tokens: 120 }) },
        ]
    );
}
