//! The connection test against a local fake backend.

use super::*;
use axum::extract::ws::{CloseFrame, Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{any, post};
use axum::{Json, Router};

const GOOD_KEY: &str = "sk-good-key-123";

/// A fake backend: `/v1/responses` and `/v1/chat/completions` answer 401
/// for a wrong key, 404 for the model `missing`, else 200; `/ws` answers
/// `ready` for the good key and closes 4401 for another.
async fn fake() -> String {
    async fn answer(headers: HeaderMap, Json(body): Json<serde_json::Value>) -> impl IntoResponse {
        let auth = headers.get("authorization").and_then(|v| v.to_str().ok()).unwrap_or("");
        if auth != format!("Bearer {GOOD_KEY}") {
            return (
                StatusCode::UNAUTHORIZED,
                Json(json!({"error": {"message": format!("Incorrect API key provided: {}", auth.trim_start_matches("Bearer "))}})),
            );
        }
        assert_eq!(body["stream"], false);
        if body["model"] == "missing" {
            return (StatusCode::NOT_FOUND, Json(json!({"error": {"message": "The model `missing` does not exist"}})));
        }
        (StatusCode::OK, Json(json!({"id": "r1", "output_text": "OK"})))
    }
    async fn ws(upgrade: WebSocketUpgrade) -> impl IntoResponse {
        upgrade.on_upgrade(|mut socket: WebSocket| async move {
            let Some(Ok(WsMessage::Text(hello))) = socket.recv().await else { return };
            let hello: serde_json::Value = serde_json::from_str(hello.as_str()).unwrap();
            assert_eq!(hello["type"], "hello");
            assert!(crate::data_dir::is_chat_id(hello["chat_id"].as_str().unwrap()));
            if hello["key"] == GOOD_KEY {
                let _ = socket.send(WsMessage::Text(r#"{"type":"ready"}"#.into())).await;
                while let Some(Ok(msg)) = socket.recv().await {
                    if matches!(msg, WsMessage::Close(_)) {
                        break;
                    }
                }
            } else {
                let _ = socket.send(WsMessage::Close(Some(CloseFrame { code: 4401, reason: "bad key".into() }))).await;
            }
        })
    }
    let app = Router::new().route("/v1/responses", post(answer)).route("/v1/chat/completions", post(answer)).route("/ws", any(ws));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

fn settings(api: ChatApi, base: &str, key: &str, model: &str) -> Settings {
    Settings::from(crate::settings::CharacterSettings { chat_api: api, chat_base_url: base.into(), key: key.into(), model: model.into(), ..Default::default() })
}

const FAST: ProbeLimits = ProbeLimits { overall: Duration::from_secs(5), ready_wait: Duration::from_secs(3) };

#[tokio::test]
async fn a_good_endpoint_answers_on_both_request_apis() {
    let base = fake().await;
    for api in [ChatApi::Responses, ChatApi::ChatCompletions] {
        let r = probe_with(&settings(api, &base, GOOD_KEY, "m"), FAST).await;
        assert_eq!((r.reachable, r.auth_ok, r.model_ok), (true, Some(true), Some(true)), "{api:?}: {r:?}");
    }
    // A base that already ends in /v1 gets no second one.
    let r = probe_with(&settings(ChatApi::Responses, &format!("{base}/v1/"), GOOD_KEY, "m"), FAST).await;
    assert_eq!(r.model_ok, Some(true), "{r:?}");
}

#[tokio::test]
async fn a_wrong_key_is_refused_and_never_shown() {
    let base = fake().await;
    let r = probe_with(&settings(ChatApi::Responses, &base, "sk-wrong-secret", "m"), FAST).await;
    assert_eq!((r.reachable, r.auth_ok, r.model_ok), (true, Some(false), None), "{r:?}");
    assert!(r.detail.starts_with("HTTP 401"), "{}", r.detail);
    assert!(!r.detail.contains("sk-wrong-secret"), "{}", r.detail);
}

#[tokio::test]
async fn a_missing_model_passes_the_key_but_not_the_model() {
    let base = fake().await;
    let r = probe_with(&settings(ChatApi::ChatCompletions, &base, GOOD_KEY, "missing"), FAST).await;
    assert_eq!((r.reachable, r.auth_ok, r.model_ok), (true, Some(true), Some(false)), "{r:?}");
    assert!(r.detail.contains("does not exist"), "{}", r.detail);
}

#[tokio::test]
async fn a_dead_port_is_not_reachable() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let base = format!("http://127.0.0.1:{port}");
    for api in [ChatApi::Responses, ChatApi::Push] {
        let r = probe_with(&settings(api, &base, GOOD_KEY, "m"), FAST).await;
        assert!(!r.reachable, "{api:?}: {r:?}");
        assert_eq!((r.auth_ok, r.model_ok), (None, None));
        assert!(!r.detail.contains(GOOD_KEY));
    }
}

#[tokio::test]
async fn push_tells_a_good_key_from_a_wrong_one() {
    let base = fake().await;
    let r = probe_with(&settings(ChatApi::Push, &base, GOOD_KEY, ""), FAST).await;
    assert_eq!((r.reachable, r.auth_ok, r.model_ok), (true, Some(true), None), "{r:?}");
    let r = probe_with(&settings(ChatApi::Push, &base, "sk-nope", ""), FAST).await;
    assert_eq!((r.reachable, r.auth_ok, r.model_ok), (true, Some(false), None), "{r:?}");
    assert!(r.detail.contains("4401"), "{}", r.detail);
}

#[tokio::test]
async fn push_without_ready_is_reported_after_the_wait() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = Router::new()
        .route("/ws", any(|up: WebSocketUpgrade| async move { up.on_upgrade(|mut s: WebSocket| async move { while let Some(Ok(_)) = s.recv().await {} }) }));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let limits = ProbeLimits { overall: Duration::from_secs(5), ready_wait: Duration::from_millis(300) };
    let r = probe_with(&settings(ChatApi::Push, &format!("http://{addr}"), GOOD_KEY, ""), limits).await;
    assert_eq!((r.reachable, r.auth_ok), (true, None), "{r:?}");
    assert!(r.detail.contains("no ready"), "{}", r.detail);
}

#[tokio::test]
async fn the_demo_agent_needs_no_request() {
    let r = probe(&Settings::default()).await;
    assert!(r.reachable);
    assert!(r.detail.contains("demo agent"), "{}", r.detail);
}

#[test]
fn statuses_read_as_the_brief_says() {
    let r = interpret_http(500, r#"{"error":{"message":"boom\nagain"}}"#, "m");
    assert_eq!((r.reachable, r.auth_ok, r.model_ok), (true, None, None));
    assert_eq!(r.detail, "HTTP 500: boom again");
    let r = interpret_http(400, r#"{"error":"unknown model gpt-x"}"#, "gpt-x");
    assert_eq!((r.auth_ok, r.model_ok), (Some(true), Some(false)));
    let r = interpret_http(404, "Not Found", "m");
    assert_eq!((r.auth_ok, r.model_ok), (None, None), "a 404 about nothing in particular: the path, probably");
    assert_eq!(interpret_http(403, "", "m").auth_ok, Some(false));
    assert_eq!(scrub("key sk-1 was\nbad", "sk-1"), "key <key> was bad");
}

#[tokio::test]
async fn each_failure_names_the_step_that_failed_in_plain_words() {
    let base = fake().await;
    let dead = format!("http://127.0.0.1:{}", std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port());
    let cases = [
        (settings(ChatApi::Responses, &base, GOOD_KEY, "m"), None),
        (settings(ChatApi::Responses, &base, "sk-wrong", "m"), Some(ProbeProblem::KeyRefused)),
        (settings(ChatApi::ChatCompletions, &base, GOOD_KEY, "missing"), Some(ProbeProblem::ModelMissing)),
        (settings(ChatApi::ChatCompletions, &dead, GOOD_KEY, "m"), Some(ProbeProblem::Unreachable)),
        // Something answers there, but has no such endpoint.
        (settings(ChatApi::Responses, &format!("{base}/elsewhere"), GOOD_KEY, "m"), Some(ProbeProblem::WrongProtocol)),
    ];
    for (s, want) in cases {
        let r = probe_with(&s, FAST).await;
        assert_eq!(r.problem, want, "{}: {r:?}", s.character.chat_base_url);
    }
}
