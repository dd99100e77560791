/**
 * What one `add` of a long text costs (issue 22/25: a 100k-character text, the `maxTextChars`
 * limit, must not freeze the event loop of a tab or Worker). A memory (in-memory store, the
 * shipped GloVe-SIF encoder and local System One) is filled with N LoCoMo turns (default 2,000),
 * then texts of 1k, 10k, 50k and 100k characters of two kinds are added one by one:
 * - `locomo`: LoCoMo turns after the first N, `speaker: text` a line each (few dates);
 * - `answer`: an assistant-style answer, numbered and bulleted lists with dates and times (a
 *   date-dense text, the worst case of the time extraction).
 * Each figure is the median process CPU time (`process.cpuUsage`, user + system) of `rounds`
 * calls on distinct texts (a different first word each, so no cache or dedup answers for them),
 * sizes and kinds alternated. Less sensitive than wall time to other load on the machine.
 *
 * Printed per kind and size: the whole `add`, then each text stage of the write path called
 * alone on the same text, as the write path calls it:
 * - `time`: time references (`extractTimeRefs`); `entities`; `keywords` (`keywordsOf`);
 * - `typing`: the typing request's feature row (local System One's typing head reads these);
 * - `relation`: the relation rows of the text against 8 LoCoMo turns (K_w candidates);
 * - `maint`: the maintenance rows of the text against 8 turns;
 *   (these three through one featurizer whose text-cue cache lives for the run, as the local
 *   System One's does: the text's cues are computed by `typing` and read from the cache after);
 * - `state`: the state-update head, the text as the newer side against 8 older turns (fresh
 *   readings: each text read once), its ceiling included;
 * - `query`: candidate discovery's lexical query over an index of the N turns (its probe as
 *   `lexicalProbe` builds it for a namespace of N nodes, then the search);
 * - `text sum`: the sum of the stages above;
 * and, not text stages but linear in the text by nature: `embed` (the encoder over the whole
 * text) and `index` (the lexical index adding the whole text).
 *
 * `node --import tsx bench/scale/long-text.ts [--nodes 2000] [--rounds 5] [--sizes 1000,10000,50000,100000]`
 * (the LoCoMo file is `$JEV_MEM_LOCOMO_DATA` when set, else the default path, `bench/lib/data.ts`).
 *
 * @module
 */
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeMemory } from '../../src/node.js';
import { createLexicalIndex } from '../../src/plane/indexes/lexical.js';
import type { NamespaceState } from '../../src/plane/resident/namespace.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { MaintenanceState, PairSignals, RelationState } from '../../src/system-one/catalogue.js';
import { createFeaturizer } from '../../src/system-one/features.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { stateUpdateCeiling } from '../../src/system-one/state-update-ceiling.js';
import { decideStateUpdate } from '../../src/system-one/state-update.js';
import { extractTimeRefs } from '../../src/util/time.js';
import { lexicalProbe } from '../../src/write/candidates.js';
import { extractEntities } from '../../src/write/entities.js';
import { passageOf } from '../../src/write/passage.js';
import { keywordsOf } from '../../src/write/plan.js';
import { typingRequest } from '../../src/write/typing.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';
import { scaleObservations } from './scale.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? (args[i + 1] as string) : fallback;
};
const nodes = Number(flag('--nodes', '2000'));
const rounds = Number(flag('--rounds', '5'));
const sizes = flag('--sizes', '1000,10000,50000,100000').split(',').map(Number);
const SAID = '2023-05-08T13:56:00Z';
const SAID_MS = Date.parse(SAID);

const data = await loadLocomo(process.env.JEV_MEM_LOCOMO_DATA || defaultLocomoPath());
const all = scaleObservations(data.conversations, nodes + 4000);
const stored = all.slice(0, nodes);
const later = all.slice(nodes).map((o) => o.text).join('\n');

/** An assistant-style answer of at least `n` characters: lists, dates, times, amounts. */
function answerText(n: number): string {
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  let s = 'Great question! Here is a plan that fits your dates, with a few options for each week.\n\n';
  for (let i = 0; s.length < n; i++) {
    const m = months[i % 12] as string;
    s +=
      `### Week ${i + 1}\n\n1. On Monday, ${m} ${(i % 27) + 1}, visit the old town museum at 10 am; book the tickets two weeks ahead.\n` +
      `2. Next Friday you could try the coastal hiking trail, which takes about ${3 + (i % 4)} hours.\n` +
      `- Budget: about $${100 + i} per day, meals included.\n- The meeting with the guide is on 2024-05-${String((i % 28) + 1).padStart(2, '0')} at 3pm.\n\n` +
      `If you have more time, last year's festival ran from June 3 to June 9, so it may happen again this summer. Let me know if you want me to adjust anything!\n\n`;
  }
  return s;
}
const answer = answerText(Math.max(...sizes) + 1000);
const KINDS = { locomo: later, answer } as const;
type Kind = keyof typeof KINDS;
/** The `round`-th distinct text of a kind and size. */
const textOf = (kind: Kind, size: number, round: number): string => `${round}${KINDS[kind].slice(0, size - String(round).length)}`;

