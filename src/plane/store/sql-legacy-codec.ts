/**
 * The row codec of the SQL store's layouts 2–4 (before issue 22's one record store), kept only to
 * read those layouts when they are imported (`sql-legacy-import.ts`). A node row holds its body
 * as JSON without `id`, `namespace`, `seq` and the embedding's vector (the vector as
 * `encodeVector` bytes in its own column), its known keys written as one letter
 * (`~{"a":"text…",…}`); an edge row holds the view and subtype as fixed codes
 * ({@link VIEW_CODES}, {@link SUBTYPE_CODES}; an unknown name as text), the origin as a code of
 * the store's dictionary, `createdAt` as integer ms (or its JSON text), and the id as `''` when it
 * is the canonical `from>to:view:subtype`. Pure functions: no SQL here.
 *
 * @module
 */
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { decodeVector } from '../indexes/vector-codec.js';
import { nodeRowSum } from './checksum.js';
import type { SqlRow } from '../drivers/record-sql.js';

/** A stored SQL value as the drivers give it back. */
export type SqlValue = SqlRow[string];

/** Fixed codes of the views (stored; never renumber, only append). */
export const VIEW_CODES: readonly string[] = Object.freeze(['semantic', 'temporal', 'causal', 'entity']);

/** Fixed codes of the edge subtypes (stored; never renumber, only append). */
export const SUBTYPE_CODES: readonly string[] = Object.freeze([
  'precedes', 'same_session', 'close_in_time', 'before', 'after', 'during', 'contains', 'overlaps', 'same_time',
  'leads_to', 'related', 'redundant', 'contradicts', 'updates', 'same_entity',
]);


/** The canonical edge id of the write path (src/write/plan.ts). */
export function canonicalEdgeId(from: string, to: string, view: string, subtype: string): string {
  return `${from}>${to}:${view}:${subtype}`;
}

const name = (table: readonly string[], value: SqlValue, what: string): string => {
  if (typeof value === 'number' || typeof value === 'bigint') {
    const n = table[Number(value)];
    if (n === undefined) throw new Error(`unknown ${what} code ${String(value)}`);
    return n;
  }
  if (typeof value === 'string') return value;
  throw new Error(`${what} column holds ${value === null ? 'null' : typeof value}`);
};

/** Known keys of a node body and of its provenance and types, written as one letter (stored; only append). */
const NODE_KEYS = ['text', 'observedAt', 'utcOffsetMinutes', 'timeZone', 'ingestedAt', 'provenance', 'entities', 'keywords', 'timeRefs', 'types', 'embedding', 'status', 'supersededBy', 'duplicates'];
const PROVENANCE_KEYS = ['source', 'speaker', 'sessionId', 'turnId', 'metadata'];
const TYPE_KEYS = ['episodic', 'semantic', 'procedural', 'preference'];
const letter = (i: number): string => String.fromCharCode(97 + i);

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function lengthen(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k.length === 1 ? (keys[k.charCodeAt(0) - 97] as string) : k] = v;
  return out;
}

function parseBody(text: string): Record<string, unknown> {
  if (!text.startsWith('~')) return JSON.parse(text) as Record<string, unknown>;
  const body = lengthen(JSON.parse(text.slice(1)) as Record<string, unknown>, NODE_KEYS);
  if (isPlain(body.provenance)) body.provenance = lengthen(body.provenance, PROVENANCE_KEYS);
  if (isPlain(body.types)) body.types = lengthen(body.types, TYPE_KEYS);
  return body;
}

/**
 * The node of a row.
 * @throws Error on a damaged row.
 */
export function decodeNode(namespace: string, id: string, seq: SqlValue, body: SqlValue, vec: SqlValue): MemoryNode {
  if (typeof body !== 'string') throw new Error(`node ${id}: body is not text`);
  const parsed = parseBody(body);
  const out: Record<string, unknown> = { id, namespace, ...parsed };
  if ('$seq' in parsed) {
    out.seq = parsed.$seq;
    delete out.$seq;
  } else out.seq = Number(seq);
  if (parsed.$rawEmbedding === true) delete out.$rawEmbedding;
  else if (vec instanceof Uint8Array) out.embedding = { ...(parsed.embedding as object), vector: decodeVector(vec) };
  return out as unknown as MemoryNode;
}

/**
 * The edge of a row (`origin` already looked up in the dictionary, as JSON text).
 * @throws Error on a damaged row.
 */
export function decodeEdge(namespace: string, from: string, to: string, row: { eid: SqlValue; view: SqlValue; subtype: SqlValue; weight: SqlValue; created: SqlValue }, origin: string): MemoryEdge {
  const view = name(VIEW_CODES, row.view, 'view');
  const subtype = name(SUBTYPE_CODES, row.subtype, 'subtype');
  const eid = typeof row.eid === 'string' && row.eid !== '' ? row.eid : canonicalEdgeId(from, to, view, subtype);
  const createdAt = typeof row.created === 'string' ? (JSON.parse(row.created) as string) : new Date(Number(row.created)).toISOString();
  const edge: Record<string, unknown> = { id: eid, namespace, from, to, view, subtype, weight: Number(row.weight), origin: JSON.parse(origin) as unknown, createdAt };
  if (edge.origin === null) delete edge.origin;
  if (edge.createdAt === null) delete edge.createdAt;
  return edge as unknown as MemoryEdge;
}

/** A numeric column as a number (`NULL` or absent: 0). */
export function num(v: SqlValue | undefined): number {
  return v === null || v === undefined ? 0 : Number(v);
}

/**
 * Whether a node row (columns id, seq, body, vec, sum) matches its checksum. A row without one
 * fails too: every row has one since schema v3 (the migration computed them).
 */
export function rowSound(r: SqlRow): boolean {
  if (r.sum === null || r.sum === undefined) return false;
  if (typeof r.body !== 'string' || (r.vec !== null && r.vec !== undefined && !(r.vec instanceof Uint8Array))) return false;
  return nodeRowSum(String(r.id), Number(r.seq), r.body, r.vec ?? null) === num(r.sum);
}

