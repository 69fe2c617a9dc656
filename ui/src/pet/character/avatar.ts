// One loaded character: the VRM with its face, motions, lips and idle life,
// updated once per frame. Implements the director's `Performer`.

import * as THREE from "three";
import { VRMUtils, type VRM, type VRMHumanBoneName } from "@pixiv/three-vrm";
import type { Performer } from "../director";
import { emotionVocabulary, resolveEmotion } from "../expression";
import { LipSync } from "../lipsync";
import { warnOnce } from "../log";
import { resolveMotion, thinkingPose } from "./clips";
import { Face, type Gaze } from "./face";
import { MotionPlayer } from "./motion";
import type { BedFrame } from "../body";
import { addRot, applyPose, breathing, emptyPose, restPose, sway, type Pose } from "./pose";
import { worldBox } from "./stage";

/** The longest spring-bone step, seconds. */
const MAX_SPRING_STEP = 1 / 20;
/** Seconds the thinking pose takes to blend in or out. */
const THINK_FADE = 0.5;

/** What the character is doing, for the frame budget. */
export interface AvatarActivity {
  /** The lips move to speech. */
  speaking: boolean;
  /** An expression (or the gaze) is still changing. */
  crossfading: boolean;
  /** A motion or the thinking pose plays or blends. */
  moving: boolean;
}

/** A VRM brought to life. */
export class Avatar implements Performer {
  readonly face: Face;
  readonly motions: MotionPlayer;
  private readonly lips = new LipSync();
  private readonly managed = new Set<VRMHumanBoneName>();
  private readonly hipsRest: THREE.Vector3;
  private thinkingOn = false;
  private thinkWeight = 0;
  private clock = 0;
  private cursorGaze: Gaze | null = null;
  /** The bed scene's pose now (lying, eyes, stretch), or null standing. */
  private bed: BedFrame | null = null;
  /** The posture layer (sitting, peeking, a gait…) to add this frame, or null. */
  private posture: Pose | null = null;
  /** Her turn about the hips toward where the window goes, radians (+: screen right). */
  private facing = 0;
  /** Height from the head bone to the top of the model, measured once in the rest pose. */
  private headTopOffset = 0.3;
  /** The last cue resolved: what was asked and what is shown. */
  lastResolved: { emotion: string | null; motion: string | null } = { emotion: null, motion: null };

  /** Wrap a loaded `vrm`; `now` is the page clock in ms (blinks, lips). */
  constructor(
    readonly vrm: VRM,
    private readonly now: () => number,
  ) {
    this.face = new Face(vrm, now());
    this.motions = new MotionPlayer(vrm);
    const hips = vrm.humanoid.getNormalizedBoneNode("hips");
    this.hipsRest = hips ? hips.position.clone() : new THREE.Vector3();
    this.pose(0);
    // Settle the springs in the relaxed pose so the hair does not jump on the first frame.
    vrm.update(0);
    vrm.springBoneManager?.setInitState();
    for (let i = 0; i < 30; i++) vrm.update(1 / 60);
  }

  /** The world box of the character in its rest pose, for framing the camera. */
  restBox(): THREE.Box3 {
    return worldBox(this.vrm.scene);
  }

  /** Emotion ids for the vocabulary: neutral plus the presets and custom expressions the model has. */
  emotionIds(): string[] {
    const em = this.vrm.expressionManager;
    return emotionVocabulary(Object.keys(em?.presetExpressionMap ?? {}), Object.keys(em?.customExpressionMap ?? {}));
  }

  /** The bed scene at this frame: how far she lies, eyes, stretch; null when there is none. */
  setBed(frame: BedFrame | null): void {
    const lie = frame && frame.lie > 0 ? frame : null;
    if (lie && !this.bed) this.motions.stop(); // no clip plays while she lies
    this.bed = frame && (frame.lie > 0 || frame.eyesClosed > 0 || frame.stretch > 0) ? frame : null;
    this.face.eyesClosed = this.bed?.eyesClosed ?? 0;
  }

