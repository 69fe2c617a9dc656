// One transcript row: a user bubble (right) or an assistant answer (left),
// with its actions (Copy, Regenerate, the version picker, Fork, Delete) on
// hover and keyboard focus.

import type { ChatMessage, ChatSettings } from "../bindings/index";
import { mark, t } from "../i18n/index";
import { answerCards, outcomeMark, reasoningPanel, usageLine, type CardHooks } from "./cards";
import { h, type Attrs } from "./dom";
import { initialOf, type Speaker } from "./together";
import { shownAnswer, shownText } from "./transcript";

/** A message action the page carries out. */
export type MessageAction = "copy" | "regenerate" | "fork" | "delete";

/** What a row needs from the page. */
export interface RowHooks extends CardHooks {
  /** The user chose an action on message `m`. */
  act(action: MessageAction, m: ChatMessage): void;
  /** The user stepped the version picker of `m` to answer `n` (0-based). */
  pick(m: ChatMessage, n: number): void;
}

/** How the page stands while a row is built. */
export interface RowContext {
  /** The chat window's settings. */
  settings: ChatSettings;
  /** A turn runs (Regenerate waits). */
  running: boolean;
  /** An older conversation: only Copy and the picker. */
  readOnly: boolean;
  /** Now, epoch ms (clocks). */
  now: number;
}

/** Build the row of message `m`; with several characters, `speaker` labels it (who answered, or whom the user spoke to). */
export function messageRow(m: ChatMessage, ctx: RowContext, hooks: RowHooks, speaker?: Speaker): HTMLElement {
  const body = m.role === "user" ? userBody(m) : answerBody(m, ctx, hooks);
  const attrs: Attrs = { class: `msg ${m.role}`, "data-msg-id": m.id, "data-role": m.role, tabindex: 0 };
  if (speaker) attrs["data-character"] = speaker.everyone ? "everyone" : speaker.name;
  const row = h("div", attrs, speaker ? speakerLine(m, speaker) : null, body, actions(m, ctx, hooks));
  if (speaker) row.style.setProperty("--hue", String(speaker.hue));
  return row;
}

/** The label over a message among several characters: her portrait and name on an answer, "to Ann" or "to everyone" on the user's. */
function speakerLine(m: ChatMessage, s: Speaker): HTMLElement {
  // not-ui-text: class names
  if (m.role === "user") return h("div", { class: "speaker to" }, s.everyone ? t("chat-to-everyone") : t("chat-to-character", { name: s.name }));
  const portrait = h("span", { class: "portrait", "aria-hidden": "true", "data-words": "theirs" }, initialOf(s.name));
  return h("div", { class: "speaker" }, portrait, h("span", { class: "speaker-name", "data-words": "theirs" }, s.name));
}

function answerBody(m: ChatMessage, ctx: RowContext, hooks: RowHooks): HTMLElement {
  const a = shownAnswer(m);
  if (!a) return h("div", { class: "answer", "data-state": "done" });
  const key = `${m.id}/${m.active}`;
  const streaming = a.state === "streaming";
  const text =
    a.text !== "" || streaming
      ? h("div", { class: "answer-text" }, a.text, streaming ? h("span", { class: "caret", "aria-hidden": "true" }) : null)
      : null;
  return h(
    "div",
    { class: "answer", "data-state": a.state, "data-run-id": a.run_id },
    ctx.settings.show_reasoning ? reasoningPanel(a, key, hooks, ctx.now) : null,
    ...answerCards(a, key, hooks, ctx.now, ctx.readOnly, m.id),
    text,
    outcomeMark(a),
    a.usage ? usageLine(a.usage) : null,
  );
}

/** The action bar: Copy, Regenerate, the version picker, Fork, Delete (each button's label, title and aria-label from its message). */
function actions(m: ChatMessage, ctx: RowContext, hooks: RowHooks): HTMLElement {
  const button = (action: MessageAction, disabled = false) => {
    const b = h("button", { type: "button", class: "msg-action", "data-action": action, disabled });
    b.addEventListener("click", () => hooks.act(action, m));
    return b;
  };
  const assistant = m.role === "assistant";
  const editable = !ctx.readOnly;
  const copy = button("copy");
  mark(copy, "chat-action-copy");
  let regenerate: HTMLElement | null = null;
  if (assistant && editable) {
    regenerate = button("regenerate", ctx.running);
    if (ctx.running) mark(regenerate, "chat-action-regenerate-wait");
    else mark(regenerate, "chat-action-regenerate");
  }
  let fork: HTMLElement | null = null;
  let remove: HTMLElement | null = null;
  if (editable) {
    fork = button("fork");
    mark(fork, "chat-action-fork");
    remove = button("delete");
    mark(remove, "chat-action-delete");
  }
  return h("div", { class: "msg-actions" }, copy, regenerate, assistant && m.answers.length > 1 ? versionPicker(m, hooks) : null, fork, remove);
}

/** `< i/n >`: step through the answers of `m`. */
function versionPicker(m: ChatMessage, hooks: RowHooks): HTMLElement {
  const n = m.answers.length;
  const step = (by: number) => () => hooks.pick(m, m.active + by);
  const prev = h("button", { type: "button", class: "version-prev", disabled: m.active <= 0, onclick: step(-1) }, "‹");
  mark(prev, "chat-version-previous");
  const next = h("button", { type: "button", class: "version-next", disabled: m.active >= n - 1, onclick: step(1) }, "›");
  mark(next, "chat-version-next");
  const picker = h("span", { class: "version-picker", role: "group" }, prev, h("span", { class: "version-label" }, `${m.active + 1}/${n}`), next);
  mark(picker, "chat-versions");
  return picker;
}

/** The text Copy puts on the clipboard. */
export function copyText(m: ChatMessage): string {
  return shownText(m);
}

/** A user bubble: the text, then a chip per file sent with it. */
function userBody(m: ChatMessage): HTMLElement {
  const files = (m.files ?? []).map((f) => h("span", { class: "sent-file" }, f));
  return h("div", { class: "bubble", "data-words": "theirs" }, m.text, files.length > 0 ? h("div", { class: "sent-files" }, ...files) : null);
}
