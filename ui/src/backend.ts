// The page's one way to reach the core. The Tauri shell implements it today;
// a test server or another shell could implement it later.

import { invoke } from "@tauri-apps/api/core";
import { getCurrentWebviewWindow } from "@tauri-apps/api/webviewWindow";
import type { ErrorCode, Status, UiEvent, UserCommand } from "./bindings/index";

/** The event name the shell emits core events under, to this window only. */
export const EVENT_NAME = "yui://event";

/** What a rejected command carries: a code to switch on and a line for a person. */
export interface CommandError {
  /** What kind of problem. */
  code: ErrorCode;
  /** One line for a person. */
  message: string;
}

/** Everything the page needs from its backend. */
export interface Backend {
  /** Hand a user action to this window's session. Rejects with a `CommandError`. */
  send(command: UserCommand): Promise<void>;
  /** The connection state right now (the first status event may predate the page). */
  currentStatus(): Promise<Status>;
  /** Receive this window's core events until the returned function is called. */
  subscribe(onEvent: (event: UiEvent) => void): Promise<() => void>;
}

/** The backend of a page running inside the Tauri shell. */
export function tauriBackend(): Backend {
  const win = getCurrentWebviewWindow();
  return {
    send: async (command) => {
      try {
        await invoke<void>("send_command", { command });
      } catch (err) {
        throw asCommandError(err);
      }
    },
    currentStatus: () => invoke<Status>("current_status"),
    subscribe: (onEvent) => win.listen<UiEvent>(EVENT_NAME, (e) => onEvent(e.payload)),
  };
}

/** Any rejection as a `CommandError`, keeping the shell's code when it sent one. */
export function asCommandError(err: unknown): CommandError {
  if (typeof err === "object" && err !== null && "code" in err && "message" in err) {
    return err as CommandError;
  }
  return { code: "closed", message: String(err) };
}
