import { describe, expect, it } from "vitest";
import { clickTouch, distanceToBone, HeadPat, nearestRegion, onHead, Press, regionOfBone, type BonePoint } from "./touch";

const bones: BonePoint[] = [
  { bone: "head", point: { x: 180, y: 120 } },
  { bone: "neck", point: { x: 180, y: 150 } },
  { bone: "upperChest", point: { x: 180, y: 180 } },
  { bone: "spine", point: { x: 180, y: 220 } },
  { bone: "hips", point: { x: 180, y: 260 } },
  { bone: "leftUpperArm", point: { x: 210, y: 180 } },
  { bone: "leftHand", point: { x: 225, y: 270 } },
  { bone: "rightLowerLeg", point: { x: 170, y: 380 } },
  { bone: "leftEye", point: { x: 190, y: 118 } },
];

describe("regions", () => {
  it("maps bones to regions", () => {
    expect(regionOfBone("head")).toBe("head");
    expect(regionOfBone("neck")).toBe("head");
    expect(regionOfBone("chest")).toBe("chest");
    expect(regionOfBone("rightLowerArm")).toBe("arm");
    expect(regionOfBone("leftIndexProximal")).toBe("arm");
    expect(regionOfBone("leftFoot")).toBe("legs");
    expect(regionOfBone("hips")).toBe("legs");
    expect(regionOfBone("leftEye")).toBeNull();
  });

  it("picks the nearest counted bone", () => {
    expect(nearestRegion({ x: 185, y: 110 }, bones)?.region).toBe("head");
    expect(nearestRegion({ x: 180, y: 200 }, bones)?.region).toBe("chest");
    expect(nearestRegion({ x: 228, y: 260 }, bones)?.region).toBe("arm");
    expect(nearestRegion({ x: 172, y: 400 }, bones)?.region).toBe("legs");
    expect(nearestRegion({ x: 0, y: 0 }, [])).toBeNull();
  });

  it("knows when the pointer is on her head", () => {
    expect(onHead({ x: 180, y: 80 }, bones)).toBe(true);
    expect(onHead({ x: 180, y: 30 }, bones)).toBe(false);
    expect(onHead({ x: 180, y: 200 }, bones)).toBe(false);
    // With the head top known (a big head): its whole height counts.
    expect(onHead({ x: 185, y: 30 }, bones, { x: 180, y: 20 })).toBe(true);
    expect(onHead({ x: 300, y: 60 }, bones, { x: 180, y: 20 })).toBe(false);
  });

  it("counts a bone as a segment to its end when known", () => {
    // The chest bone runs down from the collar; the shoulder's joint is nearer the click than the chest joint.
    const segs: BonePoint[] = [
      { bone: "upperChest", point: { x: 180, y: 230 }, end: { x: 180, y: 160 } },
      { bone: "leftShoulder", point: { x: 195, y: 165 }, end: { x: 215, y: 170 } },
    ];
    expect(nearestRegion({ x: 182, y: 185 }, segs)?.region).toBe("chest");
    expect(distanceToBone({ x: 0, y: 5 }, { x: -10, y: 0 }, { x: 10, y: 0 })).toBe(5);
    expect(distanceToBone({ x: 3, y: 4 }, { x: 0, y: 0 })).toBe(5);
  });

  it("a click pokes her, or the bed when it shows and she is not near", () => {
    expect(clickTouch({ x: 180, y: 118 }, bones, false)).toEqual({ kind: "poke", region: "head" });
    expect(clickTouch({ x: 10, y: 470 }, bones, false)).toEqual({ kind: "poke", region: "legs" });
    expect(clickTouch({ x: 180, y: 118 }, bones, true)).toEqual({ kind: "poke", region: "head" });
    expect(clickTouch({ x: 10, y: 470 }, bones, true)).toEqual({ kind: "bed" });
    expect(clickTouch({ x: 10, y: 470 }, [], false)).toBeNull();
  });
});

describe("press", () => {
  it("is a click when it does not move past the threshold", () => {
    const p = new Press({ x: 100, y: 100 });
    expect(p.move({ x: 103, y: 102 })).toBe(false);
    expect(p.release()).toBe(true);
  });

  it("becomes a drag once, and is then no click", () => {
    const p = new Press({ x: 100, y: 100 });
    expect(p.move({ x: 105, y: 100 })).toBe(true);
    expect(p.move({ x: 120, y: 100 })).toBe(false);
    expect(p.dragging).toBe(true);
    expect(p.release()).toBe(false);
  });
});

describe("head pat", () => {
  const stroke = (pat: HeadPat, t0: number, xs: number[], step = 100, onHead = true) =>
    xs.map((x, i) => pat.move(x, t0 + i * step, onHead));

  it("three reversals within 1.5 s make one pat, then a 3 s cooldown", () => {
    const pat = new HeadPat();
    const r = stroke(pat, 0, [100, 120, 100, 120, 100]);
    expect(r).toEqual([false, false, false, false, true]);
    // During the cooldown nothing fires.
    expect(stroke(pat, 1000, [100, 120, 100, 120, 100, 120]).some(Boolean)).toBe(false);
    // After it, again.
    expect(stroke(pat, 4000, [100, 120, 100, 120, 100])).toContain(true);
  });

  it("too slow, off the head, or jitter: no pat", () => {
    const slow = new HeadPat();
    expect(stroke(slow, 0, [100, 120, 100, 120, 100, 120], 800).some(Boolean)).toBe(false);
    const off = new HeadPat();
    expect(stroke(off, 0, [100, 120, 100, 120, 100], 100, false).some(Boolean)).toBe(false);
    const jitter = new HeadPat();
    expect(stroke(jitter, 0, [100, 101, 100, 101, 100, 101, 100]).some(Boolean)).toBe(false);
  });

  it("leaving the head forgets the strokes", () => {
    const pat = new HeadPat();
    stroke(pat, 0, [100, 120, 100]);
    pat.move(110, 250, false);
    expect(stroke(pat, 300, [100, 120]).some(Boolean)).toBe(false);
  });
});
