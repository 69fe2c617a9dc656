// The welcome window (docs/welcome.md): the language, what runs on this
// computer and the providers, then the connection: the test and her first
// answer; then her voice and the microphone (voice.ts). What is offered, found and whether it works are the core's; this
// shows them and sends what the user picks. Its words are the catalog's
// (crates/yui-i18n/locales/*/welcome.ftl); picking a language switches the
// page at once.

import type { FoundServer, Provider, UiEvent } from "../bindings/index";
import { language as currentLanguage, liveText, onLanguage, setLanguage, t } from "../i18n/index";
import { followLanguage } from "../i18n/live";
import { problemText } from "../i18n/problems";
import { subscribeEvents } from "../shell/events";
import { asCommandError, shell } from "../shell/shell";
import { choiceLabel, choicesOf, PROBLEM_ADVICE, type Choice } from "./choices";
import { VoiceSteps } from "./voice";
import { byId } from "./dom";

// Speak the app's language from the first paint on, and follow later picks.
const following = followLanguage();

const language = byId<HTMLSelectElement>("language");
const pick = byId<HTMLElement>("pick");
const connect = byId<HTMLElement>("connect");
const connectTitle = byId<HTMLHeadingElement>("connect-title");
const baseUrl = byId<HTMLInputElement>("base-url");
const keyLabel = byId<HTMLSpanElement>("key-label");
const key = byId<HTMLInputElement>("key");
const model = byId<HTMLInputElement>("model");
const models = byId<HTMLDataListElement>("models");
const modelsLine = byId<HTMLParagraphElement>("models-line");
const go = byId<HTMLButtonElement>("go");
const problem = byId<HTMLParagraphElement>("problem");
const answer = byId<HTMLDivElement>("answer");
const answerHint = byId<HTMLParagraphElement>("answer-hint");
const answerText = byId<HTMLParagraphElement>("answer-text");
const done = byId<HTMLButtonElement>("done");

let providers: Provider[] = [];
/** What runs on this computer; null while still looking. */
let foundServers: FoundServer[] | null = null;
let chosen: Choice | null = null;
/** Her answer is awaited (after a connection that works). */
let listening = false;

onLanguage((lang) => {
  language.value = lang;
  showChoices();
});

function choiceButton(c: Choice): HTMLLIElement {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  b.dataset.provider = c.provider.id;
  if (c.found) b.className = "found";
  const name = document.createElement("span");
  name.textContent = c.label;
  const detail = document.createElement("small");
  detail.textContent = c.detail;
  b.append(name, detail);
  b.addEventListener("click", () => choose(c));
  li.append(b);
  return li;
}

/** The provider list and what was found, in the current language. */
function showChoices(): void {
  const { found, offered } = choicesOf(providers, foundServers ?? []);
  byId("providers").replaceChildren(...offered.map(choiceButton));
  if (foundServers === null) return;
  byId("found").replaceChildren(...(found.length > 0 ? found.map(choiceButton) : [hint(t("welcome-nothing-found"))]));
}

/** The connection form for choice `c`. */
function choose(c: Choice): void {
  chosen = c;
  liveText(connectTitle, () => choiceLabel(c.provider, c.found));
  baseUrl.value = c.baseUrl;
  key.value = "";
  liveText(keyLabel, () => (c.provider.needs_key ? t("welcome-key") : t("welcome-key-optional")));
  model.value = c.models[0] ?? "";
  showModels(c.models);
  problem.hidden = true;
  answer.hidden = true;
  pick.hidden = true;
  connect.hidden = false;
  (c.baseUrl ? (c.provider.needs_key ? key : model) : baseUrl).focus();
  if (c.models.length === 0 && c.baseUrl && !c.provider.needs_key) void loadModels();
}

function showModels(list: string[]): void {
  models.replaceChildren(...list.map((m) => new Option(m, m)));
  liveText(modelsLine, list.length > 0 ? () => t("welcome-models-on-server", { count: list.length }) : null);
}

/** Ask the server for its models (with the key typed). */
async function loadModels(): Promise<void> {
  if (!baseUrl.value.trim() || chosen?.provider.chat_api === "push" || chosen?.provider.chat_api === "agent_chat") return;
  try {
    const list = await shell.welcomeModels(baseUrl.value, key.value);
    showModels(list);
    if (!model.value && list.length > 0) model.value = list[0];
  } catch (err) {
    const error = asCommandError(err);
    liveText(modelsLine, () => problemText(error));
  }
}

async function connectNow(): Promise<void> {
  if (!chosen) return;
  go.disabled = true;
  problem.hidden = true;
  liveText(go, () => t("welcome-testing"));
  try {
    const report = await shell.welcomeConnect(chosen.provider.id, baseUrl.value, key.value, model.value);
    const failed = report.problem;
    if (failed) {
      liveText(problem, () => t("welcome-problem-with-detail", { advice: PROBLEM_ADVICE[failed](), detail: report.detail }));
      problem.hidden = false;
      return;
    }
    answerText.textContent = "";
    answer.hidden = false;
    liveText(answerHint, () => t("welcome-answer-connected"));
    listening = true;
    liveText(done, () => t("welcome-done"));
  } catch (err) {
    const error = asCommandError(err);
    liveText(problem, () => problemText(error));
    problem.hidden = false;
  } finally {
    go.disabled = false;
    liveText(go, () => t("welcome-go"));
  }
}

/** Her words as they come, after a connection that works. */
function onEvent(event: UiEvent): void {
  if (!listening) return;
  if (event.type === "speech") answerText.textContent = `${answerText.textContent ?? ""} ${event.text}`.trim();
  if (event.type === "turn_ended") listening = false;
}

async function start(): Promise<void> {
  await following;
  language.value = currentLanguage();
  // Saves one after another, in the order picked (arrow keys pick several).
  let saving: Promise<unknown> = Promise.resolve();
  language.addEventListener("change", () => {
    // The page speaks it now; the shell saves it and tells the other windows.
    const before = currentLanguage();
    const picked = language.value;
    setLanguage(picked);
    saving = saving.then(() =>
      shell.welcomeLanguage(picked).catch((err) => {
        // Not saved: the page goes back to what the app speaks, and says why.
        const error = asCommandError(err);
        console.warn("yui: language", error.message);
        if (currentLanguage() === picked) setLanguage(before);
        const line = byId<HTMLParagraphElement>("language-problem");
        liveText(line, () => problemText(error));
        line.hidden = false;
      }),
    );
  });
  providers = await shell.welcomeProviders();
  showChoices();
  byId("back").addEventListener("click", () => {
    connect.hidden = true;
    pick.hidden = false;
  });
  go.addEventListener("click", () => void connectNow());
  key.addEventListener("change", () => void loadModels());
  baseUrl.addEventListener("change", () => void loadModels());
  done.addEventListener("click", () => void shell.welcomeDone().catch((err) => console.warn("yui: welcome_done", err)));
  // Her voice and the microphone: after the model, or straight away.
  const steps = new VoiceSteps(() => {
    liveText(done, () => t("welcome-done"));
    done.focus();
  });
  byId("to-voice").addEventListener("click", () => {
    byId("to-voice-row").hidden = true;
    void steps.show();
  });
  await subscribeEvents(onEvent);
  foundServers = await shell.welcomeDiscover().catch(() => []);
  showChoices();
}

function hint(text: string): HTMLLIElement {
  const li = document.createElement("li");
  li.className = "hint";
  li.textContent = text;
  return li;
}

start().catch((err) => console.error("yui: the welcome could not start", err));
