/**
 * The chats bench (issue 24): recall@5/@10/@20 of the evidence turns of generated user/assistant
 * histories (`generate.ts`), by question kind, for jev-mem (public API, default local System
 * One) and the flat baselines of the LoCoMo harness in the same run: BM25 (the lexical anchor)
 * and hybrid (RRF of BM25 and dense, κ = 60). Three parts ({@link CHAT_PARTS}): dev (tune on
 * it), held-out and novel (report only). Node-only.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { sharedEncoder } from '../../src/encoder/shared.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { bm25Hits, buildConversationIndex, hybridRanking } from '../locomo/baselines.js';
import { buildJevMemory, recallJev } from '../lib/jev.js';
import { KS, meanScore, scoreQuestion, type GroupScore, type QuestionScore } from '../lib/metrics.js';
import { CHAT_KINDS } from './episodes.js';
import { categoryKind, CHATS_DEV_SEEDS, CHATS_DEV_SHORT_SEEDS, CHATS_HELDOUT_SEEDS, generateHistory, type ChatHistory } from './generate.js';
import { CHATS_NOVEL_SEEDS, generateNovelHistory } from './novel.js';
import { preferenceHistories, preferenceSeeds } from './prefs.js';
import { wildHistories, wildSeeds } from './wild.js';

/** Systems of the chats bench. */
export const CHAT_SYSTEMS = ['jev-mem', 'bm25', 'hybrid'] as const;
/** One of {@link CHAT_SYSTEMS}. */
export type ChatSystem = (typeof CHAT_SYSTEMS)[number];
/**
 * Parts of the chats bench: dev (tune on it), held-out (same templates, other seeds) and novel
 * (new templates and styles), reported only; and the preference set (`prefs.ts`): prefdev (tune
 * on it) and prefheld (reported only); and the wild set (`wild.ts`: long first-person user turns,
 * preference and multi-session questions): wilddev (tune on it) and wildheld (reported only), and
 * wildlong (tune on it: wilddev's questions, each planted turn inside long chatter).
 */
export const CHAT_PARTS = ['dev', 'heldout', 'novel', 'prefdev', 'prefheld', 'wilddev', 'wildheld', 'wildlong'] as const;
/** One of {@link CHAT_PARTS}. */
export type ChatPart = (typeof CHAT_PARTS)[number];

/**
 * The histories of a part: dev = seeds {@link CHATS_DEV_SEEDS} (long answers) and
 * {@link CHATS_DEV_SHORT_SEEDS} (short replies); held-out = {@link CHATS_HELDOUT_SEEDS};
 * novel = {@link CHATS_NOVEL_SEEDS} (`novel.ts`, odd seeds long, even seeds short).
 */
export function partHistories(part: ChatPart): Array<() => ChatHistory> {
  if (part === 'dev') return [...CHATS_DEV_SEEDS.map((s) => () => generateHistory(s)), ...CHATS_DEV_SHORT_SEEDS.map((s) => () => generateHistory(s, { short: true }))];
  if (part === 'heldout') return CHATS_HELDOUT_SEEDS.map((s) => () => generateHistory(s));
  if (part === 'prefdev' || part === 'prefheld') return preferenceHistories(part);
  if (part === 'wilddev' || part === 'wildheld' || part === 'wildlong') return wildHistories(part);
  return CHATS_NOVEL_SEEDS.map((s) => () => generateNovelHistory(s));
}

/** Seeds of a part (in {@link partHistories} order). */
export function partSeeds(part: ChatPart): readonly number[] {
  if (part === 'prefdev' || part === 'prefheld') return preferenceSeeds(part);
  if (part === 'wilddev' || part === 'wildheld' || part === 'wildlong') return wildSeeds(part);
  return part === 'dev' ? [...CHATS_DEV_SEEDS, ...CHATS_DEV_SHORT_SEEDS] : part === 'heldout' ? CHATS_HELDOUT_SEEDS : CHATS_NOVEL_SEEDS;
}

/**
 * A part read from a file instead of generated (`--data`): histories in the LongMemEval layout
 * (src/formats/longmemeval.ts), one question each, asked at the record's `question_date`.
 */
export interface ChatsDataPart {
  /** The file's path, for the table's title. */
  file: string;
  /** One history per question, in the file's order. */
  histories: Array<() => ChatHistory>;
}

