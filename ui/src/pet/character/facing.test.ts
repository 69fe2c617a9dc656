import { describe, expect, it } from "vitest";
import { Facing, FACING_DEG, turnsFor } from "./facing";

describe("facing", () => {
  it("turns toward where the window goes while a move runs, back to front when still", () => {
    const f = new Facing();
    expect(f.update(100, 1 / 60, true)).toBe(0);
    let x = 100;
    for (let i = 0; i < 60; i++) f.update((x += 3), 1 / 60, true);
    expect(f.yaw).toBe(FACING_DEG);
    for (let i = 0; i < 60; i++) f.update((x -= 3), 1 / 60, true);
    expect(f.yaw).toBe(-FACING_DEG);
    // Straight up (a climb): keeps the way she faced.
    for (let i = 0; i < 10; i++) f.update(x, 1 / 60, true);
    expect(f.yaw).toBe(-FACING_DEG);
    // Still: back to the viewer, gradually.
    const first = f.update(x, 1 / 60, false);
    expect(first).toBeLessThan(0);
    expect(first).toBeGreaterThan(-FACING_DEG);
    expect(f.turning).toBe(true);
    for (let i = 0; i < 60; i++) f.update(x, 1 / 60, false);
    expect(f.yaw).toBe(0);
    expect(f.turning).toBe(false);
  });

  it("ignores sub-pixel jitter and moves while still", () => {
    const f = new Facing();
    f.update(0, 1 / 60, true);
    f.update(0.2, 1 / 60, true);
    expect(f.target).toBe(0);
    f.update(50, 1 / 60, false); // the user's hold, a fall: no turn
    expect(f.target).toBe(0);
  });

  it("turns for walks, climbs and hops only", () => {
    expect(turnsFor("walk") && turnsFor("climb") && turnsFor("hop")).toBe(true);
    expect(turnsFor("fall") || turnsFor("drag") || turnsFor("sit") || turnsFor("stand")).toBe(false);
  });
});
