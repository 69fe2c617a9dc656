import { describe, expect, it } from "vitest";
import { BLINK_MS, BlinkSchedule } from "./blink";

describe("BlinkSchedule", () => {
  it("blinks every 2–6 s for 150 ms", () => {
    let r = 0;
    const seq = [0.5, 0.9, 0.1, 0.9, 0.99, 0.9];
    const b = new BlinkSchedule(0, () => seq[r++ % seq.length]);
    const first = b.next;
    expect(first).toBe(4000);
    expect(b.value(first - 1)).toBe(0);
    expect(b.value(first)).toBe(1);
    expect(b.value(first + BLINK_MS - 1)).toBe(1);
    expect(b.value(first + BLINK_MS)).toBe(0);
    const second = b.next;
    expect(second - (first + BLINK_MS)).toBeGreaterThanOrEqual(2000);
    expect(second - (first + BLINK_MS)).toBeLessThanOrEqual(6000);
  });

  it("sometimes blinks twice", () => {
    const b = new BlinkSchedule(0, () => 0.05); // 0.05 < the double chance
    const first = b.next;
    b.value(first + BLINK_MS);
    expect(b.next).toBeGreaterThan(first + BLINK_MS);
    expect(b.next).toBeLessThan(first + 1000);
  });
});

describe("BlinkSchedule.upcoming", () => {
  it("is the next blink's window, then the one after once it has passed", () => {
    const b = new BlinkSchedule(0, () => 0.5);
    const w = b.upcoming;
    expect(w).toEqual({ start: b.next, end: b.next + BLINK_MS });
    expect(b.value(w.start + 10)).toBe(1);
    expect(b.upcoming).toEqual(w); // still the current blink while shut
    b.value(w.end);
    expect(b.upcoming.start).toBeGreaterThanOrEqual(w.end + 2000);
  });
});
