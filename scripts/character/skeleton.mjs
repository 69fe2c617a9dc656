// The humanoid skeleton: the VRM bones' world positions in the rest pose
// (a T-pose) and their parents. Node names in the file are these bone names.

import { HEAD_C } from "./surfaces.mjs";

// World positions in the rest pose (metres). VRM 1.0: +Y up, the model faces
// +Z, its left hand is on +X. About one metre tall, a chibi with a big head.

/** Bone name -> rest position; the right side mirrors the left. */
export const BONES = {
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

/** Bone name -> parent bone (null for the root); the bone nodes are written in this key order. */
export const PARENT = {
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
// The eye bones sit behind the centres of the eye decals (EYE in ./face/eyes.mjs).
BONES.leftEye = [0.08, HEAD_C[1] - 0.056, 0.13];
BONES.rightEye = [-0.08, HEAD_C[1] - 0.056, 0.13];
