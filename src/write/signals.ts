/**
 * Numeric signals of a (new observation, existing node) pair, shared by candidate discovery,
 * relation judgement and maintenance (catalogue `PairSignals`). Pure.
 *
 * @module
 */
import type { PairSignals } from '../system-one/catalogue.js';
import type { MemoryNode } from '../types.js';
import { DAY_MS } from '../util/time.js';
import { dot } from '../util/vector.js';


/** The side of a pair being written: enough of a node to compare. */
export interface PairSide {
  vector: ArrayLike<number>;
  entities: readonly string[];
  keywords: readonly string[];
  observedAtMs?: number;
  sessionId?: string;
  speaker?: string;
  seq: number;
}

/** View of a stored node as a {@link PairSide}. */
export function sideOf(n: MemoryNode, vector: ArrayLike<number>): PairSide {
  const s: PairSide = { vector, entities: n.entities, keywords: n.keywords, seq: n.seq };
  if (n.observedAt !== undefined) s.observedAtMs = Date.parse(n.observedAt);
  if (n.provenance.sessionId !== undefined) s.sessionId = n.provenance.sessionId;
  if (n.provenance.speaker !== undefined) s.speaker = n.provenance.speaker;
  return s;
}

function shared(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  let n = 0;
  for (const x of new Set(b)) if (set.has(x)) n++;
  return n;
}

/** Computes the {@link PairSignals} of `a` (new) against `b` (existing); `lexical` is given by the caller. */
export function pairSignals(a: PairSide, b: PairSide, lexical: number): PairSignals {
  const gapDays = a.observedAtMs !== undefined && b.observedAtMs !== undefined ? Math.abs(a.observedAtMs - b.observedAtMs) / DAY_MS : -1;
  return {
    cosine: dot(a.vector, b.vector),
    lexical,
    sharedEntities: shared(a.entities, b.entities),
    sharedKeywords: shared(a.keywords, b.keywords),
    gapDays,
    sameSession: a.sessionId !== undefined && a.sessionId === b.sessionId ? 1 : 0,
    sameSpeaker: a.speaker !== undefined && a.speaker === b.speaker ? 1 : 0,
    seqGap: a.seq - b.seq,
  };
}
