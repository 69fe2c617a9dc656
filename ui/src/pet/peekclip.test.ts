import { describe, expect, it } from "vitest";
import { alphaHit, isHit } from "./hittest";
import { clipHides, clippedAlpha, clipPathCss, peekSpan } from "./peekclip";

describe("peek clip", () => {
  it("hides nothing without a peek or without an edge (the screen's edge)", () => {
    expect(peekSpan(null, 360)).toBeNull();
    expect(peekSpan({ side: "left" }, 360)).toBeNull();
    expect(clipPathCss(null, 360)).toBe("none");
    expect(clipHides({ x: 5, y: 5 }, null)).toBe(false);
  });

  it("side left shows what is left of the edge", () => {
    const span = peekSpan({ side: "left", edge: 200 }, 360);
    expect(span).toEqual({ left: 0, right: 200 });
    expect(clipPathCss(span, 360)).toBe("inset(0px 160px 0px 0px)");
    expect(clipHides({ x: 199, y: 10 }, span)).toBe(false);
    expect(clipHides({ x: 200, y: 10 }, span)).toBe(false);
    expect(clipHides({ x: 201, y: 10 }, span)).toBe(true);
  });

  it("side right shows what is right of the edge", () => {
    const span = peekSpan({ side: "right", edge: 120.4 }, 360);
    expect(span).toEqual({ left: 120.4, right: 360 });
    expect(clipPathCss(span, 360)).toBe("inset(0px 0px 0px 120px)");
    expect(clipHides({ x: 100, y: 10 }, span)).toBe(true);
    expect(clipHides({ x: 130, y: 10 }, span)).toBe(false);
  });

  it("clamps an edge outside the window", () => {
    expect(peekSpan({ side: "left", edge: -20 }, 360)).toEqual({ left: 0, right: 0 });
    expect(peekSpan({ side: "right", edge: 999 }, 360)).toEqual({ left: 360, right: 360 });
  });

  it("the hit test sees hidden pixels as transparent", () => {
    const span = peekSpan({ side: "left", edge: 180 }, 360);
    const opaque = () => 1;
    expect(alphaHit(clippedAlpha({ x: 100, y: 300 }, span, opaque))).toBe(true);
    expect(alphaHit(clippedAlpha({ x: 250, y: 300 }, span, opaque))).toBe(false);
    expect(isHit({ x: 250, y: 300 }, [], clippedAlpha({ x: 250, y: 300 }, span, opaque))).toBe(false);
    // The page's controls still count where she is hidden.
    expect(isHit({ x: 250, y: 300 }, [{ x: 240, y: 290, width: 20, height: 20 }], clippedAlpha({ x: 250, y: 300 }, span, opaque))).toBe(true);
    expect(clippedAlpha({ x: 100, y: 300 }, span, () => null)).toBeNull();
  });
});
