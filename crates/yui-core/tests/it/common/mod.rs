//! Shared test setup: a mock backend on 127.0.0.1:0 and a session on a temp data dir.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;
use yui_core::{CollectingSink, DataDir, Session, SessionConfig, Settings, Timeouts, UiEvent};
use yui_mock::{MockConfig, MockServer, Mode, Scenario};

pub const WAIT: Duration = Duration::from_secs(10);

pub async fn mock_scenario(json: &str) -> MockServer {
    let scenario = Scenario::from_json(json).expect("scenario");
    MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..MockConfig::default() }).await.expect("mock")
}

pub async fn mock_demo(key: Option<&str>) -> MockServer {
    MockServer::start(MockConfig { key: key.map(str::to_string), pace: 0.0, ..MockConfig::default() }).await.expect("mock")
}

pub fn fast_timeouts() -> Timeouts {
    Timeouts {
        hello_reply_wait: Duration::from_secs(2),
        frame_wait: Duration::from_secs(5),
        reconnect_first: Duration::from_millis(50),
        reconnect_cap: Duration::from_millis(400),
        ..Timeouts::default()
    }
}

pub fn start(base_url: &str, key: &str, dir: &std::path::Path, timeouts: Timeouts) -> (Session, CollectingSink) {
    let settings = Settings::from(yui_core::settings::CharacterSettings { chat_base_url: base_url.to_string(), key: key.into(), ..Default::default() });
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir).unwrap());
    cfg.timeouts = timeouts;
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    (session, sink)
}

pub async fn ended(sink: &CollectingSink) -> UiEvent {
    sink.wait_for(WAIT, |e| matches!(e, UiEvent::TurnEnded { .. })).await.expect("turn_ended")
}

pub fn speeches(sink: &CollectingSink) -> Vec<String> {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::Speech { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

/// A session with key "k" on a fresh data dir against `mock`, once it is ready.
/// The data dir lives as long as the returned `TempDir`.
pub async fn ready_session(mock: &MockServer) -> (Session, CollectingSink, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (session, sink) = start(&mock.base_url(), "k", dir.path(), fast_timeouts());
    assert!(session.wait_ready(WAIT).await, "no ready from the mock");
    (session, sink, dir)
}

// ---- Scripted-HTTP sessions (request_mock.rs, request_faults.rs) ----

/// A mock whose SSE endpoints answer `http` in order (past the end: the last entry again).
pub async fn mock_http(http: Vec<yui_mock::HttpScript>) -> MockServer {
    let scenario = Scenario { http, ..Scenario::default() };
    MockServer::start(MockConfig { mode: Mode::Scenario(scenario), pace: 0.0, ..MockConfig::default() }).await.expect("mock")
}

/// A session over a request transport (`api`) with key "k" and model "m" against
/// `base`; `tweak` edits the settings first. Ready at once (stateless).
pub async fn request_session(
    api: yui_core::ChatApi,
    base: &str,
    dir: &std::path::Path,
    timeouts: Timeouts,
    tweak: impl FnOnce(&mut Settings),
) -> (Session, CollectingSink) {
    let mut settings = backend(api, base);
    tweak(&mut settings);
    let mut cfg = SessionConfig::new(settings, DataDir::new(dir).unwrap());
    cfg.timeouts = timeouts;
    let sink = CollectingSink::new();
    let session = Session::start(cfg, Arc::new(sink.clone())).expect("session");
    assert!(session.wait_ready(WAIT).await, "a request transport is ready at once");
    (session, sink)
}

/// The n-th (from 0) TurnEnded event, waiting for it.
pub async fn nth_ended(sink: &CollectingSink, n: usize) -> UiEvent {
    let count = |s: &CollectingSink| s.events().into_iter().filter(|e| matches!(e, UiEvent::TurnEnded { .. })).count();
    sink.wait_for(WAIT, |_| count(sink) > n).await.expect("turn_ended");
    sink.events().into_iter().filter(|e| matches!(e, UiEvent::TurnEnded { .. })).nth(n).unwrap()
}

/// Scripted OpenAI streams for the request transports.
pub mod sse {
    use serde_json::{json, Value};
    use yui_mock::openai::{chat, responses as r};
    use yui_mock::{HttpScript, StreamStep};

    pub fn data(v: Value) -> StreamStep {
        StreamStep::Data(v)
    }

    /// Responses: a generate_express call `call_id` (item `fc_<call_id>`) at
    /// `index`, its arguments streamed in `pieces`.
    pub fn r_call(index: usize, call_id: &str, name: &str, pieces: &[&str]) -> Vec<StreamStep> {
        let item = format!("fc_{call_id}");
        let whole: String = pieces.concat();
        let mut out = vec![data(r::function_call_added(index, &item, call_id, name, ""))];
        out.extend(pieces.iter().map(|p| data(r::function_call_arguments_delta(index, &item, p))));
        out.push(data(r::function_call_arguments_done(index, &item, &whole)));
        out.push(data(r::function_call_done(index, &item, call_id, name, &whole)));
        out
    }

    /// Responses: `steps` between `response.created` and `response.completed` of `id`.
    pub fn r_wrap(id: &str, steps: Vec<StreamStep>) -> HttpScript {
        let mut out = vec![data(r::created(id)), data(r::in_progress(id))];
        out.extend(steps);
        out.push(data(r::completed(id, json!([]), r::usage(10, 5, 0))));
        HttpScript::Events(out)
    }

    /// Responses: a plain text reply completed as `id`.
    pub fn r_text(id: &str, text: &str) -> HttpScript {
        r_wrap(id, vec![data(r::text_delta("msg_1", text)), data(r::output_text_done("msg_1", text))])
    }

    /// Chat Completions: a call `call_id` at `index`, arguments in `pieces`.
    pub fn cc_call(index: usize, call_id: &str, name: &str, pieces: &[&str]) -> Vec<StreamStep> {
        let mut out = vec![data(chat::chunk_tool_call("cc", index, Some(call_id), Some(name), ""))];
        out.extend(pieces.iter().map(|p| data(chat::chunk_tool_call("cc", index, None, None, p))));
        out
    }

    /// Chat Completions: role, `steps`, finish `reason`, usage, `[DONE]`.
    pub fn cc_wrap(steps: Vec<StreamStep>, reason: &str) -> HttpScript {
        let mut out = vec![data(chat::chunk_role("cc"))];
        out.extend(steps);
        out.push(data(chat::chunk_finish("cc", reason)));
        out.push(data(chat::chunk_usage("cc", 10, 5, 15)));
        out.push(StreamStep::Raw("data: [DONE]\n\n".into()));
        HttpScript::Events(out)
    }

    /// Chat Completions: a plain text reply.
    pub fn cc_text(text: &str) -> HttpScript {
        cc_wrap(vec![data(chat::chunk_text("cc", text))], "stop")
    }
}

/// Every client_context block the session sent so far, in order.
pub fn blocks(sink: &CollectingSink) -> Vec<String> {
    sink.events()
        .into_iter()
        .filter_map(|e| match e {
            UiEvent::ContextSent { block, .. } => Some(block),
            _ => None,
        })
        .collect()
}

/// Settings for a character on `chat_api` at `base_url`, with the key `k`
/// and the model `m` the tests' backends expect; the rest as default.
pub fn backend(chat_api: yui_core::ChatApi, base_url: impl Into<String>) -> yui_core::Settings {
    yui_core::Settings::from(yui_core::settings::CharacterSettings {
        chat_api,
        chat_base_url: base_url.into(),
        key: "k".into(),
        model: "m".into(),
        ..Default::default()
    })
}
