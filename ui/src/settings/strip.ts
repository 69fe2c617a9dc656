// The settings window's session strip, under the title: the connection, a
// reply running (with its queue) and the delegations running, from the
// shared session slices the pet and the chat window fold too. The words are
// pure functions (tested without a DOM); `SessionStrip` only shows them,
// and shows them again when the language changes.

import type { DelegationItem } from "../bindings";
import { onLanguage, t } from "../i18n/index";
import { connectionText } from "../slices/connection";
import type { SessionSlices } from "../slices/session";
import { isRunning, isThinking, queuedCount, type TurnSlice } from "../slices/turn";

/** How a part of the strip is coloured. */
export type StripTone = "ok" | "busy" | "warn" | "bad";

/** One part of the strip. */
export interface StripPart {
  /** Which part: the connection, the reply, the delegations. */
  kind: "connection" | "turn" | "delegations";
  /** Its words. */
  text: string;
  /** Its colour. */
  tone: StripTone;
}


/** The reply's words: "Replying…", or "Thinking…" while the reasoning streams,
 * with "(+N queued)"; null while no turn runs. */
export function turnLabel(turn: TurnSlice): string | null {
  if (!isRunning(turn)) return null;
  const n = queuedCount(turn);
  if (isThinking(turn)) return n > 0 ? t("section-strip-thinking-queued", { count: n }) : t("section-strip-thinking");
  return n > 0 ? t("section-strip-replying-queued", { count: n }) : t("section-strip-replying");
}

/** The delegations' words: "2 running", or null when none runs. */
export function delegationsLabel(items: DelegationItem[]): string | null {
  const running = items.filter((d) => d.state === "running").length;
  return running > 0 ? t("section-strip-running", { count: running }) : null;
}

/** The strip's parts, in order: connection, then the reply and the delegations when there are any. */
export function stripParts(s: SessionSlices): StripPart[] {
  const parts: StripPart[] = [{ kind: "connection", ...connectionText(s.connection) }];
  const turn = turnLabel(s.turn);
  if (turn !== null) parts.push({ kind: "turn", text: turn, tone: "busy" });
  const delegations = delegationsLabel(s.delegations);
  if (delegations !== null) parts.push({ kind: "delegations", text: delegations, tone: "busy" });
  return parts;
}

/** The strip as one line: "Connected · Replying… (+1 queued) · 2 running". */
export function stripText(s: SessionSlices): string {
  return stripParts(s)
    .map((p) => p.text)
    .join(" · ");
}

/** The strip element (`#session-strip`): hidden until the first `render`. */
export class SessionStrip {
  private shown = "";
  private last: SessionSlices | null = null;

  /** Show the strip in `el`. */
  constructor(private readonly el: HTMLElement) {
    onLanguage(() => {
      if (this.last) this.render(this.last);
    });
  }

  /** Show `s` (the DOM is touched only when the words or tones changed). */
  render(s: SessionSlices): void {
    this.last = s;
    const parts = stripParts(s);
    const key = parts.map((p) => `${p.kind}:${p.tone}:${p.text}`).join("|");
    this.el.hidden = false;
    if (key === this.shown) return;
    this.shown = key;
    this.el.title = s.connection.state === "reconnecting" ? s.connection.reason : "";
    this.el.replaceChildren(
      ...parts.map((p) => {
        const span = document.createElement("span");
        span.className = `strip-part strip-${p.kind}`;
        span.dataset.tone = p.tone;
        span.textContent = p.text;
        return span;
      }),
    );
  }
}
