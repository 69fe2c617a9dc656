// The page's one way to reach the core and the shell. Two implementations:
// the Tauri shell (tauriBackend) and a browser fake for development and
// screenshots (fakeBackend.ts), picked by `pickBackend`.

import { Channel, commands, shellEvents, type ShellEventPayloads } from "../bindings/commands";
import { getCurrentWebviewWindow } from "@tauri-apps/api/webviewWindow";
import type { ErrorCode, InputRect, Status, UiEvent, UserCommand } from "../bindings/index";
import { subscribeEvents, type Unsubscribe } from "../shell/events";

/** A cursor position in window CSS pixels from the window's top-left (the
 * shell polls it every 33 ms), or null when it left the window: what the
 * generated `cursorChannel` carries. */
export type CursorPayload = Parameters<typeof commands.cursorChannel>[0] extends Channel<infer T> ? T : never;

/** What a rejected command carries: a code to switch on and a line for a person. */
export interface CommandError {
  /** What kind of problem. */
  code: ErrorCode;
  /** One line for a person. */
  message: string;
}

/** Stops a subscription. */
export type { Unsubscribe };

/** Everything the page needs from its backend. */
export interface Backend {
  /** "tauri" inside the shell, "fake" in a plain browser. */
  readonly kind: "tauri" | "fake";
  /** Hand a user action to this window's session. Rejects with a `CommandError`. */
  send(command: UserCommand): Promise<void>;
  /** The connection state right now (the first status event may predate the page). */
  currentStatus(): Promise<Status>;
  /** Receive this window's core events until the returned function is called. */
  subscribe(onEvent: (event: UiEvent) => void): Promise<Unsubscribe>;
  /** The user's .vrm bytes; an empty buffer means the bundled character. */
  characterFile(): Promise<ArrayBuffer>;
  /** The ids of the user's .vrma motion clips. */
  userMotions(): Promise<string[]>;
  /** The bytes of the user's .vrma clip `id`. */
  motionFile(id: string): Promise<ArrayBuffer>;
  /** Make the OS window ignore (true) or take (false) mouse input. */
  setClickThrough(ignore: boolean): Promise<void>;
  /** Whether click-through goes by the drawn shape here (native Wayland: no pointer to poll). */
  inputByShape(): Promise<boolean>;
  /** The window's input region: these rectangles (CSS px), or the whole window (null). */
  setInputShape(rects: InputRect[] | null): Promise<void>;
  /** The user pressed into the composer (true) or is done with it: the shell lends the window the keyboard meanwhile. */
  setKeyboard(on: boolean): Promise<void>;
  /** Hand the held press to the system's window move (where the core cannot place the window). */
  startDragging(): Promise<void>;
  /** Receive the shell's cursor positions. */
  onCursor(handler: (cursor: CursorPayload) => void): Promise<Unsubscribe>;
  /** Receive "stay interactive for n seconds" requests. */
  onInteractive(handler: (seconds: number) => void): Promise<Unsubscribe>;
  /** Whether each turn attaches the screen now (the first `screen_watch` event may predate the page). */
  screenWatched(): Promise<boolean>;
  /** Receive the mouth level (0..1, ~30 a second) while real sound plays; call once. */
  lipChannel(handler: (level: number) => void): Promise<void>;
  /** Whether the mic toggle is on (saved). */
  micEnabled(): Promise<boolean>;
  /** Turn the microphone on or off (saved); `voice_input` events follow. */
  setMic(on: boolean): Promise<void>;
  /** Open the chat window (or bring it to the front). */
  openChat(): Promise<void>;
  /** The window's body now, as a `body` event (the first one may predate the page); null when there is none to tell. */
  bodyNow(): Promise<UiEvent | null>;
}

/** The URL of the bundled default character. */
export const BUNDLED_CHARACTER = `${import.meta.env.BASE_URL}characters/yui.vrm`;

/** The backend of a page running inside the Tauri shell. */
export function tauriBackend(): Backend {
  const win = getCurrentWebviewWindow();
  /** A command's answer; a rejection as a `CommandError`. */
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw asCommandError(err);
    }
  };
  const done = () => undefined;
  return {
    kind: "tauri",
    send: (command) => call(() => commands.sendCommand(command)).then(done),
    startDragging: () => win.startDragging(),
    currentStatus: () => call(commands.currentStatus),
    subscribe: subscribeEvents,
    characterFile: async () => asArrayBuffer(await call(commands.characterFile)),
    userMotions: () => call(commands.userMotions),
    motionFile: async (id) => asArrayBuffer(await call(() => commands.motionFile(id))),
    setClickThrough: (ignore) => call(() => commands.setClickThrough(ignore)).then(done),
    inputByShape: () => call(commands.inputByShape),
    setInputShape: (rects) => call(() => commands.setInputShape(rects)).then(done),
    setKeyboard: (on) => call(() => commands.setPetKeyboard(on)).then(done),
    onCursor: async (handler) => {
      const channel = new Channel<CursorPayload>();
      let live = true;
      channel.onmessage = (p) => live && handler(p ?? null);
      await call(() => commands.cursorChannel(channel));
      return () => {
        live = false;
      };
    },
    onInteractive: (handler) =>
      win.listen<ShellEventPayloads[typeof shellEvents.interactive]>(shellEvents.interactive, (e) => handler(Number(e.payload?.seconds) || 0)),
    screenWatched: () => call(commands.screenWatched),
    lipChannel: (handler) => {
      const channel = new Channel<number>();
      channel.onmessage = (level) => handler(Number(level) || 0);
      return call(() => commands.lipChannel(channel)).then(done);
    },
    micEnabled: () => call(commands.micEnabled),
    setMic: (on) => call(() => commands.setMic(on)).then(done),
    openChat: () => call(commands.openChat).then(done),
    bodyNow: () => call(commands.bodyNow),
  };
}

/** True when the page runs inside the Tauri shell. */
export function inTauri(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

/** The Tauri backend inside the shell, else the browser fake (loaded on demand). */
export async function pickBackend(): Promise<Backend> {
  if (inTauri()) return tauriBackend();
  const { fakeBackend } = await import("./fakeBackend");
  return fakeBackend();
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

/** Any rejection as a `CommandError`, keeping the shell's code when it sent one. */
export function asCommandError(err: unknown): CommandError {
  if (typeof err === "object" && err !== null && "code" in err && "message" in err) {
    return err as CommandError;
  }
  return { code: "closed", message: String(err) };
}
