import { describe, expect, it } from "vitest";
import type { VRMHumanBoneName } from "@pixiv/three-vrm";
import { emptyPose, type Pose } from "./pose";
import {
  addPostureMix,
  blending,
  blendTo,
  clipMoves,
  clipOf,
  initialBlend,
  motionsAllowed,
  POSTURE_FADE_MS,
  postureMix,
  postureOffsets,
  WALK_HZ,
  type PostureClip,
} from "./posture";

const DEG = Math.PI / 180;

/** The pose of `clip` alone at `t` seconds. */
function sample(clip: PostureClip, t = 0, side: "left" | "right" = "left"): Pose {
  const pose = emptyPose();
  postureOffsets(pose, clip, t, 1, side);
  return pose;
}

const rot = (pose: Pose, bone: VRMHumanBoneName) => pose.bones[bone] ?? [0, 0, 0];

describe("posture clips", () => {
  it("maps posture and gait to a clip; a gait wins", () => {
    expect(clipOf("standing", null)).toBe("stand");
    expect(clipOf("lying", null)).toBe("stand"); // the bed scene draws lying
    expect(clipOf("sitting", null)).toBe("sit");
    expect(clipOf("peeking", null)).toBe("peek");
    expect(clipOf("dragging", null)).toBe("drag");
    expect(clipOf("walking", null)).toBe("walk");
    expect(clipOf("climbing", null)).toBe("climb");
    expect(clipOf("standing", "fall")).toBe("fall");
    expect(clipOf("walking", "hop")).toBe("hop");
    expect(clipMoves("walk") && clipMoves("drag") && !clipMoves("sit") && !clipMoves("peek")).toBe(true);
  });

  it("lets cue motions play only while she stands still (lying: the bed scene decides)", () => {
    expect(motionsAllowed("standing", null)).toBe(true);
    expect(motionsAllowed("lying", null)).toBe(true);
    for (const p of ["sitting", "peeking", "dragging", "walking", "climbing"] as const) expect(motionsAllowed(p, null)).toBe(false);
    expect(motionsAllowed("standing", "fall")).toBe(false);
  });

  it("standing adds nothing", () => {
    expect(sample("stand", 3)).toEqual(emptyPose());
  });

  it("sits with the thighs forward, shins down, a lean back, and the hips not moved", () => {
    for (const t of [0, 0.7, 2.1]) {
      const p = sample("sit", t);
      for (const leg of ["leftUpperLeg", "rightUpperLeg"] as const) {
        expect(rot(p, leg)[0]).toBeLessThanOrEqual(-80 * DEG);
        expect(rot(p, leg)[0]).toBeGreaterThanOrEqual(-90 * DEG);
      }
      for (const shin of ["leftLowerLeg", "rightLowerLeg"] as const) {
        // Thigh + shin: the shin hangs about straight down.
        expect(Math.abs(rot(p, shin)[0] + rot(p, "leftUpperLeg")[0])).toBeLessThan(12 * DEG);
      }
      expect(rot(p, "spine")[0]).toBeLessThan(0); // leans back
      expect(rot(p, "leftUpperArm")[0]).toBeGreaterThan(0); // hands back beside the hips
      expect(p.hipsLift).toBe(0);
      expect(p.bones.hips).toBeUndefined();
    }
    // The legs swing a little.
    expect(rot(sample("sit", 0.7), "leftLowerLeg")[0]).not.toBeCloseTo(rot(sample("sit", 0), "leftLowerLeg")[0]);
  });

  it("peeks leaning toward the side, the near hand up on the edge", () => {
    const left = sample("peek", 0, "left");
    const right = sample("peek", 0, "right");
    const lean = (p: Pose) => rot(p, "spine")[2] + rot(p, "chest")[2] + rot(p, "neck")[2] + rot(p, "head")[2];
    expect(lean(left)).toBeGreaterThan(15 * DEG); // +Z leans toward screen left
    expect(lean(left)).toBeLessThan(28 * DEG);
    expect(lean(right)).toBeLessThan(-15 * DEG);
    // Peeking left: her right hand (screen left) rises (−Z lifts the right arm); the left stays.
    expect(rot(left, "rightUpperArm")[2]).toBeLessThan(-30 * DEG);
    expect(left.bones.leftUpperArm).toBeUndefined();
    expect(rot(right, "leftUpperArm")[2]).toBeGreaterThan(30 * DEG);
    expect(right.bones.rightUpperArm).toBeUndefined();
  });

  it("dangles when held: arms a little out, legs swaying", () => {
    const a = sample("drag", 0.1);
    const b = sample("drag", 0.6);
    expect(rot(a, "leftUpperArm")[2]).toBeGreaterThan(15 * DEG);
    expect(rot(a, "rightUpperArm")[2]).toBeLessThan(-15 * DEG);
    expect(rot(a, "leftLowerLeg")[0]).toBeGreaterThan(0);
    expect(rot(a, "leftUpperLeg")[0]).not.toBeCloseTo(rot(b, "leftUpperLeg")[0]);
    expect(Math.abs(rot(a, "leftUpperLeg")[0])).toBeLessThan(20 * DEG); // loose, not kicking
  });

  it("walks at WALK_HZ: legs opposite, each arm against its leg", () => {
    const quarter = 1 / (4 * WALK_HZ);
    const p = sample("walk", quarter);
    expect(rot(p, "leftUpperLeg")[0]).toBeLessThan(-20 * DEG); // left leg forward
    expect(rot(p, "rightUpperLeg")[0]).toBeGreaterThan(20 * DEG); // right leg back
    expect(rot(p, "leftUpperArm")[0]).toBeGreaterThan(0); // left arm back
    expect(rot(p, "rightUpperArm")[0]).toBeLessThan(0);
    const half = sample("walk", quarter + 1 / (2 * WALK_HZ));
    expect(rot(half, "leftUpperLeg")[0]).toBeGreaterThan(20 * DEG);
    // A whole stride later it is the same pose.
    expect(rot(sample("walk", quarter + 1 / WALK_HZ), "leftUpperLeg")[0]).toBeCloseTo(rot(p, "leftUpperLeg")[0]);
  });

  it("climbs reaching up and lifting the knees in turn", () => {
    const a = sample("climb", 0.19); // ~a quarter cycle: left arm up, right knee up
    const b = sample("climb", 0.19 + 1 / 2.6);
    expect(rot(a, "leftUpperArm")[2]).toBeGreaterThan(rot(b, "leftUpperArm")[2]);
    expect(rot(a, "leftUpperArm")[2]).toBeGreaterThan(120 * DEG); // over the head
    expect(rot(a, "rightUpperLeg")[0]).toBeLessThan(rot(a, "leftUpperLeg")[0]); // right knee higher
    expect(rot(b, "leftUpperLeg")[0]).toBeLessThan(rot(b, "rightUpperLeg")[0]);
  });

  it("hops: crouch first (hips down, knees bent), then tucked (knees up)", () => {
    const crouch = sample("hop", 0.17);
    const tuck = sample("hop", 0.45);
    expect(crouch.hipsLift).toBeLessThan(-0.1);
    expect(rot(crouch, "leftLowerLeg")[0]).toBeGreaterThan(50 * DEG);
    expect(tuck.hipsLift).toBeCloseTo(0);
    expect(rot(tuck, "leftUpperLeg")[0]).toBeLessThan(-50 * DEG);
    expect(rot(tuck, "leftUpperArm")[0]).toBeLessThan(0); // arms forward
  });

  it("falls with the arms up and the legs apart", () => {
    const p = sample("fall", 0.3);
    expect(rot(p, "leftUpperArm")[2]).toBeGreaterThan(100 * DEG);
    expect(rot(p, "rightUpperArm")[2]).toBeLessThan(-100 * DEG);
    expect(rot(p, "leftUpperLeg")[2]).toBeGreaterThan(10 * DEG);
    expect(rot(p, "rightUpperLeg")[2]).toBeLessThan(-10 * DEG);
  });

  it("scales by the weight", () => {
    const half = emptyPose();
    postureOffsets(half, "sit", 0, 0.5);
    expect(rot(half, "leftUpperLeg")[0]).toBeCloseTo(rot(sample("sit"), "leftUpperLeg")[0] / 2);
  });
});

