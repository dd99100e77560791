/**
 * The multilingual recall set (issue 15): one invented person per language, 15 turns of their
 * life, at least 12 questions each naming the turn that answers it. Each language is written into
 * its own in-memory namespace with the given encoder and System One, and every question is
 * recalled; recall@k is the share of questions whose expected turn is among the first k memories.
 * Used by `npm run bench -- multilingual` (figures) and test/integration/multilingual.test.ts
 * (thresholds).
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';

/** Folder of the set: `test/fixtures/multilingual/<code>.json`. */
export const MULTILINGUAL_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/multilingual');

/** One language of the set, as stored. */
export interface MultilingualSet {
  /** ISO 639-1 code. */
  language: string;
  /** English name of the language. */
  name: string;
  /** The invented person who says every turn. */
  speaker: string;
  memories: Array<{ id: string; text: string }>;
  questions: Array<{ question: string; expected: string }>;
}

/** What one language scored. */
export interface MultilingualResult {
  language: string;
  name: string;
  questions: number;
  /** Shares in [0,1]. */
  recall1: number;
  recall5: number;
  /** Questions whose expected turn was not in the first 5, with what came first. */
  misses: Array<{ question: string; expected: string; got: string[] }>;
}

/** Reads every `<code>.json` of `dir`, sorted by code. */
export function loadMultilingualSets(dir: string = MULTILINGUAL_DIR): MultilingualSet[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as MultilingualSet);
}

/**
 * Writes one language into a fresh in-memory namespace (one session, a turn a minute) and
 * recalls each question with k = 5.
 */
export async function runMultilingualSet(set: MultilingualSet, encoder: Encoder, systemOne: SystemOneBackend): Promise<MultilingualResult> {
  const memory = await createMemory({ storage: createMemoryStorage(), encoder, systemOne, namespace: `multilingual-${set.language}` });
  try {
    const t0 = Date.UTC(2024, 4, 1, 9, 0, 0);
    await memory.addMany(
      set.memories.map((m, i) => ({ text: m.text, speaker: set.speaker, sessionId: 's1', turnId: m.id, observedAt: t0 + i * 60_000 })),
    );
    let hit1 = 0;
    let hit5 = 0;
    const misses: MultilingualResult['misses'] = [];
    for (const q of set.questions) {
      const r = await memory.recall(q.question, { k: 5 });
      const ids = r.memories.map((m) => m.provenance.turnId ?? m.id);
      if (ids[0] === q.expected) hit1 += 1;
      if (ids.slice(0, 5).includes(q.expected)) hit5 += 1;
      else misses.push({ question: q.question, expected: q.expected, got: ids.slice(0, 5) });
    }
    const n = set.questions.length;
    return { language: set.language, name: set.name, questions: n, recall1: hit1 / n, recall5: hit5 / n, misses };
  } finally {
    await memory.close();
  }
}

/** Runs every language of `sets` in turn. */
export async function runMultilingualBench(sets: MultilingualSet[], encoder: Encoder, systemOne: SystemOneBackend): Promise<MultilingualResult[]> {
  const out: MultilingualResult[] = [];
  for (const set of sets) out.push(await runMultilingualSet(set, encoder, systemOne));
  return out;
}

/** The per-language table (Markdown). */
export function multilingualTable(results: readonly MultilingualResult[]): string {
  const rows = results.map((r) => `| ${r.name} (${r.language}) | ${r.questions} | ${(r.recall1 * 100).toFixed(1)} | ${(r.recall5 * 100).toFixed(1)} |`);
  return ['| language | questions | R@1 % | R@5 % |', '| --- | ---: | ---: | ---: |', ...rows].join('\n');
}
