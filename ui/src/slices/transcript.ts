// The transcript slice, shared by the chat window and the pet: the current
// conversation (the `chat` events folded in by chat/transcript.ts, the user's
// rows from `turn_started`, replaced whole by a `conversation` snapshot), an
// older one opened read-only, and a message to focus. Pure: a function
// returns the slice it got when nothing changed.

import type { ApprovalCard, ApprovalDecision, ApprovalState, ChatPage, Conversation, UiEvent } from "../bindings/index";
import { answerApproval, apply, newConversation, pickVersion, user } from "../chat/transcript";

/** The conversation on screen. */
export interface TranscriptSlice {
  /** The current conversation: the one live events and new messages go to. */
  current: Conversation;
  /** An older conversation opened from the list or search (read-only), or null. */
  older: Conversation | null;
  /** A message to scroll to and highlight once shown (a search hit), or null. */
  focus: string | null;
}

/** The transcript before anything loaded: an empty current conversation. */
export function initialTranscript(nowMs = 0): TranscriptSlice {
  return { current: newConversation("", nowMs), older: null, focus: null };
}

/**
 * Fold one core event in at `nowMs`. Only the current conversation takes
 * live events; a remake's `turn_started` (`remakes` set) adds no user row.
 * Exhaustive over `UiEvent["type"]`.
 */
export function reduceTranscript(t: TranscriptSlice, event: UiEvent, nowMs: number): TranscriptSlice {
  switch (event.type) {
    case "turn_started":
      if (event.remakes !== undefined) return t;
      return withCurrent(t, user(t.current, event.turn_id, event.text, nowMs, event.files ?? []));
    case "chat":
      return withCurrent(t, apply(t.current, event.event, nowMs));
    case "conversation": {
      const older = t.older?.id === event.conversation.id ? null : t.older;
      return { ...t, current: keepLoaded(t.current, event.conversation), older };
    }
    case "status":
    case "turn_queued":
    case "turn_ended":
    case "cue":
    case "speech":
    case "speech_done":
    case "speech_halted":
    case "voice_input":
    case "reasoning":
    case "reasoning_full":
    case "tool_status":
    case "delegations":
    case "failure_line":
    case "session_reset":
    case "context_sent":
    case "character_changed":
    case "screen_watch":
    case "tool_offer":
    case "images_sent":
    case "notice":
    case "body":
    case "drag_by_system":
      return t;
    default: {
      const unknown: never = event;
      console.warn("unknown UiEvent", unknown);
      return t;
    }
  }
}

/** The current conversation whole, as `chat_conversation {id: null}` answered (null: keep what is there). */
export function loadedTranscript(t: TranscriptSlice, current: Conversation | null): TranscriptSlice {
  return current ? { ...t, current } : t;
}

/** Show conversation `conv` (the current one, or an older one read-only), focusing message `focus`. */
export function openOlder(t: TranscriptSlice, conv: Conversation, focus: string | null = null): TranscriptSlice {
  // The current conversation shows in place when the message is loaded;
  // else its window around the message opens read-only, like an older one.
  const inPlace = conv.id === t.current.id && (focus === null || t.current.messages.some((m) => m.id === focus));
  const older = inPlace ? null : conv;
  return { ...t, older, focus };
}

/**
 * A snapshot of the current conversation carries its newest messages only:
 * the older ones this window already loaded (scrolling up) stay in front of
 * them when the snapshot starts inside what is loaded.
 */
export function keepLoaded(loaded: Conversation, snapshot: Conversation): Conversation {
  if (loaded.id !== snapshot.id || !snapshot.more_before || snapshot.messages.length === 0) return snapshot;
  const first = loaded.messages.findIndex((m) => m.id === snapshot.messages[0].id);
  if (first <= 0) return snapshot;
  return { ...snapshot, messages: [...loaded.messages.slice(0, first), ...snapshot.messages], more_before: loaded.more_before };
}

