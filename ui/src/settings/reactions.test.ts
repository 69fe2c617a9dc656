import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { IngressInfo, IngressSettings } from "../bindings";
import type { ReactionsSettings } from "../bindings";
import { commands } from "../bindings/commands";
import { setLanguage } from "../i18n/index";
import { fetchLimitation, ingressFromForm, knownLimitations, limitationLine, reactionsFromForm, readPort, statusText } from "./reactions";

vi.mock("../bindings/commands", () => ({ commands: { desktopLimitation: vi.fn() } }));

const base: IngressSettings = { enabled: false, port: 8770, require_token: false, token: "" };
const info = (over: Partial<IngressInfo>): IngressInfo => ({
  enabled: true,
  listening: true,
  address: "http://127.0.0.1:8770",
  token: "abc",
  require_token: false,
  problem: null,
  example: "curl …",
  ...over,
});

describe("the Reactions section", () => {
  it("reads a port in range and keeps the loaded one otherwise", () => {
    expect(readPort("9000", 8770)).toBe(9000);
    expect(readPort("", 8770)).toBe(8770);
    expect(readPort("80", 8770)).toBe(8770);
    expect(readPort("70000", 8770)).toBe(8770);
    expect(readPort("90.5", 8770)).toBe(8770);
  });

  it("puts the form over the loaded settings, keeping a run-only token", () => {
    const next = ingressFromForm({ enabled: true, port: "9100", require_token: true }, { ...base, token: "run" });
    expect(next).toEqual({ enabled: true, port: 9100, require_token: true, token: "run" });
  });

  it("reads the switches and keeps numbers in range", () => {
    const base: ReactionsSettings = {
      frontmost: true,
      away_after_min: 5,
      screen_transitions: true,
      schedule: true,
      idle_cues: true,
      pacing: { quiet_gap_min: 10, hourly_cap: 3, after_user_min: 2, do_not_disturb_fullscreen: true, screen_hourly_cap: 2, cue_hourly_cap: 2, touch_gap_s: 20 },
    };
    const form = { frontmost: false, screen_transitions: true, schedule: false, idle_cues: true, away_after_min: "15", quiet_gap_min: "0" };
    expect(reactionsFromForm(form, base)).toEqual({ ...base, frontmost: false, schedule: false, away_after_min: 15 });
    const other = reactionsFromForm({ ...form, away_after_min: "500", quiet_gap_min: "30" }, base);
    expect(other.pacing.quiet_gap_min).toBe(30);
    expect(other.away_after_min).toBe(5); // out of range keeps the loaded value
  });

  it("says off, where it listens, or why it does not", () => {
    expect(statusText(info({ enabled: false, listening: false }))).toEqual({ text: "Off: other programs cannot reach her.", bad: false });
    expect(statusText(info({}))).toEqual({ text: "Listening on http://127.0.0.1:8770 (this computer only).", bad: false });
    expect(statusText(info({ listening: false, problem: "port 8770 is taken" }))).toEqual({ text: "port 8770 is taken", bad: true });
    expect(statusText(info({ listening: false })).text).toMatch(/restart YUI/);
  });

  it("words every limitation line in English as the core does (crates/yui-desktop/src/platform/)", () => {
    const dir = join(__dirname, "../../../crates/yui-desktop/src/platform");
    const core = readdirSync(dir)
      .filter((f) => f.endsWith(".rs"))
      .map((f) => readFileSync(join(dir, f), "utf8"))
      .join("\n");
    const known = knownLimitations();
    expect(known).toHaveLength(5);
    for (const line of known) expect(core, line).toContain(`"${line}"`);
    // And no limitation constant the catalog lacks.
    const constants = [...core.matchAll(/pub const [A-Z_]*LIMITATION: &str =\s*"([^"]+)"/g)].map((m) => m[1]);
    expect(constants.sort()).toEqual([...known].sort());
  });

  it("shows the desktop limitation when there is one, and nothing when both facts are read", async () => {
    const wayland = "Wayland offers no general way to see which window has the focus or how long the user has been idle; the frontmost line is left out and the user counts as present.";
    expect(limitationLine(wayland)).toEqual({ text: wayland, hidden: false });
    expect(limitationLine(null)).toEqual({ text: "", hidden: true });
    expect(limitationLine("  ")).toEqual({ text: "", hidden: true });
    // In the UI language; a line the catalog does not know, as the core sent it.
    setLanguage("ja");
    expect(limitationLine(wayland).text).toMatch(/^Wayland には/);
    expect(limitationLine("a line the core added later").text).toBe("a line the core added later");
    setLanguage("en");
    vi.mocked(commands.desktopLimitation).mockResolvedValueOnce(wayland).mockResolvedValueOnce(null).mockRejectedValueOnce(new Error("not the settings window"));
    expect(await fetchLimitation()).toBe(wayland);
    expect(await fetchLimitation()).toBeNull();
    expect(await fetchLimitation()).toBeNull(); // a failed call shows nothing
    expect(commands.desktopLimitation).toHaveBeenCalledTimes(3);
  });
});
