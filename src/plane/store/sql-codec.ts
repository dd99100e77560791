/**
 * Row encoding of nodes and edges in the SQL store (schema v3, `sql-storage.ts`; issues 13, 22). Pure
 * functions: no SQL here.
 *
 * A node row holds its body as JSON WITHOUT `id`, `namespace`, `seq` and the embedding's vector
 * (those live in their own columns; the vector as {@link encodeVector} bytes, lossless), its
 * known keys written as one letter (`~{"a":"text…",…}`). An edge
 * row holds small integer codes instead of JSON: the view and subtype as fixed codes
 * ({@link VIEW_CODES}, {@link SUBTYPE_CODES}; an unknown name is kept as text), the origin as a
 * code of the store's dictionary, `createdAt` as integer ms when `new Date(ms).toISOString()`
 * gives the text back exactly (else the text), and the id as `''` when it is the canonical id
 * `from>to:view:subtype` the write path makes (else the id). Every round trip is exact.
 *
 * Also here: the records of a batch encoded before a transaction opens, with errors naming the
 * field ({@link encodeNodes}, {@link encodeEdges}, {@link encodeMeta}), the checksum test of a
 * stored node row ({@link rowSound}) and the column readers {@link num} and {@link bytes}.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { decodeVector, encodeVector } from '../indexes/vector-codec.js';
import { nodeRowSum } from './checksum.js';
import type { SqlRow, SqlValue } from './sql-schema.js';

/** Fixed codes of the views (stored; never renumber, only append). */
export const VIEW_CODES: readonly string[] = Object.freeze(['semantic', 'temporal', 'causal', 'entity']);

/** Fixed codes of the edge subtypes (stored; never renumber, only append). */
export const SUBTYPE_CODES: readonly string[] = Object.freeze([
  'precedes', 'same_session', 'close_in_time', 'before', 'after', 'during', 'contains', 'overlaps', 'same_time',
  'leads_to', 'related', 'redundant', 'contradicts', 'updates', 'same_entity',
]);

/** A stored SQL value as the drivers give it back (`sql-schema.ts`; re-exported for the row readers). */
export type { SqlValue };

/** The columns of one node row (besides its slot and namespace). */
export interface NodeRow {
  seq: number;
  body: string;
  vec: Uint8Array | null;
}

/** The columns of one edge row (besides its namespace and end slots). */
export interface EdgeRow {
  /** `''` for the canonical id. */
  eid: string;
  view: number | string;
  subtype: number | string;
  weight: number;
  /** The origin as JSON text, to be interned by the caller into a dictionary code. */
  origin: string;
  created: number | string;
}

/** The canonical edge id of the write path (src/write/plan.ts). */
export function canonicalEdgeId(from: string, to: string, view: string, subtype: string): string {
  return `${from}>${to}:${view}:${subtype}`;
}

const code = (table: readonly string[], name: unknown): number | string => {
  const i = typeof name === 'string' ? table.indexOf(name) : -1;
  return i >= 0 ? i : String(name);
};

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
/** `o` with known keys as letters, or undefined when `o` has a one-letter key itself (no room for codes). */
function shorten(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (k.length <= 1) return undefined;
    const i = keys.indexOf(k);
    out[i >= 0 ? letter(i) : k] = v;
  }
  return out;
}
function lengthen(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k.length === 1 ? (keys[k.charCodeAt(0) - 97] as string) : k] = v;
  return out;
}

/**
 * The body as text: `~` + JSON with the known keys as letters when the body, its provenance and
 * its types have no one-letter keys of their own (always, for nodes of the write path), else JSON.
 */
function bodyText(body: Record<string, unknown>): string | undefined {
  const top = shorten(body, NODE_KEYS);
  const prov = isPlain(body.provenance) ? shorten(body.provenance, PROVENANCE_KEYS) : body.provenance;
  const types = isPlain(body.types) ? shorten(body.types, TYPE_KEYS) : body.types;
  if (top === undefined || (isPlain(body.provenance) && prov === undefined) || (isPlain(body.types) && types === undefined)) return JSON.stringify(body);
  if ('provenance' in body) top[letter(NODE_KEYS.indexOf('provenance'))] = prov;
  if ('types' in body) top[letter(NODE_KEYS.indexOf('types'))] = types;
  return `~${JSON.stringify(top)}`;
}
function parseBody(text: string): Record<string, unknown> {
  if (!text.startsWith('~')) return JSON.parse(text) as Record<string, unknown>;
  const body = lengthen(JSON.parse(text.slice(1)) as Record<string, unknown>, NODE_KEYS);
  if (isPlain(body.provenance)) body.provenance = lengthen(body.provenance, PROVENANCE_KEYS);
  if (isPlain(body.types)) body.types = lengthen(body.types, TYPE_KEYS);
  return body;
}

function isVector(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number');
}

/**
 * The row of a node.
 * @throws Error when a value is not JSON-safe (the caller reports `STORAGE_FAILED`).
 */
