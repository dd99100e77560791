/**
 * The split of a recall's time by part of the read path, from a V8 `.cpuprofile` of recalls
 * (`JEV_MEM_PROFILE_CPU` of `ab-recall.ts` or `profile-recall.ts`): for each part (a function
 * matched by name and file), the share of the sampled time whose stack holds it (inclusive, each
 * sample counted once per part; parts nest, so the shares do not add up), and ms per recall.
 *
 * `node --import tsx bench/scale/profile-split.ts <file.cpuprofile> [recalls=50] [--write]`
 *
 * With `--write` (issue 25, h-bulk) the parts are those of the write path (a profile of
 * `profile-write.ts`: bulk `addMany` or, with its `--add`, single writes) and the count is of
 * observations written: ms per observation.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import type { CpuProfile, ProfileNode } from './cpu-profile.js';


const argv = process.argv.slice(2).filter((a) => a !== '--write');
const writes = process.argv.includes('--write');
const file = argv[0];
if (file === undefined) throw new Error('usage: profile-split.ts <file.cpuprofile> [recalls] [--write]');
const recalls = Number(argv[1] ?? 50);
const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;

/** A part: a name and a test of one stack frame (function name, script URL). */
type Part = readonly [string, (fn: string, url: string) => boolean];

/** The parts of the write path (`--write`). */
const WRITE_PARTS: readonly Part[] = [
  ['garbage collector', (f) => f === '(garbage collector)'],
  ['planning each write (prepareWrite)', (f, u) => f === 'prepareWrite' && u.includes('write/plan')],
  ['  of which candidate discovery (discoverCandidates)', (f) => f === 'discoverCandidates'],
  ['  of which the node (buildNode)', (f) => f === 'buildNode'],
  ['maintenance passes (planMaintenance)', (f) => f === 'planMaintenance'],
  ['state-update decisions, writes and maintenance (planStateUpdates)', (f) => f === 'planStateUpdates'],
  ["  of which the head's bound (mlpCeiling)", (f) => f === 'mlpCeiling'],
  ['System-One calls (askMany, ask)', (f, u) => (f === 'askMany' || f === 'ask') && u.includes('system-one/controller')],
  ['embedding (embed)', (f, u) => f === 'embed' && u.includes('encoder')],
  ['FTS5 search (record-sql-lexical search)', (f, u) => f === 'search' && u.includes('record-sql-lexical')],
  ['vector search (ANN / exact)', (f, u) => f === 'search' && (u.includes('vector-ann') || u.includes('vector-flat'))],
  ['vector insert (ANN / exact add)', (f, u) => f === 'add' && (u.includes('vector-ann') || u.includes('vector-flat'))],
  ['resident state apply (NamespaceState apply)', (f, u) => f === 'apply' && u.includes('resident/namespace')],
  ['store reads (record-sql-batch readMany)', (f, u) => f === 'readMany' && u.includes('record-sql-batch')],
  ['commits: batch to records (writeBatch)', (f, u) => f === 'writeBatch' && u.includes('record-commit')],
  ['commits: SQL transaction (sqlite-node transaction)', (f, u) => f === 'transaction' && u.includes('sqlite-node')],
  ['  of which fsync', (f) => f === 'fsync' || f === 'fsyncSync'],
  ['namespace meta reads (loadMeta)', (f) => f === 'loadMeta'],
  ['checkpoints (writeCheckpoint)', (f) => f === 'writeCheckpoint'],
  ['the store lock (mkdir / rmdir)', (f) => f === 'mkdirSync' || f === 'rmdirSync'],
];

/** The parts of a recall. */
const RECALL_PARTS: readonly Part[] = [
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
const PARTS = writes ? WRITE_PARTS : RECALL_PARTS;

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
const unit = writes ? 'observation' : 'recall';
console.log(`${(total / 1000).toFixed(0)} ms sampled over ${recalls} ${unit}s`);
PARTS.forEach(([name], k) => {
  const us = sums[k] as number;
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000 / recalls).toFixed(2).padStart(6)} ms per ${unit}  ${name}`);
});
