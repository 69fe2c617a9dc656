// The settings window: reads and saves settings through the shell, and
// uploads a character or a clip. The core decides what a change means.
import { invoke } from "@tauri-apps/api/core";
import type { CharacterInfo, ChatApi, SentContext, Settings } from "../bindings";

const form = document.getElementById("settings") as HTMLFormElement;
const message = document.getElementById("message") as HTMLSpanElement;
const characterName = document.getElementById("character-name") as HTMLParagraphElement;

/** Show one line of feedback; errors in red. */
function say(text: string, isError = false): void {
  message.textContent = text;
  message.classList.toggle("error", isError);
}

/** The `{ code, message }` a failed command returns, as one line. */
function errorText(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) return String((e as { message: unknown }).message);
  return String(e);
}

function field(name: string): HTMLInputElement | HTMLSelectElement {
  return form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
}

let current: Settings | null = null;

function fill(s: Settings): void {
  current = s;
  field("chat_api").value = s.chat_api;
  field("chat_base_url").value = s.chat_base_url;
  field("key").value = s.key;
  field("model").value = s.model;
  const file = s.character.split(/[\\/]/).pop();
  characterName.textContent = s.character ? `Your character: ${file}` : "Yui (built in)";
}

async function load(): Promise<void> {
  try {
    fill(await invoke<Settings>("load_settings"));
  } catch (e) {
    say(errorText(e), true);
  }
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  if (!current) return;
  const next: Settings = {
    ...current,
    chat_api: field("chat_api").value as ChatApi,
    chat_base_url: field("chat_base_url").value.trim(),
    key: field("key").value,
    model: field("model").value.trim(),
  };
  try {
    await invoke("save_settings", { settings: next });
    current = next;
    say("Saved.");
  } catch (e) {
    say(errorText(e), true);
  }
});

document.getElementById("reveal")?.addEventListener("click", (ev) => {
  const key = field("key") as HTMLInputElement;
  key.type = key.type === "password" ? "text" : "password";
  (ev.target as HTMLButtonElement).textContent = key.type === "password" ? "Show" : "Hide";
});

async function upload<T>(command: string, file: File): Promise<T> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return invoke<T>(command, bytes, { headers: { "x-file-name": file.name } });
}

document.getElementById("vrm")?.addEventListener("change", async (ev) => {
  const file = (ev.target as HTMLInputElement).files?.[0];
  if (!file) return;
  try {
    const info = await upload<CharacterInfo>("import_character", file);
    say(`Loaded ${info.name} (VRM ${info.version === "v1" ? "1.0" : "0.x"}).`);
    await load();
  } catch (e) {
    say(errorText(e), true);
  }
});

document.getElementById("default-character")?.addEventListener("click", async () => {
  try {
    await invoke("use_default_character");
    say("Back to Yui.");
    await load();
  } catch (e) {
    say(errorText(e), true);
  }
});

document.getElementById("vrma")?.addEventListener("change", async (ev) => {
  const file = (ev.target as HTMLInputElement).files?.[0];
  if (!file) return;
  try {
    const id = await upload<string>("import_motion", file);
    say(`Added the motion "${id}".`);
  } catch (e) {
    say(errorText(e), true);
  }
});

const contextList = document.getElementById("contexts") as HTMLOListElement;

/** Fill the inspector with the blocks the pet sent, newest first. */
async function loadContexts(): Promise<void> {
  try {
    const sent = await invoke<SentContext[]>("recent_contexts");
    contextList.replaceChildren(
      ...sent.reverse().map((c) => {
        const li = document.createElement("li");
        const details = document.createElement("details");
        const summary = document.createElement("summary");
        summary.textContent = `${new Date(c.sent_at).toLocaleTimeString()} · ${c.transport} · turn ${c.turn_id}`;
        const pre = document.createElement("pre");
        pre.textContent = c.block;
        details.append(summary, pre);
        li.append(details);
        return li;
      }),
    );
    if (sent.length === 0) contextList.textContent = "Nothing sent yet.";
  } catch (e) {
    contextList.textContent = errorText(e);
  }
}

document.getElementById("refresh-contexts")?.addEventListener("click", () => void loadContexts());

void load();
void loadContexts();
