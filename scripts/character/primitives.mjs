// Procedural shapes, all returned as Geo meshes in world space: ellipsoids,
// lathes (surfaces of revolution), capsules, closed rings, and tubes swept
// along Catmull-Rom curves.

import { add, basis, cross, dot, len, nrm, scl, sub, TAU } from "./math.mjs";
import { ringsGeo } from "./geometry.mjs";

/** Ellipsoid at c with radii r; deform(p) may reshape the unit-frame point. */
export function ellipsoid(c, r, nu, nv, deform = (p) => p) {
  const rings = [];
  for (let k = 1; k < nv; k++) {
    const ph = (Math.PI * k) / nv;
    const ring = [];
    for (let j = 0; j < nu; j++) {
      const th = (TAU * j) / nu;
      ring.push(
        add(c, deform([r[0] * Math.sin(ph) * Math.cos(th), r[1] * Math.cos(ph), r[2] * Math.sin(ph) * Math.sin(th)])),
      );
    }
    rings.push(ring);
  }
  return ringsGeo(rings, add(c, deform([0, r[1], 0])), add(c, deform([0, -r[1], 0])));
}

/**
 * Surface of revolution. profile: [[radius, height]] along the axis; a zero
 * radius at either end becomes a pole. o = origin, d = axis, zs squashes the
 * second cross-section direction (elliptic sections).
 */
export function lathe(profile, n, { o = [0, 0, 0], d = [0, 1, 0], zs = 1, side = null } = {}) {
  const dd = nrm(d);
  let [u, w] = basis(dd);
  if (side) {
    u = nrm(sub(side, scl(dd, dot(side, dd))));
    w = cross(dd, u);
  }
  const at = (r, h, th) => add(o, add(scl(dd, h), add(scl(u, r * Math.cos(th)), scl(w, r * zs * Math.sin(th)))));
  const rings = [];
  let sp = null;
  let ep = null;
  profile.forEach(([r, h], i) => {
    if (r <= 1e-6 && i === 0) sp = at(0, h, 0);
    else if (r <= 1e-6 && i === profile.length - 1) ep = at(0, h, 0);
    else {
      const ring = [];
      for (let j = 0; j < n; j++) ring.push(at(r, h, (TAU * j) / n));
      rings.push(ring);
    }
  });
  return ringsGeo(rings, sp, ep);
}

/** Profile of a capsule from h=0 (radius r0) to h=l (radius r1). */
function capsuleProfile(l, r0, r1, steps = 5) {
  const out = [];
  for (let i = 0; i <= steps; i++) {
    const a = -Math.PI / 2 + (Math.PI / 2) * (i / steps);
    out.push([r0 * Math.cos(a), r0 * Math.sin(a)]);
  }
  for (let i = 0; i <= steps; i++) {
    const a = (Math.PI / 2) * (i / steps);
    out.push([r1 * Math.cos(a), l + r1 * Math.sin(a)]);
  }
  return out;
}

/** Capsule from a (radius r0) to b (radius r1), its round ends centred on a and b. */
export function capsule(a, b, r0, r1, n = 16, steps = 5) {
  const d = sub(b, a);
  return lathe(capsuleProfile(len(d), r0, r1, steps), n, { o: a, d });
}

/** Torus-like ring: a closed loop profile [[radius, height]] revolved. */
export function ringLathe(profile, n, { o = [0, 0, 0], d = [0, 1, 0], zs = 1 } = {}) {
  const dd = nrm(d);
  const [u, w] = basis(dd);
  const rings = profile.map(([r, h]) => {
    const ring = [];
    for (let j = 0; j < n; j++) {
      const th = (TAU * j) / n;
      ring.push(add(o, add(scl(dd, h), add(scl(u, r * Math.cos(th)), scl(w, r * zs * Math.sin(th))))));
    }
    return ring;
  });
  return ringsGeo(rings, null, null, true);
}

/** Catmull-Rom curve through control points, `per` samples per segment. */
export function spline(ctrl, per) {
  const out = [];
  const n = ctrl.length;
  for (let i = 0; i < n - 1; i++) {
    const p0 = ctrl[Math.max(0, i - 1)];
    const p1 = ctrl[i];
    const p2 = ctrl[i + 1];
    const p3 = ctrl[Math.min(n - 1, i + 2)];
    for (let s = 0; s < per; s++) {
      const t = s / per;
      const t2 = t * t;
      const t3 = t2 * t;
      out.push(
        [0, 1, 2].map(
          (k) =>
            0.5 *
            (2 * p1[k] +
              (-p0[k] + p2[k]) * t +
              (2 * p0[k] - 5 * p1[k] + 4 * p2[k] - p3[k]) * t2 +
              (-p0[k] + 3 * p1[k] - 3 * p2[k] + p3[k]) * t3),
        ),
      );
    }
  }
  out.push(ctrl[n - 1].slice());
  return out;
}

/**
 * Tube swept along a path. size(t) gives [half width, half thickness] at
 * arc-length fraction t; a zero size at the tip closes it to a point.
 * up(p, T) gives the thickness direction (else parallel transport).
 * Returns the mesh and, per vertex, its arc-length position (for skinning).
 */
export function sweep(path, size, { seg = 12, up = null, ridge = 0, ridges = 5, lift = null } = {}) {
  const n = path.length;
  const s = [0];
  for (let i = 1; i < n; i++) s.push(s[i - 1] + len(sub(path[i], path[i - 1])));
  const total = s[n - 1];
  const tan = path.map((_, i) => nrm(sub(path[Math.min(n - 1, i + 1)], path[Math.max(0, i - 1)])));
  let prevN = null;
  const rings = [];
  const ringS = [];
  let sp = null;
  let ep = null;
  for (let i = 0; i < n; i++) {
    const T = tan[i];
    let N = up ? up(path[i], T) : prevN || basis(T)[0];
    N = nrm(sub(N, scl(T, dot(N, T))));
    prevN = N;
    const B = nrm(cross(T, N));
    const t = s[i] / total;
    const [hw, hh] = size(t);
    const c = lift ? add(path[i], scl(N, lift(t, hh))) : path[i];
    if (hw < 1e-5 && i === n - 1) {
      ep = c;
      continue;
    }
    const ring = [];
    for (let j = 0; j < seg; j++) {
      const th = (TAU * j) / seg;
      const r = 1 + ridge * Math.cos(ridges * th);
      ring.push(add(c, add(scl(B, hw * Math.cos(th) * r), scl(N, hh * Math.sin(th) * r))));
    }
    rings.push(ring);
    ringS.push(s[i]);
    if (i === 0) sp = sub(c, scl(T, Math.min(hw, hh) * 0.6));
  }
  const g = ringsGeo(rings, sp, ep);
  const vs = [];
  for (const sv of ringS) for (let j = 0; j < seg; j++) vs.push(sv);
  if (sp) vs.push(0);
  if (ep) vs.push(total);
  return { geo: g, vs, total };
}
