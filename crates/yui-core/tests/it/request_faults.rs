//! Faults over both request transports, through a whole session against
//! yui-mock's scripted SSE endpoints: every error row of the transport
//! table, stream liveness (45 s after speech, 240 s otherwise) and stop.

use crate::common;
use common::sse::*;
use common::*;
use serde_json::json;
use std::time::Duration;
use yui_core::context::Outcome;
use yui_core::outcome::OutcomeStore;
use yui_core::transport::request::GENERIC_FAILURE;
use yui_core::{ChatApi, CollectingSink, DataDir, ErrorCode, Session, Timeouts, TurnOutcome, UiEvent, UserCommand};
use yui_mock::openai::{chat, responses as r};
use yui_mock::{HttpScript, MockServer, StreamStep};

const BOTH: [ChatApi; 2] = [ChatApi::Responses, ChatApi::ChatCompletions];
const SECRET: &str = "Incorrect API key provided: sk-secret-1234";

struct Run {
    end: UiEvent,
    sink: CollectingSink,
    mock: MockServer,
    session: Session,
    dir: tempfile::TempDir,
}

/// One turn "hi" against a mock answering `http`, with `timeouts`; waits up to `wait`.
async fn run(api: ChatApi, http: Vec<HttpScript>, timeouts: Timeouts, wait: Duration) -> Run {
    let mock = mock_http(http).await;
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = request_session(api, &mock.base_url(), dir.path(), timeouts, |_| {}).await;
    session.send(UserCommand::SendText { text: "hi".into() }).unwrap();
    let end = sink.wait_for(wait, |e| matches!(e, UiEvent::TurnEnded { .. })).await.expect("turn_ended");
    Run { end, sink, mock, session, dir }
}

async fn one(api: ChatApi, http: Vec<HttpScript>) -> Run {
    run(api, http, fast_timeouts(), WAIT).await
}

fn failed_with(run: &Run) -> Option<String> {
    match &run.end {
        UiEvent::TurnEnded { outcome: TurnOutcome::Failed, error, .. } => error.clone(),
        other => panic!("not failed: {other:?}\n{:#?}", run.sink.events()),
    }
}

fn notices(sink: &CollectingSink, code: ErrorCode) -> usize {
    sink.events().iter().filter(|e| matches!(e, UiEvent::Notice { code: c, .. } if *c == code)).count()
}

fn previous(dir: &std::path::Path) -> Option<yui_core::context::PreviousTurn> {
    OutcomeStore::new(&DataDir::new(dir).unwrap(), "").load()
}

/// A reply that streams `err` after a created/role event.
fn mid_stream(api: ChatApi, err: serde_json::Value) -> HttpScript {
    match api {
        ChatApi::Responses => HttpScript::Events(vec![data(r::created("resp_1")), data(err)]),
        _ => HttpScript::Events(vec![data(chat::chunk_role("cc")), data(err)]),
    }
}

