// The render loop with a frame budget: 60 fps while something moves, a low
// rate for idle breathing, nothing while the document is hidden.

import { FpsMeter, frameDelay, HEADROOM, targetFps, type Activity } from "./framerate";

/** What the loop calls each frame. */
export interface FrameHandler {
  /** Advance by `dt` seconds and draw; return what is going on, to pick the next frame's rate. */
  frame(dt: number, nowMs: number): Omit<Activity, "hidden">;
}

/** Schedules frames for `handler` under the budget. */
export class RenderLoop {
  private readonly meter = new FpsMeter();
  private last = performance.now();
  private timer: number | null = null;
  private raf: number | null = null;
  private rate = 0;

  /** Drive `handler`; starts at once and follows the document's visibility. */
  constructor(private readonly handler: FrameHandler) {
    document.addEventListener("visibilitychange", () => {
      if (document.hidden) this.cancel();
      else this.wake();
    });
    this.wake();
  }

  /** Frames drawn in the last second. */
  fps(): number {
    return this.meter.fps(performance.now());
  }

  /** The frame rate the loop runs at now (0 while hidden). */
  get targetRate(): number {
    return this.rate;
  }

  /** Draw a frame soon (something happened): at the next animation frame. */
  wake(): void {
    if (document.hidden) return;
    if (this.timer !== null) {
      window.clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.raf === null) this.raf = requestAnimationFrame(() => this.run());
  }

  /** Draw one frame now, synchronously (for hit tests that need fresh pixels). */
  drawNow(): void {
    this.step(performance.now());
  }

  /** One scheduled frame: draw, then schedule the next by the budget. */
  private run(): void {
    this.raf = null;
    const now = performance.now();
    const activity = { ...this.step(now), hidden: document.hidden };
    this.rate = targetFps(activity);
    const end = performance.now();
    const cost = end - now;
    const delay = frameDelay(this.rate, now, end, cost);
    if (delay === null) return;
    // Full rate on a fast machine: follow the display. Otherwise a timer.
    if (this.rate >= 60 && cost * HEADROOM <= 1000 / 60) this.raf = requestAnimationFrame(() => this.run());
    else
      this.timer = window.setTimeout(() => {
        this.timer = null;
        this.run();
      }, delay);
  }

  /** Advance the clock and draw. */
  private step(now: number): Omit<Activity, "hidden"> {
    const dt = Math.min(0.25, Math.max(0, (now - this.last) / 1000)); // the avatar sub-steps the springs
    this.last = now;
    const activity = this.handler.frame(dt, now);
    this.meter.tick(now);
    return activity;
  }

  /** Stop scheduling (hidden). */
  private cancel(): void {
    if (this.timer !== null) window.clearTimeout(this.timer);
    if (this.raf !== null) cancelAnimationFrame(this.raf);
    this.timer = null;
    this.raf = null;
    this.rate = 0;
  }
}
