// The sidebar's conversation list: newest first, the current one marked,
// the one on screen highlighted; each row deletes its conversation, and the
// list ends with "Delete all conversations" (both asked through the
// in-app confirmation by the caller).

import type { ConversationSummary } from "../bindings/index";
import { mark, t } from "../i18n/index";
import { h } from "./dom";
import { titleShown, when } from "./format";

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
    const title = titleShown(c.title);
    const at = when(c.updated_ms, now);
    const item = h(
      "button",
      {
        type: "button",
        class: `conversation-item${c.id === shownId ? " shown" : ""}`,
        "data-id": c.id,
        "data-current": c.current ? "true" : "false",
        "aria-current": c.id === shownId ? "page" : null,
        // The title (text and hover) is the user's own words, or "New chat" in the current language.
        title,
        "data-words": "theirs",
      },
      h("span", { class: "conversation-title" }, title),
      h("span", { class: "conversation-meta" }, c.current ? t("chat-conversation-current", { when: at }) : at),
    );
    item.addEventListener("click", () => actions.open(c));
    const remove = h("button", { type: "button", class: "conversation-delete", "data-id": c.id }, "×");
    mark(remove, "chat-conversation-delete", { title });
    remove.addEventListener("click", () => actions.remove(c));
    return h("div", { class: "conversation-row" }, item, remove);
  });
  const anything = list.some((c) => c.messages > 0);
  // not-ui-text: class names
  const all = h("button", { type: "button", id: "delete-all", class: "link conversation-delete-all", disabled: !anything });
  mark(all, "chat-delete-all-conversations");
  all.addEventListener("click", () => actions.removeAll());
  root.replaceChildren(...rows, all);
}
