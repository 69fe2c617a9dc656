import { describe, expect, it } from "vitest";
import { ACTIVE_FPS, FpsMeter, frameDelay, IDLE_FPS, targetFps, type Activity } from "./framerate";

const idle: Activity = { hidden: false, speaking: false, crossfading: false, moving: false, dragging: false, thinking: false };

describe("targetFps", () => {
  it("runs slow when only breathing and blinking", () => {
    expect(targetFps(idle)).toBe(IDLE_FPS);
    expect(IDLE_FPS).toBeGreaterThanOrEqual(10);
    expect(IDLE_FPS).toBeLessThanOrEqual(15);
  });

  it("runs at full rate while anything moves", () => {
    for (const key of ["speaking", "crossfading", "moving", "dragging", "thinking"] as const) {
      expect(targetFps({ ...idle, [key]: true }), key).toBe(ACTIVE_FPS);
    }
    expect(ACTIVE_FPS).toBe(60);
  });

  it("draws nothing while hidden, whatever moves", () => {
    expect(targetFps({ ...idle, hidden: true })).toBe(0);
    expect(targetFps({ ...idle, hidden: true, speaking: true, dragging: true })).toBe(0);
  });
});

describe("frameDelay", () => {
  it("waits the rest of the frame period, never negative, none when stopped", () => {
    expect(frameDelay(10, 1000, 1030)).toBeCloseTo(70);
    expect(frameDelay(60, 1000, 1100)).toBe(0);
    expect(frameDelay(0, 0, 0)).toBeNull();
  });

  it("keeps headroom after a frame that cost more than its period", () => {
    expect(frameDelay(60, 1000, 1080, 80)).toBe(40);
    expect(frameDelay(60, 1000, 1004, 4)).toBeCloseTo(1000 / 60 - 4);
  });
});

describe("FpsMeter", () => {
  it("counts the frames of the last second", () => {
    const m = new FpsMeter();
    for (let i = 0; i <= 30; i++) m.tick(i * 66); // 0 .. 1980 ms
    expect(m.fps(2000)).toBe(15);
    expect(m.fps(5000)).toBe(0);
  });
});

import { isSoftwareRenderer } from "./character/stage";

describe("software rasterizers", () => {
  it("are recognised by their renderer strings", () => {
    expect(isSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)")).toBe(true);
    expect(isSoftwareRenderer("ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)")).toBe(true);
    expect(isSoftwareRenderer("ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0)")).toBe(false);
    expect(isSoftwareRenderer("Apple M2")).toBe(false);
  });
});
