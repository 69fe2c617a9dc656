// The pet window: subscribe to the core's events, fold them into the state,
// render, and forward what the user does.

import "./style.css";
import { tauriBackend, asCommandError, type Backend } from "./backend";
import type { UiEvent } from "./bindings/index";
import { initialState, reduce, type State } from "./state";
import { mountView } from "./view";

/** The hook end-to-end tests read the page through. */
export interface TestHook {
  /** The state the page renders now. */
  state(): State;
  /** Send `text` as if the user typed it. */
  send(text: string): Promise<void>;
}

declare global {
  interface Window {
    /** Set once the page is wired; for end-to-end tests. */
    __yui?: TestHook;
  }
}

/** Wire the page to `backend`. */
async function start(backend: Backend): Promise<void> {
  let state: State = initialState();
  let sawStatus = false;

  const sendText = async (text: string) => {
    try {
      await backend.send({ type: "send_text", text });
      view.clearComposer();
      view.showLocalError(null);
    } catch (err) {
      view.showLocalError(asCommandError(err).message);
    }
  };
  const view = mountView({
    submit: (text) => void sendText(text),
    stop: () => void backend.send({ type: "stop" }).catch((err) => view.showLocalError(asCommandError(err).message)),
  });
  const apply = (event: UiEvent) => {
    if (event.type === "status") sawStatus = true;
    state = reduce(state, event);
    view.render(state);
  };

  view.render(state);
  window.__yui = { state: () => state, send: sendText };
  await backend.subscribe(apply);
  try {
    const status = await backend.currentStatus();
    if (!sawStatus) apply({ type: "status", status });
  } catch (err) {
    // No session behind this window (its startup failed): say why, show offline.
    if (!sawStatus) apply({ type: "status", status: { state: "closed" } });
    view.showLocalError(asCommandError(err).message);
  }
}

start(tauriBackend()).catch((err) => console.error("yui: could not start the page", err));
