/**
 * A small deterministic force-directed layout for the graph view (a few hundred nodes):
 * pairwise repulsion (Coulomb-like, 1/d), springs on links (Hooke, rest length `linkDistance`,
 * stiffness divided by the smaller degree of the two ends, as d3-force does, so dense clusters
 * do not collapse),
 * a weak pull to the centre, velocity damping and a cooling factor α that decays from 1 to
 * `alphaMin` over `iterations` steps (the scheme of d3-force). Starting positions lie on a
 * sunflower spiral in input order, so the same graph always gets the same picture. O(n²) per
 * step: 300 nodes × 300 steps ≈ 13 M pair updates, about 100 ms.
 *
 * @module
 */

/** Options of {@link forceLayout}. */
export interface ForceLayoutOptions {
  /** Steps to run. @default 300 */
  iterations?: number;
  /** Rest length of a link, in layout units. @default 30 */
  linkDistance?: number;
  /** Repulsion strength between every pair (force = repulsion·α / d). @default 30 */
  repulsion?: number;
  /** Spring stiffness of links. @default 0.5 */
  linkStrength?: number;
  /** Pull towards the origin (keeps separate components together). @default 0.03 */
  gravity?: number;
  /** Fraction of velocity lost per step. @default 0.4 */
  damping?: number;
  /** Final cooling factor. @default 0.001 */
  alphaMin?: number;
}

/** A link between node indices, with an optional strength multiplier (default 1). */
export type LayoutLink = readonly [from: number, to: number, strength?: number];

/**
 * Lays out `n` nodes joined by `links`.
 * @returns positions as `[x0, y0, x1, y1, …]` (length 2n), centred on the origin, in layout units.
 * @throws RangeError when a link names a node outside [0, n).
 */
export function forceLayout(n: number, links: readonly LayoutLink[], options: ForceLayoutOptions = {}): Float64Array {
  const iterations = options.iterations ?? 300;
  const distance = options.linkDistance ?? 30;
  const repulsion = options.repulsion ?? 30;
  const stiffness = options.linkStrength ?? 0.5;
  const gravity = options.gravity ?? 0.03;
  const keep = 1 - (options.damping ?? 0.4);
  const alphaMin = options.alphaMin ?? 0.001;
  for (const [a, b] of links) {
    if (!(a >= 0 && a < n && b >= 0 && b < n)) throw new RangeError(`link ${a}–${b} is outside 0..${n - 1}`);
  }
  const degree = new Float64Array(n);
  for (const [a, b] of links) {
    degree[a] = (degree[a] as number) + 1;
    degree[b] = (degree[b] as number) + 1;
  }
  const pos = new Float64Array(2 * n);
  const vel = new Float64Array(2 * n);
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const r = distance * 0.5 * Math.sqrt(i + 0.5);
    pos[2 * i] = r * Math.cos(i * golden);
    pos[2 * i + 1] = r * Math.sin(i * golden);
  }
  const decay = iterations > 1 ? Math.pow(alphaMin, 1 / (iterations - 1)) : 1;
  let alpha = 1;
  for (let step = 0; n > 1 && step < iterations; step++) {
    // Repulsion: every pair pushes apart with strength / d.
    for (let i = 0; i < n; i++) {
      const xi = pos[2 * i] as number;
      const yi = pos[2 * i + 1] as number;
      for (let j = i + 1; j < n; j++) {
        let dx = xi - (pos[2 * j] as number);
        let dy = yi - (pos[2 * j + 1] as number);
        let d2 = dx * dx + dy * dy;
        if (d2 < 1e-6) {
          // Coincident nodes: separate them along a fixed direction that depends on the pair.
          dx = ((i * 7 + j * 13) % 11) / 11 - 0.5;
          dy = ((i * 11 + j * 5) % 13) / 13 - 0.5;
          d2 = dx * dx + dy * dy;
        }
        const f = (repulsion * alpha) / d2;
        vel[2 * i] = (vel[2 * i] as number) + dx * f;
        vel[2 * i + 1] = (vel[2 * i + 1] as number) + dy * f;
        vel[2 * j] = (vel[2 * j] as number) - dx * f;
        vel[2 * j + 1] = (vel[2 * j + 1] as number) - dy * f;
      }
    }
    // Springs: each link pulls its ends towards the rest length.
    for (const [a, b, k = 1] of links) {
      if (a === b) continue;
      const dx = (pos[2 * b] as number) - (pos[2 * a] as number);
      const dy = (pos[2 * b + 1] as number) - (pos[2 * a + 1] as number);
      const d = Math.sqrt(dx * dx + dy * dy) || 1e-3;
      const f = (stiffness * k * alpha * (d - distance)) / d / 2 / Math.min(degree[a] as number, degree[b] as number);
      vel[2 * a] = (vel[2 * a] as number) + dx * f;
      vel[2 * a + 1] = (vel[2 * a + 1] as number) + dy * f;
      vel[2 * b] = (vel[2 * b] as number) - dx * f;
      vel[2 * b + 1] = (vel[2 * b + 1] as number) - dy * f;
    }
    for (let i = 0; i < 2 * n; i++) {
      const v = ((vel[i] as number) - (pos[i] as number) * gravity * alpha) * keep;
      vel[i] = v;
      pos[i] = (pos[i] as number) + v;
    }
    alpha *= decay;
  }
  if (n === 0) return pos;
  // Centre on the origin.
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    cx += pos[2 * i] as number;
    cy += pos[2 * i + 1] as number;
  }
  cx /= n;
  cy /= n;
  for (let i = 0; i < n; i++) {
    pos[2 * i] = (pos[2 * i] as number) - cx;
    pos[2 * i + 1] = (pos[2 * i + 1] as number) - cy;
  }
  return pos;
}

/** The bounding box `[minX, minY, maxX, maxY]` of positions from {@link forceLayout}. */
export function bounds(pos: Float64Array): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i + 1 < pos.length; i += 2) {
    const x = pos[i] as number;
    const y = pos[i + 1] as number;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return pos.length === 0 ? [0, 0, 0, 0] : [minX, minY, maxX, maxY];
}
