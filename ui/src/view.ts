// The pet window's DOM: built once, then updated from a `State` on every change.

import { composerLocked, pillText, pillTone, type State } from "./state";

/** What the view reports back: the user's actions, nothing decided. */
export interface ViewActions {
  /** The user submitted the composer's text (already trimmed, non-empty). */
  submit(text: string): void;
  /** The user pressed stop while a turn runs. */
  stop(): void;
}

/** Handles to the elements `render` updates. */
export interface View {
  /** Show `state`. */
  render(state: State): void;
  /** Clear the composer after a message went out. */
  clearComposer(): void;
  /** Show a local problem (a rejected command) in the error line. */
  showLocalError(message: string | null): void;
}

/** Find an element the page's HTML must contain. */
function el<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id} in index.html`);
  return found as T;
}

/** Wire the page's elements to `actions` and return the view. */
export function mountView(actions: ViewActions): View {
  const pill = el<HTMLSpanElement>("pill");
  const bubble = el<HTMLDivElement>("bubble");
  const bubbleText = el<HTMLParagraphElement>("bubble-text");
  const face = el<HTMLDivElement>("face");
  const error = el<HTMLDivElement>("error");
  const form = el<HTMLFormElement>("composer");
  const input = el<HTMLTextAreaElement>("composer-input");
  const button = el<HTMLButtonElement>("composer-button");
  let locked = false;
  let localError: string | null = null;
  let shownError: string | null = null;

  const submit = () => {
    if (locked) return;
    const text = input.value.trim();
    if (text) actions.submit(text);
  };
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      submit();
    }
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (locked) actions.stop();
    else submit();
  });

  const showError = () => {
    const text = localError ?? shownError;
    error.textContent = text ?? "";
    error.title = text ?? "";
    error.hidden = !text;
  };

  return {
    render(state) {
      pill.textContent = pillText(state);
      pill.dataset.tone = pillTone(state);
      bubbleText.textContent = state.bubble;
      bubble.dataset.mode = state.bubble ? "speech" : state.thinking ? "thinking" : "empty";
      face.dataset.emotion = state.cue?.emotion_id ?? "neutral";
      face.dataset.thinking = String(state.thinking);
      locked = composerLocked(state);
      input.readOnly = locked;
      input.placeholder = locked ? "Yui is replying…" : "Say something (Enter sends, Shift+Enter for a new line)";
      button.textContent = locked ? "Stop" : "Send";
      button.dataset.kind = locked ? "stop" : "send";
      button.setAttribute("aria-label", locked ? "Stop the reply" : "Send");
      if (state.error !== shownError) localError = null;
      shownError = state.error;
      showError();
    },
    clearComposer() {
      input.value = "";
    },
    showLocalError(message) {
      localError = message;
      showError();
    },
  };
}
