// The settings window's "Reactions" section: what other programs may hand
// the character. For now the signals ingress: its switch, port and token
// rule (saved with the form), and, from the shell, where it listens, the
// token and a copyable curl line; and, under the "what she notices"
// switches, why this desktop gives no frontmost line or idle time when it
// cannot (say Wayland without sway). The core decides all of it; this shows it.

import { shell } from "../shell/shell";
import type { IngressInfo, IngressSettings, ReactionsSettings, Settings } from "../bindings";
import { english, liveText, localize, t } from "../i18n/index";
import { errorText } from "./tools";

/** The lowest and highest port the form takes. */
export const PORT_RANGE = { min: 1024, max: 65535 } as const;

/** The port in `text`, or `loaded` when it is empty, not a whole number or out of range. */
export function readPort(text: string, loaded: number): number {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isInteger(n) && n >= PORT_RANGE.min && n <= PORT_RANGE.max ? n : loaded;
}

/** `base` with the form's values on top (the run-only token stays as loaded). */
export function ingressFromForm(f: { enabled: boolean; port: string; require_token: boolean }, base: IngressSettings): IngressSettings {
  return { ...base, enabled: f.enabled, port: readPort(f.port, base.port), require_token: f.require_token };
}

/** A whole number in `text` within [min, max], or `loaded`. */
export function readWhole(text: string, loaded: number, min: number, max: number): number {
  const n = Number(text.trim());
  return text.trim() !== "" && Number.isInteger(n) && n >= min && n <= max ? n : loaded;
}

/** The reactions as the form shows them, over `base`. */
export function reactionsFromForm(
  f: { frontmost: boolean; screen_transitions: boolean; schedule: boolean; idle_cues: boolean; away_after_min: string; quiet_gap_min: string },
  base: ReactionsSettings,
): ReactionsSettings {
  return {
    ...base,
    frontmost: f.frontmost,
    screen_transitions: f.screen_transitions,
    schedule: f.schedule,
    idle_cues: f.idle_cues,
    away_after_min: readWhole(f.away_after_min, base.away_after_min, 1, 120),
    pacing: { ...base.pacing, quiet_gap_min: readWhole(f.quiet_gap_min, base.pacing.quiet_gap_min, 1, 240) },
  };
}

/** The status line: where it listens, why it does not, or that it is off. */
export function statusText(info: IngressInfo): { text: string; bad: boolean } {
  if (!info.enabled) return { text: t("section-reactions-off"), bad: false };
  if (info.listening) return { text: t("section-reactions-listening", { address: info.address }), bad: false };
  return { text: info.problem ?? t("section-reactions-not-listening", { address: info.address }), bad: true };
}

/** The desktop reader's limitation lines (crates/yui-desktop/src/platform/), each as the core sends it (English) and in the current language. */
const LIMITATIONS: (() => [core: string, local: string])[] = [
  () => [english("section-limitation-wayland"), t("section-limitation-wayland")],
  () => [english("section-limitation-sway"), t("section-limitation-sway")],
  () => [english("section-limitation-idle-only"), t("section-limitation-idle-only")],
  () => [english("section-limitation-unsupported"), t("section-limitation-unsupported")],
  () => [english("section-limitation-no-display"), t("section-limitation-no-display")],
];

/** Every limitation line the catalog words, in English (the test holds them to the core's). */
export function knownLimitations(): string[] {
  return LIMITATIONS.map((line) => line()[0]);
}

/** The desktop limitation line in the current language (a line the catalog does not know, as the core sent it), hidden when there is none (both facts are read). */
export function limitationLine(limitation: string | null | undefined): { text: string; hidden: boolean } {
  const text = limitation?.trim() ?? "";
  const known = LIMITATIONS.map((line) => line()).find(([core]) => core === text);
  return { text: known ? known[1] : text, hidden: text === "" };
}

/** Why the desktop reader gives no frontmost line or idle time, from the shell; null when it reads both or the shell cannot say. */
export async function fetchLimitation(ask: () => Promise<string | null> = shell.desktopLimitation): Promise<string | null> {
  try {
    return await ask();
  } catch {
    return null;
  }
}

