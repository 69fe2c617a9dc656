// The postures the core's posture machine puts her in, drawn as procedural
// pose offsets on top of the rest pose: sitting on a window's top edge,
// peeking around a side, held up by the user, and the gaits of a move (walk,
// climb, hop, fall). The page decides nothing: it draws what the `body` event
// says, crossfading from what was drawn before (postureblend.ts). Pure: no
// DOM, no scene.
//
// Axes (normalized VRM bones, she faces +Z, her left is +X = screen right):
// +X on a leg swings it back (−X forward), +X on a lower leg bends the knee;
// +X on the spine bows; +Z on the spine leans toward screen left; +Z raises
// the left arm and −Z the right one; +X on an upper arm swings it back.
// `hipsLift` here counts in standing hip heights (the avatar scales it by its
// model's), so a crouch keeps the feet on the floor whatever her size.

import type { Gait, PeekView, PostureState, Side } from "../../bindings/index";
import { addRot, type Pose } from "./pose";
import { ease, type ClipWeight, type PostureClip } from "./postureblend";

export { blending, blendTo, clipMoves, clipOf, initialBlend, motionsAllowed, POSTURE_FADE_MS, postureMix } from "./postureblend";
export type { ClipWeight, PostureBlend, PostureClip } from "./postureblend";

/** Walk cycle, strides a second. */
export const WALK_HZ = 1.8;
/** Climb cycle, reaches a second. */
const CLIMB_HZ = 1.3;
/** The hop's crouch, seconds: then she tucks. */
const HOP_CROUCH_S = 0.18;

const DEG = Math.PI / 180;

/** Add `weight` × clip `clip` at `t` seconds into it (`side`: where she peeks) into `pose`. */
export function postureOffsets(pose: Pose, clip: PostureClip, t: number, weight: number, side: Side = "left"): void {
  if (weight <= 0) return;
  switch (clip) {
    case "stand":
      return;
    case "sit":
      return sitting(pose, t, weight);
    case "peek":
      return peeking(pose, t, weight, side);
    case "drag":
      return dragging(pose, t, weight);
    case "walk":
      return walking(pose, t, weight);
    case "climb":
      return climbing(pose, t, weight);
    case "hop":
      return hopping(pose, t, weight);
    case "fall":
      return falling(pose, t, weight);
  }
}

/** Add the whole mix at `now` (page ms) into `pose`. */
export function addPostureMix(pose: Pose, mix: readonly ClipWeight[], now: number, side: Side = "left"): void {
  for (const c of mix) postureOffsets(pose, c.clip, Math.max(0, (now - c.since) / 1000), c.weight, side);
}

/**
 * Sitting on an edge at her hips (the hips stay where they are standing: the
 * core put the edge there): thighs forward, shins hanging, hands on the edge
 * beside the hips, leaning back a little; the legs swing slowly.
 */
function sitting(pose: Pose, t: number, w: number): void {
  const swing = 6 * DEG * Math.sin(t * 2 * Math.PI * 0.35);
  addRot(pose, "leftUpperLeg", -84 * DEG, 0, 2 * DEG, w);
  addRot(pose, "rightUpperLeg", -84 * DEG, 0, -2 * DEG, w);
  addRot(pose, "leftLowerLeg", 80 * DEG + swing, 0, 0, w);
  addRot(pose, "rightLowerLeg", 80 * DEG - swing, 0, 0, w);
  addRot(pose, "leftFoot", 10 * DEG, 0, 0, w);
  addRot(pose, "rightFoot", 10 * DEG, 0, 0, w);
  // Hands back and out a little, beside the hips, on the edge.
  addRot(pose, "leftUpperArm", 18 * DEG, 0, 8 * DEG, w);
  addRot(pose, "rightUpperArm", 18 * DEG, 0, -8 * DEG, w);
  addRot(pose, "leftLowerArm", 0, 8 * DEG, 0, w);
  addRot(pose, "rightLowerArm", 0, -8 * DEG, 0, w);
  addRot(pose, "leftHand", 0, 0, 20 * DEG, w);
  addRot(pose, "rightHand", 0, 0, -20 * DEG, w);
  addRot(pose, "spine", -6 * DEG, 0, 0, w);
  addRot(pose, "head", 4 * DEG, 0, 0, w);
}

