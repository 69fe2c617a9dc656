// One transcript row: a user bubble (right) or an assistant answer (left),
// with its actions (Copy, Regenerate, the version picker, Fork, Delete) on
// hover and keyboard focus.

import type { ChatMessage, ChatSettings } from "../bindings/index";
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
  if (m.role === "user") return h("div", { class: "speaker to" }, s.everyone ? "to everyone" : `to ${s.name}`);
  const portrait = h("span", { class: "portrait", "aria-hidden": "true" }, initialOf(s.name));
  return h("div", { class: "speaker" }, portrait, h("span", { class: "speaker-name" }, s.name));
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

/** The action bar: Copy, Regenerate, the version picker, Fork, Delete. */
function actions(m: ChatMessage, ctx: RowContext, hooks: RowHooks): HTMLElement {
  const button = (action: MessageAction, label: string, title: string, disabled = false) => {
    const b = h("button", { type: "button", class: "msg-action", "data-action": action, title, "aria-label": title, disabled }, label);
    b.addEventListener("click", () => hooks.act(action, m));
    return b;
  };
  const assistant = m.role === "assistant";
  const editable = !ctx.readOnly;
  return h(
    "div",
    { class: "msg-actions" },
    button("copy", "Copy", "Copy the text"),
    assistant && editable ? button("regenerate", "Regenerate", ctx.running ? "Wait for the reply to finish" : "Write another answer", ctx.running) : null,
    assistant && m.answers.length > 1 ? versionPicker(m, hooks) : null,
    editable ? button("fork", "Fork", "A new chat up to here") : null,
    editable ? button("delete", "Delete", "Delete this message") : null,
  );
}

/** `< i/n >`: step through the answers of `m`. */
function versionPicker(m: ChatMessage, hooks: RowHooks): HTMLElement {
  const n = m.answers.length;
  const step = (by: number) => () => hooks.pick(m, m.active + by);
  return h(
    "span",
    { class: "version-picker", role: "group", "aria-label": "Versions" },
    h("button", { type: "button", class: "version-prev", "aria-label": "Previous version", disabled: m.active <= 0, onclick: step(-1) }, "‹"),
    h("span", { class: "version-label" }, `${m.active + 1}/${n}`),
    h("button", { type: "button", class: "version-next", "aria-label": "Next version", disabled: m.active >= n - 1, onclick: step(1) }, "›"),
  );
}

/** The text Copy puts on the clipboard. */
export function copyText(m: ChatMessage): string {
  return shownText(m);
}

/** A user bubble: the text, then a chip per file sent with it. */
function userBody(m: ChatMessage): HTMLElement {
  const files = (m.files ?? []).map((f) => h("span", { class: "sent-file" }, f));
  return h("div", { class: "bubble" }, m.text, files.length > 0 ? h("div", { class: "sent-files" }, ...files) : null);
}
