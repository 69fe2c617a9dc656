// Indexed triangle meshes: the Geo container and the ring-stitching every
// closed shape in ./primitives.mjs is built on.

import { add, cross, dot, nrm, sub } from "./math.mjs";

/** An indexed triangle mesh: p = positions, f = faces (vertex index triples). */
export class Geo {
  constructor() {
    this.p = [];
    this.f = [];
  }
  /** Append a vertex; returns its index. */
  vert(q) {
    this.p.push(q);
    return this.p.length - 1;
  }
  /** Move every vertex through fn (in place); returns this. */
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

/** One mesh holding all the given meshes (vertices renumbered). */
export function merge(geos) {
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
export function ringsGeo(rings, startPole, endPole, loop = false) {
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
