//! The providers a new user picks from instead of typing a base URL and a
//! protocol (`docs/discover.md`, "Providers"): each with its base URL, its
//! chat API and whether it wants a key. The local ones are the servers
//! [`crate::discover`] finds on their usual ports.

use crate::discover::ServerKind;
use crate::settings::{ChatApi, Settings};
use serde::Serialize;
use ts_rs::TS;

/// One provider as the welcome offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
pub struct Provider {
    /// Its id (stable; what the welcome sends back).
    pub id: &'static str,
    /// Its name as a person reads it.
    pub name: &'static str,
    /// The chat API it speaks best.
    pub chat_api: ChatApi,
    /// Its base URL; empty when the user gives it (any OpenAI-compatible
    /// URL, a push backend) or for the demo.
    pub base_url: &'static str,
    /// Whether it wants a key.
    pub needs_key: bool,
    /// The local server it is, when it runs on this computer.
    pub local: Option<ServerKind>,
}

const fn remote(id: &'static str, name: &'static str, chat_api: ChatApi, base_url: &'static str) -> Provider {
    Provider { id, name, chat_api, base_url, needs_key: true, local: None }
}

const fn local(id: &'static str, name: &'static str, base_url: &'static str, kind: ServerKind) -> Provider {
    Provider { id, name, chat_api: ChatApi::ChatCompletions, base_url, needs_key: false, local: Some(kind) }
}

/// Every provider, in the order the welcome lists them.
pub const PROVIDERS: [Provider; 13] = [
    remote("openai", "OpenAI", ChatApi::Responses, "https://api.openai.com/v1"),
    remote("openrouter", "OpenRouter", ChatApi::ChatCompletions, "https://openrouter.ai/api/v1"),
    remote("groq", "Groq", ChatApi::ChatCompletions, "https://api.groq.com/openai/v1"),
    remote("gemini", "Google Gemini", ChatApi::ChatCompletions, "https://generativelanguage.googleapis.com/v1beta/openai"),
    local("ollama", "Ollama", "http://127.0.0.1:11434", ServerKind::Ollama),
    local("lm_studio", "LM Studio", "http://127.0.0.1:1234", ServerKind::LmStudio),
    local("llama_cpp", "llama.cpp server", "http://127.0.0.1:8080", ServerKind::LlamaCpp),
    local("vllm", "vLLM", "http://127.0.0.1:8000", ServerKind::Vllm),
    local("litellm", "LiteLLM", "http://127.0.0.1:4000", ServerKind::Litellm),
    Provider { id: "openai_compatible", name: "Any OpenAI-compatible URL", chat_api: ChatApi::ChatCompletions, base_url: "", needs_key: false, local: None },
    Provider { id: "agent_chat", name: "An agent-chat engine", chat_api: ChatApi::AgentChat, base_url: "", needs_key: false, local: None },
    Provider { id: "push", name: "A push backend", chat_api: ChatApi::Push, base_url: "", needs_key: true, local: None },
    Provider { id: "demo", name: "Keep the demo", chat_api: ChatApi::Responses, base_url: "", needs_key: false, local: None },
];

/// The provider with id `id`.
pub fn provider(id: &str) -> Option<&'static Provider> {
    PROVIDERS.iter().find(|p| p.id == id)
}

/// The provider of a server discovery found.
pub fn of_kind(kind: ServerKind) -> &'static Provider {
    PROVIDERS.iter().find(|p| p.local == Some(kind)).unwrap_or_else(|| provider("openai_compatible").expect("listed"))
}

/// Her first words to a new backend, from the welcome, in the UI language.
pub fn hello(language: &str) -> &'static str {
    match crate::settings::language_from_locale(language) {
        "ja" => "こんにちは！私の声、聞こえる？",
        "ko" => "안녕! 내 말 들려?",
        _ => "Hello! Can you hear me?",
    }
}

impl Provider {
    /// `settings` talking to this provider at `base_url` (its own when
    /// empty) with `key` and `model`; the demo empties the base URL.
    pub fn apply(&self, settings: &mut Settings, base_url: &str, key: &str, model: &str) {
        let c = &mut settings.character;
        c.chat_api = self.chat_api;
        c.chat_base_url = if self.id == "demo" {
            String::new()
        } else if base_url.trim().is_empty() {
            self.base_url.into()
        } else {
            base_url.trim().into()
        };
        c.key = key.trim().to_string().into();
        c.model = model.trim().into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::USUAL_PORTS;

    #[test]
    fn every_provider_is_listed_once_with_a_usable_url() {
        let ids: std::collections::BTreeSet<_> = PROVIDERS.iter().map(|p| p.id).collect();
        assert_eq!(ids.len(), PROVIDERS.len());
        for p in PROVIDERS.iter().filter(|p| !p.base_url.is_empty()) {
            let mut s = Settings::default();
            p.apply(&mut s, "", "k", "m");
            assert!(s.validate().is_ok(), "{}: {:?}", p.id, s.validate());
            let chat = crate::transport::endpoint(p.base_url, "chat/completions");
            assert!(chat.ends_with("/chat/completions") && !chat.contains("/v1/v1/"), "{chat}");
        }
        assert_eq!(
            crate::transport::endpoint(provider("gemini").unwrap().base_url, "chat/completions"),
            "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions"
        );
    }

    #[test]
    fn the_local_ones_are_the_servers_discovery_finds_on_their_ports() {
        for (port, kind) in USUAL_PORTS {
            let p = of_kind(*kind);
            assert_eq!(p.local, Some(*kind));
            assert!(p.base_url.ends_with(&format!(":{port}")), "{}", p.base_url);
            assert!(!p.needs_key);
        }
        assert_eq!(of_kind(ServerKind::OpenaiCompatible).id, "openai_compatible");
    }

    #[test]
    fn a_pick_sets_the_connection_and_the_demo_keeps_none() {
        let mut s = Settings::default();
        provider("ollama").unwrap().apply(&mut s, "", "", " llama3.2 ");
        assert_eq!(
            (s.character.chat_api, s.character.chat_base_url.as_str(), s.character.model.as_str()),
            (ChatApi::ChatCompletions, "http://127.0.0.1:11434", "llama3.2")
        );
        provider("openai_compatible").unwrap().apply(&mut s, " http://10.0.0.2:9000 ", "k", "m");
        assert_eq!(s.character.chat_base_url, "http://10.0.0.2:9000");
        provider("demo").unwrap().apply(&mut s, "http://ignored", "", "");
        assert!(s.uses_demo());
    }
}
