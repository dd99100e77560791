/**
 * Node records of the record store (issue 13, issue 22): a node without its namespace (the key
 * carries it), its vector as bytes (`vector-codec.ts`), and `sum`, the CRC-32 of the record
 * (`checksum.ts`), checked on every read. The shape is that of IndexedDB database version 3, so
 * records written before the one record store read as they are.
 *
 * @module
 */
import type { MemoryNode } from '../../types.js';
import { decodeVector, encodeVector } from '../indexes/vector-codec.js';
import { recordSum } from './checksum.js';

/**
 * A node as stored: no `namespace` (the key carries it), the vector as bytes, and `sum`, the
 * record's checksum ({@link nodeRecordSum}; absent only on records of a database before version 3).
 */
export type NodeRecord = Omit<MemoryNode, 'namespace' | 'embedding'> & {
  embedding: { encoder: string; vector?: undefined; bytes: Uint8Array };
  sum?: number;
};

/**
 * The checksum of a node record (`checksum.ts`): the JSON of its fields but the vector, in their
 * stored order (structured clone keeps it), the JSON of its embedding's fields but the bytes, and
 * the vector bytes.
 * @throws Error when a value is not JSON-safe (a BigInt).
 */
export function nodeRecordSum(record: NodeRecord): number {
  const { sum: _sum, embedding, ...rest } = record;
  const { bytes, ...emb } = (embedding ?? {}) as Partial<NodeRecord['embedding']>;
  return recordSum([JSON.stringify(rest), JSON.stringify(emb), bytes instanceof Uint8Array ? bytes : null]);
}

/**
 * Marks a node or checkpoint record decoded from bytes whose own seal held (the SQL driver's
 * layout 7, `record-sql-seal.ts`: a CRC-32 over the stored bytes, checked before decoding): those
 * bytes are the ones written, and every node record is written by {@link toNodeRecord} with the
 * sum of what it encodes, every checkpoint record by `record-checkpoint.ts` `checkpointRecord`
 * with the sum of each part, so {@link nodeRecordSound} need not serialise the record again to
 * check its `sum` (issue 22: ~5 µs of the ~9 µs a node record's read took), nor `readCheckpoint`
 * sum each part again (issue 25: a second CRC-32 over the checkpoint's megabytes at each open).
 * A non-enumerable symbol: no copy, spread or JSON of the record carries it, and a record put in a
 * transaction never has it.
 */
export const SEAL_HELD: unique symbol = Symbol('jev-mem record: seal held');

/** Marks `record` (a node or checkpoint record just decoded from sealed bytes whose seal held; see {@link SEAL_HELD}). */
export function markSealHeld(record: unknown): void {
  if (record !== null && typeof record === 'object') Object.defineProperty(record, SEAL_HELD, { value: true });
}

/** True when `record` was decoded from sealed bytes whose seal held ({@link SEAL_HELD}). */
export function sealHeld(record: unknown): boolean {
  return record !== null && typeof record === 'object' && (record as { [SEAL_HELD]?: boolean })[SEAL_HELD] === true;
}

/**
 * Whether a stored node record matches its checksum (a record without one fails: the upgrade to
 * version 3 gave every record its sum). A record decoded from sealed bytes whose seal held
 * ({@link SEAL_HELD}) is sound when it carries its sum; any other is serialised and summed.
 */
export function nodeRecordSound(record: NodeRecord): boolean {
  if (typeof record.sum !== 'number') return false;
  if (sealHeld(record)) return true;
  try {
    return nodeRecordSum(record) === record.sum;
  } catch {
    return false;
  }
}

/** The stored form of a node (lossless: {@link fromNodeRecord} gives back an equal node), with its checksum. */
export function toNodeRecord(node: MemoryNode): NodeRecord {
  const { namespace: _ns, embedding, ...rest } = node;
  const { vector, ...embeddingRest } = embedding;
  const record: NodeRecord = { ...rest, embedding: { ...embeddingRest, bytes: encodeVector(vector) } };
  record.sum = nodeRecordSum(record);
  return record;
}

/** The node a {@link NodeRecord} stores. @throws Error on bytes that are not an encoded vector. */
export function fromNodeRecord(namespace: string, record: NodeRecord): MemoryNode {
  // The same object as `{ ...rest, namespace, embedding: { ...embeddingRest, vector } }` of the
  // record less `embedding` and `sum` (and the embedding less `bytes` and `vector`): own
  // enumerable keys in their order, copied in one pass (a recall decodes a few hundred records;
  // rest destructuring copied each record twice, issue 25).
  const out = copyExcept(record as unknown as Record<string, unknown>, 'embedding', 'sum');
  const embedding = record.embedding;
  const emb = copyExcept(embedding as unknown as Record<string, unknown>, 'bytes', 'vector');
  emb.vector = decodeVector(embedding.bytes);
  out.namespace = namespace;
  out.embedding = emb;
  return out as unknown as MemoryNode;
}

/**
 * The own enumerable properties of `o` but `a` and `b`, in their order, as object rest
 * destructuring copies them (string keys; a record holds no symbol-keyed enumerable property,
 * and `__proto__` stays a plain property).
 */
function copyExcept(o: Record<string, unknown>, a: string, b: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    if (k === a || k === b) continue;
    if (k === '__proto__') Object.defineProperty(out, k, { value: o[k], writable: true, enumerable: true, configurable: true });
    else out[k] = o[k];
  }
  return out;
}


/**
 * Per-namespace bookkeeping (table `spaces`), updated in the commit that changes it: the kept
 * counters that make `counts()` O(1) (issue 25) and the change-log floor.
 */
export interface SpaceRecord {
  /** Number of node records (database version 4 and later; the upgrade counts them once). */
  nodes: number;
  /** Estimated bytes of the namespace's node, adjacency, edge-id, meta and change-log records (`record-counters.ts`; version 4 and later). */
  bytes: number;
  /** Estimated bytes of the namespace's checkpoint record (0 when none; version 4 and later). */
  checkpointBytes: number;
  /** Number of edges. */
  edges: number;
  /** Edges per view. */
  byView: Record<string, number>;
  /** Edges whose id is stored (not the write path's `from>to:view:subtype`), each with an `edge-ids` record. */
  explicit: number;
  /** Change-log entries up to this change were dropped by a checkpoint (0: the log is whole). */
  floor: number;
}

/** The bookkeeping of a namespace with nothing stored and a whole change log. */
export function emptySpace(): SpaceRecord {
  return { nodes: 0, bytes: 0, checkpointBytes: 0, edges: 0, byView: {}, explicit: 0, floor: 0 };
}

/** A stored checkpoint (table `checkpoints`, one per namespace). */
export interface CheckpointRecord {
  change: number;
  format: string;
  parts: Record<string, Uint8Array>;
  /** Checksum of each part (`checksum.ts` `partSum`); absent on records from before version 3. */
  sums?: Record<string, number>;
  /**
   * Checksum of `change`, `format` and `sums` (`record-checkpoint.ts` `checkpointHeadSum`, issue
   * 22); absent on records written before it (then only the parts are checked).
   */
  head?: number;
}
