// The speech bubble's DOM: its text, its place above the head (placement.ts
// does the maths), and fading out a while after the reply ends.

import type { Point, Rect } from "./hittest";
import { bubbleLingerMs, bubbleTextMaxHeight, placeBubble } from "./placement";

/** What the bubble shows. */
export type BubbleMode = "speech" | "thinking" | "empty";

/** Room the bubble may use, CSS pixels. */
export interface BubbleLimits {
  /** Highest top edge (below the status pill). */
  minTop: number;
  /** Lowest bottom edge (above the composer). */
  maxBottom: number;
}

/** How far a long bubble may come down over the top of the head (hair, not face). */
const HEAD_OVERLAP = 40;
/** The bubble's padding and border, top and bottom together. */
const CHROME = 20;
/** Space between the bubble and the head for the tail. */
const GAP = 12;
/** Space kept to the window's sides. */
const MARGIN = 8;

/** Controls the bubble element. */
export class Bubble {
  private mode: BubbleMode = "empty";
  private text = "";
  private anchor: Point | null = null;
  private limits: BubbleLimits = { minTop: 36, maxBottom: 460 };
  private fadeTimer: number | null = null;
  private hovered = false;
  private lingering = false;

  /** Drive `el` (with `textEl` and `tailEl` inside). */
  constructor(
    private readonly el: HTMLElement,
    private readonly textEl: HTMLElement,
    private readonly tailEl: HTMLElement,
  ) {
    el.addEventListener("mouseenter", () => {
      this.hovered = true;
      this.clearFade();
    });
    textEl.addEventListener("scroll", () => this.markScroll());
    el.addEventListener("mouseleave", () => {
      this.hovered = false;
      if (this.lingering) this.armFade();
    });
  }

  /** Show `text` in `mode`; `done` means the turn ended, so the bubble may fade later. */
  show(text: string, mode: BubbleMode, done: boolean): void {
    const changed = text !== this.text || mode !== this.mode;
    const fresh = !text.startsWith(this.text) || this.text === "";
    if (text !== this.text) this.textEl.textContent = text;
    this.text = text;
    this.mode = mode;
    this.el.dataset.mode = mode;
    if (mode === "empty") {
      this.lingering = false;
      this.clearFade();
      this.el.dataset.shown = "false";
      return;
    }
    if (changed) this.el.dataset.shown = "true";
    if (done && mode === "speech") {
      if (!this.lingering || changed) {
        this.lingering = true;
        this.armFade();
      }
    } else {
      this.lingering = false;
      this.clearFade();
      this.el.dataset.shown = "true";
    }
    if (changed) {
      if (fresh) this.textEl.scrollTop = 0; // a new reply reads from the top; appended pieces keep the place
      this.place();
    }
  }

  /** Point the tail at `anchor` (the top of the head, window CSS pixels). */
  setAnchor(anchor: Point | null): void {
    this.anchor = anchor;
    this.place();
  }

  /** Keep the bubble within `limits`. */
  setLimits(limits: BubbleLimits): void {
    this.limits = limits;
    this.place();
  }

  /** The bubble's box while it is visible, else null (for the hit test). */
  visibleRect(): Rect | null {
    if (this.mode === "empty" || this.el.dataset.shown !== "true") return null;
    const r = this.el.getBoundingClientRect();
    return { x: r.left, y: r.top, width: r.width, height: r.height };
  }

  /** Position the bubble over the anchor, inside the window. */
  place(): void {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const anchor = this.anchor ?? { x: vw / 2, y: vh * 0.35 };
    const room = anchor.y - GAP - this.limits.minTop + HEAD_OVERLAP - CHROME;
    const lineHeight = parseFloat(getComputedStyle(this.textEl).lineHeight) || 20;
    this.el.style.setProperty("--bubble-max", `${bubbleTextMaxHeight(room, lineHeight)}px`);
    const p = placeBubble({
      viewport: { width: vw, height: vh },
      anchor,
      bubble: { width: this.el.offsetWidth, height: this.el.offsetHeight },
      margin: MARGIN,
      minTop: this.limits.minTop,
      maxBottom: this.limits.maxBottom,
      gap: GAP,
    });
    this.el.style.left = `${Math.round(p.left)}px`;
    this.el.style.top = `${Math.round(p.top)}px`;
    this.el.dataset.tail = String(p.tail);
    this.tailEl.style.left = `${Math.round(p.tailX)}px`;
    this.markScroll();
  }

  /** Mark whether more text waits below the visible part (the CSS fades the last line). */
  private markScroll(): void {
    const t = this.textEl;
    this.el.dataset.scrolls = String(t.scrollTop + t.clientHeight < t.scrollHeight - 1);
  }

  /** Fade out after the text has had time to be read. */
  private armFade(): void {
    this.clearFade();
    if (this.hovered) return;
    this.fadeTimer = window.setTimeout(() => {
      this.fadeTimer = null;
      this.el.dataset.shown = "false";
    }, bubbleLingerMs(this.text));
  }

  /** Cancel a pending fade. */
  private clearFade(): void {
    if (this.fadeTimer !== null) window.clearTimeout(this.fadeTimer);
    this.fadeTimer = null;
  }
}
