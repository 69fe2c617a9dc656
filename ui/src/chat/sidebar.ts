// The sidebar's conversation list: newest first, the current one marked,
// the one on screen highlighted.

import type { ConversationSummary } from "../bindings/index";
import { h } from "./dom";
import { when } from "./format";

/** Render `list` into `root`; `onOpen` gets the chosen conversation. */
export function renderConversations(
  root: HTMLElement,
  list: ConversationSummary[],
  shownId: string,
  now: number,
  onOpen: (c: ConversationSummary) => void,
): void {
  root.replaceChildren(
    ...list.map((c) => {
      const item = h(
        "button",
        {
          type: "button",
          class: `conversation-item${c.id === shownId ? " shown" : ""}`,
          "data-id": c.id,
          "data-current": c.current ? "true" : "false",
          "aria-current": c.id === shownId ? "page" : null,
          title: c.title,
        },
        h("span", { class: "conversation-title" }, c.title || "New chat"),
        h("span", { class: "conversation-meta" }, c.current ? "current · " : "", when(c.updated_ms, now)),
      );
      item.addEventListener("click", () => onOpen(c));
      return item;
    }),
  );
}
