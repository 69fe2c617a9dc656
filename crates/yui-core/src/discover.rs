//! Finding the model servers that run on this computer (`docs/discover.md`):
//! the usual loopback ports probed at once, each with a short wait; what
//! answers is told apart by what it answers, and its models are listed.
//!
//! One port costs at most [`DISCOVER_REQUEST_WAIT`] when nothing listens
//! or the listener never answers: the first request (`GET /`) decides
//! whether anything is there at all. Then, for a server:
//! - `GET /`: llama.cpp's `Server: llama.cpp` header, Ollama's "Ollama is
//!   running", LM Studio's "Unexpected endpoint or method", LiteLLM's name;
//! - `GET /v1/models`: the models, and `owned_by` (`llamacpp`, `vllm`,
//!   `organization_owner` for LM Studio) when the root said nothing;
//! - `GET /version` (`{"version": …}`: vLLM) and `GET /health/readiness`
//!   (`litellm_version`: LiteLLM) when still nothing is known;
//! - Ollama's own `GET /api/tags` when its OpenAI list is empty or absent.
//!
//! A listener that answers none of this as a model server would (a web
//! page on port 8080) is left out.

use crate::transport::sse;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;
use ts_rs::TS;
pub use yui_engine::limits::DISCOVER_REQUEST_WAIT;

/// What kind of server answered, as what it answers shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ServerKind {
    /// Ollama.
    Ollama,
    /// LM Studio's local server.
    LmStudio,
    /// llama.cpp's `llama-server`.
    LlamaCpp,
    /// vLLM's OpenAI-compatible server.
    Vllm,
    /// The LiteLLM proxy.
    Litellm,
    /// Something that speaks OpenAI's `/v1/models`, nothing more known.
    OpenaiCompatible,
}

impl ServerKind {
    /// Its name as a person reads it.
    pub fn label(self) -> &'static str {
        match self {
            ServerKind::Ollama => "Ollama",
            ServerKind::LmStudio => "LM Studio",
            ServerKind::LlamaCpp => "llama.cpp",
            ServerKind::Vllm => "vLLM",
            ServerKind::Litellm => "LiteLLM",
            ServerKind::OpenaiCompatible => "OpenAI-compatible server",
        }
    }
}

/// The loopback ports each server listens on by default, in the order they
/// are listed.
pub const USUAL_PORTS: &[(u16, ServerKind)] =
    &[(11434, ServerKind::Ollama), (1234, ServerKind::LmStudio), (8080, ServerKind::LlamaCpp), (8000, ServerKind::Vllm), (4000, ServerKind::Litellm)];

/// One server that answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FoundServer {
    /// Its base URL, `http://127.0.0.1:<port>` (the request transports add
    /// `/v1/...` themselves).
    pub base_url: String,
    /// What it is.
    pub kind: ServerKind,
    /// Its models' names, as its list gives them (empty when it lists none,
    /// or wants a key to list them).
    pub models: Vec<String>,
}

/// Probe the usual ports and `extra` ones on 127.0.0.1 at once; the servers
/// that answered, in port order (the usual ones first).
pub async fn discover(extra: &[u16]) -> Vec<FoundServer> {
    discover_ports(&ports_with(extra), DISCOVER_REQUEST_WAIT).await
}

/// The usual ports, then `extra` ones not among them.
pub fn ports_with(extra: &[u16]) -> Vec<u16> {
    merge_ports(USUAL_PORTS.iter().map(|(p, _)| *p), extra)
}

/// `usual` ports, then `extra` ones not among them (each once); the speech
/// servers' probe shares it (`crate::voice_setup`).
pub(crate) fn merge_ports(usual: impl IntoIterator<Item = u16>, extra: &[u16]) -> Vec<u16> {
    let mut ports: Vec<u16> = usual.into_iter().collect();
    for p in extra {
        if !ports.contains(p) {
            ports.push(*p);
        }
    }
    ports
}

