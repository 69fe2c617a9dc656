// The composer: a textarea (Enter sends, Shift+Enter a new line), Send that
// becomes Stop while a turn runs, and attachments from the + button, paste
// and drag and drop, checked against the limits before they are added.

import type { Attachment, ChatSettings } from "../bindings/index";
import { mark, onLanguage, t } from "../i18n/index";
import { admit, chipLabel, readAttachment } from "./attachments";
import { byId, h } from "./dom";
import { completeMention, mentionCandidates } from "./mention";

/** What the composer asks of the page. */
export interface ComposerHooks {
  /** Send `text` with `attachments` (empty: a plain text message). Resolves once handed over. */
  send(text: string, attachments: Attachment[]): Promise<boolean>;
  /** The user pressed Stop. */
  stop(): void;
  /** The limits right now. */
  limits(): Pick<ChatSettings, "max_attachments" | "max_attachment_bytes">;
  /** The open characters' names, main first (`@` offers them when there are several). */
  names(): readonly string[];
}

/** The composer, bound to the elements of chat.html. */
export class Composer {
  private readonly input = byId<HTMLTextAreaElement>("chat-input");
  private readonly sendButton = byId<HTMLButtonElement>("chat-send");
  private readonly fileInput = byId<HTMLInputElement>("attach-input");
  private readonly chips = byId<HTMLElement>("attachments");
  private readonly message = byId<HTMLElement>("composer-message");
  private readonly mentions = byId<HTMLElement>("mentions");
  private files: File[] = [];
  /** The line under the box (a refused file), in the current language. */
  private saying: () => string = () => "";
  private running = false;
  private enabled = true;

  constructor(
    private readonly hooks: ComposerHooks,
    dropZone: HTMLElement,
  ) {
    this.input.addEventListener("keydown", (e) => {
      const offered = mentionCandidates(this.input.value, hooks.names());
      if (e.key === "Tab" && offered.length > 0) {
        e.preventDefault();
        this.takeMention(offered[0]);
        return;
      }
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        void this.submit();
      }
    });
    this.input.addEventListener("input", () => {
      this.fit();
      this.offerMentions();
    });
    this.sendButton.addEventListener("click", () => {
      // While a turn runs the button is Stop; Enter still sends (the core queues it).
      if (this.running) hooks.stop();
      else void this.submit();
    });
    byId<HTMLButtonElement>("attach-button").addEventListener("click", () => this.fileInput.click());
    this.fileInput.addEventListener("change", () => {
      this.add(Array.from(this.fileInput.files ?? []));
      this.fileInput.value = "";
    });
    this.input.addEventListener("paste", (e) => {
      const files = Array.from(e.clipboardData?.files ?? []);
      if (files.length > 0) {
        e.preventDefault();
        this.add(files);
      }
    });
    dropZone.addEventListener("dragover", (e) => {
      if (!e.dataTransfer?.types.includes("Files")) return;
      e.preventDefault();
      dropZone.classList.add("dragging");
    });
    dropZone.addEventListener("dragleave", (e) => {
      // Moving onto a child is no leaving; out of the zone (or the window) is.
      const to = e.relatedTarget as Node | null;
      if (!to || !dropZone.contains(to)) dropZone.classList.remove("dragging");
    });
    onLanguage(() => this.say(this.saying));
    dropZone.addEventListener("drop", (e) => {
      dropZone.classList.remove("dragging");
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length === 0) return;
      e.preventDefault();
      this.add(files);
    });
  }

  /** Offer the names `@` could take now (nothing when none fits). */
  private offerMentions(): void {
    const offered = mentionCandidates(this.input.value, this.hooks.names());
    this.mentions.hidden = offered.length === 0;
    this.mentions.replaceChildren(
      ...offered.map((name) => {
        const b = h("button", { type: "button", class: "mention", "data-words": "theirs" }, `@${name}`);
        b.addEventListener("mousedown", (e) => e.preventDefault());
        b.addEventListener("click", () => this.takeMention(name));
        return b;
      }),
    );
  }

  /** Put `@name ` in the composer and go on typing after it. */
  private takeMention(name: string): void {
    this.input.value = completeMention(name);
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    this.offerMentions();
    this.input.focus();
  }

  /** Whether a turn runs (Send shows Stop) and whether the composer takes messages at all. */
  update(running: boolean, enabled: boolean): void {
    this.running = running;
    this.enabled = enabled;
    this.input.disabled = !enabled;
    this.input.placeholder = enabled ? (running ? t("chat-placeholder-queue") : placeholderFor(this.hooks.names())) : t("chat-placeholder-read-only");
    this.refreshButton();
  }

  /** Put the cursor in the box. */
  focus(): void {
    this.input.focus();
  }

  private refreshButton(): void {
    const stop = this.running;
    if (stop) mark(this.sendButton, "chat-stop");
    else mark(this.sendButton, "chat-send");
    this.sendButton.classList.toggle("stop", stop);
    this.sendButton.disabled = !this.enabled;
  }

  /** Grow the box with its text, up to a limit. */
  private fit(): void {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight, 200)}px`;
    this.refreshButton();
  }

  /** Add files that fit the limits; one line about the first that does not. */
  private add(files: File[]): void {
    const count = this.files.length;
    const limits = this.hooks.limits();
    const { added } = admit(files, count, limits);
    this.files.push(...added);
    this.say(() => admit(files, count, limits).message ?? "");
    this.renderChips();
  }

  private renderChips(): void {
    this.chips.replaceChildren(
      ...this.files.map((f, i) => {
        const remove = h("button", { type: "button", class: "chip-remove" }, "×");
        mark(remove, "chat-attachment-remove", { name: f.name });
        remove.addEventListener("click", () => {
          this.files.splice(i, 1);
          this.renderChips();
        });
        const chip = h("span", { class: "attachment-chip", title: f.type || null }, h("span", { class: "chip-label", "data-words": "theirs" }, chipLabel(f)), remove);
        if (!f.type) mark(chip, "chat-attachment-unknown-kind");
        return chip;
      }),
    );
    this.chips.hidden = this.files.length === 0;
    this.refreshButton();
  }

  /** Show the line `words` gives (empty: none), again after each switch of language. */
  private say(words: () => string): void {
    this.saying = words;
    const text = words();
    this.message.textContent = text;
    this.message.hidden = text === "";
  }

  /** Send what is typed and attached. */
  private async submit(): Promise<void> {
    const text = this.input.value.trim();
    if (!this.enabled || (text === "" && this.files.length === 0)) return;
    let attachments: Attachment[];
    try {
      attachments = await Promise.all(this.files.map(readAttachment));
    } catch (err) {
      this.say(() => t("chat-read-failed", { detail: String(err) }));
      return;
    }
    const sentText = this.input.value;
    const sentFiles = this.files;
    this.input.value = "";
    this.files = [];
    this.renderChips();
    this.fit();
    if (!(await this.hooks.send(text, attachments))) {
      // Keep what the user wrote when it could not be handed over.
      this.input.value = sentText;
      this.files = sentFiles;
      this.renderChips();
      this.fit();
    } else {
      this.say(() => "");
    }
  }
}

/** The empty composer's hint: main's name, and `@` when there are others to pick. */
export function placeholderFor(names: readonly string[]): string {
  if (names.length === 0) return t("chat-placeholder");
  return names.length > 1 ? t("chat-placeholder-to-or-pick", { name: names[0] }) : t("chat-placeholder-to", { name: names[0] });
}
