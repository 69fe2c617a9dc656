// Click-through wiring: the cursor (from the shell's poll or local mouse
// events) is tested against the UI boxes and the rendered alpha after each
// frame; the shell is told only when the answer changes.

import type { Backend } from "./backend";
import { ClickThroughGate, isHit, type Point, type Rect } from "./hittest";

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

  await listen("the cursor channel", () =>
    deps.backend.onCursor((p) => {
      gate.arm(); // the shell polls the cursor: an ignoring window can be reached again
      setCursor(p && Number.isFinite(p.x) && Number.isFinite(p.y) ? { x: p.x, y: p.y } : null);
    }),
  );
  const stayInteractive = (seconds: number) => {
    tell(gate.hold(seconds, performance.now()));
    if (holdTimer !== null) window.clearTimeout(holdTimer);
    holdTimer = window.setTimeout(() => {
      holdTimer = null;
      deps.wake(); // the next frame re-tests the cursor now that the hold is over
      if (cursor === null) tell(gate.leave(performance.now()));
    }, seconds * 1000 + 20);
  };
  await listen("the bring-back shortcut", () => deps.backend.onInteractive(stayInteractive));
  // Local events: the page sees these while the window takes the mouse.
  document.addEventListener("mousemove", (e) => setCursor({ x: e.clientX, y: e.clientY }));
  document.documentElement.addEventListener("mouseleave", () => setCursor(null));

  return {
    afterRender() {
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
