// The render loop with a frame budget: 60 fps while something moves, a low
// rate while she is awake and still, breathing and blinks only once she has
// settled (settle.ts), nothing while the document is hidden.

import type { BlinkWindow } from "./blink";
import { FpsMeter, HEADROOM, targetFps } from "./framerate";
import { planDelay, planRate, restless, SettleClock, type Plan, type Stir } from "./settle";

/**
 * The longest step a frame advances, seconds: more than a settled frame's
 * period (1 / SETTLED_FPS), so the breathing keeps its pace when it steps, yet
 * bounded after a stall or a hidden spell (the avatar sub-steps the springs).
 */
export const MAX_DT_S = 1;

/** What a frame reports: what is going on, and the next blink to show. */
export type FrameReport = Stir & {
  /** The eyes' next blink (null: none would show). */
  blink: BlinkWindow | null;
};

/** What the loop calls each frame. */
export interface FrameHandler {
  /** Advance by `dt` seconds and draw; report what is going on, to plan the next frame. */
  frame(dt: number, nowMs: number): FrameReport;
}

/** Schedules frames for `handler` under the budget. */
export class RenderLoop {
  private readonly meter = new FpsMeter();
  private readonly settle = new SettleClock(performance.now());
  private last = performance.now();
  private timer: number | null = null;
  private raf: number | null = null;
  private rate = 0;
  private resting = false;

  /** Drive `handler`; starts at once and follows the document's visibility. */
  constructor(private readonly handler: FrameHandler) {
    document.addEventListener("visibilitychange", () => {
      if (document.hidden) this.cancel();
      else this.refresh(); // shown again: a fresh frame at once, then as planned
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

  /** True while she has settled (breathing and blinks only). */
  get settled(): boolean {
    return this.resting;
  }

  /** Something happened: stay awake, and draw at the next animation frame. */
  wake(): void {
    this.settle.poke(performance.now());
    this.refresh();
  }

  /** Something small happened (the pointer moved): stay awake; draw at once only if she had settled. */
  stir(): void {
    this.settle.poke(performance.now());
    if (this.resting) this.refresh();
  }

  /** Draw a fresh frame at the next animation frame without counting it as activity. */
  refresh(): void {
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
    const report = this.step(now);
    const hidden = document.hidden;
    if (restless(report)) this.settle.poke(now);
    const plan: Plan = {
      hidden,
      settled: this.settle.settled(now),
      awakeFps: targetFps({ ...report, hidden }),
      blink: report.blink,
    };
    this.rate = planRate(plan);
    this.resting = plan.settled;
    const end = performance.now();
    const cost = end - now;
    const delay = planDelay(plan, now, end, cost);
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
  private step(now: number): FrameReport {
    const dt = Math.min(MAX_DT_S, Math.max(0, (now - this.last) / 1000));
    this.last = now;
    const report = this.handler.frame(dt, now);
    this.meter.tick(now);
    return report;
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
