// The sidebar's conversation list: newest first, the current one marked,
// the one on screen highlighted; each row deletes its conversation, and the
// list ends with "Delete all conversations" (both asked through the
// in-app confirmation by the caller).

import type { ConversationSummary } from "../bindings/index";
import { h } from "./dom";
import { when } from "./format";

/** What the user does in the list. */
export interface ListActions {
  /** Show this conversation. */
  open(c: ConversationSummary): void;
  /** Delete this conversation. */
  remove(c: ConversationSummary): void;
  /** Delete every conversation. */
  removeAll(): void;
}

/** Render `list` into `root`. */
export function renderConversations(root: HTMLElement, list: ConversationSummary[], shownId: string, now: number, actions: ListActions): void {
  const rows = list.map((c) => {
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
    item.addEventListener("click", () => actions.open(c));
    const remove = h("button", { type: "button", class: "conversation-delete", "data-id": c.id, title: "Delete conversation", "aria-label": `Delete ${c.title || "New chat"}` }, "×");
    remove.addEventListener("click", () => actions.remove(c));
    return h("div", { class: "conversation-row" }, item, remove);
  });
  const anything = list.some((c) => c.messages > 0);
  const all = h("button", { type: "button", id: "delete-all", class: "link conversation-delete-all", disabled: !anything }, "Delete all conversations");
  all.addEventListener("click", () => actions.removeAll());
  root.replaceChildren(...rows, all);
}
