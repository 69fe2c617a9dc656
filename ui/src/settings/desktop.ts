// The desktop self-test in the Startup section: which path she runs on (X11,
// XWayland, Wayland…) and, for transparency, click-through, always-on-top and
// placing her window, whether it works here or which fallback is active.

import { shell } from "../shell/shell";
import type { StageReport } from "../bindings/index";

/** One line per check: its name, whether it works, and what that means. */
export function checkLines(report: StageReport): { name: string; ok: boolean; note: string }[] {
  return [
    { name: "Transparency", ...report.transparency },
    { name: "Click-through", ...report.click_through },
    { name: "Always on top", ...report.always_on_top },
    { name: "Moving her window", ...report.placement },
  ];
}

/** The words shown: a heading, then one item per check. */
export function checkText(report: StageReport | null): { head: string; items: { text: string; ok: boolean }[] } {
  if (!report) return { head: "Desktop check: could not run.", items: [] };
  const items = checkLines(report).map((l) => ({ text: `${l.ok ? "✓" : "✗"} ${l.name}: ${l.note}`, ok: l.ok }));
  return { head: `Desktop check: ${report.path}.`, items };
}

/** Fill `box` with the report, or say the check could not run. */
export function renderCheck(box: HTMLElement, report: StageReport | null): void {
  const { head, items } = checkText(report);
  const p = document.createElement("p");
  p.className = "hint";
  p.textContent = head;
  const list = document.createElement("ul");
  list.className = "desktop-check";
  for (const { text, ok } of items) {
    const item = document.createElement("li");
    item.dataset.ok = String(ok);
    item.textContent = text;
    list.append(item);
  }
  box.replaceChildren(p, list);
}

/** Ask the shell for the report; null when it cannot say. */
export async function fetchCheck(ask: () => Promise<StageReport> = shell.desktopCheck): Promise<StageReport | null> {
  try {
    return await ask();
  } catch {
    return null;
  }
}
