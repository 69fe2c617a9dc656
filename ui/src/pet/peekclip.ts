// The peek clip: while she peeks around another window's side, the part of
// her behind that window is hidden (a CSS clip-path on the canvas, no GL
// work), and the hit test treats hidden pixels as transparent so clicks there
// reach the window behind. Pure.

import type { PeekView } from "../bindings/index";
import type { Point } from "./hittest";

/** The visible x range of the canvas, CSS px (edges included). */
export interface VisibleSpan {
  left: number;
  right: number;
}

/**
 * What stays visible of a canvas `width` px wide while she peeks `peek`:
 * side "left" (she peeks out of the window's left side) shows x ≤ edge,
 * side "right" shows x ≥ edge. Null: nothing hidden (no peek, or a peek at
 * the screen's edge, where the screen hides her).
 */
export function peekSpan(peek: PeekView | null | undefined, width: number): VisibleSpan | null {
  if (!peek || peek.edge === undefined || peek.edge === null || !Number.isFinite(peek.edge)) return null;
  const edge = Math.max(0, Math.min(width, peek.edge));
  return peek.side === "left" ? { left: 0, right: edge } : { left: edge, right: width };
}

/** The canvas's CSS clip-path for `span` on a canvas `width` px wide ("none": all shows). */
export function clipPathCss(span: VisibleSpan | null, width: number): string {
  if (!span) return "none";
  const left = Math.max(0, Math.round(span.left));
  const right = Math.max(0, Math.round(width - span.right));
  // not-ui-text: a CSS clip-path
  return `inset(0px ${right}px 0px ${left}px)`;
}

/** True when `p` is hidden by the clip. */
export function clipHides(p: Point, span: VisibleSpan | null): boolean {
  return span !== null && (p.x < span.left || p.x > span.right);
}

/** The canvas alpha at `p` as the user sees it: 0 where the clip hides the canvas, else what `read` gives. */
export function clippedAlpha(p: Point, span: VisibleSpan | null, read: (p: Point) => number | null): number | null {
  return clipHides(p, span) ? 0 : read(p);
}
