// Small math helpers for the character generator: 3-vectors as plain
// [x, y, z] arrays, scalar easing and the rounding used for the JSON output.

/** Sum of two 3-vectors. */
export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
/** Difference a - b of two 3-vectors. */
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
/** A 3-vector scaled by s. */
export const scl = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
/** Dot product of two 3-vectors. */
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/** Cross product a × b. */
export const cross = (a, b) => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
/** Length of a 3-vector. */
export const len = (a) => Math.sqrt(dot(a, a));
/** Unit vector along a (+Y for a zero vector). */
export const nrm = (a) => {
  const l = len(a);
  return l > 1e-12 ? scl(a, 1 / l) : [0, 1, 0];
};
/** Linear interpolation from a (t = 0) to b (t = 1). */
export const lerp = (a, b, t) => a + (b - a) * t;
/** x limited to [a, b]. */
export const clamp = (x, a, b) => Math.min(b, Math.max(a, x));
/** Smoothstep: 0 at e0, 1 at e1, a cubic ease in between (e0 > e1 reverses it). */
export const smooth = (e0, e1, x) => {
  const t = clamp((x - e0) / (e1 - e0), 0, 1);
  return t * t * (3 - 2 * t);
};
/** Signed power: |x|^e with the sign of x (superellipse shapes). */
export const spow = (x, e) => Math.sign(x) * Math.pow(Math.abs(x), e);
/** A full turn, 2π. */
export const TAU = Math.PI * 2;

/** Two unit vectors perpendicular to d and to each other. */
export function basis(d) {
  const ref = Math.abs(d[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const u = nrm(cross(ref, d));
  return [u, cross(d, u)];
}

/** Rotation of v about unit axis k by angle a (Rodrigues). */
export function rotate(v, k, a) {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return add(add(scl(v, c), scl(cross(k, v), s)), scl(k, dot(k, v) * (1 - c)));
}

/** x rounded to d decimals, with -0 written as 0 (keeps the JSON short and stable). */
export const round = (x, d = 6) => {
  const r = Math.round(x * 10 ** d) / 10 ** d;
  return Object.is(r, -0) ? 0 : r;
};
/** A vector with every component rounded to 6 decimals. */
export const r6 = (v) => v.map((x) => round(x));
