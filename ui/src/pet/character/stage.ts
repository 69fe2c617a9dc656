// The 3D stage: a transparent WebGL canvas, the camera that frames the
// character in a region of the window, the light MToon needs, and the
// per-pixel read-back the click-through hit test uses.

import * as THREE from "three";
import { glPixel, type Point, type Rect } from "../hittest";

/** Where in the window the character stands, CSS pixels. */
export interface StageRegion {
  /** Top of the area the whole character must fit in. */
  top: number;
  /** Bottom of that area: the shoes rest here. */
  bottom: number;
  /** Left and right margin kept free. */
  side: number;
}

/** Vertical field of view: narrow, so the character is not distorted. */
const FOV = 20;

/** The renderer, scene, camera and lights of the pet window. */
export class Stage {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly camera = new THREE.PerspectiveCamera(FOV, 1, 0.1, 50);
  private width = 1;
  private height = 1;
  private readonly pixel = new Uint8Array(4);
  private all = new Uint8Array(0);
  /** True when WebGL runs on a software rasterizer (no multisampling then). */
  readonly software: boolean;

  /** Draw into `canvas`, which covers the whole window. */
  constructor(readonly canvas: HTMLCanvasElement) {
    // Multisampling doubles the cost of a frame on a software rasterizer
    // (llvmpipe under Xvfb, SwiftShader); keep it for real GPUs only.
    this.software = isSoftwareGl();
    this.renderer = new THREE.WebGLRenderer({ canvas, alpha: true, antialias: !this.software, premultipliedAlpha: true });
    this.renderer.setClearColor(0x000000, 0);
    this.renderer.outputColorSpace = THREE.SRGBColorSpace;
    const key = new THREE.DirectionalLight(0xffffff, Math.PI);
    key.position.set(1, 1.5, 2).normalize();
    this.scene.add(key);
    this.scene.add(new THREE.AmbientLight(0xffffff, 0.1 * Math.PI));
  }

  /** Match the window's CSS size and the device pixel ratio. */
  resize(width: number, height: number): void {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setSize(this.width, this.height, false);
    this.camera.aspect = this.width / this.height;
    this.camera.updateProjectionMatrix();
  }

  /** The canvas size in CSS pixels. */
  get size(): { width: number; height: number } {
    return { width: this.width, height: this.height };
  }

  /**
   * Aim the camera so `box` (the character in world space, rest pose) fills
   * `region`: as tall as fits, no wider than the region, feet on its bottom,
   * centred horizontally.
   */
  frame(box: THREE.Box3, region: StageRegion): void {
    const size = box.getSize(new THREE.Vector3());
    const centre = box.getCenter(new THREE.Vector3());
    const regionH = Math.max(40, region.bottom - region.top);
    const regionW = Math.max(40, this.width - 2 * region.side);
    const pxPerMetre = Math.min(regionH / Math.max(size.y, 0.01), regionW / Math.max(size.x, 0.01));
    const visibleH = this.height / pxPerMetre;
    const distance = visibleH / (2 * Math.tan(THREE.MathUtils.degToRad(FOV / 2)));
    // Put the box's bottom on region.bottom: screen y of the box centre.
    const centreY = region.bottom - (size.y * pxPerMetre) / 2;
    const lookY = centre.y + (centreY - this.height / 2) / pxPerMetre;
    const z = box.max.z; // measure from the front, so the near parts match the region
    this.camera.position.set(centre.x, lookY, z + distance);
    this.camera.lookAt(centre.x, lookY, z);
    this.camera.updateMatrixWorld();
  }

  /** Draw one frame. */
  render(): void {
    this.renderer.render(this.scene, this.camera);
  }

  /**
   * The canvas alpha (0..1) at CSS point `p`, read from the frame just drawn:
   * call it right after `render`, in the same task. Null outside the canvas.
   */
  readAlpha(p: Point): number | null {
    const gl = this.renderer.getContext();
    const at = glPixel(p, this.width, this.height, gl.drawingBufferWidth, gl.drawingBufferHeight);
    if (!at) return null;
    gl.readPixels(at.x, at.y, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, this.pixel);
    return this.pixel[3] / 255;
  }

  /**
   * Every pixel of the frame just drawn (RGBA, bottom row first) with the
   * buffer's and the canvas's sizes: call it right after `render`, in the
   * same task. The buffer is reused between calls.
   */
  readAll(): { pixels: Uint8Array; bufferWidth: number; bufferHeight: number; cssWidth: number; cssHeight: number } {
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    if (this.all.length !== w * h * 4) this.all = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, this.all);
    return { pixels: this.all, bufferWidth: w, bufferHeight: h, cssWidth: this.width, cssHeight: this.height };
  }

  /** A world point in window CSS pixels. */
  project(world: THREE.Vector3): Point {
    const v = world.clone().project(this.camera);
    return { x: ((v.x + 1) / 2) * this.width, y: ((1 - v.y) / 2) * this.height };
  }

  /** The screen box of every vertex of `root` as posed now, CSS pixels. */
  screenBox(root: THREE.Object3D): Rect | null {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    forEachVertex(root, (v) => {
      const p = this.project(v);
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
      maxX = Math.max(maxX, p.x);
      maxY = Math.max(maxY, p.y);
    });
    if (!Number.isFinite(minX)) return null;
    return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
  }

  /** Free the GL context. */
  dispose(): void {
    this.renderer.dispose();
  }
}

/** Call `f` with every visible mesh vertex under `root` in world space (skinning and morphs applied). */
export function forEachVertex(root: THREE.Object3D, f: (v: THREE.Vector3) => void): void {
  root.updateMatrixWorld(true);
  const v = new THREE.Vector3();
  root.traverseVisible((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh || !mesh.geometry?.attributes.position) return;
    const count = mesh.geometry.attributes.position.count;
    for (let i = 0; i < count; i++) {
      mesh.getVertexPosition(i, v);
      v.applyMatrix4(mesh.matrixWorld);
      f(v);
    }
  });
}

/** The world box of every vertex under `root`, as posed now. */
export function worldBox(root: THREE.Object3D): THREE.Box3 {
  const box = new THREE.Box3();
  forEachVertex(root, (v) => box.expandByPoint(v));
  return box;
}

/** True when the WebGL implementation is a software rasterizer. */
export function isSoftwareGl(): boolean {
  try {
    const gl = document.createElement("canvas").getContext("webgl2") ?? document.createElement("canvas").getContext("webgl");
    if (!gl) return false;
    const info = gl.getExtension("WEBGL_debug_renderer_info");
    const renderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    gl.getExtension("WEBGL_lose_context")?.loseContext();
    return isSoftwareRenderer(renderer);
  } catch {
    return false;
  }
}

/** True for the renderer strings of software rasterizers. */
export function isSoftwareRenderer(renderer: string): boolean {
  return /llvmpipe|softpipe|swiftshader|software|swrast/i.test(renderer);
}
