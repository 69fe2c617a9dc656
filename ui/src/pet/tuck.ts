// Whether the composer tucks away: while she sits on another window, peeks
// from one, is held or is on the move, a text box hanging under her would
// cover the other app. It comes back as soon as the pointer is in her window,
// or while it has focus or text. Pure.

import type { PostureState } from "../bindings/index";

/** What the tuck depends on. */
export interface TuckInput {
  posture: PostureState;
  /** A move is under way (walk, climb, hop, fall). */
  moving: boolean;
  /** The pointer is inside the pet window. */
  pointerInside: boolean;
  /** The composer has the keyboard focus. */
  focused: boolean;
  /** The composer holds text not yet sent. */
  hasText: boolean;
}

/** True when the composer should be hidden (it keeps its place in the layout). */
export function composerTucked(t: TuckInput): boolean {
  if (t.pointerInside || t.focused || t.hasText) return false;
  return t.moving || t.posture === "sitting" || t.posture === "peeking" || t.posture === "dragging" || t.posture === "walking" || t.posture === "climbing";
}
