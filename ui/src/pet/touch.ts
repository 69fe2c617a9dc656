// Touching the pet, pure: a press that moves is a drag, one that does not is
// a click (a poke at the body part nearest the pointer, or the bed); the
// pointer stroking her head to and fro without a button is a head pat.

import type { Touch } from "../bindings/index";
import type { Point } from "./hittest";

/** A press must move this far (CSS px) to become a drag. */
export const DRAG_THRESHOLD_PX = 4;
/** A head pat: this many horizontal direction reversals… */
export const PAT_REVERSALS = 3;
/** …within this window (ms)… */
export const PAT_WINDOW_MS = 1500;
/** …then no pat for this long (ms). */
export const PAT_COOLDOWN_MS = 3000;
/** Movements shorter than this (px) do not count as a direction. */
const PAT_JITTER_PX = 2;
/** While the bed shows, a click farther than this (px) from every bone is on the bed. */
export const BED_CLICK_PX = 40;

/** The body regions a poke names. */
export type Region = "head" | "chest" | "arm" | "legs";

/** The region of a VRM humanoid bone, or null for bones that do not count (eyes, fingers' tips are arms). */
export function regionOfBone(bone: string): Region | null {
  if (bone === "head" || bone === "neck" || bone === "jaw") return "head";
  if (bone === "upperChest" || bone === "chest" || bone === "spine") return "chest";
  if (/^(left|right)(Shoulder|UpperArm|LowerArm|Hand)$/.test(bone) || /^(left|right)(Thumb|Index|Middle|Ring|Little)/.test(bone)) return "arm";
  if (bone === "hips" || /^(left|right)(UpperLeg|LowerLeg|Foot|Toes)$/.test(bone)) return "legs";
  return null;
}

/** A bone projected to the window: its joint, and where it ends (its child joint) when known. */
export interface BonePoint {
  bone: string;
  point: Point;
  /** The far end of the bone (the next joint down the chain), if any: the bone then counts as a segment. */
  end?: Point;
}

/** Distance from `p` to the segment `a`–`b` (or to `a` when there is no `b`). */
export function distanceToBone(p: Point, a: Point, b?: Point): number {
  if (!b) return Math.hypot(p.x - a.x, p.y - a.y);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** The region nearest `p` and how far its bone is, or null when no bone counts. */
export function nearestRegion(p: Point, bones: readonly BonePoint[]): { region: Region; distance: number } | null {
  let best: { region: Region; distance: number } | null = null;
  for (const b of bones) {
    const region = regionOfBone(b.bone);
    if (!region) continue;
    const distance = distanceToBone(p, b.point, b.end);
    if (!best || distance < best.distance) best = { region, distance };
  }
  return best;
}

/** Without the head top: how near (px) the head bone the pointer must be for strokes to count as on the head. */
export const HEAD_REACH_PX = 70;

/**
 * True when `p` is over her head: the head region is nearest, and `p` lies
 * within the circle from the head bone to the top of the head (`headTop`,
 * with some slack), or within `HEAD_REACH_PX` of the head bone without it.
 */
export function onHead(p: Point, bones: readonly BonePoint[], headTop: Point | null = null): boolean {
  const near = nearestRegion(p, bones);
  if (near === null || near.region !== "head") return false;
  const head = bones.find((b) => b.bone === "head")?.point;
  if (!head || !headTop) return near.distance <= HEAD_REACH_PX;
  const centre = { x: (head.x + headTop.x) / 2, y: (head.y + headTop.y) / 2 };
  const radius = Math.hypot(headTop.x - head.x, headTop.y - head.y) * 0.75 + 10;
  return Math.hypot(p.x - centre.x, p.y - centre.y) <= radius;
}

/** What a click at `p` touches: the nearest body part, or the bed when one shows and she is not near. */
export function clickTouch(p: Point, bones: readonly BonePoint[], bedShown: boolean): Touch | null {
  const near = nearestRegion(p, bones);
  if (bedShown && (!near || near.distance > BED_CLICK_PX)) return { kind: "bed" };
  return near ? { kind: "poke", region: near.region } : null;
}

/** One press on the pet: a drag once it moves far enough, else a click on release. */
export class Press {
  private dragged = false;

  /** Pressed at `at`. */
  constructor(readonly at: Point) {}

  /** The pointer moved to `p` with the button held: true once (the moment it becomes a drag). */
  move(p: Point): boolean {
    if (this.dragged) return false;
    if (Math.hypot(p.x - this.at.x, p.y - this.at.y) <= DRAG_THRESHOLD_PX) return false;
    this.dragged = true;
    return true;
  }

  /** Released: true for a click (it never became a drag). */
  release(): boolean {
    return !this.dragged;
  }

  /** True once it became a drag. */
  get dragging(): boolean {
    return this.dragged;
  }
}

/** Spots a head pat in the pointer's moves over the head (no button held). */
export class HeadPat {
  private lastX: number | null = null;
  private dir = 0;
  private reversals: number[] = [];
  private quietUntil = Number.NEGATIVE_INFINITY;

  /** The pointer is at `x` at `nowMs`, over the head (`onHead`) or not. True when this move completes a pat. */
  move(x: number, nowMs: number, onHead: boolean): boolean {
    if (!onHead || nowMs < this.quietUntil) {
      this.reset();
      return false;
    }
    if (this.lastX === null) {
      this.lastX = x;
      return false;
    }
    const dx = x - this.lastX;
    if (Math.abs(dx) < PAT_JITTER_PX) return false;
    this.lastX = x;
    const dir = Math.sign(dx);
    if (this.dir !== 0 && dir !== this.dir) this.reversals.push(nowMs);
    this.dir = dir;
    this.reversals = this.reversals.filter((t) => nowMs - t <= PAT_WINDOW_MS);
    if (this.reversals.length < PAT_REVERSALS) return false;
    this.reset();
    this.quietUntil = nowMs + PAT_COOLDOWN_MS;
    return true;
  }

  /** Forget the strokes so far (the pointer left the head, a button went down). */
  reset(): void {
    this.lastX = null;
    this.dir = 0;
    this.reversals = [];
  }
}