export function encodeNode(node: MemoryNode): NodeRow {
  const { id: _id, namespace: _ns, seq, embedding, ...rest } = node;
  const body: Record<string, unknown> = { ...rest };
  let vec: Uint8Array | null = null;
  if (typeof embedding === 'object' && embedding !== null && isVector(embedding.vector)) {
    const { vector, ...emb } = embedding;
    vec = encodeVector(vector);
    body.embedding = emb;
  } else if (embedding !== undefined) {
    body.embedding = embedding;
    body.$rawEmbedding = true;
  }
  const finiteSeq = typeof seq === 'number' && Number.isFinite(seq);
  if (!finiteSeq) body.$seq = seq;
  const text = bodyText(body);
  if (text === undefined) throw new Error('the node is not JSON-safe');
  return { seq: finiteSeq ? seq : 0, body: text, vec };
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

/** The row of an edge (its origin as JSON text; the caller interns it). */
export function encodeEdge(edge: MemoryEdge): EdgeRow {
  const ms = typeof edge.createdAt === 'string' ? Date.parse(edge.createdAt) : Number.NaN;
  const exactMs = Number.isFinite(ms) && new Date(ms).toISOString() === edge.createdAt;
  const canonical =
    typeof edge.view === 'string' && typeof edge.subtype === 'string' && !edge.view.includes(':') && !edge.subtype.includes(':') &&
    edge.id === canonicalEdgeId(edge.from, edge.to, edge.view, edge.subtype);
  const origin = JSON.stringify(edge.origin ?? null);
  const weight = edge.weight;
  if (typeof weight !== 'number') throw new Error(`edge ${edge.id}: weight is not a number`);
  return {
    eid: canonical ? '' : edge.id,
    view: code(VIEW_CODES, edge.view),
    subtype: code(SUBTYPE_CODES, edge.subtype),
    weight,
    origin,
    created: exactMs ? ms : JSON.stringify(edge.createdAt ?? null),
  };
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

/**
 * Every split of a canonical edge id into (from, to, view, subtype): `from` and `to` may hold
 * `>` themselves, so each `>` of the head is a candidate.
 */
export function canonicalSplits(id: string): Array<{ from: string; to: string; view: string; subtype: string }> {
  const c2 = id.lastIndexOf(':');
  const c1 = c2 > 0 ? id.lastIndexOf(':', c2 - 1) : -1;
  if (c1 < 0) return [];
  const head = id.slice(0, c1);
  const view = id.slice(c1 + 1, c2);
  const subtype = id.slice(c2 + 1);
  const out: Array<{ from: string; to: string; view: string; subtype: string }> = [];
  for (let i = head.indexOf('>'); i >= 0; i = head.indexOf('>', i + 1)) out.push({ from: head.slice(0, i), to: head.slice(i + 1), view, subtype });
  return out;
}

/** The view name of a stored view column. @throws Error on an unknown code. */
export function viewName(value: SqlValue): string {
  return name(VIEW_CODES, value, 'view');
}

/** The stored code of a view or subtype name (for lookups by canonical id). */
export function viewCode(view: string): number | string {
  return code(VIEW_CODES, view);
}

/** The stored code of a subtype name. */
export function subtypeCode(subtype: string): number | string {
  return code(SUBTYPE_CODES, subtype);
}

/** A numeric column as a number (`NULL` or absent: 0). */
export function num(v: SqlValue | undefined): number {
  return v === null || v === undefined ? 0 : Number(v);
}

/**
 * A BLOB column as bytes (`NULL` or absent: empty).
 * @throws Error when the column holds something else.
 */
export function bytes(v: SqlValue | undefined): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (v === null || v === undefined) return new Uint8Array(0);
  throw new Error(`expected a BLOB, got ${typeof v}`);
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

/** Each of `items` encoded by `encode`; a failure is `STORAGE_FAILED` naming the item (`field[i]`). */
function encodeEach<T, R>(items: readonly T[], field: string, encode: (item: T) => R): R[] {
  return items.map((item, i) => {
    try {
      return encode(item);
    } catch (cause) {
      throw new JevMemError('STORAGE_FAILED', `${field}[${i}] cannot be stored: ${String(cause)} (values must be JSON-safe)`, { field: `${field}[${i}]`, cause });
    }
  });
}

/**
 * The rows of nodes about to be stored.
 * @param field - the field of the list in messages (`batch.putNodes`).
 * @throws JevMemError `STORAGE_FAILED` naming the node (`batch.putNodes[2]`) when a value is not JSON-safe.
 */
export function encodeNodes(nodes: readonly MemoryNode[], field: string): NodeRow[] {
  return encodeEach(nodes, field, encodeNode);
}

/**
 * The rows of edges about to be stored.
 * @param field - the field of the list in messages (`batch.putEdges`).
 * @throws JevMemError `STORAGE_FAILED` naming the edge (`batch.putEdges[2]`) when a value is not JSON-safe.
 */
export function encodeEdges(edges: readonly MemoryEdge[], field: string): EdgeRow[] {
  return encodeEach(edges, field, encodeEdge);
}

/**
 * The meta of a batch as (key, JSON text) pairs; `null` (remove the key) stays `null`, an
 * `undefined` value is left out.
 * @throws JevMemError `STORAGE_FAILED` naming the key (`batch.meta.k`) when a value has no JSON text.
 */
export function encodeMeta(meta: Record<string, unknown>): Array<[string, string | null]> {
  return Object.entries(meta)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      if (v === null) return [k, null];
      const text = JSON.stringify(v);
      if (text === undefined) throw new JevMemError('STORAGE_FAILED', `batch.meta.${k} cannot be stored as JSON (got ${typeof v}); values must be JSON-safe`, { field: `batch.meta.${k}` });
      return [k, text];
    });
}
