// The settings window: reads and saves settings through the shell, tests a
// connection, and uploads a character, a clip or a card. The core decides
// what a change means and what a test found. Its words are in
// crates/yui-i18n/locales/*/settings.ftl; what this file writes is written
// again when the user picks another language.
import { asCommandError, shell } from "../shell/shell";
import type { ChatApi, KeyPlace, Presets, ProbeReport, Settings, UiEvent } from "../bindings";
import { PROBLEM_ADVICE } from "../welcome/choices";
import { subscribeEvents } from "../shell/events";
import { initialSession, reduceSession } from "../slices/session";
import { CharactersSection, sameName } from "./characters";
import { ChatSection } from "./chat";
import { bedFromForm, bedToForm } from "./bed";
import { fetchCheck, renderCheck } from "./desktop";
import { ReactionsSection } from "./reactions";
import { SessionSection } from "./session";
import { SessionStrip } from "./strip";
import { errorText, pictureStrip, ScreenTools } from "./tools";
import { VoiceSection } from "./voice";
import { formatDate, liveText, mark, onLanguage, t } from "../i18n/index";
import { followLanguage } from "../i18n/live";
import { problemText } from "../i18n/problems";

void followLanguage();

const form = document.getElementById("settings") as HTMLFormElement;
const message = document.getElementById("message") as HTMLSpanElement;
const characterName = document.getElementById("character-name") as HTMLParagraphElement;
const keyPlace = document.getElementById("key-place") as HTMLParagraphElement;
const probeList = document.getElementById("probe") as HTMLUListElement;
const cardName = document.getElementById("card-name") as HTMLParagraphElement;
const title = document.querySelector("title") as HTMLTitleElement;

onLanguage((language) => {
  // Picked elsewhere (the welcome): the form says so too, or its next Save
  // would put the old language back.
  field("language").value = language;
  if (current) current = { ...current, language };
});

/** A rejected command as a line: its code's headline and the core's detail. */
function failure(e: unknown): () => string {
  const problem = asCommandError(e);
  return () => problemText(problem);
}

/** Show one line of feedback; errors in red. */
function say(text: () => string, isError = false): void {
  liveText(message, text);
  message.classList.toggle("error", isError);
}

function field(name: string): HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  return form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
}

function checkbox(name: string): HTMLInputElement {
  return form.elements.namedItem(name) as HTMLInputElement;
}

let current: Settings | null = null;
const screenTools = new ScreenTools(form);
const voice = new VoiceSection(form);
const chat = new ChatSection(form);
const session = new SessionSection();
const characters = new CharactersSection({
  listed: showEditing,
  added: (name) => {
    say(() => t("settings-character-added", { name }));
    void editCharacter(name);
  },
  ask: (q) => window.confirm(q),
});

const editingRow = document.getElementById("editing-row") as HTMLParagraphElement;
const editing = document.getElementById("editing") as HTMLSelectElement;
/** The preset whose settings the form shows (null: main's, before the shell said). */
let editedName: string | null = null;
/** Main's name as the registry last said. */
let knownMain: string | null = null;

/**
 * The picker of whose settings show: every preset, main marked; shown with
 * two or more. When the character the form shows was removed, it shows
 * main's; when she was main and another became main, it goes on showing
 * hers (a save never lands in another character's folder).
 */
function showEditing(presets: Presets): void {
  const gone = editedName !== null && !presets.presets.some((p) => sameName(p.name, editedName));
  const wasMain = knownMain !== null && (editedName === null || sameName(editedName, knownMain)) && !sameName(knownMain, presets.main);
  const keep = wasMain ? knownMain : null;
  knownMain = presets.main;
  if (gone) void editCharacter(null);
  else if (keep !== null) void editCharacter(keep);
  const main = presets.main.toLowerCase();
  const shown = editedName ?? presets.main;
  editing.replaceChildren(
    ...presets.presets.map((p) => {
      const option = new Option(p.name, p.name);
      if (p.name.toLowerCase() === main) mark(option, "settings-editing-main", { name: p.name });
      option.selected = p.name.toLowerCase() === shown.toLowerCase();
      return option;
    }),
  );
  editingRow.hidden = presets.presets.length < 2;
}

