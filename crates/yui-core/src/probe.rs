//! The connection test behind the settings window's "Test connection"
//! button: one small real request with the settings as they stand (saved or
//! not), and what it found, for a person to read.
//!
//! - `responses`: `POST /v1/responses` asking for a few tokens, not streamed;
//! - `chat_completions`: `POST /v1/chat/completions`, the same;
//! - `push`: open `<base>/ws`, send `hello`, wait for `ready` or a 4401 close.
//!
//! The key goes on the wire and nowhere else: every detail line is scrubbed
//! of it.

use crate::limits::HELLO_REPLY_WAIT;
use crate::settings::{push_url, ChatApi, Settings};
use crate::transport::{
    endpoint,
    push::frames::{ClientFrame, ServerFrame, WireVocabulary},
    sse,
};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::tungstenite::{self, Message};
use ts_rs::TS;

/// How long the whole test may take.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(15);

/// The longest server text kept in a detail line, in characters.
const DETAIL_CHARS: usize = 300;

/// What the connection test found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ProbeReport {
    /// The backend answered at all.
    pub reachable: bool,
    /// The key was accepted (`true`), refused (`false`), or it could not be
    /// told (`null`).
    pub auth_ok: Option<bool>,
    /// The model answered (`true`), the backend said it cannot (`false`), or
    /// it could not be told or does not apply (`null`, e.g. on push).
    pub model_ok: Option<bool>,
    /// One line for a person; never contains the key.
    pub detail: String,
    /// Which step failed, when one did and it can be told (`docs/discover.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub problem: Option<ProbeProblem>,
}

/// Which step of a connection test failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ProbeProblem {
    /// Nothing answered at the base URL.
    Unreachable,
    /// The server refused the key.
    KeyRefused,
    /// The key passed, but the model does not answer there.
    ModelMissing,
    /// Something answered, but not the chat API picked (no such endpoint).
    WrongProtocol,
}

impl ProbeProblem {
    /// The step a report says failed, if it says one.
    fn of(report: &ProbeReport) -> Option<ProbeProblem> {
        if !report.reachable {
            return Some(ProbeProblem::Unreachable);
        }
        match (report.auth_ok, report.model_ok) {
            (Some(false), _) => Some(ProbeProblem::KeyRefused),
            (_, Some(false)) => Some(ProbeProblem::ModelMissing),
            _ => report.problem,
        }
    }
}

impl ProbeReport {
    fn unreachable(detail: String) -> Self {
        Self { reachable: false, auth_ok: None, model_ok: None, detail, problem: Some(ProbeProblem::Unreachable) }
    }
}

/// The waits of one test; [`probe`] uses 15 s overall and the hello wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeLimits {
    /// How long the whole test may take.
    pub overall: Duration,
    /// How long push waits for `ready` after `hello`.
    pub ready_wait: Duration,
}

impl Default for ProbeLimits {
    fn default() -> Self {
        Self { overall: PROBE_TIMEOUT, ready_wait: HELLO_REPLY_WAIT }
    }
}

/// Test the connection `settings` describe with one small real request (see
/// the module docs). An empty base URL means the built-in demo agent: that
/// is reported without a request.
pub async fn probe(settings: &Settings) -> ProbeReport {
    probe_with(settings, ProbeLimits::default()).await
}

/// [`probe`] with other waits (tests shrink them).
pub async fn probe_with(settings: &Settings, limits: ProbeLimits) -> ProbeReport {
    if settings.uses_demo() {
        return ProbeReport {
            reachable: true,
            auth_ok: None,
            model_ok: None,
            detail: "No base URL: the built-in demo agent answers, so there is nothing to test.".into(),
            problem: None,
        };
    }
    if let Err(e) = settings.validate() {
        return ProbeReport::unreachable(e.to_string());
    }
    let run = async {
        match settings.character.chat_api {
            ChatApi::Push => probe_push(settings, limits.ready_wait).await,
            ChatApi::Responses | ChatApi::ChatCompletions => probe_http(settings).await,
            ChatApi::AgentChat => probe_agent_chat(settings).await,
        }
    };
    let mut report = match tokio::time::timeout(limits.overall, run).await {
        Ok(report) => report,
        Err(_) => ProbeReport::unreachable(format!("No answer within {} s.", limits.overall.as_secs_f32().round())),
    };
    report.detail = scrub(&report.detail, settings.character.key.expose());
    report.problem = ProbeProblem::of(&report);
    tracing::info!(record = "probe", api = settings.character.chat_api.as_str(), reachable = report.reachable, auth_ok = ?report.auth_ok, model_ok = ?report.model_ok);
    report
}

