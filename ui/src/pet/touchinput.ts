// Touching her: a press on her opaque pixels (or the bed's) that moves drags
// the window; one that does not is a click (a poke, or the bed while it
// shows). Stroking her head to and fro with no button pressed is a head pat.
// The gestures are in `touch.ts`; this wires them to the mouse and the core.

import type { DragPhase, Touch } from "../bindings/index";
import type { Sender } from "./actions";
import { bedShown } from "./body";
import type { Figure } from "./figure";
import { alphaHit } from "./hittest";
import type { PetStore } from "./store";
import { clickTouch, HeadPat, onHead, Press } from "./touch";

/** The user's hold on her, as the rest of the page asks about it. */
export interface Holding {
  /** True while a press on her has become a drag. */
  dragging(): boolean;
}

/** Listen for presses, drags, clicks and head pats on `canvas`. */
export function wireTouch(canvas: HTMLCanvasElement, figure: Figure, store: PetStore, sender: Sender): Holding {
  const { host, loop } = figure;
  let press: Press | null = null;
  const pat = new HeadPat();
  const sendTouch = (touch: Touch) => void sender.sendQuiet({ type: "touch", touch });
  /** The hold, with the pointer's page point (the core's fallback where the desktop has no global pointer). */
  const sendDrag = (phase: DragPhase, p: { x: number; y: number } | null = null) =>
    void sender.sendQuiet({ type: "drag", phase, ...(p ? { at: { x: Math.round(p.x), y: Math.round(p.y) } } : {}) });
  canvas.addEventListener("mousedown", (e) => {
    if (e.button !== 0) return;
    pat.reset();
    loop.drawNow();
    if (!alphaHit(figure.seenAlpha({ x: e.clientX, y: e.clientY }))) return;
    press = new Press({ x: e.clientX, y: e.clientY });
    figure.dragging = true;
    loop.wake();
  });
  window.addEventListener("mousemove", (e) => {
    const p = { x: e.clientX, y: e.clientY };
    if (press && e.buttons & 1) {
      // The core holds her and places the window under the pointer it reads itself.
      if (press.move(p)) sendDrag("start", press.at);
      else if (press.dragging) sendDrag("move", p);
      return;
    }
    if (e.buttons !== 0) return;
    if (pat.move(p.x, performance.now(), onHead(p, host.bonePoints(), host.headPoint()))) sendTouch({ kind: "head_pat" });
  });
  window.addEventListener("mouseup", (e) => {
    const done = press;
    press = null;
    figure.dragging = false;
    if (done?.dragging) sendDrag("end", { x: e.clientX, y: e.clientY });
    if (!done || e.button !== 0 || !done.release()) return;
    const touch = clickTouch(done.at, host.bonePoints(), bedShown(store.state.body, Date.now()));
    if (touch) sendTouch(touch);
  });
  window.addEventListener("blur", () => {
    if (press?.dragging) sendDrag("end");
    press = null;
    figure.dragging = false;
  });
  return { dragging: () => press?.dragging === true };
}
