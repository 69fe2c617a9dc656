// The eyes: a superellipse white, layered iris (base, darker top, lighter
// bottom), pupil, two highlights and the lash lines. Coordinates are
// eye-local (u outward from the nose, v up) until eyeToFace maps them to
// head-centre face coordinates. Expressions are eye states: lids that clamp
// the eye from above and below, a line it collapses onto when closed, and
// scales and shifts of the white, iris and pupil.

import { clamp, lerp, spow } from "../math.mjs";
import { ellipsePt } from "./decals.mjs";

/** Eye centre (x, y, head-centre), half width a, top and bottom heights, superellipse exponent n. */
const EYE = { x: 0.08, y: -0.056, a: 0.035, top: 0.044, bot: 0.037, n: 2.3 };
/** Iris centre height (eye-local) and radii. */
export const IRIS = { y: -0.004, ru: 0.026, rv: 0.0325 };

/** Lower edge of the (unscaled) eye white at eye-local u. */
const whiteBot = (u) => -EYE.bot * Math.pow(Math.max(0, 1 - Math.pow(Math.min(1, Math.abs(u) / EYE.a), EYE.n)), 1 / EYE.n);

// Eye states. lid: upper clamp curve, low: lower clamp, line: where the lash sits when closed.
/** The neutral, open eye state. */
export const OPEN = { lid: null, low: null, line: null, lash: 1, white: [1, 1], iris: 1, pupil: 1, look: [0, 0] };
const closedCurve = (u) => -0.012 - 0.007 * (1 - (u / EYE.a) ** 2);
const happyCurve = (u) => -0.014 + 0.017 * (1 - (u / EYE.a) ** 2);
/** Eye states by morph target name (closed serves blinkLeft and blinkRight). */
export const EYE_STATES = {
  closed: { ...OPEN, lid: closedCurve, low: closedCurve, line: closedCurve, lash: 1 },
  happy: { ...OPEN, lid: happyCurve, low: happyCurve, line: happyCurve, lash: 1.1 },
  relaxed: { ...OPEN, lid: (u) => 0.006 + 0.004 * (u / EYE.a), lash: 0.9 },
  angry: { ...OPEN, lid: (u) => 0.024 + 0.018 * (u / EYE.a), pupil: 0.85 },
  sad: { ...OPEN, lid: (u) => 0.03 - 0.016 * (u / EYE.a) },
  surprised: { ...OPEN, white: [1.06, 1.12], iris: 0.8, pupil: 0.6 },
  lookUp: { ...OPEN, look: [0, 0.011] },
  lookDown: { ...OPEN, look: [0, -0.011] },
  // lookLeft: she looks to her left, +X (the viewer's right).
  lookLeft: { ...OPEN, look: [0.012, 0] },
  lookRight: { ...OPEN, look: [-0.012, 0] },
};

/** Clamp an eye-local point into the (scaled) eye white. */
function intoWhite(u, v, st) {
  const a = EYE.a * st.white[0] * 0.97;
  const b = (v >= 0 ? EYE.top : EYE.bot) * st.white[1] * 0.97;
  const rho = Math.pow(Math.abs(u / a) ** EYE.n + Math.abs(v / b) ** EYE.n, 1 / EYE.n);
  return rho > 1 ? [u / rho, v / rho] : [u, v];
}
/** Clamp eye-local v between the state's lower and upper lid curves. */
function lids(u, v, st) {
  if (st.lid) v = Math.min(v, st.lid(u));
  if (st.low) v = Math.max(v, st.low(u));
  return [u, v];
}
/** Eye-local (u outward, v up) to head-centre face coordinates. */
export const eyeToFace = (side, [u, v]) => [side * (EYE.x + u), EYE.y + v];
/** Highlight offset dx in eye-local u for one side: the highlights sit on the same screen side for both eyes. */
export const hl = (side, dx) => side * dx;

/** Shape functions (polar parameter, eye state, side) -> eye-local (u, v) for the white, iris layers and pupil. */
export const EYE_PARTS = {
  white: (par, st) => {
    const [f, th] = par;
    const u = f * EYE.a * spow(Math.cos(th), 2 / EYE.n) * st.white[0];
    const v = f * (Math.sin(th) >= 0 ? EYE.top : EYE.bot) * spow(Math.sin(th), 2 / EYE.n) * st.white[1];
    return lids(u, v, st);
  },
  iris: (par, st, side) => irisLayer(ellipsePt(par, 0, IRIS.y, IRIS.ru, IRIS.rv), st, side),
  irisDeep: (par, st, side) => {
    const p = ellipsePt(par, 0, IRIS.y, IRIS.ru, IRIS.rv);
    p[1] = Math.max(p[1], IRIS.y + 0.011 + 0.012 * (p[0] / IRIS.ru) ** 2);
    return irisLayer(p, st, side);
  },
  irisLight: (par, st, side) => irisLayer(ellipsePt(par, 0, IRIS.y - 0.0143, 0.0175, 0.0132), st, side),
  pupil: (par, st, side) => {
    const [f, th] = par;
    const p = [f * 0.011 * st.pupil * Math.cos(th), IRIS.y + 0.001 + f * 0.0175 * st.pupil * Math.sin(th)];
    return irisLayer(p, st, side);
  },
};
/** Iris layers: scale, look shift (in face x, so both eyes move the same way), white and lid clamps. */
export function irisLayer([u, v], st, side) {
  const s = st.iris;
  let p = [u * s + side * st.look[0], IRIS.y + (v - IRIS.y) * s + st.look[1]];
  p = intoWhite(p[0], p[1], st);
  return lids(p[0], p[1], st);
}

/** The upper lash line as a band following the top of the white (or the lid). */
export function lashPt([s, t], st) {
  const u0 = -EYE.a * 0.92;
  const u1 = EYE.a + 0.008;
  const u = lerp(u0, u1, s);
  const uc = clamp(u, -EYE.a, EYE.a);
  let c;
  if (st.line) c = st.line(uc);
  else {
    const a = EYE.a * st.white[0];
    c = EYE.top * st.white[1] * Math.pow(Math.max(0, 1 - Math.pow(Math.min(1, Math.abs(uc) / a), EYE.n)), 1 / EYE.n);
    if (st.lid) c = Math.min(c, st.lid(uc));
  }
  let uu = u;
  if (u > EYE.a) {
    // Outer flick, upwards and outwards.
    const e = (u - EYE.a) / (u1 - EYE.a);
    uu = EYE.a * (st.line ? 1 : st.white[0]) + (u - EYE.a);
    c += e * (st.line ? 0.002 : 0.006);
  } else if (!st.line) uu = u * st.white[0];
  const th = st.lash * (0.0022 + 0.0062 * Math.pow(s, 1.1)) * Math.min(1, 0.35 + s / 0.12) * Math.min(1, 0.25 + (1 - s) / 0.12);
  return [uu, c + (t - 0.3) * th];
}
/** The short lower lash stroke, on the outer half of the white's lower edge. */
export function lowLashPt([s, t], st) {
  const u = lerp(0.25 * EYE.a, 0.92 * EYE.a, s);
  let c = whiteBot(u / st.white[0]) * st.white[1];
  if (st.low) c = Math.max(c, st.low(u));
  if (st.lid) c = Math.min(c, st.lid(u));
  const th = 0.0018 * Math.sin(Math.PI * s);
  return [u * (st.line ? 1 : st.white[0]), c + (t - 0.5) * th];
}
