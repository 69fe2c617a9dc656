// The render loop against a fake clock and a stub document (the tests run in node).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BlinkSchedule } from "./blink";
import { IDLE_FPS } from "./framerate";
import { MAX_DT_S, RenderLoop, type FrameReport } from "./loop";
import { SETTLE_MS, SETTLED_FPS } from "./settle";

const quiet: Omit<FrameReport, "blink"> = {
  speaking: false,
  crossfading: false,
  moving: false,
  dragging: false,
  thinking: false,
  pointerOver: false,
};

/** A stub document: `hidden`, and the visibilitychange listeners. */
const page = { hidden: false, listeners: [] as (() => void)[] };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance", "Date"] });
  page.hidden = false;
  page.listeners = [];
  vi.stubGlobal("window", globalThis);
  vi.stubGlobal("document", {
    get hidden() {
      return page.hidden;
    },
    addEventListener: (_: string, fn: () => void) => page.listeners.push(fn),
  });
  vi.stubGlobal("requestAnimationFrame", (cb: (t: number) => void) => setTimeout(() => cb(performance.now()), 16));
  vi.stubGlobal("cancelAnimationFrame", (id: ReturnType<typeof setTimeout>) => clearTimeout(id));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A loop over a still character (real blink schedule), counting frames and their eyes. */
function stillLoop(report: Partial<FrameReport> = {}) {
  let seed = 12345; // a fixed random source (an LCG): the counts below do not flake
  const eyes = new BlinkSchedule(performance.now(), () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const frames: { at: number; shut: boolean; dt: number }[] = [];
  const state = { ...quiet, ...report };
  const loop = new RenderLoop({
    frame(dt, now) {
      frames.push({ at: now, shut: eyes.value(now) === 1, dt });
      return { ...state, blink: eyes.upcoming };
    },
  });
  const count = (ms: number) => {
    const before = frames.length;
    vi.advanceTimersByTime(ms);
    return frames.length - before;
  };
  return { loop, frames, state, count };
}

describe("RenderLoop settling", () => {
  it("runs at the idle rate, then settles after SETTLE_MS and draws ~2.4 fps", () => {
    const { loop, count } = stillLoop();
    const awake = count(5000);
    expect(loop.settled).toBe(false);
    expect(loop.targetRate).toBe(IDLE_FPS);
    expect(awake / 5).toBeGreaterThan(IDLE_FPS * 0.9);
    count(SETTLE_MS);
    expect(loop.settled).toBe(true);
    expect(loop.targetRate).toBe(SETTLED_FPS);
    const fps = count(60_000) / 60;
    if (process.env.YUI_SETTLE_REPORT) console.log(`loop settled: ${fps.toFixed(2)} fps`);
    expect(fps).toBeGreaterThanOrEqual(SETTLED_FPS);
    expect(fps).toBeLessThanOrEqual(2.5);
  });

  it("wakes at once on activity, and only a moving pointer stirs her", () => {
    const { loop, frames, count } = stillLoop();
    count(SETTLE_MS + 2000);
    expect(loop.settled).toBe(true);
    const at = performance.now();
    loop.stir(); // the pointer moved
    count(20);
    expect(frames.at(-1)!.at - at).toBeLessThanOrEqual(20); // drawn at the next animation frame
    expect(loop.settled).toBe(false);
    expect(loop.targetRate).toBe(IDLE_FPS);
    count(SETTLE_MS); // a pointer that rests is no activity
    expect(loop.settled).toBe(true);
    loop.wake();
    count(20);
    expect(loop.settled).toBe(false);
  });

  it("stays awake while anything reports activity (the pointer over her too)", () => {
    const { loop, state, count } = stillLoop({ pointerOver: true });
    count(SETTLE_MS * 2);
    expect(loop.settled).toBe(false);
    state.pointerOver = false;
    count(SETTLE_MS + 200);
    expect(loop.settled).toBe(true);
    state.speaking = true;
    loop.refresh(); // an event's fresh frame reports the speech
    count(20);
    expect(loop.settled).toBe(false);
  });

  it("keeps the breathing's pace while settled: each frame advances the whole time since the last", () => {
    const { frames, count } = stillLoop();
    count(SETTLE_MS + 1000);
    const from = frames.length;
    count(10_000);
    const settled = frames.slice(from + 1);
    const advanced = settled.reduce((a, f) => a + f.dt, 0);
    expect(advanced * 1000).toBeCloseTo(settled.at(-1)!.at - frames[from].at, 0);
    expect(Math.max(...settled.map((f) => f.dt))).toBeCloseTo(1 / SETTLED_FPS, 2);
    expect(MAX_DT_S).toBeGreaterThan(1 / SETTLED_FPS);
  });

  it("shows blinks while settled: a shut frame for each", () => {
    const { frames, count } = stillLoop();
    count(SETTLE_MS + 1000);
    const from = frames.length;
    count(60_000);
    const settled = frames.slice(from);
    const shut = settled.filter((f) => f.shut).length;
    expect(shut).toBeGreaterThanOrEqual(8); // 2–6 s apart: at least 10 blinks a minute
    for (let i = 1; i < settled.length; i++) if (settled[i - 1].shut) expect(settled[i].at - settled[i - 1].at).toBeLessThan(200);
  });

  it("draws nothing while hidden and resumes at once when shown", () => {
    const { loop, frames, count } = stillLoop();
    count(1000);
    page.hidden = true;
    page.listeners.forEach((fn) => fn());
    expect(count(30_000)).toBe(0);
    expect(loop.targetRate).toBe(0);
    page.hidden = false;
    const at = performance.now();
    page.listeners.forEach((fn) => fn());
    count(20);
    expect(frames.at(-1)!.at - at).toBeLessThanOrEqual(20);
  });
});
