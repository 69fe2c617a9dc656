// The words and numbers the chat window shows, as pure functions: usage
// line, latency hover, error titles, reasoning clock, approval countdown,
// file sizes, tool output tails. The words come from the catalog
// (crates/yui-i18n/locales/<language>/chat.ftl), the numbers and dates
// from Intl in the current language. Tested without a DOM.

import type { Answer, ApprovalCard, ErrorCard, Latency, UsageLine } from "../bindings/index";
import { formatDate, formatNumber, language, t } from "../i18n/index";
import { NEW_CHAT_TITLE } from "./transcript";

/** How long an approval card waits before the core denies it. */
export const APPROVAL_TIMEOUT_MS = 300_000;
/** How much of a tool's output a card shows before "Show all". */
export const OUTPUT_TAIL_CHARS = 1_200;

/** `value` with exactly `digits` decimals, in the current language. */
function fixed(value: number, digits: number): string {
  return formatNumber(value, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Seconds with one decimal under ten, whole above: "1.5s", "12s". */
export function seconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return t("chat-seconds", { value: s < 10 ? fixed(s, 1) : fixed(Math.round(s), 0) });
}

/** The live reasoning panel's title: "Thinking… 3.2s". */
export function thinkingTitle(ms: number): string {
  return t("chat-thinking", { time: seconds(ms) });
}

/** The reasoning panel's title, or null when there is no reasoning to show. */
export function reasoningTitle(a: Answer, now: number): string | null {
  if (a.reasoning === "") return null;
  if (a.reasoning_ms === undefined && a.state === "streaming") return thinkingTitle(now - a.started_ms);
  return t("chat-thought-for", { time: seconds(a.reasoning_ms ?? 0) });
}

/** True while the reasoning clock still runs (the panel counts). */
export function thinking(a: Answer): boolean {
  return a.state === "streaming" && a.reasoning !== "" && a.reasoning_ms === undefined && a.text === "";
}

/** The usage line: "N chars · S s · TTFT T s · X tokens / W". */
export function usageText(u: UsageLine): string {
  const parts = [t("chat-usage-chars", { count: u.chars }), t("chat-usage-seconds", { value: fixed(u.seconds, 1) })];
  if (u.ttft !== undefined) parts.push(t("chat-usage-ttft", { value: fixed(u.ttft, 2) }));
  if (u.tokens && u.context_window) {
    parts.push(t("chat-usage-tokens", { tokens: u.tokens.total_tokens, window: u.context_window }));
  }
  return parts.join(" · ");
}

/** The steps of a reply's latency, in the order they happen. */
type LatencyStep = keyof Latency;

/** Each latency step's words, with its milliseconds. */
const LATENCY_STEPS: Record<LatencyStep, (ms: string) => string> = {
  request_sent_ms: (ms) => t("chat-latency-request-sent", { ms }),
  first_token_ms: (ms) => t("chat-latency-first-token", { ms }),
  first_sentence_ms: (ms) => t("chat-latency-first-sentence", { ms }),
  first_audio_ms: (ms) => t("chat-latency-first-audio", { ms }),
};

/** The usage line's hover: "request sent +a ms, first token +b ms, …" (steps that happened only). */
export function latencyText(l: Latency | undefined): string {
  if (!l) return "";
  const steps: LatencyStep[] = ["request_sent_ms", "first_token_ms", "first_sentence_ms", "first_audio_ms"];
  const said = steps.flatMap((step) => {
    const ms = l[step];
    return typeof ms === "number" ? [LATENCY_STEPS[step](formatNumber(Math.round(ms)))] : [];
  });
  return new Intl.ListFormat(language(), { type: "unit", style: "short" }).format(said);
}

/** The error kinds the chat window titles by name (any other is `internal`'s). */
type ErrorKind = "auth" | "rate_limit" | "empty" | "no_answer" | "internal";

/** An error card's title by kind. */
const ERROR_TITLES: Record<ErrorKind, () => string> = {
  auth: () => t("chat-error-auth"),
  rate_limit: () => t("chat-error-rate-limit"),
  empty: () => t("chat-error-empty"),
  no_answer: () => t("chat-error-no-answer"),
  internal: () => t("chat-error-internal"),
};

/**
 * The core's own words for a kind, in English (crates/yui-protocol/src/chat/vocabulary.rs):
 * a message that only says them adds nothing to the title.
 */
const CORE_WORDS: Partial<Record<ErrorKind, string>> = {
  // not-ui-text: compared with what the core sent, never shown
  empty: "No output",
  // not-ui-text: compared with what the core sent, never shown
  no_answer: "The tools ran, but no answer came back",
};

/** An error card's title by kind. */
export function errorTitle(kind: string): string {
  return (Object.hasOwn(ERROR_TITLES, kind) ? ERROR_TITLES[kind as ErrorKind] : ERROR_TITLES.internal)();
}

/** An error card's second line: the server's message when it says more than the title, and for no_answer the count. */
export function errorDetail(e: ErrorCard): string {
  if (e.kind === "no_answer") return t("chat-error-tools-succeeded", { count: e.tools_ok });
  const msg = e.message.trim();
  const core = Object.hasOwn(CORE_WORDS, e.kind) ? CORE_WORDS[e.kind as ErrorKind] : undefined;
  return msg === errorTitle(e.kind) || msg === core ? "" : msg;
}

/** Where an approval card stands at `now`: a pending card past its time shows as timed out. */
export function approvalShown(c: ApprovalCard, now: number): { state: ApprovalCard["state"]; left_s: number } {
  const left = c.asked_ms + APPROVAL_TIMEOUT_MS - now;
  if (c.state === "pending" && left <= 0) return { state: "timed_out", left_s: 0 };
  return { state: c.state, left_s: c.state === "pending" ? Math.ceil(left / 1000) : 0 };
}

/** A countdown as m:ss. */
export function countdown(s: number): string {
  const v = Math.max(0, Math.floor(s));
  return `${Math.floor(v / 60)}:${String(v % 60).padStart(2, "0")}`;
}

/** What an approval card says in each state. */
const APPROVAL_WORDS: Record<ApprovalCard["state"], () => string> = {
  pending: () => t("chat-approval-pending"),
  allowed: () => t("chat-approval-allowed"),
  always: () => t("chat-approval-always"),
  denied: () => t("chat-approval-denied"),
  timed_out: () => t("chat-approval-timed-out"),
  ended: () => t("chat-approval-ended"),
  gone: () => t("chat-approval-gone"),
};

/** What an answered approval card says. */
export function approvalWord(state: ApprovalCard["state"]): string {
  return (APPROVAL_WORDS[state] ?? (() => String(state)))();
}

/** A pending approval card's countdown: "4:59 left". */
export function approvalLeft(s: number): string {
  return t("chat-approval-left", { time: countdown(s) });
}

/** A file size in SI units: "512 B", "3.2 kB", "2.0 MB" (the units are the same in every language). */
export function fileSize(bytes: number): string {
  if (bytes < 1000) return `${formatNumber(bytes)} B`;
  if (bytes < 1_000_000) return `${fixed(bytes / 1000, 1)} kB`;
  return `${fixed(bytes / 1_000_000, 1)} MB`;
}

/** The last `max` characters of `text`, and whether it was cut. */
export function tail(text: string, max = OUTPUT_TAIL_CHARS): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  return { text: `…${text.slice(text.length - max)}`, cut: true };
}

