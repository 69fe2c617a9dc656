// Her body on the page: the character host drawing the VRM, the director
// playing cues, the render loop, her turn toward where the window moves, the
// clip that hides what a peek leaves behind the window, and the "Zz" over her
// head while she sleeps. Each frame poses her from the body slice.

import type { Side } from "../bindings/index";
import { bedAnimating, bedFrame, postureAnimating, type BodySlice } from "./body";
import { Facing, turnsFor } from "./character/facing";
import { CharacterHost } from "./character/host";
import { postureMix } from "./character/posture";
import { Director } from "./director";
import { RenderLoop } from "./loop";
import { clippedAlpha, clipPathCss, peekSpan, type VisibleSpan } from "./peekclip";
import type { PetStore } from "./store";

/** The peek she is in, or null when she is not peeking. */
export const peekOf = (body: BodySlice) => (body.posture === "peeking" ? body.peek : null);

/** The character, its director and the loop that draws them. */
export class Figure {
  readonly host: CharacterHost;
  readonly director: Director;
  readonly loop: RenderLoop;
  /** Her turn toward where the core moves the window. */
  readonly facing = new Facing();
  /** The user holds her (a press on her that may become a drag): keeps her awake. */
  dragging = false;
  /** The pointer is over her or the controls (the click-through knows, once it is wired). */
  pointerOver: () => boolean = () => false;
  /** What the peek leaves visible (null: all of her), and the CSS clip drawn for it. */
  private clip: VisibleSpan | null = null;
  private clipCss = "none";
  /** The side she last peeked out of: a lean fading out keeps its side. */
  private peekSide: Side = "left";

  constructor(
    private readonly canvas: HTMLCanvasElement,
    store: PetStore,
    now: () => number,
  ) {
    this.host = new CharacterHost(canvas, now);
    this.director = new Director(this.host);
    // The "Zz" over her head while she sleeps (no pointer events: not part of the hit test).
    const zz = document.createElement("div");
    zz.className = "zz";
    zz.textContent = "Z z z";
    zz.hidden = true;
    document.body.appendChild(zz);
    const host = this.host;
    this.loop = new RenderLoop({
      frame: (dt, t) => {
        this.director.tick(t);
        const wall = Date.now();
        const bed = bedFrame(store.state.body, wall);
        host.setBed(bed);
        const body = store.state.body;
        const yaw = this.facing.update(window.screenX, dt, turnsFor(body.blend.to));
        this.peekSide = peekOf(body)?.side ?? this.peekSide;
        host.setPosture(body.posture, body.gait, postureMix(body.blend, wall), wall, this.peekSide, yaw);
        this.applyPeekClip(body);
        const activity = host.frame(dt);
        const head = bed.asleep ? host.headPoint() : null;
        zz.hidden = head === null;
        // not-ui-text: a CSS transform
        if (head) zz.style.transform = `translate(${Math.round(head.x - 8)}px, ${Math.round(head.y - 34)}px)`;
        // A move, the user's hold, a posture crossfade or a turn keeps her awake: she never settles mid-move.
        const moving = activity.moving || bedAnimating(body, wall) || postureAnimating(body, wall) || this.facing.turning;
        return { ...activity, moving, dragging: this.dragging, thinking: this.director.thinking, pointerOver: this.pointerOver(), blink: host.nextBlink() };
      },
    });
  }

  /** What the peek leaves visible now, or null. */
  visible(): VisibleSpan | null {
    return this.clip;
  }

  /** The canvas alpha at `p` as the user sees it: what the peek hides is transparent. */
  seenAlpha(p: { x: number; y: number }): number | null {
    return clippedAlpha(p, this.clip, (q) => this.host.alphaAt(q));
  }

  /** Hide what is behind the window she peeks around (a CSS clip: no GL work). */
  private applyPeekClip(body: BodySlice): void {
    this.clip = peekSpan(peekOf(body), window.innerWidth);
    const css = clipPathCss(this.clip, window.innerWidth);
    if (css !== this.clipCss) this.canvas.style.clipPath = this.clipCss = css;
  }
}
