/**
 * The LoCoMo data of the benchmark (SPEC 10): where the file is, the development / test split,
 * and which conversations and questions a run evaluates. The file is read where the user keeps
 * it (CC BY-NC 4.0) and never copied into the repository. Node-only.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JevMemError, invalidOption } from '../../src/errors.js';
import { LOCOMO_DEV, LOCOMO_TEST, locomoConversation, parseLocomo, type LocomoConversation, type LocomoQuestion } from '../../src/formats/locomo.js';

/** Splits a run can evaluate: the development split, the test split, or both. */
export type SplitName = 'dev' | 'test' | 'all';

/** Valid values of `--split`. */
export const SPLIT_NAMES: readonly SplitName[] = Object.freeze(['dev', 'test', 'all'] as const);

/** The conversation of `--quick` (SPEC 10 development split, first conversation). */
export const QUICK_SAMPLE = 'conv-26';

/**
 * Questions with evidence that `--quick` evaluates per category 1-5 (the first ones of each
 * category in file order), 30 in all, so that every category is exercised.
 */
export const QUICK_PER_CATEGORY = 6;

/**
 * The repository root: the nearest folder above this module whose `package.json` is named
 * `jev-mem` (works from any folder of the checkout, e.g. `bench/lib/` under tsx).
 * @throws JevMemError `NOT_FOUND` when no such folder exists.
 */
export function repoRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(from);
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'jev-mem') return dir;
      } catch {
        // not ours; keep walking up
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new JevMemError('NOT_FOUND', `no jev-mem package.json above ${from}`, { field: 'repoRoot' });
    dir = up;
  }
}

/** Default data file: `<repo>/../shared/data/locomo10.json`. */
export function defaultLocomoPath(): string {
  return resolve(repoRoot(), '..', 'shared', 'data', 'locomo10.json');
}

/** The loaded data file. */
export interface LocomoData {
  /** Absolute path read. */
  path: string;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  /** Every sample as a conversation, file order. */
  conversations: LocomoConversation[];
}

/**
 * Reads and parses the LoCoMo file.
 * @throws JevMemError `NOT_FOUND` (field `data`) when the file cannot be read (the message says
 *   where it was looked for and that `--data` fixes it); `INVALID_INPUT` when it is not LoCoMo.
 */
export async function loadLocomo(path: string = defaultLocomoPath()): Promise<LocomoData> {
  const abs = resolve(path);
  const bytes = await readFile(abs).catch((e: NodeJS.ErrnoException) => {
    throw new JevMemError('NOT_FOUND', `cannot read the LoCoMo file ${abs} (${e.code ?? e.message}); pass --data <path to locomo10.json>`, { field: 'data', cause: e });
  });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const conversations = parseLocomo(bytes.toString('utf8')).map(locomoConversation);
  return { path: abs, sha256, conversations };
}

/** Split of a sample id (SPEC 10): `dev` for conv-26/30/41/42/43, `test` for the others listed, else undefined. */
export function splitOf(sampleId: string): 'dev' | 'test' | undefined {
  if (LOCOMO_DEV.includes(sampleId)) return 'dev';
  if (LOCOMO_TEST.includes(sampleId)) return 'test';
  return undefined;
}

/**
 * Checks a `--split` value.
 * @throws JevMemError `INVALID_OPTION` (field `split`) listing the valid values.
 */
export function parseSplit(value: string | undefined): SplitName {
  const v = value ?? 'all';
  if (!(SPLIT_NAMES as readonly string[]).includes(v)) throw invalidOption('split', `expected one of ${SPLIT_NAMES.join(', ')}, got ${JSON.stringify(v)}`);
  return v as SplitName;
}

/** Questions that count: those with at least one resolvable evidence turn (SPEC 10). */
export function evaluable(questions: readonly LocomoQuestion[]): LocomoQuestion[] {
  return questions.filter((q) => q.evidence.length > 0);
}

/** What one run evaluates. */
export interface Selection {
  conversation: LocomoConversation;
  split: 'dev' | 'test';
  /** Questions with resolvable evidence to evaluate. */
  questions: LocomoQuestion[];
}

/** The first `perCategory` questions of each category (1-5), in file order. */
export function firstPerCategory(questions: readonly LocomoQuestion[], perCategory: number): LocomoQuestion[] {
  const seen = new Map<number, number>();
  return questions.filter((q) => {
    const n = seen.get(q.category) ?? 0;
    seen.set(q.category, n + 1);
    return n < perCategory;
  });
}

/**
 * Picks the conversations and questions of a run: every conversation of the split with all its
 * evaluable questions, or with `quick` only {@link QUICK_SAMPLE} and the first
 * {@link QUICK_PER_CATEGORY} evaluable questions of each category.
 * @throws JevMemError `NOT_FOUND` when the file lacks a conversation of the split.
 */
export function selectRun(data: LocomoData, split: SplitName, quick: boolean): Selection[] {
  const wanted = quick ? [QUICK_SAMPLE] : split === 'dev' ? [...LOCOMO_DEV] : split === 'test' ? [...LOCOMO_TEST] : [...LOCOMO_DEV, ...LOCOMO_TEST];
  return wanted.map((id) => {
    const conversation = data.conversations.find((c) => c.sampleId === id);
    if (!conversation) throw new JevMemError('NOT_FOUND', `conversation ${id} is not in ${data.path}; is it the full locomo10.json?`, { field: 'data' });
    const qs = evaluable(conversation.questions);
    return { conversation, split: splitOf(id) as 'dev' | 'test', questions: quick ? firstPerCategory(qs, QUICK_PER_CATEGORY) : qs };
  });
}
