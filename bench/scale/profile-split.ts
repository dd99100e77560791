/**
 * The split of a recall's time by part of the read path, from a V8 `.cpuprofile` of recalls
 * (`JEV_MEM_PROFILE_CPU` of `ab-recall.ts` or `profile-recall.ts`): for each part (a function
 * matched by name and file), the share of the sampled time whose stack holds it (inclusive, each
 * sample counted once per part; parts nest, so the shares do not add up), and ms per recall.
 *
 * `node --import tsx bench/scale/profile-split.ts <file.cpuprofile> [recalls=50]`
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { CpuProfile, ProfileNode } from './cpu-profile.js';


const file = process.argv[2];
if (file === undefined) throw new Error('usage: profile-split.ts <file.cpuprofile> [recalls]');
const recalls = Number(process.argv[3] ?? 50);
const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;

/** The parts: a name and a test of one stack frame (function name, script URL). */
const PARTS: ReadonlyArray<readonly [string, (fn: string, url: string) => boolean]> = [
  ['garbage collector', (f) => f === '(garbage collector)'],
  ['candidate signals (candidateSignals)', (f, u) => f === 'candidateSignals' && u.includes('read/signals')],
  ['  of which the soft window overlap (overlapNodes)', (f) => f === 'overlapNodes'],
  ["  of which the candidate's terms (termsWith)", (f) => f === 'termsWith'],
  ['System One calls (askMany)', (f) => f === 'askMany'],
  ['  of which candidate rows (candidateRow)', (f) => f === 'candidateRow'],
  ['  of which answer cues (answerCues)', (f) => f === 'answerCues'],
  ['store reads of bodies and edge lists (readMany)', (f, u) => f === 'readMany' && u.includes('record-sql-batch')],
  ['FTS5 search (record-sql-lexical search)', (f, u) => f === 'search' && u.includes('record-sql-lexical')],
  ['the store lock (ready: mkdir / rmdir)', (f, u) => f === 'ready' && u.includes('sqlite-file-storage')],
  ["the question's time (questionTime: chrono)", (f) => f === 'questionTime'],
  ['directory look-ups (NodeDirectory has)', (f, u) => f === 'has' && u.includes('node-directory')],
  ['vector search (ANN / exact)', (f, u) => f === 'search' && (u.includes('vector-ann') || u.includes('vector-flat'))],
  ["the profiler's own stop (dispatch: not the recalls)", (f) => f === 'dispatch'],
];

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const total = profile.endTime - profile.startTime;
const sums = PARTS.map(() => 0);
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const hit = PARTS.map(() => false);
  for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
    const n = byId.get(x) as ProfileNode;
    PARTS.forEach(([, match], k) => {
      if (!hit[k] && match(n.callFrame.functionName || '(anonymous)', n.callFrame.url)) hit[k] = true;
    });
  }
  hit.forEach((h, k) => {
    if (h) sums[k] = (sums[k] as number) + dt;
  });
});
console.log(`${(total / 1000).toFixed(0)} ms sampled over ${recalls} recalls`);
PARTS.forEach(([name], k) => {
  const us = sums[k] as number;
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000 / recalls).toFixed(1).padStart(6)} ms per recall  ${name}`);
});
