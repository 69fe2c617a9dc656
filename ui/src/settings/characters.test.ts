import { describe, expect, it } from "vitest";
import { addChange, addedName, removeQuestion, rowsOf } from "./characters";

describe("the Characters section", () => {
  const presets = {
    presets: [
      { name: "Yui", open: true },
      { name: "Ann", open: false },
      { name: "Mio", open: true },
    ],
    main: "mio",
    root: "Yui",
  };

  it("lists the presets in registry order, main marked without case, main's box locked", () => {
    const rows = rowsOf(presets);
    expect(rows.map((r) => [r.name, r.open, r.main, r.canClose])).toEqual([
      ["Yui", true, false, true],
      ["Ann", false, false, true],
      ["Mio", true, true, false],
    ]);
    expect(rows.map((r) => r.canRemove)).toEqual([false, true, true]);
    expect(rowsOf({ presets: [{ name: "Yui", open: true }], main: "Yui", root: "yui" })[0].canRemove).toBe(false);
  });

  it("adds from the default card or as a copy, and not without a name", () => {
    expect(addChange("  Ann ", "")).toEqual({ action: "add", name: "Ann", copy_of: null });
    expect(addChange("Ann", "Yui")).toEqual({ action: "add", name: "Ann", copy_of: "Yui" });
    expect(addChange("   ", "Yui")).toBeNull();
  });

  it("asks before a removal and says what goes", () => {
    expect(removeQuestion("Ann")).toMatch(/^Remove Ann\?.*deleted/);
  });

  it("finds the preset a card added, to edit her next", () => {
    const before = { presets: [{ name: "Yui", open: true }], main: "Yui", root: "Yui" };
    const after = { ...before, presets: [...before.presets, { name: "Ann 2", open: false }] };
    expect(addedName(before, after)).toBe("Ann 2");
    expect(addedName(after, after)).toBeNull();
    expect(addedName(null, before)).toBe("Yui");
  });
});
