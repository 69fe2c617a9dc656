import { describe, expect, it } from "vitest";
import type { Display, RelationRecord } from "../bindings";
import { displayLabel, displayOptions, relationChange, relationRows, relationValue, sizeText, sourceFromForm, thumbnails } from "./screen";

const display = (index: number, primary = false): Display => ({ index, label: `HDMI-${index}`, x: 0, y: 0, width: 1920, height: 1080, scale: 1, primary });

describe("the source picker", () => {
  it("labels a display with its index, name, size and whether it is primary", () => {
    expect(displayLabel(display(0, true))).toBe("Display 0: HDMI-0 · 1920×1080 · primary");
    expect(displayLabel({ ...display(1), label: "" })).toBe("Display 1 · 1920×1080");
  });

  it("keeps a saved index that is not connected now, and offers display 0 when none are listed", () => {
    expect(displayOptions([display(0), display(1)], 1).map((o) => o.value)).toEqual(["0", "1"]);
    expect(displayOptions([display(0)], 2).at(-1)).toEqual({ value: "2", label: "Display 2 (not found now)" });
    expect(displayOptions([], null)).toEqual([{ value: "0", label: "Display 0" }]);
    expect(displayOptions([], 3)).toEqual([{ value: "3", label: "Display 3" }]);
  });

  it("reads the form as a monitor or a window source", () => {
    expect(sourceFromForm("monitor", "1", "x", "y")).toEqual({ kind: "monitor", index: 1 });
    expect(sourceFromForm("monitor", "-3", "", "")).toEqual({ kind: "monitor", index: 0 });
    expect(sourceFromForm("window", "0", " Firefox ", " GitHub ")).toEqual({ kind: "window", app: "Firefox", title: "GitHub" });
  });
});

describe("relations", () => {
  it("takes whole numbers from -10 to 10 only", () => {
    expect(relationValue("3")).toBe(3);
    expect(relationValue(" -10 ")).toBe(-10);
    expect(relationValue("+10")).toBe(10);
    for (const bad of ["11", "-11", "2.5", "", "abc", "1e1"]) expect(relationValue(bad)).toBeNull();
  });

  it("offers a neutral user row when nothing is recorded yet", () => {
    expect(relationRows([])).toEqual([{ target: "user", value: 0, band: "neutral", delta: 0, why: "", at: 0 }]);
    const r: RelationRecord = { target: "Mika", value: 4, band: "warm", delta: 2, why: "shared tea", at: 1_700_000_000_000 };
    expect(relationRows([r])).toEqual([r]);
  });

  it("reads the last change with its sign and reason", () => {
    const r: RelationRecord = { target: "user", value: 4, band: "warm", delta: 2, why: "shared tea", at: 1_700_000_000_000 };
    expect(relationChange(r, "en-GB")).toMatch(/^\+2 · shared tea · /);
    expect(relationChange({ ...r, delta: -1, why: "" }, "en-GB")).toMatch(/^-1 · \(no reason\) · /);
    expect(relationChange({ ...r, at: 0 })).toBe("no change yet");
  });
});

describe("the inspector's thumbnails", () => {
  it("keeps inline images in order with their kind and size", () => {
    const jpeg = `data:image/jpeg;base64,${"A".repeat(4096)}`;
    const png = "data:image/png;base64,AAAA";
    expect(thumbnails([jpeg, png])).toEqual([
      { src: jpeg, label: "JPEG · 3 KB" },
      { src: png, label: "PNG · 3 B" },
    ]);
  });

  it("leaves out anything that is not an inline image", () => {
    expect(thumbnails(["https://example.com/x.png", "data:text/html;base64,AAAA", "", "javascript:alert(1)"])).toEqual([]);
    expect(thumbnails([])).toEqual([]);
  });

  it("writes sizes in B, KB and MB", () => {
    expect(sizeText(812)).toBe("812 B");
    expect(sizeText(186_000)).toBe("182 KB");
    expect(sizeText(1_468_006)).toBe("1.4 MB");
  });
});
