// Click-through: is the mouse over something of the pet (a visible UI element
// or an opaque pixel of the character)? And when to tell the shell. Pure.

/** A rectangle in CSS pixels, window coordinates. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A point in CSS pixels, window coordinates. */
export interface Point {
  x: number;
  y: number;
}

/** Canvas alpha above this counts as the character. */
export const ALPHA_THRESHOLD = 0.1;

/** True when `p` lies inside one of `rects` (edges included). */
export function pointInRects(p: Point, rects: readonly Rect[]): boolean {
  return rects.some((r) => p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height);
}

/** True when an alpha read from the canvas (0..1, or null when unknown) is the character. */
export function alphaHit(alpha: number | null): boolean {
  return alpha !== null && alpha > ALPHA_THRESHOLD;
}

/** The hit test: on a UI element, or on a visible pixel of the character. */
export function isHit(p: Point, uiRects: readonly Rect[], alpha: number | null): boolean {
  return pointInRects(p, uiRects) || alphaHit(alpha);
}

/**
 * Canvas pixel coordinates (WebGL: origin bottom-left) of a CSS point, for a
 * canvas of `bufferWidth` x `bufferHeight` device pixels shown at `cssWidth` x
 * `cssHeight`. Null outside the canvas.
 */
export function glPixel(
  p: Point,
  cssWidth: number,
  cssHeight: number,
  bufferWidth: number,
  bufferHeight: number,
): { x: number; y: number } | null {
  if (cssWidth <= 0 || cssHeight <= 0) return null;
  if (p.x < 0 || p.y < 0 || p.x >= cssWidth || p.y >= cssHeight) return null;
  const x = Math.floor((p.x * bufferWidth) / cssWidth);
  const y = bufferHeight - 1 - Math.floor((p.y * bufferHeight) / cssHeight);
  return { x: Math.min(bufferWidth - 1, Math.max(0, x)), y: Math.min(bufferHeight - 1, Math.max(0, y)) };
}

/**
 * Decides when the window ignores the mouse. A hit takes input at once; a miss
 * must last `missDelayMs` before the window lets clicks through (so a pointer
 * grazing an outline does not flicker the window state). While an interactive
 * hold runs, the window never ignores. Nor before `arm`: only once the shell's
 * cursor poll has been heard from can an ignoring window be reached again (on
 * Wayland there is no poll, and the window must stay interactive). `update`
 * returns the value to send to the shell only when it changes, else null.
 */
export class ClickThroughGate {
  private sent: boolean | null = null;
  private missSince: number | null = null;
  private holdUntil = 0;
  private armed = false;

  /** A gate that waits `missDelayMs` of misses before ignoring the mouse. */
  constructor(private readonly missDelayMs = 150) {}

  /** What the shell was last told (true: ignoring), or null before the first call. */
  get ignoring(): boolean | null {
    return this.sent;
  }

  /** The shell's cursor poll works: from now on a miss may make the window ignore the mouse. */
  arm(): void {
    this.armed = true;
  }

  /** True while an interactive hold runs at `nowMs`. */
  holding(nowMs: number): boolean {
    return nowMs < this.holdUntil;
  }

  /** Keep the window interactive for `seconds` from `nowMs`; returns the value to send, if any. */
  hold(seconds: number, nowMs: number): boolean | null {
    this.holdUntil = Math.max(this.holdUntil, nowMs + Math.max(0, seconds) * 1000);
    this.missSince = null;
    return this.send(false);
  }

  /** Feed one hit-test result at `nowMs`; returns the value to send, if any. */
  update(hit: boolean, nowMs: number): boolean | null {
    if (hit || this.holding(nowMs) || !this.armed) {
      this.missSince = null;
      return this.send(false);
    }
    if (this.missSince === null) this.missSince = nowMs;
    if (nowMs - this.missSince < this.missDelayMs && this.sent !== null) return null;
    return this.send(true);
  }

  /** The cursor left the window at `nowMs`: ignore the mouse unless a hold runs. Returns the value to send, if any. */
  leave(nowMs: number): boolean | null {
    this.missSince = null;
    return this.holding(nowMs) || !this.armed ? null : this.send(true);
  }

  /** Record and return `ignore` when it differs from what was sent. */
  private send(ignore: boolean): boolean | null {
    if (this.sent === ignore) return null;
    this.sent = ignore;
    return ignore;
  }
}
