// The character on the page: the stage, the loaded avatar (swapped when the
// character changes), the camera framing and the per-frame update. Cues that
// arrive before a model is loaded are kept and applied once it is.

import * as THREE from "three";
import type { VRMHumanBoneName } from "@pixiv/three-vrm";
import type { Performer } from "../director";
import type { BlinkWindow } from "../blink";
import type { Point, Rect } from "../hittest";
import { warnOnce } from "../log";
import type { Gait, PostureState, Side } from "../../bindings/index";
import type { BedFrame } from "../body";
import type { BonePoint } from "../touch";
import { Avatar, type AvatarActivity } from "./avatar";
import { Bed, blendBox, placeRoot } from "./bed";
import { BUILTIN_MOTION_IDS } from "./clips";
import type { Gaze } from "./face";
import { loadVrm, loadVrmaClip } from "./loader";
import { emptyPose } from "./pose";
import { addPostureMix, motionsAllowed, type ClipWeight } from "./posture";
import { Stage, type StageRegion } from "./stage";

/** Where the character's bytes come from. */
export interface CharacterSource {
  /** The VRM bytes to show. */
  character(): Promise<ArrayBuffer>;
  /** The bytes of user clip `id`. */
  motion(id: string): Promise<ArrayBuffer>;
}

/** What the host reports after a load. */
export interface LoadedCharacter {
  /** Emotion ids the model can show. */
  emotionIds: string[];
  /** Motion ids it can play: built-in and the user clips that loaded. */
  motionIds: string[];
}

/** The stage and whatever avatar stands on it. */
export class CharacterHost implements Performer {
  /** The 3D stage, or null when the webview has no WebGL (the page then works without her). */
  readonly stage: Stage | null;
  private avatar: Avatar | null = null;
  private region: StageRegion = { top: 150, bottom: 460, side: 12 };
  private restBox: THREE.Box3 | null = null;
  private anchor: Point | null = null;
  private bed: Bed | null = null;
  private bedFrame: BedFrame | null = null;
  /** The core's posture: cues' motions wait while she sits, peeks, is held or moves. */
  private stillForClips = true;
  private readonly frameBox = new THREE.Box3();
  private rendered = false;
  private loads = 0;
  // What the director asked for, replayed onto a freshly loaded avatar.
  private thinking = false;
  private emotion: string | null = null;
  private gaze: Gaze | null = null;
  /** Called after every drawn frame, while the pixels can still be read. */
  afterRender: (() => void) | null = null;
  /** Called when the bubble anchor (top of the head on screen) moves. */
  onAnchor: ((p: Point) => void) | null = null;

  /** Draw on `canvas`. */
  constructor(
    canvas: HTMLCanvasElement,
    private readonly now: () => number,
  ) {
    let stage: Stage | null = null;
    try {
      stage = new Stage(canvas);
    } catch (err) {
      console.error("yui: no WebGL; the character cannot be drawn", err);
    }
    this.stage = stage;
  }

  /** True once a model is loaded and a frame of it drawn. */
  get ready(): boolean {
    return this.avatar !== null && this.rendered;
  }

  /** Resize to the window and keep the character inside `region`. */
  layout(width: number, height: number, region: StageRegion): void {
    this.stage?.resize(width, height);
    this.region = region;
    this.reframe();
  }

  /** Load a character (and its user clips), replacing the one shown; null when a later load overtook it. */
  async load(source: CharacterSource, userMotions: string[]): Promise<LoadedCharacter | null> {
    const stage = this.stage;
    if (!stage) return null;
    const seq = ++this.loads;
    const vrm = await loadVrm(await source.character());
    const avatar = new Avatar(vrm, this.now);
    const loaded: string[] = [];
    for (const id of userMotions) {
      try {
        avatar.motions.addUserClip(id, await loadVrmaClip(await source.motion(id), vrm, id));
        loaded.push(id);
      } catch (err) {
        warnOnce(`vrma:${id}`, `yui: motion ${id} did not load: ${String(err)}`);
      }
    }
    if (seq !== this.loads) {
      avatar.dispose(); // a newer load started meanwhile: it wins
      return null;
    }
    this.avatar?.dispose();
    this.bed?.dispose();
    this.avatar = avatar;
    this.rendered = false;
    stage.scene.add(vrm.scene);
    this.restBox = avatar.restBox();
    avatar.measure(this.restBox);
    this.bed = new Bed(this.restBox);
    stage.scene.add(this.bed.group);
    this.applyBed();
    avatar.setThinking(this.thinking);
    if (this.emotion) avatar.setEmotion(this.emotion);
    avatar.lookToward(this.gaze);
    this.reframe();
    return {
      emotionIds: avatar.emotionIds(),
      motionIds: [...BUILTIN_MOTION_IDS, ...loaded.filter((id) => !BUILTIN_MOTION_IDS.includes(id))],
    };
  }

