// The settings window's "Characters" section (docs/characters.md): every
// preset in registry order, which are on the desktop and which is main; add
// one (from the default card, as a copy of another, or from a Tavern card),
// open or close one,
// make one main, remove one after asking. The registry and its rules are the
// core's (`yui_core::presets`): this lists what it answers and sends one
// change at a time; a refused change shows the core's reason.

import type { PresetChange, Presets } from "../bindings";
import { shell } from "../shell/shell";
import { liveText, mark, t } from "../i18n/index";
import { errorText } from "./tools";

/** One row of the list, as the section shows it. */
export interface CharacterRow {
  /** Her name. */
  name: string;
  /** On the desktop. */
  open: boolean;
  /** Main: her pet window is the first, she has the microphone. */
  main: boolean;
  /** Whether the open checkbox can change (main stays open). */
  canClose: boolean;
  /** Whether "Remove" is offered: not the first character (her files are the data folder itself). */
  canRemove: boolean;
}

/** Whether `a` and `b` name the same character (without case, as the core compares them). */
export function sameName(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The registry as rows, in registry order. */
export function rowsOf(presets: Presets): CharacterRow[] {
  const same = sameName;
  return presets.presets.map((p) => {
    const main = same(p.name, presets.main);
    return { name: p.name, open: p.open, main, canClose: !main, canRemove: !same(p.name, presets.root) };
  });
}

/** The question asked before a removal. */
export function removeQuestion(name: string): string {
  return t("section-characters-remove-question", { name });
}

/** The "add" form's change: `copyOf` "" is the default card. Null when the name is empty. */
export function addChange(name: string, copyOf: string): PresetChange | null {
  const trimmed = name.trim();
  if (trimmed === "") return null;
  return { action: "add", name: trimmed, copy_of: copyOf === "" ? null : copyOf };
}

/** The name of the preset a change added: the one in `after` that `before` did not have. */
export function addedName(before: Presets | null, after: Presets): string | null {
  const had = new Set((before?.presets ?? []).map((p) => p.name.toLowerCase()));
  return after.presets.find((p) => !had.has(p.name.toLowerCase()))?.name ?? null;
}

/** What the section tells the page. */
export interface CharactersHooks {
  /** The registry as it is now (after loading or a change). */
  listed(presets: Presets): void;
  /** A preset was added from a card: the page edits her settings next. */
  added(name: string): void;
  /** Ask the user a yes/no question. */
  ask(question: string): boolean;
}

/** The section: its list, the add form and its problem line. */
export class CharactersSection {
  private readonly list = document.getElementById("characters-list") as HTMLUListElement;
  private readonly name = document.getElementById("character-new-name") as HTMLInputElement;
  private readonly copy = document.getElementById("character-new-copy") as HTMLSelectElement;
  private readonly problem = document.getElementById("characters-problem") as HTMLParagraphElement;
  private shown: Presets | null = null;

  constructor(private readonly hooks: CharactersHooks) {
    const card = document.getElementById("character-card") as HTMLInputElement;
    card.addEventListener("change", () => {
      const file = card.files?.[0];
      if (file) void this.addFromCard(file).finally(() => (card.value = ""));
    });
    (document.getElementById("character-add") as HTMLButtonElement).addEventListener("click", () => {
      const change = addChange(this.name.value, this.copy.value);
      if (change === null) return this.say(() => t("section-characters-name-first"));
      void this.send(change).then((ok) => {
        if (ok) this.name.value = "";
      });
    });
  }

  /** Load the registry and show it. */
  async load(): Promise<void> {
    try {
      this.show(await shell.listCharacters());
    } catch (e) {
      this.say(() => errorText(e));
    }
  }

  /** Send one change; the list shows the registry after it. Whether it was made. */
  private async send(change: PresetChange): Promise<boolean> {
    try {
      this.show(await shell.changeCharacters(change));
      this.say(null);
      return true;
    } catch (e) {
      this.say(() => errorText(e));
      return false;
    }
  }

  /** Make a preset of a Tavern card file; the page edits her next. */
  private async addFromCard(file: File): Promise<void> {
    try {
      const before = this.shown;
      const after = await shell.addCharacterFromCard(new Uint8Array(await file.arrayBuffer()), file.name);
      this.show(after);
      this.say(null);
      const name = addedName(before, after);
      if (name) this.hooks.added(name);
    } catch (e) {
      this.say(() => errorText(e));
    }
  }

  /** Show the problem line (in the current language, and again after a switch); null hides it. */
  private say(text: (() => string) | null): void {
    liveText(this.problem, text);
    this.problem.hidden = text === null;
  }

  private show(presets: Presets): void {
    this.shown = presets;
    this.hooks.listed(presets);
    const rows = rowsOf(presets);
    this.list.replaceChildren(...rows.map((row) => this.rowElement(row)));
    const fresh = new Option("", "");
    mark(fresh, "section-characters-default-card");
    const copies = rows.map((r) => {
      const option = new Option("", r.name);
      mark(option, "section-characters-copy-of", { name: r.name });
      return option;
    });
    this.copy.replaceChildren(fresh, ...copies);
  }

  private rowElement(row: CharacterRow): HTMLLIElement {
    const li = document.createElement("li");
    li.dataset.name = row.name;
    const open = document.createElement("label");
    open.className = "check";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = row.open;
    box.disabled = !row.canClose;
    mark(box, "section-characters-on-desktop", { name: row.name });
    box.addEventListener("change", () => void this.send({ action: box.checked ? "open" : "close", name: row.name }));
    // Her name is hers, in every language.
    const name = Object.assign(document.createElement("span"), { textContent: ` ${row.name}` });
    name.dataset.words = "theirs";
    open.append(box, name);
    li.append(open);
    if (row.main) {
      const badge = document.createElement("span");
      badge.className = "badge";
      mark(badge, "section-characters-main");
      li.append(badge);
    } else {
      const main = document.createElement("button");
      main.type = "button";
      main.className = "small";
      mark(main, "section-characters-make-main");
      main.addEventListener("click", () => void this.send({ action: "set_main", name: row.name }));
      li.append(main);
    }
    if (row.canRemove) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "small";
      mark(remove, "section-characters-remove");
      remove.addEventListener("click", () => {
        if (this.hooks.ask(removeQuestion(row.name))) void this.send({ action: "remove", name: row.name });
      });
      li.append(remove);
    }
    return li;
  }
}
