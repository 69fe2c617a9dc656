import { describe, expect, it, vi } from "vitest";
import type { DelegationItem } from "../bindings";
import { setLanguage } from "../i18n/index";
import { badgeText, debounce, hasSummary, RELOAD_DEBOUNCE_MS, statusText, timesText, timeText } from "./session";

const running: DelegationItem = { id: "a", title: "Find flights", started_at: new Date(2026, 11, 1, 14, 5).getTime(), state: "running" };
const done = (status?: string, summary?: string): DelegationItem => ({
  ...running,
  state: "done",
  ended_at: new Date(2026, 11, 1, 14, 9).getTime(),
  status,
  summary,
});
const now = new Date(2026, 11, 1, 18, 30).getTime();

describe("the session list", () => {
  it("badges running and done items with their status", () => {
    expect(badgeText(running)).toBe("running");
    expect(badgeText(done("ok"))).toBe("done · ok");
    expect(badgeText(done("unknown"))).toBe("done · unknown");
    expect(badgeText(done("error"))).toBe("done · failed");
    expect(badgeText(done())).toBe("done · unknown");
    expect(badgeText(done("cancelled"))).toBe("done · cancelled");
  });

  it("reads a missing or blank status as unknown", () => {
    expect(statusText(undefined)).toBe("unknown");
    expect(statusText("  ")).toBe("unknown");
    expect(statusText("failed")).toBe("failed");
  });

  it("shows the time alone today, the date before that, the year in another year", () => {
    expect(timeText(running.started_at, now, "en-GB")).toBe("14:05");
    expect(timeText(new Date(2026, 10, 30, 9, 0).getTime(), now, "en-GB")).toBe("30 Nov 09:00");
    expect(timeText(new Date(2025, 0, 2, 23, 59).getTime(), now, "en-GB")).toBe("2 Jan 2025 23:59");
    expect(timeText(Number.NaN, now, "en-GB")).toBe("");
  });

  it("gives the start, and the end when there is one", () => {
    expect(timesText(running, now, "en-GB")).toBe("started 14:05");
    expect(timesText(done("ok"), now, "en-GB")).toBe("started 14:05 · ended 14:09");
  });

  it("speaks the UI language, dates included", () => {
    setLanguage("ja");
    try {
      expect(badgeText(done("error"))).toBe("完了 · 失敗");
      expect(badgeText(done("cancelled"))).toBe("完了 · cancelled");
      expect(timesText(done("ok"), now)).toBe("開始 14:05 · 終了 14:09");
      expect(timeText(new Date(2026, 10, 30, 9, 0).getTime(), now)).toBe("11月30日 09:00");
    } finally {
      setLanguage("en");
    }
  });

  it("opens only rows with a summary", () => {
    expect(hasSummary(done("ok", "Three flights under 300 €."))).toBe(true);
    expect(hasSummary(done("ok", "  "))).toBe(false);
    expect(hasSummary(running)).toBe(false);
  });
});

describe("the reload on delegations events", () => {
  it("a burst reloads once, 300 ms after its last event", () => {
    vi.useFakeTimers();
    try {
      let loads = 0;
      const soon = debounce(() => loads++, RELOAD_DEBOUNCE_MS);
      soon();
      vi.advanceTimersByTime(200);
      soon();
      vi.advanceTimersByTime(299);
      expect(loads).toBe(0);
      vi.advanceTimersByTime(1);
      expect(loads).toBe(1);
      soon();
      vi.advanceTimersByTime(300);
      expect(loads).toBe(2);
      expect(RELOAD_DEBOUNCE_MS).toBe(300);
    } finally {
      vi.useRealTimers();
    }
  });
});
