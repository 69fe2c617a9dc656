// The pointer and the window's input: click-through (by the polled pointer,
// or on native Wayland by the drawn shape), her eyes following the cursor,
// and the composer tucking when the pointer comes or goes.

import type { Backend } from "./backend";
import { startClickThrough, type ClickThrough } from "./clickthrough";
import type { ComposerTuck } from "./composer";
import type { Figure } from "./figure";
import type { View } from "./view";

/** Wire click-through for the page; the running controller. */
export async function wirePointer(backend: Backend, view: View, figure: Figure, composer: ComposerTuck): Promise<ClickThrough> {
  const { host, loop } = figure;
  // Native Wayland: no pointer to poll, so the input region follows the drawn shape.
  const byShape = await backend.inputByShape().catch(() => false);
  // There the pointer leaving her hands the keyboard back (no click elsewhere can: she holds it).
  if (byShape) document.documentElement.addEventListener("mouseleave", () => view.blurComposer());
  const click = await startClickThrough({
    backend,
    uiRects: () => view.uiRects(),
    alphaAt: (p) => figure.seenAlpha(p),
    shape: byShape ? { readAll: () => host.readAll(), clip: () => figure.visible() } : undefined,
    wake: () => loop.wake(),
    onCursor: (p) => {
      composer.pointerAt(p !== null && p.x >= 0 && p.y >= 0 && p.x < window.innerWidth && p.y < window.innerHeight);
      host.lookAtPoint(p);
      loop.stir(); // the eyes follow a moving pointer: awake while it moves
    },
  });
  host.afterRender = () => click.afterRender();
  figure.pointerOver = () => click.over;
  return click;
}
