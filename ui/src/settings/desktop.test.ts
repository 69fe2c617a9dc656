import { describe, expect, it } from "vitest";
import type { StageReport } from "../bindings/index";
import { checkLines, checkText, fetchCheck } from "./desktop";

const report: StageReport = {
  session: "x11",
  path: "X11",
  transparency: { ok: false, note: "no compositing manager runs" },
  click_through: { ok: true, note: "the X server shapes input" },
  always_on_top: { ok: true, note: "the window manager keeps her above" },
  placement: { ok: true, note: "she places her own window" },
  input_by_shape: false,
};

describe("the desktop check", () => {
  it("lists each check with its state and note", () => {
    expect(checkLines(report).map((l) => [l.name, l.ok])).toEqual([
      ["Transparency", false],
      ["Click-through", true],
      ["Always on top", true],
      ["Moving her window", true],
    ]);
    const shown = checkText(report);
    expect(shown.head).toBe("Desktop check: X11.");
    expect(shown.items[0]).toEqual({ text: "✗ Transparency: no compositing manager runs", ok: false });
    expect(shown.items[1].text).toBe("✓ Click-through: the X server shapes input");
    expect(checkText(null)).toEqual({ head: "Desktop check: could not run.", items: [] });
  });

  it("asks the shell and survives a refusal", async () => {
    expect(await fetchCheck(async () => report)).toBe(report);
    expect(await fetchCheck(async () => Promise.reject(new Error("not the settings window")))).toBeNull();
  });
});