  /** Performer: thinking pose on or off. */
  setThinking(on: boolean): void {
    this.thinking = on;
    this.avatar?.setThinking(on);
  }

  /** Performer: show an emotion. */
  setEmotion(id: string): void {
    this.emotion = id;
    this.avatar?.setEmotion(id);
  }

  /** Performer: play a motion; dropped while she lies on the bed, sits, peeks, is held or moves. */
  playMotion(id: string): void {
    if ((this.bedFrame?.lie ?? 0) > 0 || this.bedFrame?.asleep) return;
    if (!this.stillForClips) return;
    this.avatar?.playMotion(id);
  }

  /**
   * The posture to draw from the next frame on: the core's `posture` and
   * `gait` (the move under way, or null), the clip `mix` at `now` (page ms, the clock
   * the mix's `since` counts in), the peek `side`, and her `facing` in
   * degrees (+: toward screen right). A motion playing stops when she leaves
   * standing (the clips are made for standing).
   */
  setPosture(posture: PostureState, gait: Gait | null, mix: readonly ClipWeight[], now: number, side: Side, facing: number): void {
    const still = motionsAllowed(posture, gait);
    if (!still && this.stillForClips) this.avatar?.motions.stop();
    this.stillForClips = still;
    const layer = emptyPose();
    addPostureMix(layer, mix, now, side);
    const empty = layer.hipsLift === 0 && Object.keys(layer.bones).length === 0;
    this.avatar?.setPosture(empty ? null : layer, THREE.MathUtils.degToRad(facing));
  }

  /** The bed scene to show from the next frame on (null or all zero: none). */
  setBed(frame: BedFrame | null): void {
    this.bedFrame = frame;
  }

  /** The humanoid bones (raw skeleton, as posed in the last frame) in window CSS pixels. */
  bonePoints(): BonePoint[] {
    const avatar = this.avatar;
    const stage = this.stage;
    if (!avatar || !stage) return [];
    const out: BonePoint[] = [];
    const p = new THREE.Vector3();
    const bones = avatar.vrm.humanoid.humanBones;
    for (const [bone, entry] of Object.entries(bones)) {
      const node = entry?.node;
      if (!node) continue;
      node.getWorldPosition(p);
      const point = stage.project(p);
      const next = BONE_END[bone];
      const endNode = next ? bones[next]?.node : undefined;
      // The head runs from its joint to the top of the head.
      if (bone === "head") out.push({ bone, point, end: stage.project(avatar.headTop()) });
      else out.push(endNode ? { bone, point, end: stage.project(endNode.getWorldPosition(p)) } : { bone, point });
    }
    return out;
  }

  /** The head top in window CSS pixels (the "Zz" floats there), or null. */
  headPoint(): Point | null {
    return this.avatar && this.stage ? this.stage.project(this.avatar.headTop()) : null;
  }

  /** Performer: move the lips. */
  speak(text: string): void {
    this.avatar?.speak(text);
  }

  /** Performer: the sound ended or was cut. */
  soundStopped(halted: boolean): void {
    this.avatar?.soundStopped(halted);
  }

  /** A mouth level from the sound playing now (the shell's lip channel). */
  level(value: number): void {
    this.avatar?.level(value);
  }

  /** How far the lips open the mouth now (0 before the character loads). */
  mouthOpen(): number {
    return this.avatar?.mouthOpen() ?? 0;
  }