/** Controls of the section. */
export class ReactionsSection {
  private readonly status = document.getElementById("ingress-status") as HTMLParagraphElement;
  private readonly token = document.getElementById("ingress-token") as HTMLInputElement;
  private readonly example = document.getElementById("ingress-example") as HTMLElement;
  private readonly details = document.getElementById("ingress-details") as HTMLElement;
  private readonly limitation = document.createElement("p");

  /** Wire the section inside `form`. */
  constructor(private readonly form: HTMLFormElement) {
    this.limitation.className = "hint";
    this.limitation.id = "desktop-limitation";
    this.limitation.hidden = true;
    this.input("frontmost").closest("label")?.after(this.limitation);
    for (const [button, source] of [
      ["copy-ingress-token", () => this.token.value],
      ["copy-ingress-example", () => this.example.textContent ?? ""],
    ] as const) {
      document.getElementById(button)?.addEventListener("click", (e) => {
        const b = e.currentTarget as HTMLButtonElement;
        void navigator.clipboard.writeText(source()).then(
          () => flash(b, t("section-reactions-copied")),
          () => flash(b, t("section-reactions-copy-failed")),
        );
      });
    }
  }

  private input(name: string): HTMLInputElement {
    return this.form.elements.namedItem(name) as HTMLInputElement;
  }

  /** Show `s.ingress` and `s.reactions`. */
  fill(s: Settings): void {
    for (const name of ["frontmost", "screen_transitions", "schedule", "idle_cues"] as const) this.input(name).checked = s.reactions[name];
    this.input("away_after_min").value = String(s.reactions.away_after_min);
    this.input("quiet_gap_min").value = String(s.reactions.pacing.quiet_gap_min);
    this.input("ingress_enabled").checked = s.ingress.enabled;
    this.input("ingress_port").value = String(s.ingress.port);
    this.input("ingress_require_token").checked = s.ingress.require_token;
  }

  /** The reactions as the form shows them now. */
  readReactions(base: ReactionsSettings): ReactionsSettings {
    return reactionsFromForm(
      {
        frontmost: this.input("frontmost").checked,
        screen_transitions: this.input("screen_transitions").checked,
        schedule: this.input("schedule").checked,
        idle_cues: this.input("idle_cues").checked,
        away_after_min: this.input("away_after_min").value,
        quiet_gap_min: this.input("quiet_gap_min").value,
      },
      base,
    );
  }

  /** The section's part of the settings, as the form shows it now. */
  read(base: IngressSettings): IngressSettings {
    return ingressFromForm(
      { enabled: this.input("ingress_enabled").checked, port: this.input("ingress_port").value, require_token: this.input("ingress_require_token").checked },
      base,
    );
  }

  /** Ask the shell where the ingress listens and what the desktop reader cannot read, and show both. */
  async load(): Promise<void> {
    void fetchLimitation().then((l) => {
      const line = limitationLine(l);
      liveText(this.limitation, () => limitationLine(l).text);
      this.limitation.hidden = line.hidden;
    });
    try {
      this.show(await shell.ingressInfo());
    } catch (e) {
      liveText(this.status, () => errorText(e));
      this.status.classList.add("error-line");
    }
  }

  private show(info: IngressInfo): void {
    const s = statusText(info);
    liveText(this.status, () => statusText(info).text);
    this.status.classList.toggle("error-line", s.bad);
    this.token.value = info.token;
    this.example.textContent = info.example;
    this.details.hidden = !info.enabled;
  }
}

/** Say `text` on `button` for a moment, then its own words again (from the catalog when it is marked, in the language of then). */
function flash(button: HTMLButtonElement, text: string): void {
  const was = button.dataset.label ?? button.textContent ?? "";
  button.dataset.label = was;
  button.textContent = text;
  window.setTimeout(() => {
    button.textContent = was;
    localize(button);
  }, 1200);
}