/** Show preset `name`'s settings (null: main's) in every section. */
/** Picks in flight, one after another (the last one is what the form and the shell end on). */
let picking: Promise<void> = Promise.resolve();
function editCharacter(name: string | null): Promise<void> {
  picking = picking.then(() => pickNow(name));
  return picking;
}

async function pickNow(name: string | null): Promise<void> {
  try {
    editedName = await shell.editCharacter(name);
    editing.value = editedName;
    if (editingRow.hidden) mark(title, "settings-title");
    else mark(title, "settings-title-editing", { name: editedName });
    await load();
    void loadContexts();
    void session.load();
  } catch (e) {
    say(failure(e), true);
  }
}

editing.addEventListener("change", () => void editCharacter(editing.value));
const reactions = new ReactionsSection(form);

function fill(s: Settings): void {
  current = s;
  field("chat_api").value = s.chat_api;
  field("chat_base_url").value = s.chat_base_url;
  field("key").value = s.key;
  field("model").value = s.model;
  field("reasoning_effort").value = s.reasoning_effort;
  field("context_window").value = String(s.context_window);
  field("chat_instructions").value = s.chat_instructions;
  checkbox("card_enabled").checked = s.card_enabled;
  field("user_name").value = s.user_name;
  field("language").value = s.language || "en";
  screenTools.fill(s);
  voice.fill(s);
  chat.fill(s);
  reactions.fill(s);
  const bed = bedToForm(s.bed);
  checkbox("bed_at_launch").checked = bed.at_launch;
  field("bed_wake_timeout_min").value = bed.wake_timeout_min;
  checkbox("start_at_login").checked = s.start_at_login;
  const file = s.character.split(/[\\/]/).pop();
  liveText(characterName, () => (s.character ? t("settings-character-file", { file: file ?? "" }) : t("settings-character-builtin")));
}

/** The settings as the form shows them now, on top of the loaded ones. */
function formSettings(base: Settings): Settings {
  const tokens = Number.parseInt(field("context_window").value, 10);
  return {
    ...base,
    chat_api: field("chat_api").value as ChatApi,
    chat_base_url: field("chat_base_url").value.trim(),
    key: field("key").value,
    model: field("model").value.trim(),
    reasoning_effort: field("reasoning_effort").value,
    context_window: Number.isFinite(tokens) && tokens > 0 ? tokens : base.context_window,
    chat_instructions: field("chat_instructions").value,
    card_enabled: checkbox("card_enabled").checked,
    user_name: field("user_name").value.trim(),
    language: field("language").value,
    ...screenTools.read(),
    voice: voice.read(base.voice),
    chat: chat.read(base.chat),
    ingress: reactions.read(base.ingress),
    reactions: reactions.readReactions(base.reactions),
    bed: bedFromForm({ at_launch: checkbox("bed_at_launch").checked, wake_timeout_min: field("bed_wake_timeout_min").value }, base.bed),
    start_at_login: checkbox("start_at_login").checked,
    exchange_limit: base.exchange_limit,
  };
}

const PLACE_TEXT: Record<KeyPlace, () => string> = {
  keychain: () => t("settings-key-keychain"),
  file: () => t("settings-key-file"),
};

async function loadKeyPlace(): Promise<void> {
  try {
    liveText(keyPlace, PLACE_TEXT[await shell.keyPlace()]);
  } catch (e) {
    liveText(keyPlace, failure(e));
  }
}

async function loadDesktopCheck(): Promise<void> {
  const box = document.getElementById("desktop-check");
  if (box) renderCheck(box, await fetchCheck());
}

async function loadCardName(): Promise<void> {
  try {
    const name = await shell.currentCardName();
    liveText(cardName, () => t("settings-card-name", { name: name || t("settings-unnamed") }));
  } catch (e) {
    liveText(cardName, failure(e));
  }
}

