/**
 * The flat baselines of the LoCoMo harness (SPEC 10, "baselines in the same harness and run"),
 * built from the same plane pieces jev-mem uses: BM25 (the lexical index: MiniSearch BM25+ with
 * Porter stemming and English stop words), dense (the memory's encoder over an exact flat
 * cosine index) and hybrid (reciprocal rank fusion of the two, κ = 60, eq. (16)). One document
 * per turn, retrieval within one conversation.
 *
 * @module
 */
import type { Encoder } from '../../src/encoder/encoder.js';
import type { LocomoConversation } from '../../src/formats/locomo.js';
import type { IndexHit, LexicalIndex, VectorIndex } from '../../src/plane/indexes/indexes.js';
import { createLexicalIndex } from '../../src/plane/indexes/lexical.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { reciprocalRankFusion } from '../../src/plane/indexes/fusion.js';
import { parseTimestamp } from '../../src/util/time.js';

/** RRF constant κ of the hybrid baseline (SPEC 8, eq. (16)). */
export const RRF_KAPPA = 60;

/** One turn as a document. */
export interface TurnDoc {
  /** The turn's `dia_id` (the document id). */
  id: string;
  /** `"<speaker>: <text>"` plus ` [image: <caption>]` (SPEC 10 ingestion). */
  text: string;
  speaker: string;
  /** 0-based session ordinal within the conversation. */
  session: number;
  /** 0-based position of the turn in the conversation (session order). */
  position: number;
  /** The session date, ms since the epoch (NaN when absent). */
  dateMs: number;
  /** True when the turn carries an image caption. */
  image: boolean;
}

/** The per-conversation indexes the flat baselines share. */
export interface ConversationIndex {
  sampleId: string;
  speakers: [string, string];
  docs: TurnDoc[];
  byId: Map<string, TurnDoc>;
  lexical: LexicalIndex;
  vector: VectorIndex;
  /** The turns' vectors (`vectors[i]` belongs to `docs[i]`), for the peers' own indexes. */
  vectors: Float32Array[];
  /** ms spent embedding the turns. */
  embedMs: number;
  /** ms spent building the lexical index. */
  lexicalMs: number;
}

/** A query prepared once for every flat system: the text and its vector. */
export interface PreparedQuery {
  text: string;
  vector: Float32Array;
}

/** Turns the observations of a conversation into documents (their order is kept). */
export function turnDocs(conv: LocomoConversation): TurnDoc[] {
  const sessions = new Map<string, number>();
  return conv.observations.map((o, position) => {
    const sid = o.sessionId ?? '';
    if (!sessions.has(sid)) sessions.set(sid, sessions.size);
    const ms = o.observedAt === undefined ? undefined : parseTimestamp(o.observedAt);
    return {
      id: o.turnId as string,
      text: o.text,
      speaker: o.speaker ?? '',
      session: sessions.get(sid) as number,
      position,
      dateMs: ms ?? Number.NaN,
      image: o.text.includes(' [image: '),
    };
  });
}

/**
 * Builds the BM25 and dense indexes of one conversation. The lexical index gets the turn text
 * only (the speaker is already its prefix).
 * @throws whatever the encoder throws (JevMemError `ABORTED`).
 */
export async function buildConversationIndex(conv: LocomoConversation, encoder: Encoder): Promise<ConversationIndex> {
  const docs = turnDocs(conv);
  const t0 = performance.now();
  const lexical = createLexicalIndex();
  for (const d of docs) lexical.add({ id: d.id, text: d.text });
  const lexicalMs = performance.now() - t0;
  const t1 = performance.now();
  const vectors = await encoder.embed(docs.map((d) => d.text));
  const vector = createFlatVectorIndex(encoder.dimension);
  docs.forEach((d, i) => vector.add(d.id, vectors[i] as Float32Array));
  const embedMs = performance.now() - t1;
  return { sampleId: conv.sampleId, speakers: conv.speakers, docs, byId: new Map(docs.map((d) => [d.id, d])), lexical, vector, vectors: vectors as Float32Array[], embedMs, lexicalMs };
}

/** BM25+ hits of the query, best first (at most `k`; fewer when fewer turns share a term). */
export function bm25Hits(index: ConversationIndex, query: string, k: number): IndexHit[] {
  return index.lexical.search(query, k);
}

/** Cosine hits of the query vector, best first (cosine in [-1, 1]). */
export function denseHits(index: ConversationIndex, vector: Float32Array, k: number): IndexHit[] {
  return index.vector.search(vector, Math.min(k, index.vector.size));
}

/**
 * Hybrid ranking: RRF over the full BM25 and dense rankings of the conversation,
 * s = Σ 1/(κ + rank) with κ = {@link RRF_KAPPA} (eq. (16)). Returns ids, best first.
 */
export function hybridRanking(index: ConversationIndex, q: PreparedQuery, k: number): string[] {
  const n = index.docs.length;
  const fused = reciprocalRankFusion([bm25Hits(index, q.text, n), denseHits(index, q.vector, n)], RRF_KAPPA);
  return fused.slice(0, k).map((f) => f.id);
}
