import { describe, expect, it } from "vitest";
import { alphaHit, ClickThroughGate, glPixel, isHit, pointInRects } from "./hittest";

const composer = { x: 10, y: 470, width: 340, height: 40 };
const pill = { x: 10, y: 8, width: 60, height: 22 };

describe("hit test", () => {
  it("hits visible UI boxes, edges included", () => {
    expect(pointInRects({ x: 10, y: 470 }, [composer])).toBe(true);
    expect(pointInRects({ x: 350, y: 510 }, [composer])).toBe(true);
    expect(pointInRects({ x: 9, y: 480 }, [composer])).toBe(false);
    expect(pointInRects({ x: 100, y: 100 }, [])).toBe(false);
  });

  it("hits the character where the alpha is above 0.1", () => {
    expect(alphaHit(0.5)).toBe(true);
    expect(alphaHit(0.11)).toBe(true);
    expect(alphaHit(0.1)).toBe(false);
    expect(alphaHit(0)).toBe(false);
    expect(alphaHit(null)).toBe(false);
  });

  it("combines both", () => {
    expect(isHit({ x: 20, y: 20 }, [pill, composer], 0)).toBe(true);
    expect(isHit({ x: 180, y: 300 }, [pill, composer], 0.9)).toBe(true);
    expect(isHit({ x: 180, y: 300 }, [pill, composer], 0.02)).toBe(false);
  });

  it("maps CSS points to GL pixels with the device pixel ratio and a flipped y", () => {
    expect(glPixel({ x: 0, y: 0 }, 360, 520, 360, 520)).toEqual({ x: 0, y: 519 });
    expect(glPixel({ x: 359.5, y: 519.5 }, 360, 520, 360, 520)).toEqual({ x: 359, y: 0 });
    expect(glPixel({ x: 10, y: 20 }, 360, 520, 720, 1040)).toEqual({ x: 20, y: 1040 - 1 - 40 });
    expect(glPixel({ x: -1, y: 20 }, 360, 520, 360, 520)).toBeNull();
    expect(glPixel({ x: 10, y: 520 }, 360, 520, 360, 520)).toBeNull();
  });
});

describe("ClickThroughGate", () => {
  it("never ignores before the shell's cursor poll is heard from", () => {
    const g = new ClickThroughGate(100);
    expect(g.update(false, 0)).toBe(false);
    expect(g.update(false, 1000)).toBeNull();
    expect(g.leave(2000)).toBeNull();
    expect(g.ignoring).toBe(false);
  });

  it("takes the mouse at once on a hit, ignores after misses last the delay, and sends only changes", () => {
    const g = new ClickThroughGate(100);
    g.arm();
    expect(g.update(true, 0)).toBe(false);
    expect(g.update(true, 10)).toBeNull();
    expect(g.update(false, 20)).toBeNull(); // a miss starts the delay
    expect(g.update(false, 80)).toBeNull();
    expect(g.update(false, 121)).toBe(true);
    expect(g.update(false, 200)).toBeNull();
    expect(g.update(true, 210)).toBe(false);
    expect(g.update(false, 220)).toBeNull();
    expect(g.update(true, 230)).toBeNull(); // the miss did not last: no change sent
  });

  it("the first decision is sent at once", () => {
    const g = new ClickThroughGate(100);
    g.arm();
    expect(g.update(false, 0)).toBe(true);
  });

  it("an interactive hold keeps the mouse until it ends", () => {
    const g = new ClickThroughGate(100);
    g.arm();
    expect(g.update(false, 0)).toBe(true);
    expect(g.hold(5, 1000)).toBe(false);
    expect(g.update(false, 2000)).toBeNull();
    expect(g.leave(3000)).toBeNull();
    expect(g.holding(5999)).toBe(true);
    expect(g.update(false, 6000)).toBeNull(); // the miss delay starts when the hold ends
    expect(g.update(false, 6100)).toBe(true);
  });

  it("the cursor leaving the window ignores the mouse at once", () => {
    const g = new ClickThroughGate(100);
    g.arm();
    expect(g.update(true, 0)).toBe(false);
    expect(g.leave(5)).toBe(true);
    expect(g.leave(6)).toBeNull();
  });
});
