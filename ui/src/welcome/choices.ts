// What the welcome offers (docs/welcome.md): the servers found on this
// computer first, each as the provider it is, then every provider but the
// demo (its own button keeps it); and, when a connection test fails, what
// failed and what to try. Pure: vitest runs it as is. The words are in the
// current language (ui/src/i18n/index.ts): the page asks again after a switch.

import type { FoundServer, ProbeProblem, Provider } from "../bindings/index";
import { t } from "../i18n/index";

/** One thing the user can pick. */
export interface Choice {
  /** The provider it is. */
  provider: Provider;
  /** The base URL it starts with (empty: the user types one). */
  baseUrl: string;
  /** The models already known (a found server's). */
  models: string[];
  /** Found running on this computer. */
  found: boolean;
  /** Its name. */
  label: string;
  /** One line under it. */
  detail: string;
}

/**
 * A provider's name as the user reads it: the descriptive ones from the
 * catalog by id, a brand as the core names it (`crates/yui-core/src/providers.rs`).
 */
export function providerName(provider: Provider): string {
  switch (provider.id) {
    case "openai_compatible":
      return t("welcome-provider-openai-compatible");
    case "agent_chat":
      return t("welcome-provider-agent-chat");
    case "push":
      return t("welcome-provider-push");
    case "demo":
      return t("welcome-provider-demo");
    case "llama_cpp":
      return t("welcome-provider-llama-cpp");
    default:
      return provider.name;
  }
}

/** A choice's name: a server found on this computer that is no known kind reads "OpenAI-compatible server". */
export function choiceLabel(provider: Provider, found: boolean): string {
  return found && provider.id === "openai_compatible" ? t("welcome-found-compatible") : providerName(provider);
}

/** The found servers as choices, then the providers (the demo left out). */
export function choicesOf(providers: Provider[], found: FoundServer[]): { found: Choice[]; offered: Choice[] } {
  const fallback = providers.find((p) => p.id === "openai_compatible");
  const foundChoices = found.flatMap((f) => {
    const provider = providers.find((p) => p.local === f.kind) ?? fallback;
    if (!provider) return [];
    const models = t("welcome-found-models", { count: f.models.length });
    const label = choiceLabel(provider, true);
    return [{ provider, baseUrl: f.base_url, models: f.models, found: true, label, detail: `${f.base_url} · ${models}` }];
  });
  const offered = providers
    .filter((p) => p.id !== "demo")
    .map((provider) => ({
      provider,
      baseUrl: provider.base_url,
      models: [],
      found: false,
      label: choiceLabel(provider, false),
      detail: provider.base_url || t("welcome-address-yours"),
    }));
  return { found: foundChoices, offered };
}

/** What failed in a connection test, in plain words, and what to try. */
export const PROBLEM_ADVICE: Record<ProbeProblem, () => string> = {
  unreachable: () => t("welcome-problem-unreachable"),
  key_refused: () => t("welcome-problem-key-refused"),
  model_missing: () => t("welcome-problem-model-missing"),
  wrong_protocol: () => t("welcome-problem-wrong-protocol"),
};
