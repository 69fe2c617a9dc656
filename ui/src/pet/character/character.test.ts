// The default character, ui/public/characters/yui.vrm: it loads through
// three-vrm as a VRM 1.0 avatar with the bones and expressions the app
// drives, and it is what scripts/gen-character.mjs generates today.
//
// The loader runs in plain Node (vitest's "node" environment): the file has
// no textures, so GLTFLoader needs no DOM, no createImageBitmap and no shims.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { VRMLoaderPlugin, type VRM, type VRMHumanBoneName } from "@pixiv/three-vrm";
import type { Object3D } from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { beforeAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const vrmPath = fileURLToPath(new URL("../../../public/characters/yui.vrm", import.meta.url));
const generator = fileURLToPath(new URL("../../../../scripts/gen-character.mjs", import.meta.url));

const BONES: VRMHumanBoneName[] = [
  "hips",
  "spine",
  "chest",
  "neck",
  "head",
  "leftEye",
  "rightEye",
  "leftShoulder",
  "leftUpperArm",
  "leftLowerArm",
  "leftHand",
  "rightShoulder",
  "rightUpperArm",
  "rightLowerArm",
  "rightHand",
  "leftUpperLeg",
  "leftLowerLeg",
  "leftFoot",
  "rightUpperLeg",
  "rightLowerLeg",
  "rightFoot",
];

const EMOTIONS = ["neutral", "happy", "angry", "sad", "relaxed", "surprised"];
const BLINKS = ["blink", "blinkLeft", "blinkRight"];
const MOUTHS = ["aa", "ih", "ou", "ee", "oh"];
const LOOKS = ["lookUp", "lookDown", "lookLeft", "lookRight"];

async function loadVrm(): Promise<VRM> {
  const bytes = readFileSync(vrmPath);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(data, "");
  const vrm = gltf.userData.vrm as VRM | undefined;
  if (!vrm) throw new Error("yui.vrm has no VRM extension");
  return vrm;
}

/** Every non-zero morph influence in the scene, as "mesh#index" keys. */
function activeMorphs(root: Object3D): Map<string, number> {
  const out = new Map<string, number>();
  root.traverse((o) => {
    const influences = (o as { morphTargetInfluences?: number[] }).morphTargetInfluences;
    influences?.forEach((w, i) => {
      if (w !== 0) out.set(`${o.name}#${i}`, w);
    });
  });
  return out;
}

/** Set exactly one expression (all others to 0) and apply it. */
function only(vrm: VRM, name: string | null): Map<string, number> {
  const em = vrm.expressionManager!;
  for (const e of em.expressions) em.setValue(e.expressionName, 0);
  if (name) em.setValue(name, 1);
  em.update();
  return activeMorphs(vrm.scene);
}

describe("default character yui.vrm", () => {
  let vrm: VRM;
  beforeAll(async () => {
    vrm = await loadVrm();
  });

  it("is a VRM 1.0 avatar by the YUI project under the VRM license", () => {
    expect(vrm.meta.metaVersion).toBe("1");
    if (vrm.meta.metaVersion !== "1") return;
    expect(vrm.meta.name).toBe("Yui");
    expect(vrm.meta.version).toBe("1.0.0");
    expect(vrm.meta.authors).toEqual(["YUI project"]);
    expect(vrm.meta.licenseUrl).toBe("https://vrm.dev/licenses/1.0/");
    expect(vrm.meta.avatarPermission).toBe("everyone");
    expect(vrm.meta.allowRedistribution).toBe(true);
  });

  it("has every humanoid bone the app animates", () => {
    for (const bone of BONES) expect(vrm.humanoid.getRawBoneNode(bone), bone).not.toBeNull();
  });

  it("has every expression the app uses", () => {
    const em = vrm.expressionManager;
    expect(em).toBeDefined();
    for (const name of [...EMOTIONS, ...BLINKS, ...MOUTHS, ...LOOKS])
      expect(em!.getExpression(name), name).not.toBeNull();
    expect(em!.getExpression("blink")!.isBinary).toBe(true);
  });

  it("blink moves the eye morph targets", () => {
    expect(only(vrm, null).size).toBe(0);
    const blink = only(vrm, "blink");
    expect(blink.size).toBeGreaterThan(0);
    for (const key of blink.keys()) expect(key).toMatch(/^FaceEyes/);
    const left = only(vrm, "blinkLeft");
    const right = only(vrm, "blinkRight");
    expect(left.size).toBeGreaterThan(0);
    expect(right.size).toBeGreaterThan(0);
    expect([...left.keys()].some((k) => !right.has(k))).toBe(true);
  });

  it("every emotion moves something", () => {
    for (const name of EMOTIONS.filter((n) => n !== "neutral")) expect(only(vrm, name).size, name).toBeGreaterThan(0);
  });

  it("the mouth shapes bind distinct morph targets", () => {
    const seen = new Set<string>();
    for (const name of MOUTHS) {
      const active = only(vrm, name);
      expect(active.size, name).toBeGreaterThan(0);
      for (const key of active.keys()) expect(key, name).toMatch(/^FaceMouth/);
      const signature = [...active.keys()].sort().join(",");
      expect(seen.has(signature), `${name} shares its morph targets`).toBe(false);
      seen.add(signature);
    }
  });

  it("has spring bones on the hair", () => {
    expect(vrm.springBoneManager?.joints.size ?? 0).toBeGreaterThan(0);
  });

  it("is up to date with scripts/gen-character.mjs", () => {
    const run = spawnSync(process.execPath, [generator, "--check"], { cwd: repoRoot, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
  });
});
