// The in-app confirm dialog ("Delete this message?"): never `window.confirm`.
// Esc or Cancel answers no; the confirm button (Delete) answers yes. The
// question is asked again of the caller when the language switches while
// the dialog is up.

import { onLanguage } from "../i18n/index";
import { byId } from "./dom";

/** What the dialog asks and what its confirm button says, in the current language. */
export interface Question {
  /** The question. */
  question: string;
  /** The confirm button's label. */
  confirm: string;
}

/** The confirm dialog, bound to chat.html's `#confirm-dialog`. */
export class ConfirmDialog {
  private readonly root = byId<HTMLElement>("confirm-dialog");
  private readonly text = byId<HTMLElement>("confirm-text");
  private readonly yes: HTMLButtonElement;
  private answer: ((yes: boolean) => void) | null = null;
  /** The words of the question up now. */
  private words: (() => Question) | null = null;

  constructor() {
    this.yes = this.root.querySelector<HTMLButtonElement>('[data-confirm="yes"]')!;
    this.yes.addEventListener("click", () => this.close(true));
    this.root.querySelector('[data-confirm="no"]')!.addEventListener("click", () => this.close(false));
    this.root.addEventListener("mousedown", (e) => {
      if (e.target === this.root) this.close(false);
    });
    onLanguage(() => {
      if (this.open) this.write();
    });
  }

  /** True while the dialog is up. */
  get open(): boolean {
    return !this.root.hidden;
  }

  /** Ask the question `words` gives; resolves true on the confirm button. */
  ask(words: () => Question): Promise<boolean> {
    this.close(false);
    this.words = words;
    this.write();
    this.root.hidden = false;
    this.yes.focus();
    return new Promise((resolve) => (this.answer = resolve));
  }

  private write(): void {
    if (!this.words) return;
    const { question, confirm } = this.words();
    this.text.textContent = question;
    this.yes.textContent = confirm;
  }

  /** Take the dialog down with `yes` (Esc: no). */
  close(yes: boolean): void {
    if (this.root.hidden) return;
    this.root.hidden = true;
    this.words = null;
    const answer = this.answer;
    this.answer = null;
    answer?.(yes);
  }
}
