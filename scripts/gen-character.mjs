#!/usr/bin/env node
// Generates YUI's default character, ui/public/characters/yui.vrm: a VRM 1.0
// avatar (a glTF 2.0 binary) built from procedural meshes. No dependencies,
// no randomness, no timestamps: every run writes the same bytes.
//
//   node scripts/gen-character.mjs           write the file
//   node scripts/gen-character.mjs --check   exit 1 if the committed file is stale
//   node scripts/gen-character.mjs --out F   write somewhere else
//
// The script is under the project's MIT license; the character it writes is
// released under CC0-1.0 (see LICENSE-assets.md). docs/character.md explains
// how the model is put together.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_OUT = resolve(ROOT, "ui/public/characters/yui.vrm");

// ---------------------------------------------------------------- vectors ---

const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scl = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const len = (a) => Math.sqrt(dot(a, a));
const nrm = (a) => {
  const l = len(a);
  return l > 1e-12 ? scl(a, 1 / l) : [0, 1, 0];
};
const lerp = (a, b, t) => a + (b - a) * t;
const clamp = (x, a, b) => Math.min(b, Math.max(a, x));
const smooth = (e0, e1, x) => {
  const t = clamp((x - e0) / (e1 - e0), 0, 1);
  return t * t * (3 - 2 * t);
};
const TAU = Math.PI * 2;