/** ±1 toward the peek side: +1 leans to screen left (her right). */
function toward(side: Side): number {
  return side === "left" ? 1 : -1;
}

/**
 * Peeking out of the window's `side`: torso and head lean out about 20°,
 * the head turned a little the same way, the near hand on the edge.
 */
function peeking(pose: Pose, t: number, w: number, side: Side): void {
  const s = toward(side);
  const bob = 1.5 * DEG * Math.sin(t * 2 * Math.PI * 0.4);
  addRot(pose, "spine", 0, 0, s * 9 * DEG, w);
  addRot(pose, "chest", 0, 0, s * 6 * DEG, w);
  addRot(pose, "neck", 0, 0, s * 2 * DEG, w);
  addRot(pose, "head", 0, -s * 8 * DEG, s * (5 * DEG + bob), w);
  // The hand on the peek side (her right when it is the screen's left) holds the edge at chest height.
  const arm = side === "left" ? "rightUpperArm" : "leftUpperArm";
  const fore = side === "left" ? "rightLowerArm" : "leftLowerArm";
  addRot(pose, arm, -35 * DEG, 0, -s * 50 * DEG, w);
  addRot(pose, fore, 0, s * 25 * DEG, -s * 55 * DEG, w);
}

/** Held up: legs dangling and swaying loosely, arms a little out. */
function dragging(pose: Pose, t: number, w: number): void {
  const a = Math.sin(t * 2 * Math.PI * 0.9);
  const b = Math.sin(t * 2 * Math.PI * 0.9 - 0.9); // the shins lag the thighs
  addRot(pose, "leftUpperLeg", (-6 + 9 * a) * DEG, 0, 3 * DEG, w);
  addRot(pose, "rightUpperLeg", (-4 - 9 * a) * DEG, 0, -3 * DEG, w);
  addRot(pose, "leftLowerLeg", (16 + 8 * b) * DEG, 0, 0, w);
  addRot(pose, "rightLowerLeg", (20 - 8 * b) * DEG, 0, 0, w);
  addRot(pose, "leftFoot", 15 * DEG, 0, 0, w);
  addRot(pose, "rightFoot", 15 * DEG, 0, 0, w);
  addRot(pose, "leftUpperArm", 0, 0, (28 + 4 * b) * DEG, w);
  addRot(pose, "rightUpperArm", 0, 0, -(28 + 4 * b) * DEG, w);
  addRot(pose, "leftLowerArm", 0, -15 * DEG, 0, w);
  addRot(pose, "rightLowerArm", 0, 15 * DEG, 0, w);
  addRot(pose, "spine", 0, 0, 2 * DEG * a, w);
}

/**
 * The walk cycle: legs swing ±25°, the swinging knee bends, arms swing
 * against the legs; the hips dip as the legs spread so the feet stay down.
 */
function walking(pose: Pose, t: number, w: number): void {
  const p = t * 2 * Math.PI * WALK_HZ;
  const s = Math.sin(p);
  addRot(pose, "leftUpperLeg", -25 * DEG * s, 0, 0, w);
  addRot(pose, "rightUpperLeg", 25 * DEG * s, 0, 0, w);
  addRot(pose, "leftLowerLeg", 35 * DEG * Math.max(0, Math.sin(p + 0.6)), 0, 0, w);
  addRot(pose, "rightLowerLeg", 35 * DEG * Math.max(0, -Math.sin(p + 0.6)), 0, 0, w);
  addRot(pose, "leftUpperArm", 20 * DEG * s, 0, 0, w);
  addRot(pose, "rightUpperArm", -20 * DEG * s, 0, 0, w);
  addRot(pose, "leftLowerArm", 0, -10 * DEG, 0, w);
  addRot(pose, "rightLowerArm", 0, 10 * DEG, 0, w);
  addRot(pose, "spine", 3 * DEG, 5 * DEG * s, 0, w);
  pose.hipsLift -= 0.08 * Math.abs(s) * w;
}

