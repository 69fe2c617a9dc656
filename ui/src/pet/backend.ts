// The pet page's backend: what the page needs from the core and the shell,
// built on the one shell access (`../shell/`). Two implementations: the Tauri
// shell (tauriBackend) and a browser fake for development and screenshots
// (fakeBackend.ts), picked by `pickBackend`.

import type { InputRect, Status, UiEvent, UserCommand } from "../bindings/index";
import { subscribeEvents, type Unsubscribe } from "../shell/events";
import { asArrayBuffer, connect, shell, type Commands } from "../shell/shell";
import { Channel, onShellEvent, shellEvents, startDragging } from "../shell/window";

/** A cursor position in window CSS pixels from the window's top-left (the
 * shell polls it every 33 ms), or null when it left the window: what the
 * generated `cursorChannel` carries. */
export type CursorPayload = Parameters<Commands["cursorChannel"]>[0] extends Channel<infer T> ? T : never;

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
  /** The name of the character this window shows. */
  characterName(): Promise<string>;
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
  const done = () => undefined;
  return {
    kind: "tauri",
    send: (command) => shell.sendCommand(command).then(done),
    startDragging,
    currentStatus: shell.currentStatus,
    subscribe: subscribeEvents,
    characterName: shell.characterName,
    characterFile: async () => asArrayBuffer(await shell.characterFile()),
    userMotions: shell.userMotions,
    motionFile: async (id) => asArrayBuffer(await shell.motionFile(id)),
    setClickThrough: (ignore) => shell.setClickThrough(ignore).then(done),
    inputByShape: shell.inputByShape,
    setInputShape: (rects) => shell.setInputShape(rects).then(done),
    setKeyboard: (on) => shell.setPetKeyboard(on).then(done),
    onCursor: async (handler) => {
      const channel = new Channel<CursorPayload>();
      let live = true;
      channel.onmessage = (p) => live && handler(p ?? null);
      await shell.cursorChannel(channel);
      return () => {
        live = false;
      };
    },
    onInteractive: (handler) => onShellEvent(shellEvents.interactive, (payload) => handler(Number(payload?.seconds) || 0)),
    screenWatched: shell.screenWatched,
    lipChannel: (handler) => {
      const channel = new Channel<number>();
      channel.onmessage = (level) => handler(Number(level) || 0);
      return shell.lipChannel(channel).then(done);
    },
    micEnabled: shell.micEnabled,
    setMic: (on) => shell.setMic(on).then(done),
    openChat: () => shell.openChat().then(done),
    bodyNow: shell.bodyNow,
  };
}

/** The Tauri backend inside the shell, else the browser fake (loaded on demand). */
export function pickBackend(): Promise<Backend> {
  return connect(tauriBackend, async () => (await import("./fakeBackend")).fakeBackend());
}
