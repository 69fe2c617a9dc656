// The posture clips on the bundled character (ui/public/characters/yui.vrm,
// no textures: it loads in plain Node): where her joints end up in the world,
// so a sign slip in posture.ts (a knee bending the wrong way, a lean toward
// the wrong side) shows here.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as THREE from "three";
import type { VRM, VRMHumanBoneName } from "@pixiv/three-vrm";
import { beforeAll, describe, expect, it } from "vitest";
import { loadVrm } from "./loader";
import { applyPose, emptyPose, restPose } from "./pose";
import { postureOffsets, WALK_HZ, type PostureClip } from "./posture";

const vrmPath = fileURLToPath(new URL("../../../public/characters/yui.vrm", import.meta.url));

let vrm: VRM;
let hipsRest: THREE.Vector3;
const managed = new Set<VRMHumanBoneName>();

beforeAll(async () => {
  const buf = readFileSync(vrmPath);
  vrm = await loadVrm(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
  hipsRest = vrm.humanoid.getNormalizedBoneNode("hips")!.position.clone();
});

/** World positions of the joints with `clip` at `t` on the rest pose (hips lift scaled as the avatar does). */
function posed(clip: PostureClip, t = 0, side: "left" | "right" = "left"): (bone: VRMHumanBoneName) => THREE.Vector3 {
  const pose = emptyPose();
  restPose(pose);
  postureOffsets(pose, clip, t, 1, side);
  pose.hipsLift *= hipsRest.y;
  applyPose(vrm.humanoid, pose, managed, hipsRest);
  vrm.update(0);
  vrm.scene.updateMatrixWorld(true);
  const at = new Map<VRMHumanBoneName, THREE.Vector3>();
  for (const bone of Object.keys(vrm.humanoid.humanBones) as VRMHumanBoneName[]) {
    const node = vrm.humanoid.getRawBoneNode(bone);
    if (node) at.set(bone, node.getWorldPosition(new THREE.Vector3()));
  }
  return (bone) => at.get(bone)!;
}

describe("postures on the bundled character", () => {
  it("sits on an edge at her hips: the hips stay, knees forward, shins down, hands by the hips", () => {
    const stand = posed("stand");
    const sit = posed("sit");
    expect(sit("hips").distanceTo(stand("hips"))).toBeLessThan(1e-6);
    const thigh = stand("hips").y - stand("leftLowerLeg").y;
    for (const side of ["left", "right"] as const) {
      const knee = sit(`${side}LowerLeg`);
      const foot = sit(`${side}Foot`);
      expect(knee.z).toBeGreaterThan(0.8 * thigh); // out in front
      expect(Math.abs(knee.y - sit("hips").y)).toBeLessThan(0.25 * thigh); // about level with the hips
      expect(foot.y).toBeLessThan(knee.y - 0.5 * thigh); // hanging down over the edge
      expect(Math.abs(foot.z - knee.z)).toBeLessThan(0.25 * thigh);
      const hand = sit(`${side}Hand`);
      expect(hand.z).toBeLessThan(stand(`${side}Hand`).z); // back a little, on the edge
    }
    expect(sit("head").z).toBeLessThan(stand("head").z); // leaning back
  });

  it("peeks: head toward the side, the hand on that side up", () => {
    const stand = posed("stand");
    const left = posed("peek", 0, "left");
    expect(left("head").x).toBeLessThan(stand("head").x - 0.03); // screen left is −X
    expect(left("rightHand").y).toBeGreaterThan(stand("rightHand").y + 0.05);
    expect(left("rightHand").x).toBeLessThan(stand("rightHand").x);
    const right = posed("peek", 0, "right");
    expect(right("head").x).toBeGreaterThan(stand("head").x + 0.03);
    expect(right("leftHand").y).toBeGreaterThan(stand("leftHand").y + 0.05);
  });

  it("walks and crouches with the feet on the floor", () => {
    const floor = posed("stand")("leftFoot").y;
    const walk = posed("walk", 1 / (4 * WALK_HZ));
    expect(Math.min(walk("leftFoot").y, walk("rightFoot").y)).toBeCloseTo(floor, 1);
    expect(walk("leftLowerLeg").z).toBeGreaterThan(walk("rightLowerLeg").z); // left knee ahead
    const crouch = posed("hop", 0.17);
    expect(Math.abs(crouch("leftFoot").y - floor)).toBeLessThan(0.02);
    expect(crouch("hips").y).toBeLessThan(posed("stand")("hips").y);
    const tuck = posed("hop", 0.45);
    expect(tuck("leftFoot").y).toBeGreaterThan(floor + 0.05); // knees up in the air
  });

  it("climbs and falls with the hands over the head", () => {
    const head = posed("stand")("head").y;
    const climb = posed("climb", 0.19);
    expect(Math.max(climb("leftHand").y, climb("rightHand").y)).toBeGreaterThan(head);
    const fall = posed("fall", 0.3);
    expect(fall("leftHand").y).toBeGreaterThan(head);
    expect(fall("rightHand").y).toBeGreaterThan(head);
    expect(fall("leftFoot").x - fall("rightFoot").x).toBeGreaterThan(posed("stand")("leftFoot").x - posed("stand")("rightFoot").x);
  });
});
