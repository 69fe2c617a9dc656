// Click-through wiring: the cursor (from the shell's poll or local mouse
// events) is tested against the UI boxes and the rendered alpha after each
// frame; the shell is told only when the answer changes.

import type { Backend } from "./backend";
import { ClickThroughGate, isHit, type Point, type Rect } from "./hittest";
import { shapeRects, ShapeSender, wholeRects } from "./inputshape";
import type { VisibleSpan } from "./peekclip";

/** What the click-through needs from the page. */
export interface ClickThroughDeps {
  backend: Backend;
  /** The visible UI elements' boxes. */
  uiRects(): Rect[];
  /** The canvas alpha at `p` in the frame just drawn. */
  alphaAt(p: Point): number | null;
  /** Ask for a frame soon (the probe is read after it). */
  wake(): void;
  /** The cursor moved (null: it left the window). */
  onCursor?(p: Point | null): void;
  /**
   * Click-through by shape (native Wayland): the shell polls no pointer, so
   * the window never ignores the mouse as a whole; instead, after frames,
   * the drawn shape becomes its input region. Absent: by the pointer.
   */
  shape?: ShapeDeps;
}

/** What click-through by shape reads. */
export interface ShapeDeps {
  /** Every pixel of the frame just drawn, or null when nothing is drawn yet. */
  readAll(): { pixels: Uint8Array; bufferWidth: number; bufferHeight: number; cssWidth: number; cssHeight: number } | null;
  /** What the peek clip leaves visible, or null. */
  clip(): VisibleSpan | null;
}

/** The running click-through controller. */
export interface ClickThrough {
  /** Call right after each render: test the cursor against the fresh pixels. */
  afterRender(): void;
  /** The full hit test at `p` against the frame just drawn. */
  hitAt(p: Point): boolean;
  /** The last cursor position known, or null. */
  readonly cursor: Point | null;
  /** The cursor was over her or the page's controls at the last frame. */
  readonly over: boolean;
  /** What the shell was last told: true = the window lets the mouse through; null before the first. */
  readonly ignoring: boolean | null;
}

/** Start following the cursor and switching the window's click-through. */
export async function startClickThrough(deps: ClickThroughDeps): Promise<ClickThrough> {
  const gate = new ClickThroughGate();
  let cursor: Point | null = null;
  let holdTimer: number | null = null;
  let ignoring: boolean | null = null;
  let over = false;

  const shaper = new ShapeSender();
  const sendShape = (rects: Rect[] | null | undefined) => {
    if (rects === undefined) return;
    deps.backend.setInputShape(rects).catch((err) => console.warn("yui: set_input_shape failed", err));
  };
  /** After a frame, by shape: the drawn shape plus the UI boxes, when due and changed. */
  const shapeAfterRender = (shape: ShapeDeps) => {
    const now = performance.now();
    if (!shaper.due(now)) return;
    const frame = shape.readAll();
    if (!frame) return;
    const drawn = shapeRects(frame.pixels, frame.bufferWidth, frame.bufferHeight, frame.cssWidth, frame.cssHeight, shape.clip());
    sendShape(shaper.offer(wholeRects([...drawn, ...deps.uiRects()]), now));
  };
  const tell = (ignore: boolean | null) => {
    if (ignore === null) return;
    ignoring = ignore;
    deps.backend.setClickThrough(ignore).catch((err) => console.warn("yui: set_click_through failed", err));
  };
  const hitAt = (p: Point) => isHit(p, deps.uiRects(), deps.alphaAt(p));
  const setCursor = (p: Point | null) => {
    const entered = cursor === null && p !== null;
    cursor = p;
    if (p === null) over = false;
    deps.onCursor?.(p);
    if (p === null) tell(gate.leave(performance.now()));
    else if (entered) deps.wake(); // test it on the next frame; later moves ride the frame budget
  };
  const listen = async (what: string, subscribe: () => Promise<unknown>) => {
    try {
      await subscribe();
    } catch (err) {
      console.warn(`yui: cannot listen to ${what}; click-through stays off`, err);
    }
  };

  if (!deps.shape)
    // not-ui-text: what the log line names
    await listen("the cursor channel", () =>
      deps.backend.onCursor((p) => {
        gate.arm(); // the shell polls the cursor: an ignoring window can be reached again
        setCursor(p && Number.isFinite(p.x) && Number.isFinite(p.y) ? { x: p.x, y: p.y } : null);
      }),
    );
  const stayInteractive = (seconds: number) => {
    if (deps.shape) sendShape(shaper.hold(seconds, performance.now()));
    else tell(gate.hold(seconds, performance.now()));
    if (holdTimer !== null) window.clearTimeout(holdTimer);
    holdTimer = window.setTimeout(() => {
      holdTimer = null;
      deps.wake(); // the next frame re-tests the cursor now that the hold is over
      if (cursor === null) tell(gate.leave(performance.now()));
    }, seconds * 1000 + 20);
  };
  // not-ui-text: what the log line names
  await listen("the bring-back shortcut", () => deps.backend.onInteractive(stayInteractive));
  // Local events: the page sees these while the window takes the mouse.
  document.addEventListener("mousemove", (e) => setCursor({ x: e.clientX, y: e.clientY }));
  document.documentElement.addEventListener("mouseleave", () => setCursor(null));

  return {
    afterRender() {
      if (deps.shape) shapeAfterRender(deps.shape);
      if (!cursor) return;
      over = hitAt(cursor);
      tell(gate.update(over, performance.now()));
    },
    hitAt,
    get cursor() {
      return cursor;
    },
    get ignoring() {
      return ignoring;
    },
    get over() {
      return over;
    },
  };
}
