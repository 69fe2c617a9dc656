// The face of a VRM: the emotion expression (crossfaded, never snapped),
// random blinks, lip shapes, and where the eyes look.

import type { VRM } from "@pixiv/three-vrm";
import { BlinkSchedule, type BlinkWindow } from "../blink";
import { RESERVED_EXPRESSIONS } from "../expression";
import { VISEMES, type VisemeWeights } from "../lipsync";

/** Seconds an emotion takes to fade fully in or out. */
export const CROSSFADE_S = 0.32;

/** Yaw/pitch in degrees (three-vrm's lookAt convention: pitch < 0 looks up, yaw > 0 to her left). */
export interface Gaze {
  yaw: number;
  pitch: number;
}

/** The face controller of one VRM. */
export class Face {
  /** Emotion expression weights now (linear, 0..1). */
  private readonly weights = new Map<string, number>();
  private target = "neutral";
  private readonly blink: BlinkSchedule;
  private gaze: Gaze = { yaw: 0, pitch: 0 };
  private gazeTarget: Gaze = { yaw: 0, pitch: 0 };

  /** Drive the expressions of `vrm`, blinking from `nowMs`. */
  constructor(
    private readonly vrm: VRM,
    nowMs: number,
  ) {
    this.blink = new BlinkSchedule(nowMs);
    for (const name of this.emotionNames) this.weights.set(name, 0);
    if (vrm.lookAt) vrm.lookAt.autoUpdate = false;
  }

  /** Every expression the model has, by name. */
  get expressionNames(): string[] {
    return this.vrm.expressionManager?.expressions.map((e) => e.expressionName) ?? [];
  }

  /** The expressions an emotion may use (all but blink, mouth and gaze). */
  get emotionNames(): string[] {
    return this.expressionNames.filter((n) => !RESERVED_EXPRESSIONS.has(n));
  }

  /** Fade to `expression` (a name the model has, or "neutral"). */
  setEmotion(expression: string): void {
    this.target = expression;
  }

  /** Hold the eyes closed this much (0..1; sleep), over the random blinks. */
  eyesClosed = 0;

  /** The next random blink, or null when none would show (eyes held closed). */
  nextBlink(): BlinkWindow | null {
    return this.eyesClosed >= 0.99 ? null : this.blink.upcoming;
  }

  /** Where the eyes should turn. */
  lookAt(gaze: Gaze): void {
    this.gazeTarget = gaze;
  }

  /** True while an emotion or the gaze is still moving toward its target. */
  get changing(): boolean {
    for (const [name, w] of this.weights) if (Math.abs(w - this.goal(name)) > 1e-3) return true;
    return Math.abs(this.gaze.yaw - this.gazeTarget.yaw) > 0.2 || Math.abs(this.gaze.pitch - this.gazeTarget.pitch) > 0.2;
  }

  /** Advance `dt` seconds at `nowMs` with `mouth` from lip-sync, and write the expression values. */
  update(dt: number, nowMs: number, mouth: VisemeWeights): void {
    const em = this.vrm.expressionManager;
    const step = dt / CROSSFADE_S;
    for (const [name, w] of this.weights) {
      const goal = this.goal(name);
      const next = w < goal ? Math.min(goal, w + step) : Math.max(goal, w - step);
      this.weights.set(name, next);
      // Closed (sleeping) eyes keep a neutral face: an emotion may block the blink.
      em?.setValue(name, smooth(next) * (1 - this.eyesClosed));
    }
    for (const v of VISEMES) em?.setValue(v, mouth[v]);
    em?.setValue("blink", Math.max(this.blink.value(nowMs), this.eyesClosed));
    const k = 1 - Math.exp(-dt / 0.12);
    this.gaze = {
      yaw: this.gaze.yaw + (this.gazeTarget.yaw - this.gaze.yaw) * k,
      pitch: this.gaze.pitch + (this.gazeTarget.pitch - this.gaze.pitch) * k,
    };
    if (this.vrm.lookAt) {
      this.vrm.lookAt.yaw = this.gaze.yaw;
      this.vrm.lookAt.pitch = this.gaze.pitch;
    }
  }

  /** Every expression's current value, as the model shows it. */
  snapshot(): Record<string, number> {
    const out: Record<string, number> = {};
    const em = this.vrm.expressionManager;
    for (const name of this.expressionNames) out[name] = em?.getValue(name) ?? 0;
    return out;
  }

  /** The weight `name` is heading for. */
  private goal(name: string): number {
    return name === this.target ? 1 : 0;
  }
}

/** Smooth 0→1 ramp: the crossfade eases in and out. */
function smooth(x: number): number {
  const t = Math.min(1, Math.max(0, x));
  return t * t * (3 - 2 * t);
}
