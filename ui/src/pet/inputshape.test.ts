import { describe, expect, it } from "vitest";
import { sameRects, shapeRects, ShapeSender, SHAPE_CELL, wholeRects } from "./inputshape";

/** An RGBA buffer `w`×`h` (bottom row first, as WebGL reads) with `opaque(x, yFromTop)` set. */
function frame(w: number, h: number, opaque: (x: number, y: number) => boolean): Uint8Array {
  const px = new Uint8Array(w * h * 4);
  for (let by = 0; by < h; by++) {
    for (let x = 0; x < w; x++) {
      if (opaque(x, h - 1 - by)) px[(by * w + x) * 4 + 3] = 255;
    }
  }
  return px;
}

describe("shapeRects", () => {
  it("covers an opaque block with its cells grown by one, merged into one rectangle", () => {
    // A block at CSS x 40..79, y 80..159 of a 160×240 window.
    const px = frame(160, 240, (x, y) => x >= 40 && x < 80 && y >= 80 && y < 160);
    const rects = shapeRects(px, 160, 240, 160, 240);
    expect(rects).toEqual([{ x: 32, y: 72, width: 56, height: 96 }]);
  });

  it("reads the rows bottom first: an opaque top row is at the top", () => {
    const px = frame(64, 64, (_x, y) => y < 2);
    const rects = shapeRects(px, 64, 64, 64, 64);
    expect(rects).toEqual([{ x: 0, y: 0, width: 64, height: 2 * SHAPE_CELL }]);
  });

  it("an empty frame has no shape (every click goes through)", () => {
    expect(shapeRects(new Uint8Array(32 * 32 * 4), 32, 32, 32, 32)).toEqual([]);
    expect(shapeRects(new Uint8Array(0), 0, 0, 32, 32)).toEqual([]);
  });

  it("faint pixels (alpha at or below the threshold) are empty", () => {
    const px = new Uint8Array(32 * 32 * 4);
    for (let i = 3; i < px.length; i += 4) px[i] = 20;
    expect(shapeRects(px, 32, 32, 32, 32)).toEqual([]);
  });

  it("maps a scale-2 buffer into CSS pixels", () => {
    // 64×64 device pixels shown at 32×32 CSS: the opaque device block 0..15 is CSS 0..7.
    const px = frame(64, 64, (x, y) => x < 16 && y < 16);
    expect(shapeRects(px, 64, 64, 32, 32)).toEqual([{ x: 0, y: 0, width: 16, height: 16 }]);
  });

  it("pixels the peek clip hides are empty", () => {
    const px = frame(160, 80, () => true);
    const rects = shapeRects(px, 160, 80, 160, 80, { left: 0, right: 60 });
    const right = Math.max(...rects.map((r) => r.x + r.width));
    expect(right).toBeLessThanOrEqual(80);
    expect(right).toBeGreaterThanOrEqual(60);
  });

  it("two separate blobs stay two shapes", () => {
    const px = frame(200, 100, (x, y) => y >= 40 && y < 60 && ((x >= 10 && x < 30) || (x >= 150 && x < 170)));
    const rects = shapeRects(px, 200, 100, 200, 100);
    expect(rects.length).toBe(2);
    expect(rects[0].x).toBeLessThan(40);
    expect(rects[1].x).toBeGreaterThan(130);
  });
});

describe("ShapeSender", () => {
  const a = [{ x: 0, y: 0, width: 8, height: 8 }];
  const b = [{ x: 8, y: 0, width: 8, height: 8 }];

  it("sends a new shape at most once per interval, and never the same one twice", () => {
    const s = new ShapeSender(250);
    expect(s.offer(a, 0)).toEqual(a);
    expect(s.due(100)).toBe(false);
    expect(s.offer(b, 100)).toBeUndefined();
    expect(s.offer(a, 300)).toBeUndefined();
    expect(s.offer(b, 300)).toEqual(b);
  });

  it("a hold sends the whole window at once and nothing else until it ends", () => {
    const s = new ShapeSender(250);
    s.offer(a, 0);
    expect(s.hold(2, 10)).toBeNull();
    expect(s.due(1000)).toBe(false);
    expect(s.offer(a, 1000)).toBeUndefined();
    expect(s.offer(a, 2100)).toEqual(a);
  });
});

describe("helpers", () => {
  it("wholeRects rounds outwards and sameRects compares in order", () => {
    expect(wholeRects([{ x: 1.5, y: 2.2, width: 3, height: 1.1 }])).toEqual([{ x: 1, y: 2, width: 4, height: 2 }]);
    expect(sameRects([], [])).toBe(true);
    expect(sameRects(null, null)).toBe(true);
    expect(sameRects(null, [])).toBe(false);
    expect(sameRects([{ x: 0, y: 0, width: 1, height: 1 }], [{ x: 0, y: 0, width: 1, height: 2 }])).toBe(false);
  });
});
