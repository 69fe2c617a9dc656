// window.__yui: the hook end-to-end tests (and screenshots) read the page through.

import type { Cue } from "../bindings/index";
import type { PostureView } from "./character/posture";
import type { Rect } from "./hittest";
import { asking, thinking, type Asking, type State } from "./state";

/** The last cue and what the character made of it. */
export interface LastCue {
  /** The cue as the core sent it. */
  cue: Cue;
  /** The expression shown for its emotion_id (null: it had none). */
  expression: string | null;
  /** The clip played for its motion_id (null: it had none). */
  motion: string | null;
}

/** The page state as the hook shows it: the state, plus the fields the
 * end-to-end tests read by their older names (derived from the slices). */
export type TestState = State & {
  /** The connection slice (`connection`). */
  status: State["connection"];
  /** True while a turn runs (`turn.running !== null`). */
  thinking: boolean;
  /** How many messages wait (`turn.queued.length`). */
  queued: number;
  /** The running turn's reasoning (`turn.reasoning`). */
  reasoning: string;
  /** The approval notice, derived from the transcript. */
  asking: Asking | null;
};

/** `state` with the derived fields the end-to-end tests read. */
export function testState(state: State): TestState {
  return { ...state, status: state.connection, thinking: thinking(state), queued: state.turn.queued.length, reasoning: state.turn.reasoning, asking: asking(state) };
}

/** The hook end-to-end tests read the page through. */
export interface TestHook {
  /** The state the page renders now, with the derived fields of `testState`. */
  state(): TestState;
  /** Send `text` as if the user typed it. */
  send(text: string): Promise<void>;
  /** True once the VRM loaded and a frame of it was drawn. */
  ready(): boolean;
  /** The VRM's expression weights now, by expression name. */
  expressions(): Record<string, number>;
  /** The last cue and how it was resolved, or null before the first. */
  lastCue(): LastCue | null;
  /** Frames drawn in the last second. */
  fps(): number;
  /** The frame rate the loop aims for now (0 while hidden). */
  targetFps(): number;
  /** True once nothing has happened for a while (settle.ts's SETTLE_MS): only breathing and blinks are drawn. */
  settled(): boolean;
  /** The click-through hit test at window point (x, y), on a freshly drawn frame. */
  hitAt(x: number, y: number): boolean;
  /** What the shell was last told: true = clicks pass through the window; null before the first. */
  clickThrough(): boolean | null;
  /** The character's screen box now, CSS pixels (zero box before it loads). */
  characterBox(): Rect;
  /** Which backend the page talks to: "tauri" or "fake". */
  backend(): "tauri" | "fake";
  /** How far the character's mouth is open now, 0..1 (the widest mouth shape). */
  mouthOpen(): number;
  /** The mouth levels the shell's lip channel delivered so far: how many, how many above 0.02, the last. */
  lipLevels(): { count: number; loud: number; last: number };
  /** The body the page draws now: the core's posture, gait and peek (null when not peeking), the clip, her facing. */
  pose(): PostureView;
}

declare global {
  interface Window {
    /** Set once the page is wired; for end-to-end tests. */
    __yui?: TestHook;
  }
}

/** Publish `hook` as window.__yui. */
export function installTestHook(hook: TestHook): void {
  window.__yui = hook;
}
