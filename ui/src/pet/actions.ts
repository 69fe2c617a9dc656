// What the page's controls send: the composer's text, Stop, the offer and
// approval notices' buttons, the mic toggle, the chat button and the
// composer's hold on the keyboard. Each failure shows on the error line (or
// the console, for the ones the user did not press).

import type { UserCommand } from "../bindings/index";
import { problemText } from "../i18n/problems";
import { asCommandError } from "../shell/shell";
import type { Backend } from "./backend";
import { answered, dismissOffer, stopPressed } from "./state";
import type { PetStore } from "./store";
import type { View, ViewActions } from "./view";

/** Sending to the session, with the error line as the answer. */
export interface Sender {
  /** Send the composer's text; clears the composer and the error line, or shows why it failed. */
  sendText(text: string): Promise<void>;
  /** Send `command`; a failure shows on the error line. */
  sendQuiet(command: UserCommand): Promise<void>;
}

/** The sender and the view's actions, over `backend`; `view` is read when an action runs. */
export function petActions(backend: Backend, store: PetStore, view: () => View): { sender: Sender; actions: ViewActions } {
  const sendText = async (text: string) => {
    try {
      await backend.send({ type: "send_text", text });
      view().clearComposer();
      view().showLocalError(null);
    } catch (err) {
      view().showLocalError(problemLine(err));
    }
  };
  const sendQuiet = (command: UserCommand) => backend.send(command).catch((err) => view().showLocalError(problemLine(err)));
  const actions: ViewActions = {
    submit: (text) => void sendText(text),
    stop: () => {
      store.set(stopPressed(store.state));
      void sendQuiet({ type: "stop" });
    },
    acceptOffer: async (sw) => {
      try {
        // The core turns the switch on and saves it; the next call reads it.
        await backend.send({ type: "switch_on", switch: sw });
        view().showLocalError(null);
        store.set(dismissOffer(store.state, sw));
      } catch (err) {
        view().showLocalError(problemLine(err));
      }
    },
    dismissOffer: (sw) => store.set(dismissOffer(store.state, sw)),
    openChat: () => void backend.openChat().catch((err) => view().showLocalError(problemLine(err))),
    // The layer-shell pet holds the keyboard only while the composer is in use.
    composerFocus: (active) => void backend.setKeyboard(active).catch((err) => console.warn("yui: set_pet_keyboard failed", err)),
    approve: (approvalId, decision) => {
      store.set(answered(store.state, approvalId, decision));
      void sendQuiet({ type: "approve", approval_id: approvalId, decision });
    },
    toggleMic: async (on) => {
      try {
        await backend.setMic(on);
        view().setMic(on);
        view().showLocalError(null);
      } catch (err) {
        view().showLocalError(problemLine(err));
      }
    },
  };
  return { sender: { sendText, sendQuiet }, actions };
}

/** A rejected command as the error line's words: the code's headline and the detail, in the current language. */
export function problemLine(err: unknown): () => string {
  const problem = asCommandError(err);
  return () => problemText(problem);
}

/** Tell the core the page cannot keep the bed scene (`reason` says why). */
export function bodyInterrupted(backend: Backend, reason: string): void {
  void backend.send({ type: "body_interrupted", reason }).catch((err) => console.warn("yui: body_interrupted failed", asCommandError(err).message));
}
