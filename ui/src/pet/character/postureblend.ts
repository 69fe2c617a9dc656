// Which posture clip is drawn and the crossfade between them: the core's
// posture and gait name a clip; a change fades from the mix drawn at that
// moment to the new clip over POSTURE_FADE_MS (like the bed scene's `from`).
// Pure: no DOM, no three.js (the body slice keeps a blend).

import type { Gait, PostureState } from "../../bindings/index";

/** How long a change of posture takes to crossfade, ms. */
export const POSTURE_FADE_MS = 250;

/**
 * What is drawn: a still posture, or the gait of a move under way (a gait
 * wins over the posture it comes with). "stand" adds nothing (lying is the
 * bed scene's, drawn by the bed).
 */
export type PostureClip = "stand" | "sit" | "peek" | "drag" | "walk" | "climb" | "hop" | "fall";

/** The clip the core's posture and gait draw as. */
export function clipOf(posture: PostureState, gait: Gait | null): PostureClip {
  if (gait) return gait;
  switch (posture) {
    case "sitting":
      return "sit";
    case "peeking":
      return "peek";
    case "dragging":
      return "drag";
    case "walking":
      return "walk";
    case "climbing":
      return "climb";
    case "standing":
    case "lying":
      return "stand";
    default: {
      const unknown: never = posture;
      void unknown;
      return "stand";
    }
  }
}

/** One clip in the mix: when it began (page ms, its own clock) and how much of it shows. */
export interface ClipWeight {
  clip: PostureClip;
  since: number;
  weight: number;
}

/** The posture crossfade: what showed when the change came (`from`) and the clip it goes to. */
export interface PostureBlend {
  to: PostureClip;
  /** When `to` began, page ms. */
  since: number;
  /** The mix drawn at `since`; weights sum to 1. */
  from: ClipWeight[];
}

/** Standing still, for ever. */
export function initialBlend(): PostureBlend {
  return { to: "stand", since: Number.NEGATIVE_INFINITY, from: [] };
}

/** Go to `clip` at `now`, starting from what `blend` draws then; unchanged when it is already the target. */
export function blendTo(blend: PostureBlend, clip: PostureClip, now: number): PostureBlend {
  if (blend.to === clip) return blend;
  return { to: clip, since: now, from: postureMix(blend, now) };
}

/** Smoothstep. */
export function ease(t: number): number {
  const c = Math.max(0, Math.min(1, t));
  return c * c * (3 - 2 * c);
}

/** The clips drawn at `now` and their weights (sum 1); the old ones fade out as the new one fades in. */
export function postureMix(blend: PostureBlend, now: number): ClipWeight[] {
  const k = ease((now - blend.since) / POSTURE_FADE_MS);
  const out: ClipWeight[] = [];
  if (k < 1) for (const f of blend.from) if (f.clip !== blend.to && f.weight > 0) out.push({ ...f, weight: f.weight * (1 - k) });
  // The target's own weight in `from` (a change back mid-fade) keeps going.
  const kept = k < 1 ? (blend.from.find((f) => f.clip === blend.to)?.weight ?? 0) * (1 - k) : 0;
  out.push({ clip: blend.to, since: blend.since, weight: k + kept });
  return out;
}

/** True while the crossfade still runs at `now`. */
export function blending(blend: PostureBlend, now: number): boolean {
  return now - blend.since < POSTURE_FADE_MS;
}

/** True when the clip moves on its own (a gait, or being held): the loop must not settle. */
export function clipMoves(clip: PostureClip): boolean {
  return clip === "walk" || clip === "climb" || clip === "hop" || clip === "fall" || clip === "drag";
}

/**
 * True when a cue's motion clip may play: she stands still (or lies, where
 * the bed scene drops them itself). Not while she sits, peeks, is held, or a
 * move (a gait) is under way: the clips are made for standing.
 */
export function motionsAllowed(posture: PostureState, gait: Gait | null): boolean {
  return gait === null && (posture === "standing" || posture === "lying");
}
