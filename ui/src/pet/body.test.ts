import { describe, expect, it } from "vitest";
import type { BedView, UiEvent } from "../bindings/index";
import { postureMix } from "./character/posture";
import { bedAnimating, bedFrame, bedShown, initialBody, postureAnimating, reduceBody, STANDING } from "./body";
import { SAMPLES } from "../slices/samples";

const body = (phase: BedView["phase"] | null, phase_ms = 0, posture: "lying" | "standing" = "lying"): UiEvent =>
  phase === null ? { type: "body", posture: "standing" } : { type: "body", posture, bed: { entry: "command", phase, phase_ms } };

describe("body slice", () => {
  it("starts standing with no bed, and ignores other events", () => {
    const b = initialBody();
    expect(b.posture).toBe("standing");
    expect(bedFrame(b, 0)).toEqual(STANDING);
    expect(reduceBody(b, SAMPLES.turn_started, 5)).toBe(b);
  });

  it("plays lying_down over phase_ms, then sleeps", () => {
    let b = reduceBody(initialBody(), body("lying_down", 2400), 1000);
    expect(b.since).toBe(1000);
    expect(bedFrame(b, 1000).lie).toBe(0);
    expect(bedFrame(b, 2200).lie).toBeGreaterThan(0.3);
    expect(bedFrame(b, 2200).lie).toBeLessThan(0.7);
    expect(bedFrame(b, 1700).bed).toBe(1);
    expect(bedFrame(b, 3400)).toMatchObject({ lie: 1, bed: 1, eyesClosed: 1, asleep: false });
    expect(bedAnimating(b, 2000)).toBe(true);
    b = reduceBody(b, body("asleep"), 3500);
    expect(bedFrame(b, 99999)).toEqual({ lie: 1, bed: 1, eyesClosed: 1, stretch: 0, asleep: true });
    expect(bedAnimating(b, 5000)).toBe(false);
    expect(bedShown(b, 5000)).toBe(true);
  });

  it("keeps how far her window hangs below the display, 0 when the event says nothing", () => {
    let b = reduceBody(initialBody(), { type: "body", posture: "standing", below: 35 }, 10);
    expect(b.below).toBe(35);
    const same = reduceBody(b, { type: "body", posture: "standing", below: 35 }, 20);
    expect(same).toBe(b);
    b = reduceBody(b, { type: "body", posture: "standing" }, 30);
    expect(b.below).toBe(0);
    expect(reduceBody(b, { type: "body", posture: "standing", below: -4 }, 40).below).toBe(0);
  });

  it("keeps the phase clock on a repeated event (body_now after the event)", () => {
    const b = reduceBody(initialBody(), body("lying_down", 2400), 1000);
    const again = reduceBody(b, body("lying_down", 2400), 1500);
    expect(again).toBe(b);
  });

  it("wakes: eyes open, sits up and stretches, stands; then the bed fades", () => {
    let b = reduceBody(initialBody(), body("asleep"), 0);
    b = reduceBody(b, body("waking", 3200), 10_000);
    expect(bedFrame(b, 10_000)).toMatchObject({ lie: 1, bed: 1, eyesClosed: 1 });
    expect(bedFrame(b, 10_800).eyesClosed).toBe(0);
    expect(bedFrame(b, 12_000).stretch).toBeGreaterThan(0.5);
    expect(bedFrame(b, 13_200)).toMatchObject({ lie: 0, bed: 1, stretch: 0 });
    b = reduceBody(b, body(null), 13_300);
    expect(b.posture).toBe("standing");
    expect(bedFrame(b, 13_300).bed).toBe(1);
    expect(bedFrame(b, 13_600).bed).toBeGreaterThan(0);
    expect(bedFrame(b, 13_600).bed).toBeLessThan(1);
    expect(bedFrame(b, 14_000)).toEqual(STANDING);
    expect(bedShown(b, 14_000)).toBe(false);
  });

  it("a wake during lying_down leaves from where she was", () => {
    let b = reduceBody(initialBody(), body("lying_down", 2400), 0);
    const mid = bedFrame(b, 1200).lie;
    b = reduceBody(b, body("leaving", 600, "standing"), 1200);
    expect(bedFrame(b, 1200).lie).toBeCloseTo(mid);
    expect(bedFrame(b, 1500).lie).toBeLessThan(mid);
    expect(bedFrame(b, 1800)).toMatchObject({ lie: 0, bed: 0 });
    b = reduceBody(b, body(null), 1800);
    expect(bedFrame(b, 1800)).toEqual(STANDING);
  });

  it("the launch scene starts asleep at once", () => {
    const b = reduceBody(initialBody(), { type: "body", posture: "lying", bed: { entry: "launch", phase: "asleep", phase_ms: 0 } }, 50);
    expect(bedFrame(b, 50)).toMatchObject({ lie: 1, bed: 1, asleep: true });
  });

  it("keeps the gait and the peek, and crossfades the posture from what was drawn", () => {
    let b = reduceBody(initialBody(), { type: "body", posture: "sitting" }, 1000);
    expect(b.blend.to).toBe("sit");
    expect(postureAnimating(b, 1100)).toBe(true);
    expect(postureAnimating(b, 2000)).toBe(false); // sitting still lets her settle
    b = reduceBody(b, { type: "body", posture: "peeking", peek: { side: "left", edge: 180 } }, 3000);
    expect(b.peek).toEqual({ side: "left", edge: 180 });
    expect(postureMix(b.blend, 3000).map((m) => [m.clip, m.weight])).toEqual([
      ["sit", 1],
      ["peek", 0],
    ]);
    const again = reduceBody(b, { type: "body", posture: "peeking", peek: { side: "left", edge: 180 } }, 3100);
    expect(again).toBe(b);
    b = reduceBody(b, { type: "body", posture: "walking", gait: "walk" }, 4000);
    expect(b).toMatchObject({ posture: "walking", gait: "walk", peek: null });
    expect(postureAnimating(b, 60_000)).toBe(true); // a move never settles
    b = reduceBody(b, { type: "body", posture: "standing", gait: "fall" }, 5000);
    expect(b.blend.to).toBe("fall");
    b = reduceBody(b, { type: "body", posture: "standing" }, 6000);
    expect(b.gait).toBeNull();
    expect(postureAnimating(b, 6100)).toBe(true);
    expect(postureAnimating(b, 6300)).toBe(false);
    expect(bedFrame(b, 6300)).toEqual(STANDING);
  });
});
