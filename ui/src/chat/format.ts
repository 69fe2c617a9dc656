// The words and numbers the chat window shows, as pure functions: usage
// line, latency hover, error titles, reasoning clock, approval countdown,
// file sizes, tool output tails. Tested without a DOM.

import type { Answer, ApprovalCard, ErrorCard, Latency, UsageLine } from "../bindings/index";

/** How long an approval card waits before the core denies it. */
export const APPROVAL_TIMEOUT_MS = 300_000;
/** How much of a tool's output a card shows before "Show all". */
export const OUTPUT_TAIL_CHARS = 1_200;

/** Seconds with one decimal under ten, whole above: "1.5s", "12s". */
export function seconds(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return s < 10 ? `${s.toFixed(1)}s` : `${Math.round(s)}s`;
}

/** The reasoning panel's title, or null when there is no reasoning to show. */
export function reasoningTitle(a: Answer, now: number): string | null {
  if (a.reasoning === "") return null;
  if (a.reasoning_ms === undefined && a.state === "streaming") return `Thinking… ${seconds(now - a.started_ms)}`;
  return `Thought for ${seconds(a.reasoning_ms ?? 0)}`;
}

/** True while the reasoning clock still runs (the panel counts). */
export function thinking(a: Answer): boolean {
  return a.state === "streaming" && a.reasoning !== "" && a.reasoning_ms === undefined && a.text === "";
}

/** The usage line: "N chars · S s · TTFT T s · X tokens / W". */
export function usageText(u: UsageLine): string {
  const parts = [`${u.chars.toLocaleString("en-US")} chars`, `${u.seconds.toFixed(1)} s`];
  if (u.ttft !== undefined) parts.push(`TTFT ${u.ttft.toFixed(2)} s`);
  if (u.tokens && u.context_window) {
    parts.push(`${u.tokens.total_tokens.toLocaleString("en-US")} tokens / ${u.context_window.toLocaleString("en-US")}`);
  }
  return parts.join(" · ");
}

/** The usage line's hover: "request sent +a ms, first token +b ms, …" (steps that happened only). */
export function latencyText(l: Latency | undefined): string {
  if (!l) return "";
  const steps: [string, number | undefined][] = [
    ["request sent", l.request_sent_ms],
    ["first token", l.first_token_ms],
    ["first sentence", l.first_sentence_ms],
    ["first audio", l.first_audio_ms],
  ];
  return steps
    .filter((s): s is [string, number] => typeof s[1] === "number")
    .map(([name, ms]) => `${name} +${Math.round(ms)} ms`)
    .join(", ");
}

/** An error card's title by kind. */
export function errorTitle(kind: string): string {
  switch (kind) {
    case "auth":
      return "Key refused";
    case "rate_limit":
      return "Rate limited";
    case "empty":
      return "No output";
    case "no_answer":
      return "The tools ran, but no answer came back";
    case "internal":
    default:
      return "Something went wrong";
  }
}

/** An error card's second line: the server's message when it says more than the title, and for no_answer the count. */
export function errorDetail(e: ErrorCard): string {
  if (e.kind === "no_answer") return `(${e.tools_ok} tool call${e.tools_ok === 1 ? "" : "s"} succeeded)`;
  const msg = e.message.trim();
  return msg === errorTitle(e.kind) ? "" : msg;
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

/** What an answered approval card says. */
export function approvalWord(state: ApprovalCard["state"]): string {
  switch (state) {
    case "pending":
      return "Waiting for you";
    case "allowed":
      return "Allowed";
    case "always":
      return "Always allowed";
    case "denied":
      return "Denied";
    case "timed_out":
      return "Timed out — denied";
    case "ended":
      return "The run ended";
    case "gone":
      return "No longer pending";
    default: {
      const unknown: never = state;
      return String(unknown);
    }
  }
}

/** A file size in SI units: "512 B", "3.2 kB", "2.0 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
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

/** A time for the list and search: "14:05" today, else "Mar 3". */
export function when(ms: number, now: number): string {
  const d = new Date(ms);
  const today = new Date(now);
  if (d.toDateString() === today.toDateString()) {
    return d.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" });
  }
  return d.toLocaleDateString("en-US", { month: "short", day: "numeric" });
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
  if (title === null) return { question: "Delete all conversations? This cannot be undone.", confirm: "Delete all" };
  return { question: `Delete “${title.trim() || "New chat"}”? This cannot be undone.`, confirm: "Delete" };
}
