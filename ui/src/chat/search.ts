// The search overlay (Ctrl/⌘K): a box, results from `chat_search` asked
// ~150 ms after the last keystroke, arrows and Enter to choose, Esc closes.

import type { SearchHit } from "../bindings/index";
import { language, t } from "../i18n/index";
import { byId, h } from "./dom";
import { titleShown, when } from "./format";

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 150;

/** What the overlay asks of the page. */
export interface SearchHooks {
  /** The query changed (debounced). */
  query(text: string): void;
  /** The user chose a hit. */
  choose(hit: SearchHit): void;
  /** The user closed the overlay. */
  close(): void;
}

/** The search overlay, bound to chat.html's `#search-overlay`. */
export class SearchOverlay {
  private readonly overlay = byId<HTMLElement>("search-overlay");
  private readonly input = byId<HTMLInputElement>("search-input");
  private readonly results = byId<HTMLElement>("search-results");
  private timer = 0;
  private hits: SearchHit[] = [];
  /** The language the results were written in. */
  private spoken = language();
  private selected = 0;

  constructor(private readonly hooks: SearchHooks) {
    this.input.addEventListener("input", () => {
      window.clearTimeout(this.timer);
      const text = this.input.value;
      this.timer = window.setTimeout(() => hooks.query(text), SEARCH_DEBOUNCE_MS);
    });
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        this.select(this.selected + (e.key === "ArrowDown" ? 1 : -1));
      } else if (e.key === "Enter" && this.hits[this.selected]) {
        e.preventDefault();
        hooks.choose(this.hits[this.selected]);
      }
    });
    this.overlay.addEventListener("mousedown", (e) => {
      if (e.target === this.overlay) hooks.close();
    });
  }

  /** Show or hide the overlay with `query` and `hits`. */
  render(open: boolean, query: string, hits: SearchHit[], now: number): void {
    const opening = open && this.overlay.hidden;
    this.overlay.hidden = !open;
    if (!open) return;
    if (opening) {
      this.input.value = query;
      this.input.focus();
      this.input.select();
    }
    if (hits !== this.hits || this.spoken !== language()) {
      this.hits = hits;
      this.spoken = language();
      this.selected = 0;
      this.results.replaceChildren(
        ...hits.map((hit, i) =>
          h(
            "li",
            { class: "search-hit", role: "option", "data-conversation-id": hit.conversation_id, "data-msg-id": hit.message_id, onclick: () => this.hooks.choose(hit), onmousemove: () => this.select(i) },
            h("div", { class: "hit-head" }, h("span", { class: "hit-title", "data-words": "theirs" }, titleShown(hit.title)), h("span", { class: "hit-time" }, when(hit.at_ms, now))),
            h("div", { class: "hit-snippet", "data-words": "theirs" }, hit.snippet),
          ),
        ),
      );
      if (hits.length === 0 && query.trim() !== "") this.results.append(h("li", { class: "search-empty" }, t("chat-search-none")));
      this.select(0);
    }
  }

  private select(i: number): void {
    if (this.hits.length === 0) return;
    this.selected = (i + this.hits.length) % this.hits.length;
    this.results.querySelectorAll(".search-hit").forEach((el, j) => el.setAttribute("aria-selected", String(j === this.selected)));
    this.results.children[this.selected]?.scrollIntoView({ block: "nearest" });
  }
}
