/**
 * The layout of the IndexedDB store: its schema version, the typed `idb` schema of its object
 * stores and the records kept in them (beyond the node and adjacency records of
 * `idb-records.ts`), and the key ranges of one namespace (every key starts with the namespace,
 * so a namespace is a key range), with a chunked reader over such a range. SPEC 2, 9.
 *
 * @module
 */
import type { DBSchema, IDBPDatabase, IDBPObjectStore, IDBPTransaction, StoreNames } from 'idb';
import type { AdjacencyRecord, NodeRecord } from './idb-records.js';

/**
 * Schema version of the database (the IndexedDB version number). Raise it with a new step in
 * `upgradeSchema` (`idb-upgrade.ts`) when the layout changes. 1: one JSON-like record per node
 * and per edge; 2: compact nodes, adjacency records, change log, checkpoints (issue 13); 3: a
 * checksum on every node record (`sum`) and checkpoint part (`sums`), computed for the existing
 * records at the upgrade (issue 22).
 */
export const DB_VERSION = 3;

/** Default database name. */
export const DEFAULT_DB_NAME = 'jev-mem';

/** One namespace metadata entry as stored. */
export interface MetaRecord {
  namespace: string;
  key: string;
  /** JSON-safe value. */
  value: unknown;
}

/** Per-namespace bookkeeping kept in the `spaces` store (updated in the commit that changes it). */
export interface SpaceRecord {
  /** Number of edges. */
  edges: number;
  /** Edges per view. */
  byView: Record<string, number>;
  /** Edges whose id is stored (not the write path's `from>to:view:subtype`), each with an `edge-ids` record. */
  explicit: number;
  /** Change-log entries up to this change were dropped by a checkpoint (0: the log is whole). */
  floor: number;
}

/** A stored checkpoint (one per namespace). */
export interface CheckpointRecord {
  change: number;
  format: string;
  parts: Record<string, Uint8Array>;
  /** Checksum of each part (`checksum.ts` `partSum`); absent on records from before version 3. */
  sums?: Record<string, number>;
}

/** The typed schema of the database, version 2 (idb `DBSchema`). Keys are out of line except `meta`'s. */
export interface JevMemDBSchema extends DBSchema {
  /** Key `[namespace, id]`. */
  node: { key: [string, string]; value: NodeRecord };
  /** Edges touching one node, key `[namespace, node id]`. */
  adj: { key: [string, string]; value: AdjacencyRecord };
  /** Ends `[from, to]` of an edge with a stored id, key `[namespace, edge id]`. */
  'edge-ids': { key: [string, string]; value: [string, string] };
  meta: { key: [string, string]; value: MetaRecord; indexes: { 'by-namespace': string } };
  /** Node ids changed by one commit, key `[namespace, change]`. */
  changes: { key: [string, number]; value: string[] };
  /** Key: namespace. */
  checkpoints: { key: string; value: CheckpointRecord };
  /** Key: namespace. */
  spaces: { key: string; value: SpaceRecord };
}

/** The name of one object store. */
export type Store = StoreNames<JevMemDBSchema>;
/** Every object store. */
export const ALL_STORES: Store[] = ['node', 'adj', 'edge-ids', 'meta', 'changes', 'checkpoints', 'spaces'];
/** Stores keyed `[namespace, …]`. */
export const RANGED_STORES = ['node', 'adj', 'edge-ids', 'meta', 'changes'] as const;
/** A transaction that may write (a commit's, or the version-change transaction of an upgrade). */
export type AnyTx = IDBPTransaction<JevMemDBSchema, Store[], 'readwrite' | 'versionchange'>;

/** Every key `[namespace, …]` of one namespace (arrays sort after strings, numbers and binary keys). */
export function namespaceRange(namespace: string): IDBKeyRange {
  return IDBKeyRange.bound([namespace], [namespace, []]);
}

/** Keys of one namespace after `[namespace, last]`. */
export function rangeAfter(namespace: string, last: IDBValidKey): IDBKeyRange {
  return IDBKeyRange.bound([namespace, last], [namespace, []], true, false);
}

/** The bookkeeping of a namespace with no edge and a whole change log. */
export function emptySpace(): SpaceRecord {
  return { edges: 0, byView: {}, explicit: 0, floor: 0 };
}

/** Reads a store of one namespace in chunks of `size` records (key-range continuation), each chunk its own read. */
export async function* chunksOf<S extends (typeof RANGED_STORES)[number]>(
  db: LiveDb,
  store: S,
  namespace: string,
  size: number,
): AsyncGenerator<{ keys: JevMemDBSchema[S]['key'][]; values: JevMemDBSchema[S]['value'][] }> {
  let range = namespaceRange(namespace);
  for (;;) {
    const tx = db().transaction(store, 'readonly');
    const os = tx.objectStore(store) as unknown as IDBPObjectStore<JevMemDBSchema, [S], S, 'readonly'>;
    const [keys, values] = await Promise.all([os.getAllKeys(range, size), os.getAll(range, size)]);
    if (keys.length === 0) return;
    yield { keys, values };
    if (keys.length < size) return;
    range = rangeAfter(namespace, (keys[keys.length - 1] as [string, IDBValidKey])[1]);
  }
}

/** The open database of a live adapter; throws `CLOSED` after `close()`, `STORAGE_FAILED` once the connection is lost. */
export type LiveDb = () => IDBPDatabase<JevMemDBSchema>;