describe("posture crossfade", () => {
  const drawn = (blend: ReturnType<typeof initialBlend>, now: number) => {
    const pose = emptyPose();
    addPostureMix(pose, postureMix(blend, now), now);
    return pose;
  };

  it("starts at the old pose and ends at the new one", () => {
    const sit = blendTo(initialBlend(), "sit", 0);
    const settled = drawn(sit, 5000);
    const walk = blendTo(sit, "walk", 5000);
    expect(rot(drawn(walk, 5000), "leftUpperLeg")[0]).toBeCloseTo(rot(settled, "leftUpperLeg")[0]);
    expect(blending(walk, 5100)).toBe(true);
    const mid = rot(drawn(walk, 5000 + POSTURE_FADE_MS / 2), "leftUpperLeg")[0];
    expect(mid).toBeGreaterThan(rot(settled, "leftUpperLeg")[0]);
    const end = 5000 + POSTURE_FADE_MS;
    expect(blending(walk, end)).toBe(false);
    expect(postureMix(walk, end)).toEqual([{ clip: "walk", since: 5000, weight: 1 }]);
    const w = emptyPose();
    postureOffsets(w, "walk", POSTURE_FADE_MS / 1000, 1);
    expect(drawn(walk, end)).toEqual(w);
  });

  it("the weights sum to 1, and a change mid-fade starts from what was drawn", () => {
    const a = blendTo(blendTo(initialBlend(), "sit", 0), "drag", 1000);
    const b = blendTo(a, "fall", 1100);
    const sum = (m: { weight: number }[]) => m.reduce((s, c) => s + c.weight, 0);
    for (const t of [1100, 1150, 1250, 1400]) expect(sum(postureMix(b, t))).toBeCloseTo(1);
    expect(postureMix(b, 1100)).toEqual(postureMix(a, 1100).map((c) => ({ ...c })).concat([{ clip: "fall", since: 1100, weight: 0 }]));
    // Back to the clip that was fading out: it keeps its share.
    const c = blendTo(a, "sit", 1100);
    expect(postureMix(c, 1100).find((m) => m.clip === "sit")?.weight).toBeCloseTo(postureMix(a, 1100).find((m) => m.clip === "sit")!.weight);
    expect(sum(postureMix(c, 1200))).toBeCloseTo(1);
  });

  it("the same clip again changes nothing", () => {
    const a = blendTo(initialBlend(), "sit", 0);
    expect(blendTo(a, "sit", 900)).toBe(a);
  });
});
