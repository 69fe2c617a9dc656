// The settings window's "Chat" section: how the chat window shows reasoning,
// whether it asks before deleting, and the attachment limits. Saved with the
// form. The file size is edited in MB (one decimal) and stored in bytes.

import type { ChatSettings, Settings } from "../bindings";

/** Files per message: the range the form accepts. */
export const FILES_RANGE = { min: 1, max: 20 } as const;
/** Largest file in MB: the range the form accepts. */
export const MB_RANGE = { min: 0.1, max: 50 } as const;

const BYTES_PER_MB = 1_000_000;

/** `n` pulled into [min, max]. */
export function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, n));
}

/** `bytes` as MB with one decimal, e.g. 2097152 → "2.1". */
export function mbText(bytes: number): string {
  return (bytes / BYTES_PER_MB).toFixed(1);
}

/** `mb` megabytes in whole bytes (MB × 1,000,000, rounded). */
export function mbToBytes(mb: number): number {
  return Math.round(mb * BYTES_PER_MB);
}

/** The files-per-message count in `text`; empty, fractional or out of range keeps `loaded` (clamped). */
export function readFiles(text: string, loaded: number): number {
  const n = Number(text.trim());
  const ok = text.trim() !== "" && Number.isInteger(n) && n >= FILES_RANGE.min && n <= FILES_RANGE.max;
  return ok ? n : clamp(loaded, FILES_RANGE.min, FILES_RANGE.max);
}

/**
 * The largest-file size in bytes from the MB in `text`. Empty or out of
 * range keeps `loaded` (clamped); text still showing `loaded` as the form
 * filled it keeps its exact bytes, so an untouched field never drifts.
 */
export function readMaxBytes(text: string, loaded: number): number {
  const kept = clamp(loaded, mbToBytes(MB_RANGE.min), mbToBytes(MB_RANGE.max));
  const t = text.trim();
  if (t === mbText(loaded)) return kept;
  const mb = Number(t);
  const ok = t !== "" && Number.isFinite(mb) && mb >= MB_RANGE.min && mb <= MB_RANGE.max;
  return ok ? mbToBytes(mb) : kept;
}

/** The values the form reads, as text and checkboxes. */
export interface ChatForm {
  show_reasoning: boolean;
  collapse_reasoning: boolean;
  confirm_delete: boolean;
  max_attachments: string;
  max_attachment_mb: string;
}

/** `base` with the form's values on top; fields the section does not show stay as loaded. */
export function chatFromForm(f: ChatForm, base: ChatSettings): ChatSettings {
  return {
    ...base,
    show_reasoning: f.show_reasoning,
    collapse_reasoning: f.collapse_reasoning,
    confirm_delete: f.confirm_delete,
    max_attachments: readFiles(f.max_attachments, base.max_attachments),
    max_attachment_bytes: readMaxBytes(f.max_attachment_mb, base.max_attachment_bytes),
  };
}

/** Controls of the section. */
export class ChatSection {
  /** Wire the section inside `form`. */
  constructor(private readonly form: HTMLFormElement) {}

  private input(name: string): HTMLInputElement {
    return this.form.elements.namedItem(name) as HTMLInputElement;
  }

  /** Show `s.chat`. */
  fill(s: Settings): void {
    const c = s.chat;
    this.input("show_reasoning").checked = c.show_reasoning;
    this.input("collapse_reasoning").checked = c.collapse_reasoning;
    this.input("confirm_delete").checked = c.confirm_delete;
    this.input("max_attachments").value = String(c.max_attachments);
    this.input("max_attachment_mb").value = mbText(c.max_attachment_bytes);
  }

  /** The section's part of the settings, as the form shows it now. */
  read(base: ChatSettings): ChatSettings {
    return chatFromForm(
      {
        show_reasoning: this.input("show_reasoning").checked,
        collapse_reasoning: this.input("collapse_reasoning").checked,
        confirm_delete: this.input("confirm_delete").checked,
        max_attachments: this.input("max_attachments").value,
        max_attachment_mb: this.input("max_attachment_mb").value,
      },
      base,
    );
  }
}
