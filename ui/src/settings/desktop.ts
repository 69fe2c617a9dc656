// The desktop self-test in the Startup section: which path she runs on (X11,
// XWayland, Wayland…) and, for transparency, click-through, always-on-top and
// placing her window, whether it works here or which fallback is active.
//
// The core writes each note in English (crates/yui-core/src/world/stage.rs,
// `report`); which note it is follows from the session, the check and
// whether it works, so the words here are the catalog's for that case
// (desktop.test.ts holds the English ones to the core's). A case the core
// adds later shows the core's note as it is.

import { shell } from "../shell/shell";
import type { StageCheck, StageReport, StageSession } from "../bindings/index";
import { onLanguage, t } from "../i18n/index";

/** The four checks of a report. */
export type CheckKey = "transparency" | "click_through" | "always_on_top" | "placement";

/** Each check's name, in report order. */
const CHECKS: [CheckKey, () => string][] = [
  ["transparency", () => t("section-desktop-transparency")],
  ["click_through", () => t("section-desktop-click-through")],
  ["always_on_top", () => t("section-desktop-always-on-top")],
  ["placement", () => t("section-desktop-placement")],
];

/** A session's notes: per check, when it works (`ok`) and when it does not (`no`). */
type Notes = Partial<Record<CheckKey, { ok?: () => string; no?: () => string }>>;

const X11: Notes = {
  transparency: { ok: () => t("section-desktop-x11-compositor"), no: () => t("section-desktop-x11-no-compositor") },
  click_through: { ok: () => t("section-desktop-x11-shape"), no: () => t("section-desktop-x11-no-shape") },
  always_on_top: { ok: () => t("section-desktop-x11-above"), no: () => t("section-desktop-x11-no-above") },
  placement: { ok: () => t("section-desktop-places-herself") },
};

const WAYLAND: Notes = {
  transparency: { ok: () => t("section-desktop-compositor-blends") },
  click_through: { ok: () => t("section-desktop-wayland-click-through") },
  always_on_top: { ok: () => t("section-desktop-wayland-overlay"), no: () => t("section-desktop-wayland-no-above") },
  placement: { ok: () => t("section-desktop-wayland-margins"), no: () => t("section-desktop-wayland-no-placement") },
};

const SYSTEM: Notes = {
  transparency: { ok: () => t("section-desktop-system-blends") },
  click_through: { ok: () => t("section-desktop-system-clicks") },
  always_on_top: { ok: () => t("section-desktop-system-above") },
  placement: { ok: () => t("section-desktop-places-herself") },
};

const NO_DISPLAY: Notes = {
  transparency: { no: () => t("section-desktop-no-display-to-show") },
  click_through: { no: () => t("section-desktop-no-display") },
  always_on_top: { no: () => t("section-desktop-no-display") },
  placement: { no: () => t("section-desktop-no-display") },
};

const NOTES: Record<StageSession, Notes> = { x11: X11, xwayland: X11, wayland: WAYLAND, windows: SYSTEM, macos: SYSTEM, none: NO_DISPLAY };

/** What check `check` of a `session` report means, in the current language (the core's note for a case the catalog lacks). */
export function noteText(session: StageSession, key: CheckKey, check: StageCheck): string {
  const words = NOTES[session]?.[key]?.[check.ok ? "ok" : "no"];
  return words ? words() : check.note;
}

/** The path in words: the core's name for it, which is a name but for "no display" and XWayland chosen by the app. */
export function pathText(report: StageReport): string {
  if (report.session === "none") return t("section-desktop-path-none");
  // The core's path when the app chose XWayland itself (stage.rs, XWAYLAND_FALLBACK_PATH).
  if (report.session === "xwayland" && report.path.includes("layer-shell")) return t("section-desktop-path-xwayland-fallback");
  return report.path;
}

/** One line per check: its name, whether it works, and what that means. */
export function checkLines(report: StageReport): { name: string; ok: boolean; note: string }[] {
  return CHECKS.map(([key, name]) => ({ name: name(), ok: report[key].ok, note: noteText(report.session, key, report[key]) }));
}

/** The words shown: a heading, then one item per check. */
export function checkText(report: StageReport | null): { head: string; items: { text: string; ok: boolean }[] } {
  if (!report) return { head: t("section-desktop-failed"), items: [] };
  const items = checkLines(report).map((l) => ({
    text: l.ok ? t("section-desktop-works", { name: l.name, note: l.note }) : t("section-desktop-lacks", { name: l.name, note: l.note }),
    ok: l.ok,
  }));
  return { head: t("section-desktop-head", { path: pathText(report) }), items };
}

/** The boxes filled, with their report, to fill again after a switch of language. */
const shown = new Map<HTMLElement, StageReport | null>();
onLanguage(() => {
  for (const [box, report] of shown) write(box, report);
});

/** Fill `box` with the report, or say the check could not run. */
export function renderCheck(box: HTMLElement, report: StageReport | null): void {
  shown.set(box, report);
  write(box, report);
}

function write(box: HTMLElement, report: StageReport | null): void {
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
