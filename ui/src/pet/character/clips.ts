// The built-in motions, made of code: each samples a pose offset at time t.
// The motion player blends them in and out; the pose adds them to the rest pose.

import { addRot, type Pose } from "./pose";

/** A built-in motion. */
export interface ProceduralClip {
  /** The motion id cues name. */
  id: string;
  /** Length in seconds of one play (a looping clip plays this long per cue). */
  duration: number;
  /** Add the clip's offsets at time `t` (s), scaled by `w`, into `pose`. */
  sample(pose: Pose, t: number, w: number): void;
}

const DEG = Math.PI / 180;

/** One hand up at the side of the head, head tilted toward it, looking up: "hmm…". */
export function thinkingPose(pose: Pose, t: number, w: number): void {
  const drift = Math.sin(t * 1.3) * 0.03;
  const tap = Math.max(0, Math.sin(t * 2.4)) ** 4 * 6 * DEG; // a slow finger tap on the head
  addRot(pose, "rightUpperArm", -28 * DEG, 0, -72 * DEG, w);
  // The elbow bends ahead of the shoulder as the pose blends in (and unbends
  // after it as it blends out), so the hand travels close to the body.
  const elbow = Math.sqrt(w);
  addRot(pose, "rightLowerArm", 0, 20 * DEG, -118 * DEG - tap, elbow);
  addRot(pose, "rightHand", 0, 0, -15 * DEG, elbow);
  addRot(pose, "leftUpperArm", 8 * DEG, 0, 6 * DEG, w);
  addRot(pose, "head", -0.08 + drift * 0.5, 0.1, -0.14 - drift, w);
  addRot(pose, "neck", -0.03, 0.03, -0.05, w);
  addRot(pose, "spine", 0, 0, 0.03, w);
}

/** Raise the right hand and wave it. */
function wave(pose: Pose, t: number, w: number): void {
  const raise = Math.min(1, t / 0.35) * Math.min(1, (2.6 - t) / 0.35);
  const r = Math.max(0, raise) * w;
  const flap = Math.sin(t * 2 * Math.PI * 1.8) * 22 * DEG;
  addRot(pose, "rightUpperArm", -40 * DEG, 0, -118 * DEG, r);
  addRot(pose, "rightLowerArm", 0, 0, -35 * DEG + flap, r);
  addRot(pose, "head", 0, 0.1, -0.1, r);
  addRot(pose, "spine", 0, 0, 0.04, r);
}

/** Two nods. */
function nod(pose: Pose, t: number, w: number): void {
  const n = Math.max(0, Math.sin((t / 0.55) * Math.PI)) ** 1.5;
  addRot(pose, "head", 0.26 * n, 0, 0, w);
  addRot(pose, "neck", 0.1 * n, 0, 0, w);
}

/** Shake the head: no. */
function shake(pose: Pose, t: number, w: number): void {
  const env = Math.sin(Math.min(1, t / 1.4) * Math.PI);
  const s = Math.sin(t * 2 * Math.PI * 2.2) * 0.28 * env;
  addRot(pose, "head", 0.04, s, 0, w);
  addRot(pose, "neck", 0, s * 0.3, 0, w);
}

/** Three little hops. */
function bounce(pose: Pose, t: number, w: number): void {
  const hop = Math.abs(Math.sin((t / 0.45) * Math.PI));
  pose.hipsLift += 0.035 * hop * w;
  addRot(pose, "leftUpperArm", 0, 0, 18 * DEG * hop, w);
  addRot(pose, "rightUpperArm", 0, 0, -18 * DEG * hop, w);
  addRot(pose, "head", -0.05 * hop, 0, 0, w);
}

/** Arms up in joy with a hop and a head tilt. */
function happy(pose: Pose, t: number, w: number): void {
  const lift = Math.min(1, t / 0.3);
  const hop = Math.abs(Math.sin((t / 0.5) * Math.PI));
  pose.hipsLift += 0.025 * hop * w;
  addRot(pose, "leftUpperArm", -15 * DEG * lift, 0, (100 + 8 * hop) * DEG * lift, w);
  addRot(pose, "rightUpperArm", -15 * DEG * lift, 0, -(100 + 8 * hop) * DEG * lift, w);
  addRot(pose, "leftLowerArm", 0, 0, 30 * DEG * lift, w);
  addRot(pose, "rightLowerArm", 0, 0, -30 * DEG * lift, w);
  addRot(pose, "head", -0.06, 0, 0.12 * Math.sin(t * 3), w);
}

/** A polite bow. */
function bow(pose: Pose, t: number, w: number): void {
  const b = Math.sin(Math.min(1, t / 1.8) * Math.PI) ** 0.7;
  addRot(pose, "spine", 0.3 * b, 0, 0, w);
  addRot(pose, "chest", 0.15 * b, 0, 0, w);
  addRot(pose, "head", 0.18 * b, 0, 0, w);
  addRot(pose, "leftUpperArm", -0.2 * b, 0, 0, w);
  addRot(pose, "rightUpperArm", -0.2 * b, 0, 0, w);
}

/** Every built-in motion by id. "idle" adds nothing: it is the breathing rest pose. */
export const BUILTIN_CLIPS: ReadonlyMap<string, ProceduralClip> = new Map(
  [
    { id: "idle", duration: 0, sample: () => {} },
    { id: "thinking", duration: 3.5, sample: thinkingPose },
    { id: "wave", duration: 2.6, sample: wave },
    { id: "nod", duration: 1.2, sample: nod },
    { id: "shake", duration: 1.4, sample: shake },
    { id: "bounce", duration: 1.35, sample: bounce },
    { id: "happy", duration: 2.0, sample: happy },
    { id: "bow", duration: 1.9, sample: bow },
  ].map((c) => [c.id, c] as const),
);

/** The built-in motion ids, for the vocabulary. */
export const BUILTIN_MOTION_IDS: readonly string[] = [...BUILTIN_CLIPS.keys()];

/** The clip to play for a motion cue: built-in, user clip, or idle when neither has it. */
export function resolveMotion(id: string, userClips: Iterable<string>): { id: string; known: boolean } {
  if (BUILTIN_CLIPS.has(id)) return { id, known: true };
  for (const u of userClips) if (u === id) return { id, known: true };
  const lower = id.trim().toLowerCase();
  if (BUILTIN_CLIPS.has(lower)) return { id: lower, known: true };
  return { id: "idle", known: false };
}
