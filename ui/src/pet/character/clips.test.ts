import { describe, expect, it } from "vitest";
import { BUILTIN_CLIPS, BUILTIN_MOTION_IDS, resolveMotion } from "./clips";
import { emptyPose } from "./pose";

describe("built-in motions", () => {
  it("has at least idle, thinking, wave and nod", () => {
    for (const id of ["idle", "thinking", "wave", "nod"]) expect(BUILTIN_MOTION_IDS).toContain(id);
  });

  it("every clip but idle moves something mid-way", () => {
    for (const clip of BUILTIN_CLIPS.values()) {
      if (clip.id === "idle") continue;
      const pose = emptyPose();
      clip.sample(pose, clip.duration * 0.4, 1);
      const moved = Object.values(pose.bones).some((r) => r.some((v) => Math.abs(v) > 1e-3)) || pose.hipsLift !== 0;
      expect(moved, clip.id).toBe(true);
    }
  });

  it("resolves built-in and user clips, and falls back to idle", () => {
    expect(resolveMotion("wave", [])).toEqual({ id: "wave", known: true });
    expect(resolveMotion("Nod", [])).toEqual({ id: "nod", known: true });
    expect(resolveMotion("dance", ["dance"])).toEqual({ id: "dance", known: true });
    expect(resolveMotion("moonwalk", ["dance"])).toEqual({ id: "idle", known: false });
  });
});
