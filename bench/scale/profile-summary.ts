/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time by function and by source
 * file, the top lines of each, in ms and percent of the sampled time.
 *
 * `node --import tsx bench/scale/profile-summary.ts <file.cpuprofile> [top=25]`
 *
 * A `.heapprofile` (V8's sampling heap profiler: `JEV_MEM_PROFILE_HEAP` of `profile-recall.ts`)
 * is summarised the same way in sampled bytes allocated, by the function that allocated them
 * (self) and by every function on its stack (inclusive).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { CpuProfile, ProfileNode } from './cpu-profile.js';


const file = process.argv[2];
if (file === undefined) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const top = Number(process.argv[3] ?? 25);
const parsed = JSON.parse(await readFile(file, 'utf8')) as CpuProfile | HeapProfile;
if ('head' in parsed) {
  summariseHeap(parsed);
  process.exit(0);
}
const profile = parsed;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const totalUs = profile.endTime - profile.startTime;
const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id) as ProfileNode;
  const url = n.callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/(src|bench|node_modules)\//, '$1/');
  const fn = `${n.callFrame.functionName || '(anonymous)'} ${url}:${n.callFrame.lineNumber + 1}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + us);
  byFile.set(url || n.callFrame.functionName, (byFile.get(url || n.callFrame.functionName) ?? 0) + us);
}
const show = (title: string, m: Map<string, number>): void => {
  console.log(`\n${title} (of ${(totalUs / 1000).toFixed(0)} ms sampled)`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${k}`);
};
// Inclusive time: each sample counts once for every distinct function on its stack.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const nameOf = (n: ProfileNode): string => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/(src|bench|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) seen.add(nameOf(byId.get(cur) as ProfileNode));
  for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + us);
}
show('self time by file', byFile);
show('self time by function', byFn);
show('inclusive time by function', inclusive);

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}
interface HeapProfile {
  head: HeapNode;
}

/** Prints the sampled allocation of a heap profile by function, self and inclusive (MiB). */
function summariseHeap(heap: HeapProfile): void {
  const label = (n: HeapNode): string =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/(src|bench|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  const walk = (n: HeapNode, stack: string[]): number => {
    const k = label(n);
    self.set(k, (self.get(k) ?? 0) + n.selfSize);
    total += n.selfSize;
    let sum = n.selfSize;
    for (const c of n.children) sum += walk(c, [...stack, k]);
    if (!stack.includes(k)) incl.set(k, (incl.get(k) ?? 0) + sum);
    return sum;
  };
  walk(heap.head, []);
  const mib = (b: number): string => (b / 2 ** 20).toFixed(1).padStart(8);
  for (const [title, m] of [['allocation by function, self', self], ['allocation by function, inclusive', incl]] as const) {
    console.log(`\n${title} (of ${(total / 2 ** 20).toFixed(1)} MiB sampled)`);
    for (const [k, b] of [...m].sort((a, c) => c[1] - a[1]).slice(0, top)) console.log(`${mib(b)} MiB ${((100 * b) / total).toFixed(1).padStart(5)}%  ${k}`);
  }
}
