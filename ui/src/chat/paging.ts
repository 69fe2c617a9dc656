// Windows and pages over a whole conversation in memory, as the core's
// history answers them (`chat_conversation` with `at`, `chat_page`): the
// browser fake serves its demo conversations with these.

import type { ChatPage, Conversation } from "../bindings/index";

/** Messages per page, as the core's `CHAT_PAGE_MESSAGES`. */
export const PAGE_MESSAGES = 50;

/** `conv` as a window opens it: its newest page, or the page around message `at`. */
export function windowOf(conv: Conversation, at: string | null, size = PAGE_MESSAGES): Conversation {
  const n = conv.messages.length;
  const pos = at === null ? -1 : conv.messages.findIndex((m) => m.id === at);
  const from = pos >= 0 ? Math.max(0, pos - Math.floor(size / 2)) : Math.max(0, n - size);
  const to = pos >= 0 ? Math.min(n, from + size) : n;
  return { ...conv, messages: conv.messages.slice(from, to), more_before: from > 0, more_after: to < n };
}

/** The page right before message `before` or right after message `after`; empty for an unknown message. */
export function pageOf(conv: Conversation, before: string | null, after: string | null, size = PAGE_MESSAGES): ChatPage {
  const n = conv.messages.length;
  const at = (id: string | null) => (id === null ? -1 : conv.messages.findIndex((m) => m.id === id));
  let from = 0;
  let to = 0;
  if (at(before) >= 0) {
    to = at(before);
    from = Math.max(0, to - size);
  } else if (at(after) >= 0) {
    from = at(after) + 1;
    to = Math.min(n, from + size);
  }
  return { conversation_id: conv.id, messages: conv.messages.slice(from, to), more_before: to > 0 && from > 0, more_after: to > 0 && to < n };
}
