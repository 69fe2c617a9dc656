// What the welcome offers (docs/welcome.md): the servers found on this
// computer first, each as the provider it is, then every provider but the
// demo (its own button keeps it); and, when a connection test fails, what
// failed and what to try. Pure: vitest runs it as is.

import type { FoundServer, ProbeProblem, Provider } from "../bindings/index";

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

/** The found servers as choices, then the providers (the demo left out). */
export function choicesOf(providers: Provider[], found: FoundServer[]): { found: Choice[]; offered: Choice[] } {
  const fallback = providers.find((p) => p.id === "openai_compatible");
  const foundChoices = found.flatMap((f) => {
    const provider = providers.find((p) => p.local === f.kind) ?? fallback;
    if (!provider) return [];
    const models = f.models.length === 1 ? "1 model" : `${f.models.length} models`;
    const label = provider.id === "openai_compatible" ? "OpenAI-compatible server" : provider.name;
    return [{ provider, baseUrl: f.base_url, models: f.models, found: true, label, detail: `${f.base_url} · ${models}` }];
  });
  const offered = providers
    .filter((p) => p.id !== "demo")
    .map((provider) => ({ provider, baseUrl: provider.base_url, models: [], found: false, label: provider.name, detail: provider.base_url || "you give the address" }));
  return { found: foundChoices, offered };
}

/** What failed in a connection test, in plain words, and what to try. */
export const PROBLEM_ADVICE: Record<ProbeProblem, string> = {
  unreachable: "Nothing answers at that address. Check that the server is running and that the base URL, with its port, is right.",
  key_refused: "The server refused the key. Copy it again from the provider's page, with nothing before or after it.",
  model_missing: "The key works, but that model does not answer there. Check its exact name in the server's list.",
  wrong_protocol: "Something answers there, but not with this protocol. Try Chat Completions (most servers speak it), or check the base URL.",
};
