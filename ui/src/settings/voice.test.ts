import { describe, expect, it } from "vitest";
import { clampedInt, deviceOptions } from "./voice";

describe("voice settings", () => {
  it("lists the system default first, then each device once", () => {
    expect(deviceOptions(["Speakers", "Headphones", "Speakers", ""], "")).toEqual([
      { value: "", label: "System default" },
      { value: "Speakers", label: "Speakers" },
      { value: "Headphones", label: "Headphones" },
    ]);
  });

  it("keeps a saved device that is gone, marked", () => {
    const options = deviceOptions(["Speakers"], "USB headset");
    expect(options.at(-1)).toEqual({ value: "USB headset", label: "USB headset (not found)" });
    expect(deviceOptions([], "Speakers").map((o) => o.value)).toEqual(["", "Speakers"]);
  });

  it("reads whole numbers within their range", () => {
    expect(clampedInt("150", 25, 400, 100)).toBe(150);
    expect(clampedInt("5", 25, 400, 100)).toBe(25);
    expect(clampedInt("900", 25, 400, 100)).toBe(400);
    expect(clampedInt("", 0, 100, 50)).toBe(50);
  });
});