/** Climbing: arms reach up in turn, knees come up in turn (the opposite knee to the reaching arm). */
function climbing(pose: Pose, t: number, w: number): void {
  const p = t * 2 * Math.PI * CLIMB_HZ;
  const l = 0.5 + 0.5 * Math.sin(p); // 1: left arm up, right knee up
  const r = 1 - l;
  addRot(pose, "leftUpperArm", -20 * DEG, 0, (110 + 40 * l) * DEG, w);
  addRot(pose, "rightUpperArm", -20 * DEG, 0, -(110 + 40 * r) * DEG, w);
  addRot(pose, "leftLowerArm", 0, 0, 30 * DEG * r, w);
  addRot(pose, "rightLowerArm", 0, 0, -30 * DEG * l, w);
  addRot(pose, "leftUpperLeg", -(15 + 55 * r) * DEG, 0, 0, w);
  addRot(pose, "rightUpperLeg", -(15 + 55 * l) * DEG, 0, 0, w);
  addRot(pose, "leftLowerLeg", (20 + 60 * r) * DEG, 0, 0, w);
  addRot(pose, "rightLowerLeg", (20 + 60 * l) * DEG, 0, 0, w);
  addRot(pose, "head", -10 * DEG, 0, 0, w);
}

/** A hop: a quick crouch (knees bend, hips down, arms back), then tucked in the air (knees up, arms forward). */
function hopping(pose: Pose, t: number, w: number): void {
  const crouch = t < HOP_CROUCH_S ? Math.sin((t / HOP_CROUCH_S) * (Math.PI / 2)) : Math.max(0, 1 - (t - HOP_CROUCH_S) / 0.08);
  const tuck = ease((t - HOP_CROUCH_S) / 0.12);
  for (const [leg, shin] of [
    ["leftUpperLeg", "leftLowerLeg"],
    ["rightUpperLeg", "rightLowerLeg"],
  ] as const) {
    addRot(pose, leg, (-35 * crouch - 60 * tuck) * DEG, 0, 0, w);
    addRot(pose, shin, (65 * crouch + 95 * tuck) * DEG, 0, 0, w);
  }
  addRot(pose, "spine", 18 * DEG * crouch + 8 * DEG * tuck, 0, 0, w);
  addRot(pose, "leftUpperArm", (25 * crouch - 45 * tuck) * DEG, 0, 20 * DEG * tuck, w);
  addRot(pose, "rightUpperArm", (25 * crouch - 45 * tuck) * DEG, 0, -20 * DEG * tuck, w);
  pose.hipsLift -= 0.16 * crouch * w; // the bent legs' rise: the feet stay on the floor
}

/** Falling: arms up, legs apart, a little flail. */
function falling(pose: Pose, t: number, w: number): void {
  const f = Math.sin(t * 2 * Math.PI * 3);
  addRot(pose, "leftUpperArm", 0, 0, (120 + 8 * f) * DEG, w);
  addRot(pose, "rightUpperArm", 0, 0, -(120 - 8 * f) * DEG, w);
  addRot(pose, "leftLowerArm", 0, 0, 15 * DEG, w);
  addRot(pose, "rightLowerArm", 0, 0, -15 * DEG, w);
  addRot(pose, "leftUpperLeg", -10 * DEG, 0, (20 + 4 * f) * DEG, w);
  addRot(pose, "rightUpperLeg", -10 * DEG, 0, -(20 + 4 * f) * DEG, w);
  addRot(pose, "leftLowerLeg", 25 * DEG, 0, 0, w);
  addRot(pose, "rightLowerLeg", 25 * DEG, 0, 0, w);
  addRot(pose, "head", -8 * DEG, 0, 0, w);
}

/** What the page draws of the body now (the test hook's `pose()`). */
export interface PostureView {
  posture: PostureState;
  gait: Gait | null;
  peek: PeekView | null;
  /** The clip she goes to (or shows). */
  clip: PostureClip;
  /** Her turn toward where the window goes, degrees (+: toward screen right). */
  facing: number;
}
