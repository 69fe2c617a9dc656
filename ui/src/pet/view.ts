// The pet window's DOM controls: status pill, error line, composer, the mic
// toggle and the bubble, updated from a `State` on every change. Their words
// come from the catalog (crates/yui-i18n/locales/*/pet.ftl): what `render`
// writes follows a switch of language when the page renders again (main.ts),
// the rest is marked (`mark`) and follows by itself.

import { Bubble } from "./bubble";
import type { Rect } from "./hittest";
import type { ApprovalDecision, DelegationItem } from "../bindings/index";
import { mark, t } from "../i18n/index";
import { offerText } from "../slices/offers";
import { asking as askingOf, offer as offerOf, chipItems, chipText, composerLocked, errorText, pillText, pillTone, thinking, usageText, type State } from "./state";

/** What the view reports back: the user's actions, nothing decided. */
export interface ViewActions {
  /** The user submitted the composer's text (already trimmed, non-empty). */
  submit(text: string): void;
  /** The user pressed stop while a turn runs. */
  stop(): void;
  /** The user pressed "Turn on" on the offer notice for switch `sw` (resolves once it is sent). */
  acceptOffer(sw: string): Promise<void>;
  /** The user closed the offer notice for switch `sw` with ×. */
  dismissOffer(sw: string): void;
  /** The user pressed the mic toggle: `on` is what it asks for. */
  toggleMic(on: boolean): void;
  /** The user pressed the chat button. */
  openChat(): void;
  /** The user answered the approval notice. */
  approve(approvalId: string, decision: ApprovalDecision): void;
  /** The user pressed into the composer (true), or it lost the focus (false). */
  composerFocus(active: boolean): void;
}

/** Handles to the elements `render` updates. */
export interface View {
  /** Show `state` at `now` (epoch ms: the pill's hold, the chip's 30 minutes). */
  render(state: State, now: number): void;
  /** Tuck the composer away (hidden, out of the hit test, its place kept) or show it. */
  setTucked(tucked: boolean): void;
  /** The composer has the focus or unsent text. */
  composerInUse(): boolean;
  /** Clear the composer after a message went out. */
  clearComposer(): void;
  /** Take the focus off the composer (its text stays). */
  blurComposer(): void;
  /** Lift the controls at the window's bottom by `px` (the part of the window below the display). */
  setLift(px: number): void;
  /** Show a local problem (a rejected command) in the error line: `line` writes it in the current language; null clears it. */
  showLocalError(line: (() => string) | null): void;
  /** Show the mic toggle on or off (the saved setting). */
  setMic(on: boolean): void;
  /** The name of the character this window shows (the composer's placeholder). */
  setName(name: string): void;
  /** The speech bubble. */
  readonly bubble: Bubble;
  /** Boxes of the visible UI elements (pill, screen badge, bubble, error, screen notice, composer), for the hit test. */
  uiRects(): Rect[];
  /** Where the character's feet may reach: the top of the screen notice while it shows, else of the composer. */
  dockTop(): number;
  /** The bottom edge of the top row (the pill, and the chip and usage under it), CSS pixels. */
  pillBottom(): number;
}

