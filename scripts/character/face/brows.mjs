// The brows: tapered bands above the eyes, arched and tilted per expression.

import { lerp } from "../math.mjs";

/** Brow centre (x, y, head-centre) and half length w. */
export const BROW = { x: 0.082, y: 0.018, w: 0.024 };

// Brow states: tilt > 0 lifts the outer end; raise lifts the whole brow.
/** The neutral brow. */
export const BROW_BASE = { arch: 0.004, tilt: -0.003, raise: 0 };
/** Brow states by morph target name. */
export const BROW_STATES = {
  happy: { arch: 0.006, tilt: -0.003, raise: 0.004 },
  angry: { arch: 0.0, tilt: 0.012, raise: -0.005 },
  sad: { arch: 0.002, tilt: -0.012, raise: 0.003 },
  relaxed: { arch: 0.004, tilt: -0.005, raise: 0.001 },
  surprised: { arch: 0.007, tilt: -0.002, raise: 0.011 },
};
/** A band parameter [s along, t across] to brow-local (u, v) for brow state b. */
export function browPt([s, t], b) {
  const u = lerp(-BROW.w, BROW.w, s);
  const c = b.arch * (1 - (u / BROW.w) ** 2) + b.tilt * (u / BROW.w) + b.raise;
  const th = 0.006 - 0.0035 * s;
  return [u, c + (t - 0.5) * th * Math.min(1, 0.3 + (1 - s) / 0.15) * Math.min(1, 0.5 + s / 0.1)];
}