/// The request a request transport's test sends: its URL and JSON body.
fn http_request(settings: &Settings) -> (String, serde_json::Value) {
    let base = &settings.character.chat_base_url;
    match settings.character.chat_api {
        ChatApi::ChatCompletions => (
            endpoint(base, "chat/completions"),
            json!({
                "model": settings.character.model,
                "messages": [{"role": "user", "content": "Say OK."}],
                "max_tokens": 16,
                "stream": false,
            }),
        ),
        _ => (endpoint(base, "responses"), json!({"model": settings.character.model, "input": "Say OK.", "max_output_tokens": 16, "stream": false})),
    }
}

/// `agent_chat`: only whether the engine answers HTTP at its base URL. A
/// test `POST /chat` would start a real agent run, so the key and the model
/// are not checked (`null`).
async fn probe_agent_chat(settings: &Settings) -> ProbeReport {
    let url = settings.character.chat_base_url.trim().to_string();
    match sse::client().get(&url).send().await {
        Ok(r) => ProbeReport {
            reachable: true,
            auth_ok: None,
            model_ok: None,
            detail: format!("The agent engine answered (HTTP {}); the key is checked on the first turn.", r.status().as_u16()),
            problem: None,
        },
        Err(e) => ProbeReport::unreachable(format!("Cannot reach {url}: {}", crate::error::error_chain(&e))),
    }
}

async fn probe_http(settings: &Settings) -> ProbeReport {
    let (url, body) = http_request(settings);
    let mut request = sse::client().post(&url).json(&body);
    if !settings.character.key.is_empty() {
        request = request.bearer_auth(settings.character.key.expose());
    }
    let response = match request.send().await {
        Ok(r) => r,
        Err(e) => return ProbeReport::unreachable(format!("Cannot reach {url}: {}", crate::error::error_chain(&e))),
    };
    let status = response.status().as_u16();
    let text = response.text().await.unwrap_or_default();
    interpret_http(status, &text, &settings.character.model)
}

/// What an HTTP answer says: 2xx all good; 401/403 the key was refused; a
/// 400 or 404 about the model (its text says "model" or names it) the key
/// passed but the model does not answer; anything else reachable, the rest
/// unknown.
pub fn interpret_http(status: u16, body: &str, model: &str) -> ProbeReport {
    let said = cut(&sse::server_text(body), DETAIL_CHARS);
    let line = |s: &str| if s.is_empty() { format!("HTTP {status}") } else { format!("HTTP {status}: {s}") };
    let about_model = {
        let lower = said.to_lowercase();
        lower.contains("model") || (!model.trim().is_empty() && said.contains(model.trim()))
    };
    match status {
        200..=299 => {
            ProbeReport { reachable: true, auth_ok: Some(true), model_ok: Some(true), detail: format!("HTTP {status}: the model answered."), problem: None }
        }
        401 | 403 => ProbeReport { reachable: true, auth_ok: Some(false), model_ok: None, detail: line(&said), problem: Some(ProbeProblem::KeyRefused) },
        400 | 404 if about_model => {
            ProbeReport { reachable: true, auth_ok: Some(true), model_ok: Some(false), detail: line(&said), problem: Some(ProbeProblem::ModelMissing) }
        }
        // No such endpoint: the server speaks another protocol.
        404 | 405 => ProbeReport { reachable: true, auth_ok: None, model_ok: None, detail: line(&said), problem: Some(ProbeProblem::WrongProtocol) },
        _ => ProbeReport { reachable: true, auth_ok: None, model_ok: None, detail: line(&said), problem: None },
    }
}

