// The welcome window (docs/welcome.md): the language, what runs on this
// computer and the providers, then the connection: the test and her first
// answer. What is offered, found and whether it works are the core's; this
// shows them and sends what the user picks.

import type { Provider, UiEvent } from "../bindings/index";
import { subscribeEvents } from "../shell/events";
import { asCommandError, shell } from "../shell/shell";
import { choicesOf, PROBLEM_ADVICE, type Choice } from "./choices";

function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from welcome.html`);
  return el as T;
}

const language = byId<HTMLSelectElement>("language");
const pick = byId<HTMLElement>("pick");
const connect = byId<HTMLElement>("connect");
const baseUrl = byId<HTMLInputElement>("base-url");
const key = byId<HTMLInputElement>("key");
const model = byId<HTMLInputElement>("model");
const models = byId<HTMLDataListElement>("models");
const modelsLine = byId<HTMLParagraphElement>("models-line");
const go = byId<HTMLButtonElement>("go");
const problem = byId<HTMLParagraphElement>("problem");
const answer = byId<HTMLDivElement>("answer");
const answerText = byId<HTMLParagraphElement>("answer-text");
const done = byId<HTMLButtonElement>("done");

let providers: Provider[] = [];
let chosen: Choice | null = null;
/** Her answer is awaited (after a connection that works). */
let listening = false;

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

/** The connection form for choice `c`. */
function choose(c: Choice): void {
  chosen = c;
  byId("connect-title").textContent = c.label;
  baseUrl.value = c.baseUrl;
  key.value = "";
  byId("key-row").firstChild!.textContent = c.provider.needs_key ? "Key " : "Key (if it asks for one) ";
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
  modelsLine.textContent = list.length > 0 ? `${list.length} model${list.length === 1 ? "" : "s"} on this server.` : "";
}

/** Ask the server for its models (with the key typed). */
async function loadModels(): Promise<void> {
  if (!baseUrl.value.trim() || chosen?.provider.chat_api === "push" || chosen?.provider.chat_api === "agent_chat") return;
  try {
    const list = await shell.welcomeModels(baseUrl.value, key.value);
    showModels(list);
    if (!model.value && list.length > 0) model.value = list[0];
  } catch (err) {
    modelsLine.textContent = asCommandError(err).message;
  }
}

async function connectNow(): Promise<void> {
  if (!chosen) return;
  go.disabled = true;
  problem.hidden = true;
  go.textContent = "Testing…";
  try {
    const report = await shell.welcomeConnect(chosen.provider.id, baseUrl.value, key.value, model.value);
    if (report.problem) {
      problem.textContent = `${PROBLEM_ADVICE[report.problem]} (${report.detail})`;
      problem.hidden = false;
      return;
    }
    answerText.textContent = "";
    answer.hidden = false;
    byId("answer").querySelector(".hint")!.textContent = "Connected. Her first answer:";
    listening = true;
    done.textContent = "Done";
  } catch (err) {
    problem.textContent = asCommandError(err).message;
    problem.hidden = false;
  } finally {
    go.disabled = false;
    go.textContent = "Connect and say hello";
  }
}

/** Her words as they come, after a connection that works. */
function onEvent(event: UiEvent): void {
  if (!listening) return;
  if (event.type === "speech") answerText.textContent = `${answerText.textContent ?? ""} ${event.text}`.trim();
  if (event.type === "turn_ended") listening = false;
}

async function start(): Promise<void> {
  language.value = await shell.welcomeCurrentLanguage().catch(() => "en");
  language.addEventListener("change", () => void shell.welcomeLanguage(language.value).catch((err) => console.warn("yui: language", err)));
  providers = await shell.welcomeProviders();
  const { offered } = choicesOf(providers, []);
  byId("providers").replaceChildren(...offered.map(choiceButton));
  byId("back").addEventListener("click", () => {
    connect.hidden = true;
    pick.hidden = false;
  });
  go.addEventListener("click", () => void connectNow());
  key.addEventListener("change", () => void loadModels());
  baseUrl.addEventListener("change", () => void loadModels());
  done.addEventListener("click", () => void shell.welcomeDone().catch((err) => console.warn("yui: welcome_done", err)));
  await subscribeEvents(onEvent);
  const found = await shell.welcomeDiscover().catch(() => []);
  const list = choicesOf(providers, found).found;
  byId("found").replaceChildren(...(list.length > 0 ? list.map(choiceButton) : [hint("Nothing runs on the usual ports (Ollama, LM Studio, llama.cpp, vLLM, LiteLLM).")]));
}

function hint(text: string): HTMLLIElement {
  const li = document.createElement("li");
  li.className = "hint";
  li.textContent = text;
  return li;
}

start().catch((err) => console.error("yui: the welcome could not start", err));
