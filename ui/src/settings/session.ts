// The settings window's "Session" section: the character's background work
// (delegations), newest first as the core keeps it. A row with a summary
// opens it under the row; the list refreshes when the section comes into view,
// when the window gets focus, on "Refresh", and (debounced) when the core
// sends a new delegations list.

import { shell } from "../shell/shell";
import type { DelegationItem } from "../bindings";
import { errorText } from "./tools";

/** How long a burst of `delegations` events waits before the list reloads once. */
export const RELOAD_DEBOUNCE_MS = 300;

/** A trigger that runs `run` once, `ms` after its last call. */
export function debounce(run: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      run();
    }, ms);
  };
}

/** What the list says with nothing in it. */
export const EMPTY_TEXT = "No background work yet.";

/** A done item's status as the badge shows it ("error" reads "failed", none reads "unknown"). */
export function statusText(status: string | undefined): string {
  const s = status?.trim() ?? "";
  if (s === "") return "unknown";
  return s === "error" ? "failed" : s;
}

/** The state badge: "running", or "done · " and the status. */
export function badgeText(item: DelegationItem): string {
  return item.state === "running" ? "running" : `done · ${statusText(item.status)}`;
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/**
 * Epoch `ms` in local time, short: the time alone on `now`'s day, else the
 * date too (and the year when it is not `now`'s). `locale` is for tests.
 */
export function timeText(ms: number, now: number, locale?: string): string {
  const at = new Date(ms);
  if (!Number.isFinite(ms) || Number.isNaN(at.getTime())) return "";
  const time = at.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
  if (sameDay(at, new Date(now))) return time;
  const year = at.getFullYear() === new Date(now).getFullYear() ? undefined : "numeric";
  return `${at.toLocaleDateString(locale, { month: "short", day: "numeric", year })} ${time}`;
}

/** The row's times: "started …", and "· ended …" when it has ended. */
export function timesText(item: DelegationItem, now: number, locale?: string): string {
  const started = `started ${timeText(item.started_at, now, locale)}`;
  return item.ended_at === undefined ? started : `${started} · ended ${timeText(item.ended_at, now, locale)}`;
}

/** Whether the row opens a summary. */
export function hasSummary(item: DelegationItem): boolean {
  return (item.summary ?? "").trim() !== "";
}

function span(className: string, text: string): HTMLSpanElement {
  return Object.assign(document.createElement("span"), { className, textContent: text });
}

/** The list and its refresh. */
export class SessionSection {
  private readonly list: HTMLUListElement;
  private readonly open = new Set<string>();
  private items: DelegationItem[] = [];
  /** Reload soon: a burst of `delegations` events reloads the list once. */
  readonly reloadSoon = debounce(() => void this.load(), RELOAD_DEBOUNCE_MS);

  /** Wire the section `#session`, its `#session-list` and `#refresh-session`. */
  constructor() {
    const section = document.getElementById("session") as HTMLElement;
    this.list = document.getElementById("session-list") as HTMLUListElement;
    document.getElementById("refresh-session")?.addEventListener("click", () => void this.load());
    new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void this.load();
    }).observe(section);
    window.addEventListener("focus", () => void this.load());
  }

  /** Ask the core for the history and show it. */
  async load(): Promise<void> {
    try {
      this.items = await shell.delegationHistory();
      this.render();
    } catch (e) {
      this.list.replaceChildren(Object.assign(document.createElement("li"), { className: "session-note error-line", textContent: errorText(e) }));
    }
  }

  private render(): void {
    const ids = new Set(this.items.map((d) => d.id));
    for (const id of this.open) if (!ids.has(id)) this.open.delete(id);
    if (this.items.length === 0) {
      this.list.replaceChildren(Object.assign(document.createElement("li"), { className: "session-note", textContent: EMPTY_TEXT }));
      return;
    }
    const now = Date.now();
    this.list.replaceChildren(...this.items.map((d) => this.row(d, now)));
  }

  /** One item: the row (a button when it has a summary) and, when open, the summary under it. */
  private row(d: DelegationItem, now: number): HTMLLIElement {
    const li = document.createElement("li");
    const clickable = hasSummary(d);
    const row = document.createElement(clickable ? "button" : "div");
    row.className = "delegation-row";
    row.dataset.id = d.id;
    row.dataset.state = d.state;
    if (d.state === "done") row.dataset.status = statusText(d.status);
    const head = document.createElement("span");
    head.className = "delegation-head";
    head.append(span("delegation-title", d.title), span("delegation-badge", badgeText(d)));
    row.append(head, span("delegation-times", timesText(d, now)));
    li.append(row);
    if (row instanceof HTMLButtonElement) {
      row.type = "button";
      const summary = Object.assign(document.createElement("p"), { className: "delegation-summary", textContent: d.summary ?? "" });
      const show = (open: boolean) => {
        row.setAttribute("aria-expanded", String(open));
        if (open) li.append(summary);
        else summary.remove();
      };
      show(this.open.has(d.id));
      row.addEventListener("click", () => {
        const open = !this.open.has(d.id);
        if (open) this.open.add(d.id);
        else this.open.delete(d.id);
        show(open);
      });
    }
    return li;
  }
}
