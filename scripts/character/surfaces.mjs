// The two big shapes the face, the hair and the bows are placed against: the
// head and the hair shell around it. World coordinates in metres, as in
// ./skeleton.mjs; "head-centre" coordinates are relative to HEAD_C.

import { add, clamp, nrm, scl, smooth, sub } from "./math.mjs";

// Head: a slightly egg-shaped ellipsoid, narrower towards the chin.
/** Head centre (world) and radii. */
export const HEAD_C = [0, 0.77, 0];
export const HEAD_R = [0.2, 0.185, 0.172];
/** Head width and depth factors [sx, sz] at head-centre height y (narrower towards the chin). */
export const headTaper = (y) => {
  const t = Math.max(0, -y / HEAD_R[1]);
  return [1 - 0.17 * t * t, 1 - 0.08 * t * t];
};
/** Deform for ellipsoid(): a unit-frame head point narrowed by headTaper. */
export const headDeform = (p) => {
  const [sx, sz] = headTaper(p[1]);
  return [p[0] * sx, p[1], p[2] * sz];
};
/** Front surface z of the head at head-centre coordinates (x, y). */
export function headZ(x, y) {
  const [sx, sz] = headTaper(y);
  const q = 1 - (x / (HEAD_R[0] * sx)) ** 2 - (y / HEAD_R[1]) ** 2;
  return q > 0 ? HEAD_R[2] * sz * Math.sqrt(q) : 0;
}
/** Outward normal of the head's front surface at head-centre coordinates (x, y). */
export function headNormal(x, y) {
  const e = 1e-4;
  const dx = (headZ(x + e, y) - headZ(x - e, y)) / (2 * e);
  const dy = (headZ(x, y + e) - headZ(x, y - e)) / (2 * e);
  return nrm([-dx, -dy, 1]);
}

// Hair shell: a larger ellipsoid set up and back, so the face pokes out of
// it in front; the back droops down to the nape.
/** Hair shell centre (world) and radii. */
export const HAIR_C = [0, 0.795, -0.038];
export const HAIR_R = [0.214, 0.205, 0.212];
/** Deform for ellipsoid(): the hair shell's drooping back and sunken front. */
export const hairDeform = (p) => {
  const back = clamp(-p[2] / HAIR_R[2] + 0.35, 0, 1);
  const y = p[1] < 0 ? p[1] * (1 + 0.55 * back * back) : p[1];
  const flare = p[1] < 0 ? 1 + 0.12 * back * smooth(0, -HAIR_R[1], p[1]) : 1;
  // Sink the front below the hairline into the head, clearing the brows.
  const front = smooth(0.15, 0.6, p[2] / HAIR_R[2]) * smooth(0.08, -0.01, p[1]);
  return [p[0] * flare, y, p[2] * flare * (1 - 0.3 * front)];
};
/** World z of the undeformed hair shell's front at (x, y) relative to HAIR_C; -1 outside it. */
export function hairZ(x, y) {
  const q = 1 - (x / HAIR_R[0]) ** 2 - (y / HAIR_R[1]) ** 2;
  return q > 0 ? HAIR_C[2] + HAIR_R[2] * Math.sqrt(q) : -1;
}

/** Push a world point out of the head and the hair shell by `margin`. */
export function pushOut(q, margin) {
  let p = q;
  for (const [c, r, taper] of [
    [HEAD_C, HEAD_R, true],
    [HAIR_C, HAIR_R, false],
  ]) {
    for (let it = 0; it < 6; it++) {
      const l = sub(p, c);
      const [sx, sz] = taper ? headTaper(l[1]) : [1, 1];
      const rho = Math.sqrt((l[0] / (r[0] * sx)) ** 2 + (l[1] / r[1]) ** 2 + (l[2] / (r[2] * sz)) ** 2);
      const lim = 1 + margin / Math.min(r[0], r[1], r[2]);
      if (rho >= lim) break;
      p = add(c, scl(l, lim / rho));
    }
  }
  return p;
}

/** Inside the head, by a relative margin. */
export function inHead(q, m = 0.03) {
  const l = sub(q, HEAD_C);
  const [sx, sz] = headTaper(l[1]);
  return Math.hypot(l[0] / (HEAD_R[0] * sx), l[1] / HEAD_R[1], l[2] / (HEAD_R[2] * sz)) < 1 - m;
}
/** Well inside the hair shell and away from the face opening. */
export function underHair(q) {
  const l = sub(q, HAIR_C);
  if (l[2] > 0 && l[1] < 0.1) return false;
  return Math.hypot(l[0] / HAIR_R[0], l[1] / HAIR_R[1], l[2] / HAIR_R[2]) < 0.96;
}
