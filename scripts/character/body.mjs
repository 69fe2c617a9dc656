// The body and the clothes: the head's skin and the neck, the sailor dress
// (bodice, collar, skirt, puffed sleeves), arms, mitten hands, legs, socks and
// shoes. Each part is rigid: it is added, in world space, to the bone that
// carries it. Limbs are capsules whose round ends sit on the joints, so they
// stay closed however the joints bend.

import { add, rotate, smooth } from "./math.mjs";
import { capsule, ellipsoid, lathe, ringLathe } from "./primitives.mjs";
import { HEAD_C, HEAD_R, headDeform, underHair } from "./surfaces.mjs";
import { BONES } from "./skeleton.mjs";
import { buildBow } from "./bow.mjs";

/** Add the head's skin (its hidden back culled) and the neck through part(bone, material, geo). */
export function buildHead(part) {
  // The back of the head is never seen (the hair covers it): cull it.
  part("head", "skin", ellipsoid(HEAD_C, HEAD_R, 36, 24, headDeform).cull(underHair));
  part("neck", "skinShade", capsule([0, 0.52, 0], [0, 0.63, 0], 0.03, 0.03, 14, 3));
}

/** Add the dress, the collar bow, arms, hands, legs, socks and shoes through part(bone, material, geo). */
export function buildBody(part) {
  // Bodice: an elliptic lathe from the waist to the shoulders.
  part(
    "chest",
    "dress",
    lathe(
      [
        [0, 0.35],
        [0.07, 0.352],
        [0.083, 0.37],
        [0.088, 0.41],
        [0.094, 0.46],
        [0.098, 0.495],
        [0.092, 0.52],
        [0.074, 0.538],
        [0.045, 0.552],
        [0.03, 0.56],
        [0, 0.565],
      ],
      28,
      { zs: 0.78 },
    ),
  );
  // Sailor collar: a white band over the shoulders.
  part(
    "chest",
    "white",
    ringLathe(
      [
        [0.036, 0.566],
        [0.062, 0.554],
        [0.094, 0.532],
        [0.112, 0.508],
        [0.116, 0.496],
        [0.108, 0.497],
        [0.088, 0.52],
        [0.058, 0.543],
        [0.034, 0.558],
      ],
      28,
      { zs: 0.8 },
    ),
  );
  // A stripe along the collar's edge.
  part(
    "chest",
    "dress",
    ringLathe(
      [
        [0.098, 0.5275],
        [0.1035, 0.5235],
        [0.1055, 0.5255],
        [0.1, 0.5295],
      ],
      28,
      { zs: 0.8 },
    ),
  );
  buildBow(part, "chest", [0, 0.49, 0.097], [0, 0.2, 1], [1, 0, 0], 0.95);
  // Skirt: an A-line bell with a white hem.
  part(
    "hips",
    "dress",
    lathe(
      [
        [0, 0.36],
        [0.05, 0.41],
        [0.083, 0.405],
        [0.09, 0.38],
        [0.104, 0.34],
        [0.124, 0.3],
        [0.145, 0.26],
        [0.16, 0.225],
        [0.166, 0.205],
        [0.162, 0.196],
        [0.1, 0.21],
        [0, 0.225],
      ],
      32,
      { zs: 0.86 },
    ),
  );
  part(
    "hips",
    "white",
    ringLathe(
      [
        [0.162, 0.2],
        [0.172, 0.206],
        [0.175, 0.214],
        [0.165, 0.218],
        [0.158, 0.21],
      ],
      32,
      { zs: 0.86 },
    ),
  );
  for (const side of [1, -1]) {
    const S = side > 0 ? "left" : "right";
    const sh = BONES[S + "UpperArm"];
    const el = BONES[S + "LowerArm"];
    const wr = BONES[S + "Hand"];
    const xd = [side, 0, 0];
    // Puffed sleeve with a white cuff.
    part(
      S + "UpperArm",
      "dress",
      lathe(
        [
          [0, -0.03],
          [0.03, -0.022],
          [0.041, -0.005],
          [0.044, 0.015],
          [0.042, 0.035],
          [0.034, 0.052],
          [0.026, 0.058],
          [0, 0.06],
        ],
        20,
        { o: sh, d: xd },
      ),
    );
    part(
      S + "UpperArm",
      "white",
      ringLathe(
        [
          [0.025, 0.05],
          [0.031, 0.052],
          [0.033, 0.058],
          [0.029, 0.064],
          [0.024, 0.06],
        ],
        20,
        { o: sh, d: xd },
      ),
    );
    part(S + "UpperArm", "skin", capsule(sh, el, 0.023, 0.021, 12, 4));
    part(S + "LowerArm", "skin", capsule(el, wr, 0.021, 0.019, 12, 4));
    // Mitten hand, palm down in the T-pose, with a thumb to the front.
    part(S + "Hand", "skin", ellipsoid(add(wr, [side * 0.028, -0.002, 0]), [0.034, 0.019, 0.028], 14, 8));
    part(
      S + "Hand",
      "skin",
      ellipsoid(add(wr, [side * 0.014, 0.0, 0.022]), [0.016, 0.01, 0.012], 8, 5, (p) =>
        rotate(p, [0, 1, 0], -side * 0.6),
      ),
    );
    // Legs: skin thighs, white socks, rounded shoes.
    const hip = BONES[S + "UpperLeg"];
    const knee = BONES[S + "LowerLeg"];
    const ankle = BONES[S + "Foot"];
    part(S + "UpperLeg", "skin", capsule(hip, knee, 0.04, 0.034, 16, 4));
    part(S + "LowerLeg", "white", capsule(knee, ankle, 0.035, 0.029, 16, 4));
    part(
      S + "Foot",
      "shoe",
      ellipsoid(add(ankle, [0, -0.022, 0.018]), [0.036, 0.036, 0.058], 16, 10, (p) => [
        p[0] * (1 + 0.15 * smooth(0, 0.058, p[2])),
        Math.max(p[1], -0.033),
        p[2],
      ]),
    );
  }
}
