// Ribbon bows: the one on the collar and the two that tie the twin tails.

import { add, cross, dot, nrm, rotate, scl, sub } from "./math.mjs";
import { ellipsoid } from "./primitives.mjs";

/** Add a bow to `bone` through part(): at c facing n (loops along r), two loops, a knot, two short tails; k scales it. */
export function buildBow(part, bone, c, n, r, k) {
  const N = nrm(n);
  const R = nrm(sub(r, scl(N, dot(r, N))));
  const U = cross(N, R);
  const frame = (p) => add(c, add(add(scl(R, p[0] * k), scl(U, p[1] * k)), scl(N, p[2] * k)));
  for (const s of [1, -1]) {
    const loop = ellipsoid([0, 0, 0], [0.034, 0.022, 0.01], 12, 7, (p) => {
      // Pinch towards the knot, widen at the far end, tilt up.
      const t = (p[0] + 0.034) / 0.068;
      const q = [p[0] + 0.034, p[1] * (0.45 + 0.75 * t), p[2] * (0.7 + 0.5 * t)];
      return rotate([q[0] * s, q[1], q[2]], [0, 0, 1], s * 0.2);
    });
    part(bone, "ribbon", loop.map(frame));
    const tail = ellipsoid([0, 0, 0], [0.011, 0.026, 0.005], 6, 5, (p) => {
      const t = (0.026 - p[1]) / 0.052;
      return rotate([p[0] * (0.6 + 0.6 * t), p[1] - 0.024, p[2] - 0.004], [0, 0, 1], s * 0.35);
    });
    part(bone, "ribbon", tail.map(frame));
  }
  part(bone, "ribbon", ellipsoid([0, 0, 0.004], [0.012, 0.012, 0.009], 8, 5).map(frame));
}
