// Which way she faces: while a move carries the window (walk, climb, hop) she
// turns toward where it goes, read from the window's screen x frame by frame;
// when it stops she turns back to the viewer. Pure: the x comes in.

import type { PostureClip } from "./postureblend";

/** How far she turns toward the way she goes, degrees. */
export const FACING_DEG = 35;
/** The turn's time constant, seconds. */
const TURN_TAU_S = 0.12;
/** Window moves under this many CSS px a frame are no direction. */
const MIN_STEP_PX = 0.5;

/** True for the moves she turns for: walks, climbs, hops (a fall or the user's hold carries her without her choosing a way). */
export function turnsFor(clip: PostureClip): boolean {
  return clip === "walk" || clip === "climb" || clip === "hop";
}

/** The facing of one window: feed it the window's x each frame. */
export class Facing {
  private lastX: number | null = null;
  /** −1 toward screen left, 1 toward screen right, 0 at the viewer. */
  private dir = 0;
  /** The yaw now, degrees (+: toward screen right). */
  yaw = 0;

  /** Where she should face: FACING_DEG times the way the window last went, 0 when still. */
  get target(): number {
    return this.dir * FACING_DEG;
  }

  /** True while she still turns. */
  get turning(): boolean {
    return this.yaw !== this.target;
  }

  /**
   * One frame: the window's `screenX` now, `dt` seconds since the last, and
   * whether a move she turns for is under way. Returns the yaw to draw.
   * A move straight up or down keeps the way she last faced.
   */
  update(screenX: number, dt: number, moving: boolean): number {
    const dx = this.lastX === null ? 0 : screenX - this.lastX;
    this.lastX = screenX;
    if (!moving) this.dir = 0;
    else if (Math.abs(dx) >= MIN_STEP_PX) this.dir = Math.sign(dx);
    const target = this.target;
    const k = 1 - Math.exp(-Math.max(0, dt) / TURN_TAU_S);
    this.yaw += (target - this.yaw) * k;
    if (Math.abs(target - this.yaw) < 0.5) this.yaw = target;
    return this.yaw;
  }
}