/** Counts loads: a late answer to an older one is dropped. */
let loads = 0;
async function load(): Promise<void> {
  const mine = ++loads;
  try {
    const settings = await shell.loadSettings();
    if (mine !== loads) return;
    fill(settings);
  } catch (e) {
    say(failure(e), true);
  }
  void loadKeyPlace();
  void loadCardName();
  void loadDesktopCheck();
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  if (!current) return;
  const next = formSettings(current);
  try {
    await shell.saveSettings(next);
    current = next;
    say(() => t("settings-saved"));
    void reactions.load();
    void loadKeyPlace();
    void loadCardName();
  } catch (e) {
    say(failure(e), true);
  }
});

/** ✓, ✗ or ? for a tri-state answer. */
function tick(v: boolean | null): string {
  return v === null ? "?" : v ? "✓" : "✗";
}

/** Show the probe's lines: each a text and its class. */
function showProbe(lines: [() => string, string][]): void {
  probeList.replaceChildren(
    ...lines.map(([text, kind]) => {
      const li = document.createElement("li");
      li.className = kind;
      liveText(li, text);
      return li;
    }),
  );
  probeList.hidden = false;
}

function showReport(r: ProbeReport): void {
  const lines: [() => string, string][] = [
    [() => t("settings-probe-reachable", { mark: tick(r.reachable) }), r.reachable ? "ok" : "bad"],
    [() => t("settings-probe-key", { mark: tick(r.auth_ok) }), r.auth_ok === null ? "unknown" : r.auth_ok ? "ok" : "bad"],
    [() => t("settings-probe-model", { mark: tick(r.model_ok) }), r.model_ok === null ? "unknown" : r.model_ok ? "ok" : "bad"],
    [() => r.detail, "detail"],
  ];
  if (r.problem) lines.push([PROBLEM_ADVICE[r.problem], "advice"]);
  showProbe(lines);
}

const testButton = document.getElementById("test-connection") as HTMLButtonElement;
testButton.addEventListener("click", async () => {
  if (!current) return;
  testButton.disabled = true;
  showProbe([[() => t("settings-probe-testing"), "detail"]]);
  try {
    showReport(await shell.testConnection(formSettings(current)));
  } catch (e) {
    showProbe([[failure(e), "bad"]]);
  } finally {
    testButton.disabled = false;
  }
});

document.getElementById("reveal")?.addEventListener("click", (ev) => {
  const key = field("key") as HTMLInputElement;
  key.type = key.type === "password" ? "text" : "password";
  const button = ev.currentTarget as HTMLButtonElement;
  if (key.type === "password") mark(button, "settings-key-show");
  else mark(button, "settings-key-hide");
});

/** Hand `file`'s bytes and name to an import command. */
async function upload<T>(importer: (bytes: Uint8Array, fileName: string) => Promise<T>, file: File): Promise<T> {
  return importer(new Uint8Array(await file.arrayBuffer()), file.name);
}

document.getElementById("vrm")?.addEventListener("change", async (ev) => {
  const file = (ev.target as HTMLInputElement).files?.[0];
  if (!file) return;
  try {
    const info = await upload(shell.importCharacter, file);
    const version = info.version === "v1" ? "1.0" : "0.x";
    say(() => t("settings-vrm-loaded", { name: info.name, version }));
    await load();
  } catch (e) {
    say(failure(e), true);
  }
});

document.getElementById("default-character")?.addEventListener("click", async () => {
  try {
    await shell.useDefaultCharacter();
    say(() => t("settings-back-to-default"));
    await load();
  } catch (e) {
    say(failure(e), true);
  }
});

document.getElementById("vrma")?.addEventListener("change", async (ev) => {
  const file = (ev.target as HTMLInputElement).files?.[0];
  if (!file) return;
  try {
    const id = await upload(shell.importMotion, file);
    say(() => t("settings-motion-added", { id }));
  } catch (e) {
    say(failure(e), true);
  }
});

