import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { StageCheck, StageReport, StageSession } from "../bindings/index";
import { setLanguage } from "../i18n/index";
import { checkLines, checkText, fetchCheck, noteText, pathText, type CheckKey } from "./desktop";

const report: StageReport = {
  session: "x11",
  path: "X11",
  transparency: { ok: false, note: "no compositing manager runs, so her window shows a dark box; start one (picom, xcompmgr) or turn compositing on in your window manager" },
  click_through: { ok: true, note: "the X server shapes input" },
  always_on_top: { ok: true, note: "the window manager keeps her above" },
  placement: { ok: true, note: "she places her own window" },
  input_by_shape: false,
};

afterEach(() => setLanguage("en"));

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
    expect(shown.items[0]).toEqual({ text: `✗ Transparency: ${report.transparency.note}`, ok: false });
    expect(shown.items[1].text).toBe("✓ Click-through: the X server shapes input");
    expect(checkText(null)).toEqual({ head: "Desktop check: could not run.", items: [] });
  });

  it("says it in the UI language, and keeps a note it has no words for as the core wrote it", () => {
    setLanguage("ja");
    expect(checkText(report).items[1].text).toBe("✓ クリックスルー: X サーバーが入力領域の形を扱えます");
    expect(checkText({ ...report, session: "none", path: "no display" }).head).toBe("デスクトップの確認: ディスプレイなし");
    setLanguage("en");
    expect(noteText("windows", "transparency", { ok: false, note: "a failure the core added later" })).toBe("a failure the core added later");
    expect(pathText({ ...report, session: "xwayland", path: "XWayland (this compositor has no layer-shell)" })).toBe("XWayland (this compositor has no layer-shell)");
    expect(pathText({ ...report, session: "wayland", path: "Wayland (layer-shell)" })).toBe("Wayland (layer-shell)");
  });

  it("words every note in English as the core does (crates/yui-core/src/world/stage.rs)", () => {
    const core = readFileSync(join(__dirname, "../../../crates/yui-core/src/world/stage.rs"), "utf8");
    const sessions: StageSession[] = ["x11", "xwayland", "wayland", "windows", "macos", "none"];
    const keys: CheckKey[] = ["transparency", "click_through", "always_on_top", "placement"];
    const unknown: StageCheck = { ok: true, note: "\u0000" };
    const notes = new Set<string>();
    for (const session of sessions)
      for (const key of keys)
        for (const ok of [true, false]) {
          const note = noteText(session, key, { ...unknown, ok });
          if (note !== "\u0000") notes.add(note);
        }
    expect(notes.size).toBeGreaterThan(15);
    for (const note of notes) expect(core, note).toContain(`"${note}"`);
    expect(core).toContain(`"${pathText({ ...report, session: "none" })}"`);
    expect(core).toContain(`"${pathText({ ...report, session: "xwayland", path: "layer-shell" })}"`);
  });

  it("asks the shell and survives a refusal", async () => {
    expect(await fetchCheck(async () => report)).toBe(report);
    expect(await fetchCheck(async () => Promise.reject(new Error("not the settings window")))).toBeNull();
  });
});
