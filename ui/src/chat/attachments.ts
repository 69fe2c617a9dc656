// Files the user adds to a message (the + button, paste, drag and drop):
// the page checks the limits before anything is read or sent, then reads
// each file as base64 into an `Attachment`.

import type { Attachment, ChatSettings } from "../bindings/index";
import { t } from "../i18n/index";
import { fileSize } from "./format";

/** What the limit check needs of a file. */
export interface FileLike {
  /** Its name. */
  name: string;
  /** Its size in bytes. */
  size: number;
}

/** Why `file` cannot join `count` files already added, or null when it can. */
export function refusal(file: FileLike, count: number, limits: Pick<ChatSettings, "max_attachments" | "max_attachment_bytes">): string | null {
  if (count >= limits.max_attachments) {
    return t("chat-attachment-too-many", { name: file.name, max: limits.max_attachments });
  }
  if (file.size > limits.max_attachment_bytes) {
    return t("chat-attachment-too-big", { name: file.name, size: fileSize(file.size), limit: fileSize(limits.max_attachment_bytes) });
  }
  return null;
}

/** Split `files` into those that fit after `count` others and one line about the first refused. */
export function admit<F extends FileLike>(files: F[], count: number, limits: Pick<ChatSettings, "max_attachments" | "max_attachment_bytes">): { added: F[]; message: string | null } {
  const added: F[] = [];
  let message: string | null = null;
  for (const f of files) {
    const why = refusal(f, count + added.length, limits);
    if (why === null) added.push(f);
    else message ??= why;
  }
  return { added, message };
}

/** Bytes as base64. */
export function base64(bytes: Uint8Array): string {
  let bin = "";
  const step = 0x8000;
  for (let i = 0; i < bytes.length; i += step) {
    bin += String.fromCharCode(...bytes.subarray(i, i + step));
  }
  return btoa(bin);
}

/** A chip's label: "notes.txt · 3.2 kB". */
export function chipLabel(file: FileLike): string {
  return `${file.name} · ${fileSize(file.size)}`;
}

/** Read a browser `File` into an `Attachment`. */
export async function readAttachment(file: File): Promise<Attachment> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return { name: file.name, mime: file.type, data_base64: base64(bytes) };
}