document.getElementById("card")?.addEventListener("change", async (ev) => {
  const input = ev.target as HTMLInputElement;
  const file = input.files?.[0];
  if (!file) return;
  try {
    const name = await upload(shell.importCard, file);
    say(() => t("settings-card-loaded", { name: name || t("settings-unnamed") }));
    void loadCardName();
  } catch (e) {
    say(failure(e), true);
  } finally {
    input.value = "";
  }
});

const contextList = document.getElementById("contexts") as HTMLOListElement;

/** Fill the inspector with the blocks the pet sent, newest first. */
async function loadContexts(): Promise<void> {
  try {
    const sent = await shell.recentContexts();
    liveText(contextList, null);
    contextList.replaceChildren(
      ...sent.reverse().map((c) => {
        const li = document.createElement("li");
        const details = document.createElement("details");
        const summary = document.createElement("summary");
        const pre = document.createElement("pre");
        pre.textContent = c.block;
        details.append(summary, pre);
        li.append(details);
        const strip = pictureStrip(c.images ?? []);
        const pictures = strip?.childElementCount ?? 0;
        if (strip) li.append(strip);
        liveText(summary, () => {
          const time = formatDate(new Date(c.sent_at), { timeStyle: "medium" });
          const line = t("settings-context-summary", { time, transport: c.transport, turn: String(c.turn_id) });
          return pictures > 0 ? `${line} · ${t("settings-context-pictures", { count: pictures })}` : line;
        });
        return li;
      }),
    );
    if (sent.length === 0) liveText(contextList, () => t("settings-contexts-empty"));
  } catch (e) {
    liveText(contextList, failure(e));
  }
}

document.getElementById("refresh-contexts")?.addEventListener("click", () => void loadContexts());
document.getElementById("open-welcome")?.addEventListener("click", () => void shell.openWelcome().catch((e) => say(failure(e), true)));

// Help: main answers from the bundled guide, as an ordinary message.
for (const button of document.querySelectorAll<HTMLButtonElement>("#help button[data-guide]")) {
  button.addEventListener("click", async () => {
    const guide = button.dataset.guide === "capabilities" ? "capabilities" : "controls";
    try {
      await shell.sendCommand({ type: "ask_help", guide });
      say(() => t("settings-help-asked"));
    } catch (e) {
      say(failure(e), true);
    }
  });
}

const strip = new SessionStrip(document.getElementById("session-strip") as HTMLDivElement);
let slices = initialSession();

/** Mirror the character's session (Tauri shell only): the strip from the
 * shared slices, and the Session list reloaded when the delegations change. */
async function mirrorSession(): Promise<void> {
  if (!("__TAURI_INTERNALS__" in window)) return;
  let sawStatus = false;
  let sawDelegations = false;
  const apply = (event: UiEvent) => {
    if (event.type === "status") sawStatus = true;
    if (event.type === "delegations") sawDelegations = true;
    slices = reduceSession(slices, event);
    strip.render(slices);
    if (event.type === "delegations") session.reloadSoon();
    if (event.type === "tool_offer" && event.until_ms === null) screenTools.switchedOn(event.switch);
  };
  await subscribeEvents(apply);
  try {
    const status = await shell.currentStatus();
    // A status event that came while asking is newer than the answer.
    if (!sawStatus) apply({ type: "status", status });
  } catch (e) {
    if (!sawStatus) apply({ type: "status", status: { state: "closed" } });
    console.warn("yui: current_status failed", errorText(e));
  }
  try {
    // The running ones of the kept history are the backend's current list
    // (an item a later list left out is kept as done).
    const history = await shell.delegationHistory();
    if (!sawDelegations) apply({ type: "delegations", items: history.filter((d) => d.state === "running") });
  } catch (e) {
    console.warn("yui: delegation_history failed", errorText(e));
  }
}

void load();
void mirrorSession().catch((e) => console.warn("yui: the settings window does not mirror the session", e));
void loadContexts();
void screenTools.loadRelations();
void session.load();
void characters.load();
void reactions.load();
