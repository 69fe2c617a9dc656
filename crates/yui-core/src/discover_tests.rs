//! The probe against local fakes of each server: what each answers at the
//! paths the probe asks (as their own code answers them: `docs/discover.md`),
//! a port that refuses, one that never answers, and a web page.

use super::*;
use crate::fake_http::{fake, fake_keyed, hanging, refusing};

const FASTAPI_404: (u16, &str) = (404, r#"{"detail":"Not Found"}"#);
const WAIT: Duration = Duration::from_secs(2);

fn base(port: u16) -> String {
    format!("http://127.0.0.1:{port}")
}

async fn found(port: u16) -> Option<FoundServer> {
    probe_server(base(port), WAIT).await
}

#[tokio::test]
async fn ollama_is_told_by_its_root_and_lists_its_own_models_when_the_openai_list_is_null() {
    let port = fake(
        vec![
            ("/", 200, "Ollama is running".into()),
            ("/v1/models", 200, r#"{"object":"list","data":null}"#.into()),
            ("/api/tags", 200, r#"{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":1}]}"#.into()),
        ],
        (404, "404 page not found"),
        None,
    )
    .await;
    assert_eq!(found(port).await, Some(FoundServer { base_url: base(port), kind: ServerKind::Ollama, models: vec!["llama3.2:latest".into()] }));
}

#[tokio::test]
async fn llama_cpp_is_told_by_its_server_header_even_with_an_ollama_like_models_array() {
    let models = r#"{"models":[{"name":"qwen.gguf","model":"qwen.gguf"}],"object":"list","data":[{"id":"qwen.gguf","object":"model","owned_by":"llamacpp"}]}"#;
    let port = fake(vec![("/v1/models", 200, models.into()), ("/", 200, "<html>llama.cpp</html>".into())], (404, "{}"), Some("llama.cpp")).await;
    let server = found(port).await.unwrap();
    assert_eq!((server.kind, server.models), (ServerKind::LlamaCpp, vec!["qwen.gguf".to_string()]));
}

#[tokio::test]
async fn vllm_lm_studio_and_litellm_are_told_apart() {
    let vllm = fake(
        vec![("/v1/models", 200, r#"{"object":"list","data":[{"id":"Qwen/Qwen2.5-7B","object":"model","owned_by":"vllm","max_model_len":32768}]}"#.into())],
        FASTAPI_404,
        None,
    )
    .await;
    let lm_studio = fake(
        vec![("/v1/models", 200, r#"{"data":[{"id":"qwen2.5-7b-instruct","object":"model","owned_by":"organization_owner"}],"object":"list"}"#.into())],
        (200, r#"{"error":"Unexpected endpoint or method. (GET /)"}"#),
        None,
    )
    .await;
    let litellm = fake(
        vec![
            ("/v1/models", 200, r#"{"data":[{"id":"gpt-4o","object":"model","created":1677610602,"owned_by":"openai"}],"object":"list"}"#.into()),
            ("/health/readiness", 200, r#"{"status":"healthy","db":"Not connected","litellm_version":"1.55.0"}"#.into()),
        ],
        FASTAPI_404,
        None,
    )
    .await;
    let kinds = [found(vllm).await, found(lm_studio).await, found(litellm).await].map(|f| f.map(|f| (f.kind, f.models)));
    assert_eq!(
        kinds,
        [
            Some((ServerKind::Vllm, vec!["Qwen/Qwen2.5-7B".to_string()])),
            Some((ServerKind::LmStudio, vec!["qwen2.5-7b-instruct".to_string()])),
            Some((ServerKind::Litellm, vec!["gpt-4o".to_string()])),
        ]
    );
}

#[tokio::test]
async fn a_server_that_wants_a_key_is_listed_without_models_and_a_web_page_is_not_a_server() {
    // vLLM with --api-key: /v1 refuses, /version still says who it is.
    let vllm =
        fake(vec![("/v1/models", 401, r#"{"error":"Unauthorized"}"#.into()), ("/version", 200, r#"{"version":"0.8.5"}"#.into())], FASTAPI_404, None).await;
    assert_eq!(found(vllm).await.map(|f| (f.kind, f.models)), Some((ServerKind::Vllm, vec![])));
    // Something OpenAI-shaped that wants a key and says nothing more.
    let unknown = fake(vec![("/v1/models", 401, r#"{"error":{"message":"no key","type":"auth_error"}}"#.into())], (404, "{}"), None).await;
    assert_eq!(found(unknown).await.map(|f| f.kind), Some(ServerKind::OpenaiCompatible));
    // Any other OpenAI list.
    let other = fake(vec![("/v1/models", 200, r#"{"object":"list","data":[{"id":"m1","owned_by":"me"}]}"#.into())], (404, "{}"), None).await;
    assert_eq!(found(other).await.map(|f| (f.kind, f.models)), Some((ServerKind::OpenaiCompatible, vec!["m1".to_string()])));
    let page = fake(vec![("/", 200, "<html>my blog</html>".into())], (404, "<html>not here</html>"), Some("nginx")).await;
    assert_eq!(found(page).await, None);
}

#[tokio::test]
async fn discovery_lists_what_answers_and_skips_a_refusing_and_a_hanging_port() {
    let ollama = fake(
        vec![("/", 200, "Ollama is running".into()), ("/v1/models", 200, r#"{"object":"list","data":[{"id":"phi4","owned_by":"library"}]}"#.into())],
        (404, ""),
        None,
    )
    .await;
    let (closed, silent) = (refusing().await, hanging().await);
    // A wait a loaded machine still answers in (the whole suite runs at once).
    let all = discover_ports(&[closed, ollama, silent], Duration::from_millis(1500)).await;
    assert_eq!(all, vec![FoundServer { base_url: base(ollama), kind: ServerKind::Ollama, models: vec!["phi4".into()] }]);
}

#[tokio::test(start_paused = true)]
async fn a_port_that_never_answers_costs_one_wait() {
    let silent = hanging().await;
    let started = tokio::time::Instant::now();
    assert_eq!(probe_server(base(silent), WAIT).await, None);
    let spent = started.elapsed();
    assert!(spent >= WAIT && spent < WAIT * 2, "{spent:?}");
}

#[test]
fn the_usual_ports_come_first_then_the_extra_ones_once() {
    assert_eq!(ports_with(&[9000, 11434, 9000]), vec![11434, 1234, 8080, 8000, 4000, 9000]);
    assert_eq!(USUAL_PORTS.iter().map(|(_, k)| k.label()).collect::<Vec<_>>(), ["Ollama", "LM Studio", "llama.cpp", "vLLM", "LiteLLM"]);
}

#[tokio::test]
async fn the_models_are_listed_with_the_key_and_each_failure_says_which_step() {
    let keyed =
        fake_keyed(Some("sk-good"), vec![("/v1/models", 200, r#"{"object":"list","data":[{"id":"gpt-x"},{"id":"gpt-y"}]}"#.into())], (404, "{}"), None).await;
    assert_eq!(list_models(&base(keyed), "sk-good", WAIT).await, Ok(vec!["gpt-x".to_string(), "gpt-y".to_string()]));
    assert_eq!(list_models(&format!("{}/v1/", base(keyed)), "sk-good", WAIT).await.map(|m| m.len()), Ok(2), "a base ending in /v1 works too");
    assert_eq!(list_models(&base(keyed), "sk-bad", WAIT).await, Err(ModelListError::KeyRefused));
    assert_eq!(list_models(&base(keyed), "", WAIT).await, Err(ModelListError::KeyRefused));
    // Ollama with an empty OpenAI list: its own list.
    let ollama = fake(
        vec![("/v1/models", 200, r#"{"object":"list","data":null}"#.into()), ("/api/tags", 200, r#"{"models":[{"name":"qwen3:8b"}]}"#.into())],
        (404, ""),
        None,
    )
    .await;
    assert_eq!(list_models(&base(ollama), "", WAIT).await, Ok(vec!["qwen3:8b".to_string()]));
    let page = fake(vec![], (200, "<html>hello</html>"), None).await;
    assert!(matches!(list_models(&base(page), "", WAIT).await, Err(ModelListError::NotAList(_))));
    let closed = refusing().await;
    assert!(matches!(list_models(&base(closed), "", WAIT).await, Err(ModelListError::Unreachable(_))));
}
