// Poses as small per-bone rotation offsets (radians, XYZ Euler) added on top of
// the relaxed rest pose, and the idle layers (breathing, head sway) that keep
// the character alive. Normalized bones: identity is the T-pose for every model.

import * as THREE from "three";
import type { VRMHumanBoneName, VRMHumanoid } from "@pixiv/three-vrm";

/** Rotation offsets per bone, plus a hips lift in metres. */
export interface Pose {
  bones: Partial<Record<VRMHumanBoneName, [number, number, number]>>;
  hipsLift: number;
}

/** An empty pose. */
export function emptyPose(): Pose {
  return { bones: {}, hipsLift: 0 };
}

/** Add `weight` × a rotation to `bone` in `pose`. */
export function addRot(pose: Pose, bone: VRMHumanBoneName, x: number, y: number, z: number, weight = 1): void {
  const r = pose.bones[bone] ?? (pose.bones[bone] = [0, 0, 0]);
  r[0] += x * weight;
  r[1] += y * weight;
  r[2] += z * weight;
}

const DEG = Math.PI / 180;

/** Arms relaxed down beside the body, elbows slightly bent, instead of the T-pose. */
export function restPose(pose: Pose): void {
  addRot(pose, "leftUpperArm", 0, 0, -70 * DEG);
  addRot(pose, "rightUpperArm", 0, 0, 70 * DEG);
  addRot(pose, "leftLowerArm", 0, -12 * DEG, 0);
  addRot(pose, "rightLowerArm", 0, 12 * DEG, 0);
  addRot(pose, "leftHand", 0, 0, -6 * DEG);
  addRot(pose, "rightHand", 0, 0, 6 * DEG);
}

/** Breathing at time `t` (s): the chest rises, the shoulders lift a little, about 15 breaths a minute. */
export function breathing(pose: Pose, t: number, weight = 1): void {
  const b = Math.sin(t * 2 * Math.PI * 0.25); // -1 exhale .. 1 inhale
  addRot(pose, "spine", -0.012 * b, 0, 0, weight);
  addRot(pose, "chest", -0.018 * b, 0, 0, weight);
  addRot(pose, "leftShoulder", 0, 0, 0.025 * b, weight);
  addRot(pose, "rightShoulder", 0, 0, -0.025 * b, weight);
  addRot(pose, "leftUpperArm", 0, 0, -0.01 * b, weight);
  addRot(pose, "rightUpperArm", 0, 0, 0.01 * b, weight);
}

/** A slow, irregular head sway and weight shift at time `t` (s): a few degrees. */
export function sway(pose: Pose, t: number, weight = 1): void {
  const yaw = 0.035 * Math.sin(t * 0.37) + 0.02 * Math.sin(t * 0.91 + 1.3);
  const roll = 0.03 * Math.sin(t * 0.29 + 0.7) + 0.012 * Math.sin(t * 1.13);
  const pitch = 0.015 * Math.sin(t * 0.53 + 2.1);
  addRot(pose, "head", pitch, yaw, roll, weight);
  addRot(pose, "neck", 0, yaw * 0.4, roll * 0.3, weight);
  addRot(pose, "hips", 0, 0, 0.01 * Math.sin(t * 0.21), weight);
  addRot(pose, "spine", 0, 0, -0.008 * Math.sin(t * 0.21), weight);
}

const euler = new THREE.Euler();

/**
 * Write `pose` to the normalized bones. Every bone in `managed` is set (to
 * identity when the pose leaves it out), so a layer that fades away leaves no
 * rotation behind. Missing bones (optional in VRM) are skipped.
 */
export function applyPose(humanoid: VRMHumanoid, pose: Pose, managed: Set<VRMHumanBoneName>, hipsRest: THREE.Vector3): void {
  for (const bone of Object.keys(pose.bones) as VRMHumanBoneName[]) managed.add(bone);
  for (const bone of managed) {
    const node = humanoid.getNormalizedBoneNode(bone);
    if (!node) continue;
    const r = pose.bones[bone];
    if (r) node.quaternion.setFromEuler(euler.set(r[0], r[1], r[2], "XYZ"));
    else node.quaternion.identity();
  }
  const hips = humanoid.getNormalizedBoneNode("hips");
  if (hips) hips.position.set(hipsRest.x, hipsRest.y + pose.hipsLift, hipsRest.z);
}
