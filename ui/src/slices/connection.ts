// The connection slice, shared by every window of a character: the core's
// last `Status` (one flat enum), folded from `status` events.

import type { Status, UiEvent } from "../bindings/index";

/** The connection state before any event arrived. */
export function initialConnection(): Status {
  return { state: "connecting", attempt: 0 };
}

/** Fold an event into the connection slice (only `status` changes it). */
export function reduceConnection(status: Status, event: UiEvent): Status {
  return event.type === "status" ? event.status : status;
}

/** True while a turn can be sent now. */
export function canSend(status: Status): boolean {
  return status.state === "ready" || status.state === "stateless";
}
