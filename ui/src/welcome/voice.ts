// The welcome's voice and microphone steps (docs/welcome.md): what can
// speak here (the system voice, the speech servers found running), a voice
// tried (the sample line made and played) and kept when it works, then a
// microphone turned on. Each step can be skipped; the settings' Voice
// section has every choice afterwards. What is found and whether it works
// are the core's (yui_core::voice_setup); this shows them and sends picks.

import type { FoundVoiceServer, VoiceChoices, VoicePick, VoiceProblem } from "../bindings/index";
import { formatNumber, liveText, mark, onLanguage, t } from "../i18n/index";
import { problemText } from "../i18n/problems";
import { asCommandError, shell } from "../shell/shell";
import { byId } from "./dom";

/** What to try when a voice failed, by the step that failed. */
const VOICE_ADVICE: Record<VoiceProblem, (el: Element) => void> = {
  unreachable: (el) => mark(el, "welcome-voice-unreachable"),
  key_refused: (el) => mark(el, "welcome-voice-key-refused"),
  voice_missing: (el) => mark(el, "welcome-voice-missing"),
  no_system_voice: (el) => mark(el, "welcome-voice-no-system"),
  not_playable: (el) => mark(el, "welcome-voice-not-playable"),
};

/** One voice to offer: the system voice, a server found, or another address. */
type Offer = { kind: "system" } | { kind: "server"; server: FoundVoiceServer } | { kind: "other" };

/** The voice and microphone steps, shown one after the other. */
export class VoiceSteps {
  private readonly voice = byId<HTMLElement>("voice");
  private readonly voices = byId<HTMLUListElement>("voices");
  private readonly form = byId<HTMLDivElement>("voice-form");
  private readonly url = byId<HTMLInputElement>("voice-url");
  private readonly key = byId<HTMLInputElement>("voice-key");
  private readonly model = byId<HTMLInputElement>("voice-model");
  private readonly name = byId<HTMLInputElement>("voice-name");
  private readonly tryButton = byId<HTMLButtonElement>("voice-try");
  private readonly skip = byId<HTMLButtonElement>("voice-skip");
  private readonly problem = byId<HTMLParagraphElement>("voice-problem");
  private readonly ok = byId<HTMLParagraphElement>("voice-ok");
  private readonly mic = byId<HTMLElement>("mic");
  private readonly device = byId<HTMLSelectElement>("mic-device");
  private readonly micOn = byId<HTMLButtonElement>("mic-on");
  private readonly micSkip = byId<HTMLButtonElement>("mic-skip");
  private readonly micProblem = byId<HTMLParagraphElement>("mic-problem");
  private readonly micOk = byId<HTMLParagraphElement>("mic-ok");
  private choices: VoiceChoices | null = null;
  private offer: Offer | null = null;
  private microphones: string[] = [];

  /** `finished` runs when both steps are done or skipped. */
  constructor(private readonly finished: () => void) {
    this.tryButton.addEventListener("click", () => void this.tryVoice());
    this.skip.addEventListener("click", () => this.showMic());
    this.micOn.addEventListener("click", () => void this.turnMicOn());
    this.micSkip.addEventListener("click", () => this.finished());
    onLanguage(() => {
      this.showOffers();
      if (!this.mic.hidden) this.showMicrophones();
    });
  }

  /** Show the voice step and look for what can speak here. */
  async show(): Promise<void> {
    this.voice.hidden = false;
    this.voice.scrollIntoView({ block: "start" });
    if (this.choices) return;
    try {
      this.choices = await shell.welcomeVoices();
    } catch (err) {
      console.warn("yui: welcome_voices failed", asCommandError(err).message);
      this.choices = { system_voice: false, servers: [] };
    }
    this.showOffers();
  }

  private offers(): Offer[] {
    const found: Offer[] = (this.choices?.servers ?? []).map((server) => ({ kind: "server", server }));
    return [...(this.choices?.system_voice ? [{ kind: "system" } as Offer] : []), ...found, { kind: "other" }];
  }

