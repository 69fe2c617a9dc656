// When the eyes blink: every 2–6 s at random, 150 ms each, sometimes twice.
// Pure: the clock and the random source come in.

/** How long the eyes stay shut for one blink. */
export const BLINK_MS = 150;
/** The gap between the two blinks of a double blink. */
const DOUBLE_GAP_MS = 120;
/** One blink in this many is a double blink. */
const DOUBLE_CHANCE = 0.2;

/** One blink: the eyes shut at `start` and open again at `end` (ms). */
export interface BlinkWindow {
  start: number;
  end: number;
}

/** A random-blink schedule. */
export class BlinkSchedule {
  private blinks: number[] = [];

  /** Start blinking from `nowMs`, with `random` in [0, 1). */
  constructor(
    nowMs: number,
    private readonly random: () => number = Math.random,
  ) {
    this.plan(nowMs);
  }

  /** Blink weight at `nowMs`: 1 while shut, 0 while open. */
  value(nowMs: number): number {
    while (this.blinks.length > 0 && nowMs >= this.blinks[0] + BLINK_MS) {
      this.blinks.shift();
      if (this.blinks.length === 0) this.plan(nowMs);
    }
    const next = this.blinks[0];
    return next !== undefined && nowMs >= next ? 1 : 0;
  }

  /** When the next blink starts. */
  get next(): number {
    return this.blinks[0];
  }

  /** The next (or current) blink, for a render loop that draws only when the eyes change. */
  get upcoming(): BlinkWindow {
    const start = this.blinks[0];
    return { start, end: start + BLINK_MS };
  }

  /** Plan the next blink (or pair) 2–6 s after `nowMs`. */
  private plan(nowMs: number): void {
    const start = nowMs + 2000 + this.random() * 4000;
    this.blinks = [start];
    if (this.random() < DOUBLE_CHANCE) this.blinks.push(start + BLINK_MS + DOUBLE_GAP_MS);
  }
}
