// The delegations slice, shared by every window of a character: the
// backend's latest list, and what the chip shows of it.

import type { DelegationItem, UiEvent } from "../bindings/index";
import { t } from "../i18n/index";

/** How long a done delegation stays in the chip after its `ended_at` (`docs/push-protocol.md`, "Delegations": 30 min). */
export const DELEGATION_DONE_KEPT_MS = 30 * 60 * 1000;

/** Fold an event into the delegations slice (each `delegations` list replaces the last). */
export function reduceDelegations(items: DelegationItem[], event: UiEvent): DelegationItem[] {
  return event.type === "delegations" ? event.items : items;
}

/** The delegations the chip shows at `nowMs` (epoch ms): running ones, and
 * done ones until 30 min after their `ended_at` (30:00 exactly still shows;
 * the same rule as the core's `delegations::chip`). */
export function chipItems(items: DelegationItem[], nowMs: number): DelegationItem[] {
  return items.filter((d) => d.state === "running" || d.ended_at === undefined || nowMs - d.ended_at <= DELEGATION_DONE_KEPT_MS);
}

/** The chip's text in the current language: "2 running · 1 done", or null when nothing shows. */
export function chipText(items: DelegationItem[]): string | null {
  if (items.length === 0) return null;
  const running = items.filter((d) => d.state === "running").length;
  const done = items.length - running;
  const parts = [running ? t("shared-delegations-running", { count: running }) : "", done ? t("shared-delegations-done", { count: done }) : ""];
  return parts.filter(Boolean).join(" · ");
}
