// Where the speech bubble goes: above the character's head, tail pointing at
// it, and never outside the window. Pure.

/** What placement needs to know, all in CSS pixels. */
export interface BubbleLayoutInput {
  /** The window's size. */
  viewport: { width: number; height: number };
  /** The point the tail points at (the top of the head). */
  anchor: { x: number; y: number };
  /** The bubble's rendered size. */
  bubble: { width: number; height: number };
  /** Free space kept to the window's edges. */
  margin: number;
  /** The highest the bubble may go (below the status pill). */
  minTop: number;
  /** The lowest its bottom edge may go (above the composer). */
  maxBottom: number;
  /** Space between the bubble's bottom edge and the anchor (the tail lives there). */
  gap: number;
}

/** Where to put the bubble. */
export interface BubblePlacement {
  /** Left edge. */
  left: number;
  /** Top edge. */
  top: number;
  /** The tail's x, relative to the bubble's left edge. */
  tailX: number;
  /** False when the bubble had to cover the anchor: hide the tail. */
  tail: boolean;
}

/** Keep `v` within [lo, hi]; when the range is empty, `lo` wins. */
function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(v, hi));
}

/**
 * Centre the bubble over the anchor with `gap` below it, then clamp it inside
 * the window (minus the margins, `minTop` and `maxBottom`; when those leave too
 * little room, just the window). A bubble bigger than the window sticks to the
 * top-left corner.
 */
export function placeBubble(input: BubbleLayoutInput): BubblePlacement {
  const { viewport, anchor, bubble, margin, gap } = input;
  const minTop = Math.max(0, input.minTop);
  const maxBottom = Math.min(viewport.height, input.maxBottom);
  const finite = (v: number, dflt: number) => (Number.isFinite(v) ? v : dflt);
  const ax = finite(anchor.x, viewport.width / 2);
  const ay = finite(anchor.y, viewport.height / 2);
  // The margins and limits first, then the window itself, which always wins.
  const left = Math.max(0, clamp(clamp(ax - bubble.width / 2, margin, viewport.width - margin - bubble.width), 0, viewport.width - bubble.width));
  const hiTop = Math.min(maxBottom, viewport.height - margin) - bubble.height;
  const top = Math.max(0, clamp(clamp(ay - gap - bubble.height, minTop, hiTop), 0, viewport.height - bubble.height));
  const corner = 14; // keep the tail off the rounded corners
  const tailX = clamp(ax - left, corner, Math.max(corner, bubble.width - corner));
  const tail = top + bubble.height <= ay - gap / 2 && ax >= left && ax <= left + bubble.width;
  return { left, top, tailX, tail };
}

/**
 * The tallest the bubble's text may be before it scrolls: as many whole lines
 * as fit in `room` (so no line is cut in half), between `minLines` and `maxLines`.
 */
export function bubbleTextMaxHeight(room: number, lineHeight: number, minLines = 3, maxLines = 8): number {
  const lines = Math.max(minLines, Math.min(maxLines, Math.floor(room / lineHeight)));
  return lines * lineHeight;
}

/** How long a finished bubble stays before it fades: longer text, longer stay (ms). */
export function bubbleLingerMs(text: string): number {
  return Math.min(45_000, 15_000 + [...text].length * 80);
}
