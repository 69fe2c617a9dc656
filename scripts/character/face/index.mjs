// The face. Face features are flat 2D shapes in head-centre (x, y), projected
// onto the head's front surface a little in front of it, in layers so nothing
// z-fights. Expressions are morph targets: each expression is a different
// "state" fed to the same shape functions, and the target is the difference
// to the neutral state.

import { add, scl, sub } from "../math.mjs";
import { Geo } from "../geometry.mjs";
import { HEAD_C, headNormal, headZ } from "../surfaces.mjs";
import { band2D, disc2D, ellipsePt } from "./decals.mjs";
import { EYE_PARTS, IRIS, eyeToFace, hl, irisLayer, lashPt, lowLashPt } from "./eyes.mjs";
import { BROW, browPt } from "./brows.mjs";
import { mouthPt, tonguePt } from "./mouth.mjs";
import { FACE_GROUPS, faceState } from "./targets.mjs";

/** Face decal primitives: [group, material, offset, par, tris, fn(par, state) -> [x, y]] */
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

/** The face meshes by group: per primitive { mat, geo (world space), normals, targets (one per morph target) }. */
export function buildFace() {
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
