// The in-app confirm dialog ("Delete this message?"): never `window.confirm`.
// Esc or Cancel answers no; Delete answers yes.

import { byId } from "./dom";

/** The confirm dialog, bound to chat.html's `#confirm-dialog`. */
export class ConfirmDialog {
  private readonly root = byId<HTMLElement>("confirm-dialog");
  private readonly text = byId<HTMLElement>("confirm-text");
  private readonly yes: HTMLButtonElement;
  private answer: ((yes: boolean) => void) | null = null;

  constructor() {
    this.yes = this.root.querySelector<HTMLButtonElement>('[data-confirm="yes"]')!;
    this.yes.addEventListener("click", () => this.close(true));
    this.root.querySelector('[data-confirm="no"]')!.addEventListener("click", () => this.close(false));
    this.root.addEventListener("mousedown", (e) => {
      if (e.target === this.root) this.close(false);
    });
  }

  /** True while the dialog is up. */
  get open(): boolean {
    return !this.root.hidden;
  }

  /** Ask `question`; resolves true on the confirm button. */
  ask(question: string, confirmLabel = "Delete"): Promise<boolean> {
    this.close(false);
    this.text.textContent = question;
    this.yes.textContent = confirmLabel;
    this.root.hidden = false;
    this.yes.focus();
    return new Promise((resolve) => (this.answer = resolve));
  }

  /** Take the dialog down with `yes` (Esc: no). */
  close(yes: boolean): void {
    if (this.root.hidden) return;
    this.root.hidden = true;
    const answer = this.answer;
    this.answer = null;
    answer?.(yes);
  }
}
