// The mouth and the tongue, one state per expression and viseme (aa, ih, ou,
// ee, oh).

import { clamp, spow } from "../math.mjs";

/** Mouth centre height (head-centre). */
const MOUTH_Y = -0.137;

// Mouth: a superellipse in "straight" space (top height ht, bottom hb),
// then bent by k (corners up for k > 0).
/** The neutral mouth: a small closed smile. */
export const MOUTH_BASE = { w: 0.016, ht: 0.0026, hb: 0.0026, k: 0.0055, dy: 0, p: 2 };
/** Mouth states by morph target name: the emotions and the visemes. */
export const MOUTH_STATES = {
  happy: { w: 0.019, ht: 0.0015, hb: 0.017, k: 0.007, dy: 0.002, p: 2.2 },
  angry: { w: 0.013, ht: 0.0025, hb: 0.0035, k: -0.005, dy: -0.002, p: 2 },
  sad: { w: 0.012, ht: 0.0016, hb: 0.0016, k: -0.0055, dy: 0, p: 2 },
  relaxed: { w: 0.0155, ht: 0.0015, hb: 0.0024, k: 0.0065, dy: 0, p: 2 },
  surprised: { w: 0.0095, ht: 0.011, hb: 0.012, k: 0, dy: -0.003, p: 2 },
  aa: { w: 0.0165, ht: 0.006, hb: 0.021, k: 0.002, dy: -0.001, p: 2.4 },
  ih: { w: 0.02, ht: 0.0035, hb: 0.0065, k: 0.003, dy: 0, p: 2.6 },
  ou: { w: 0.0082, ht: 0.0075, hb: 0.009, k: 0, dy: -0.002, p: 2 },
  ee: { w: 0.022, ht: 0.004, hb: 0.0105, k: 0.006, dy: 0, p: 3 },
  oh: { w: 0.0125, ht: 0.01, hb: 0.016, k: 0, dy: -0.003, p: 2.2 },
};
/** Straight-space mouth point to face coordinates: lifted by k (x / w)² and moved to the mouth's height. */
const bend = (m, [x, y]) => [x, MOUTH_Y + m.dy + y + m.k * (x / m.w) ** 2];
/** A polar parameter to head-centre face coordinates of the mouth in state m. */
export function mouthPt([f, th], m) {
  const c = Math.cos(th);
  const s = Math.sin(th);
  const x = f * m.w * spow(c, 2 / m.p);
  const y = f * (s >= 0 ? m.ht : m.hb) * spow(s, 2 / m.p);
  return bend(m, [x, y]);
}
/** A polar parameter to face coordinates of the tongue in state m (hidden while the mouth is nearly shut). */
export function tonguePt([f, th], m) {
  const open = clamp((m.hb - 0.004) / 0.01, 0, 1);
  const ru = 0.6 * m.w * open;
  const rv = 0.42 * m.hb * open;
  let x = f * ru * Math.cos(th);
  let y = -m.hb + rv * 1.05 + f * rv * Math.sin(th);
  const bot = -m.hb * Math.pow(Math.max(0, 1 - Math.abs(x / m.w) ** m.p), 1 / m.p);
  y = Math.max(y, bot * 0.93);
  return bend(m, [x, y]);
}
