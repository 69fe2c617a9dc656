//! `POST /v1/responses` and `POST /v1/chat/completions`: every request is
//! recorded first ([`RecordedRequest`]), then the key is checked (401 JSON),
//! then the scenario's `"http"` script answers (see [`crate::script`]) or,
//! without one, the demo agent (`yui_demo::http`).

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use yui_demo::http::{chat_reply, check_bearer, parse_body, responses_reply};

use crate::script::{pick, substitute, HttpScript, StreamStep};
use crate::server::Shared;
use crate::Mode;

/// One request a client sent to an SSE endpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    /// The path: `/v1/responses`, `/v1/chat/completions`, `/v1/audio/…`,
    /// `/chat`, `/approve/{aid}` or `/cancel`.
    pub path: String,
    /// The JSON body (a body that is not JSON is kept as a JSON string).
    pub body: Value,
    /// The `Authorization` header as sent, e.g. `Bearer sk-…`.
    pub authorization: Option<String>,
}

/// Which endpoint a request came to.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Api {
    Responses,
    Chat,
}

impl Api {
    fn path(self) -> &'static str {
        match self {
            Api::Responses => "/v1/responses",
            Api::Chat => "/v1/chat/completions",
        }
    }
}

/// Axum handler for `POST /v1/responses`.
pub(crate) async fn responses(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    answer(&shared, Api::Responses, &headers, &body)
}

/// Axum handler for `POST /v1/chat/completions`.
pub(crate) async fn chat_completions(State(shared): State<Arc<Shared>>, headers: HeaderMap, body: Bytes) -> Response {
    answer(&shared, Api::Chat, &headers, &body)
}

fn answer(shared: &Shared, api: Api, headers: &HeaderMap, body: &[u8]) -> Response {
    let authorization = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_string);
    let parsed = parse_body(body);
    let recorded = RecordedRequest {
        path: api.path().to_string(),
        body: parsed.clone().unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned())),
        authorization,
    };
    let n = shared.record_request(recorded);
    tracing::info!(event = "http_request", path = api.path(), n);
    let pace = shared.config.pace;
    let cancel = shared.cancel.clone();
    if let Err(denied) = check_bearer(shared.config.key.as_deref(), headers) {
        return denied.into_response(pace, cancel);
    }
    if let Mode::Scenario(scenario) = &shared.config.mode {
        if let Some(script) = pick(&scenario.http, scenario.http_default.as_ref(), n) {
            return scripted(script, api, n, cancel);
        }
    }
    let reply = match parsed {
        Err(bad) => bad,
        Ok(req) => {
            let now = yui_demo::local_time_hhmm();
            match api {
                Api::Responses => responses_reply(&req, &shared.ids, &now),
                Api::Chat => chat_reply(&req, &shared.ids, &now),
            }
        }
    };
    reply.into_response(pace, cancel)
}

/// What the body stream does next.
enum Chunk {
    Text(String),
    Sleep(u64),
    Drop,
    Hang,
}

fn scripted(script: &HttpScript, api: Api, n: usize, cancel: CancellationToken) -> Response {
    let steps = match script {
        HttpScript::Error { status, body } => {
            let status = StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            return match substitute(body, n) {
                Value::String(text) => (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response(),
                body => (status, axum::Json(body)).into_response(),
            };
        }
        HttpScript::Events(steps) => steps,
    };
    let mut seq = 0u64;
    let chunks: Vec<Chunk> = steps
        .iter()
        .map(|step| match step {
            StreamStep::Data(data) => {
                let mut data = substitute(data, n);
                if api == Api::Responses {
                    if let Some(obj) = data.as_object_mut() {
                        obj.entry("sequence_number").or_insert(json!(seq));
                    }
                    seq += 1;
                    match data.get("type").and_then(Value::as_str) {
                        Some(kind) => Chunk::Text(format!("event: {kind}\ndata: {data}\n\n")),
                        None => Chunk::Text(format!("data: {data}\n\n")),
                    }
                } else {
                    Chunk::Text(format!("data: {data}\n\n"))
                }
            }
            StreamStep::Raw(text) => Chunk::Text(crate::script::substitute_str(text, n)),
            StreamStep::Sleep(ms) => Chunk::Sleep(*ms),
            StreamStep::Drop => Chunk::Drop,
            StreamStep::Hang => Chunk::Hang,
        })
        .collect();
    let stream = futures_util::stream::unfold(Some(chunks.into_iter()), move |it| {
        let cancel = cancel.clone();
        async move {
            let mut it = it?;
            loop {
                match it.next()? {
                    Chunk::Text(text) => return Some((Ok(Bytes::from(text)), Some(it))),
                    Chunk::Sleep(ms) => {
                        tokio::select! {
                            _ = cancel.cancelled() => return None,
                            _ = tokio::time::sleep(Duration::from_millis(ms)) => {}
                        }
                    }
                    Chunk::Drop => {
                        // Let what was sent so far reach the socket first:
                        // hyper flushes while the body is pending.
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        tracing::info!(event = "http_drop", n);
                        return Some((Err(std::io::Error::other("yui-mock drop")), None));
                    }
                    Chunk::Hang => {
                        tracing::info!(event = "http_hang", n);
                        cancel.cancelled().await;
                        return Some((Err(std::io::Error::other("yui-mock stopped")), None));
                    }
                }
            }
        }
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "text/event-stream")
        .header(header::CACHE_CONTROL, "no-cache")
        .body(Body::from_stream(stream))
        .expect("static response parts")
}

/// The model `GET /v1/models` lists: the one the tests' settings name.
pub const MOCK_MODEL: &str = "yui-mock";

/// Axum handler for `GET /v1/models`, answered as LiteLLM's proxy answers
/// it (`docs/discover.md`): after the same key check as the SSE endpoints,
/// an OpenAI list whose models are `owned_by` `"openai"` with LiteLLM's
/// fixed `created`. Not recorded: it starts no turn.
pub(crate) async fn models(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    if let Err(denied) = check_bearer(shared.config.key.as_deref(), &headers) {
        return denied.into_response(shared.config.pace, shared.cancel.clone());
    }
    let list = json!({"data": [{"id": MOCK_MODEL, "object": "model", "created": 1_677_610_602, "owned_by": "openai"}], "object": "list"});
    axum::Json(list).into_response()
}