// 8. Every error row.
#[tokio::test]
async fn a_refused_key_fails_with_the_generic_text_and_an_auth_notice_and_no_server_text() {
    for api in BOTH {
        for status in [401u16, 403] {
            let body = json!({"error": {"message": SECRET, "type": "invalid_request_error", "code": "invalid_api_key"}});
            let run = one(api, vec![HttpScript::Error { status, body }]).await;
            assert_eq!(failed_with(&run).as_deref(), Some(GENERIC_FAILURE), "{api:?} {status}");
            assert_eq!(notices(&run.sink, ErrorCode::Auth), 1, "{api:?} {status}: {:#?}", run.sink.events());
            let all = serde_json::to_string(&run.sink.events()).unwrap();
            assert!(!all.contains("sk-secret") && !all.contains("Incorrect API key"), "{api:?} {status}: the server text leaked: {all}");
            assert!(run.sink.events().iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
            assert_eq!(run.mock.requests().len(), 1);
            run.session.close().await;
        }
    }
}

#[tokio::test]
async fn a_429_shows_the_server_message() {
    for api in BOTH {
        let body = json!({"error": {"message": "Rate limit reached. Slow down.", "type": "rate_limit_error", "code": "rate_limit_exceeded"}});
        let run = one(api, vec![HttpScript::Error { status: 429, body }]).await;
        assert_eq!(failed_with(&run).as_deref(), Some("HTTP 429: Rate limit reached. Slow down."), "{api:?}");
        assert_eq!(notices(&run.sink, ErrorCode::Auth), 0);
        run.session.close().await;
    }
}

#[tokio::test]
async fn a_500_raised_mid_stream_shows_its_status_and_message() {
    let run = one(ChatApi::ChatCompletions, vec![mid_stream(ChatApi::ChatCompletions, chat::error_chunk("upstream", json!(500)))]).await;
    assert_eq!(failed_with(&run).as_deref(), Some("HTTP 500: upstream"));
    run.session.close().await;
    let run = one(ChatApi::Responses, vec![mid_stream(ChatApi::Responses, r::error_event("500", "upstream"))]).await;
    assert_eq!(failed_with(&run).as_deref(), Some("HTTP 500: upstream"));
    run.session.close().await;
}

#[tokio::test]
async fn failed_and_incomplete_responses_show_the_generic_text() {
    for ev in [r::failed("resp_1", "The server had an error: secret detail"), r::incomplete("resp_1", "max_output_tokens")] {
        let run = one(ChatApi::Responses, vec![mid_stream(ChatApi::Responses, ev.clone())]).await;
        assert_eq!(failed_with(&run).as_deref(), Some(GENERIC_FAILURE), "{ev}");
        let all = serde_json::to_string(&run.sink.events()).unwrap();
        assert!(!all.contains("secret detail"), "{all}");
        run.session.close().await;
    }
}

#[tokio::test]
async fn a_dropped_body_shows_the_generic_text() {
    for api in BOTH {
        let steps = match api {
            ChatApi::Responses => vec![data(r::created("resp_1")), data(r::text_delta("msg_1", "Hi the")), StreamStep::Drop],
            _ => vec![data(chat::chunk_role("cc")), data(chat::chunk_text("cc", "Hi the")), StreamStep::Drop],
        };
        let run = one(api, vec![HttpScript::Events(steps)]).await;
        assert_eq!(failed_with(&run).as_deref(), Some(GENERIC_FAILURE), "{api:?}");
        run.session.close().await;
    }
}

#[tokio::test]
async fn unknown_events_and_extra_fields_are_ignored() {
    let mut delta = r::text_delta("msg_1", "All good.");
    delta["brand_new_field"] = json!({"nested": [1, 2]});
    let responses = HttpScript::Events(vec![
        data(r::created("resp_1")),
        data(json!({"type": "response.brand_new_event", "whatever": true})),
        StreamStep::Raw(": keepalive\n\n".into()),
        data(delta),
        data(json!({"type": "response.output_text.annotation.added", "item_id": "msg_1", "annotation": {}})),
        data(r::completed("resp_1", json!([]), r::usage(1, 1, 0))),
    ]);
    let mut chunk = chat::chunk_text("cc", "All good.");
    chunk["system_fingerprint"] = json!("fp_x");
    chunk["choices"][0]["delta"]["brand_new"] = json!(1);
    let cc = HttpScript::Events(vec![
        data(chat::chunk_role("cc")),
        data(json!({"object": "something.else", "note": "not a chunk"})),
        StreamStep::Raw(": keepalive\n\n".into()),
        data(chunk),
        data(chat::chunk_finish("cc", "stop")),
        StreamStep::Raw("data: [DONE]\n\n".into()),
    ]);
    for (api, script) in [(ChatApi::Responses, responses), (ChatApi::ChatCompletions, cc)] {
        let run = one(api, vec![script]).await;
        assert!(matches!(run.end, UiEvent::TurnEnded { outcome: TurnOutcome::Complete, .. }), "{api:?}: {:?}", run.end);
        assert_eq!(speeches(&run.sink), ["All good."], "{api:?}");
        run.session.close().await;
    }
}

// 9. Stream liveness under paused time, with the real 45 s / 240 s.
const LONG: Duration = Duration::from_secs(3600);

/// Text, a cue (speech shows), more text, then the stream hangs.
fn speech_then_hang(api: ChatApi) -> HttpScript {
    match api {
        ChatApi::Responses => {
            let mut s = vec![data(r::created("resp_1")), data(r::text_delta("msg_1", "Hello there."))];
            s.extend(r_call(1, "call_1", "generate_express", &[r#"{"emotion_id":"happy"}"#]));
            s.push(data(r::at(r::text_delta("msg_2", " And then"), 2)));
            s.push(StreamStep::Hang);
            HttpScript::Events(s)
        }
        _ => {
            let mut s = vec![data(chat::chunk_role("cc")), data(chat::chunk_text("cc", "Hello there."))];
            s.extend(cc_call(0, "call_1", "generate_express", &[r#"{"emotion_id":"happy"}"#]));
            s.push(data(chat::chunk_text("cc", " And then")));
            s.push(StreamStep::Hang);
            HttpScript::Events(s)
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_stall_after_speech_ends_the_turn_after_45_seconds() {
    for api in BOTH {
        let t0 = tokio::time::Instant::now();
        let run = run(api, vec![speech_then_hang(api)], Timeouts::default(), LONG).await;
        let took = t0.elapsed();
        assert!(took >= Duration::from_secs(45) && took < Duration::from_secs(240), "{api:?}: {took:?}");
        assert_eq!(failed_with(&run).as_deref(), Some("The reply stalled."), "{api:?}");
        assert_eq!(speeches(&run.sink), ["Hello there."], "{api:?}");
        assert_eq!(notices(&run.sink, ErrorCode::Stall), 1, "{api:?}");
        let prev = previous(run.dir.path()).expect("a previous-turn record");
        assert_eq!(prev.outcome, Outcome::Interrupted, "{api:?}: {prev:?}");
        assert_eq!(prev.already_spoken.as_deref(), Some("Hello there."));
        assert_eq!(run.mock.requests().len(), 1);
        run.session.close().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_stall_after_one_unspoken_text_delta_ends_after_45_seconds() {
    for api in BOTH {
        let steps = match api {
            ChatApi::Responses => vec![data(r::created("resp_1")), data(r::text_delta("msg_1", "Hello")), StreamStep::Hang],
            _ => vec![data(chat::chunk_role("cc")), data(chat::chunk_text("cc", "Hello")), StreamStep::Hang],
        };
        let t0 = tokio::time::Instant::now();
        let run = run(api, vec![HttpScript::Events(steps)], Timeouts::default(), LONG).await;
        let took = t0.elapsed();
        assert!(took >= Duration::from_secs(45) && took < Duration::from_secs(240), "{api:?}: {took:?}");
        failed_with(&run);
        assert_eq!(notices(&run.sink, ErrorCode::Stall), 1, "{api:?}");
        // The delta was held for its cue and never spoken (only the failure
        // line is); the stall ends that wait: the record says interrupted,
        // with the held text as never spoken.
        assert!(!speeches(&run.sink).iter().any(|s| s.contains("Hello")), "{:?}", speeches(&run.sink));
        let unsaid = |s: &CollectingSink| {
            s.events().iter().any(|e| matches!(e, UiEvent::Chat { event: yui_core::transport::agent_chat::ChatEvent::Delta { text, .. } } if text == "Hello"))
        };
        run.sink.wait_for(WAIT, |_| unsaid(&run.sink)).await.expect("the held text shows in the chat");
        let prev = previous(run.dir.path()).expect("a record");
        assert_eq!((prev.outcome, prev.never_spoken.as_deref()), (Outcome::Interrupted, Some("Hello")), "{api:?}");
        run.session.close().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_stream_with_no_speech_gets_240_seconds() {
    for api in BOTH {
        let steps = match api {
            ChatApi::Responses => vec![data(r::created("resp_1")), StreamStep::Hang],
            _ => vec![data(chat::chunk_role("cc")), StreamStep::Hang],
        };
        let t0 = tokio::time::Instant::now();
        let run = run(api, vec![HttpScript::Events(steps)], Timeouts::default(), LONG).await;
        let took = t0.elapsed();
        assert!(took >= Duration::from_secs(240) && took < Duration::from_secs(300), "{api:?}: {took:?}");
        assert_eq!(notices(&run.sink, ErrorCode::Stall), 1, "{api:?}");
        assert!(run.sink.events().iter().any(|e| matches!(e, UiEvent::FailureLine { .. })));
        assert_eq!(previous(run.dir.path()).map(|p| p.outcome), Some(Outcome::Failed), "{api:?}");
        run.session.close().await;
    }
}

// 10. Stop mid-stream.
#[tokio::test]
async fn stop_mid_stream_ends_the_turn_and_nothing_more_is_spoken() {
    for api in BOTH {
        let steps = match api {
            ChatApi::Responses => {
                let mut s = vec![data(r::created("resp_1")), data(r::text_delta("msg_1", "First sentence."))];
                s.extend(r_call(1, "call_1", "generate_express", &[r#"{"emotion_id":"happy"}"#]));
                s.push(StreamStep::Sleep(2000));
                s.push(data(r::at(r::text_delta("msg_2", " Second sentence."), 2)));
                s.extend(r_call(3, "call_2", "generate_express", &[r#"{"emotion_id":"sad"}"#]));
                s.push(data(r::completed("resp_1", json!([]), r::usage(1, 1, 0))));
                s
            }
            _ => {
                let mut s = vec![data(chat::chunk_role("cc")), data(chat::chunk_text("cc", "First sentence."))];
                s.extend(cc_call(0, "call_1", "generate_express", &[r#"{"emotion_id":"happy"}"#]));
                // On Chat Completions a call is known complete only when
                // something else follows it: the next text releases the cue.
                s.push(data(chat::chunk_text("cc", " Second")));
                s.push(StreamStep::Sleep(2000));
                s.push(data(chat::chunk_text("cc", " sentence.")));
                s.extend(cc_call(1, "call_2", "generate_express", &[r#"{"emotion_id":"sad"}"#]));
                s.push(data(chat::chunk_finish("cc", "tool_calls")));
                s.push(StreamStep::Raw("data: [DONE]\n\n".into()));
                s
            }
        };
        let mock = mock_http(vec![HttpScript::Events(steps)]).await;
        let dir = tempfile::tempdir().unwrap();
        let (session, sink) = request_session(api, &mock.base_url(), dir.path(), fast_timeouts(), |_| {}).await;
        session.send(UserCommand::SendText { text: "hi".into() }).unwrap();
        sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { .. })).await.expect("first speech");
        session.send(UserCommand::Stop).unwrap();
        let end = sink.wait_for(WAIT, |e| matches!(e, UiEvent::TurnEnded { .. })).await.unwrap();
        assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. }), "{api:?}: {end:?}");
        tokio::time::sleep(Duration::from_millis(2500)).await;
        assert_eq!(speeches(&sink), ["First sentence."], "{api:?}: {:#?}", sink.events());
        let events = sink.events();
        let stop_at = events.iter().position(|e| matches!(e, UiEvent::TurnEnded { .. })).unwrap();
        assert!(
            !events[stop_at..].iter().any(|e| matches!(e, UiEvent::Speech { .. } | UiEvent::Cue { .. } | UiEvent::TurnEnded { .. } if !matches!(e, UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. }))),
            "{api:?}: events after the stop: {:#?}",
            &events[stop_at..]
        );
        assert_eq!(mock.requests().len(), 1, "{api:?}: no further request");
        assert!(session.wait_idle(WAIT).await);
        let prev = previous(dir.path()).expect("record");
        assert_eq!(prev.outcome, Outcome::Interrupted, "{api:?}");
        session.close().await;
    }
}

// 11. What streamed stays: a sentence held for the character that proves it
// complete is shown, recorded and kept when a stop, a stall or an error ends
// the stream, under paused time against the mock.
use yui_core::chat::AnswerState;
use yui_core::transport::agent_chat::ChatEvent;

const HELD: &str = "Before it stopped. ";

/// The stream of a reply that says `HELD` (after `before`, if any), then `tail`.
fn held_then(api: ChatApi, before: Option<&str>, tail: Vec<StreamStep>) -> HttpScript {
    let mut s = match api {
        ChatApi::Responses => vec![data(r::created("resp_1"))],
        _ => vec![data(chat::chunk_role("cc"))],
    };
    for text in before.into_iter().chain([HELD]) {
        s.push(match api {
            ChatApi::Responses => data(r::text_delta("msg_1", text)),
            _ => data(chat::chunk_text("cc", text)),
        });
    }
    s.extend(tail);
    HttpScript::Events(s)
}

/// The second reply, and the text of the request that asked for it.
fn second(api: ChatApi) -> HttpScript {
    match api {
        ChatApi::Responses => r_text("resp_2", "Fine."),
        _ => cc_text("Fine."),
    }
}

/// The assistant answer of the conversation's `n`-th message.
fn answer(session: &Session, n: usize) -> yui_core::chat::Answer {
    session.conversation(None, None).unwrap().messages[n].answers[0].clone()
}

/// Waits until the chat shows `text` as a delta.
async fn chat_shows(sink: &CollectingSink, text: &str) {
    let seen =
        |s: &CollectingSink| s.events().iter().any(|e| matches!(e, UiEvent::Chat { event: ChatEvent::Delta { text: t, .. } } if t.contains(text.trim())));
    sink.wait_for(WAIT, |_| seen(sink)).await.unwrap_or_else(|| panic!("the chat shows {text:?}: {:#?}", sink.events()));
}

/// A second turn, once the first is over; the body of its request, as text
/// (it carries the transcript, or the chain's carried exchange).
async fn next_request(session: &Session, sink: &CollectingSink, mock: &MockServer) -> String {
    assert!(session.wait_idle(WAIT).await);
    session.send(UserCommand::SendText { text: "next".into() }).unwrap();
    nth_ended(sink, 1).await;
    let last = mock.requests().into_iter().rfind(|r| r.path == "/v1/responses" || r.path == "/v1/chat/completions").expect("a request");
    last.body.to_string()
}

#[tokio::test(start_paused = true)]
async fn a_sentence_held_at_a_stop_is_shown_stopped_recorded_never_spoken_and_kept() {
    for api in BOTH {
        let mock = mock_http(vec![held_then(api, Some("Hello. "), vec![StreamStep::Hang]), second(api)]).await;
        let dir = tempfile::tempdir().unwrap();
        let (session, sink) = request_session(api, &mock.base_url(), dir.path(), Timeouts::default(), |_| {}).await;
        session.send(UserCommand::SendText { text: "stop test".into() }).unwrap();
        sink.wait_for(WAIT, |e| matches!(e, UiEvent::Speech { text, .. } if text == "Hello.")).await.expect("the first sentence");
        // Then nothing for seconds: the held sentence waits for its next character.
        tokio::time::sleep(Duration::from_secs(5)).await;
        session.send(UserCommand::Stop).unwrap();
        let end = sink.wait_for(WAIT, |e| matches!(e, UiEvent::TurnEnded { .. })).await.unwrap();
        assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Stopped, .. }), "{api:?}: {end:?}");
        chat_shows(&sink, HELD).await;
        assert_eq!(speeches(&sink), ["Hello."], "{api:?}: a stop means silence now: the held sentence is not spoken");
        let a = answer(&session, 1);
        assert_eq!((a.text.as_str(), a.state), ("Hello. Before it stopped. ", AnswerState::Stopped), "{api:?}");
        let prev = previous(dir.path()).expect("a record");
        assert_eq!(prev.outcome, Outcome::Interrupted, "{api:?}");
        assert_eq!(prev.already_spoken.as_deref(), Some("Hello."), "{api:?}");
        assert_eq!(prev.never_spoken.as_deref(), Some("Before it stopped."), "{api:?}");
        let body = next_request(&session, &sink, &mock).await;
        assert!(body.contains("Hello. Before it stopped. "), "{api:?}: the exchange is kept: {body}");
        assert!(body.contains("never spoken: \\\"Before it stopped.\\\""), "{api:?}: the next block says so: {body}");
        session.close().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_sentence_held_at_a_stall_is_shown_failed_recorded_never_spoken_and_kept() {
    for api in BOTH {
        let mock = mock_http(vec![held_then(api, None, vec![StreamStep::Hang]), second(api)]).await;
        let dir = tempfile::tempdir().unwrap();
        let t0 = tokio::time::Instant::now();
        let (session, sink) = request_session(api, &mock.base_url(), dir.path(), Timeouts::default(), |_| {}).await;
        session.send(UserCommand::SendText { text: "stall test".into() }).unwrap();
        let end = sink.wait_for(LONG, |e| matches!(e, UiEvent::TurnEnded { .. })).await.unwrap();
        assert!(matches!(end, UiEvent::TurnEnded { outcome: TurnOutcome::Failed, .. }), "{api:?}: {end:?}");
        let took = t0.elapsed();
        assert!(took >= Duration::from_secs(45) && took < Duration::from_secs(240), "{api:?}: the 45 s after speech: {took:?}");
        chat_shows(&sink, HELD).await;
        assert!(!speeches(&sink).iter().any(|s| s.contains("Before")), "{api:?}: stale after the stall, not spoken: {:?}", speeches(&sink));
        let a = answer(&session, 1);
        assert_eq!((a.text.as_str(), a.state), (HELD, AnswerState::Failed), "{api:?}");
        assert!(a.error.is_some(), "{api:?}: the error mark");
        let prev = previous(dir.path()).expect("a record");
        assert_eq!(
            (prev.outcome, prev.already_spoken.as_deref(), prev.never_spoken.as_deref()),
            (Outcome::Interrupted, None, Some("Before it stopped.")),
            "{api:?}"
        );
        let body = next_request(&session, &sink, &mock).await;
        assert!(body.contains(HELD), "{api:?}: the exchange is kept: {body}");
        session.close().await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_mid_stream_proxy_error_shows_its_status_and_keeps_the_sentence_before_it() {
    // LiteLLM's proxy writes an upstream failure as `data: {"error": {...}}`
    // with the status as a string in `code`.
    let envelope = json!({"error": {"message": "litellm.InternalServerError: upstream broke", "type": "None", "param": "None", "code": "500"}});
    for api in BOTH {
        let tail = vec![StreamStep::Sleep(3000), StreamStep::Raw(format!("data: {envelope}\n\n"))];
        let mock = mock_http(vec![held_then(api, None, tail), second(api)]).await;
        let dir = tempfile::tempdir().unwrap();
        let (session, sink) = request_session(api, &mock.base_url(), dir.path(), Timeouts::default(), |_| {}).await;
        session.send(UserCommand::SendText { text: "error test".into() }).unwrap();
        let end = sink.wait_for(WAIT, |e| matches!(e, UiEvent::TurnEnded { .. })).await.unwrap();
        let UiEvent::TurnEnded { outcome: TurnOutcome::Failed, error, .. } = &end else { panic!("{api:?}: {end:?}") };
        assert_eq!(error.as_deref(), Some("HTTP 500: litellm.InternalServerError: upstream broke"), "{api:?}");
        chat_shows(&sink, HELD).await;
        assert!(session.wait_idle(WAIT).await);
        // An error is no stop: the complete sentence is spoken, then the failure line.
        // (A thinking filler may come first: the sentence was held three seconds.)
        let said = speeches(&sink);
        let at = said.iter().position(|s| s == "Before it stopped.").unwrap_or_else(|| panic!("{api:?}: {said:?}"));
        assert!(sink.events().iter().any(|e| matches!(e, UiEvent::FailureLine { .. })) && at + 1 < said.len(), "{api:?}: then the failure line: {said:?}");
        let a = answer(&session, 1);
        assert_eq!((a.text.as_str(), a.state), ("Before it stopped.", AnswerState::Failed), "{api:?}");
        assert_eq!(a.error.as_ref().map(|e| e.message.as_str()), Some("HTTP 500: litellm.InternalServerError: upstream broke"));
        let prev = previous(dir.path()).expect("a record");
        assert_eq!((prev.outcome, prev.already_spoken.as_deref()), (Outcome::Interrupted, Some("Before it stopped.")), "{api:?}");
        let body = next_request(&session, &sink, &mock).await;
        assert!(body.contains(HELD), "{api:?}: the exchange is kept: {body}");
        session.close().await;
    }
}