/// Probe `ports` on 127.0.0.1 at once, each request waiting at most `wait`.
pub async fn discover_ports(ports: &[u16], wait: Duration) -> Vec<FoundServer> {
    let probes = ports.iter().map(|port| probe_server(format!("http://127.0.0.1:{port}"), wait));
    let found: Vec<FoundServer> = futures_util::future::join_all(probes).await.into_iter().flatten().collect();
    tracing::info!(record = "discover", probed = ports.len(), found = found.len(), kinds = ?found.iter().map(|f| f.kind).collect::<Vec<_>>());
    found
}

/// One answer: its status, the `Server` header, and the body.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The `Server` header, if any.
    pub server: Option<String>,
    /// The body as text (cut at 64 KiB).
    pub body: String,
}

impl Answer {
    fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.body).ok()
    }
}

/// The longest body read from one answer.
const BODY_MAX: usize = 64 * 1024;

/// `GET base + path`, waiting at most `wait` for the whole answer; `None`
/// when nothing answered in time. The speech servers' probe shares it
/// (`crate::voice_setup`).
pub(crate) async fn get(base: &str, path: &str, wait: Duration) -> Option<Answer> {
    let url = format!("{base}{path}");
    let run = async {
        let response = sse::client().get(&url).send().await.ok()?;
        let status = response.status().as_u16();
        let server = response.headers().get(reqwest::header::SERVER).and_then(|v| v.to_str().ok()).map(str::to_string);
        let bytes = response.bytes().await.ok()?;
        let body = String::from_utf8_lossy(&bytes[..bytes.len().min(BODY_MAX)]).into_owned();
        Some(Answer { status, server, body })
    };
    tokio::time::timeout(wait, run).await.ok().flatten()
}

/// Probe the server at `base` (see the module docs); `None` when nothing
/// answers there as a model server.
pub async fn probe_server(base: String, wait: Duration) -> Option<FoundServer> {
    let root = get(&base, "/", wait).await?;
    let models = get(&base, "/v1/models", wait).await;
    let mut kind = kind_from_root(&root).or_else(|| models.as_ref().and_then(kind_from_models));
    if kind.is_none() {
        if let Some(version) = get(&base, "/version", wait).await {
            kind = kind_from_version(&version);
        }
    }
    if kind.is_none() {
        if let Some(readiness) = get(&base, "/health/readiness", wait).await {
            kind = kind_from_readiness(&readiness);
        }
    }
    let listed = models.as_ref().and_then(model_names);
    let kind = match (kind, &listed) {
        (Some(kind), _) => kind,
        (None, Some(_)) => ServerKind::OpenaiCompatible,
        // No model server: neither what it said nor a model list.
        (None, None) if models.as_ref().is_some_and(wants_key) => ServerKind::OpenaiCompatible,
        (None, None) => return None,
    };
    let mut names = listed.unwrap_or_default();
    if kind == ServerKind::Ollama && names.is_empty() {
        if let Some(tags) = get(&base, "/api/tags", wait).await {
            names = ollama_names(&tags);
        }
    }
    Some(FoundServer { base_url: base, kind, models: names })
}

/// What `GET /` says the server is.
pub fn kind_from_root(root: &Answer) -> Option<ServerKind> {
    let server = root.server.as_deref().unwrap_or_default().to_ascii_lowercase();
    if server.starts_with("llama.cpp") {
        return Some(ServerKind::LlamaCpp);
    }
    let body = root.body.trim_start();
    if body.starts_with("Ollama is running") {
        return Some(ServerKind::Ollama);
    }
    if body.contains("Unexpected endpoint or method") {
        return Some(ServerKind::LmStudio);
    }
    if body.contains("LiteLLM") {
        return Some(ServerKind::Litellm);
    }
    None
}

/// What the `owned_by` of `GET /v1/models` says the server is.
pub fn kind_from_models(models: &Answer) -> Option<ServerKind> {
    let json = models.json()?;
    let owners: Vec<&str> = json.get("data")?.as_array()?.iter().filter_map(|m| m.get("owned_by")?.as_str()).collect();
    match owners.first().copied()? {
        "llamacpp" => Some(ServerKind::LlamaCpp),
        "vllm" => Some(ServerKind::Vllm),
        "organization_owner" => Some(ServerKind::LmStudio),
        _ => None,
    }
}

