// The shell's side of a page that is not a command: the events the shell
// emits itself (`shellEvents`), the channels commands register, and the
// window the page lives in.

import { getCurrentWebviewWindow } from "@tauri-apps/api/webviewWindow";
import { Channel, shellEvents, type ShellEventPayloads } from "../bindings/commands";
import type { Unsubscribe } from "./events";

export { Channel, shellEvents, type ShellEventPayloads };

/** Receive the shell event `name` on this window until the returned function is called. */
export function onShellEvent<K extends keyof ShellEventPayloads>(name: K, handler: (payload: ShellEventPayloads[K]) => void): Promise<Unsubscribe> {
  return getCurrentWebviewWindow().listen<ShellEventPayloads[K]>(name, (e) => handler(e.payload));
}

/** Hand the held press to the system's window move. */
export function startDragging(): Promise<void> {
  return getCurrentWebviewWindow().startDragging();
}
