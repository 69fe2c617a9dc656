// The settings window's "Session" section: the character's background work
// (delegations), newest first as the core keeps it. A row with a summary
// opens it under the row; the list refreshes when the section comes into view,
// when the window gets focus, on "Refresh", and (debounced) when the core
// sends a new delegations list. It is drawn again when the language changes.

import { shell } from "../shell/shell";
import type { DelegationItem } from "../bindings";
import { language, onLanguage, t } from "../i18n/index";
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
export function emptyText(): string {
  return t("section-session-empty");
}

/** A done item's status as a key (the row's `data-status`): "error" reads "failed", none reads "unknown". */
export function statusText(status: string | undefined): string {
  const s = status?.trim() ?? "";
  if (s === "") return "unknown";
  return s === "error" ? "failed" : s;
}

/** The statuses the core gives, in words (`DelegationItem.status`). */
const STATUS_WORDS: Record<string, () => string> = {
  ok: () => t("section-session-status-ok"),
  failed: () => t("section-session-status-failed"),
  unknown: () => t("section-session-status-unknown"),
};

/** A done item's status in words; one the core added later reads as it says it. */
export function statusWords(status: string | undefined): string {
  const key = statusText(status);
  return Object.hasOwn(STATUS_WORDS, key) ? STATUS_WORDS[key]() : key;
}

/** The state badge: "running", or "done · " and the status. */
export function badgeText(item: DelegationItem): string {
  return item.state === "running" ? t("section-session-running") : t("section-session-done", { status: statusWords(item.status) });
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
  const lang = locale ?? language();
  const time = at.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
  if (sameDay(at, new Date(now))) return time;
  const year = at.getFullYear() === new Date(now).getFullYear() ? undefined : "numeric";
  return `${at.toLocaleDateString(lang, { month: "short", day: "numeric", year })} ${time}`;
}

/** The row's times: "started …", and "· ended …" when it has ended. */
export function timesText(item: DelegationItem, now: number, locale?: string): string {
  const started = t("section-session-started", { time: timeText(item.started_at, now, locale) });
  return item.ended_at === undefined ? started : t("section-session-started-ended", { started, time: timeText(item.ended_at, now, locale) });
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
  /** The last load's failure, shown in place of the list. */
  private failure: unknown = null;
  /** Whether a load has answered (before that the list stays empty). */
  private loaded = false;
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
    onLanguage(() => {
      if (this.loaded) this.render();
    });
  }

  /** Ask the core for the history and show it. */
  async load(): Promise<void> {
    try {
      this.items = await shell.delegationHistory();
      this.failure = null;
    } catch (e) {
      this.failure = e;
    }
    this.loaded = true;
    this.render();
  }

  private render(): void {
    if (this.failure !== null) {
      this.list.replaceChildren(Object.assign(document.createElement("li"), { className: "session-note error-line", textContent: errorText(this.failure) }));
      return;
    }
    const ids = new Set(this.items.map((d) => d.id));
    for (const id of this.open) if (!ids.has(id)) this.open.delete(id);
    if (this.items.length === 0) {
      this.list.replaceChildren(Object.assign(document.createElement("li"), { className: "session-note", textContent: emptyText() }));
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
    const title = span("delegation-title", d.title);
    // The agent's own words, in the language it wrote them.
    title.dataset.words = "theirs";
    head.append(title, span("delegation-badge", badgeText(d)));
    row.append(head, span("delegation-times", timesText(d, now)));
    li.append(row);
    if (row instanceof HTMLButtonElement) {
      row.type = "button";
      const summary = Object.assign(document.createElement("p"), { className: "delegation-summary", textContent: d.summary ?? "" });
      summary.dataset.words = "theirs";
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
