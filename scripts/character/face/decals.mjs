// Parameter meshes for the face decals: flat triangle grids whose vertices
// carry parameters (polar or band coordinates) that a shape function later
// maps to face coordinates, once per expression state.

import { TAU } from "../math.mjs";

/** Polar disc parameters: centre + rings. */
export function disc2D(rings, segs) {
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
export function band2D(ns, nt) {
  const par = [];
  const tris = [];
  for (let i = 0; i <= ns; i++) for (let j = 0; j <= nt; j++) par.push([i / ns, j / nt]);
  const id = (i, j) => i * (nt + 1) + j;
  for (let i = 0; i < ns; i++)
    for (let j = 0; j < nt; j++) tris.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)], [id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
  return { par, tris };
}
/** A polar parameter [f, th] mapped onto the ellipse at (cu, cv) with radii ru, rv. */
export const ellipsePt = ([f, th], cu, cv, ru, rv) => [cu + f * ru * Math.cos(th), cv + f * rv * Math.sin(th)];