  /**
   * The posture layer from the next frame on (posture.ts's offsets, already
   * mixed, its hips lift in hip heights; null: none) and her facing in
   * radians (+: toward screen right).
   */
  setPosture(layer: Pose | null, facing: number): void {
    this.posture = layer;
    this.facing = facing;
  }

  /** True while she lies (or gets up): cues' motions are dropped. */
  get lying(): boolean {
    return (this.bed?.lie ?? 0) > 0;
  }

  /** Blend the thinking pose in or out. */
  setThinking(on: boolean): void {
    this.thinkingOn = on;
  }

  /** Show the expression a cue's emotion id maps to. */
  setEmotion(id: string): void {
    const r = resolveEmotion(id, this.face.emotionNames);
    if (r.match === "fallback") warnOnce(`emotion:${id}`, `yui: no expression for emotion "${id}"; showing neutral`);
    this.lastResolved = { ...this.lastResolved, emotion: r.expression };
    this.face.setEmotion(r.expression);
  }

  /** Play the clip a cue's motion id names; a missing clip plays idle. */
  playMotion(id: string): void {
    const r = resolveMotion(id, this.motions.userClipIds);
    if (!r.known) warnOnce(`motion:${id}`, `yui: no motion "${id}"; playing idle`);
    this.lastResolved = { ...this.lastResolved, motion: r.id };
    this.motions.play(r.id);
  }

  /** Move the lips to `text` after what is being said. */
  speak(text: string): void {
    this.lips.say(text, this.now());
  }

  /** A mouth level from the sound playing now (0..1). */
  level(value: number): void {
    this.lips.level(value, this.now());
  }

  /** The sound ended (the mouth closes) or was cut (closes now, stale levels ignored). */
  soundStopped(halted: boolean): void {
    if (halted) this.lips.halt();
    else this.lips.soundEnded();
  }

  /** How far the lips open the mouth now, 0..1. */
  mouthOpen(): number {
    return this.lips.openness(this.now());
  }

  /** Back to neutral and idle; `hush` also stops the lips. */
  relax(hush: boolean): void {
    this.face.setEmotion("neutral");
    this.motions.stop();
    if (hush) this.lips.clear();
  }

  /** Turn the eyes (and a little of the head) toward a screen direction; null looks ahead. */
  lookToward(gaze: Gaze | null): void {
    this.cursorGaze = gaze;
  }

  /** What moves now, for the frame budget. */
  activity(): AvatarActivity {
    const settledThink = this.thinkWeight === (this.thinkingOn ? 1 : 0);
    return {
      speaking: this.lips.speaking(this.now()),
      crossfading: this.face.changing,
      moving: this.motions.busy || this.thinkingOn || !settledThink,
    };
  }

  /** Advance `dt` seconds: pose, motions, face, springs. */
  update(dt: number): void {
    this.clock += dt;
    const step = dt / THINK_FADE;
    this.thinkWeight = this.thinkingOn ? Math.min(1, this.thinkWeight + step) : Math.max(0, this.thinkWeight - step);
    const think = this.thinkWeight * this.thinkWeight * (3 - 2 * this.thinkWeight);
    this.pose(dt, think);
    const base: Gaze = this.cursorGaze ?? { yaw: 0, pitch: 0 };
    this.face.lookAt({ yaw: base.yaw * (1 - think) + 14 * think, pitch: base.pitch * (1 - think) - 16 * think });
    const now = this.now();
    this.face.update(dt, now, this.lips.weights(now));
    // Spring bones want small steps: split a long frame (a slow machine, a wake-up).
    const steps = Math.max(1, Math.ceil(dt / MAX_SPRING_STEP));
    this.vrm.update(dt / steps);
    for (let i = 1; i < steps; i++) this.vrm.springBoneManager?.update(dt / steps);
  }

  /** The point over the top of the head, in world space (where the bubble's tail points). */
  headTop(): THREE.Vector3 {
    const head = this.vrm.humanoid.getNormalizedBoneNode("head");
    const p = new THREE.Vector3();
    if (head) head.getWorldPosition(p);
    return p.add(new THREE.Vector3(0, this.headTopOffset, 0));
  }

