/**
 * CPU of the state-update MLP head on the pairs a write asks (h-writeperf2, issue 22): every
 * LoCoMo turn of the dev conversations 0-4 against its 20 predecessors (newer → older, as
 * `planStateUpdates` asks them), through `stateUpdateReaching` with one readings memo per
 * conversation (as one `addMany` call holds one), at the 0.85 threshold. Prints one JSON line: the
 * pairs, CPU ms per 1,000 pairs (best of `rounds`, each round with fresh memos), how many were read
 * whole, a digest of the answers of the pairs read whole (probability, kind, model) and one of the
 * whole feature rows of every 7th pair, so two trees (or a change) compare by `digest`: equal digests, equal decisions.
 *
 * `node --import tsx bench/scale/state-head-pairs.ts [rounds=5] [--data locomo10.json]`
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { loadLocomo, defaultLocomoPath } from '../lib/data.js';
import { passageOf } from '../../src/write/passage.js';
import { stateMlpFeatures, stateUpdateReaching, type StateReadings, type StateSide } from '../../src/system-one/state-update.js';

const dataIndex = process.argv.indexOf('--data');
const data = await loadLocomo(dataIndex > 0 ? (process.argv[dataIndex + 1] as string) : defaultLocomoPath());
const rounds = Number(process.argv.slice(2).find((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--data') ?? 5);
const conversations = data.conversations.slice(0, 5).map((c) =>
  c.observations.map((o, i): StateSide => {
    const at = o.observedAt;
    const t = at === undefined ? NaN : typeof at === 'string' ? Date.parse(at) : new Date(at).getTime();
    const side: StateSide = { text: passageOf(o.text), timeMs: (Number.isFinite(t) ? t : 0) + i };
    if (o.speaker !== undefined) side.speaker = o.speaker;
    return side;
  }),
);
let best = Number.POSITIVE_INFINITY;
let pairs = 0;
let read = 0;
let digest = '';
for (let r = 0; r < rounds; r++) {
  const hash = createHash('sha256');
  pairs = 0;
  read = 0;
  const start = process.cpuUsage();
  for (const sides of conversations) {
    const memo: StateReadings = new Map();
    for (let i = 1; i < sides.length; i++) {
      for (let j = Math.max(0, i - 20); j < i; j++) {
        const d = stateUpdateReaching(sides[i] as StateSide, sides[j] as StateSide, memo, 'mlp', 0.85);
        pairs++;
        if (d !== undefined) {
          read++;
          hash.update(`${i} ${j} ${d.probability} ${d.kind ?? ''} ${d.model}\n`);
        }
      }
    }
  }
  const u = process.cpuUsage(start);
  best = Math.min(best, (u.user + u.system) / 1000);
  digest = hash.digest('hex').slice(0, 16);
}
// Whole feature rows of every 7th pair (untimed): a change to the row shows here even where no
// decision moved.
const rows = createHash('sha256');
let k = 0;
for (const sides of conversations) {
  const memo: StateReadings = new Map();
  for (let i = 1; i < sides.length; i++) for (let j = Math.max(0, i - 20); j < i; j++) if (k++ % 7 === 0) rows.update(`${stateMlpFeatures(sides[i] as StateSide, sides[j] as StateSide, memo).join(',')}\n`);
}
console.log(JSON.stringify({ pairs, read, cpuMsPer1000Pairs: Number(((best / pairs) * 1000).toFixed(1)), digest, rowDigest: rows.digest('hex').slice(0, 16) }));
