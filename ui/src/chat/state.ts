// What the chat window shows, in slices, and the one function that folds core
// events into it (`reduce`), plus the page's own actions (Stop, open an older
// conversation, pick a version, answer an approval, search). The connection,
// turn, delegations and transcript slices are the shared ones (`slices/`),
// folded the same way by the pet and the settings window. Pure: no DOM, no
// Tauri, so vitest runs it as is.

import type { ApprovalDecision, ChatPage, Conversation, SearchHit, UiEvent } from "../bindings/index";
import { t } from "../i18n/index";
import { problemText } from "../i18n/problems";
import { NO_OFFERS, reduceOffers, withoutOffer, type OffersSlice } from "../slices/offers";
import { initialSession, reduceSession, sessionStopped, type SessionSlices } from "../slices/session";
import {
  answerIn,
  backToCurrentTranscript,
  focusedTranscript,
  initialTranscript,
  loadedTranscript,
  openOlder,
  pageLoaded,
  reduceTranscript,
  showVersionIn,
  type TranscriptSlice,
} from "../slices/transcript";

export { decisionState } from "../slices/transcript";
export type { TranscriptSlice } from "../slices/transcript";
export type { TurnSlice } from "../slices/turn";

/** The search overlay. */
export interface SearchSlice {
  /** Whether the overlay is up. */
  open: boolean;
  /** What the user typed. */
  query: string;
  /** The hits of `query` (empty until they come). */
  hits: SearchHit[];
}

/** A one-off line for the user (a toast), with a serial so the view shows each once. */
export interface Notice {
  /** The line. */
  text: string;
  /** Counts up with each notice. */
  serial: number;
}

/** Everything the chat window renders: the shared slices and the page's own. */
export interface ChatState extends SessionSlices {
  /** The conversation shown. */
  transcript: TranscriptSlice;
  /**
   * The assistant message a Regenerate remakes, until its turn starts (the
   * page's own: a core that names the remade message in `turn_started`'s
   * `remakes` needs none). That turn adds no user row (the row is there already).
   */
  remaking: string | null;
  /** The search overlay. */
  search: SearchSlice;
  /** The last one-off line, or null. */
  notice: Notice | null;
  /** The standing offers to switch a tool switch on (shown as cards above the composer). */
  offers: OffersSlice;
}

/** The state before anything loaded. */
export function initialState(now = 0): ChatState {
  return {
    ...initialSession(),
    transcript: initialTranscript(now),
    remaking: null,
    search: { open: false, query: "", hits: [] },
    notice: null,
    offers: NO_OFFERS,
  };
}

/** The conversation on screen: the older one when one is open, else the current one. */
export function shown(state: ChatState): Conversation {
  return state.transcript.older ?? state.transcript.current;
}

/** True while an older conversation is shown (read-only, with a banner). */
export function readOnly(state: ChatState): boolean {
  return state.transcript.older !== null;
}

/**
 * True while a reply runs: a turn the core started, or the current
 * conversation's last answer still streaming (a Regenerate runs outside the
 * turn engine and sends no `turn_started`).
 */
export function busy(state: ChatState): boolean {
  if (state.turn.running !== null) return true;
  const last = state.transcript.current.messages.at(-1);
  return last?.role === "assistant" && last.answers.at(-1)?.state === "streaming";
}

/** Fold one core event in: the shared slices (only the current conversation
 * receives live events), then the page's own fields. */
export function reduce(state: ChatState, event: UiEvent, now: number): ChatState {
  const e = asRemake(state, event);
  const slices = reduceSession(state, e);
  const transcript = reduceTranscript(state.transcript, e, now);
  const next = transcript === slices.transcript ? slices : { ...slices, transcript };
  return reducePage(next, e);
}

/** The page's own fields. Exhaustive over `UiEvent["type"]`. */
function reducePage(state: ChatState, event: UiEvent): ChatState {
  switch (event.type) {
    case "turn_started":
    case "session_reset":
      return state.remaking === null ? state : { ...state, remaking: null };
    case "notice": {
      // A refused Regenerate says so in a notice: no remake is coming.
      const next = state.remaking === null ? state : { ...state, remaking: null };
      return say(next, problemText({ code: event.code, message: event.message.split(/\r?\n/, 1)[0].trim(), phrase: event.phrase }));
    }
    case "status":
    case "turn_queued":
    case "turn_ended":
    case "chat":
    case "conversation":
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
    case "context_sent":
    case "character_changed":
    case "screen_watch":
    case "tool_offer": {
      const offers = reduceOffers(state.offers, event);
      return offers === state.offers ? state : { ...state, offers };
    }
    case "images_sent":
    case "body":
    case "drag_by_system":
      // The slices took them (or they are the pet window's business).
      return state;
    default: {
      const unknown: never = event;
      console.warn("unknown UiEvent", unknown);
      return state;
    }
  }
}

