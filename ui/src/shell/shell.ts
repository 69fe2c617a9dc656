// The one way every page reaches the shell. The commands are the generated
// ones (`../bindings/commands.ts`, from the shell's declarations; never edited
// by hand), wrapped here once so that every rejection is a `CommandError`.
// Each page builds its own small backend on `shell` (the pet's
// `pet/backend.ts`, the chat window's `chat/backend.ts`) or calls it directly
// (the settings window), and picks its browser fake through `connect`.
// The shell's own events, channels and the window are in `./window.ts`; the
// core's event stream in `./events.ts`.

import { commands } from "../bindings/commands";
import type { ErrorCode } from "../bindings/index";

/** What a rejected command carries: a code to switch on and a line for a person. */
export interface CommandError {
  /** What kind of problem. */
  code: ErrorCode;
  /** One line for a person. */
  message: string;
}

/** Every command of the shell, as generated. */
export type Commands = typeof commands;

/** Any rejection as a `CommandError`, keeping the shell's code when it sent one. */
export function asCommandError(err: unknown): CommandError {
  if (typeof err === "object" && err !== null && "code" in err && "message" in err) {
    return err as CommandError;
  }
  return { code: "closed", message: String(err) };
}

/** `raw` with every command's rejection mapped through `asCommandError`. */
export function withCommandErrors(raw: Commands): Commands {
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, run] of Object.entries(raw) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    wrapped[name] = async (...args) => {
      try {
        return await run(...args);
      } catch (err) {
        throw asCommandError(err);
      }
    };
  }
  return wrapped as Commands;
}

/** The shell's commands; each rejects with a `CommandError`. */
export const shell: Commands = withCommandErrors(commands);

/** True when the page runs inside the Tauri shell. */
export function inTauri(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

/** The page's backend: the Tauri one inside the shell, else the page's browser fake (loaded on demand). */
export async function connect<B>(tauri: () => B, fake: () => Promise<B>): Promise<B> {
  return inTauri() ? tauri() : fake();
}

/** Bytes from a command's answer: a raw ArrayBuffer (tauri::ipc::Response), a typed array, or a JSON number array. */
export function asArrayBuffer(value: unknown): ArrayBuffer {
  if (value instanceof ArrayBuffer) return value;
  if (ArrayBuffer.isView(value)) {
    const v = value as ArrayBufferView;
    return new Uint8Array(v.buffer, v.byteOffset, v.byteLength).slice().buffer;
  }
  if (Array.isArray(value)) return Uint8Array.from(value as number[]).buffer;
  if (value === null || value === undefined) return new ArrayBuffer(0);
  throw new Error(`expected bytes, got ${typeof value}`);
}