/** Options of {@link runChatsBench}. */
export interface ChatsBenchOptions {
  /** Parts to run. @default all of {@link CHAT_PARTS}; only the `data` part when {@link ChatsBenchOptions.data} is given */
  parts?: readonly ChatPart[];
  /** Run the histories of a file (the `data` part) instead of generated parts. */
  data?: ChatsDataPart;
  /** Systems. @default all of {@link CHAT_SYSTEMS} */
  systems?: readonly ChatSystem[];
  /**
   * The clock jev-mem's recalls read a time the question names against (`RecallOptions.now`):
   * `question`, the history's question date ({@link questionDate}: the day after its last turn),
   * as benchmarks of this style date each question; `machine`, the real clock (the bench before
   * issue 24's round eight: the 2023 histories then lie years before "last month").
   * @default 'question'
   */
  clock?: 'question' | 'machine';
  /** System-One backend of jev-mem. @default 'local' */
  systemOne?: string;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Called with every jev-mem ranking (for tracing losses). */
  onQuestion?: (x: { part: ChatPart | 'data'; history: string; question: string; kind: string; evidence: string[]; outdated?: string[]; ranked: Record<string, string[]> }) => void;
}

/** Figures of one system on one part: by kind and over all kinds. */
export interface ChatsPartResult {
  byKind: Record<string, GroupScore>;
  overall: GroupScore;
}

/** Everything {@link runChatsBench} measured. */
export interface ChatsResults {
  format: 'jev-mem/bench-chats';
  seeds: Partial<Record<ChatPart, readonly number[]>>;
  histories: Partial<Record<ChatPart | 'data', { turns: number; questions: number }>>;
  systems: Record<string, Partial<Record<ChatPart | 'data', ChatsPartResult>>>;
  /** The file of the `data` part, when one ran. */
  dataFile?: string;
}

/** Parses `--systems` of the chats bench. @throws Error naming the unknown system. */
export function parseChatSystems(v: string | undefined): ChatSystem[] {
  if (v === undefined) return [...CHAT_SYSTEMS];
  const out = v.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  for (const s of out) if (!(CHAT_SYSTEMS as readonly string[]).includes(s)) throw new Error(`--systems: unknown chats system ${JSON.stringify(s)} (expected ${CHAT_SYSTEMS.join(', ')})`);
  return out as ChatSystem[];
}

/**
 * The encoder with its embeddings memoised by text, so that the flat baselines and jev-mem embed
 * each long turn once (the same vectors either way: the encoder is deterministic).
 */
function memoised(inner: Encoder): Encoder {
  const memo = new Map<string, Float32Array>();
  return {
    ...sharedEncoder(inner),
    embed: async (texts, signal) => {
      const missing = [...new Set(texts.filter((t) => !memo.has(t)))];
      if (missing.length > 0) {
        const vs = await inner.embed(missing, signal);
        missing.forEach((t, i) => memo.set(t, vs[i] as Float32Array));
      }
      return texts.map((t) => memo.get(t) as Float32Array);
    },
  };
}

/**
 * The date a history's questions are asked: one day after its last turn (the generators ask
 * every question after the last session; benchmarks of this style give each question such a
 * date). ISO-8601 instant.
 * @throws Error when no turn has an `observedAt`.
 */
export function questionDate(h: Pick<ChatHistory, 'observations'>): string {
  const last = Math.max(...h.observations.map((o) => (o.observedAt === undefined ? -Infinity : new Date(o.observedAt).getTime())));
  if (!Number.isFinite(last)) throw new Error('chats: a history without dated turns has no question date');
  return new Date(last + 86_400_000).toISOString();
}