  /** Measure `headTopOffset` from the rest box. */
  measure(box: THREE.Box3): void {
    const head = this.vrm.humanoid.getNormalizedBoneNode("head");
    if (!head) return;
    const p = head.getWorldPosition(new THREE.Vector3());
    this.headTopOffset = Math.max(0.05, box.max.y - p.y);
  }

  /** Free the GPU resources. */
  dispose(): void {
    this.vrm.scene.removeFromParent();
    VRMUtils.deepDispose(this.vrm.scene);
  }

  /** Compose rest, idle life, thinking and motions, and write them to the bones. */
  private pose(dt: number, think = 0): void {
    const pose = emptyPose();
    restPose(pose);
    const lie = this.bed?.lie ?? 0;
    think *= 1 - lie;
    if (this.bed?.asleep) breathing(pose, this.clock * 0.55, 1.8); // slow, deep sleep breaths
    else breathing(pose, this.clock);
    sway(pose, this.clock, (1 - 0.6 * think) * (1 - lie));
    if (lie > 0) lyingPose(pose, lie);
    if (this.posture && lie < 1) addPose(pose, this.posture, 1 - lie, this.hipsRest.y);
    if (this.facing !== 0) addRot(pose, "hips", 0, this.facing * (1 - lie), 0);
    if (this.bed && this.bed.stretch > 0) stretchPose(pose, this.bed.stretch);
    if (think > 0) thinkingPose(pose, this.clock, think);
    if (this.cursorGaze && think < 1) {
      // The head follows a third of the way the eyes go.
      const k = (1 - think) * THREE.MathUtils.DEG2RAD * 0.35;
      addRot(pose, "head", this.cursorGaze.pitch * k, this.cursorGaze.yaw * k, 0);
    }
    this.motions.update(dt, pose);
    applyPose(this.vrm.humanoid, pose, this.managed, this.hipsRest);
    this.motions.applyVrma();
  }
}

const DEG = Math.PI / 180;

/** Add `w` × every rotation of `layer` into `pose`, and its hips lift, which counts in hip heights (`hipsHeight` m). */
function addPose(pose: Pose, layer: Pose, w: number, hipsHeight: number): void {
  for (const [bone, r] of Object.entries(layer.bones) as [VRMHumanBoneName, [number, number, number]][]) addRot(pose, bone, r[0], r[1], r[2], w);
  pose.hipsLift += layer.hipsLift * w * Math.max(0.1, hipsHeight);
}

/** Lying on her side: knees drawn up a little, hands together before her, head resting. */
function lyingPose(pose: Pose, w: number): void {
  addRot(pose, "leftUpperLeg", -28 * DEG, 0, 0, w);
  addRot(pose, "rightUpperLeg", -34 * DEG, 0, 0, w);
  addRot(pose, "leftLowerLeg", 40 * DEG, 0, 0, w);
  addRot(pose, "rightLowerLeg", 46 * DEG, 0, 0, w);
  addRot(pose, "leftUpperArm", 0, -35 * DEG, 25 * DEG, w);
  addRot(pose, "rightUpperArm", 0, 35 * DEG, -25 * DEG, w);
  addRot(pose, "leftLowerArm", 0, -40 * DEG, 0, w);
  addRot(pose, "rightLowerArm", 0, 40 * DEG, 0, w);
  addRot(pose, "head", 6 * DEG, 0, -8 * DEG, w);
}

/** The waking stretch: arms up over the head, chest back. */
function stretchPose(pose: Pose, w: number): void {
  addRot(pose, "leftUpperArm", 0, 0, 140 * DEG, w);
  addRot(pose, "rightUpperArm", 0, 0, -140 * DEG, w);
  addRot(pose, "leftLowerArm", 0, 20 * DEG, 0, w);
  addRot(pose, "rightLowerArm", 0, -20 * DEG, 0, w);
  addRot(pose, "chest", -8 * DEG, 0, 0, w);
  addRot(pose, "head", -10 * DEG, 0, 0, w);
}
