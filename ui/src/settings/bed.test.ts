import { describe, expect, it } from "vitest";
import { bedFromForm, bedToForm } from "./bed";

describe("bed settings", () => {
  const base = { at_launch: false, wake_timeout_min: 30 };

  it("reads the switch and the timeout", () => {
    expect(bedFromForm({ at_launch: true, wake_timeout_min: "45" }, base)).toEqual({ at_launch: true, wake_timeout_min: 45 });
    expect(bedFromForm({ at_launch: false, wake_timeout_min: "1" }, base).wake_timeout_min).toBe(1);
    expect(bedFromForm({ at_launch: false, wake_timeout_min: "480" }, base).wake_timeout_min).toBe(480);
  });

  it("keeps the loaded timeout when the field is out of range or not a whole number", () => {
    for (const bad of ["0", "481", "", "2.5", "abc"]) expect(bedFromForm({ at_launch: false, wake_timeout_min: bad }, base).wake_timeout_min).toBe(30);
  });

  it("round-trips through the form", () => {
    const s = { at_launch: true, wake_timeout_min: 90 };
    expect(bedFromForm(bedToForm(s), base)).toEqual(s);
  });
});
