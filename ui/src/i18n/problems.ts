// A problem the core or the shell reports, in the user's language: the
// core's own line as a catalog message when it wrote one (`phrase`), else
// the code's headline from the catalog (common.ftl), then the core's detail
// (which names the server, file or device, as it said it).

import type { ErrorCode, Phrase } from "../bindings/index";
import { has, t } from "./index";

/** The headline of each code, in the current language (every code has one: the type says so). */
const HEADLINES: Record<ErrorCode, () => string> = {
  network: () => t("error-network"),
  auth: () => t("error-auth"),
  hello_timeout: () => t("error-hello-timeout"),
  frame_malformed: () => t("error-frame-malformed"),
  frame_oversize: () => t("error-frame-oversize"),
  stall: () => t("error-stall"),
  turn_failed: () => t("error-turn-failed"),
  settings: () => t("error-settings"),
  storage: () => t("error-storage"),
  unsupported: () => t("error-unsupported"),
  closed: () => t("error-closed"),
  context_reset: () => t("error-context-reset"),
  audio: () => t("error-audio"),
  unknown_character: () => t("error-unknown-character"),
};

/** The headline of `code` alone. */
export function problemHeadline(code: ErrorCode): string {
  return (HEADLINES[code] ?? HEADLINES.closed)();
}

/**
 * The problem as one line: the core's phrase in the current language when
 * it sent one ("Not connected to the backend."), else `code`'s headline and
 * the detail `message` ("Can't reach the backend: connection refused").
 */
export function problemText(problem: { code: ErrorCode; message: string; phrase?: Phrase }): string {
  const phrase = problem.phrase;
  if (phrase && has(phrase.id)) return t(phrase.id, phrase.args);
  const detail = problem.message.trim();
  return detail ? t("error-with-detail", { headline: problemHeadline(problem.code), detail }) : problemHeadline(problem.code);
}
