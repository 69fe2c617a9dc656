// Settling: when nothing has happened for a while the page draws only what
// moves on its own, breathing at a low rate and a short burst for each blink.
// Pure: the clock, the activity and the blink schedule come in.
//
// The budget, at ~70–90 ms of CPU a frame (software GL, 360×520): breathing at
// SETTLED_FPS = 1.5 is 90 frames a minute. A blink comes 2–6 s after the last
// one reopened (~4.15 s apart, ~14.5 a minute; one in five is a double). Each
// blink is two frames (shut, reopened) that replace about half a breath frame,
// since breathing restarts from the reopening: ~1.5 extra, ~3.5 for a double,
// so ~1.9 × 14.5 ≈ 28 a minute. Together ≈ 118 frames a minute ≈ 2 fps. At 2
// fps breathing `npm run bench:render` measured 2.4 fps and 21.4% of a core
// (about 9% a frame a second with the app's own share), over the 20% target;
// 1.5 brings it under. settle.test.ts checks the simulated average stays at or
// under 2.5 fps.

import { frameDelay, HEADROOM, type Activity } from "./framerate";
import type { BlinkWindow } from "./blink";

/** Milliseconds with nothing happening before she settles. */
export const SETTLE_MS = 20_000;
/** Frames a second while settled: enough for the breathing to read (it steps). */
export const SETTLED_FPS = 1.5;
/**
 * The shut frame of a blink is drawn this long after the eyes close, and the
 * reopened frame when they open (BLINK_MS = 150 later): 70 ms apart, a burst
 * at ~14 fps. A timer up to 70 ms late or 80 ms early still catches them shut.
 */
export const BLINK_LEAD_MS = 80;

/** What a frame reports, as the settle clock sees it. */
export type Stir = Omit<Activity, "hidden"> & {
  /** The pointer is over her (or the page's controls), or pressed on her. */
  pointerOver: boolean;
};

/** True when anything in `stir` keeps her from settling. */
export function restless(stir: Stir): boolean {
  return stir.speaking || stir.crossfading || stir.moving || stir.dragging || stir.thinking || stir.pointerOver;
}

/** When something last happened, and so whether she has settled. */
export class SettleClock {
  private last: number;

  /** Awake from `nowMs` (a page just shown is not settled). */
  constructor(nowMs: number) {
    this.last = nowMs;
  }

  /** Something happened at `nowMs`: stay awake for another SETTLE_MS. */
  poke(nowMs: number): void {
    this.last = Math.max(this.last, nowMs);
  }

  /** True once nothing has happened for SETTLE_MS. */
  settled(nowMs: number): boolean {
    return nowMs - this.last >= SETTLE_MS;
  }

  /** When she settles if nothing more happens. */
  get settlesAt(): number {
    return this.last + SETTLE_MS;
  }
}

/**
 * When the next settled frame is due, given the last frame was drawn at
 * `lastMs` and the eyes' next blink is `blink` (null: none to show, e.g. eyes
 * held closed in sleep). Breathing every 1/SETTLED_FPS; a blink gets a frame
 * BLINK_LEAD_MS into it (eyes shut) and one as it ends (eyes open again).
 */
export function settledNext(lastMs: number, blink: BlinkWindow | null): number {
  const breath = lastMs + 1000 / SETTLED_FPS;
  if (!blink) return breath;
  // A frame was drawn while the eyes were shut: the next one reopens them.
  if (lastMs >= blink.start && lastMs < blink.end) return Math.min(breath, blink.end);
  if (lastMs < blink.start) return Math.min(breath, blink.start + BLINK_LEAD_MS);
  return breath;
}

/** What the loop knows when it plans the next frame. */
export interface Plan {
  /** The document is hidden: draw nothing. */
  hidden: boolean;
  /** She has settled. */
  settled: boolean;
  /** The frame rate while awake (framerate.ts's targetFps). */
  awakeFps: number;
  /** The next blink, or null. */
  blink: BlinkWindow | null;
}

/** The frame rate the loop runs at under `plan` (settled: the breathing rate; hidden: 0). */
export function planRate(plan: Plan): number {
  if (plan.hidden) return 0;
  return plan.settled ? SETTLED_FPS : plan.awakeFps;
}

/**
 * Milliseconds until the next frame under `plan`, the last frame having
 * started at `lastMs` and cost `costMs` (at `nowMs` it ended); null when
 * none is due (hidden). The HEADROOM after an expensive frame is kept.
 * Settled delays are rounded up to whole milliseconds: timers truncate a
 * fraction, and a frame a fraction early would still show the eyes shut.
 */
export function planDelay(plan: Plan, lastMs: number, nowMs: number, costMs = 0): number | null {
  if (plan.hidden) return null;
  if (!plan.settled) return frameDelay(plan.awakeFps, lastMs, nowMs, costMs);
  return Math.ceil(Math.max(0, settledNext(lastMs, plan.blink) - nowMs, costMs * HEADROOM));
}
