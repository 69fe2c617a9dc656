import { describe, expect, it } from "vitest";
import * as THREE from "three";
import { Bed, blendBox, placeRoot } from "./bed";

describe("the bed", () => {
  const rest = new THREE.Box3(new THREE.Vector3(-0.3, 0, -0.15), new THREE.Vector3(0.3, 1.5, 0.15));

  it("is as long as she is tall plus a little, and her lying place keeps her on it", () => {
    const bed = new Bed(rest);
    const size = bed.box.getSize(new THREE.Vector3());
    expect(size.x).toBeGreaterThan(1.5);
    expect(size.x).toBeLessThan(1.5 * 1.2);
    const root = new THREE.Object3D();
    placeRoot(root, bed.place, 1);
    root.updateMatrixWorld(true);
    // Her feet (root origin) and head top (0, 1.5, 0) both land within the bed's length.
    const feet = new THREE.Vector3(0, 0, 0).applyMatrix4(root.matrixWorld);
    const head = new THREE.Vector3(0, 1.5, 0).applyMatrix4(root.matrixWorld);
    for (const p of [feet, head]) {
      expect(p.x).toBeGreaterThanOrEqual(bed.box.min.x);
      expect(p.x).toBeLessThanOrEqual(bed.box.max.x);
      expect(p.y).toBeLessThanOrEqual(bed.box.max.y);
    }
    expect(head.x).toBeLessThan(feet.x); // head on the pillow, at the left
    bed.dispose();
  });

  it("places her standing at 0 and blends the framing box", () => {
    const bed = new Bed(rest);
    const root = new THREE.Object3D();
    placeRoot(root, bed.place, 0);
    expect(root.position.length()).toBeCloseTo(0);
    expect(root.rotation.z).toBe(0);
    const half = blendBox(rest, bed.box, 0.5);
    expect(half.min.x).toBeCloseTo((rest.min.x + bed.box.min.x) / 2);
    expect(blendBox(rest, bed.box, 1).equals(bed.box)).toBe(true);
    bed.dispose();
  });
});
