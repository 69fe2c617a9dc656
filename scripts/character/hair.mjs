// The hair: the shell over the head, bangs, back locks and side locks (all
// rigid, on the head bone), plus the twin tails and the ahoge, which are
// skinned tubes on joint chains that VRMC_springBone turns into springs.

import { add, cross, dot, lerp, nrm, scl, smooth, sub } from "./math.mjs";
import { ellipsoid, spline, sweep } from "./primitives.mjs";
import { HAIR_C, HAIR_R, HEAD_C, hairDeform, hairZ, headZ, inHead, pushOut } from "./surfaces.mjs";
import { buildBow } from "./bow.mjs";

/** Add the rigid hair and the tail bows through part(bone, material, geo); returns the spring-bone chains. */
export function buildHair(part) {
  // Skinned hair: tubes with a joint chain each (spring bones), as
  // { name, geo, vs, total, joints, parent, stiffness } (see sweep() for vs and total).
  const chains = [];

  part("head", "hair", ellipsoid(HAIR_C, HAIR_R, 32, 22, hairDeform).cull((q) => inHead(q)));

  // Bangs: strands that follow the hair/forehead surface down to tips above the brows.
  const surfZ = (x, y) => Math.max(headZ(x, y - HEAD_C[1]) + HEAD_C[2], hairZ(x - HAIR_C[0], y - HAIR_C[1]));
  const surfN = (x, y) => {
    const e = 1e-4;
    const dx = (surfZ(x + e, y) - surfZ(x - e, y)) / (2 * e);
    const dy = (surfZ(x, y + e) - surfZ(x, y - e)) / (2 * e);
    return nrm([-dx, -dy, 1]);
  };
  const strands = [
    // [root x, tip x, tip y, half width, bend, layer]
    [-0.0, -0.018, 0.8, 0.03, -0.01, 2],
    [0.02, 0.04, 0.812, 0.03, 0.008, 1],
    [-0.05, -0.075, 0.826, 0.034, -0.012, 1],
    [0.07, 0.1, 0.822, 0.034, 0.012, 2],
    [-0.1, -0.132, 0.8, 0.032, -0.01, 2],
    [0.12, 0.15, 0.79, 0.03, 0.01, 1],
    [-0.135, -0.168, 0.755, 0.026, -0.006, 1],
    [0.15, 0.178, 0.745, 0.024, 0.006, 2],
  ];
  for (const [xr, xt, yt, hw, bend, layer] of strands) {
    const yr = 0.955;
    const ctrl = [];
    for (let i = 0; i <= 8; i++) {
      const t = i / 8;
      const x = lerp(xr, xt, t) + bend * Math.sin(Math.PI * t);
      const y = lerp(yr, yt, t * (2 - t) * 0.5 + t * 0.5);
      ctrl.push([x, y]);
    }
    const path = ctrl.map(([x, y]) => [x, y, surfZ(x, y) + 0.002 + 0.0025 * layer]);
    const { geo } = sweep(
      path,
      (t) => {
        const w = hw * Math.pow(Math.sin((Math.PI / 2) * (1 - t)), 0.55) * (0.75 + 0.25 * smooth(0, 0.4, t));
        return [w, 0.0065 * (1 - t) + 0.0018];
      },
      { seg: 8, up: (p) => surfN(p[0], p[1]), lift: (t, hh) => hh },
    );
    part("head", "hair", geo);
  }

  // Back strands: flat locks lying on the shell, with free tips below it.
  const shellPt = (th, ph) =>
    add(HAIR_C, hairDeform([HAIR_R[0] * Math.sin(ph) * Math.cos(th), HAIR_R[1] * Math.cos(ph), HAIR_R[2] * Math.sin(ph) * Math.sin(th)]));
  const shellN = (th, ph) => {
    const e = 1e-4;
    const dth = sub(shellPt(th + e, ph), shellPt(th - e, ph));
    const dph = sub(shellPt(th, ph + e), shellPt(th, ph - e));
    return nrm(cross(dth, dph));
  };
  for (const deg of [270, 245, 295, 220, 320, 198, 342]) {
    const th = (deg * Math.PI) / 180;
    const back = deg === 270 ? 0 : 1;
    const ph0 = 0.3 * Math.PI;
    const ph1 = (deg > 200 && deg < 340 ? 0.78 : 0.7) * Math.PI;
    const path = [];
    const ns = [];
    for (let i = 0; i <= 6; i++) {
      const ph = lerp(ph0, ph1, i / 6);
      const n = shellN(th, ph);
      // The normal from the cross product points out of the shell: check against the radial.
      const out = dot(n, sub(shellPt(th, ph), HAIR_C)) > 0 ? n : scl(n, -1);
      ns.push(out);
      path.push(add(shellPt(th, ph), scl(out, 0.002 + 0.002 * back)));
    }
    // Tip: continue down and slightly out.
    const last = path[path.length - 1];
    const dir = nrm(add(nrm(sub(last, path[path.length - 2])), [0, -0.6, 0]));
    for (const k of [1, 2]) {
      path.push(add(add(last, scl(dir, 0.025 * k)), scl(ns[ns.length - 1], 0.004 * k)));
      ns.push(ns[ns.length - 1]);
    }
    const { geo } = sweep(
      path,
      (t) => [0.05 * Math.pow(Math.sin((Math.PI / 2) * Math.min(1, (1 - t) * 1.4)), 0.7), 0.006 * (1 - t) + 0.0015],
      { seg: 6, up: (p) => ns[path.indexOf(p)], lift: (t, hh) => hh },
    );
    part("head", "hair", geo);
  }

  // Side locks framing the face.
  for (const side of [1, -1]) {
    const ctrl = [
      [side * 0.15, 0.9, 0.09],
      [side * 0.185, 0.8, 0.075],
      [side * 0.19, 0.7, 0.07],
      [side * 0.178, 0.6, 0.07],
      [side * 0.16, 0.535, 0.065],
    ];
    const path = spline(ctrl, 3).map((p) => pushOut(p, 0.006));
    const { geo } = sweep(
      path,
      (t) => {
        const w = 0.028 * Math.pow(Math.sin((Math.PI / 2) * (1 - t)), 0.6) * (0.8 + 0.4 * Math.sin(Math.PI * t));
        return [w, 0.009 * (1 - t) + 0.002];
      },
      {
        seg: 10,
        up: (p) => nrm([p[0] - HEAD_C[0], 0, (p[2] - HEAD_C[2]) * 0.6]),
        lift: (t, hh) => hh * 0.5,
      },
    );
    part("head", "hair", geo);
  }

  // Twin tails, tied high on the sides of the head; springy.
  for (const side of [1, -1]) {
    const S = side > 0 ? "Left" : "Right";
    const ctrl = [
      [side * 0.16, 0.9, -0.05],
      [side * 0.25, 0.9, -0.07],
      [side * 0.305, 0.8, -0.08],
      [side * 0.315, 0.66, -0.075],
      [side * 0.29, 0.52, -0.06],
      [side * 0.25, 0.41, -0.05],
    ];
    const path = spline(ctrl, 5);
    const res = sweep(
      path,
      (t) => {
        const bulge = Math.sin(Math.PI * Math.min(1, t * 1.6)) * 0.6 + 0.4 * (1 - t);
        const r = lerp(0.026, 0.05 * Math.pow(1 - t, 0.55) * (0.55 + 0.6 * Math.sqrt(bulge)), smooth(0.02, 0.14, t));
        return [r, r * 0.85];
      },
      { seg: 14, ridge: 0.07, ridges: 7 },
    );
    chains.push({ name: "Hair" + S + "Tail", ...res, joints: ctrl, parent: "head", stiffness: 1.2 });
    buildBow(part, "head", pushOut([side * 0.2, 0.9, -0.02], 0.012), [side * 0.55, 0.3, 0.78], [1, -0.45 * side, 0], 1.5);
  }

  // Ahoge: one springy strand on top.
  {
    const ctrl = [
      [0.0, 0.975, 0.03],
      [0.012, 1.025, 0.045],
      [0.04, 1.055, 0.035],
      [0.065, 1.045, 0.02],
    ];
    const path = spline(ctrl, 5);
    const res = sweep(
      path,
      (t) => {
        const w = 0.011 * Math.pow(1 - t, 0.7);
        return [w, w * 0.55];
      },
      { seg: 8, up: () => [0, 0, 1] },
    );
    chains.push({ name: "HairAhoge", ...res, joints: ctrl, parent: "head", stiffness: 1.5 });
  }
  return chains;
}
