// Click-through by shape (native Wayland, where no client sees the pointer
// outside its own surfaces): the window's input region is the shape she
// draws, so the compositor sends clicks on empty pixels to the window
// behind. The shape is the drawn frame's opaque pixels in coarse cells,
// grown by one cell (a margin: a pointer grazing her outline still reaches
// her, and small moves between updates stay inside), plus the visible UI
// boxes. Pure, except `ShapeSender`'s clock-free pacing.

import { ALPHA_THRESHOLD, type Rect } from "./hittest";
import type { VisibleSpan } from "./peekclip";

/** The cell size of the shape, CSS px. */
export const SHAPE_CELL = 8;

/** How often the shape may be re-sent while she moves, ms. */
export const SHAPE_INTERVAL_MS = 250;

/**
 * The cells (CSS px, `cell` square) covering the opaque pixels of `pixels`
 * (RGBA rows as WebGL reads them: bottom row first), `bufferWidth` ×
 * `bufferHeight` device pixels shown at `cssWidth` × `cssHeight`, grown by
 * one cell and merged into rectangles (runs along rows, then equal runs
 * down columns). Pixels `hidden` by the peek clip count as empty.
 */
export function shapeRects(
  pixels: Uint8Array,
  bufferWidth: number,
  bufferHeight: number,
  cssWidth: number,
  cssHeight: number,
  hidden: VisibleSpan | null = null,
  cell = SHAPE_CELL,
): Rect[] {
  if (bufferWidth <= 0 || bufferHeight <= 0 || cssWidth <= 0 || cssHeight <= 0) return [];
  const cols = Math.ceil(cssWidth / cell);
  const rows = Math.ceil(cssHeight / cell);
  const marked = new Uint8Array(cols * rows);
  const sx = cssWidth / bufferWidth;
  const sy = cssHeight / bufferHeight;
  // Sample about every other CSS pixel: a cell has 16 samples at least.
  const step = Math.max(1, Math.floor(bufferWidth / cssWidth) * 2);
  const cut = Math.round(ALPHA_THRESHOLD * 255);
  for (let by = 0; by < bufferHeight; by += step) {
    const y = (bufferHeight - 1 - by) * sy;
    const row = Math.min(rows - 1, Math.floor(y / cell));
    for (let bx = 0; bx < bufferWidth; bx += step) {
      if (pixels[(by * bufferWidth + bx) * 4 + 3] <= cut) continue;
      const x = bx * sx;
      if (hidden && (x < hidden.left || x > hidden.right)) continue;
      marked[row * cols + Math.min(cols - 1, Math.floor(x / cell))] = 1;
    }
  }
  // Grow by one cell.
  const grown = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (!marked[r * cols + c]) continue;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr;
          const cc = c + dc;
          if (rr >= 0 && rr < rows && cc >= 0 && cc < cols) grown[rr * cols + cc] = 1;
        }
      }
    }
  }
  // Runs along each row; a run equal to one in the row above extends it.
  const out: Rect[] = [];
  let open = new Map<string, Rect>();
  for (let r = 0; r < rows; r++) {
    const next = new Map<string, Rect>();
    let c = 0;
    while (c < cols) {
      if (!grown[r * cols + c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < cols && grown[r * cols + c]) c++;
      const key = `${start}:${c}`;
      const above = open.get(key);
      if (above) {
        above.height += cell;
        next.set(key, above);
      } else {
        const rect = { x: start * cell, y: r * cell, width: (c - start) * cell, height: cell };
        out.push(rect);
        next.set(key, rect);
      }
    }
    open = next;
  }
  // Clip to the window.
  for (const rect of out) {
    rect.width = Math.min(rect.width, cssWidth - rect.x);
    rect.height = Math.min(rect.height, cssHeight - rect.y);
  }
  return out;
}

/** `rects` rounded out to whole CSS pixels. */
export function wholeRects(rects: readonly Rect[]): Rect[] {
  return rects.map((r) => {
    const x = Math.floor(r.x);
    const y = Math.floor(r.y);
    return { x, y, width: Math.ceil(r.x + r.width) - x, height: Math.ceil(r.y + r.height) - y };
  });
}

/** True when `a` and `b` are the same rectangles in the same order. */
export function sameRects(a: readonly Rect[] | null, b: readonly Rect[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((r, i) => r.x === b[i].x && r.y === b[i].y && r.width === b[i].width && r.height === b[i].height);
}

/**
 * When to send a shape: at most once per `intervalMs` (a newer shape waits
 * for the next frame after the interval), never the one last sent; a hold
 * (the bring-back shortcut) sends the whole window (null) until it ends.
 */
export class ShapeSender {
  private sent: Rect[] | null | undefined = undefined;
  private sentAt = -Infinity;
  private holdUntil = 0;

  constructor(private readonly intervalMs = SHAPE_INTERVAL_MS) {}

  /** True when a shape computed at `nowMs` could be sent (worth reading the pixels). */
  due(nowMs: number): boolean {
    return nowMs >= this.holdUntil && nowMs - this.sentAt >= this.intervalMs;
  }

  /** Keep the whole window taking input for `seconds` from `nowMs`; returns null (the whole window) to send, or undefined. */
  hold(seconds: number, nowMs: number): null | undefined {
    this.holdUntil = Math.max(this.holdUntil, nowMs + Math.max(0, seconds) * 1000);
    return this.offer(null, nowMs, true) === null ? null : undefined;
  }

  /** The shape drawn at `nowMs`; returns what to send (rects, or null for the whole window), or undefined for nothing. */
  offer(rects: Rect[] | null, nowMs: number, force = false): Rect[] | null | undefined {
    if (!force && !this.due(nowMs)) return undefined;
    if (this.sent !== undefined && sameRects(this.sent, rects)) return undefined;
    this.sent = rects;
    this.sentAt = nowMs;
    return rects;
  }
}
