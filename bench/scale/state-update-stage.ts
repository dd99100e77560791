/**
 * The state-update stage of a write, in one process, with and without the ceiling (issue 25,
 * `src/system-one/state-update-ceiling.ts`): for each LoCoMo turn in order, the pairs a write and
 * its maintenance pass ask the logistic head about (its 10 previous turns, the write's K_w
 * candidates, and 20 other earlier turns drawn at random, maintenance's neighbours), over one
 * readings memo of `WRITE_READINGS_MAX` for the whole run (one `addMany` call). "every pair"
 * decides each pair as `planStateUpdates` did before the ceiling; "ceiling" skips the pairs the
 * ceiling puts below the threshold, as it does now. Prints, per write, the CPU time of each
 * (`process.cpuUsage`, rounds alternated), the texts read whole, and the pairs at or above the
 * threshold (which must be equal).
 *
 * `node --import tsx bench/scale/state-update-stage.ts [rounds=3] [threshold=0.85]`
 * (the LoCoMo file is `$JEV_MEM_LOCOMO_DATA` when set, else the default path, `bench/lib/data.ts`).
 *
 * @module
 */
import { RecentReadings } from '../../src/memory/write.js';
import { stateUpdateCeiling } from '../../src/system-one/state-update-ceiling.js';
import { decideStateUpdate, type StateSide } from '../../src/system-one/state-update.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';

const rounds = Number(process.argv[2] ?? 3);
const threshold = Number(process.argv[3] ?? 0.85);
const data = await loadLocomo(process.env.JEV_MEM_LOCOMO_DATA || defaultLocomoPath());
const turns: Array<{ text: string; speaker?: string }> = data.conversations.flatMap((c) => c.observations.map((o) => ({ text: o.speaker ? `${o.speaker}: ${o.text}` : o.text, ...(o.speaker ? { speaker: o.speaker } : {}) })));
let seed = 7;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const olderOf: number[][] = turns.map((_, i) => {
  const out: number[] = [];
  for (let d = 1; d <= 10 && d <= i; d++) out.push(i - d);
  for (let k = 0; k < 20 && i > 0; k++) out.push(Math.floor(random() * i));
  return out;
});
const pairs = olderOf.reduce((n, o) => n + o.length, 0);

function run(ceiling: boolean): { reached: number; read: number } {
  const memo = new RecentReadings();
  let reached = 0;
  let read = 0;
  const set = memo.set.bind(memo);
  memo.set = (k, v) => {
    read++;
    return set(k, v);
  };
  turns.forEach((t, i) => {
    const newer: StateSide = { ...t, timeMs: i + 1 };
    const bound = ceiling ? stateUpdateCeiling(newer, memo) : undefined;
    for (const j of olderOf[i] as number[]) {
      const older: StateSide = { ...(turns[j] as (typeof turns)[number]), timeMs: j };
      if (bound !== undefined && (bound.ceiling < threshold || bound.pair(older) < threshold)) continue;
      if (decideStateUpdate(newer, older, memo, 'logistic').probability >= threshold) reached++;
    }
  });
  return { reached, read };
}

const cpu: Record<'every pair' | 'ceiling', number[]> = { 'every pair': [], ceiling: [] };
const seen: Record<string, { reached: number; read: number }> = {};
for (let r = 0; r < rounds; r++) {
  for (const label of ['every pair', 'ceiling'] as const) {
    const c0 = process.cpuUsage();
    seen[label] = run(label === 'ceiling');
    const c = process.cpuUsage(c0);
    cpu[label].push((c.user + c.system) / 1000 / turns.length);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
console.log(`state-update stage: ${turns.length} writes, ${pairs} pairs (${(pairs / turns.length).toFixed(1)} per write), threshold ${threshold}, ${rounds} rounds alternated`);
for (const label of ['every pair', 'ceiling'] as const) {
  const s = seen[label] as { reached: number; read: number };
  console.log(`  ${label.padEnd(10)}: ${median(cpu[label]).toFixed(3)} ms CPU per write (median; ${cpu[label].map((x) => x.toFixed(3)).join(' / ')}); ${(s.read / turns.length).toFixed(2)} texts read whole per write; ${s.reached} pairs ≥ threshold`);
}
if (seen['every pair']?.reached !== seen['ceiling']?.reached) {
  console.error('the two runs decided differently');
  process.exitCode = 1;
}
