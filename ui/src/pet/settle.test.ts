import { describe, expect, it } from "vitest";
import { BLINK_MS, BlinkSchedule, type BlinkWindow } from "./blink";
import { ACTIVE_FPS, HEADROOM, IDLE_FPS } from "./framerate";
import { BLINK_LEAD_MS, planDelay, planRate, restless, SETTLE_MS, SETTLED_FPS, SettleClock, settledNext, type Plan, type Stir } from "./settle";

const quiet: Stir = { speaking: false, crossfading: false, moving: false, dragging: false, thinking: false, pointerOver: false };
const settledPlan = (blink: BlinkWindow | null): Plan => ({ hidden: false, settled: true, awakeFps: IDLE_FPS, blink });

/** A seeded random source in [0, 1) (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("SettleClock", () => {
  it("settles after SETTLE_MS with nothing happening", () => {
    const c = new SettleClock(1000);
    expect(c.settled(1000)).toBe(false);
    expect(c.settled(1000 + SETTLE_MS - 1)).toBe(false);
    expect(c.settled(1000 + SETTLE_MS)).toBe(true);
    expect(c.settlesAt).toBe(1000 + SETTLE_MS);
    expect(SETTLE_MS).toBeGreaterThanOrEqual(10_000);
  });

  it("wakes at once on activity and settles again only after another SETTLE_MS", () => {
    const c = new SettleClock(0);
    expect(c.settled(30_000)).toBe(true);
    c.poke(30_000);
    expect(c.settled(30_000)).toBe(false);
    expect(c.settled(30_000 + SETTLE_MS - 1)).toBe(false);
    expect(c.settled(30_000 + SETTLE_MS)).toBe(true);
    c.poke(10_000); // a late report of something older does not go back in time
    expect(c.settlesAt).toBe(30_000 + SETTLE_MS);
  });

  it("counts anything that moves, and the pointer over her, as activity", () => {
    expect(restless(quiet)).toBe(false);
    for (const key of ["speaking", "crossfading", "moving", "dragging", "thinking", "pointerOver"] as const) {
      expect(restless({ ...quiet, [key]: true }), key).toBe(true);
    }
  });
});

describe("planRate and planDelay", () => {
  it("draw nothing while hidden, settled or not", () => {
    for (const settled of [false, true]) {
      const plan: Plan = { hidden: true, settled, awakeFps: ACTIVE_FPS, blink: { start: 100, end: 250 } };
      expect(planRate(plan)).toBe(0);
      expect(planDelay(plan, 0, 10)).toBeNull();
    }
  });

  it("awake: follow the awake rate", () => {
    const plan: Plan = { hidden: false, settled: false, awakeFps: IDLE_FPS, blink: null };
    expect(planRate(plan)).toBe(IDLE_FPS);
    expect(planDelay(plan, 1000, 1030)).toBeCloseTo(70);
    expect(planRate({ ...plan, awakeFps: ACTIVE_FPS })).toBe(ACTIVE_FPS);
  });

  it("settled: breathe at SETTLED_FPS, keeping headroom after an expensive frame", () => {
    const plan = settledPlan(null);
    expect(planRate(plan)).toBe(SETTLED_FPS);
    expect(SETTLED_FPS).toBeLessThanOrEqual(2);
    expect(planDelay(plan, 1000, 1070, 70)).toBe(Math.ceil(1000 / SETTLED_FPS - 70)); // whole milliseconds, rounded up
    expect(planDelay(plan, 1000, 3000, 70)).toBe(35);
  });

  it("settled: whole milliseconds, never early (timers truncate a fraction)", () => {
    const blink = { start: 1000.4, end: 1150.4 };
    expect(planDelay(settledPlan(blink), 1080.4, 1100, 0)).toBe(51); // 50.4 → 51: the eyes are open by then
  });
});

describe("blink bursts", () => {
  const blink = { start: 10_200, end: 10_200 + BLINK_MS };

  it("schedule a frame into the blink instead of the next breath", () => {
    expect(settledNext(10_000, blink)).toBe(blink.start + BLINK_LEAD_MS);
    expect(blink.start + BLINK_LEAD_MS).toBeLessThan(blink.end);
  });

  it("reopen the eyes with a frame when the blink ends", () => {
    expect(settledNext(blink.start + BLINK_LEAD_MS, blink)).toBe(blink.end);
    // A breath frame that fell inside the blink also gets its reopening.
    expect(settledNext(blink.start + 5, blink)).toBe(blink.end);
  });

  it("leave breathing alone when the blink is far off, or past", () => {
    expect(settledNext(0, blink)).toBe(1000 / SETTLED_FPS);
    expect(settledNext(blink.end, blink)).toBe(blink.end + 1000 / SETTLED_FPS);
    expect(settledNext(0, null)).toBe(1000 / SETTLED_FPS);
  });

  it("burst at about 15 fps: shut and reopened frames 50–90 ms apart", () => {
    const gap = BLINK_MS - BLINK_LEAD_MS;
    expect(gap).toBeGreaterThanOrEqual(50);
    expect(gap).toBeLessThanOrEqual(90);
  });
});

/**
 * Run a settled loop for `ms` against a real blink schedule: each frame reads
 * the eyes as the face does, costs `costMs`, and the next is planned as the
 * loop plans it (a timer `lateMs` late). Returns the frames and every blink.
 */
