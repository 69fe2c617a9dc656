// The render budget: how many frames a second for what the character is doing,
// and a meter of how many were drawn. Pure.

/** What is going on, as the render loop sees it. */
export interface Activity {
  /** The document is hidden (minimised, other workspace): draw nothing. */
  hidden: boolean;
  /** Lips move to speech. */
  speaking: boolean;
  /** An expression is crossfading. */
  crossfading: boolean;
  /** A motion clip (or the thinking pose) is playing or blending. */
  moving: boolean;
  /** The window is being dragged, or the pointer is pressed on the character. */
  dragging: boolean;
  /** A turn is running (the thinking pose). */
  thinking: boolean;
}

/** Frames a second while something moves. */
export const ACTIVE_FPS = 60;
/** Frames a second for idle breathing and blinking. */
export const IDLE_FPS = 10;

/** The frame rate `activity` needs: 0 when hidden, 60 while something moves, 10 when idle. */
export function targetFps(activity: Activity): number {
  if (activity.hidden) return 0;
  if (activity.speaking || activity.crossfading || activity.moving || activity.dragging || activity.thinking) {
    return ACTIVE_FPS;
  }
  return IDLE_FPS;
}

/** Idle time kept after each frame, as a share of what the frame cost (slow, software-rendered GL). */
export const HEADROOM = 0.5;

/**
 * Milliseconds to wait before the next frame at `fps`, given the last frame
 * started at `lastMs` and took `costMs` to draw; null when no frame is due.
 * However high the rate, the page keeps `HEADROOM` × the cost free for input.
 */
export function frameDelay(fps: number, lastMs: number, nowMs: number, costMs = 0): number | null {
  if (fps <= 0) return null;
  return Math.max(0, 1000 / fps - (nowMs - lastMs), costMs * HEADROOM);
}

/** Counts frames drawn in the last second. */
export class FpsMeter {
  private frames: number[] = [];

  /** Record a frame drawn at `nowMs`. */
  tick(nowMs: number): void {
    this.frames.push(nowMs);
    this.prune(nowMs);
  }

  /** Frames drawn in the second before `nowMs`. */
  fps(nowMs: number): number {
    this.prune(nowMs);
    return this.frames.length;
  }

  /** Forget frames older than a second. */
  private prune(nowMs: number): void {
    let i = 0;
    while (i < this.frames.length && this.frames[i] <= nowMs - 1000) i++;
    if (i > 0) this.frames.splice(0, i);
  }
}
