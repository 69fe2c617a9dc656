// The turn slice, shared by every window of a character: the running turn,
// the messages the core queued behind it, and the running turn's reasoning,
// folded from the core's turn events. Pure: every function returns the slice
// it got when nothing changed (the views compare by reference).

import type { ChatEvent, UiEvent } from "../bindings/index";

/** The running turn and the messages waiting behind it. */
export interface TurnSlice {
  /** The running turn's id, or null when none runs. */
  running: string | null;
  /**
   * The messages the core queued behind it, oldest first. Its length is the
   * core's last count; a text this page never saw (it opened after the
   * message was queued) is "".
   */
  queued: string[];
  /** The running turn's reasoning so far ("" before any, and after `turn_started`). */
  reasoning: string;
  /** True while the reasoning streams: from a reasoning piece until the answer's first piece (or the turn's end). */
  reasoningLive: boolean;
}

/** The turn slice before any event arrived. */
export function initialTurn(): TurnSlice {
  return { running: null, queued: [], reasoning: "", reasoningLive: false };
}

/**
 * Fold an event into the turn slice. `turn_queued` sets the queue to the
 * core's count; a typed `turn_started` that is not a remake (`remakes` set)
 * dequeues the oldest message, an empty-text turn (the backend's own)
 * dequeues nothing. Exhaustive over `UiEvent["type"]`.
 */
export function reduceTurn(turn: TurnSlice, event: UiEvent): TurnSlice {
  switch (event.type) {
    case "turn_started": {
      const dequeues = event.text !== "" && event.remakes === undefined && turn.queued.length > 0;
      return { running: event.turn_id, queued: dequeues ? turn.queued.slice(1) : turn.queued, reasoning: "", reasoningLive: false };
    }
    case "turn_queued":
      return { ...turn, queued: queueTo([...turn.queued, event.text], event.queued) };
    case "turn_ended":
      if (turn.running !== event.turn_id) return turn;
      return { ...turn, running: null, reasoningLive: false };
    case "reasoning":
      if (event.delta === "" && turn.reasoningLive) return turn;
      return { ...turn, reasoning: turn.reasoning + event.delta, reasoningLive: true };
    case "reasoning_full":
      if (event.text === turn.reasoning && turn.reasoningLive) return turn;
      return { ...turn, reasoning: event.text, reasoningLive: true };
    case "speech":
    case "tool_status":
      return answering(turn);
    case "chat":
      return chatEvent(turn, event.event);
    case "session_reset":
      return isInitial(turn) ? turn : initialTurn();
    case "status":
    case "cue":
    case "speech_done":
    case "speech_halted":
    case "voice_input":
    case "delegations":
    case "failure_line":
    case "context_sent":
    case "character_changed":
    case "screen_watch":
    case "tool_offer":
    case "images_sent":
    case "conversation":
    case "notice":
    case "body":
    case "drag_by_system":
      return turn;
    default: {
      const unknown: never = event;
      console.warn("unknown UiEvent", unknown);
      return turn;
    }
  }
}

/** The answer's first pieces end the reasoning's stream. */
function chatEvent(turn: TurnSlice, event: ChatEvent): TurnSlice {
  switch (event.type) {
    case "delta":
    case "tool_drafting":
    case "tool_call":
      return answering(turn);
    default:
      return turn;
  }
}

/** The answer began: the reasoning no longer streams. */
function answering(turn: TurnSlice): TurnSlice {
  return turn.reasoningLive ? { ...turn, reasoningLive: false } : turn;
}

/** `queued` cut or padded (with unknown "" texts, oldest) to the core's `count`. */
function queueTo(queued: string[], count: number): string[] {
  const n = Math.max(0, count);
  if (queued.length > n) return queued.slice(queued.length - n);
  if (queued.length < n) return [...Array<string>(n - queued.length).fill(""), ...queued];
  return queued;
}

function isInitial(turn: TurnSlice): boolean {
  return turn.running === null && turn.queued.length === 0 && turn.reasoning === "" && !turn.reasoningLive;
}

/** True while a turn runs. */
export function isRunning(turn: TurnSlice): boolean {
  return turn.running !== null;
}

/** How many messages wait behind the running turn. */
export function queuedCount(turn: TurnSlice): number {
  return turn.queued.length;
}

/** The waiting messages this page knows the text of, oldest first. */
export function queuedTexts(turn: TurnSlice): string[] {
  return turn.queued.filter((t) => t !== "");
}

/** True while the running turn's reasoning streams (she is thinking, not yet answering). */
export function isThinking(turn: TurnSlice): boolean {
  return turn.running !== null && turn.reasoningLive;
}

/** The user pressed Stop: the core drops the queue too. Unchanged when nothing waits. */
export function stopped(turn: TurnSlice): TurnSlice {
  return turn.queued.length === 0 ? turn : { ...turn, queued: [] };
}
