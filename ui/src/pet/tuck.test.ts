import { describe, expect, it } from "vitest";
import { composerTucked, type TuckInput } from "./tuck";

const base: TuckInput = { posture: "standing", moving: false, pointerInside: false, focused: false, hasText: false };

describe("composerTucked", () => {
  it("shows the composer while she stands or lies still", () => {
    expect(composerTucked(base)).toBe(false);
    expect(composerTucked({ ...base, posture: "lying" })).toBe(false);
  });
  it("tucks it while she sits, peeks, is held or moves", () => {
    for (const posture of ["sitting", "peeking", "dragging", "walking", "climbing"] as const) {
      expect(composerTucked({ ...base, posture }), posture).toBe(true);
    }
    expect(composerTucked({ ...base, moving: true }), "a fall while standing").toBe(true);
  });
  it("brings it back for the pointer, the focus or unsent text", () => {
    const sitting = { ...base, posture: "sitting" as const };
    expect(composerTucked({ ...sitting, pointerInside: true })).toBe(false);
    expect(composerTucked({ ...sitting, focused: true })).toBe(false);
    expect(composerTucked({ ...sitting, hasText: true })).toBe(false);
  });
});
