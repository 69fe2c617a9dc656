// The "Screen & tools" section's pure parts: how a display, a relation and a
// sent picture read, and the form's values as settings. No DOM, no Tauri;
// the words are the catalog's, in the current language.

import type { Display, RelationRecord, ScreenChoice } from "../bindings";
import { formatNumber, language, t } from "../i18n/index";

/** The lowest and highest relation value the user may set (the core clamps too). */
export const RELATION_MIN = -10;
export const RELATION_MAX = 10;

/** One line for a display in the source picker: "Display 1: HDMI-1 · 1920×1080 · primary". */
export function displayLabel(d: Display): string {
  const name = d.label ? t("section-screen-display-named", { index: d.index, name: d.label }) : t("section-screen-display", { index: d.index });
  const parts = [name, `${d.width}×${d.height}`];
  if (d.primary) parts.push(t("section-screen-display-primary"));
  return parts.join(" · ");
}

/** The picker's options: the listed displays, plus the saved index when it is not among them. */
export function displayOptions(displays: readonly Display[], saved: number | null): { value: string; label: string }[] {
  const options = displays.map((d) => ({ value: String(d.index), label: displayLabel(d) }));
  if (saved !== null && !displays.some((d) => d.index === saved)) {
    // "not found" only when a list came back; an unlisted setup just keeps the index.
    options.push({
      value: String(saved),
      label: displays.length > 0 ? t("section-screen-display-missing", { index: saved }) : t("section-screen-display", { index: saved }),
    });
  }
  if (options.length === 0) options.push({ value: "0", label: t("section-screen-display", { index: 0 }) });
  return options;
}

/** The source the form describes: a display by index, or a window by app and title. */
export function sourceFromForm(kind: string, monitor: string, app: string, title: string): ScreenChoice {
  if (kind === "window") return { kind: "window", app: app.trim(), title: title.trim() };
  const index = Number.parseInt(monitor, 10);
  return { kind: "monitor", index: Number.isInteger(index) && index >= 0 ? index : 0 };
}

/** A relation value typed by the user: a whole number in -10..10, else null. */
export function relationValue(text: string): number | null {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t)) return null;
  const v = Number.parseInt(t, 10);
  return v >= RELATION_MIN && v <= RELATION_MAX ? v : null;
}

/** The rows to list: the records, or a neutral "user" row to set when there are none yet. */
export function relationRows(records: readonly RelationRecord[]): RelationRecord[] {
  if (records.length > 0) return [...records];
  return [{ target: "user", value: 0, band: "neutral", delta: 0, why: "", at: 0 }];
}

/** A relation band's name (the core's bands, `crates/yui-core/src/relations.rs`). */
const BANDS: Record<string, () => string> = {
  hostile: () => t("section-screen-band-hostile"),
  cold: () => t("section-screen-band-cold"),
  neutral: () => t("section-screen-band-neutral"),
  warm: () => t("section-screen-band-warm"),
  close: () => t("section-screen-band-close"),
};

/** Band `band` in words; a band the core added later reads as the core names it. */
export function bandText(band: string): string {
  return Object.hasOwn(BANDS, band) ? BANDS[band]() : band;
}

/** "+2 · she liked the tea · 14:03, 2 Dec" for a record's last change; "no change yet" for none. */
export function relationChange(r: RelationRecord, locale?: string): string {
  if (!r.at) return t("section-screen-no-change");
  const when = new Date(r.at).toLocaleString(locale ?? language(), { hour: "2-digit", minute: "2-digit", day: "numeric", month: "short" });
  const delta = formatNumber(r.delta, { signDisplay: "exceptZero" });
  return [delta, r.why || t("section-screen-no-reason"), when].join(" · ");
}

/** A sent picture as the inspector shows it. */
export interface Thumb {
  /** The data URL itself (only `data:image/…;base64,` ones are kept). */
  src: string;
  /** "JPEG · 182 KB". */
  label: string;
}

const DATA_IMAGE = /^data:image\/(png|jpeg|webp|gif);base64,/i;

/** The pictures of a sent block as thumbnails, in order; anything but an inline image is left out. */
export function thumbnails(images: readonly string[]): Thumb[] {
  return images.flatMap((src) => {
    const m = DATA_IMAGE.exec(src);
    if (!m) return [];
    const bytes = Math.floor(((src.length - m[0].length) * 3) / 4);
    return [{ src, label: `${m[1].toUpperCase()} · ${sizeText(bytes)}` }];
  });
}

/** Bytes as "812 B", "182 KB" or "1.4 MB" (the number in the current language's format; the units read alike in all three). */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(Math.round(bytes / 1024))} KB`;
  return `${formatNumber(bytes / (1024 * 1024), { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
}