/** Tool arguments as pretty JSON (a string argument as is). */
export function prettyArgs(args: unknown): string {
  if (args === null || args === undefined) return "";
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

/** The header's connection words and tone (the shared connection slice's). */
export { connectionText } from "../slices/connection";

/** A time for the list and search, in the current language: "14:05" today, else "Mar 3". */
export function when(ms: number, now: number): string {
  const d = new Date(ms);
  const today = new Date(now);
  if (d.toDateString() === today.toDateString()) {
    return formatDate(d, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  }
  return formatDate(d, { month: "short", day: "numeric" });
}

/** A conversation's title as shown: its own, or "New chat" in the current language while it has none. */
export function titleShown(title: string): string {
  const own = title.trim();
  return own === "" || own === NEW_CHAT_TITLE ? t("chat-untitled") : own;
}

/** What closes an answer in the view: the "Stopped" marker alone, an error card, or nothing. */
export type Outcome = { kind: "stopped" } | { kind: "error"; errorKind: string; title: string; detail: string } | null;

/** The answer's outcome: a stopped answer shows only "Stopped", never also an error. */
export function outcome(a: Answer): Outcome {
  if (a.state === "stopped") return { kind: "stopped" };
  if (a.error) return { kind: "error", errorKind: a.error.kind, title: errorTitle(a.error.kind), detail: errorDetail(a.error) };
  return null;
}

/** The confirmation for deleting the conversation titled `title`, or all of them (null). */
export function deleteQuestion(title: string | null): { question: string; confirm: string } {
  if (title === null) return { question: t("chat-delete-all-question"), confirm: t("chat-delete-all-confirm") };
  return { question: t("chat-delete-conversation-question", { title: titleShown(title) }), confirm: t("chat-delete-confirm") };
}