  /** Performer: back to neutral and idle. */
  relax(hush: boolean): void {
    this.emotion = null;
    this.avatar?.relax(hush);
  }

  /** Look toward a window point (the cursor), or ahead when null. */
  lookAtPoint(p: Point | null): void {
    if (!p || !this.anchor || !this.restBox || !this.stage) this.gaze = null;
    else {
      const eyeY = this.anchor.y + (this.stage.size.height - this.anchor.y) * 0.2;
      const clamp = (v: number, m: number) => Math.max(-m, Math.min(m, v));
      this.gaze = { yaw: clamp((p.x - this.anchor.x) / 5, 25), pitch: clamp((p.y - eyeY) / 6, 18) };
    }
    this.avatar?.lookToward(this.gaze);
  }

  /** Advance `dt` seconds and draw; returns what moves. */
  frame(dt: number): AvatarActivity {
    const avatar = this.avatar;
    this.applyBed();
    if (avatar) avatar.update(dt);
    this.stage?.render();
    if (avatar) this.rendered = true;
    this.afterRender?.();
    return avatar?.activity() ?? { speaking: false, crossfading: false, moving: false };
  }

  /** The next blink the frames should show, or null (no character, eyes held closed). */
  nextBlink(): BlinkWindow | null {
    return this.avatar?.face.nextBlink() ?? null;
  }

  /** Every pixel of the frame just drawn (see `Stage.readAll`); null before the stage exists. */
  readAll(): ReturnType<Stage["readAll"]> | null {
    return this.stage?.readAll() ?? null;
  }

  /** The canvas alpha at `p` in the frame just drawn. */
  alphaAt(p: Point): number | null {
    return this.stage?.readAlpha(p) ?? null;
  }

  /** Every expression weight the model shows now. */
  expressions(): Record<string, number> {
    return this.avatar?.face.snapshot() ?? {};
  }

  /** The character's screen box now, CSS pixels. */
  characterBox(): Rect | null {
    return this.avatar && this.stage ? this.stage.screenBox(this.avatar.vrm.scene) : null;
  }

  /** The last cue as resolved against the model. */
  lastResolved(): { emotion: string | null; motion: string | null } {
    return this.avatar?.lastResolved ?? { emotion: null, motion: null };
  }

  /** Put her and the bed where the bed scene says, and frame both when it shows. */
  private applyBed(): void {
    const avatar = this.avatar;
    const bed = this.bed;
    if (!avatar || !bed) return;
    const f = this.bedFrame;
    const lie = f?.lie ?? 0;
    const shown = f?.bed ?? 0;
    const before = this.framing;
    placeRoot(avatar.vrm.scene, bed.place, lie);
    bed.setOpacity(shown);
    avatar.setBed(f);
    this.framing = Math.max(lie, shown);
    if (this.framing !== before) this.reframe();
  }

  /** How far the camera frames the bed (0: her standing, 1: the bed and her lying). */
  private framing = 0;

  /** Aim the camera at the rest box (or the bed, as far as it shows) and move the bubble anchor. */
  private reframe(): void {
    if (!this.restBox || !this.avatar || !this.stage) return;
    const box = this.bed ? blendBox(this.restBox, this.bed.box, this.framing, this.frameBox) : this.restBox;
    this.stage.frame(box, this.region);
    this.anchor = this.stage.project(this.avatar.headTop());
    this.onAnchor?.(this.anchor);
  }
}

/** Where each bone ends: the next joint down its chain (the bones a poke names). */
const BONE_END: Record<string, VRMHumanBoneName> = {
  hips: "spine",
  spine: "chest",
  chest: "upperChest",
  upperChest: "neck",
  neck: "head",
  leftShoulder: "leftUpperArm",
  leftUpperArm: "leftLowerArm",
  leftLowerArm: "leftHand",
  rightShoulder: "rightUpperArm",
  rightUpperArm: "rightLowerArm",
  rightLowerArm: "rightHand",
  leftUpperLeg: "leftLowerLeg",
  leftLowerLeg: "leftFoot",
  leftFoot: "leftToes",
  rightUpperLeg: "rightLowerLeg",
  rightLowerLeg: "rightFoot",
  rightFoot: "rightToes",
};
