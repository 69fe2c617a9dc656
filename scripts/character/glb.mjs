// The glTF 2.0 binary (GLB) writer: JSON chunk plus one binary buffer, laid
// out deterministically so the same model always gives the same bytes.

import { Buffer } from "node:buffer";

/** float32 value written with the fewest digits that read back to the same float32. */
function f32(x) {
  const v = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const s = Number(v.toPrecision(p));
    if (Math.fround(s) === v) return Object.is(s, -0) ? 0 : s;
  }
  return v;
}

/**
 * Builds the glTF JSON and its binary chunk. Data goes into a few pooled
 * buffer views (one per vertex stride, one for indices, one for the rest);
 * accessors point into them with byteOffset.
 */
export class GlbWriter {
  constructor() {
    this.pools = new Map();
    this.json = {
      asset: { version: "2.0", generator: "YUI scripts/gen-character.mjs" },
      scene: 0,
      scenes: [{ name: "Yui", nodes: [] }],
      nodes: [],
      meshes: [],
      materials: [],
      skins: [],
      accessors: [],
      bufferViews: [],
      buffers: [{ byteLength: 0 }],
    };
    this.patches = [];
  }
  /** Append bytes to a pool; returns a reference patched into a view index + offset at the end. */
  put(pool, bytes, opts = {}) {
    if (!this.pools.has(pool)) this.pools.set(pool, { chunks: [], length: 0, ...opts });
    const p = this.pools.get(pool);
    const pad = (4 - (p.length % 4)) % 4;
    if (pad) {
      p.chunks.push(Buffer.alloc(pad));
      p.length += pad;
    }
    const ref = { pool, offset: p.length };
    p.chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    p.length += bytes.byteLength;
    return ref;
  }
  /** Record that obj.bufferView / obj.byteOffset should point at ref. */
  at(obj, ref) {
    this.patches.push([obj, ref]);
    return obj;
  }
  /** Add an accessor (pointing at ref, if given); returns its index. */
  accessor(def, ref) {
    if (ref) this.at(def, ref);
    this.json.accessors.push(def);
    return this.json.accessors.length - 1;
  }
  /** Float VEC3 vertex attribute; bounds are required for POSITION only. */
  vec3(list, bounds = true) {
    const a = new Float32Array(list.length * 3);
    list.forEach((v, i) => a.set(v, i * 3));
    const ref = this.put("vec3", a, { target: 34962, byteStride: 12 });
    return this.accessor({ componentType: 5126, count: list.length, type: "VEC3", ...(bounds ? minMax(a, 3) : {}) }, ref);
  }
  /** Unsigned-byte VEC4 vertex attribute (joints, or normalized weights). */
  vec4(arr, componentType, normalized = false) {
    const ref = this.put("vec4u8", arr, { target: 34962, byteStride: 4 });
    const def = { componentType, count: arr.length / 4, type: "VEC4" };
    if (normalized) def.normalized = true;
    return this.accessor(def, ref);
  }
  /** Morph target displacements: all-zero accessor, sparse, or dense. */
  morph(list) {
    const nz = [];
    list.forEach((v, i) => {
      if (v[0] || v[1] || v[2]) nz.push(i);
    });
    const count = list.length;
    if (nz.length === 0) return this.accessor({ componentType: 5126, count, type: "VEC3", min: [0, 0, 0], max: [0, 0, 0] });
    const full = new Float32Array(count * 3);
    list.forEach((v, i) => full.set(v, i * 3));
    const mm = minMax(full, 3);
    if (nz.length * 3 > count * 2) {
      const ref = this.put("vec3", full, { target: 34962, byteStride: 12 });
      return this.accessor({ componentType: 5126, count, type: "VEC3", ...mm }, ref);
    }
    const idx = new Uint16Array(nz);
    const val = new Float32Array(nz.length * 3);
    nz.forEach((i, k) => val.set(list[i], k * 3));
    return this.accessor({
      componentType: 5126,
      count,
      type: "VEC3",
      ...mm,
      sparse: {
        count: nz.length,
        indices: this.at({ componentType: 5123 }, this.put("misc", idx)),
        values: this.at({}, this.put("misc", val)),
      },
    });
  }
  /** Unsigned-short triangle indices. */
  indices(faces) {
    const a = new Uint16Array(faces.length * 3);
    faces.forEach((f, i) => a.set(f, i * 3));
    return this.accessor({ componentType: 5123, count: a.length, type: "SCALAR" }, this.put("index", a, { target: 34963 }));
  }
  /** Float MAT4 accessor (inverse bind matrices). */
  mat4(arr) {
    return this.accessor({ componentType: 5126, count: arr.length / 16, type: "MAT4" }, this.put("ibm", arr));
  }
  /** Finish: lay out the buffer views, patch the references, and return the GLB bytes. */
  glb() {
    // Lay the pools out one after another, each a buffer view.
    const chunks = [];
    let length = 0;
    const viewOf = {};
    for (const [name, p] of this.pools) {
      const pad = (4 - (length % 4)) % 4;
      if (pad) chunks.push(Buffer.alloc(pad));
      length += pad;
      const bv = { buffer: 0, byteOffset: length, byteLength: p.length };
      if (p.byteStride) bv.byteStride = p.byteStride;
      if (p.target) bv.target = p.target;
      this.json.bufferViews.push(bv);
      viewOf[name] = this.json.bufferViews.length - 1;
      chunks.push(...p.chunks);
      length += p.length;
    }
    for (const [obj, ref] of this.patches) {
      obj.bufferView = viewOf[ref.pool];
      if (ref.offset) obj.byteOffset = ref.offset;
    }
    this.json.buffers[0].byteLength = length;
    const binPad = (4 - (length % 4)) % 4;
    const bin = Buffer.concat([...chunks, Buffer.alloc(binPad)]);
    let js = Buffer.from(JSON.stringify(this.json), "utf8");
    const jsPad = (4 - (js.length % 4)) % 4;
    js = Buffer.concat([js, Buffer.alloc(jsPad, 0x20)]);
    const header = Buffer.alloc(12);
    header.writeUInt32LE(0x46546c67, 0); // "glTF"
    header.writeUInt32LE(2, 4);
    header.writeUInt32LE(12 + 8 + js.length + 8 + bin.length, 8);
    const jh = Buffer.alloc(8);
    jh.writeUInt32LE(js.length, 0);
    jh.writeUInt32LE(0x4e4f534a, 4); // "JSON"
    const bh = Buffer.alloc(8);
    bh.writeUInt32LE(bin.length, 0);
    bh.writeUInt32LE(0x004e4942, 4); // "BIN\0"
    return Buffer.concat([header, jh, js, bh, bin]);
  }
}

/** Per-component min and max of a flat array of n-vectors, as float32 values (accessor bounds). */
function minMax(a, n) {
  const min = Array(n).fill(Infinity);
  const max = Array(n).fill(-Infinity);
  for (let i = 0; i < a.length; i++) {
    const k = i % n;
    if (a[i] < min[k]) min[k] = a[i];
    if (a[i] > max[k]) max[k] = a[i];
  }
  return { min: min.map(f32), max: max.map(f32) };
}