const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
const memory = await createNodeMemory({ store: 'long-text-bench', storage: createMemoryStorage(), namespace: 'long', encoder, systemOne });
await memory.addMany(stored);
const lexical = createLexicalIndex();
stored.forEach((o, i) => lexical.add({ id: String(i), text: o.text }));
// What lexicalProbe reads of the namespace: its size and its keywords' document frequencies.
const keywordDf = new Map<string, number>();
for (const o of stored) for (const k of keywordsOf(o.text)) keywordDf.set(k, (keywordDf.get(k) ?? 0) + 1);
const probeState = { size: nodes, keywordDf } as unknown as NamespaceState;
const turns = stored.slice(-8).map((o, i) => ({ ref: `c${i}`, text: o.text, speaker: o.speaker as string, observedAt: SAID }));
// One featurizer with its text-cue cache for the whole run, as the local System One keeps one.
const featurizer = createFeaturizer();
const signals: PairSignals = { cosine: 0.5, lexical: 0.5, sharedEntities: 1, sharedKeywords: 1, gapDays: 0, sameSession: 1, sameSpeaker: 0, seqGap: 3 };

const cpu = (f: () => unknown): number => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const cpuAsync = async (f: () => Promise<unknown>): Promise<number> => {
  const c0 = process.cpuUsage();
  await f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

const STAGES = ['time', 'entities', 'keywords', 'typing', 'relation', 'maint', 'state', 'query'] as const;
type Stage = (typeof STAGES)[number] | 'add' | 'embed' | 'index';
const stageCpu = (text: string): Record<(typeof STAGES)[number], number> => {
  const passage = passageOf(text);
  const obs = { ref: 'new', text: passage, speaker: 'Caroline', observedAt: SAID };
  return {
    time: cpu(() => extractTimeRefs(text, SAID_MS)),
    entities: cpu(() => extractEntities(text, { has: () => false })),
    keywords: cpu(() => keywordsOf(text)),
    typing: cpu(() => featurizer.features('typing', typingRequest(passageOf(text), 'Caroline', SAID).state as never, undefined)),
    relation: cpu(() => {
      const state: RelationState = { kind: 'relation', observation: obs, candidates: turns.map((t) => ({ ...t, signals })) };
      for (const t of turns) featurizer.features('relation', state, t.ref);
    }),
    maint: cpu(() => {
      const state: MaintenanceState = { kind: 'maintenance', node: obs, candidates: turns.map((t) => ({ ...t, signals })) };
      for (const t of turns) featurizer.features('maintenance', state, t.ref);
    }),
    state: cpu(() => {
      const memo = new Map();
      const newer = { text: passage, speaker: 'Caroline', timeMs: SAID_MS + 1 };
      stateUpdateCeiling(newer, memo);
      for (const t of turns) decideStateUpdate(newer, { text: t.text, speaker: t.speaker, timeMs: SAID_MS }, memo, 'logistic'); // the head the ceiling bounds
    }),
    query: cpu(() => lexical.search(lexicalProbe(probeState, text, keywordsOf(text)), 8)),
  };
};

// Warm-up (not counted): the JIT compiles the stages on texts of every kind and a middle size.
for (const kind of Object.keys(KINDS) as Kind[]) {
  const text = textOf(kind, 20_000, 9999);
  await memory.add({ text, speaker: 'Caroline', observedAt: SAID });
  stageCpu(`w${text}`);
  await encoder.embed([`x${text}`]);
}

const seen = new Map<string, number[]>();
const note = (kind: Kind, size: number, stage: Stage, ms: number): void => {
  const key = `${kind}|${size}|${stage}`;
  seen.set(key, [...(seen.get(key) ?? []), ms]);
};
let serial = 0;
for (let r = 0; r < rounds; r++) {
  for (const size of sizes) {
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const text = textOf(kind, size, r);
      note(kind, size, 'add', await cpuAsync(() => memory.add({ text, speaker: 'Caroline', observedAt: SAID })));
      const fresh = textOf(kind, size, rounds + r); // the stages on a text no cache has seen
      for (const [stage, ms] of Object.entries(stageCpu(fresh))) note(kind, size, stage as Stage, ms);
      const other = textOf(kind, size, 2 * rounds + r);
      note(kind, size, 'embed', await cpuAsync(() => encoder.embed([other])));
      note(kind, size, 'index', cpu(() => lexical.add({ id: `long${serial++}`, text: other })));
    }
  }
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const fmt = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(1)).padStart(7);
const cols: Array<Stage | 'text sum'> = ['add', ...STAGES, 'text sum', 'embed', 'index'];
console.log(`long-text adds: a memory of ${nodes} LoCoMo turns; median CPU ms (process.cpuUsage) of ${rounds} calls per figure, sizes and kinds alternated`);
console.log(`${'kind'.padEnd(7)}${'chars'.padStart(8)}${cols.map((c) => c.padStart(9)).join('')}`);
for (const kind of Object.keys(KINDS) as Kind[]) {
  for (const size of sizes) {
    const m = (stage: Stage): number => median(seen.get(`${kind}|${size}|${stage}`) ?? [0]);
    const sum = STAGES.reduce((a, s) => a + m(s), 0);
    console.log(`${kind.padEnd(7)}${String(size).padStart(8)}${cols.map((c) => `  ${fmt(c === 'text sum' ? sum : m(c))}`).join('')}`);
  }
}
await memory.close();
await systemOne.close?.();
await encoder.close?.();
