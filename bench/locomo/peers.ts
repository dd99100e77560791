/**
 * The peer baselines of the LoCoMo harness (issue 16): libraries a developer would pick instead
 * of jev-mem, installed from npm (dev dependencies of the benchmark only) and used as their docs
 * say, one document per turn, retrieval within one conversation.
 *
 * - `orama`: Orama 3 (`@orama/orama`) hybrid search (`mode: 'hybrid'`: its BM25 full-text
 *   search plus cosine vector search over the memory encoder's vectors) with its documented
 *   defaults: `similarity` 0.8 (vectors below that cosine are not matched), `hybridWeights`
 *   text 0.5 / vector 0.5 (each list's scores divided by its maximum, then the weighted sum),
 *   the default tokenizer (English, no stemming, no stop words), BM25 k 1.2, b 0.75, d 0.5.
 * - `orama-tuned`: the same with `hybridWeights` and `similarity` chosen by a small grid
 *   ({@link ORAMA_GRID}) on the development split only ({@link tuneOrama}), then fixed.
 * - `minisearch-default`: MiniSearch with default options (`fields: ['text']`, no stemming, no
 *   stop words, BM25+ k 1.2, b 0.7, d 0.5, OR of the query terms): what a user of our lexical
 *   library alone would get (our `bm25` baseline adds Porter stemming and English stop words).
 *
 * @module
 */
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import MiniSearch from 'minisearch';
import { invalidInput } from '../../src/errors.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import type { LocomoConversation, LocomoQuestion } from '../../src/formats/locomo.js';
import { buildConversationIndex, type TurnDoc } from './baselines.js';

/** The settings of an Orama hybrid search that the harness varies. */
export interface OramaHybridSettings {
  /** Minimum cosine for a vector match (Orama's `similarity`). @default 0.8 (Orama's default) */
  similarity?: number;
  /** Orama's `hybridWeights`; both must be > 0 (Orama falls back to 0.5/0.5 when either is 0). @default Orama's 0.5/0.5 */
  hybridWeights?: { text: number; vector: number };
}

/** Orama's documented defaults, as recorded in results.json (nothing is passed for them). */
export const ORAMA_DEFAULTS: Readonly<Required<OramaHybridSettings>> = Object.freeze({ similarity: 0.8, hybridWeights: Object.freeze({ text: 0.5, vector: 0.5 }) });

/**
 * The dev-split grid of `orama-tuned`: text weight 0.1 … 0.9 (vector = 1 − text; Orama ignores
 * a zero weight) × `similarity` in {0.8 (default), 0.5, 0.2, −1 (every vector matches)}.
 */
