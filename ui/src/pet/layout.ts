// The page's layout: the character between the pill and the dock, and the
// bubble kept inside them and anchored over her head; again on every resize
// and whenever a notice or the row under the pill changes the room.

import type { Figure } from "./figure";
import type { View } from "./view";

/** Lay the page out now and on resize; returns the function that lays it out again. */
export function wireLayout(view: View, figure: Figure): () => void {
  const { host, loop } = figure;
  host.onAnchor = (p) => view.bubble.setAnchor(p);
  const layout = () => {
    const h = window.innerHeight;
    const bottom = view.dockTop() - 4;
    const top = Math.max(view.pillBottom() + 8, bottom - Math.round(h * 0.56));
    host.layout(window.innerWidth, h, { top, bottom, side: 14 });
    view.bubble.setLimits({ minTop: view.pillBottom() + 6, maxBottom: view.dockTop() - 8 });
    loop.wake();
  };
  window.addEventListener("resize", layout);
  layout();
  return layout;
}
