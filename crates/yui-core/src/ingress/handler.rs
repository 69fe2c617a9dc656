//! One request: the guard, the route, the body (read only up to the
//! limit), the answer.

use super::envelope::{parse_agent_event, parse_relations, parse_signals, BadBody};
use super::guard;
use super::{IngressConfig, IngressPort};
use crate::limits::{INGRESS_BODY_BYTES, INGRESS_BODY_READ_WAIT};
use crate::triggers::Arrival;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Bytes, Incoming};
use hyper::header::{HeaderValue, ALLOW, CONNECTION, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{json, Value};
use std::sync::Arc;

/// What every connection of one ingress shares.
pub(super) struct Shared {
    pub(super) config: IngressConfig,
    pub(super) port: Arc<dyn IngressPort>,
}

enum Route {
    Signals,
    AgentEvent,
    Relations(String),
}

/// Answer one request. Never fails: every problem is a status.
pub(super) async fn handle(req: Request<Incoming>, shared: &Shared) -> Response<Full<Bytes>> {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let response = respond(req, shared).await;
    let status = response.status().as_u16();
    tracing::debug!(record = "ingress_request", method = %method, path = %path, status);
    response
}

async fn respond(req: Request<Incoming>, shared: &Shared) -> Response<Full<Bytes>> {
    let path = req.uri().path();
    if let Err(refusal) = guard::check(req.headers(), shared.config.require_token, shared.config.token.expose()) {
        return refuse(refusal.status, refusal.reason, path);
    }
    let Some(route) = route(path) else {
        return refuse(StatusCode::NOT_FOUND, "no such path", path);
    };
    let allowed: &[Method] = match route {
        Route::Signals | Route::AgentEvent => &[Method::POST],
        Route::Relations(_) => &[Method::GET, Method::PUT],
    };
    if !allowed.contains(req.method()) {
        let path = path.to_string();
        let mut response = refuse(StatusCode::METHOD_NOT_ALLOWED, "method not allowed", &path);
        let allow = allowed.iter().map(Method::as_str).collect::<Vec<_>>().join(", ");
        response.headers_mut().insert(ALLOW, HeaderValue::from_str(&allow).expect("method names are header-safe"));
        return response;
    }
    if let Route::Relations(character) = &route {
        if req.method() == Method::GET {
            return match shared.port.relations(character) {
                Ok(records) => answer(StatusCode::OK, &records),
                Err(e) => answer(StatusCode::NOT_FOUND, &json!({ "error": e.to_string() })),
            };
        }
    }
    let path = path.to_string();
    let body = match read_body(req.into_body()).await {
        Ok(body) => body,
        Err(BodyError::TooLarge) => {
            let mut response = refuse(StatusCode::PAYLOAD_TOO_LARGE, "body over 65,536 bytes", &path);
            response.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
            return response;
        }
        Err(BodyError::Timeout) => {
            let mut response = refuse(StatusCode::REQUEST_TIMEOUT, "body too slow", &path);
            response.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
            return response;
        }
        Err(BodyError::Broken(e)) => return refuse(StatusCode::BAD_REQUEST, &format!("body unreadable: {e}"), &path),
    };
    match route {
        Route::Signals => signals(&body, shared, &path),
        Route::AgentEvent => agent_event(&body, shared, &path),
        Route::Relations(character) => match parse_relations(&body) {
            Err(bad) => bad_body(&bad, &path),
            Ok(records) => match shared.port.set_relations(&character, records) {
                Ok(stored) => answer(StatusCode::OK, &stored),
                Err(e) => refuse(StatusCode::BAD_REQUEST, &e.to_string(), &path),
            },
        },
    }
}

fn signals(body: &[u8], shared: &Shared, path: &str) -> Response<Full<Bytes>> {
    let parsed = match parse_signals(body) {
        Ok(parsed) => parsed,
        Err(bad) => return bad_body(&bad, path),
    };
    if let Some(why) = parsed.invalid_envelope {
        tracing::warn!(record = "ingress_bad_envelope", field = why.field, reason = why.reason, "invalid envelope; delivered as legacy");
    }
    let accepted = parsed.group.items.len();
    let received_ms = shared.port.now_ms();
    shared.port.arrived(Arrival::Signals { group: parsed.group, received_ms });
    answer(StatusCode::OK, &json!({ "accepted": accepted }))
}

fn agent_event(body: &[u8], shared: &Shared, path: &str) -> Response<Full<Bytes>> {
    let parsed = match parse_agent_event(body) {
        Ok(parsed) => parsed,
        Err(bad) => return bad_body(&bad, path),
    };
    if let Some(why) = parsed.invalid {
        tracing::warn!(record = "ingress_bad_agent_event", field = why.field, reason = why.reason, "invalid agent event; delivered bare");
    }
    let received_ms = shared.port.now_ms();
    shared.port.arrived(Arrival::Agent { event: parsed.event, received_ms });
    answer(StatusCode::OK, &json!({ "accepted": 1 }))
}

fn route(path: &str) -> Option<Route> {
    match path {
        "/signals" => Some(Route::Signals),
        "/agent-event" => Some(Route::AgentEvent),
        _ => {
            let raw = path.strip_prefix("/relations/")?;
            if raw.is_empty() || raw.contains('/') {
                return None;
            }
            percent_decode(raw).filter(|c| !c.is_empty()).map(Route::Relations)
        }
    }
}

/// `%XX` escapes decoded; None when an escape is broken or the result is
/// not UTF-8.
fn percent_decode(raw: &str) -> Option<String> {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = raw.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

enum BodyError {
    TooLarge,
    Timeout,
    Broken(hyper::Error),
}

/// The body, read frame by frame and given up on (unread) as soon as it
/// would pass the limit: a `Content-Length` over it answers before any byte
/// of the body is read, a chunked or lying one when the count passes it.
async fn read_body(mut body: Incoming) -> Result<Vec<u8>, BodyError> {
    if body.size_hint().lower() > INGRESS_BODY_BYTES as u64 {
        return Err(BodyError::TooLarge);
    }
    let read = async {
        let mut out = Vec::new();
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(BodyError::Broken)?;
            if let Ok(data) = frame.into_data() {
                if out.len() + data.len() > INGRESS_BODY_BYTES {
                    return Err(BodyError::TooLarge);
                }
                out.extend_from_slice(&data);
            }
        }
        Ok(out)
    };
    tokio::time::timeout(INGRESS_BODY_READ_WAIT, read).await.unwrap_or(Err(BodyError::Timeout))
}

fn bad_body(bad: &BadBody, path: &str) -> Response<Full<Bytes>> {
    refuse(StatusCode::BAD_REQUEST, &bad.to_string(), path)
}

/// A refusal: logged with its status and reason, answered as `{"error": reason}`.
fn refuse(status: StatusCode, reason: &str, path: &str) -> Response<Full<Bytes>> {
    tracing::info!(record = "ingress_refused", status = status.as_u16(), reason, path);
    answer(status, &json!({ "error": reason }))
}

fn answer(status: StatusCode, body: &Value) -> Response<Full<Bytes>> {
    let bytes = serde_json::to_vec(body).unwrap_or_default();
    let mut response = Response::new(Full::new(Bytes::from(bytes)));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}
