// The skinned hair in the file: the twin tails and the ahoge from ./hair.mjs
// become joint chains under the head, one skinned mesh (HairTails) for all of
// them, and the VRMC_springBone springs and body colliders that make them sway.

import { clamp, len, r6, sub } from "./math.mjs";
import { HEAD_C } from "./surfaces.mjs";
import { BONES } from "./skeleton.mjs";
import { MAT_INDEX } from "./materials.mjs";

/** Add the hair chains' joint nodes, skin and HairTails mesh to w; returns the VRMC_springBone extension. */
export function addHairSprings(w, { nodeOf, world, addNode }, chains) {
  const J = w.json;
  // Hair chains: joint nodes under the head, one skinned mesh for all.
  const jointNodes = [];
  const springs = [];
  const skinPos = [];
  const skinNrm = [];
  const skinJ = [];
  const skinW = [];
  const skinF = [];
  for (const ch of chains) {
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

  return {
    specVersion: "1.0",
    colliders: [
      { node: nodeOf.head, shape: { sphere: { offset: r6(sub(HEAD_C, BONES.head)), radius: 0.19 } } },
      { node: nodeOf.chest, shape: { sphere: { offset: [0, 0.05, 0], radius: 0.1 } } },
      { node: nodeOf.hips, shape: { sphere: { offset: [0, -0.02, 0], radius: 0.13 } } },
    ],
    colliderGroups: [{ name: "Body", colliders: [0, 1, 2] }],
    springs,
  };
}
