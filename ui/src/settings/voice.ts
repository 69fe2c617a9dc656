// The settings window's "Voice" section: speech out (the TTS server, the
// system voice, speed, the output device) and voice in (the microphone, how
// readily speech is heard, the STT server). Saved with the form; the mic
// toggle itself lives on the pet (its value is kept as loaded).

import { shell } from "../shell/shell";
import type { Settings, VoiceSettings } from "../bindings";
import { formatNumber, liveText, mark, onLanguage, t } from "../i18n/index";
import { errorText } from "./tools";

/** One entry of a device list. */
export interface DeviceOption {
  /** The saved value ("" is the system default). */
  value: string;
  /** What the list shows. */
  label: string;
}

/** The device list: the system default first, every device, and `saved` kept when it is gone. */
export function deviceOptions(devices: readonly string[], saved: string): DeviceOption[] {
  const names = [...new Set(devices.filter((d) => d !== ""))];
  const options: DeviceOption[] = [{ value: "", label: t("section-voice-system-default") }, ...names.map((d) => ({ value: d, label: d }))];
  if (saved !== "" && !names.includes(saved)) options.push({ value: saved, label: t("section-voice-device-missing", { device: saved }) });
  return options;
}

/** A whole number from `text` within [min, max], else `fallback`. */
export function clampedInt(text: string, min: number, max: number, fallback: number): number {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

/** Controls of the section. */
export class VoiceSection {
  private mic = false;
  /** Each device list's devices and saved value, to write the list again in another language. */
  private readonly devices = new Map<string, { devices: string[]; saved: string }>();

  /** Wire the section inside `form`. */
  constructor(private readonly form: HTMLFormElement) {
    onLanguage(() => {
      for (const [name, { devices, saved }] of this.devices) this.showDevices(name, devices, saved, this.select(name).value);
      this.showRanges();
    });
    for (const name of ["speed_percent", "vad_sensitivity"]) {
      this.input(name).addEventListener("input", () => this.showRanges());
    }
    this.input("voice_enabled").addEventListener("change", () => this.syncEnabled());
    this.input("system_voice").addEventListener("change", () => this.syncEnabled());
    document.getElementById("reveal-voice-keys")?.addEventListener("click", (ev) => {
      const show = this.input("tts_key").type === "password";
      for (const n of ["tts_key", "stt_key"]) this.input(n).type = show ? "text" : "password";
      const button = ev.target as HTMLButtonElement;
      if (show) mark(button, "section-voice-hide-keys");
      else mark(button, "section-voice-show-keys");
    });
  }

  private input(name: string): HTMLInputElement {
    return this.form.elements.namedItem(name) as HTMLInputElement;
  }

  private select(name: string): HTMLSelectElement {
    return this.form.elements.namedItem(name) as HTMLSelectElement;
  }

  /** Show `s.voice`, then list the devices. */
  fill(s: Settings): void {
    const v = s.voice;
    this.mic = v.mic_enabled;
    this.input("voice_enabled").checked = v.enabled;
    this.input("tts_base_url").value = v.tts_base_url;
    this.input("tts_key").value = v.tts_key;
    this.input("tts_model").value = v.tts_model;
    this.input("tts_voice").value = v.tts_voice;
    this.input("tts_in_flight").value = String(v.tts_in_flight);
    this.input("speed_percent").value = String(v.speed_percent);
    this.input("system_voice").checked = v.system_voice;
    this.input("system_voice_name").value = v.system_voice_name;
    this.input("vad_sensitivity").value = String(v.vad_sensitivity);
    this.input("stt_base_url").value = v.stt_base_url;
    this.input("stt_key").value = v.stt_key;
    this.input("stt_model").value = v.stt_model;
    this.input("stt_language").value = v.stt_language;
    this.input("filler").checked = v.filler;
    this.showRanges();
    this.syncEnabled();
    void this.loadDevices("output_device", shell.listOutputDevices, v.output_device);
    void this.loadDevices("mic_device", shell.listInputDevices, v.mic_device);
  }

  /** The section's part of the settings, as the form shows it now. */
  read(base: VoiceSettings): VoiceSettings {
    return {
      ...base,
      enabled: this.input("voice_enabled").checked,
      tts_base_url: this.input("tts_base_url").value.trim(),
      tts_key: this.input("tts_key").value,
      tts_model: this.input("tts_model").value.trim(),
      tts_voice: this.input("tts_voice").value.trim(),
      tts_in_flight: clampedInt(this.input("tts_in_flight").value, 1, 8, base.tts_in_flight),
      speed_percent: clampedInt(this.input("speed_percent").value, 25, 400, base.speed_percent),
      system_voice: this.input("system_voice").checked,
      system_voice_name: this.input("system_voice_name").value.trim(),
      output_device: this.select("output_device").value,
      mic_enabled: this.mic,
      mic_device: this.select("mic_device").value,
      vad_sensitivity: clampedInt(this.input("vad_sensitivity").value, 0, 100, base.vad_sensitivity),
      stt_base_url: this.input("stt_base_url").value.trim(),
      stt_key: this.input("stt_key").value,
      stt_model: this.input("stt_model").value.trim(),
      stt_language: this.input("stt_language").value.trim(),
      filler: this.input("filler").checked,
    };
  }

  /** The sliders' numbers next to them. */
  private showRanges(): void {
    const speed = document.getElementById("speed-value");
    if (speed) speed.textContent = formatNumber(Number(this.input("speed_percent").value) / 100, { style: "percent" });
    const vad = document.getElementById("vad-value");
    if (vad) vad.textContent = formatNumber(Number(this.input("vad_sensitivity").value));
  }

  /** The system voice's name only matters while it is on; nothing of speech out while the voice is off. */
  private syncEnabled(): void {
    const on = this.input("voice_enabled").checked;
    for (const n of ["tts_base_url", "tts_key", "tts_model", "tts_voice", "tts_in_flight", "speed_percent", "system_voice", "filler"]) this.input(n).disabled = !on;
    this.select("output_device").disabled = !on;
    this.input("system_voice_name").disabled = !on || !this.input("system_voice").checked;
  }

  /** Fill the device list `name` from `list`, keeping `saved` selected. */
  private async loadDevices(name: string, list: () => Promise<string[]>, saved: string): Promise<void> {
    const error = document.getElementById(`${name}-error`);
    let devices: string[] = [];
    try {
      devices = await list();
      if (error) error.hidden = true;
    } catch (e) {
      if (error) {
        liveText(error, () => t("section-voice-devices-error", { problem: errorText(e) }));
        error.hidden = false;
      }
    }
    this.devices.set(name, { devices, saved });
    this.showDevices(name, devices, saved, saved);
  }

  /** Fill the device list `name` with `devices` (keeping `saved`), `selected` chosen. */
  private showDevices(name: string, devices: string[], saved: string, selected: string): void {
    const select = this.select(name);
    select.replaceChildren(
      ...deviceOptions(devices, saved).map((o) => Object.assign(document.createElement("option"), { value: o.value, textContent: o.label })),
    );
    select.value = selected;
  }
}
