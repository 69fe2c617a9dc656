// The pet's body as the core reports it (`body` events and `body_now` at
// load): her posture, the bed scene's phase, and when (page clock, ms) the
// phase began, so the page can play each phase's clip over its `phase_ms`.
// `bedFrame` turns that into what to draw at a moment: how far she lies, the
// bed's opacity, the eyes, the stretch. The other postures and the gait of a
// move crossfade through `blend` (character/postureblend.ts). Pure: no DOM, no
// three.js.

import type { BedView, Gait, PeekView, PostureState, UiEvent } from "../bindings/index";
import { blending, blendTo, clipMoves, clipOf, initialBlend, type PostureBlend } from "./character/postureblend";

/** A bed fade (after `waking`, or a bed that went away) takes this long, ms. */
export const BED_FADE_MS = 600;
/** `leaving` without a usable `phase_ms`: this long, ms. */
const LEAVING_MS = 600;

/** What the bed scene looks like at one moment. */
export interface BedFrame {
  /** 0 standing .. 1 lying on the bed. */
  lie: number;
  /** The bed's opacity, 0 (none) .. 1. */
  bed: number;
  /** 0 eyes as usual .. 1 closed (the `blink` expression held). */
  eyesClosed: number;
  /** 0..1: the arms-up stretch while waking. */
  stretch: number;
  /** True while she sleeps (slow breathing, the "Zz"). */
  asleep: boolean;
}

/** The body part of the pet's state. */
export interface BodySlice {
  posture: PostureState;
  /** The bed scene, or null: no bed, she stands. */
  bed: BedView | null;
  /** When the current phase (or the bed-less state) began, page ms. */
  since: number;
  /** What was drawn when this phase began: the next clip starts from there. */
  from: BedFrame;
  /** The gait of the move under way, or null when still. */
  gait: Gait | null;
  /** The side (and window edge) she peeks around, or null. */
  peek: PeekView | null;
  /** The posture crossfade (page ms, the same clock as `since`). */
  blend: PostureBlend;
  /** CSS px of her window below the display (her controls are lifted by it); 0 when none. */
  below: number;
}

/** Nothing to draw: standing, no bed. */
export const STANDING: BedFrame = { lie: 0, bed: 0, eyesClosed: 0, stretch: 0, asleep: false };

/** Before any body event: standing, no bed. */
export function initialBody(): BodySlice {
  return { posture: "standing", bed: null, since: Number.NEGATIVE_INFINITY, from: STANDING, gait: null, peek: null, blend: initialBlend(), below: 0 };
}

/** Fold a core event at `now` (page ms); anything but `body` leaves it as it is. */
export function reduceBody(body: BodySlice, event: UiEvent, now: number): BodySlice {
  if (event.type !== "body") return body;
  const bed = event.bed ?? null;
  const gait = event.gait ?? null;
  const peek = event.peek ?? null;
  const below = Math.max(0, event.below ?? 0);
  const samePhase = bed === null ? body.bed === null : body.bed !== null && body.bed.phase === bed.phase;
  const sameMove = body.gait === gait && body.peek?.side === peek?.side && body.peek?.edge === peek?.edge;
  const blend = blendTo(body.blend, clipOf(event.posture, gait), now);
  const moved = { gait: sameMove ? body.gait : gait, peek: sameMove ? body.peek : peek, blend, below };
  if (samePhase) {
    // The same phase again (body_now at load, a repeat): keep its clock.
    return body.posture === event.posture && sameMove && body.below === below && body.bed?.phase_ms === bed?.phase_ms && body.bed?.entry === bed?.entry
      ? body
      : { ...body, ...moved, posture: event.posture, bed };
  }
  return { posture: event.posture, bed, since: now, from: bedFrame(body, now), ...moved };
}

/** True while the posture crossfades or a move (or the user's hold) animates her: the loop must not settle. */
export function postureAnimating(body: BodySlice, now: number): boolean {
  return blending(body.blend, now) || clipMoves(body.blend.to);
}

/** True when a bed scene is shown (the bed counts for touches). */
export function bedShown(body: BodySlice, now: number): boolean {
  return bedFrame(body, now).bed > 0;
}

/** 0..1 progress of `ms` since the phase began. */
function progress(body: BodySlice, now: number, ms: number): number {
  if (!(ms > 0)) return 1;
  return clamp01((now - body.since) / ms);
}

/** Smoothstep easing. */
function ease(t: number): number {
  const c = clamp01(t);
  return c * c * (3 - 2 * c);
}

/** 0 at 0 and 1, 1 at the middle. */
function hump(u: number): number {
  return 4 * u * (1 - u);
}

function clamp01(v: number): number {
  return Math.max(0, Math.min(1, v));
}

function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}

/** What to draw at `now`. */
export function bedFrame(body: BodySlice, now: number): BedFrame {
  const bed = body.bed;
  const from = body.from;
  if (bed === null) {
    // The bed fades; whatever lying is left goes back up as fast.
    const t = progress(body, now, BED_FADE_MS);
    if (t >= 1) return STANDING;
    const k = 1 - ease(t);
    return { lie: from.lie * k, bed: from.bed * k, eyesClosed: from.eyesClosed * k, stretch: 0, asleep: false };
  }
  switch (bed.phase) {
    case "lying_down": {
      const t = progress(body, now, bed.phase_ms);
      return {
        lie: lerp(from.lie, 1, ease(t)),
        // The bed is there before she gets onto it.
        bed: lerp(from.bed, 1, ease(t * 4)),
        eyesClosed: lerp(from.eyesClosed, 1, ease((t - 0.65) / 0.35)),
        stretch: 0,
        asleep: false,
      };
    }
    case "asleep":
      return { lie: 1, bed: 1, eyesClosed: 1, stretch: 0, asleep: true };
    case "waking": {
      const t = progress(body, now, bed.phase_ms);
      // Eyes open, sit up (first half), stretch, stand (the rest).
      return {
        lie: from.lie * (1 - ease(t / 0.8)),
        bed: from.bed,
        eyesClosed: from.eyesClosed * (1 - ease(t / 0.15)),
        stretch: hump(clamp01((t - 0.35) / 0.5)),
        asleep: false,
      };
    }
    case "leaving": {
      const t = progress(body, now, bed.phase_ms > 0 ? bed.phase_ms : LEAVING_MS);
      const k = 1 - ease(t);
      return { lie: from.lie * k, bed: from.bed * k, eyesClosed: from.eyesClosed * k, stretch: 0, asleep: false };
    }
    default: {
      const unknown: never = bed.phase;
      return { ...STANDING, asleep: String(unknown) === "" };
    }
  }
}

/** True while the bed scene still changes at `now` (the loop draws at full rate). */
export function bedAnimating(body: BodySlice, now: number): boolean {
  const a = bedFrame(body, now);
  const b = bedFrame(body, now + 16);
  return a.lie !== b.lie || a.bed !== b.bed || a.eyesClosed !== b.eyesClosed || a.stretch !== b.stretch;
}
