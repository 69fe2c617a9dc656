import { describe, expect, it } from "vitest";
import type { IngressInfo, IngressSettings } from "../bindings";
import { ingressFromForm, readPort, statusText } from "./reactions";

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

  it("says off, where it listens, or why it does not", () => {
    expect(statusText(info({ enabled: false, listening: false }))).toEqual({ text: "Off: other programs cannot reach her.", bad: false });
    expect(statusText(info({}))).toEqual({ text: "Listening on http://127.0.0.1:8770 (this computer only).", bad: false });
    expect(statusText(info({ listening: false, problem: "port 8770 is taken" }))).toEqual({ text: "port 8770 is taken", bad: true });
    expect(statusText(info({ listening: false })).text).toMatch(/restart YUI/);
  });
});