/** Two unit vectors perpendicular to d and to each other. */
function basis(d) {
  const ref = Math.abs(d[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
  const u = nrm(cross(ref, d));
  return [u, cross(d, u)];
}

/** Rotation of v about unit axis k by angle a (Rodrigues). */
function rotate(v, k, a) {
  const c = Math.cos(a);
  const s = Math.sin(a);
  return add(add(scl(v, c), scl(cross(k, v), s)), scl(k, dot(k, v) * (1 - c)));
}

// --------------------------------------------------------------- geometry ---

/** An indexed triangle mesh: p = positions, f = faces (vertex index triples). */
class Geo {
  constructor() {
    this.p = [];
    this.f = [];
  }
  vert(q) {
    this.p.push(q);
    return this.p.length - 1;
  }
  map(fn) {
    this.p = this.p.map(fn);
    return this;
  }
  /** Flip every face if the closed mesh's signed volume is negative. */
  orientOutward() {
    let v = 0;
    for (const [a, b, c] of this.f) v += dot(this.p[a], cross(this.p[b], this.p[c]));
    if (v < 0) this.f = this.f.map(([a, b, c]) => [a, c, b]);
    return this;
  }
  /** Drop faces whose three vertices are all hidden; keep only used vertices. */
  cull(hidden) {
    const h = this.p.map(hidden);
    this.f = this.f.filter(([a, b, c]) => !(h[a] && h[b] && h[c]));
    const remap = new Map();
    const p = [];
    for (const face of this.f)
      for (const i of face)
        if (!remap.has(i)) {
          remap.set(i, p.length);
          p.push(this.p[i]);
        }
    this.f = this.f.map((face) => face.map((i) => remap.get(i)));
    this.p = p;
    return this;
  }
  /** Smooth, area-weighted vertex normals. */
  normals() {
    const n = this.p.map(() => [0, 0, 0]);
    for (const [a, b, c] of this.f) {
      const fn = cross(sub(this.p[b], this.p[a]), sub(this.p[c], this.p[a]));
      for (const i of [a, b, c]) n[i] = add(n[i], fn);
    }
    return n.map(nrm);
  }
}

function merge(geos) {
  const g = new Geo();
  for (const h of geos) {
    const o = g.p.length;
    g.p.push(...h.p);
    for (const [a, b, c] of h.f) g.f.push([a + o, b + o, c + o]);
  }
  return g;
}

/**
 * Closed surface from rings of equal length (each ring a closed loop),
 * optionally capped by a pole before the first and after the last ring.
 * Vertex order: all ring vertices in order, then the start pole, then the end pole.
 */
function ringsGeo(rings, startPole, endPole, loop = false) {
  const g = new Geo();
  const m = rings[0].length;
  const ids = rings.map((r) => r.map((q) => g.vert(q)));
  const k = ids.length;
  for (let i = 0; i < (loop ? k : k - 1); i++) {
    const a = ids[i];
    const b = ids[(i + 1) % k];
    for (let j = 0; j < m; j++) {
      const j1 = (j + 1) % m;
      g.f.push([a[j], a[j1], b[j1]], [a[j], b[j1], b[j]]);
    }
  }
  if (startPole) {
    const s = g.vert(startPole);
    for (let j = 0; j < m; j++) g.f.push([s, ids[0][(j + 1) % m], ids[0][j]]);
  }
  if (endPole) {
    const e = g.vert(endPole);
    for (let j = 0; j < m; j++) g.f.push([ids[k - 1][j], ids[k - 1][(j + 1) % m], e]);
  }
  return g.orientOutward();
}

/** Ellipsoid at c with radii r; deform(p) may reshape the unit-frame point. */
function ellipsoid(c, r, nu, nv, deform = (p) => p) {
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
function lathe(profile, n, { o = [0, 0, 0], d = [0, 1, 0], zs = 1, side = null } = {}) {
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

function capsule(a, b, r0, r1, n = 16, steps = 5) {
  const d = sub(b, a);
  return lathe(capsuleProfile(len(d), r0, r1, steps), n, { o: a, d });
}

/** Torus-like ring: a closed loop profile [[radius, height]] revolved. */
function ringLathe(profile, n, { o = [0, 0, 0], d = [0, 1, 0], zs = 1 } = {}) {
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
function spline(ctrl, per) {
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
function sweep(path, size, { seg = 12, up = null, ridge = 0, ridges = 5, lift = null } = {}) {
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

// ----------------------------------------------------------------- layout ---
// World positions in the rest pose (metres). VRM 1.0: +Y up, the model faces
// +Z, its left hand is on +X. About one metre tall, a chibi with a big head.

const BONES = {
  hips: [0, 0.31, 0],
  spine: [0, 0.36, 0],
  chest: [0, 0.44, 0],
  neck: [0, 0.545, 0],
  head: [0, 0.6, 0],
  leftShoulder: [0.03, 0.515, 0],
  leftUpperArm: [0.088, 0.512, 0],
  leftLowerArm: [0.18, 0.512, 0],
  leftHand: [0.262, 0.512, 0],
  leftUpperLeg: [0.055, 0.29, 0],
  leftLowerLeg: [0.055, 0.165, 0],
  leftFoot: [0.055, 0.055, 0],
};
for (const k of Object.keys(BONES)) {
  if (k.startsWith("left")) {
    const p = BONES[k];
    BONES["right" + k.slice(4)] = [-p[0], p[1], p[2]];
  }
}

const PARENT = {
  hips: null,
  spine: "hips",
  chest: "spine",
  neck: "chest",
  head: "neck",
  leftEye: "head",
  rightEye: "head",
};
for (const s of ["left", "right"]) {
  Object.assign(PARENT, {
    [s + "Shoulder"]: "chest",
    [s + "UpperArm"]: s + "Shoulder",
    [s + "LowerArm"]: s + "UpperArm",
    [s + "Hand"]: s + "LowerArm",
    [s + "UpperLeg"]: "hips",
    [s + "LowerLeg"]: s + "UpperLeg",
    [s + "Foot"]: s + "LowerLeg",
  });
}

// Head: a slightly egg-shaped ellipsoid, narrower towards the chin.
const HEAD_C = [0, 0.77, 0];
const HEAD_R = [0.2, 0.185, 0.172];
const headTaper = (y) => {
  const t = Math.max(0, -y / HEAD_R[1]);
  return [1 - 0.17 * t * t, 1 - 0.08 * t * t];
};
const headDeform = (p) => {
  const [sx, sz] = headTaper(p[1]);
  return [p[0] * sx, p[1], p[2] * sz];
};
/** Front surface z of the head at head-centre coordinates (x, y). */
function headZ(x, y) {
  const [sx, sz] = headTaper(y);
  const q = 1 - (x / (HEAD_R[0] * sx)) ** 2 - (y / HEAD_R[1]) ** 2;
  return q > 0 ? HEAD_R[2] * sz * Math.sqrt(q) : 0;
}
function headNormal(x, y) {
  const e = 1e-4;
  const dx = (headZ(x + e, y) - headZ(x - e, y)) / (2 * e);
  const dy = (headZ(x, y + e) - headZ(x, y - e)) / (2 * e);
  return nrm([-dx, -dy, 1]);
}
BONES.leftEye = [0.08, HEAD_C[1] - 0.056, 0.13];
BONES.rightEye = [-0.08, HEAD_C[1] - 0.056, 0.13];

// Hair shell: a larger ellipsoid set up and back, so the face pokes out of
// it in front; the back droops down to the nape.
const HAIR_C = [0, 0.795, -0.038];
const HAIR_R = [0.214, 0.205, 0.212];
const hairDeform = (p) => {
  const back = clamp(-p[2] / HAIR_R[2] + 0.35, 0, 1);
  const y = p[1] < 0 ? p[1] * (1 + 0.55 * back * back) : p[1];
  const flare = p[1] < 0 ? 1 + 0.12 * back * smooth(0, -HAIR_R[1], p[1]) : 1;
  // Sink the front below the hairline into the head, clearing the brows.
  const front = smooth(0.15, 0.6, p[2] / HAIR_R[2]) * smooth(0.08, -0.01, p[1]);
  return [p[0] * flare, y, p[2] * flare * (1 - 0.3 * front)];
};
function hairZ(x, y) {
  const q = 1 - (x / HAIR_R[0]) ** 2 - (y / HAIR_R[1]) ** 2;
  return q > 0 ? HAIR_C[2] + HAIR_R[2] * Math.sqrt(q) : -1;
}

/** Push a world point out of the head and the hair shell by `margin`. */
function pushOut(q, margin) {
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

// -------------------------------------------------------------- materials ---

const srgbToLinear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const round = (x, d = 6) => {
  const r = Math.round(x * 10 ** d) / 10 ** d;
  return Object.is(r, -0) ? 0 : r;
};
const hex = (h) => [1, 3, 5].map((i) => round(srgbToLinear(parseInt(h.slice(i, i + 2), 16) / 255), 5));

const OUTLINE = 0.0035;
const MATERIALS = {
  skin: { color: "#FFE6DA", shade: "#F5C0B4", outline: "#A0685E" },
  skinShade: { color: "#F8D2C6", shade: "#EBB3A8", outline: "#A0685E" },
  hair: { color: "#F6B3D0", shade: "#C98FD2", outline: "#7A4A78" },
  brow: { color: "#8E4A70", shade: "#8E4A70" },
  eyeWhite: { color: "#FFFFFF", shade: "#F4F0F8" },
  iris: { color: "#7C5FD6", shade: "#7C5FD6" },
  irisDeep: { color: "#4C3A9E", shade: "#4C3A9E" },
  irisLight: { color: "#B6A5FA", shade: "#B6A5FA" },
  pupil: { color: "#2A1F4A", shade: "#2A1F4A" },
  lash: { color: "#3C2536", shade: "#3C2536" },
  mouth: { color: "#93384C", shade: "#93384C" },
  tongue: { color: "#F28D9E", shade: "#F28D9E" },
  blush: { color: "#FFC6CC", shade: "#FFC6CC" },
  dress: { color: "#34407A", shade: "#232B57", outline: "#151A38" },
  white: { color: "#FFFFFF", shade: "#D9DCF0", outline: "#4A4E70" },
  ribbon: { color: "#8ED2F6", shade: "#62A6DA", outline: "#2E5A86" },
  shoe: { color: "#3E3458", shade: "#2A2340", outline: "#15121F" },
};
const MAT_INDEX = Object.fromEntries(Object.keys(MATERIALS).map((k, i) => [k, i]));

function materialJson(name) {
  const m = MATERIALS[name];
  const outline = Boolean(m.outline);
  return {
    name,
    pbrMetallicRoughness: { baseColorFactor: [...hex(m.color), 1], metallicFactor: 0, roughnessFactor: 1 },
    doubleSided: false,
    extensions: {
      VRMC_materials_mtoon: {
        specVersion: "1.0",
        shadeColorFactor: hex(m.shade),
        shadingShiftFactor: outline ? -0.1 : 0,
        shadingToonyFactor: 0.9,
        outlineWidthMode: outline ? "worldCoordinates" : "none",
        outlineWidthFactor: outline ? OUTLINE : 0,
        outlineColorFactor: outline ? hex(m.outline) : [0, 0, 0],
        outlineLightingMixFactor: 1,
      },
    },
  };
}

// ------------------------------------------------------------------- body ---

/** Parts per bone: { bone: [[material, Geo in world space], ...] } */
const PARTS = {};
const part = (bone, mat, geo) => (PARTS[bone] ||= []).push([mat, geo]);

/** Inside the head, by a relative margin. */
function inHead(q, m = 0.03) {
  const l = sub(q, HEAD_C);
  const [sx, sz] = headTaper(l[1]);
  return Math.hypot(l[0] / (HEAD_R[0] * sx), l[1] / HEAD_R[1], l[2] / (HEAD_R[2] * sz)) < 1 - m;
}
/** Well inside the hair shell and away from the face opening. */
function underHair(q) {
  const l = sub(q, HAIR_C);
  if (l[2] > 0 && l[1] < 0.1) return false;
  return Math.hypot(l[0] / HAIR_R[0], l[1] / HAIR_R[1], l[2] / HAIR_R[2]) < 0.96;
}

function buildHead() {
  // The back of the head is never seen (the hair covers it): cull it.
  part("head", "skin", ellipsoid(HEAD_C, HEAD_R, 36, 24, headDeform).cull(underHair));
  part("neck", "skinShade", capsule([0, 0.52, 0], [0, 0.63, 0], 0.03, 0.03, 14, 3));
}

function buildBody() {
  // Bodice: an elliptic lathe from the waist to the shoulders.
  part(
    "chest",
    "dress",
    lathe(
      [
        [0, 0.35],
        [0.07, 0.352],
        [0.083, 0.37],
        [0.088, 0.41],
        [0.094, 0.46],
        [0.098, 0.495],
        [0.092, 0.52],
        [0.074, 0.538],
        [0.045, 0.552],
        [0.03, 0.56],
        [0, 0.565],
      ],
      28,
      { zs: 0.78 },
    ),
  );
  // Sailor collar: a white band over the shoulders.
  part(
    "chest",
    "white",
    ringLathe(
      [
        [0.036, 0.566],
        [0.062, 0.554],
        [0.094, 0.532],
        [0.112, 0.508],
        [0.116, 0.496],
        [0.108, 0.497],
        [0.088, 0.52],
        [0.058, 0.543],
        [0.034, 0.558],
      ],
      28,
      { zs: 0.8 },
    ),
  );
  // A stripe along the collar's edge.
  part(
    "chest",
    "dress",
    ringLathe(
      [
        [0.098, 0.5275],
        [0.1035, 0.5235],
        [0.1055, 0.5255],
        [0.1, 0.5295],
      ],
      28,
      { zs: 0.8 },
    ),
  );
  buildBow("chest", [0, 0.49, 0.097], [0, 0.2, 1], [1, 0, 0], 0.95);
  // Skirt: an A-line bell with a white hem.
  part(
    "hips",
    "dress",
    lathe(
      [
        [0, 0.36],
        [0.05, 0.41],
        [0.083, 0.405],
        [0.09, 0.38],
        [0.104, 0.34],
        [0.124, 0.3],
        [0.145, 0.26],
        [0.16, 0.225],
        [0.166, 0.205],
        [0.162, 0.196],
        [0.1, 0.21],
        [0, 0.225],
      ],
      32,
      { zs: 0.86 },
    ),
  );
  part(
    "hips",
    "white",
    ringLathe(
      [
        [0.162, 0.2],
        [0.172, 0.206],
        [0.175, 0.214],
        [0.165, 0.218],
        [0.158, 0.21],
      ],
      32,
      { zs: 0.86 },
    ),
  );
  for (const side of [1, -1]) {
    const S = side > 0 ? "left" : "right";
    const sh = BONES[S + "UpperArm"];
    const el = BONES[S + "LowerArm"];
    const wr = BONES[S + "Hand"];
    const xd = [side, 0, 0];
    // Puffed sleeve with a white cuff.
    part(
      S + "UpperArm",
      "dress",
      lathe(
        [
          [0, -0.03],
          [0.03, -0.022],
          [0.041, -0.005],
          [0.044, 0.015],
          [0.042, 0.035],
          [0.034, 0.052],
          [0.026, 0.058],
          [0, 0.06],
        ],
        20,
        { o: sh, d: xd },
      ),
    );
    part(
      S + "UpperArm",
      "white",
      ringLathe(
        [
          [0.025, 0.05],
          [0.031, 0.052],
          [0.033, 0.058],
          [0.029, 0.064],
          [0.024, 0.06],
        ],
        20,
        { o: sh, d: xd },
      ),
    );
    part(S + "UpperArm", "skin", capsule(sh, el, 0.023, 0.021, 12, 4));
    part(S + "LowerArm", "skin", capsule(el, wr, 0.021, 0.019, 12, 4));
    // Mitten hand, palm down in the T-pose, with a thumb to the front.
    part(S + "Hand", "skin", ellipsoid(add(wr, [side * 0.028, -0.002, 0]), [0.034, 0.019, 0.028], 14, 8));
    part(
      S + "Hand",
      "skin",
      ellipsoid(add(wr, [side * 0.014, 0.0, 0.022]), [0.016, 0.01, 0.012], 8, 5, (p) =>
        rotate(p, [0, 1, 0], -side * 0.6),
      ),
    );
    // Legs: skin thighs, white socks, rounded shoes.
    const hip = BONES[S + "UpperLeg"];
    const knee = BONES[S + "LowerLeg"];
    const ankle = BONES[S + "Foot"];
    part(S + "UpperLeg", "skin", capsule(hip, knee, 0.04, 0.034, 16, 4));
    part(S + "LowerLeg", "white", capsule(knee, ankle, 0.035, 0.029, 16, 4));
    part(
      S + "Foot",
      "shoe",
      ellipsoid(add(ankle, [0, -0.022, 0.018]), [0.036, 0.036, 0.058], 16, 10, (p) => [
        p[0] * (1 + 0.15 * smooth(0, 0.058, p[2])),
        Math.max(p[1], -0.033),
        p[2],
      ]),
    );
  }
}

/** A bow at c facing n (loops along r): two loops, a knot, two short tails; k scales it. */
function buildBow(bone, c, n, r, k) {
  const N = nrm(n);
  const R = nrm(sub(r, scl(N, dot(r, N))));
  const U = cross(N, R);
  const frame = (p) => add(c, add(add(scl(R, p[0] * k), scl(U, p[1] * k)), scl(N, p[2] * k)));
  for (const s of [1, -1]) {
    const loop = ellipsoid([0, 0, 0], [0.034, 0.022, 0.01], 12, 7, (p) => {
      // Pinch towards the knot, widen at the far end, tilt up.
      const t = (p[0] + 0.034) / 0.068;
      const q = [p[0] + 0.034, p[1] * (0.45 + 0.75 * t), p[2] * (0.7 + 0.5 * t)];
      return rotate([q[0] * s, q[1], q[2]], [0, 0, 1], s * 0.2);
    });
    part(bone, "ribbon", loop.map(frame));
    const tail = ellipsoid([0, 0, 0], [0.011, 0.026, 0.005], 6, 5, (p) => {
      const t = (0.026 - p[1]) / 0.052;
      return rotate([p[0] * (0.6 + 0.6 * t), p[1] - 0.024, p[2] - 0.004], [0, 0, 1], s * 0.35);
    });
    part(bone, "ribbon", tail.map(frame));
  }
  part(bone, "ribbon", ellipsoid([0, 0, 0.004], [0.012, 0.012, 0.009], 8, 5).map(frame));
}

// ------------------------------------------------------------------- hair ---

/** Skinned hair: tubes with a joint chain each (spring bones). */
const CHAINS = [];

function buildHair() {
  part("head", "hair", ellipsoid(HAIR_C, HAIR_R, 32, 22, hairDeform).cull((q) => inHead(q)));

  // Bangs: strands that follow the hair/forehead surface down to tips above the brows.
  const surfZ = (x, y) => Math.max(headZ(x, y - HEAD_C[1]) + HEAD_C[2], hairZ(x - HAIR_C[0], y - HAIR_C[1]));
  const surfN = (x, y) => {
    const e = 1e-4;
    const dx = (surfZ(x + e, y) - surfZ(x - e, y)) / (2 * e);
    const dy = (surfZ(x, y + e) - surfZ(x, y - e)) / (2 * e);
    return nrm([-dx, -dy, 1]);
  };
  const strands = [
    // [root x, tip x, tip y, half width, bend, layer]
    [-0.0, -0.018, 0.8, 0.03, -0.01, 2],
    [0.02, 0.04, 0.812, 0.03, 0.008, 1],
    [-0.05, -0.075, 0.826, 0.034, -0.012, 1],
    [0.07, 0.1, 0.822, 0.034, 0.012, 2],
    [-0.1, -0.132, 0.8, 0.032, -0.01, 2],
    [0.12, 0.15, 0.79, 0.03, 0.01, 1],
    [-0.135, -0.168, 0.755, 0.026, -0.006, 1],
    [0.15, 0.178, 0.745, 0.024, 0.006, 2],
  ];
  for (const [xr, xt, yt, hw, bend, layer] of strands) {
    const yr = 0.955;
    const ctrl = [];
    for (let i = 0; i <= 8; i++) {
      const t = i / 8;
      const x = lerp(xr, xt, t) + bend * Math.sin(Math.PI * t);
      const y = lerp(yr, yt, t * (2 - t) * 0.5 + t * 0.5);
      ctrl.push([x, y]);
    }
    const path = ctrl.map(([x, y]) => [x, y, surfZ(x, y) + 0.002 + 0.0025 * layer]);
    const { geo } = sweep(
      path,
      (t) => {
        const w = hw * Math.pow(Math.sin((Math.PI / 2) * (1 - t)), 0.55) * (0.75 + 0.25 * smooth(0, 0.4, t));
        return [w, 0.0065 * (1 - t) + 0.0018];
      },
      { seg: 8, up: (p) => surfN(p[0], p[1]), lift: (t, hh) => hh },
    );
    part("head", "hair", geo);
  }

  // Back strands: flat locks lying on the shell, with free tips below it.
  const shellPt = (th, ph) =>
    add(HAIR_C, hairDeform([HAIR_R[0] * Math.sin(ph) * Math.cos(th), HAIR_R[1] * Math.cos(ph), HAIR_R[2] * Math.sin(ph) * Math.sin(th)]));
  const shellN = (th, ph) => {
    const e = 1e-4;
    const dth = sub(shellPt(th + e, ph), shellPt(th - e, ph));
    const dph = sub(shellPt(th, ph + e), shellPt(th, ph - e));
    return nrm(cross(dth, dph));
  };
  for (const deg of [270, 245, 295, 220, 320, 198, 342]) {
    const th = (deg * Math.PI) / 180;
    const back = deg === 270 ? 0 : 1;
    const ph0 = 0.3 * Math.PI;
    const ph1 = (deg > 200 && deg < 340 ? 0.78 : 0.7) * Math.PI;
    const path = [];
    const ns = [];
    for (let i = 0; i <= 6; i++) {
      const ph = lerp(ph0, ph1, i / 6);
      const n = shellN(th, ph);
      // The normal from the cross product points out of the shell: check against the radial.
      const out = dot(n, sub(shellPt(th, ph), HAIR_C)) > 0 ? n : scl(n, -1);
      ns.push(out);
      path.push(add(shellPt(th, ph), scl(out, 0.002 + 0.002 * back)));
    }
    // Tip: continue down and slightly out.
    const last = path[path.length - 1];
    const dir = nrm(add(nrm(sub(last, path[path.length - 2])), [0, -0.6, 0]));
    for (const k of [1, 2]) {
      path.push(add(add(last, scl(dir, 0.025 * k)), scl(ns[ns.length - 1], 0.004 * k)));
      ns.push(ns[ns.length - 1]);
    }
    const { geo } = sweep(
      path,
      (t) => [0.05 * Math.pow(Math.sin((Math.PI / 2) * Math.min(1, (1 - t) * 1.4)), 0.7), 0.006 * (1 - t) + 0.0015],
      { seg: 6, up: (p) => ns[path.indexOf(p)], lift: (t, hh) => hh },
    );
    part("head", "hair", geo);
  }

  // Side locks framing the face.
  for (const side of [1, -1]) {
    const ctrl = [
      [side * 0.15, 0.9, 0.09],
      [side * 0.185, 0.8, 0.075],
      [side * 0.19, 0.7, 0.07],
      [side * 0.178, 0.6, 0.07],
      [side * 0.16, 0.535, 0.065],
    ];
    const path = spline(ctrl, 3).map((p) => pushOut(p, 0.006));
    const { geo } = sweep(
      path,
      (t) => {
        const w = 0.028 * Math.pow(Math.sin((Math.PI / 2) * (1 - t)), 0.6) * (0.8 + 0.4 * Math.sin(Math.PI * t));
        return [w, 0.009 * (1 - t) + 0.002];
      },
      {
        seg: 10,
        up: (p) => nrm([p[0] - HEAD_C[0], 0, (p[2] - HEAD_C[2]) * 0.6]),
        lift: (t, hh) => hh * 0.5,
      },
    );
    part("head", "hair", geo);
  }

  // Twin tails, tied high on the sides of the head; springy.
  for (const side of [1, -1]) {
    const S = side > 0 ? "Left" : "Right";
    const ctrl = [
      [side * 0.16, 0.9, -0.05],
      [side * 0.25, 0.9, -0.07],
      [side * 0.305, 0.8, -0.08],
      [side * 0.315, 0.66, -0.075],
      [side * 0.29, 0.52, -0.06],
      [side * 0.25, 0.41, -0.05],
    ];
    const path = spline(ctrl, 5);
    const res = sweep(
      path,
      (t) => {
        const bulge = Math.sin(Math.PI * Math.min(1, t * 1.6)) * 0.6 + 0.4 * (1 - t);
        const r = lerp(0.026, 0.05 * Math.pow(1 - t, 0.55) * (0.55 + 0.6 * Math.sqrt(bulge)), smooth(0.02, 0.14, t));
        return [r, r * 0.85];
      },
      { seg: 14, ridge: 0.07, ridges: 7 },
    );
    CHAINS.push({ name: "Hair" + S + "Tail", ...res, joints: ctrl, parent: "head", stiffness: 1.2 });
    buildBow("head", pushOut([side * 0.2, 0.9, -0.02], 0.012), [side * 0.55, 0.3, 0.78], [1, -0.45 * side, 0], 1.5);
  }

  // Ahoge: one springy strand on top.
  {
    const ctrl = [
      [0.0, 0.975, 0.03],
      [0.012, 1.025, 0.045],
      [0.04, 1.055, 0.035],
      [0.065, 1.045, 0.02],
    ];
    const path = spline(ctrl, 5);
    const res = sweep(
      path,
      (t) => {
        const w = 0.011 * Math.pow(1 - t, 0.7);
        return [w, w * 0.55];
      },
      { seg: 8, up: () => [0, 0, 1] },
    );
    CHAINS.push({ name: "HairAhoge", ...res, joints: ctrl, parent: "head", stiffness: 1.5 });
  }
}

// ------------------------------------------------------------------- face ---
// Face features are flat 2D shapes in head-centre (x, y), projected onto the
// head's front surface a little in front of it. Expressions are morph
// targets: each expression is a different "state" fed to the same shape
// functions, and the target is the difference to the neutral state.

const EYE = { x: 0.08, y: -0.056, a: 0.035, top: 0.044, bot: 0.037, n: 2.3 };
const IRIS = { y: -0.004, ru: 0.026, rv: 0.0325 };
const BROW = { x: 0.082, y: 0.018, w: 0.024 };
const MOUTH_Y = -0.137;

const spow = (x, e) => Math.sign(x) * Math.pow(Math.abs(x), e);
const whiteBot = (u) => -EYE.bot * Math.pow(Math.max(0, 1 - Math.pow(Math.min(1, Math.abs(u) / EYE.a), EYE.n)), 1 / EYE.n);

/** Polar disc parameters: centre + rings. */
function disc2D(rings, segs) {
  const par = [[0, 0]];
  const tris = [];
  for (let k = 1; k <= rings; k++) for (let j = 0; j < segs; j++) par.push([k / rings, (TAU * j) / segs]);
  const id = (k, j) => (k === 0 ? 0 : 1 + (k - 1) * segs + (j % segs));
  for (let j = 0; j < segs; j++) tris.push([0, id(1, j), id(1, j + 1)]);
  for (let k = 1; k < rings; k++)
    for (let j = 0; j < segs; j++) tris.push([id(k, j), id(k + 1, j), id(k + 1, j + 1)], [id(k, j), id(k + 1, j + 1), id(k, j + 1)]);
  return { par, tris };
}
/** Band parameters: s along, t across. */
function band2D(ns, nt) {
  const par = [];
  const tris = [];
  for (let i = 0; i <= ns; i++) for (let j = 0; j <= nt; j++) par.push([i / ns, j / nt]);
  const id = (i, j) => i * (nt + 1) + j;
  for (let i = 0; i < ns; i++)
    for (let j = 0; j < nt; j++) tris.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)], [id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
  return { par, tris };
}
const ellipsePt = ([f, th], cu, cv, ru, rv) => [cu + f * ru * Math.cos(th), cv + f * rv * Math.sin(th)];

// Eye states. lid: upper clamp curve, low: lower clamp, line: where the lash sits when closed.
const OPEN = { lid: null, low: null, line: null, lash: 1, white: [1, 1], iris: 1, pupil: 1, look: [0, 0] };
const closedCurve = (u) => -0.012 - 0.007 * (1 - (u / EYE.a) ** 2);
const happyCurve = (u) => -0.014 + 0.017 * (1 - (u / EYE.a) ** 2);
const EYE_STATES = {
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
function lids(u, v, st) {
  if (st.lid) v = Math.min(v, st.lid(u));
  if (st.low) v = Math.max(v, st.low(u));
  return [u, v];
}
/** Eye-local (u outward, v up) to head-centre face coordinates. */
const eyeToFace = (side, [u, v]) => [side * (EYE.x + u), EYE.y + v];
// The highlights sit on the same screen side for both eyes.
const hl = (side, dx) => side * dx;

const EYE_PARTS = {
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
function irisLayer([u, v], st, side) {
  const s = st.iris;
  let p = [u * s + side * st.look[0], IRIS.y + (v - IRIS.y) * s + st.look[1]];
  p = intoWhite(p[0], p[1], st);
  return lids(p[0], p[1], st);
}

/** The upper lash line as a band following the top of the white (or the lid). */
function lashPt([s, t], st) {
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
function lowLashPt([s, t], st) {
  const u = lerp(0.25 * EYE.a, 0.92 * EYE.a, s);
  let c = whiteBot(u / st.white[0]) * st.white[1];
  if (st.low) c = Math.max(c, st.low(u));
  if (st.lid) c = Math.min(c, st.lid(u));
  const th = 0.0018 * Math.sin(Math.PI * s);
  return [u * (st.line ? 1 : st.white[0]), c + (t - 0.5) * th];
}

// Brow states: tilt > 0 lifts the outer end; raise lifts the whole brow.
const BROW_BASE = { arch: 0.004, tilt: -0.003, raise: 0 };
const BROW_STATES = {
  happy: { arch: 0.006, tilt: -0.003, raise: 0.004 },
  angry: { arch: 0.0, tilt: 0.012, raise: -0.005 },
  sad: { arch: 0.002, tilt: -0.012, raise: 0.003 },
  relaxed: { arch: 0.004, tilt: -0.005, raise: 0.001 },
  surprised: { arch: 0.007, tilt: -0.002, raise: 0.011 },
};
function browPt([s, t], b) {
  const u = lerp(-BROW.w, BROW.w, s);
  const c = b.arch * (1 - (u / BROW.w) ** 2) + b.tilt * (u / BROW.w) + b.raise;
  const th = 0.006 - 0.0035 * s;
  return [u, c + (t - 0.5) * th * Math.min(1, 0.3 + (1 - s) / 0.15) * Math.min(1, 0.5 + s / 0.1)];
}

// Mouth: a superellipse in "straight" space (top height ht, bottom hb),
// then bent by k (corners up for k > 0).
const MOUTH_BASE = { w: 0.016, ht: 0.0026, hb: 0.0026, k: 0.0055, dy: 0, p: 2 };
const MOUTH_STATES = {
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
const bend = (m, [x, y]) => [x, MOUTH_Y + m.dy + y + m.k * (x / m.w) ** 2];
function mouthPt([f, th], m) {
  const c = Math.cos(th);
  const s = Math.sin(th);
  const x = f * m.w * spow(c, 2 / m.p);
  const y = f * (s >= 0 ? m.ht : m.hb) * spow(s, 2 / m.p);
  return bend(m, [x, y]);
}
function tonguePt([f, th], m) {
  const open = clamp((m.hb - 0.004) / 0.01, 0, 1);
  const ru = 0.6 * m.w * open;
  const rv = 0.42 * m.hb * open;
  let x = f * ru * Math.cos(th);
  let y = -m.hb + rv * 1.05 + f * rv * Math.sin(th);
  const bot = -m.hb * Math.pow(Math.max(0, 1 - Math.abs(x / m.w) ** m.p), 1 / m.p);
  y = Math.max(y, bot * 0.93);
  return bend(m, [x, y]);
}

/** Face state for one morph target (or neutral). */
function faceState(name) {
  const st = { L: OPEN, R: OPEN, browL: BROW_BASE, browR: BROW_BASE, mouth: MOUTH_BASE };
  const both = (e) => {
    st.L = e;
    st.R = e;
  };
  if (name === "blinkLeft") st.L = EYE_STATES.closed;
  if (name === "blinkRight") st.R = EYE_STATES.closed;
  if (EYE_STATES[name]) both(EYE_STATES[name]);
  if (BROW_STATES[name]) st.browL = st.browR = BROW_STATES[name];
  if (MOUTH_STATES[name]) st.mouth = MOUTH_STATES[name];
  return st;
}

/** Face meshes and their morph targets (same names as the expressions they serve). */
const EMOTIONS = ["happy", "angry", "sad", "relaxed", "surprised"];
const FACE_GROUPS = {
  FaceEyes: ["blinkLeft", "blinkRight", ...EMOTIONS, "lookUp", "lookDown", "lookLeft", "lookRight"],
  FaceBrows: [...EMOTIONS],
  FaceMouth: [...EMOTIONS, "aa", "ih", "ou", "ee", "oh"],
  FaceBlush: [],
};

/** Face decal primitives: [material, offset, par, tris, fn(par, state) -> [x, y]] */
function facePrims() {
  const prims = [];
  const eyes = (mat, off, mesh, fn) => {
    const par = [];
    const tris = [];
    for (const side of [1, -1]) {
      const o = par.length;
      for (const q of mesh.par) par.push([side, q]);
      for (const [a, b, c] of mesh.tris) tris.push([a + o, b + o, c + o]);
    }
    prims.push(["FaceEyes", mat, off, par, tris, ([side, q], st) => eyeToFace(side, fn(q, side > 0 ? st.L : st.R, side))]);
  };
  const disc = disc2D(3, 24);
  eyes("eyeWhite", 0.0012, disc, EYE_PARTS.white);
  eyes("iris", 0.0022, disc, EYE_PARTS.iris);
  eyes("irisDeep", 0.003, disc2D(3, 24), EYE_PARTS.irisDeep);
  eyes("irisLight", 0.003, disc2D(3, 20), EYE_PARTS.irisLight);
  eyes("pupil", 0.0038, disc2D(3, 20), EYE_PARTS.pupil);
  // Highlights: big upper one, small lower one, both on the viewer's left.
  const hi = disc2D(2, 16);
  const hiPar = [];
  const hiTris = [];
  for (const side of [1, -1])
    for (const [dx, dy, ru, rv] of [
      [-0.009, 0.0128, 0.0077, 0.0094],
      [0.009, -0.0165, 0.0035, 0.0035],
    ]) {
      const o = hiPar.length;
      for (const q of hi.par) hiPar.push([side, q, dx, dy, ru, rv]);
      for (const [a, b, c] of hi.tris) hiTris.push([a + o, b + o, c + o]);
    }
  prims.push([
    "FaceEyes",
    "eyeWhite",
    0.0046,
    hiPar,
    hiTris,
    ([side, q, dx, dy, ru, rv], st) => {
      const es = side > 0 ? st.L : st.R;
      const p = ellipsePt(q, hl(side, dx), IRIS.y + dy, ru, rv);
      return eyeToFace(side, irisLayer(p, es, side));
    },
  ]);
  // Lashes: upper band plus a short lower stroke.
  const lb = band2D(24, 2);
  const ll = band2D(8, 1);
  const lPar = [];
  const lTris = [];
  for (const side of [1, -1]) {
    for (const [m, kind] of [
      [lb, 0],
      [ll, 1],
    ]) {
      const o = lPar.length;
      for (const q of m.par) lPar.push([side, q, kind]);
      for (const [a, b, c] of m.tris) lTris.push([a + o, b + o, c + o]);
    }
  }
  prims.push([
    "FaceEyes",
    "lash",
    0.0054,
    lPar,
    lTris,
    ([side, q, kind], st) => eyeToFace(side, (kind ? lowLashPt : lashPt)(q, side > 0 ? st.L : st.R)),
  ]);
  // Brows.
  const br = band2D(14, 1);
  const bPar = [];
  const bTris = [];
  for (const side of [1, -1]) {
    const o = bPar.length;
    for (const q of br.par) bPar.push([side, q]);
    for (const [a, b, c] of br.tris) bTris.push([a + o, b + o, c + o]);
  }
  prims.push([
    "FaceBrows",
    "brow",
    0.0012,
    bPar,
    bTris,
    ([side, q], st) => {
      const [u, v] = browPt(q, side > 0 ? st.browL : st.browR);
      return [side * (BROW.x + u), BROW.y + v];
    },
  ]);
  // Mouth and tongue.
  const md = disc2D(3, 28);
  prims.push(["FaceMouth", "mouth", 0.0012, md.par, md.tris, (q, st) => mouthPt(q, st.mouth)]);
  const td = disc2D(3, 20);
  prims.push(["FaceMouth", "tongue", 0.0022, td.par, td.tris, (q, st) => tonguePt(q, st.mouth)]);
  // Blush.
  const bl = disc2D(3, 24);
  const blPar = [];
  const blTris = [];
  for (const side of [1, -1]) {
    const o = blPar.length;
    for (const q of bl.par) blPar.push([side, q]);
    for (const [a, b, c] of bl.tris) blTris.push([a + o, b + o, c + o]);
  }
  prims.push(["FaceBlush", "blush", 0.0012, blPar, blTris, ([side, q]) => ellipsePt(q, side * 0.124, -0.104, 0.021, 0.0105)]);
  return prims;
}

/** Project head-centre face coordinates onto the head surface, `off` in front. */
function projectFace([x, y], off) {
  const z = headZ(x, y);
  const n = headNormal(x, y);
  return add(HEAD_C, add([x, y, z], scl(n, off)));
}

function buildFace() {
  const neutral = faceState("neutral");
  const groups = {};
  for (const [group, mat, off, par, tris, fn] of facePrims()) {
    const states = FACE_GROUPS[group].map(faceState);
    const base2 = par.map((q) => fn(q, neutral));
    // Make every triangle counter-clockwise seen from the front.
    const f = tris.map(([a, b, c]) => {
      const [pa, pb, pc] = [base2[a], base2[b], base2[c]];
      const area = (pb[0] - pa[0]) * (pc[1] - pa[1]) - (pc[0] - pa[0]) * (pb[1] - pa[1]);
      return area < 0 ? [a, c, b] : [a, b, c];
    });
    const base = base2.map((q) => projectFace(q, off));
    const normals = base2.map(([x, y]) => headNormal(x, y));
    const targets = states.map((st) =>
      par.map((q, i) => {
        const d = sub(projectFace(fn(q, st), off), base[i]);
        return d.map((v) => (Math.abs(v) < 2e-6 ? 0 : v));
      }),
    );
    const g = new Geo();
    g.p = base;
    g.f = f;
    (groups[group] ||= []).push({ mat, geo: g, normals, targets });
  }
  // Every declared target must move something.
  for (const [group, names] of Object.entries(FACE_GROUPS))
    names.forEach((name, i) => {
      if (!groups[group].some((pr) => pr.targets[i].some((d) => d[0] || d[1] || d[2])))
        throw new Error(`morph target ${group}.${name} moves nothing`);
    });
  return groups;
}

// -------------------------------------------------------------- glTF/GLB ---

/** float32 value written with the fewest digits that read back to the same float32. */
function f32(x) {
  const v = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return Object.is(s, -0) ? 0 : s;
  }
  return v;
}

/**
 * Builds the glTF JSON and its binary chunk. Data goes into a few pooled
 * buffer views (one per vertex stride, one for indices, one for the rest);
 * accessors point into them with byteOffset.
 */
class GlbWriter {
  constructor() {
    this.pools = new Map();
    this.json = {
      asset: { version: "2.0", generator: "YUI scripts/gen-character.mjs" },
      scene: 0,
      scenes: [{ name: "Yui", nodes: [] }],
      nodes: [],
      meshes: [],
      materials: [],
      skins: [],
      accessors: [],
      bufferViews: [],
      buffers: [{ byteLength: 0 }],
    };
    this.patches = [];
  }
  /** Append bytes to a pool; returns a reference patched into a view index + offset at the end. */
  put(pool, bytes, opts = {}) {
    if (!this.pools.has(pool)) this.pools.set(pool, { chunks: [], length: 0, ...opts });
    const p = this.pools.get(pool);
    const pad = (4 - (p.length % 4)) % 4;
    if (pad) {
      p.chunks.push(Buffer.alloc(pad));
      p.length += pad;
    }
    const ref = { pool, offset: p.length };
    p.chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    p.length += bytes.byteLength;
    return ref;
  }
  /** Record that obj.bufferView / obj.byteOffset should point at ref. */
  at(obj, ref) {
    this.patches.push([obj, ref]);
    return obj;
  }
  accessor(def, ref) {
    if (ref) this.at(def, ref);
    this.json.accessors.push(def);
    return this.json.accessors.length - 1;
  }
  /** Float VEC3 vertex attribute; bounds are required for POSITION only. */
  vec3(list, bounds = true) {
    const a = new Float32Array(list.length * 3);
    list.forEach((v, i) => a.set(v, i * 3));
    const ref = this.put("vec3", a, { target: 34962, byteStride: 12 });
    return this.accessor({ componentType: 5126, count: list.length, type: "VEC3", ...(bounds ? minMax(a, 3) : {}) }, ref);
  }
  /** Unsigned-byte VEC4 vertex attribute (joints, or normalized weights). */
  vec4(arr, componentType, normalized = false) {
    const ref = this.put("vec4u8", arr, { target: 34962, byteStride: 4 });
    const def = { componentType, count: arr.length / 4, type: "VEC4" };
    if (normalized) def.normalized = true;
    return this.accessor(def, ref);
  }
  /** Morph target displacements: all-zero accessor, sparse, or dense. */
  morph(list) {
    const nz = [];
    list.forEach((v, i) => {
      if (v[0] || v[1] || v[2]) nz.push(i);
    });
    const count = list.length;
    if (nz.length === 0) return this.accessor({ componentType: 5126, count, type: "VEC3", min: [0, 0, 0], max: [0, 0, 0] });
    const full = new Float32Array(count * 3);
    list.forEach((v, i) => full.set(v, i * 3));
    const mm = minMax(full, 3);
    if (nz.length * 3 > count * 2) {
      const ref = this.put("vec3", full, { target: 34962, byteStride: 12 });
      return this.accessor({ componentType: 5126, count, type: "VEC3", ...mm }, ref);
    }
    const idx = new Uint16Array(nz);
    const val = new Float32Array(nz.length * 3);
    nz.forEach((i, k) => val.set(list[i], k * 3));
    return this.accessor({
      componentType: 5126,
      count,
      type: "VEC3",
      ...mm,
      sparse: {
        count: nz.length,
        indices: this.at({ componentType: 5123 }, this.put("misc", idx)),
        values: this.at({}, this.put("misc", val)),
      },
    });
  }
  indices(faces) {
    const a = new Uint16Array(faces.length * 3);
    faces.forEach((f, i) => a.set(f, i * 3));
    return this.accessor({ componentType: 5123, count: a.length, type: "SCALAR" }, this.put("index", a, { target: 34963 }));
  }
  mat4(arr) {
    return this.accessor({ componentType: 5126, count: arr.length / 16, type: "MAT4" }, this.put("ibm", arr));
  }
  glb() {
    // Lay the pools out one after another, each a buffer view.
    const chunks = [];
    let length = 0;
    const viewOf = {};
    for (const [name, p] of this.pools) {
      const pad = (4 - (length % 4)) % 4;
      if (pad) chunks.push(Buffer.alloc(pad));
      length += pad;
      const bv = { buffer: 0, byteOffset: length, byteLength: p.length };
      if (p.byteStride) bv.byteStride = p.byteStride;
      if (p.target) bv.target = p.target;
      this.json.bufferViews.push(bv);
      viewOf[name] = this.json.bufferViews.length - 1;
      chunks.push(...p.chunks);
      length += p.length;
    }
    for (const [obj, ref] of this.patches) {
      obj.bufferView = viewOf[ref.pool];
      if (ref.offset) obj.byteOffset = ref.offset;
    }
    this.json.buffers[0].byteLength = length;
    const binPad = (4 - (length % 4)) % 4;
    const bin = Buffer.concat([...chunks, Buffer.alloc(binPad)]);
    let js = Buffer.from(JSON.stringify(this.json), "utf8");
    const jsPad = (4 - (js.length % 4)) % 4;
    js = Buffer.concat([js, Buffer.alloc(jsPad, 0x20)]);
    const header = Buffer.alloc(12);
    header.writeUInt32LE(0x46546c67, 0); // "glTF"
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(12 + 8 + js.length + 8 + bin.length, 8);
    const jh = Buffer.alloc(8);
    jh.writeUInt32LE(js.length, 0);
    jh.writeUInt32LE(0x4e4f534a, 4); // "JSON"
    const bh = Buffer.alloc(8);
    bh.writeUInt32LE(bin.length, 0);
    bh.writeUInt32LE(0x004e4942, 4); // "BIN\0"
    return Buffer.concat([header, jh, js, bh, bin]);
  }
}

function minMax(a, n) {
  const min = Array(n).fill(Infinity);
  const max = Array(n).fill(-Infinity);
  for (let i = 0; i < a.length; i++) {
    const k = i % n;
    if (a[i] < min[k]) min[k] = a[i];
    if (a[i] > max[k]) max[k] = a[i];
  }
  return { min: min.map(f32), max: max.map(f32) };
}

const r6 = (v) => v.map((x) => round(x));

function build() {
  buildHead();
  buildBody();
  buildHair();
  const face = buildFace();

  const w = new GlbWriter();
  const J = w.json;
  J.materials = Object.keys(MATERIALS).map(materialJson);

  // Nodes for the humanoid bones, in a fixed order.
  const nodeOf = {};
  const world = {};
  const addNode = (name, pos, parent) => {
    const n = { name };
    const pw = parent === null ? [0, 0, 0] : world[parent];
    const t = r6(sub(pos, pw));
    if (t.some((x) => x !== 0)) n.translation = t;
    J.nodes.push(n);
    const i = J.nodes.length - 1;
    nodeOf[name] = i;
    world[name] = pos;
    if (parent === null) J.scenes[0].nodes.push(i);
    else (J.nodes[nodeOf[parent]].children ||= []).push(i);
    return i;
  };
  const boneOrder = Object.keys(PARENT);
  const added = new Set();
  const addBone = (b) => {
    if (added.has(b)) return;
    if (PARENT[b]) addBone(PARENT[b]);
    addNode(b, BONES[b], PARENT[b]);
    added.add(b);
  };
  boneOrder.forEach(addBone);

  // Rigid meshes: one mesh per bone, one primitive per material, in bone-local space.
  for (const bone of boneOrder) {
    const parts = PARTS[bone];
    if (!parts) continue;
    const byMat = new Map();
    for (const [mat, g] of parts) {
      if (!byMat.has(mat)) byMat.set(mat, []);
      byMat.get(mat).push(g);
    }
    const primitives = [];
    for (const mat of Object.keys(MATERIALS)) {
      if (!byMat.has(mat)) continue;
      const g = merge(byMat.get(mat));
      const n = g.normals();
      const origin = BONES[bone];
      primitives.push({
        attributes: { POSITION: w.vec3(g.p.map((p) => sub(p, origin))), NORMAL: w.vec3(n, false) },
        indices: w.indices(g.f),
        material: MAT_INDEX[mat],
      });
    }
    J.meshes.push({ name: bone + "_mesh", primitives });
    addNode(bone + "_mesh", BONES[bone], bone);
    J.nodes[nodeOf[bone + "_mesh"]].mesh = J.meshes.length - 1;
    delete J.nodes[nodeOf[bone + "_mesh"]].translation;
  }

  // Face: one mesh, many primitives, all sharing the morph targets.
  const faceNodes = {};
  for (const [group, names] of Object.entries(FACE_GROUPS)) {
    const mesh = {
      name: group,
      primitives: face[group].map(({ mat, geo, normals, targets }) => {
        const prim = {
          attributes: {
            POSITION: w.vec3(geo.p.map((p) => sub(p, BONES.head))),
            NORMAL: w.vec3(normals, false),
          },
          indices: w.indices(geo.f),
          material: MAT_INDEX[mat],
        };
        if (names.length) prim.targets = targets.map((t) => ({ POSITION: w.morph(t) }));
        return prim;
      }),
    };
    if (names.length) {
      mesh.weights = names.map(() => 0);
      mesh.extras = { targetNames: names };
    }
    J.meshes.push(mesh);
    faceNodes[group] = addNode(group, BONES.head, "head");
    J.nodes[faceNodes[group]].mesh = J.meshes.length - 1;
  }

  // Hair chains: joint nodes under the head, one skinned mesh for all.
  const jointNodes = [];
  const springs = [];
  const skinPos = [];
  const skinNrm = [];
  const skinJ = [];
  const skinW = [];
  const skinF = [];
  for (const ch of CHAINS) {
    // Joints at the control points, each a child of the previous one.
    let parent = ch.parent;
    const ids = [];
    const js = [0];
    for (let i = 1; i < ch.joints.length; i++) js.push(js[i - 1] + len(sub(ch.joints[i], ch.joints[i - 1])));
    const scaleS = ch.total / js[js.length - 1];
    ch.joints.forEach((p, i) => {
      const name = `${ch.name}${i}`;
      addNode(name, p, parent);
      parent = name;
      ids.push(jointNodes.length);
      jointNodes.push(nodeOf[name]);
    });
    const n = ch.geo.normals();
    const o = skinPos.length;
    ch.geo.p.forEach((p, vi) => {
      skinPos.push(p);
      skinNrm.push(n[vi]);
      const s = ch.vs[vi] / scaleS;
      let k = 0;
      while (k < js.length - 2 && s > js[k + 1]) k++;
      const f = clamp((s - js[k]) / (js[k + 1] - js[k]), 0, 1);
      const w0 = Math.round(255 * (1 - f));
      // Unused influence slots carry joint 0 and weight 0.
      if (w0 === 255 || w0 === 0) {
        skinJ.push([ids[w0 ? k : k + 1], 0, 0, 0]);
        skinW.push([255, 0, 0, 0]);
      } else {
        skinJ.push([ids[k], ids[k + 1], 0, 0]);
        skinW.push([w0, 255 - w0, 0, 0]);
      }
    });
    for (const [a, b, c] of ch.geo.f) skinF.push([a + o, b + o, c + o]);
    springs.push({
      name: ch.name,
      joints: ch.joints.map((_, i) => ({
        node: jointNodes[ids[i]],
        hitRadius: ch.name === "HairAhoge" ? 0.01 : 0.035,
        stiffness: ch.stiffness,
        gravityPower: ch.name === "HairAhoge" ? 0 : 0.15,
        gravityDir: [0, -1, 0],
        dragForce: 0.45,
      })),
      colliderGroups: ch.name === "HairAhoge" ? [] : [0],
    });
  }
  const jointsArr = new Uint8Array(skinJ.length * 4);
  skinJ.forEach((j, i) => jointsArr.set(j, i * 4));
  const weightsArr = new Uint8Array(skinW.length * 4);
  skinW.forEach((v, i) => weightsArr.set(v, i * 4));
  const ibm = new Float32Array(jointNodes.length * 16);
  jointNodes.forEach((ni, i) => {
    const p = world[J.nodes[ni].name];
    ibm.set([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -p[0], -p[1], -p[2], 1], i * 16);
  });
  J.skins.push({
    name: "HairSkin",
    skeleton: nodeOf.head,
    joints: jointNodes,
    inverseBindMatrices: w.mat4(ibm),
  });
  J.meshes.push({
    name: "HairTails",
    primitives: [
      {
        attributes: {
          POSITION: w.vec3(skinPos),
          NORMAL: w.vec3(skinNrm, false),
          JOINTS_0: w.vec4(jointsArr, 5121),
          WEIGHTS_0: w.vec4(weightsArr, 5121, true),
        },
        indices: w.indices(skinF),
        material: MAT_INDEX.hair,
      },
    ],
  });
  J.nodes.push({ name: "HairTails", mesh: J.meshes.length - 1, skin: 0 });
  J.scenes[0].nodes.push(J.nodes.length - 1);

  // ----------------------------------------------------------- VRM ext ---
  // An expression binds the morph target of the same name on every face mesh that has one.
  const binds = (name) =>
    Object.entries(FACE_GROUPS)
      .filter(([, names]) => names.includes(name))
      .map(([group, names]) => ({ node: faceNodes[group], index: names.indexOf(name), weight: 1 }));
  const expr = (binds, extra = {}) => ({
    morphTargetBinds: binds,
    isBinary: false,
    overrideBlink: "none",
    overrideLookAt: "none",
    overrideMouth: "none",
    ...extra,
  });
  // Emotions keep the mouth free for lip-sync (their mouth deltas add up
  // well with aa..oh); blinking on top of eyes that are already closed or
  // half closed would overshoot, so those emotions block or fade it.
  const emotion = (name, blink) => expr(binds(name), { overrideBlink: blink });
  const preset = {
    happy: emotion("happy", "block"),
    angry: emotion("angry", "blend"),
    sad: emotion("sad", "blend"),
    relaxed: emotion("relaxed", "block"),
    surprised: emotion("surprised", "block"),
    aa: expr(binds("aa")),
    ih: expr(binds("ih")),
    ou: expr(binds("ou")),
    ee: expr(binds("ee")),
    oh: expr(binds("oh")),
    blink: expr([...binds("blinkLeft"), ...binds("blinkRight")], { isBinary: true }),
    blinkLeft: expr(binds("blinkLeft"), { isBinary: true }),
    blinkRight: expr(binds("blinkRight"), { isBinary: true }),
    lookUp: expr(binds("lookUp")),
    lookDown: expr(binds("lookDown")),
    lookLeft: expr(binds("lookLeft")),
    lookRight: expr(binds("lookRight")),
    neutral: expr([]),
  };
  const humanBones = {};
  for (const b of boneOrder) humanBones[b] = { node: nodeOf[b] };

  const range = { inputMaxValue: 45, outputScale: 1 };
  J.extensionsUsed = ["VRMC_vrm", "VRMC_materials_mtoon", "VRMC_springBone"];
  J.extensions = {
    VRMC_vrm: {
      specVersion: "1.0",
      meta: {
        name: "Yui",
        version: "1.0.0",
        authors: ["YUI project"],
        copyrightInformation: "Generated by scripts/gen-character.mjs; CC0-1.0, see LICENSE-assets.md",
        licenseUrl: "https://vrm.dev/licenses/1.0/",
        avatarPermission: "everyone",
        commercialUsage: "corporation",
        creditNotation: "unnecessary",
        allowRedistribution: true,
        modification: "allowModificationRedistribution",
        otherLicenseUrl: "LICENSE-assets.md",
      },
      humanoid: { humanBones },
      expressions: { preset },
      lookAt: {
        offsetFromHeadBone: r6(sub([0, BONES.leftEye[1], 0.12], BONES.head)),
        type: "expression",
        rangeMapHorizontalInner: range,
        rangeMapHorizontalOuter: range,
        rangeMapVerticalDown: range,
        rangeMapVerticalUp: range,
      },
    },
    VRMC_springBone: {
      specVersion: "1.0",
      colliders: [
        { node: nodeOf.head, shape: { sphere: { offset: r6(sub(HEAD_C, BONES.head)), radius: 0.19 } } },
        { node: nodeOf.chest, shape: { sphere: { offset: [0, 0.05, 0], radius: 0.1 } } },
        { node: nodeOf.hips, shape: { sphere: { offset: [0, -0.02, 0], radius: 0.13 } } },
      ],
      colliderGroups: [{ name: "Body", colliders: [0, 1, 2] }],
      springs,
    },
  };
  return w.glb();
}

// ------------------------------------------------------------------- main ---

function main() {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const oi = args.indexOf("--out");
  const out = oi >= 0 ? resolve(args[oi + 1]) : DEFAULT_OUT;
  const bytes = build();
  const rel = relative(process.cwd(), out) || out;
  if (check) {
    if (!existsSync(out)) {
      console.error(`${rel} is missing; run: node scripts/gen-character.mjs`);
      process.exit(1);
    }
    if (!readFileSync(out).equals(bytes)) {
      console.error(`${rel} is stale; run: node scripts/gen-character.mjs`);
      process.exit(1);
    }
    console.log(`${rel} is up to date (${bytes.length} bytes)`);
    return;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  console.log(`wrote ${rel} (${bytes.length} bytes)`);
}

main();