function simulate(seed: number, ms: number, costMs: number, lateMs = 0) {
  const eyes = new BlinkSchedule(0, seeded(seed));
  const frames: { at: number; shut: boolean }[] = [];
  const blinks = new Map<number, BlinkWindow>();
  let t = 0;
  while (t < ms) {
    frames.push({ at: t, shut: eyes.value(t) === 1 });
    const next = eyes.upcoming;
    blinks.set(next.start, next);
    const end = t + costMs;
    const delay = planDelay(settledPlan(next), t, end, costMs);
    if (delay === null) throw new Error("a settled, shown page always plans a frame");
    t = end + delay + lateMs;
  }
  return { frames, blinks: [...blinks.values()].filter((b) => b.end < ms - 1000) };
}

describe("a settled minute", () => {
  it("averages at most 2.5 fps at ~70 ms a frame (under 20% of a core)", () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const { frames } = simulate(seed, 60_000, 70);
      const fps = frames.length / 60;
      if (process.env.YUI_SETTLE_REPORT) console.log(`seed ${seed}: ${fps.toFixed(2)} fps settled`);
      expect(fps, `seed ${seed}`).toBeLessThanOrEqual(2.5);
      expect(fps, `seed ${seed}`).toBeGreaterThanOrEqual(SETTLED_FPS);
      expect(fps * 70 / 1000, `seed ${seed}: share of a core`).toBeLessThan(0.2);
    }
  });

  it("keeps breathing: never more than 1/SETTLED_FPS between frames", () => {
    const { frames } = simulate(7, 60_000, 70);
    for (let i = 1; i < frames.length; i++) expect(frames[i].at - frames[i - 1].at).toBeLessThanOrEqual(Math.ceil(1000 / SETTLED_FPS));
  });

  // The shut frame lands BLINK_LEAD_MS into the blink, or up to 25 ms later when a
  // breath frame just before it keeps its headroom (70 × 1.5 − 80): timers up
  // to ~45 ms late still catch the eyes shut (an idle page's are a few ms late).
  it("shows every blink: a frame with the eyes shut, and one soon after they reopen", () => {
    for (const [seed, late] of [[1, 0], [2, 0], [3, 20], [4, 40], [5, 5], [6, 40]] as const) {
      const { frames, blinks } = simulate(seed, 60_000, 70, late);
      expect(blinks.length, `seed ${seed}`).toBeGreaterThan(8);
      for (const b of blinks) {
        const shut = frames.filter((f) => f.at >= b.start && f.at < b.end);
        expect(shut.length, `seed ${seed} blink at ${b.start}`).toBeGreaterThanOrEqual(1);
        expect(shut.every((f) => f.shut)).toBe(true);
        const reopened = frames.find((f) => f.at >= b.end)!;
        expect(reopened.shut, `seed ${seed} blink at ${b.start}`).toBe(false);
        // At worst: the shut frame late, its cost, the headroom after it, the reopening late too.
        expect(reopened!.at - b.end, `seed ${seed}: the eyes stay shut on screen too long`).toBeLessThanOrEqual(70 * (1 + HEADROOM) + late);
      }
    }
  });
});