/**
 * A page came for the conversation on screen: older messages go in front,
 * newer ones behind (each only when it joins what is shown; a late page for
 * another conversation, or one that no longer joins, changes nothing).
 */
export function pageLoaded(t: TranscriptSlice, page: ChatPage, older: boolean): TranscriptSlice {
  const conv = t.older ?? t.current;
  if (conv.id !== page.conversation_id) return t;
  const joined = older ? prepend(conv, page) : append(conv, page);
  if (joined === conv) return t;
  return t.older ? { ...t, older: joined } : { ...t, current: joined };
}

function prepend(conv: Conversation, page: ChatPage): Conversation {
  const known = new Set(conv.messages.map((m) => m.id));
  const fresh = page.messages.filter((m) => !known.has(m.id));
  if (fresh.length === 0 && page.more_before === conv.more_before) return conv;
  return { ...conv, messages: [...fresh, ...conv.messages], more_before: page.more_before };
}

function append(conv: Conversation, page: ChatPage): Conversation {
  const known = new Set(conv.messages.map((m) => m.id));
  const fresh = page.messages.filter((m) => !known.has(m.id));
  if (fresh.length === 0 && page.more_after === conv.more_after) return conv;
  return { ...conv, messages: [...conv.messages, ...fresh], more_after: page.more_after };
}

/** Back to the current conversation. */
export function backToCurrentTranscript(t: TranscriptSlice): TranscriptSlice {
  return t.older === null && t.focus === null ? t : { ...t, older: null, focus: null };
}

/** The view scrolled to the focused message: forget it. */
export function focusedTranscript(t: TranscriptSlice): TranscriptSlice {
  return t.focus === null ? t : { ...t, focus: null };
}

/** Show answer `n` of `msgId` in the conversation on screen, before the core says anything. */
export function showVersionIn(t: TranscriptSlice, msgId: string, n: number): TranscriptSlice {
  if (t.older) {
    const older = pickVersion(t.older, msgId, n);
    return older === t.older ? t : { ...t, older };
  }
  return withCurrent(t, pickVersion(t.current, msgId, n));
}

/** The card state an approval decision leaves. */
export function decisionState(decision: ApprovalDecision): ApprovalState {
  switch (decision) {
    case "allow":
      return "allowed";
    case "always":
      return "always";
    case "deny":
      return "denied";
    default: {
      const unknown: never = decision;
      return unknown;
    }
  }
}

/** The user answered approval card `approvalId` of the current conversation: show the answer at once. */
export function answerIn(t: TranscriptSlice, approvalId: string, decision: ApprovalDecision): TranscriptSlice {
  return withCurrent(t, answerApproval(t.current, approvalId, decisionState(decision)));
}

/** A pending approval card and the assistant message it belongs to. */
export interface PendingApproval {
  /** The card. */
  card: ApprovalCard;
  /** The assistant message (turn) it belongs to. */
  msgId: string;
}

/** `newestPending`'s answers by conversation (a conversation is never changed in place). */
const pendingOf = new WeakMap<Conversation, PendingApproval | null>();

/** The newest approval card of the current conversation still pending, or null. */
export function newestPending(t: TranscriptSlice): PendingApproval | null {
  const known = pendingOf.get(t.current);
  if (known !== undefined) return known;
  const found = findPending(t.current);
  pendingOf.set(t.current, found);
  return found;
}

function findPending(conv: Conversation): PendingApproval | null {
  const msgs = conv.messages;
  for (let mi = msgs.length - 1; mi >= 0; mi--) {
    const m = msgs[mi];
    for (let ai = m.answers.length - 1; ai >= 0; ai--) {
      const cards = m.answers[ai].approvals;
      for (let ci = cards.length - 1; ci >= 0; ci--) {
        if (cards[ci].state === "pending") return { card: cards[ci], msgId: m.id };
      }
    }
  }
  return null;
}

function withCurrent(t: TranscriptSlice, current: Conversation): TranscriptSlice {
  return current === t.current ? t : { ...t, current };
}