/** Runs the chats bench. */
export async function runChatsBench(o: ChatsBenchOptions = {}): Promise<ChatsResults> {
  const log = o.log ?? (() => undefined);
  const parts: ReadonlyArray<ChatPart | 'data'> = o.data !== undefined ? ['data'] : (o.parts ?? CHAT_PARTS);
  const systems = o.systems ?? CHAT_SYSTEMS;
  const loaded = await createDefaultNodeEncoder();
  const encoder = memoised(loaded);
  const backend = systems.includes('jev-mem') ? await createSystemOneFromName(o.systemOne ?? 'local', { env: process.env }) : undefined;
  const root = await mkdtemp(join(tmpdir(), 'jev-mem-chats-'));
  const seeds = Object.fromEntries(CHAT_PARTS.map((p) => [p, partSeeds(p)])) as Record<ChatPart, readonly number[]>;
  const results: ChatsResults = { format: 'jev-mem/bench-chats', seeds: o.data !== undefined ? {} : seeds, histories: {}, systems: {} };
  if (o.data !== undefined) results.dataFile = o.data.file;
  const maxK = Math.max(...KS);
  try {
    for (const part of parts) {
      const scores = new Map<ChatSystem, QuestionScore[]>(systems.map((s) => [s, []]));
      for (const make of part === 'data' ? (o.data as ChatsDataPart).histories : partHistories(part)) {
        const h = make();
        const hist = (results.histories[part] ??= { turns: 0, questions: 0 });
        hist.turns += h.observations.length;
        hist.questions += h.questions.filter((x) => x.evidence.length > 0).length;
        const wantFlat = systems.includes('bm25') || systems.includes('hybrid');
        const index = wantFlat ? await buildConversationIndex(h, encoder) : undefined;
        const build = backend ? await buildJevMemory(h, { encoder, backend, store: join(root, h.sampleId), storeKind: 'memory' }) : undefined;
        const asked = o.clock === 'machine' ? undefined : (h.askedAt ?? questionDate(h));
        log(`chats: ${part} ${h.sampleId}: ${h.observations.length} turns, ${h.questions.length} questions${asked !== undefined ? `, asked ${asked.slice(0, 10)}` : ''}`);
        try {
          // A question without evidence turns (an abstention question) has no recall to measure.
          for (const q of h.questions.filter((x) => x.evidence.length > 0)) {
            const ranked: Record<string, string[]> = {};
            if (index && systems.includes('bm25')) ranked.bm25 = bm25Hits(index, q.question, maxK).map((x) => x.id);
            if (index && systems.includes('hybrid')) {
              const [vector] = await encoder.embed([q.question]);
              ranked.hybrid = hybridRanking(index, { text: q.question, vector: vector as Float32Array }, maxK);
            }
            if (build) ranked['jev-mem'] = (await recallJev(build.memory, q.question, 'jev-mem', maxK, undefined, asked)).ranked.map((x) => (typeof x === 'string' ? x : (x[0] as string)));
            for (const s of systems) scores.get(s)?.push(scoreQuestion(ranked[s] ?? [], q.evidence, q.category));
            o.onQuestion?.({ part, history: h.sampleId, question: q.question, kind: categoryKind(q.category), evidence: q.evidence, ...(q.outdated !== undefined ? { outdated: q.outdated } : {}), ranked });
          }
        } finally {
          await build?.memory.close();
        }
      }
      for (const s of systems) {
        const all = scores.get(s) as QuestionScore[];
        const byKind: Record<string, GroupScore> = {};
        CHAT_KINDS.forEach((k, i) => {
          const g = all.filter((x) => x.category === i + 1);
          if (g.length > 0) byKind[k] = meanScore(g);
        });
        (results.systems[s] ??= {})[part] = { byKind, overall: meanScore(all) };
      }
    }
  } finally {
    await rm(root, { recursive: true, force: true });
    await loaded.close?.();
    await backend?.close();
  }
  return results;
}

function pct(x: number | undefined): string {
  return x === undefined || Number.isNaN(x) ? '–' : (x * 100).toFixed(1);
}

/** Markdown tables of a run: per part, one row per kind, R@5 and R@10 of every system. */
export function chatsTables(r: ChatsResults): string[] {
  const systems = Object.keys(r.systems);
  const lines: string[] = [];
  const title: Record<ChatPart | 'data', string> = { data: `Data file ${r.dataFile ?? ''}`, dev: 'Dev part', heldout: 'Held-out part', novel: 'Novel part', prefdev: 'Preference dev part', prefheld: 'Preference held-out part', wilddev: 'Wild dev part', wildheld: 'Wild held-out part', wildlong: 'Wild long-turn dev part' };
  for (const part of ['data', ...CHAT_PARTS] as const) {
    if (!systems.some((s) => r.systems[s]?.[part])) continue;
    const from = part === 'data' ? `${r.histories[part]?.questions ?? 0} histories` : `seeds ${(r.seeds[part] ?? []).join(',')}`;
    lines.push(`### ${title[part]} (${r.histories[part]?.questions ?? 0} questions, ${r.histories[part]?.turns ?? 0} turns, ${from})`, '');
    lines.push(`| kind | n | ${systems.map((s) => `${s} R@5 | ${s} R@10`).join(' | ')} |`);
    lines.push(`|---|---|${systems.map(() => '---|---').join('|')}|`);
    const rows = [...CHAT_KINDS, 'overall'] as const;
    for (const k of rows) {
      const first = r.systems[systems[0] as string]?.[part];
      const n = k === 'overall' ? first?.overall.n : first?.byKind[k]?.n;
      if (n === undefined) continue; // a kind the part does not ask (the preference parts ask one)
      const cells = systems.map((s) => {
        const g = k === 'overall' ? r.systems[s]?.[part]?.overall : r.systems[s]?.[part]?.byKind[k];
        return `${pct(g?.recall[5])} | ${pct(g?.recall[10])}`;
      });
      lines.push(`| ${k} | ${n ?? 0} | ${cells.join(' | ')} |`);
    }
    lines.push('');
  }
  return lines;
}