async fn probe_push(settings: &Settings, ready_wait: Duration) -> ProbeReport {
    let url = match push_url(&settings.character.chat_base_url) {
        Ok(u) => u,
        Err(e) => return ProbeReport::unreachable(e.to_string()),
    };
    let mut ws = match tokio_tungstenite::connect_async(url.as_str()).await {
        Ok((ws, _)) => ws,
        Err(tungstenite::Error::Http(response)) => {
            let status = response.status().as_u16();
            let body = response.body().as_deref().map(String::from_utf8_lossy).unwrap_or_default();
            let mut report = interpret_http(status, &body, "");
            report.model_ok = None;
            return report;
        }
        Err(e) => return ProbeReport::unreachable(format!("Cannot reach {url}: {e}")),
    };
    // A fresh chat id, so the test never takes over the pet's conversation.
    let hello = ClientFrame::Hello {
        key: settings.character.key.expose().to_string(),
        chat_id: format!("yui-{:08x}", rand::random::<u32>()),
        accepts: vec!["error".into()],
        vocabulary: WireVocabulary { emotion_ids: vec![], motion_ids: vec![], emotion_text_mode: "free".into(), emotion_text_map: Default::default() },
        tools: None,
    };
    let text = serde_json::to_string(&hello).expect("hello serializes");
    if let Err(e) = ws.send(Message::text(text)).await {
        return connected(None, format!("The connection dropped before hello was sent: {e}"));
    }
    let report = match tokio::time::timeout(ready_wait, wait_ready(&mut ws)).await {
        Ok(report) => report,
        Err(_) => connected(None, format!("Connected, but no ready within {} s of hello.", ready_wait.as_secs_f32().round())),
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
    report
}

fn connected(auth_ok: Option<bool>, detail: String) -> ProbeReport {
    ProbeReport { reachable: true, auth_ok, model_ok: None, detail, problem: None }
}

async fn wait_ready<S>(ws: &mut tokio_tungstenite::WebSocketStream<S>) -> ProbeReport
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let mut said = String::new();
    while let Some(msg) = ws.next().await {
        match msg {
            Ok(Message::Text(text)) => match serde_json::from_str::<ServerFrame>(text.as_str()) {
                Ok(ServerFrame::Ready { .. }) => return connected(Some(true), "The backend accepted the key (ready).".into()),
                _ => {
                    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text.as_str()) {
                        if v.get("type").and_then(|t| t.as_str()) == Some("error") {
                            said = cut(&sse::server_text(text.as_str()), DETAIL_CHARS);
                        }
                    }
                }
            },
            Ok(Message::Close(frame)) => {
                let (code, reason) = frame.map(|f| (u16::from(f.code), f.reason.to_string())).unwrap_or((1005, String::new()));
                if code == crate::transport::push::connection::CLOSE_AUTH {
                    return connected(Some(false), format!("The backend refused the key (close {code})."));
                }
                let why = if !reason.is_empty() { reason } else { said };
                let tail = if why.is_empty() { String::new() } else { format!(": {}", cut(&why, DETAIL_CHARS)) };
                return connected(None, format!("The backend closed the connection before ready (close {code}){tail}."));
            }
            Ok(_) => {}
            Err(e) => return connected(None, format!("The connection dropped before ready: {e}")),
        }
    }
    connected(None, "The connection ended before ready.".into())
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// `detail` with every occurrence of `key` replaced, on one line.
fn scrub(detail: &str, key: &str) -> String {
    let one = detail.split_whitespace().collect::<Vec<_>>().join(" ");
    if key.trim().is_empty() {
        one
    } else {
        one.replace(key.trim(), "<key>")
    }
}

#[cfg(test)]
#[path = "probe_tests.rs"]
mod tests;