/** A `turn_started` that remakes the page's pending Regenerate, marked as the
 * core marks one (`remakes`), so the slices add no user row and dequeue nothing. */
function asRemake(state: ChatState, event: UiEvent): UiEvent {
  if (event.type !== "turn_started" || event.remakes !== undefined || state.remaking === null) return event;
  return remakes(state, event.text) ? { ...event, remakes: state.remaking } : event;
}

/** The current conversation whole, as `chat_conversation {id: null}` answered. */
export function loaded(state: ChatState, current: Conversation | null): ChatState {
  return withTranscript(state, loadedTranscript(state.transcript, current));
}

/** The page sent Regenerate for assistant message `msgId`. */
export function regenerateSent(state: ChatState, msgId: string): ChatState {
  return { ...state, remaking: msgId };
}

/** True when a turn with `text` is the pending remake: its text is the user message before the remade one. */
function remakes(state: ChatState, text: string): boolean {
  const msgId = state.remaking;
  if (msgId === null) return false;
  const msgs = state.transcript.current.messages;
  const pos = msgs.findIndex((m) => m.role === "assistant" && m.id === msgId);
  const asked = msgs.slice(0, Math.max(0, pos)).reverse().find((m) => m.role === "user");
  return pos >= 0 && asked?.text === text;
}

/** The user pressed Stop: the core drops the queue too; say so once when there was one. */
export function stopPressed(state: ChatState): ChatState {
  const n = state.turn.queued.length;
  if (n === 0) return state;
  return say(sessionStopped(state), t("chat-queue-cleared", { count: n }));
}

/** Show conversation `conv` (from the list or a search hit), focusing message `focus`. */
export function openConversation(state: ChatState, conv: Conversation, focus: string | null = null): ChatState {
  return withTranscript(state, openOlder(state.transcript, conv, focus));
}

/** A page of the conversation on screen came: older messages in front, newer ones behind. */
export function pageArrived(state: ChatState, page: ChatPage, older: boolean): ChatState {
  return withTranscript(state, pageLoaded(state.transcript, page, older));
}

/** Back to the current conversation. */
export function backToCurrent(state: ChatState): ChatState {
  return withTranscript(state, backToCurrentTranscript(state.transcript));
}

/**
 * Conversation `id` was deleted (null: all of them). When the older one on
 * screen is gone, the window shows the current one again (the core sends
 * the current conversation, another one when the deleted one was current).
 */
export function conversationDeleted(state: ChatState, id: string | null): ChatState {
  const older = state.transcript.older;
  if (older === null || (id !== null && older.id !== id)) return state;
  return backToCurrent(state);
}

/** The view scrolled to the focused message: forget it. */
export function focused(state: ChatState): ChatState {
  return withTranscript(state, focusedTranscript(state.transcript));
}

/** The version picker stepped: show answer `n` of `msgId` now, before the core says anything. */
export function showVersion(state: ChatState, msgId: string, n: number): ChatState {
  return withTranscript(state, showVersionIn(state.transcript, msgId, n));
}

/** The user answered approval card `id`: show the answer at once. */
export function approved(state: ChatState, id: string, decision: ApprovalDecision): ChatState {
  return withTranscript(state, answerIn(state.transcript, id, decision));
}

/** The user accepted or dismissed the offer for switch `sw` here: its card goes. */
export function offerAnswered(state: ChatState, sw: string): ChatState {
  const offers = withoutOffer(state.offers, sw);
  return offers === state.offers ? state : { ...state, offers };
}

/** Open the search overlay (keeping the last query). */
export function openSearch(state: ChatState): ChatState {
  return { ...state, search: { ...state.search, open: true } };
}

/** Close the search overlay. */
export function closeSearch(state: ChatState): ChatState {
  return state.search.open ? { ...state, search: { ...state.search, open: false } } : state;
}

/** The user typed in the search box. */
export function searchTyped(state: ChatState, query: string): ChatState {
  return { ...state, search: { ...state.search, query, hits: query.trim() === "" ? [] : state.search.hits } };
}

/** Hits came for `query`; late answers to an older query are dropped. */
export function searchAnswered(state: ChatState, query: string, hits: SearchHit[]): ChatState {
  if (query !== state.search.query) return state;
  return { ...state, search: { ...state.search, hits } };
}

/** Show a one-off line. */
export function say(state: ChatState, text: string): ChatState {
  return { ...state, notice: { text, serial: (state.notice?.serial ?? 0) + 1 } };
}

function withTranscript(state: ChatState, transcript: TranscriptSlice): ChatState {
  return transcript === state.transcript ? state : { ...state, transcript };
}
