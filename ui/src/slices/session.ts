// The session's slices every window of a character keeps: connection, turn
// and delegations, folded by one function so the same event gives the same
// slices in the pet, the chat and the settings window. (The transcript slice,
// `transcript.ts`, is folded beside it by the windows that show one.)

import type { DelegationItem, Status, UiEvent } from "../bindings/index";
import { initialConnection, reduceConnection } from "./connection";
import { reduceDelegations } from "./delegations";
import { initialTurn, reduceTurn, stopped as stoppedTurn, type TurnSlice } from "./turn";

export { canSend } from "./connection";
export { chipItems, chipText } from "./delegations";
export { isRunning, isThinking, queuedCount, queuedTexts, stopped, type TurnSlice } from "./turn";

/** The slices of one session that every window mirrors. */
export interface SessionSlices {
  /** The connection state, as the core last reported it. */
  connection: Status;
  /** The running turn, its queue and its reasoning. */
  turn: TurnSlice;
  /** The backend's latest delegations list. */
  delegations: DelegationItem[];
}

/** The slices before any event arrived. */
export function initialSession(): SessionSlices {
  return { connection: initialConnection(), turn: initialTurn(), delegations: [] };
}

/**
 * Fold one core event into the slices of `s` (a page state may carry more
 * fields; they are kept). Returns `s` itself when no slice changed.
 */
export function reduceSession<S extends SessionSlices>(s: S, event: UiEvent): S {
  const connection = reduceConnection(s.connection, event);
  const turn = reduceTurn(s.turn, event);
  const delegations = reduceDelegations(s.delegations, event);
  if (connection === s.connection && turn === s.turn && delegations === s.delegations) return s;
  return { ...s, connection, turn, delegations };
}

/** The user pressed Stop: the core drops the queue, so every slice-holder drops it too. */
export function sessionStopped<S extends SessionSlices>(s: S): S {
  const turn = stoppedTurn(s.turn);
  return turn === s.turn ? s : { ...s, turn };
}
