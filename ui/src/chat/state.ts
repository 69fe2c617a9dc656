// What the chat window shows, in slices, and the one function that folds core
// events into it (`reduce`), plus the page's own actions (Stop, open an older
// conversation, pick a version, answer an approval, search). Pure: no DOM, no
// Tauri, so vitest runs it as is.

import type { ApprovalDecision, ApprovalState, Conversation, SearchHit, Status, UiEvent } from "../bindings/index";
import { initialConnection, reduceConnection } from "../slices/connection";
import { answerApproval, apply, newConversation, pickVersion, user } from "./transcript";

/** The running turn and the messages waiting behind it. */
export interface TurnSlice {
  /** The running turn's id, or null when none runs. */
  running: string | null;
  /** Messages the core queued behind it, oldest first. */
  queued: string[];
  /**
   * The assistant message a Regenerate remakes, until its turn starts. The
   * core sends a remake's user message again as a new turn; that turn adds
   * no user row (the row is there already).
   */
  remaking: string | null;
}

/** The conversation on screen. */
export interface TranscriptSlice {
  /** The current conversation: the one live events and new messages go to. */
  current: Conversation;
  /** An older conversation opened from the list or search (read-only), or null. */
  older: Conversation | null;
  /** A message to scroll to and highlight once shown (a search hit), or null. */
  focus: string | null;
}

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

/** Everything the chat window renders. */
export interface ChatState {
  /** The connection state, as the core last reported it. */
  connection: Status;
  /** The running turn and the queue. */
  turn: TurnSlice;
  /** The conversation shown. */
  transcript: TranscriptSlice;
  /** The search overlay. */
  search: SearchSlice;
  /** The last one-off line, or null. */
  notice: Notice | null;
}

/** The state before anything loaded. */
export function initialState(now = 0): ChatState {
  return {
    connection: initialConnection(),
    turn: { running: null, queued: [], remaking: null },
    transcript: { current: newConversation("", now), older: null, focus: null },
    search: { open: false, query: "", hits: [] },
    notice: null,
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

/** Fold one core event in. Only the current conversation receives live events. */
export function reduce(state: ChatState, event: UiEvent, now: number): ChatState {
  switch (event.type) {
    case "status":
      return { ...state, connection: reduceConnection(state.connection, event) };
    case "turn_started": {
      // A Regenerate's turn: its user message is already there (the core says which message it remakes).
      if (event.remakes !== undefined || remakes(state, event.text)) {
        return { ...state, turn: { ...state.turn, running: event.turn_id, remaking: null } };
      }
      const queued = event.text !== "" && state.turn.queued.length > 0 ? state.turn.queued.slice(1) : state.turn.queued;
      const current = user(state.transcript.current, event.turn_id, event.text, now, event.files ?? []);
      return { ...withCurrent(state, current), turn: { running: event.turn_id, queued, remaking: null } };
    }
    case "turn_queued": {
      const queued = [...state.turn.queued, event.text];
      // The core's count wins: the oldest ones left the queue already.
      const kept = event.queued > 0 && queued.length > event.queued ? queued.slice(-event.queued) : queued;
      return { ...state, turn: { ...state.turn, queued: kept } };
    }
    case "turn_ended":
      if (state.turn.running !== event.turn_id) return state;
      return { ...state, turn: { ...state.turn, running: null } };
    case "chat":
      return withCurrent(state, apply(state.transcript.current, event.event, now));
    case "conversation": {
      const older = state.transcript.older?.id === event.conversation.id ? null : state.transcript.older;
      return { ...state, transcript: { ...state.transcript, current: event.conversation, older } };
    }
    case "session_reset":
      return { ...state, turn: { running: null, queued: [], remaking: null } };
    case "notice": {
      // A refused Regenerate says so in a notice: no remake is coming.
      const turn = state.turn.remaking === null ? state.turn : { ...state.turn, remaking: null };
      return say({ ...state, turn }, event.message.split(/\r?\n/, 1)[0].trim());
    }
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
    case "screen_request_refused":
    case "images_sent":
      // The pet window's business; the chat events carry the transcript.
      return state;
    default: {
      const unknown: never = event;
      console.warn("unknown UiEvent", unknown);
      return state;
    }
  }
}

/** The current conversation whole, as `chat_conversation {id: null}` answered. */
export function loaded(state: ChatState, current: Conversation | null): ChatState {
  return current ? { ...state, transcript: { ...state.transcript, current } } : state;
}

/** The page sent Regenerate for assistant message `msgId`. */
export function regenerateSent(state: ChatState, msgId: string): ChatState {
  return { ...state, turn: { ...state.turn, remaking: msgId } };
}

/** True when a turn with `text` is the pending remake: its text is the user message before the remade one. */
function remakes(state: ChatState, text: string): boolean {
  const msgId = state.turn.remaking;
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
  return say({ ...state, turn: { ...state.turn, queued: [] } }, `Queue cleared (${n})`);
}

/** Show conversation `conv` (from the list or a search hit), focusing message `focus`. */
export function openConversation(state: ChatState, conv: Conversation, focus: string | null = null): ChatState {
  const older = conv.id === state.transcript.current.id ? null : conv;
  return { ...state, transcript: { ...state.transcript, older, focus } };
}

/** Back to the current conversation. */
export function backToCurrent(state: ChatState): ChatState {
  return { ...state, transcript: { ...state.transcript, older: null, focus: null } };
}

/** The view scrolled to the focused message: forget it. */
export function focused(state: ChatState): ChatState {
  return state.transcript.focus === null ? state : { ...state, transcript: { ...state.transcript, focus: null } };
}

/** The version picker stepped: show answer `n` of `msgId` now, before the core says anything. */
export function showVersion(state: ChatState, msgId: string, n: number): ChatState {
  const t = state.transcript;
  if (t.older) return { ...state, transcript: { ...t, older: pickVersion(t.older, msgId, n) } };
  return withCurrent(state, pickVersion(t.current, msgId, n));
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

/** The user answered approval card `id`: show the answer at once. */
export function approved(state: ChatState, id: string, decision: ApprovalDecision): ChatState {
  return withCurrent(state, answerApproval(state.transcript.current, id, decisionState(decision)));
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

function withCurrent(state: ChatState, current: Conversation): ChatState {
  if (current === state.transcript.current) return state;
  return { ...state, transcript: { ...state.transcript, current } };
}
