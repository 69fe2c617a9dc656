import { describe, expect, it } from "vitest";
import { bubbleLingerMs, bubbleTextMaxHeight, placeBubble, type BubbleLayoutInput } from "./placement";

const base: BubbleLayoutInput = {
  viewport: { width: 360, height: 520 },
  anchor: { x: 180, y: 180 },
  bubble: { width: 200, height: 60 },
  margin: 8,
  minTop: 36,
  maxBottom: 460,
  gap: 12,
};

/** True when the placed bubble lies inside the window. */
function inside(input: BubbleLayoutInput): boolean {
  const p = placeBubble(input);
  return (
    p.left >= 0 &&
    p.top >= 0 &&
    p.left + input.bubble.width <= input.viewport.width &&
    p.top + input.bubble.height <= input.viewport.height
  );
}

describe("placeBubble", () => {
  it("centres the bubble over the head with the tail under it", () => {
    const p = placeBubble(base);
    expect(p.left).toBe(80);
    expect(p.top).toBe(180 - 12 - 60);
    expect(p.tailX).toBe(100);
    expect(p.tail).toBe(true);
  });

  it("clamps at the sides and moves the tail toward the head", () => {
    const left = placeBubble({ ...base, anchor: { x: 20, y: 180 } });
    expect(left.left).toBe(8);
    expect(left.tailX).toBe(14);
    const right = placeBubble({ ...base, anchor: { x: 350, y: 180 } });
    expect(right.left).toBe(360 - 8 - 200);
    expect(right.tailX).toBe(200 - 14);
  });

  it("keeps a tall bubble below minTop and hides the tail when it covers the head", () => {
    const p = placeBubble({ ...base, bubble: { width: 300, height: 200 } });
    expect(p.top).toBe(36);
    expect(p.tail).toBe(false);
  });

  it("keeps a bubble above maxBottom when the head is low", () => {
    const p = placeBubble({ ...base, anchor: { x: 180, y: 600 } });
    expect(p.top + 60).toBeLessThanOrEqual(460);
  });

  it("is always inside the window, for any head position and any bubble that fits", () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 2000; i++) {
      const vw = 120 + rnd() * 600;
      const vh = 120 + rnd() * 800;
      const input: BubbleLayoutInput = {
        viewport: { width: vw, height: vh },
        anchor: { x: -200 + rnd() * (vw + 400), y: -200 + rnd() * (vh + 400) },
        bubble: { width: rnd() * vw, height: rnd() * vh },
        margin: rnd() * 12,
        minTop: rnd() * 60,
        maxBottom: vh - rnd() * 80,
        gap: rnd() * 16,
      };
      expect(inside(input), JSON.stringify(input)).toBe(true);
    }
  });

  it("survives a missing head position", () => {
    expect(inside({ ...base, anchor: { x: NaN, y: Infinity } })).toBe(true);
  });
});

describe("bubble sizing and lingering", () => {
  it("limits the text to whole lines that fit the room, 3 to 8 of them", () => {
    expect(bubbleTextMaxHeight(130, 20)).toBe(120);
    expect(bubbleTextMaxHeight(20, 20)).toBe(60);
    expect(bubbleTextMaxHeight(1000, 20)).toBe(160);
  });

  it("keeps longer text longer, within bounds", () => {
    expect(bubbleLingerMs("hi")).toBeLessThan(bubbleLingerMs("a much longer reply with many words in it"));
    expect(bubbleLingerMs("x".repeat(10_000))).toBe(45_000);
  });
});
