// The settings window's "Reactions" section: what other programs may hand
// the character. For now the signals ingress: its switch, port and token
// rule (saved with the form), and, from the shell, where it listens, the
// token and a copyable curl line. The core decides all of it; this shows it.

import { commands } from "../bindings/commands";
import type { IngressInfo, IngressSettings, Settings } from "../bindings";
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

/** The status line: where it listens, why it does not, or that it is off. */
export function statusText(info: IngressInfo): { text: string; bad: boolean } {
  if (!info.enabled) return { text: "Off: other programs cannot reach her.", bad: false };
  if (info.listening) return { text: `Listening on ${info.address} (this computer only).`, bad: false };
  return { text: info.problem ?? `Not listening on ${info.address}: save, then restart YUI.`, bad: true };
}

/** Controls of the section. */
export class ReactionsSection {
  private readonly status = document.getElementById("ingress-status") as HTMLParagraphElement;
  private readonly token = document.getElementById("ingress-token") as HTMLInputElement;
  private readonly example = document.getElementById("ingress-example") as HTMLElement;
  private readonly details = document.getElementById("ingress-details") as HTMLElement;

  /** Wire the section inside `form`. */
  constructor(private readonly form: HTMLFormElement) {
    for (const [button, source] of [
      ["copy-ingress-token", () => this.token.value],
      ["copy-ingress-example", () => this.example.textContent ?? ""],
    ] as const) {
      document.getElementById(button)?.addEventListener("click", (e) => {
        const b = e.currentTarget as HTMLButtonElement;
        void navigator.clipboard.writeText(source()).then(
          () => flash(b, "Copied"),
          () => flash(b, "Copy failed"),
        );
      });
    }
  }

  private input(name: string): HTMLInputElement {
    return this.form.elements.namedItem(name) as HTMLInputElement;
  }

  /** Show `s.ingress`. */
  fill(s: Settings): void {
    this.input("ingress_enabled").checked = s.ingress.enabled;
    this.input("ingress_port").value = String(s.ingress.port);
    this.input("ingress_require_token").checked = s.ingress.require_token;
  }

  /** The section's part of the settings, as the form shows it now. */
  read(base: IngressSettings): IngressSettings {
    return ingressFromForm(
      { enabled: this.input("ingress_enabled").checked, port: this.input("ingress_port").value, require_token: this.input("ingress_require_token").checked },
      base,
    );
  }

  /** Ask the shell where the ingress listens, and show it. */
  async load(): Promise<void> {
    try {
      this.show(await commands.ingressInfo());
    } catch (e) {
      this.status.textContent = errorText(e);
      this.status.classList.add("error-line");
    }
  }

  private show(info: IngressInfo): void {
    const s = statusText(info);
    this.status.textContent = s.text;
    this.status.classList.toggle("error-line", s.bad);
    this.token.value = info.token;
    this.example.textContent = info.example;
    this.details.hidden = !info.enabled;
  }
}

function flash(button: HTMLButtonElement, text: string): void {
  const was = button.dataset.label ?? button.textContent ?? "";
  button.dataset.label = was;
  button.textContent = text;
  window.setTimeout(() => (button.textContent = was), 1200);
}