export const ORAMA_GRID: readonly Required<OramaHybridSettings>[] = Object.freeze(
  [0.8, 0.5, 0.2, -1].flatMap((similarity) => [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((text) => ({ similarity, hybridWeights: { text, vector: Number((1 - text).toFixed(1)) } }))),
);

/** One Orama database per conversation: `text` (string) and `embedding` (vector[dimension]). */
export interface OramaIndex {
  db: AnyOrama;
  /** Vector size of the schema. */
  dimension: number;
  /** ms spent inserting (vectors given, not embedding). */
  insertMs: number;
}

/**
 * Builds an Orama database of the turns with their vectors (`vectors[i]` belongs to `docs[i]`),
 * the turn id as the document id, as Orama's README shows (`create` + `insertMultiple`).
 * @throws Error when a vector's length is not `dimension` (Orama's `INVALID_INPUT_VECTOR`).
 */
export async function buildOramaIndex(docs: readonly Pick<TurnDoc, 'id' | 'text'>[], vectors: readonly Float32Array[], dimension: number): Promise<OramaIndex> {
  const t = performance.now();
  const db = create({ schema: { text: 'string', embedding: `vector[${dimension}]` } }) as unknown as AnyOrama;
  // Orama's schema check accepts plain arrays only (a Float32Array is refused as a vector).
  await insertMultiple(db, docs.map((d, i) => ({ id: d.id, text: d.text, embedding: Array.from(vectors[i] as Float32Array) })));
  return { db, dimension, insertMs: performance.now() - t };
}

/**
 * Orama hybrid search of the question (`term` = its text, `vector` = its vector), at most `k`
 * turn ids, best first. Fewer come back when fewer turns share a term or pass `similarity`.
 */
export async function oramaHybridRanking(index: OramaIndex, text: string, vector: Float32Array, k: number, settings: OramaHybridSettings = {}): Promise<string[]> {
  const params: Record<string, unknown> = { mode: 'hybrid', term: text, vector: { value: Array.from(vector), property: 'embedding' }, limit: k };
  if (settings.similarity !== undefined) params.similarity = settings.similarity;
  if (settings.hybridWeights !== undefined) params.hybridWeights = settings.hybridWeights;
  const res = await search(index.db, params as Parameters<typeof search>[1]);
  return res.hits.map((h) => String(h.id));
}

/** A MiniSearch index with default options over the turn text (field `text`, id `id`). */
export function buildMiniSearchDefault(docs: readonly Pick<TurnDoc, 'id' | 'text'>[]): MiniSearch<Pick<TurnDoc, 'id' | 'text'>> {
  const ms = new MiniSearch<Pick<TurnDoc, 'id' | 'text'>>({ fields: ['text'] });
  ms.addAll(docs.map((d) => ({ id: d.id, text: d.text })));
  return ms;
}

/** MiniSearch's default search of the question, at most `k` turn ids, best first. */
export function miniSearchDefaultRanking(index: MiniSearch<Pick<TurnDoc, 'id' | 'text'>>, text: string, k: number): string[] {
  return index
    .search(text)
    .slice(0, k)
    .map((r) => String(r.id));
}

/** One question of the tuning set: its text, vector and gold turn ids. */
export interface TuningQuestion {
  /** The conversation's Orama index. */
  index: OramaIndex;
  text: string;
  vector: Float32Array;
  /** Evidence turn ids. */
  gold: readonly string[];
}

/** One grid point's mean recall@10 on the tuning questions. */
export interface OramaGridPoint {
  similarity: number;
  hybridWeights: { text: number; vector: number };
  /** Mean evidence recall@10 over the questions, in [0,1]. */
  recall10: number;
}

/**
 * Picks `orama-tuned`'s settings: mean recall@10 of every {@link ORAMA_GRID} point (or `grid`)
 * over `questions` (the development split, categories 1-4); the best wins, ties to the earlier
 * point. Returns the chosen point and the whole grid.
 * @throws JevMemError `INVALID_INPUT` (field `questions`) when `questions` is empty (nothing to tune on).
 */
export async function tuneOrama(questions: readonly TuningQuestion[], grid: readonly Required<OramaHybridSettings>[] = ORAMA_GRID): Promise<{ chosen: OramaGridPoint; grid: OramaGridPoint[] }> {
  if (questions.length === 0) throw invalidInput('questions', 'expected at least one tuning question (the development split), got none');
  const points: OramaGridPoint[] = [];
  for (const g of grid) {
    let sum = 0;
    for (const q of questions) {
      const top = new Set(await oramaHybridRanking(q.index, q.text, q.vector, 10, g));
      sum += q.gold.filter((id) => top.has(id)).length / q.gold.length;
    }
    points.push({ similarity: g.similarity, hybridWeights: { ...g.hybridWeights }, recall10: sum / questions.length });
  }
  const chosen = points.reduce((best, p) => (p.recall10 > best.recall10 ? p : best), points[0] as OramaGridPoint);
  return { chosen, grid: points };
}

/**
 * `orama-tuned`'s settings for a run: {@link tuneOrama} over the category 1-4 questions of
 * `selections` (the development split), with each conversation's Orama index taken from
 * `indexes` or built (and not kept) when missing. Shared by `bench locomo` and `bench answers`.
 * @throws JevMemError `INVALID_INPUT` (field `questions`) when `selections` has no question of categories 1-4.
 */
export async function tuneOramaOn(selections: readonly { conversation: LocomoConversation; questions: readonly LocomoQuestion[] }[], encoder: Encoder, indexes: ReadonlyMap<string, OramaIndex>): Promise<{ chosen: OramaGridPoint; grid: OramaGridPoint[]; questions: number }> {
  const tuning: TuningQuestion[] = [];
  for (const sel of selections) {
    let oi = indexes.get(sel.conversation.sampleId);
    if (!oi) {
      const ci = await buildConversationIndex(sel.conversation, encoder);
      oi = await buildOramaIndex(ci.docs, ci.vectors, encoder.dimension);
    }
    const qs = sel.questions.filter((q) => q.category >= 1 && q.category <= 4);
    const vectors = await encoder.embed(qs.map((q) => q.question));
    qs.forEach((q, i) => tuning.push({ index: oi as OramaIndex, text: q.question, vector: vectors[i] as Float32Array, gold: q.evidence }));
  }
  return { ...(await tuneOrama(tuning)), questions: tuning.length };
}
