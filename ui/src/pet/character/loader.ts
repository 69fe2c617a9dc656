// Loading: a VRM (0.x or 1.0) from bytes, and a .vrma clip for a loaded VRM.

import * as THREE from "three";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { VRMLoaderPlugin, VRMUtils, type VRM } from "@pixiv/three-vrm";
import { VRMAnimationLoaderPlugin, createVRMAnimationHumanoidTracks, type VRMAnimation } from "@pixiv/three-vrm-animation";

/** Parse VRM bytes; VRM 0.x models are turned to face +Z like VRM 1.0. */
export async function loadVrm(bytes: ArrayBuffer): Promise<VRM> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes, "");
  const vrm = gltf.userData.vrm as VRM | undefined;
  if (!vrm) throw new Error("the file is not a VRM (no VRMC_vrm or VRM extension)");
  if (vrm.meta.metaVersion === "0") VRMUtils.rotateVRM0(vrm);
  VRMUtils.removeUnnecessaryVertices(vrm.scene);
  VRMUtils.combineSkeletons(vrm.scene);
  vrm.scene.traverse((o) => {
    o.frustumCulled = false; // spring bones and poses move meshes outside their bind-pose bounds
  });
  return vrm;
}

/** Fetch the bundled character's bytes from `url`. */
export async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.arrayBuffer();
}

/**
 * Parse .vrma bytes into a clip for `vrm` (as createVRMAnimationClip builds
 * it, humanoid tracks only): the face (expressions, gaze) stays with the app's
 * own face logic.
 */
export async function loadVrmaClip(bytes: ArrayBuffer, vrm: VRM, name: string): Promise<THREE.AnimationClip> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes, "");
  const anims = gltf.userData.vrmAnimations as VRMAnimation[] | undefined;
  const anim = anims?.[0];
  if (!anim) throw new Error(`motion ${name}: no VRMC_vrm_animation in the file`);
  const { translation, rotation } = createVRMAnimationHumanoidTracks(anim, vrm.humanoid, vrm.meta.metaVersion);
  const tracks: THREE.KeyframeTrack[] = [...translation.values(), ...rotation.values()];
  return new THREE.AnimationClip(name, anim.duration, tracks);
}
