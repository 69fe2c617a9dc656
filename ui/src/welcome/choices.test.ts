import { describe, expect, it } from "vitest";
import type { Provider } from "../bindings/index";
import { setLanguage } from "../i18n/index";
import { choicesOf, PROBLEM_ADVICE, providerName } from "./choices";

const provider = (id: string, local: Provider["local"] = null, base_url = ""): Provider => ({ id, name: id.toUpperCase(), chat_api: "chat_completions", base_url, needs_key: false, local });
const providers = [provider("openai", null, "https://api.openai.com/v1"), provider("ollama", "ollama", "http://127.0.0.1:11434"), provider("openai_compatible"), provider("demo")];

describe("what the welcome offers", () => {
  it("lists what runs here first, as the provider it is, with its models", () => {
    const { found } = choicesOf(providers, [
      { base_url: "http://127.0.0.1:11434", kind: "ollama", models: ["qwen3:8b", "phi4"] },
      { base_url: "http://127.0.0.1:4000", kind: "litellm", models: ["gpt-4o"] },
    ]);
    expect(found.map((c) => [c.provider.id, c.label, c.detail, c.found])).toEqual([
      ["ollama", "OLLAMA", "http://127.0.0.1:11434 · 2 models", true],
      ["openai_compatible", "OpenAI-compatible server", "http://127.0.0.1:4000 · 1 model", true],
    ]);
    expect(found[0].models).toEqual(["qwen3:8b", "phi4"]);
  });

  it("offers every provider but the demo, which keeps its own button", () => {
    const { offered } = choicesOf(providers, []);
    expect(offered.map((c) => c.provider.id)).toEqual(["openai", "ollama", "openai_compatible"]);
    expect(offered[2].detail).toBe("you give the address");
  });

  it("says in plain words what failed and what to try", () => {
    expect(Object.keys(PROBLEM_ADVICE).sort()).toEqual(["key_refused", "model_missing", "unreachable", "wrong_protocol"]);
    for (const text of Object.values(PROBLEM_ADVICE)) expect(text().length).toBeGreaterThan(40);
  });

  it("names the core's descriptive providers from the catalog and keeps brands as they are", () => {
    expect(providerName(provider("push"))).toBe("A push backend");
    expect(providerName(provider("unheard_of"))).toBe("UNHEARD_OF");
    setLanguage("ja");
    try {
      expect(providerName(provider("openai_compatible"))).toBe("任意の OpenAI 互換 URL");
      expect(providerName(provider("ollama"))).toBe("OLLAMA");
      expect(choicesOf(providers, [{ base_url: "http://127.0.0.1:4000", kind: "litellm", models: ["a", "b"] }]).found[0].detail).toBe("http://127.0.0.1:4000 · モデル 2 個");
    } finally {
      setLanguage("en");
    }
  });
});
