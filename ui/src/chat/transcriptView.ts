// The transcript column: the read-only banner, the message rows (rebuilt only
// when their message changed), the queued messages under them, auto-scroll
// to the bottom while streaming unless the user scrolled up, and the clocks.

import type { ChatMessage, ChatSettings, Conversation } from "../bindings/index";
import { language, mark, t } from "../i18n/index";
import { tick } from "./cards";
import { h } from "./dom";
import { messageRow, type RowContext, type RowHooks } from "./messages";
import type { Speaker } from "./together";

/** What the transcript shows. */
export interface TranscriptProps {
  /** The conversation on screen. */
  conversation: Conversation;
  /** An older conversation, or an earlier part of the current one (read-only, with the banner). */
  readOnly: boolean;
  /** The read-only view is an earlier part of the current conversation (a search hit far back). */
  earlier: boolean;
  /** A turn runs. */
  running: boolean;
  /** Messages waiting behind the running turn. */
  queued: string[];
  /** The chat window's settings. */
  settings: ChatSettings;
  /** A message to scroll to and highlight, or null. */
  focus: string | null;
  /** With several characters: each message's label, by its id (none: one character, no labels). */
  speakers?: Map<string, Speaker>;
}

/** Hooks of the transcript: the rows' hooks and the banner's button. */
export interface TranscriptHooks extends RowHooks {
  /** "Back to the current chat". */
  backToCurrent(): void;
  /** The view reached the top of what is loaded and older messages exist. */
  loadOlder(): void;
  /** The view reached the bottom of a window with newer messages after it. */
  loadNewer(): void;
}

/** How close to the bottom still counts as "at the bottom", in pixels. */
const STICK_PX = 48;
/** How close to the top (or a window's bottom) loads the next page, in pixels. */
const LOAD_PX = 400;

/** The transcript column, mounted into `scroller`. */
export class TranscriptView {
  private readonly banner: HTMLElement;
  private readonly bannerText: HTMLElement;
  private readonly backButton: HTMLElement;
  private readonly list: HTMLElement;
  private readonly queue: HTMLElement;
  private readonly empty: HTMLElement;
  /** Each row with the message and the page stamp it was built from. */
  private rows = new Map<string, { m: ChatMessage; stamp: string; el: HTMLElement }>();
  private stick = true;
  /** The conversation id and whether it is read-only, as last shown. */
  private shownId: string | null = null;
  /** Which banner is marked now (null: none yet). */
  private bannerEarlier: boolean | null = null;
  private more = { before: false, after: false };

  constructor(
    private readonly scroller: HTMLElement,
    private readonly hooks: TranscriptHooks,
  ) {
    const back = h("button", { type: "button", class: "link", id: "back-to-current" });
    mark(back, "chat-back-to-current");
    back.addEventListener("click", () => hooks.backToCurrent());
    this.bannerText = h("span", {}, "");
    this.banner = h("div", { class: "older-banner", role: "status", hidden: true }, this.bannerText, back);
    this.backButton = back;
    const emptyTitle = h("div", { class: "empty-title" });
    mark(emptyTitle, "chat-empty-title");
    const emptyHint = h("div", {});
    mark(emptyHint, "chat-empty-hint");
    this.empty = h("div", { class: "empty-chat" }, emptyTitle, emptyHint);
    this.list = h("div", { class: "messages", role: "log", "aria-live": "polite" });
    this.queue = h("div", { class: "queued" });
    scroller.append(this.banner, this.empty, this.list, this.queue);
    scroller.addEventListener("scroll", () => {
      const below = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
      this.stick = below < STICK_PX;
      if (this.more.before && scroller.scrollTop < LOAD_PX) hooks.loadOlder();
      if (this.more.after && below < LOAD_PX) hooks.loadNewer();
    });
  }

  /** Show `p`; returns true when it scrolled to `p.focus`. */
  render(p: TranscriptProps, now: number): boolean {
    // A window back in the current conversation and the live one are two views.
    const viewId = `${p.conversation.id}|${p.readOnly}`;
    const switched = this.shownId !== viewId;
    this.shownId = viewId;
    this.more = { before: p.conversation.more_before, after: p.conversation.more_after };
    // Older messages put in front must not move what the user is reading.
    const anchor = switched ? undefined : (this.list.firstElementChild as HTMLElement | null) ?? undefined;
    const anchorTop = anchor?.offsetTop ?? 0;
    this.banner.hidden = !p.readOnly;
    // Marked once per kind of banner: marked text follows a switch of language by itself.
    if (p.earlier !== this.bannerEarlier) {
      this.bannerEarlier = p.earlier;
      if (p.earlier) {
        mark(this.bannerText, "chat-banner-earlier");
        mark(this.backButton, "chat-back-to-latest");
      } else {
        mark(this.bannerText, "chat-banner-older");
        mark(this.backButton, "chat-back-to-current");
      }
    }
    this.empty.hidden = p.conversation.messages.length > 0 || p.queued.length > 0;
    const ctx: RowContext = { settings: p.settings, running: p.running, readOnly: p.readOnly, now };
    // A row is rebuilt when its message or anything else it shows changed (the language too).
    const stamp = `${language()}|${p.readOnly}|${p.running}|${p.settings.show_reasoning}|${p.settings.collapse_reasoning}`;
    const next = new Map<string, { m: ChatMessage; stamp: string; el: HTMLElement }>();
    const els: HTMLElement[] = [];
    for (const m of p.conversation.messages) {
      const old = this.rows.get(m.id);
      const speaker = p.speakers?.get(m.id);
      const rowStamp = speaker ? `${stamp}|${speaker.name}|${speaker.everyone}` : stamp;
      const row = old && old.m === m && old.stamp === rowStamp ? old : { m, stamp: rowStamp, el: messageRow(m, ctx, this.hooks, speaker) };
      if (old && old !== row) old.el.replaceWith(row.el);
      next.set(m.id, row);
      els.push(row.el);
    }
    this.rows = next;
    // Put the rows in order, moving only those out of place.
    let at: ChildNode | null = this.list.firstChild;
    for (const el of els) {
      if (at === el) at = el.nextSibling;
      else this.list.insertBefore(el, at);
    }
    while (at) {
      const gone: ChildNode = at;
      at = at.nextSibling;
      gone.remove();
    }
    this.queue.replaceChildren(
      ...(p.readOnly ? [] : p.queued).map((text) =>
        h("div", { class: "queued-item" }, h("div", { class: "bubble", "data-words": "theirs" }, text), h("span", { class: "queued-chip" }, t("chat-queued"))),
      ),
    );
    tick(this.list, now);
    if (anchor && anchor.isConnected && anchor !== this.list.firstElementChild) {
      this.scroller.scrollTop += anchor.offsetTop - anchorTop;
    }
    if (p.focus !== null) return this.focus(p.focus);
    if (switched || this.stick) this.scroller.scrollTop = this.scroller.scrollHeight;
    return false;
  }

  /** Refresh the clocks. */
  tick(now: number): void {
    tick(this.list, now);
  }

  /** Scroll to message `id` and flash it. */
  private focus(id: string): boolean {
    const el = this.rows.get(id)?.el;
    if (!el) return false;
    // Stay on it: the next render must not jump back to the bottom.
    this.stick = false;
    el.scrollIntoView({ block: "center" });
    el.classList.remove("highlight");
    void el.offsetWidth;
    el.classList.add("highlight");
    return true;
  }
}
