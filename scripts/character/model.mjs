// Puts the character together: builds the parts, the face and the hair, then
// writes the file's node tree (the humanoid bones, one rigid mesh per bone,
// the face meshes with their morph targets, the skinned hair), the materials
// and the VRM extensions, in a fixed order so the bytes never change.

import { r6, sub } from "./math.mjs";
import { merge } from "./geometry.mjs";
import { BONES, PARENT } from "./skeleton.mjs";
import { MAT_INDEX, MATERIALS, materialJson } from "./materials.mjs";
import { buildBody, buildHead } from "./body.mjs";
import { buildHair } from "./hair.mjs";
import { buildFace } from "./face/index.mjs";
import { FACE_GROUPS } from "./face/targets.mjs";
import { GlbWriter } from "./glb.mjs";
import { addHairSprings } from "./springs.mjs";
import { vrmExtension } from "./vrm.mjs";

/**
 * The glTF node tree being written into J: addNode(name, world position,
 * parent name or null) stores the translation relative to the parent and
 * returns the node index; nodeOf maps names to indices, world to positions.
 */
function nodeTree(J) {
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
  return { nodeOf, world, addNode };
}

/** Build the whole character and return the VRM file's bytes (a GLB). */
export function buildCharacter() {
  /** Parts per bone: { bone: [[material, Geo in world space], ...] } */
  const boneParts = {};
  const part = (bone, mat, geo) => (boneParts[bone] ||= []).push([mat, geo]);
  buildHead(part);
  buildBody(part);
  const chains = buildHair(part);
  const face = buildFace();

  const w = new GlbWriter();
  const J = w.json;
  J.materials = Object.keys(MATERIALS).map(materialJson);

  // Nodes for the humanoid bones, in a fixed order.
  const nodes = nodeTree(J);
  const { nodeOf, addNode } = nodes;
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
    const parts = boneParts[bone];
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

  const springBone = addHairSprings(w, nodes, chains);

  J.extensionsUsed = ["VRMC_vrm", "VRMC_materials_mtoon", "VRMC_springBone"];
  J.extensions = { VRMC_vrm: vrmExtension(nodeOf, faceNodes), VRMC_springBone: springBone };
  return w.glb();
}