  private showOffers(): void {
    if (!this.choices) return;
    const items = this.offers().map((offer) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.voice = offer.kind === "server" ? offer.server.base_url : offer.kind;
      if (this.offer && sameOffer(offer, this.offer)) b.className = "chosen";
      const label = document.createElement("span");
      const detail = document.createElement("small");
      if (offer.kind === "system") {
        mark(label, "welcome-voice-system");
        mark(detail, "welcome-voice-system-detail");
      } else if (offer.kind === "other") {
        mark(label, "welcome-voice-other");
      } else {
        const s = offer.server;
        if (s.kind === "kokoro_fastapi") mark(label, "welcome-voice-kokoro");
        else mark(label, "welcome-voice-compatible");
        detail.dataset.words = "theirs";
        detail.textContent = `${s.base_url} · ${s.voices.length > 0 ? t("welcome-voice-count", { count: s.voices.length }) : t("welcome-voice-models", { count: s.models.length })}`;
      }
      b.append(label, detail);
      b.addEventListener("click", () => this.choose(offer));
      li.append(b);
      return li;
    });
    const none = this.choices.servers.length === 0 && !this.choices.system_voice;
    if (none) {
      const li = document.createElement("li");
      li.className = "hint";
      mark(li, "welcome-voice-nothing");
      items.unshift(li);
    }
    this.voices.replaceChildren(...items);
  }

  private choose(offer: Offer): void {
    this.offer = offer;
    this.problem.hidden = true;
    this.ok.hidden = true;
    this.form.hidden = offer.kind === "system";
    this.tryButton.disabled = false;
    if (offer.kind === "server") {
      const s = offer.server;
      this.url.value = s.base_url;
      this.model.value = s.models[0] ?? "";
      this.name.value = s.voices[0] ?? "";
      byId("voice-models").replaceChildren(...s.models.map((m) => new Option(m, m)));
      byId("voice-names").replaceChildren(...s.voices.map((v) => new Option(v, v)));
    } else if (offer.kind === "other") {
      for (const input of [this.url, this.model, this.name]) input.value = "";
      this.url.focus();
    }
    this.key.value = "";
    this.showOffers();
  }

  private pick(): VoicePick {
    if (this.offer?.kind === "system") return { base_url: "", key: "", model: "", voice: "" };
    return { base_url: this.url.value.trim(), key: this.key.value, model: this.model.value.trim(), voice: this.name.value.trim() };
  }

  private async tryVoice(): Promise<void> {
    if (!this.offer) return;
    if (this.offer.kind !== "system" && !this.url.value.trim()) {
      this.url.focus();
      return;
    }
    this.tryButton.disabled = true;
    this.problem.hidden = true;
    this.ok.hidden = true;
    mark(this.tryButton, "welcome-voice-trying");
    try {
      const report = await shell.welcomeTryVoice(this.pick());
      if (report.problem) {
        VOICE_ADVICE[report.problem](byId("voice-advice"));
        byId("voice-detail").textContent = report.detail ? `(${report.detail})` : "";
        this.problem.hidden = false;
        return;
      }
      mark(this.ok, "welcome-voice-kept", { seconds: formatNumber(report.sound_ms / 1000, { maximumFractionDigits: 1 }) });
      this.ok.hidden = false;
      mark(this.skip, "welcome-next-mic");
    } catch (err) {
      const error = asCommandError(err);
      liveText(byId("voice-advice"), () => problemText(error));
      byId("voice-detail").textContent = "";
      this.problem.hidden = false;
    } finally {
      this.tryButton.disabled = false;
      mark(this.tryButton, "welcome-voice-try");
    }
  }

  /** Show the microphone step with the microphones found. */
  showMic(): void {
    this.mic.hidden = false;
    this.mic.scrollIntoView({ block: "start" });
    void shell
      .welcomeMicrophones()
      .catch((err) => {
        console.warn("yui: welcome_microphones failed", asCommandError(err).message);
        return [] as string[];
      })
      .then((list) => {
        this.microphones = list;
        this.showMicrophones();
      });
  }

  private showMicrophones(): void {
    const chosen = this.device.value;
    this.device.replaceChildren(...this.microphones.map((name, i) => new Option(i === 0 ? t("welcome-mic-default", { name }) : name, i === 0 ? "" : name)));
    this.device.value = chosen;
    this.micOn.disabled = this.microphones.length === 0;
    if (this.microphones.length === 0) {
      mark(this.micProblem, "welcome-mic-none");
      this.micProblem.hidden = false;
    } else if (this.micProblem.getAttribute("data-l10n-id") === "welcome-mic-none") {
      // The list came after all: only a failure to turn it on stays up.
      this.micProblem.hidden = true;
    }
  }

  private async turnMicOn(): Promise<void> {
    this.micOn.disabled = true;
    this.micProblem.hidden = true;
    try {
      await shell.welcomeMicrophone(true, this.device.value);
      mark(this.micOk, "welcome-mic-listening");
      this.micOk.hidden = false;
      mark(this.micSkip, "welcome-finish");
    } catch (err) {
      const error = asCommandError(err);
      liveText(this.micProblem, () => problemText(error));
      this.micProblem.hidden = false;
    } finally {
      this.micOn.disabled = this.microphones.length === 0;
    }
  }
}

function sameOffer(a: Offer, b: Offer): boolean {
  if (a.kind === "server" && b.kind === "server") return a.server.base_url === b.server.base_url;
  return a.kind === b.kind;
}
