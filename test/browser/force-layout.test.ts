/** The graph view's force layout (demo/src/force-layout.ts), run in Node: pure arithmetic. */
import { expect, test } from 'vitest';
import { bounds, forceLayout } from '../../demo/src/force-layout.js';

const dist = (p: Float64Array, a: number, b: number): number => Math.hypot((p[2 * a] as number) - (p[2 * b] as number), (p[2 * a + 1] as number) - (p[2 * b + 1] as number));

test('returns one (x, y) per node, centred on the origin', () => {
  const p = forceLayout(5, [[0, 1], [1, 2], [3, 4]]);
  expect(p).toHaveLength(10);
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < 5; i++) {
    sx += p[2 * i] as number;
    sy += p[2 * i + 1] as number;
  }
  expect(Math.abs(sx)).toBeLessThan(1e-9);
  expect(Math.abs(sy)).toBeLessThan(1e-9);
});

test('the same graph always gets the same picture', () => {
  const links = [[0, 1], [1, 2], [2, 0], [2, 3]] as const;
  expect(forceLayout(4, links)).toEqual(forceLayout(4, links));
});

test('a lone spring settles at its rest length when nothing else acts', () => {
  const p = forceLayout(2, [[0, 1]], { repulsion: 0, gravity: 0, linkDistance: 40 });
  expect(dist(p, 0, 1)).toBeCloseTo(40, 0);
});

test('linked nodes end closer together than unlinked ones', () => {
  // 0–1–2 is a chain; 3 is joined to nothing.
  const p = forceLayout(4, [[0, 1], [1, 2]]);
  expect(dist(p, 0, 1)).toBeLessThan(dist(p, 0, 3));
  expect(dist(p, 1, 2)).toBeLessThan(dist(p, 1, 3));
});

test('a dense graph (29 nodes, ~300 links) keeps every pair of nodes apart', () => {
  const links: Array<[number, number]> = [];
  for (let i = 0; i < 29; i++) for (let j = i + 1; j < 29; j++) if ((i * 31 + j * 17) % 100 < 73) links.push([i, j]);
  const p = forceLayout(29, links);
  let min = Infinity;
  for (let i = 0; i < 29; i++) for (let j = i + 1; j < 29; j++) min = Math.min(min, dist(p, i, j));
  const [x0, y0, x1, y1] = bounds(p);
  // Closest pair at least a tenth of the drawing's width: the dots do not pile up.
  expect(min).toBeGreaterThan((x1 - x0) / 10);
  expect(y1 - y0).toBeGreaterThan(0);
});

test('no node and one node are laid out at the origin', () => {
  expect(forceLayout(0, [])).toHaveLength(0);
  expect(Array.from(forceLayout(1, []))).toEqual([0, 0]);
  expect(bounds(new Float64Array())).toEqual([0, 0, 0, 0]);
});

test('a link to a node that does not exist is refused', () => {
  expect(() => forceLayout(2, [[0, 2]])).toThrow(RangeError);
});