/** Find an element the page's HTML must contain. */
function el<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id} in index.html`);
  return found as T;
}

/** The box of `e`, or null when it is not shown. */
function rectOf(e: HTMLElement): Rect | null {
  if (e.hidden) return null;
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return null;
  return { x: r.left, y: r.top, width: r.width, height: r.height };
}

/** Wire the page's elements to `actions` and return the view. */
export function mountView(actions: ViewActions): View {
  const pill = el<HTMLSpanElement>("pill");
  // The pill's words are the state's from now on (`render`), not the page's first "connecting…".
  pill.removeAttribute("data-l10n-id");
  const stage = el<HTMLCanvasElement>("stage");
  const error = el<HTMLDivElement>("error");
  const form = el<HTMLFormElement>("composer");
  const input = el<HTMLTextAreaElement>("composer-input");
  const button = el<HTMLButtonElement>("composer-button");
  const bubble = new Bubble(el("bubble"), el("bubble-text"), el("bubble-tail"));
  const pet = pill.parentElement as HTMLElement;
  const watch = el<HTMLSpanElement>("screen-watch");
  const notice = el<HTMLDivElement>("screen-notice");
  const allow = el<HTMLButtonElement>("screen-allow");
  const noticeText = el<HTMLSpanElement>("screen-notice-text");
  /** The switch the offer notice shows now. */
  let offerSwitch: string | null = null;
  /** The character's name, for the composer's placeholder. */
  let name = t("pet-default-name");
  const mic = el<HTMLButtonElement>("mic-button");
  const meta = el<HTMLDivElement>("meta");
  const chip = el<HTMLButtonElement>("delegations-chip");
  const usage = el<HTMLSpanElement>("usage");
  const list = el<HTMLUListElement>("delegations-list");
  const asking = el<HTMLDivElement>("approval-notice");
  const askingText = el<HTMLSpanElement>("approval-text");
  let askingId: string | null = null;
  let listOpen = false;
  let chipShown: DelegationItem[] = [];
  let micOn = false;
  let running = false;
  let localError: (() => string) | null = null;
  let shownError: State["error"] = null;

  const grow = () => {
    input.style.height = "0px";
    input.style.height = `${Math.min(76, Math.max(28, input.scrollHeight))}px`;
  };
  const submit = () => {
    const text = input.value.trim();
    if (text) actions.submit(text);
  };
  /** How far the bottom controls are lifted, CSS px. */
  let liftPx = 0;
  input.addEventListener("input", grow);
  input.addEventListener("pointerdown", () => actions.composerFocus(true));
  input.addEventListener("blur", () => actions.composerFocus(false));
  input.addEventListener("keydown", (e) => {
    if (e.key === "Escape") input.blur();
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit(); // while a turn runs the core queues it
    }
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    // Enter is handled above; this is the button: stop while a turn runs, else send.
    if (running) actions.stop();
    else submit();
  });

  allow.addEventListener("click", () => {
    if (offerSwitch === null) return;
    allow.disabled = true;
    actions.acceptOffer(offerSwitch).finally(() => (allow.disabled = false));
  });
  el<HTMLButtonElement>("screen-dismiss").addEventListener("click", () => {
    if (offerSwitch !== null) actions.dismissOffer(offerSwitch);
  });
  mic.addEventListener("click", () => actions.toggleMic(!micOn));
  el<HTMLButtonElement>("chat-button").addEventListener("click", () => actions.openChat());
  for (const b of asking.querySelectorAll<HTMLButtonElement>("button[data-decision]")) {
    b.addEventListener("click", () => {
      if (askingId) actions.approve(askingId, b.dataset.decision as ApprovalDecision);
    });
  }
  const renderList = () => {
    list.hidden = !listOpen || chipShown.length === 0;
    chip.setAttribute("aria-expanded", String(!list.hidden));
    list.replaceChildren(
      ...chipShown.map((d) => {
        const li = document.createElement("li");
        li.dataset.state = d.state;
        li.textContent = d.title;
        li.title = d.summary ?? d.title;
        return li;
      }),
    );
  };
  chip.addEventListener("click", () => {
    listOpen = !listOpen;
    renderList();
  });

  /** The state `render` showed last (the error line reads it again). */
  let shownState: State | null = null;
  const showError = () => {
    const text = localError ? localError() : shownState && errorText(shownState);
    error.textContent = text ?? "";
    error.title = text ?? "";
    error.hidden = !text;
  };

  /** The composer's placeholder: her name, or the queue while a turn runs. */
  const writeComposer = () => {
    if (running) mark(input, "pet-composer-queue");
    else mark(input, "pet-composer", { name });
  };

  return {
    bubble,
    render(state, now) {
      shownState = state;
      pill.textContent = pillText(state, now);
      pill.dataset.tone = pillTone(state);
      const busy = thinking(state);
      const mode = state.bubble ? "speech" : busy ? "thinking" : "empty";
      bubble.show(state.bubble, mode, !busy);
      running = composerLocked(state);
      writeComposer();
      if (running) mark(button, "pet-stop");
      else mark(button, "pet-send");
      button.dataset.kind = running ? "stop" : "send";
      watch.hidden = !state.screenWatched;
      pet.dataset.watched = String(state.screenWatched);
      const shown = offerOf(state, now);
      offerSwitch = shown?.switch ?? null;
      notice.hidden = shown === null;
      noticeText.textContent = shown ? offerText(shown.switch) : "";
      notice.dataset.switch = shown?.switch ?? "";
      const ask = askingOf(state);
      askingId = ask?.approvalId ?? null;
      asking.hidden = ask === null;
      askingText.textContent = ask?.text ?? "";
      asking.title = ask?.text ?? "";
      mic.dataset.hearing = String(state.voice.state === "hearing");
      chipShown = chipItems(state, now);
      const chipLabel = chipText(chipShown);
      chip.hidden = chipLabel === null;
      chip.textContent = chipLabel ? t("pet-tasks", { summary: chipLabel }) : "";
      chip.dataset.running = String(chipShown.some((d) => d.state === "running"));
      renderList();
      const readout = usageText(state);
      usage.hidden = readout === null;
      usage.textContent = readout ?? "";
      meta.hidden = chip.hidden && usage.hidden;
      if (state.error !== shownError) localError = null;
      shownError = state.error;
      showError();
    },
    setTucked(tucked) {
      form.dataset.tucked = String(tucked);
    },
    composerInUse() {
      return document.activeElement === input || input.value.trim() !== "";
    },
    clearComposer() {
      input.value = "";
      grow();
    },
    blurComposer() {
      input.blur();
    },
    setLift(px) {
      const lift = Math.max(0, Math.round(px));
      if (lift === liftPx) return;
      liftPx = lift;
      // not-ui-text: a CSS transform
      for (const e of [form, notice, asking]) e.style.transform = lift ? `translateY(-${lift}px)` : "";
    },
    showLocalError(line) {
      localError = line;
      showError();
    },
    setName(shown) {
      name = shown.trim() || name;
      mark(stage, "pet-stage", { name });
      writeComposer();
    },
    setMic(on) {
      micOn = on;
      mic.setAttribute("aria-pressed", String(on));
      if (on) mark(mic, "pet-mic-on");
      else mark(mic, "pet-mic-off");
    },
    uiRects() {
      const rects = [rectOf(pill), rectOf(chip), rectOf(usage), rectOf(list), rectOf(watch), rectOf(error), rectOf(notice), rectOf(asking), form.dataset.tucked === "true" ? null : rectOf(form), bubble.visibleRect()];
      return rects.filter((r): r is Rect => r !== null);
    },
    dockTop() {
      // Where the dock stands without its lift: the character's place does not move with it.
      const shown = [notice, asking].filter((e) => !e.hidden).map((e) => e.getBoundingClientRect().top + liftPx);
      return Math.min(form.getBoundingClientRect().top + liftPx, ...shown);
    },
    pillBottom() {
      const under = meta.hidden ? 0 : meta.getBoundingClientRect().bottom;
      return Math.max(pill.getBoundingClientRect().bottom, under);
    },
  };
}