/// vLLM's `GET /version`: a JSON object with a `version` string and nothing else.
pub fn kind_from_version(version: &Answer) -> Option<ServerKind> {
    let json = version.json()?;
    let object = json.as_object()?;
    (version.status == 200 && object.len() == 1 && object.get("version").is_some_and(Value::is_string)).then_some(ServerKind::Vllm)
}

/// LiteLLM's `GET /health/readiness` names its version.
pub fn kind_from_readiness(readiness: &Answer) -> Option<ServerKind> {
    readiness.json()?.get("litellm_version").map(|_| ServerKind::Litellm)
}

/// The model names of an OpenAI `GET /v1/models` list (`data` may be null:
/// Ollama with no model pulled); `None` when it is no such list.
pub fn model_names(models: &Answer) -> Option<Vec<String>> {
    if models.status != 200 {
        return None;
    }
    let json = models.json()?;
    if json.get("object").and_then(Value::as_str) != Some("list") && json.get("data").is_none_or(|d| !d.is_array()) {
        return None;
    }
    let data = json.get("data").and_then(Value::as_array).cloned().unwrap_or_default();
    Some(data.iter().filter_map(|m| m.get("id")?.as_str().map(str::to_string)).collect())
}

/// Whether `GET /v1/models` was refused for want of a key, as an OpenAI
/// server refuses (401 or 403 with an `error`).
fn wants_key(models: &Answer) -> bool {
    matches!(models.status, 401 | 403) && models.json().is_some_and(|j| j.get("error").is_some())
}

/// Ollama's own list, `GET /api/tags`: `{"models": [{"name": …}]}`.
pub fn ollama_names(tags: &Answer) -> Vec<String> {
    let Some(json) = tags.json() else { return Vec::new() };
    let Some(models) = json.get("models").and_then(Value::as_array) else { return Vec::new() };
    models.iter().filter_map(|m| m.get("name").or_else(|| m.get("model"))?.as_str().map(str::to_string)).collect()
}

/// Why a server's models could not be listed (the welcome says which).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelListError {
    /// Nothing answered at the base URL in time.
    #[error("nothing answers at {0}")]
    Unreachable(String),
    /// The server refused the key (401 or 403).
    #[error("the server refused the key")]
    KeyRefused,
    /// It answered, but with no model list YUI reads.
    #[error("{0} answered, but not with a list of models")]
    NotAList(String),
}

/// The models of the server at `base_url`, asked with `key` (none when
/// empty): its OpenAI list (`GET <base>/v1/models`), or Ollama's own
/// (`GET /api/tags`) when that list is empty or absent. Each request waits
/// at most `wait`.
pub async fn list_models(base_url: &str, key: &str, wait: Duration) -> Result<Vec<String>, ModelListError> {
    let base = base_url.trim().trim_end_matches('/');
    let url = crate::transport::endpoint(base, "models");
    let mut request = sse::client().get(&url);
    if !key.trim().is_empty() {
        request = request.bearer_auth(key.trim());
    }
    let run = async {
        let response = request.send().await.ok()?;
        let status = response.status().as_u16();
        let body = response.text().await.unwrap_or_default();
        Some(Answer { status, server: None, body })
    };
    let answer = tokio::time::timeout(wait, run).await.ok().flatten().ok_or_else(|| ModelListError::Unreachable(base.to_string()))?;
    if matches!(answer.status, 401 | 403) {
        return Err(ModelListError::KeyRefused);
    }
    let listed = model_names(&answer);
    if let Some(names) = listed.as_ref().filter(|n| !n.is_empty()) {
        return Ok(names.clone());
    }
    // Ollama lists its own way when its OpenAI list is empty.
    let origin = base.strip_suffix("/v1").unwrap_or(base);
    if let Some(tags) = get(origin, "/api/tags", wait).await.filter(|t| t.status == 200) {
        let names = ollama_names(&tags);
        if !names.is_empty() || tags.json().is_some_and(|j| j.get("models").is_some()) {
            return Ok(names);
        }
    }
    listed.ok_or_else(|| ModelListError::NotAList(base.to_string()))
}

#[cfg(test)]
#[path = "discover_tests.rs"]
mod tests;
