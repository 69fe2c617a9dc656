// Plays motions on a VRM: built-in procedural clips and the user's .vrma
// clips, each faded in and out so the body never snaps. One motion at a time;
// the previous one fades out while the next fades in.

import * as THREE from "three";
import type { VRM, VRMHumanBoneName } from "@pixiv/three-vrm";
import { BUILTIN_CLIPS, type ProceduralClip } from "./clips";
import type { Pose } from "./pose";

/** Seconds a motion takes to blend in. */
const FADE_IN = 0.35;
/** Seconds a motion takes to blend out. */
const FADE_OUT = 0.45;

/** One playing motion. */
interface Layer {
  id: string;
  /** Seconds since it started. */
  time: number;
  /** Its length; it fades out before the end. */
  duration: number;
  /** Its blend weight now (0..1). */
  weight: number;
  /** Fading out (replaced or stopped). */
  leaving: boolean;
  /** A built-in clip. */
  procedural?: ProceduralClip;
  /** A user clip, played through the mixer. */
  vrma?: THREE.AnimationAction;
}

/** The motion player of one VRM. */
export class MotionPlayer {
  private layers: Layer[] = [];
  private readonly userClips = new Map<string, THREE.AnimationClip>();
  private readonly mixer: THREE.AnimationMixer;
  private readonly saved = new Map<THREE.Object3D, { q: THREE.Quaternion; p: THREE.Vector3 }>();

  /** A player for `vrm`. */
  constructor(private readonly vrm: VRM) {
    this.mixer = new THREE.AnimationMixer(vrm.scene);
  }

  /** Make a user clip playable under `id`. */
  addUserClip(id: string, clip: THREE.AnimationClip): void {
    this.userClips.set(id, clip);
  }

  /** The user clip ids loaded so far. */
  get userClipIds(): string[] {
    return [...this.userClips.keys()];
  }

  /** True while any motion is playing or blending. */
  get busy(): boolean {
    return this.layers.length > 0;
  }

  /** Play `id` (already resolved: a built-in or a loaded user clip); "idle" fades everything out. */
  play(id: string): void {
    for (const l of this.layers) l.leaving = true;
    if (id === "idle") return;
    const procedural = BUILTIN_CLIPS.get(id);
    if (procedural) {
      this.layers.push({ id, time: 0, duration: procedural.duration, weight: 0, leaving: false, procedural });
      return;
    }
    const clip = this.userClips.get(id);
    if (!clip) return;
    // Only one .vrma at a time: the mixer drives the bones directly.
    this.layers = this.layers.filter((l) => !l.vrma || this.dropVrma(l));
    const action = this.mixer.clipAction(clip);
    action.reset().setLoop(THREE.LoopOnce, 1).play();
    action.clampWhenFinished = true;
    this.layers.push({ id, time: 0, duration: Math.max(clip.duration, 0.5), weight: 0, leaving: false, vrma: action });
  }

  /** Fade every motion out (back to idle). */
  stop(): void {
    this.play("idle");
  }

  /** Advance `dt` seconds and add the procedural motions into `pose`. */
  update(dt: number, pose: Pose): void {
    for (const l of this.layers) {
      l.time += dt;
      const ending = l.time >= l.duration - FADE_OUT;
      if (l.leaving || ending) l.weight = Math.max(0, l.weight - dt / FADE_OUT);
      else l.weight = Math.min(1, l.weight + dt / FADE_IN);
    }
    this.layers = this.layers.filter((l) => {
      const done = l.weight <= 0 && (l.leaving || l.time >= l.duration - FADE_OUT);
      if (done && l.vrma) this.dropVrma(l);
      return !done;
    });
    for (const l of this.layers) {
      if (!l.procedural) continue;
      l.procedural.sample(pose, Math.min(l.time, l.duration), smooth(l.weight));
    }
  }

  /**
   * After the procedural pose is on the bones: blend the .vrma clip on top by
   * its weight (slerp from the procedural pose to the clip's pose).
   */
  applyVrma(): void {
    const layer = this.layers.find((l) => l.vrma);
    if (!layer?.vrma) return;
    const w = smooth(layer.weight);
    const humanoid = this.vrm.humanoid;
    this.saved.clear();
    for (const bone of Object.keys(humanoid.humanBones) as VRMHumanBoneName[]) {
      const node = humanoid.getNormalizedBoneNode(bone);
      if (node) this.saved.set(node, { q: node.quaternion.clone(), p: node.position.clone() });
    }
    layer.vrma.time = Math.min(layer.time, layer.duration);
    this.mixer.update(0);
    for (const [node, s] of this.saved) {
      node.quaternion.copy(s.q.slerp(node.quaternion, w));
      node.position.copy(s.p.lerp(node.position, w));
    }
  }

  /** Stop a .vrma layer's action; returns false so it can drive a filter. */
  private dropVrma(l: Layer): boolean {
    l.vrma?.stop();
    return false;
  }
}

/** Smooth 0→1 ramp for blend weights. */
function smooth(x: number): number {
  const t = Math.min(1, Math.max(0, x));
  return t * t * (3 - 2 * t);
}
