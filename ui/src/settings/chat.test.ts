import { describe, expect, it } from "vitest";
import type { ChatSettings } from "../bindings";
import { chatFromForm, clamp, mbText, mbToBytes, readFiles, readMaxBytes } from "./chat";

const loaded: ChatSettings = { show_reasoning: true, collapse_reasoning: false, confirm_delete: true, max_attachments: 5, max_attachment_bytes: 2 * 1024 * 1024 };

describe("chat settings", () => {
  it("shows bytes as MB with one decimal and stores MB as rounded bytes", () => {
    expect(mbText(2_097_152)).toBe("2.1");
    expect(mbText(50_000_000)).toBe("50.0");
    expect(mbText(100_000)).toBe("0.1");
    expect(mbToBytes(2.5)).toBe(2_500_000);
    expect(mbToBytes(0.1)).toBe(100_000);
    expect(mbToBytes(1.2345678)).toBe(1_234_568);
  });

  it("clamps into a range", () => {
    expect(clamp(0, 1, 20)).toBe(1);
    expect(clamp(25, 1, 20)).toBe(20);
    expect(clamp(7, 1, 20)).toBe(7);
  });

  it("reads files per message from 1 to 20, else keeps the loaded count clamped", () => {
    expect(readFiles("12", 5)).toBe(12);
    expect(readFiles(" 20 ", 5)).toBe(20);
    for (const bad of ["", "0", "21", "-3", "2.5", "abc"]) expect(readFiles(bad, 5)).toBe(5);
    expect(readFiles("", 40)).toBe(20);
    expect(readFiles("x", 0)).toBe(1);
  });

  it("reads the largest file in MB from 0.1 to 50, else keeps the loaded bytes clamped", () => {
    expect(readMaxBytes("10", 2_097_152)).toBe(10_000_000);
    expect(readMaxBytes("0.1", 2_097_152)).toBe(100_000);
    expect(readMaxBytes("50", 2_097_152)).toBe(50_000_000);
    for (const bad of ["", "0", "0.05", "50.1", "-1", "abc"]) expect(readMaxBytes(bad, 2_097_152)).toBe(2_097_152);
    expect(readMaxBytes("", 80_000_000)).toBe(50_000_000);
    expect(readMaxBytes("", 10)).toBe(100_000);
  });

  it("keeps the exact loaded bytes while the field still shows them", () => {
    expect(readMaxBytes("2.1", 2_097_152)).toBe(2_097_152);
    expect(readMaxBytes("2.2", 2_097_152)).toBe(2_200_000);
  });

  it("puts the form on top of the loaded settings and keeps what it does not show", () => {
    const base = { ...loaded, later_field: "kept" } as ChatSettings & { later_field: string };
    const next = chatFromForm(
      { show_reasoning: false, collapse_reasoning: true, confirm_delete: false, max_attachments: "8", max_attachment_mb: "3.5" },
      base,
    );
    expect(next).toEqual({ show_reasoning: false, collapse_reasoning: true, confirm_delete: false, max_attachments: 8, max_attachment_bytes: 3_500_000, later_field: "kept" });
    const untouched = chatFromForm({ ...loaded, max_attachments: "5", max_attachment_mb: "2.1" }, loaded);
    expect(untouched).toEqual(loaded);
  });
});
