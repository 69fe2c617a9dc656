// The bed of the bed scene: a low wooden frame, a soft mattress, a pillow and
// a folded blanket, sized to the character; and where she lies on it. It
// stands in the same scene as her, so its pixels count for the click-through
// hit test like hers.

import * as THREE from "three";
import { RoundedBoxGeometry } from "three/examples/jsm/geometries/RoundedBoxGeometry.js";

/** Her tilt when lying (degrees about the view axis; under 90 so the pillow lifts her head). */
const LIE_DEG = 80;

/** Where she lies: her root's rotation about Z and its offset, for a character of rest box `rest`. */
export interface LyingPlace {
  angle: number;
  offset: THREE.Vector3;
  /** About her hips, in her root's frame: she turns about it on the way down. */
  pivot: THREE.Vector3;
}

/** The bed and its measures, built for one character. */
export class Bed {
  readonly group = new THREE.Group();
  /** The world box of the bed and her on it, for framing the camera. */
  readonly box: THREE.Box3;
  /** Where her root goes when she lies. */
  readonly place: LyingPlace;
  private readonly materials: THREE.MeshLambertMaterial[] = [];
  private opacity = -1;

  /** A bed for a character whose rest-pose world box is `rest` (feet at its bottom). */
  constructor(rest: THREE.Box3) {
    const h = Math.max(0.5, rest.max.y - rest.min.y);
    const floor = rest.min.y;
    const length = h * 1.14;
    const depth = Math.max(0.55, h * 0.42);
    const frameH = h * 0.07;
    const mattressH = h * 0.11;
    const top = floor + frameH + mattressH;
    const cx = (rest.min.x + rest.max.x) / 2;
    const cz = (rest.min.z + rest.max.z) / 2 - depth * 0.12;
    const part = (w: number, hh: number, d: number, colour: number, radius: number, x: number, y: number, z: number) => {
      const material = new THREE.MeshLambertMaterial({ color: colour, transparent: true });
      this.materials.push(material);
      const mesh = new THREE.Mesh(new RoundedBoxGeometry(w, hh, d, 3, radius), material);
      mesh.position.set(x, y, z);
      this.group.add(mesh);
      return mesh;
    };
    // Frame (warm wood), mattress (cream), pillow (soft pink), blanket over the foot end (lavender).
    part(length, frameH, depth, 0xc89f7a, frameH * 0.3, cx, floor + frameH / 2, cz);
    part(length * 0.98, mattressH, depth * 0.96, 0xfff6ea, mattressH * 0.45, cx, floor + frameH + mattressH / 2, cz);
    const pillowW = h * 0.2;
    part(pillowW, h * 0.09, depth * 0.62, 0xf9d3de, h * 0.035, cx - length / 2 + pillowW * 0.62, top + h * 0.035, cz);
    part(length * 0.42, h * 0.03, depth * 0.98, 0xc9b8ec, h * 0.012, cx + length * 0.26, top + h * 0.005, cz);
    this.group.visible = false;
    // She lies on her side facing the viewer, head on the pillow (left), feet toward the blanket.
    const angle = THREE.MathUtils.degToRad(LIE_DEG);
    // Her root rotated by `angle` about Z: the head top (0, h) goes to (-h sin, h cos).
    const headX = -h * Math.sin(angle);
    const offsetX = cx - length / 2 + pillowW * 0.25 - headX;
    // Half her thickness lying on her side (the mattress is soft: she sinks in a little).
    const side = h * 0.04;
    this.place = {
      angle,
      offset: new THREE.Vector3(offsetX, top + side - floor * Math.cos(angle), 0),
      pivot: new THREE.Vector3(0, floor + h * 0.5, 0),
    };
    this.box = new THREE.Box3(
      new THREE.Vector3(cx - length / 2, floor, cz - depth / 2),
      new THREE.Vector3(cx + length / 2, top + h * 0.32, cz + depth / 2),
    );
  }

  /** Show the bed at `opacity` (0 hides it). */
  setOpacity(opacity: number): void {
    const o = Math.max(0, Math.min(1, opacity));
    if (o === this.opacity) return;
    this.opacity = o;
    this.group.visible = o > 0;
    for (const m of this.materials) {
      m.opacity = o;
      m.transparent = o < 1;
      m.depthWrite = o >= 1;
      m.needsUpdate = true;
    }
  }

  /** Free the GPU resources. */
  dispose(): void {
    this.group.removeFromParent();
    this.group.traverse((o) => (o as THREE.Mesh).geometry?.dispose());
    for (const m of this.materials) m.dispose();
  }
}

/** Her root's pose at lying weight `lie` (0 standing .. 1 on the bed). */
export function placeRoot(root: THREE.Object3D, place: LyingPlace, lie: number): void {
  const k = Math.max(0, Math.min(1, lie));
  // She turns about her hips while the hips travel from standing to their place on the bed.
  const zAxis = new THREE.Vector3(0, 0, 1);
  const hipsEnd = place.pivot.clone().applyAxisAngle(zAxis, place.angle).add(place.offset);
  const hips = place.pivot.clone().lerp(hipsEnd, k);
  hips.y += Math.sin(Math.PI * k) * 0.05; // a little lift on the way, over the mattress edge
  const turned = place.pivot.clone().applyAxisAngle(zAxis, place.angle * k);
  root.rotation.set(0, 0, place.angle * k);
  root.position.copy(hips.sub(turned));
}

/** The framing box between standing (`rest`) and lying (`lying`) at weight `k`. */
export function blendBox(rest: THREE.Box3, lying: THREE.Box3, k: number, out = new THREE.Box3()): THREE.Box3 {
  const t = Math.max(0, Math.min(1, k));
  out.min.lerpVectors(rest.min, lying.min, t);
  out.max.lerpVectors(rest.max, lying.max, t);
  return out;
}
