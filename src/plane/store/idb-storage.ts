/**
 * IndexedDB storage adapter (browsers, extensions; Node through fake-indexeddb), built on `idb`
 * with a typed schema. SPEC 2, 3, 4.6, 9.
 *
 * Layout: see {@link createIdbStorage} and {@link JevMemDBSchema}; record shapes in `idb-records.ts`.
 *
 * @module
 */
import { type DBSchema, type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction, type StoreNames, wrap } from 'idb';
import { JevMemError, invalidInput, isJevMemError } from '../../errors.js';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import {
  type Adjacency,
  type AdjacencyRecord,
  type NodeRecord,
  decodeAdjacency,
  edgeIdCandidates,
  encodeAdjacency,
  fromNodeRecord,
  isCanonicalEdge,
  nodeRecordSound,
  nodeRecordSum,
  toNodeRecord,
} from './idb-records.js';
import { DamageLog, partSum } from './checksum.js';
import { changedNodeIds, emptyNamespaceState, toSnapshot, validateBatch } from './memory-storage.js';
import { checkExistingNamespaceName, checkNamespaceName, namespaceNameProblem } from './names.js';
import { quoteVisible } from '../../util/invisible.js';
import { CHANGE_META_KEY, type Checkpoint, type NamespaceCounts, type StorageAdapter, type WriteBatch } from './storage.js';

/**
 * Schema version of the database (the IndexedDB version number). Raise it with a new step in
 * {@link upgradeSchema} when the layout changes. 1: one JSON-like record per node and per edge;
 * 2: compact nodes, adjacency records, change log, checkpoints (issue 13); 3: a checksum on every
 * node record (`sum`) and checkpoint part (`sums`), computed for the existing records at the
 * upgrade (issue 22).
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

type Store = StoreNames<JevMemDBSchema>;
const ALL_STORES: Store[] = ['node', 'adj', 'edge-ids', 'meta', 'changes', 'checkpoints', 'spaces'];
/** Stores keyed `[namespace, …]`. */
const RANGED_STORES = ['node', 'adj', 'edge-ids', 'meta', 'changes'] as const;
type AnyTx = IDBPTransaction<JevMemDBSchema, Store[], 'readwrite' | 'versionchange'>;

/** Every key `[namespace, …]` of one namespace (arrays sort after strings, numbers and binary keys). */
function namespaceRange(namespace: string): IDBKeyRange {
  return IDBKeyRange.bound([namespace], [namespace, []]);
}

/** Keys of one namespace after `[namespace, last]`. */
function rangeAfter(namespace: string, last: IDBValidKey): IDBKeyRange {
  return IDBKeyRange.bound([namespace, last], [namespace, []], true, false);
}

function emptySpace(): SpaceRecord {
  return { edges: 0, byView: {}, explicit: 0, floor: 0 };
}

/** Options of {@link createIdbStorage}. */
export interface IdbStorageOptions {
  /**
   * Database name; one database holds every namespace.
   * @default 'jev-mem'
   */
  dbName?: string;
  /**
   * The IndexedDB factory. In Node pass fake-indexeddb's (`new IDBFactory()`) after
   * `import 'fake-indexeddb/auto'`, which `idb` needs for the `IDB*` classes.
   * @default globalThis.indexedDB
   */
  indexedDB?: IDBFactory;
  /**
   * Ask the browser to keep this origin's storage under pressure (`navigator.storage.persist()`,
   * SPEC 9), once, when it is not persistent yet. The request is not awaited (Firefox may show
   * a prompt); its outcome is in {@link IdbStorage.persistence}. Without `navigator.storage`
   * (Node, workers of some browsers) nothing is asked.
   * @default true
   */
  persist?: boolean;
}

/**
 * What came of the persistent-storage request: `'granted'` / `'denied'` (the browser's answer),
 * `'pending'` (asked, no answer yet), `'unavailable'` (no `navigator.storage.persist`), `'off'`
 * (`persist: false`), `'failed'` (the request threw).
 */
export type PersistenceState = 'granted' | 'denied' | 'pending' | 'unavailable' | 'off' | 'failed';

/** The IndexedDB adapter: a {@link StorageAdapter} that also reports its persistence. */
export interface IdbStorage extends StorageAdapter {
  readonly kind: 'indexeddb';
  /** The outcome of the persistent-storage request so far (see {@link IdbStorageOptions.persist}). */
  readonly persistence: PersistenceState;
}

interface StorageManagerLike {
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
}

/**
 * Asks for persistent storage without waiting for the answer; `report` receives each state.
 * Never throws: persistence is a hint, and a refusal leaves the store working (best effort).
 */
export function requestPersistence(report: (state: PersistenceState) => void, storage?: StorageManagerLike): void {
  const manager = storage ?? (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage;
  if (manager === undefined || typeof manager.persist !== 'function') {
    report('unavailable');
    return;
  }
  report('pending');
  const persist = manager.persist.bind(manager);
  const already = typeof manager.persisted === 'function' ? manager.persisted.call(manager) : Promise.resolve(false);
  Promise.resolve(already)
    .then((yes) => (yes ? true : persist()))
    .then(
      (granted) => report(granted ? 'granted' : 'denied'),
      () => report('failed'),
    );
}

/**
 * Applies edge deletes, then edge puts, to the adjacency records of one namespace inside `tx`:
 * reads the records of the ends involved (all gets issued at once), changes them in memory and
 * issues their puts (an emptied record is deleted), with the `edge-ids` records and the
 * namespace's counts. Awaits only requests of `tx`. Cost: the degree of the nodes touched, never
 * the size of the store. Write requests go to `ops` (the caller awaits them with the transaction).
 */
async function applyEdges(tx: AnyTx, namespace: string, deleteIds: readonly string[], puts: readonly MemoryEdge[], ops: Promise<unknown>[]): Promise<void> {
  if (deleteIds.length === 0 && puts.length === 0) return;
  const adjStore = tx.objectStore('adj');
  const idStore = tx.objectStore('edge-ids');
  const spaceStore = tx.objectStore('spaces');
  const loaded = new Map<string, Adjacency>();
  const load = async (ids: Iterable<string>): Promise<void> => {
    const list = [...new Set(ids)].filter((id) => !loaded.has(id));
    const records = await Promise.all(list.map((id) => adjStore.get([namespace, id])));
    list.forEach((id, i) => loaded.set(id, decodeAdjacency(namespace, id, records[i])));
  };
  const wanted: string[] = [];
  const addCandidates = (id: string): void => {
    for (const c of edgeIdCandidates(id)) wanted.push(c.from, c.to);
  };
  for (const id of deleteIds) addCandidates(id);
  for (const e of puts) {
    wanted.push(e.from, e.to);
    addCandidates(e.id);
  }
  const [stored] = await Promise.all([spaceStore.get(namespace), load(wanted)]);
  const space = stored ?? emptySpace();
  // Ends of edges whose id is stored; null: no such edge (or removed in this batch).
  const ends = new Map<string, [string, string] | null>();
  if (space.explicit > 0) {
    const ids = [...new Set([...deleteIds, ...puts.map((e) => e.id)])];
    const found = await Promise.all(ids.map((id) => idStore.get([namespace, id])));
    ids.forEach((id, i) => ends.set(id, found[i] ?? null));
    await load(found.flatMap((pair) => pair ?? []));
  }
  const idWrites = new Map<string, [string, string] | null>();
  const touched = new Set<string>();
  const adjacencyOf = (node: string): Adjacency => {
    const a = loaded.get(node);
    if (a === undefined) throw new Error(`internal: adjacency of ${JSON.stringify(node)} was not read`);
    return a;
  };
  const count = (view: string, by: number): void => {
    space.edges += by;
    space.byView[view] = (space.byView[view] ?? 0) + by;
  };
  const remove = (id: string): void => {
    const froms = new Set(edgeIdCandidates(id).map((c) => c.from));
    const pair = ends.get(id);
    if (pair) froms.add(pair[0]);
    for (const from of froms) {
      const edge = loaded.get(from)?.out.get(id);
      if (edge === undefined) continue;
      adjacencyOf(from).out.delete(id);
      adjacencyOf(edge.to).in.delete(id);
      touched.add(from).add(edge.to);
      count(edge.view, -1);
      if (!isCanonicalEdge(edge)) {
        space.explicit--;
        ends.set(id, null);
        idWrites.set(id, null);
      }
      return;
    }
  };
  for (const id of deleteIds) remove(id);
  for (const edge of puts) {
    remove(edge.id);
    adjacencyOf(edge.from).out.set(edge.id, edge);
    if (edge.from !== edge.to) adjacencyOf(edge.to).in.set(edge.id, edge);
    touched.add(edge.from).add(edge.to);
    count(edge.view, 1);
    if (!isCanonicalEdge(edge)) {
      space.explicit++;
      ends.set(edge.id, [edge.from, edge.to]);
      idWrites.set(edge.id, [edge.from, edge.to]);
    }
  }
  for (const node of touched) {
    const record = encodeAdjacency(node, adjacencyOf(node));
    ops.push(record === undefined ? adjStore.delete([namespace, node]) : adjStore.put(record, [namespace, node]));
  }
  for (const [id, pair] of idWrites) ops.push(pair === null ? idStore.delete([namespace, id]) : idStore.put(pair, [namespace, id]));
  for (const view of Object.keys(space.byView)) if ((space.byView[view] ?? 0) <= 0) delete space.byView[view];
  ops.push(spaceStore.put(space, namespace));
}

/** Issues the requests of one batch in `tx` (see {@link applyEdges}); awaits only requests of `tx`. */
async function writeBatch(tx: AnyTx, namespace: string, batch: WriteBatch, ops: Promise<unknown>[]): Promise<void> {
  if ((batch.deleteNodeIds?.length ?? 0) + (batch.putNodes?.length ?? 0) > 0) {
    const nodes = tx.objectStore('node');
    for (const id of batch.deleteNodeIds ?? []) ops.push(nodes.delete([namespace, id]));
    for (const node of batch.putNodes ?? []) ops.push(nodes.put(toNodeRecord(node), [namespace, node.id]));
  }
  const metaEntries = Object.entries(batch.meta ?? {}).filter(([, v]) => v !== undefined);
  if (metaEntries.length > 0) {
    const meta = tx.objectStore('meta');
    for (const [key, value] of metaEntries) ops.push(value === null ? meta.delete([namespace, key]) : meta.put({ namespace, key, value }));
  }
  if (batch.change !== undefined) ops.push(tx.objectStore('changes').put(changedNodeIds(batch), [namespace, batch.change]));
  await applyEdges(tx, namespace, batch.deleteEdgeIds ?? [], batch.putEdges ?? [], ops);
  // The checkpoint change of the batch (issue 22): in the same transaction as the node changes.
  if (batch.checkpoint === null) ops.push(tx.objectStore('checkpoints').delete(namespace));
  else if (batch.checkpoint !== undefined) await putCheckpoint(tx, namespace, checkCheckpoint(batch.checkpoint), ops);
}

/** Replaces the namespace's checkpoint in `tx` and drops the change log it covers (raises the floor). */
async function putCheckpoint(tx: AnyTx, namespace: string, record: CheckpointRecord, ops: Promise<unknown>[]): Promise<void> {
  ops.push(tx.objectStore('checkpoints').put(record, namespace));
  ops.push(tx.objectStore('changes').delete(IDBKeyRange.bound([namespace], [namespace, record.change])));
  const spaces = tx.objectStore('spaces');
  const space = (await spaces.get(namespace)) ?? emptySpace();
  space.floor = Math.max(space.floor, record.change);
  ops.push(spaces.put(space, namespace));
}

/** The stores a batch writes (a commit's transaction covers these only). */
function storesOf(batch: WriteBatch): Store[] {
  const stores: Store[] = [];
  if ((batch.deleteNodeIds?.length ?? 0) + (batch.putNodes?.length ?? 0) > 0) stores.push('node');
  if ((batch.deleteEdgeIds?.length ?? 0) + (batch.putEdges?.length ?? 0) > 0) stores.push('adj', 'edge-ids', 'spaces');
  if (Object.values(batch.meta ?? {}).some((v) => v !== undefined)) stores.push('meta');
  if (batch.change !== undefined || batch.checkpoint !== undefined) stores.push('changes');
  if (batch.checkpoint !== undefined) stores.push('checkpoints', 'spaces');
  return [...new Set(stores)];
}

/** Reads a store of one namespace in chunks of `size` records (key-range continuation), each chunk its own read. */
async function* chunksOf<S extends (typeof RANGED_STORES)[number]>(
  db: () => IDBPDatabase<JevMemDBSchema>,
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

/**
 * Brings a version-1 database to version 2 inside the version-change transaction: every node
 * record to its compact form (vector as bytes), every edge into the adjacency records of its
 * ends (in chunks, so memory stays bounded), the change-log floor of each namespace from its
 * `change` meta key; then removes the version-1 `nodes` and `edges` stores. A failure aborts the
 * transaction, which leaves the version-1 database as it was.
 */
async function migrateFromV1(db: IDBPDatabase<JevMemDBSchema>, tx: AnyTx): Promise<void> {
  type V1 = { nodes: { key: [string, string]; value: MemoryNode }; edges: { key: [string, string]; value: MemoryEdge } };
  const old = tx as unknown as IDBPTransaction<V1, ['nodes', 'edges'], 'versionchange'>;
  const nodes = tx.objectStore('node');
  const ops: Promise<unknown>[] = [];
  const flush = async (): Promise<void> => {
    const failure = firstFailure(await Promise.allSettled(ops.splice(0)));
    if (failure !== undefined) throw failure;
  };
  try {
    let nodeCursor = await old.objectStore('nodes').openCursor();
    while (nodeCursor) {
      const n = nodeCursor.value;
      ops.push(nodes.put(toNodeRecord(n), [n.namespace, n.id]));
      if (ops.length >= 1000) await flush();
      nodeCursor = await nodeCursor.continue();
    }
    await flush();
    const CHUNK = 2000;
    let chunk: MemoryEdge[] = [];
    const applyChunk = async (): Promise<void> => {
      const first = chunk[0];
      if (first === undefined) return;
      await applyEdges(tx, first.namespace, [], chunk, ops);
      chunk = [];
      await flush();
    };
    let edgeCursor = await old.objectStore('edges').openCursor();
    while (edgeCursor) {
      const e = edgeCursor.value;
      if (chunk.length >= CHUNK || (chunk.length > 0 && chunk[0]!.namespace !== e.namespace)) await applyChunk();
      chunk.push(e);
      edgeCursor = await edgeCursor.continue();
    }
    await applyChunk();
    let metaCursor = await tx.objectStore('meta').openCursor();
    const spaces = tx.objectStore('spaces');
    while (metaCursor) {
      const { namespace, key, value } = metaCursor.value;
      if (key === CHANGE_META_KEY && typeof value === 'number' && value > 0) {
        const space = (await spaces.get(namespace)) ?? emptySpace();
        space.floor = value;
        await spaces.put(space, namespace);
      }
      metaCursor = await metaCursor.continue();
    }
  } catch (cause) {
    for (const op of ops) op.catch(() => undefined); // the abort that follows rejects them
    throw cause;
  }
  (db as unknown as IDBPDatabase<V1>).deleteObjectStore('nodes');
  (db as unknown as IDBPDatabase<V1>).deleteObjectStore('edges');
}

/**
 * Brings the database from `oldVersion` to {@link DB_VERSION}, one step per version, inside the
 * version-change transaction. Steps never delete user data (version 1 → 2 rewrites it).
 */
async function upgradeSchema(db: IDBPDatabase<JevMemDBSchema>, tx: AnyTx, oldVersion: number): Promise<void> {
  if (oldVersion < 1) {
    db.createObjectStore('meta', { keyPath: ['namespace', 'key'] }).createIndex('by-namespace', 'namespace');
  }
  if (oldVersion < 2) {
    for (const name of ['node', 'adj', 'edge-ids', 'changes', 'checkpoints', 'spaces'] as const) db.createObjectStore(name);
    if (oldVersion >= 1) await migrateFromV1(db, tx);
  }
  if (oldVersion >= 1 && oldVersion < 3) await addSums(tx);
}

/** Version 2 → 3: the checksum of every node record and checkpoint part, from the records as they are. */
async function addSums(tx: AnyTx): Promise<void> {
  let nodeCursor = await tx.objectStore('node').openCursor();
  while (nodeCursor) {
    const record = nodeCursor.value;
    if (record.sum === undefined) await nodeCursor.update({ ...record, sum: nodeRecordSum(record) });
    nodeCursor = await nodeCursor.continue();
  }
  let cpCursor = await tx.objectStore('checkpoints').openCursor();
  while (cpCursor) {
    const record = cpCursor.value;
    if (record.sums === undefined) await cpCursor.update({ ...record, sums: partSums(record.parts) });
    cpCursor = await cpCursor.continue();
  }
}

/** The checksum of each checkpoint part. */
function partSums(parts: Record<string, Uint8Array>): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const [name, data] of Object.entries(parts)) sums[name] = partSum(name, data);
  return sums;
}

function errorName(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string'
    ? (e as { name: string }).name
    : undefined;
}

/**
 * Turns a failure into the adapter's errors: `QuotaExceededError` → `QUOTA_EXCEEDED`, a
 * JevMemError passes through, anything else → `STORAGE_FAILED` with the cause.
 */
function storageError(what: string, cause: unknown): JevMemError {
  if (cause instanceof JevMemError) return cause;
  if (errorName(cause) === 'QuotaExceededError') {
    return new JevMemError(
      'QUOTA_EXCEEDED',
      `IndexedDB refused to ${what} for lack of space; nothing was written. Free space or ask for persistent storage (navigator.storage.persist()).`,
      { cause },
    );
  }
  return new JevMemError('STORAGE_FAILED', `IndexedDB failed to ${what}: ${String(cause)}`, { cause });
}

/** Picks the most telling rejection: a request's own error over the AbortError it caused. */
function firstFailure(results: PromiseSettledResult<unknown>[]): unknown {
  let fallback: unknown;
  for (const r of results) {
    if (r.status !== 'rejected') continue;
    if (errorName(r.reason) !== 'AbortError') return r.reason;
    fallback ??= r.reason;
  }
  return fallback;
}

function openDatabase(factory: IDBFactory, dbName: string): Promise<IDBPDatabase<JevMemDBSchema>> {
  const request = factory.open(dbName, DB_VERSION);
  let upgradeFailure: unknown;
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as unknown as IDBPDatabase<JevMemDBSchema>;
    const tx = wrap(request.transaction as IDBTransaction) as unknown as AnyTx;
    tx.done.catch(() => undefined); // an abort is reported through the open request
    upgradeSchema(db, tx, event.oldVersion).catch((cause: unknown) => {
      upgradeFailure = cause;
      try {
        request.transaction?.abort();
      } catch {
        // already finished
      }
    });
  });
  return (wrap(request) as unknown as Promise<IDBPDatabase<JevMemDBSchema>>).catch((cause: unknown) => {
    throw upgradeFailure ?? cause;
  });
}

/** Rough bytes of a key or value: strings as UTF-8, numbers 8, binary at its length (see `sizeBytes`). */
function approxBytes(value: unknown, encoder: TextEncoder): number {
  if (typeof value === 'string') return encoder.encode(value).length;
  if (typeof value === 'number') return 8;
  if (value === null || typeof value !== 'object') return 1;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + approxBytes(v, encoder), 0);
  let n = 0;
  for (const [k, v] of Object.entries(value)) n += encoder.encode(k).length + approxBytes(v, encoder);
  return n;
}

function checkBatchSize(batchSize: number): number {
  if (typeof batchSize !== 'number' || !(batchSize >= 1)) throw invalidInput('batchSize', `expected a number ≥ 1, got ${String(batchSize)}`);
  return Math.floor(Math.min(batchSize, 1e6));
}

function checkCheckpoint(checkpoint: Checkpoint): CheckpointRecord {
  if (typeof checkpoint !== 'object' || checkpoint === null) throw invalidInput('checkpoint', `expected an object, got ${String(checkpoint)}`);
  if (typeof checkpoint.change !== 'number' || !Number.isFinite(checkpoint.change) || checkpoint.change < 0) {
    throw invalidInput('checkpoint.change', `expected a finite number ≥ 0, got ${String(checkpoint.change)}`);
  }
  if (typeof checkpoint.format !== 'string') throw invalidInput('checkpoint.format', `expected a string, got ${typeof checkpoint.format}`);
  const parts: Record<string, Uint8Array> = {};
  for (const [name, part] of Object.entries(checkpoint.parts ?? {})) {
    if (!(part instanceof Uint8Array)) throw invalidInput(`checkpoint.parts.${name}`, 'expected a Uint8Array');
    // A view of a larger buffer would store the whole buffer: keep only its bytes.
    parts[name] = part.byteOffset === 0 && part.byteLength === part.buffer.byteLength ? part : part.slice();
  }
  return { change: checkpoint.change, format: checkpoint.format, parts, sums: partSums(parts) };
}

/**
 * Opens (and creates or upgrades) the IndexedDB database and returns a storage adapter
 * (`kind: 'indexeddb'`).
 *
 * Layout (version {@link DB_VERSION}, see {@link JevMemDBSchema}): `node` (compact node records,
 * vectors as bytes), `adj` (one record per node packing every edge that touches it, see
 * `idb-records.ts`), `edge-ids` (ends of edges whose id is not the write path's), `meta`,
 * `changes` (change log), `checkpoints`, `spaces` (edge counts and the change-log floor). Every
 * key starts with the namespace, so a namespace is a key range: no `by-namespace` index, and no
 * operation but `load` and `sizeBytes` reads a whole namespace.
 *
 * - `getNodes` / `getEdges`: one read-only transaction, all gets issued at once (`getEdges`
 *   reads the adjacency record of each asked node: edges from either end, each once).
 * - `scanNodes` / `scanEdges`: `getAll` with a key range and a count, continued after the last
 *   key, one short transaction per batch.
 * - `counts`: nodes by a key-range count, edges (per view) from the namespace's bookkeeping.
 * - `commit` is ONE read-write transaction over the stores the batch touches: node puts and
 *   deletes are issued at once, then the adjacency records of the edges' ends are read together,
 *   changed and put; nothing but requests of the transaction is awaited, so a failing request, a
 *   value that cannot be cloned or a quota error aborts the whole batch. A commit costs what it
 *   writes and the degree of the nodes it touches, not the size of the store.
 * - `writeCheckpoint` replaces the checkpoint and prunes the change log in one transaction.
 * - A version-1 database is migrated at open (see {@link DB_VERSION}); a failed migration leaves
 *   it untouched and the open fails with `STORAGE_FAILED`.
 * - `namespaces` lists namespaces with at least one node, edge or meta key.
 * - `sizeBytes` is an estimate: the bytes of the namespace's keys and values (strings as UTF-8,
 *   numbers 8, binary at its length), read in batches; not the browser's file size
 *   (`navigator.storage.estimate()`).
 * - When another tab opens a newer schema version, this connection closes itself; further calls
 *   fail with `STORAGE_FAILED`.
 * - `loadMeta` reads one namespace's meta only (one key range).
 * - Unless `persist: false`, it asks once for persistent storage (see
 *   {@link IdbStorageOptions.persist}); the answer is in `persistence`.
 *
 * @throws JevMemError `INVALID_OPTION` (field `indexedDB`) when there is no IndexedDB (pass
 *   `options.indexedDB`, or use the file or memory adapter), `SCHEMA_MISMATCH` when the stored
 *   database has a version newer than {@link DB_VERSION}, `STORAGE_FAILED` when it cannot be
 *   opened or migrated. Methods throw `INVALID_INPUT` on a bad namespace, batch, batch size or
 *   checkpoint, `QUOTA_EXCEEDED`, `STORAGE_FAILED`, and `CLOSED` after `close()`.
 */
export async function createIdbStorage(options: IdbStorageOptions = {}): Promise<IdbStorage> {
  const dbName = options.dbName ?? DEFAULT_DB_NAME;
  if (typeof dbName !== 'string' || dbName.length === 0) {
    throw new JevMemError('INVALID_OPTION', `option dbName: expected a non-empty string, got ${JSON.stringify(dbName)}`, {
      field: 'dbName',
    });
  }
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (factory === undefined || factory === null) {
    throw new JevMemError(
      'INVALID_OPTION',
      'option indexedDB: this environment has no IndexedDB; pass options.indexedDB (e.g. fake-indexeddb in Node) or use the file or memory storage adapter',
      { field: 'indexedDB' },
    );
  }
  if (typeof (globalThis as { IDBRequest?: unknown }).IDBRequest === 'undefined') {
    throw new JevMemError(
      'INVALID_OPTION',
      "option indexedDB: the IDB* classes are not globals here, and idb needs them; in Node run `import 'fake-indexeddb/auto'` first",
      { field: 'indexedDB' },
    );
  }

  let db: IDBPDatabase<JevMemDBSchema>;
  try {
    db = await openDatabase(factory, dbName);
  } catch (cause) {
    if (errorName(cause) === 'VersionError') {
      throw new JevMemError(
        'SCHEMA_MISMATCH',
        `IndexedDB database ${JSON.stringify(dbName)} has a schema newer than version ${DB_VERSION}, which this build reads; upgrade jev-mem`,
        { cause, expected: DB_VERSION },
      );
    }
    throw storageError(`open database ${JSON.stringify(dbName)}`, cause);
  }

  let persistence: PersistenceState = 'off';
  if (options.persist !== false) {
    requestPersistence((state) => {
      persistence = state;
    });
  }

  let closed = false;
  let lostReason: string | undefined;
  db.addEventListener('versionchange', () => {
    lostReason = 'another tab or worker opened a newer version of the database; reload to continue';
    db.close();
  });
  db.addEventListener('close', () => {
    lostReason ??= 'the browser closed the database connection';
  });

  const live = (): IDBPDatabase<JevMemDBSchema> => {
    if (closed) throw new JevMemError('CLOSED', 'the IndexedDB storage adapter was used after close()');
    if (lostReason !== undefined) throw new JevMemError('STORAGE_FAILED', `IndexedDB: ${lostReason}`);
    return db;
  };

  /** Runs `read`, turning any failure into the adapter's errors. */
  async function guarded<T>(what: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (cause) {
      throw storageError(what, cause);
    }
  }
  const nsText = (namespace: string): string => quoteVisible(namespace);

  async function readMeta(namespace: string): Promise<Record<string, unknown>> {
    const records = await live().getAll('meta', namespaceRange(namespace));
    const meta: Record<string, unknown> = {};
    for (const m of records) meta[m.key] = m.value; // keys come sorted (the key order of strings)
    return meta;
  }

  async function* scan<T>(what: string, produce: () => AsyncGenerator<T[]>, batchSize: number): AsyncGenerator<T[]> {
    const size = checkBatchSize(batchSize);
    let pending: T[] = [];
    const source = produce();
    for (;;) {
      let next: IteratorResult<T[]>;
      try {
        next = await source.next();
      } catch (cause) {
        throw storageError(what, cause);
      }
      if (next.done) break;
      pending = pending.concat(next.value);
      while (pending.length >= size) yield pending.splice(0, size);
    }
    if (pending.length > 0) yield pending;
  }

  /** Damaged records met by this connection's reads (issue 22). */
  const damage = new DamageLog();
  /**
   * The nodes of stored records, each checked against its checksum and decoded; a record that
   * fails either is left out and its id kept in the damage log.
   */
  const nodesOf = (namespace: string, records: Array<NodeRecord | undefined>, ids?: readonly string[]): MemoryNode[] => {
    const out: MemoryNode[] = [];
    records.forEach((r, i) => {
      if (r === undefined) return;
      const id = typeof r.id === 'string' ? r.id : String(ids?.[i] ?? r.id);
      if (!nodeRecordSound(r)) {
        damage.node(namespace, id);
        return;
      }
      try {
        out.push(fromNodeRecord(namespace, r));
      } catch {
        damage.node(namespace, id);
      }
    });
    return out;
  };

  async function* nodeBatches(namespace: string, size: number): AsyncGenerator<MemoryNode[]> {
    for await (const { keys, values } of chunksOf(live, 'node', namespace, size)) {
      const nodes = nodesOf(namespace, values, keys.map((k) => k[1]));
      if (nodes.length > 0) yield nodes;
    }
  }

  async function* edgeBatches(namespace: string, size: number): AsyncGenerator<MemoryEdge[]> {
    // An adjacency record holds ~2 × 17 entries: read about size/16 records per step.
    for await (const { keys, values } of chunksOf(live, 'adj', namespace, Math.max(1, Math.ceil(size / 16)))) {
      const edges: MemoryEdge[] = [];
      keys.forEach((key, i) => edges.push(...decodeAdjacency(namespace, key[1], values[i]).out.values()));
      yield edges;
    }
  }

  /** True when the store holds a node or a meta key of `namespace`. */
  const holds = (namespace: string): Promise<boolean> =>
    guarded(`read namespace ${nsText(namespace)}`, async () => {
      const range = namespaceRange(namespace);
      const [nodes, meta] = await Promise.all([live().count('node', range), live().count('meta', range)]);
      return nodes + meta > 0;
    });

  const adapter: IdbStorage = {
    kind: 'indexeddb',
    get persistence() {
      return persistence;
    },

    async load(namespace) {
      checkExistingNamespaceName(namespace);
      return guarded(`load namespace ${nsText(namespace)}`, async () => {
        const range = namespaceRange(namespace);
        const tx = live().transaction(['node', 'adj', 'meta'], 'readonly');
        const [nodes, adjKeys, adjValues, meta] = await Promise.all([
          tx.objectStore('node').getAll(range),
          tx.objectStore('adj').getAllKeys(range),
          tx.objectStore('adj').getAll(range),
          tx.objectStore('meta').getAll(range),
          tx.done,
        ]);
        const state = emptyNamespaceState();
        for (const n of nodesOf(namespace, nodes)) state.nodes.set(n.id, n);
        adjKeys.forEach((key, i) => {
          for (const e of decodeAdjacency(namespace, key[1], adjValues[i]).out.values()) state.edges.set(e.id, e);
        });
        for (const m of meta) state.meta.set(m.key, m.value);
        return toSnapshot(state);
      });
    },

    async commit(namespace, batch) {
      validateBatch(namespace, batch);
      const known = damage.ids(namespace);
      if (known.length > 0 && ((batch.putNodes ?? []).length > 0 || (batch.putEdges ?? []).length > 0)) {
        throw new JevMemError(
          'STORE_DAMAGED',
          `IndexedDB: namespace ${nsText(namespace)} holds damaged node record(s) ${known.slice(0, 10).map((id) => JSON.stringify(id)).join(', ')}${known.length > 10 ? `, … (${known.length} in all)` : ''}; writes are refused (nothing was written). Export the readable records and import them into a fresh namespace, or delete the damaged nodes`,
          { field: 'namespace', ids: known },
        );
      }
      if (batch.change !== undefined && (typeof batch.change !== 'number' || !Number.isFinite(batch.change))) {
        throw invalidInput('batch.change', `expected a finite number, got ${String(batch.change)}`);
      }
      // A new namespace takes a name only under the rule of names.ts; one the store already
      // holds (written before the rule) is kept, so it can be cleaned up.
      if (namespaceNameProblem(namespace) !== undefined && !(await holds(namespace))) checkNamespaceName(namespace);
      const stores = storesOf(batch);
      if (stores.length === 0) return;
      let tx: IDBPTransaction<JevMemDBSchema, Store[], 'readwrite'>;
      try {
        tx = live().transaction(stores, 'readwrite');
      } catch (cause) {
        throw storageError(`commit to namespace ${nsText(namespace)}`, cause);
      }
      const ops: Promise<unknown>[] = [];
      try {
        await writeBatch(tx, namespace, batch, ops);
      } catch (cause) {
        // A synchronous failure (e.g. DataCloneError) or a failed read: undo what was issued.
        try {
          tx.abort();
        } catch {
          // already finished or aborted
        }
        const settled = await Promise.allSettled([...ops, tx.done]);
        throw storageError(`commit to namespace ${nsText(namespace)}`, errorName(cause) === 'AbortError' ? (firstFailure(settled) ?? cause) : cause);
      }
      const results = await Promise.allSettled([...ops, tx.done]);
      const failure = firstFailure(results);
      if (failure !== undefined) throw storageError(`commit to namespace ${nsText(namespace)}`, failure);
      for (const id of batch.deleteNodeIds ?? []) damage.clear(namespace, id);
    },

    async loadMeta(namespace) {
      checkExistingNamespaceName(namespace);
      return guarded(`load the meta of namespace ${nsText(namespace)}`, () => readMeta(namespace));
    },

    async getNodes(namespace, ids) {
      checkExistingNamespaceName(namespace);
      if (ids.length === 0) return [];
      return guarded(`read nodes of namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction('node', 'readonly');
        const store = tx.objectStore('node');
        const [records] = await Promise.all([Promise.all(ids.map((id) => store.get([namespace, id]))), tx.done]);
        return nodesOf(namespace, records, ids);
      });
    },

    async getEdges(namespace, nodeIds, filter) {
      checkExistingNamespaceName(namespace);
      if (nodeIds.length === 0) return [];
      return guarded(`read edges of namespace ${nsText(namespace)}`, async () => {
        const unique = [...new Set(nodeIds)];
        const tx = live().transaction('adj', 'readonly');
        const store = tx.objectStore('adj');
        const [records] = await Promise.all([Promise.all(unique.map((id) => store.get([namespace, id]))), tx.done]);
        const edges = new Map<string, MemoryEdge>();
        unique.forEach((id, i) => {
          const record = records[i];
          if (record === undefined) return;
          const a = decodeAdjacency(namespace, id, record);
          // One adjacency record per node holds all its edges: the filter saves decoding work only.
          for (const e of a.out.values()) if (filter?.subtype === undefined || e.subtype === filter.subtype) edges.set(e.id, e);
          for (const e of a.in.values()) if (filter?.subtype === undefined || e.subtype === filter.subtype) edges.set(e.id, e);
        });
        return [...edges.values()];
      });
    },

    scanNodes(namespace, batchSize) {
      checkExistingNamespaceName(namespace);
      const size = checkBatchSize(batchSize);
      return scan(`scan nodes of namespace ${nsText(namespace)}`, () => nodeBatches(namespace, size), size);
    },

    scanEdges(namespace, batchSize) {
      checkExistingNamespaceName(namespace);
      const size = checkBatchSize(batchSize);
      return scan(`scan edges of namespace ${nsText(namespace)}`, () => edgeBatches(namespace, size), size);
    },

    async counts(namespace): Promise<NamespaceCounts> {
      checkExistingNamespaceName(namespace);
      return guarded(`count namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction(['node', 'spaces'], 'readonly');
        const [nodes, space] = await Promise.all([tx.objectStore('node').count(namespaceRange(namespace)), tx.objectStore('spaces').get(namespace), tx.done]);
        return { nodes, edges: space?.edges ?? 0, edgesByView: { ...(space?.byView ?? {}) } };
      });
    },

    async readCheckpoint(namespace) {
      checkExistingNamespaceName(namespace);
      return guarded(`read the checkpoint of namespace ${nsText(namespace)}`, async () => {
        const record = await live().get('checkpoints', namespace);
        if (record === undefined) return undefined;
        for (const [name, data] of Object.entries(record.parts)) {
          const sum = record.sums?.[name];
          if (!(data instanceof Uint8Array) || sum !== partSum(name, data)) {
            damage.checkpoint(namespace);
            throw new JevMemError('STORE_DAMAGED', `IndexedDB: part ${JSON.stringify(name)} of the checkpoint of namespace ${nsText(namespace)} fails its checksum; it is rebuilt from the node records`, { field: 'checkpoint', ids: [] });
          }
        }
        return { change: record.change, format: record.format, parts: record.parts };
      });
    },

    async writeCheckpoint(namespace, checkpoint) {
      checkExistingNamespaceName(namespace);
      const record = checkCheckpoint(checkpoint);
      await guarded(`write the checkpoint of namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction(['checkpoints', 'changes', 'spaces'], 'readwrite');
        const ops: Promise<unknown>[] = [];
        try {
          await putCheckpoint(tx, namespace, record, ops);
        } catch (cause) {
          try {
            tx.abort();
          } catch {
            // already finished
          }
          await Promise.allSettled([...ops, tx.done]);
          throw cause;
        }
        const failure = firstFailure(await Promise.allSettled([...ops, tx.done]));
        if (failure !== undefined) throw failure;
      });
    },

    async dropCheckpoint(namespace) {
      checkExistingNamespaceName(namespace);
      await guarded(`drop the checkpoint of namespace ${nsText(namespace)}`, () => live().delete('checkpoints', namespace));
    },

    async changesSince(namespace, after) {
      checkExistingNamespaceName(namespace);
      if (typeof after !== 'number' || Number.isNaN(after)) throw invalidInput('after', `expected a number, got ${String(after)}`);
      return guarded(`read the change log of namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction(['changes', 'spaces'], 'readonly');
        const [space, lists] = await Promise.all([
          tx.objectStore('spaces').get(namespace),
          tx.objectStore('changes').getAll(IDBKeyRange.bound([namespace, after], [namespace, []], true, false)),
          tx.done,
        ]);
        if (after < (space?.floor ?? 0)) return undefined;
        return [...new Set(lists.flat())];
      });
    },

    async namespaces() {
      return guarded('list namespaces', async () => {
        const found = new Set<string>();
        const tx = live().transaction(['node', 'adj', 'meta'], 'readonly');
        for (const name of ['node', 'adj', 'meta'] as const) {
          // Skip scan: one key per namespace, then jump past the namespace's range.
          let cursor = await tx.objectStore(name).openKeyCursor();
          while (cursor) {
            const ns = (cursor.key as [string, string])[0];
            found.add(ns);
            cursor = await cursor.continue([ns, []] as unknown as [string, string]);
          }
        }
        await tx.done;
        return [...found].sort();
      });
    },

    async dropNamespace(namespace) {
      checkExistingNamespaceName(namespace);
      await guarded(`drop namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction(ALL_STORES, 'readwrite');
        const range = namespaceRange(namespace);
        const ops: Promise<unknown>[] = RANGED_STORES.map((name) => tx.objectStore(name).delete(range));
        ops.push(tx.objectStore('checkpoints').delete(namespace), tx.objectStore('spaces').delete(namespace));
        const failure = firstFailure(await Promise.allSettled([...ops, tx.done]));
        if (failure !== undefined) throw failure;
      });
      damage.drop(namespace);
    },

    async sizeBytes(namespace) {
      checkExistingNamespaceName(namespace);
      return guarded(`measure namespace ${nsText(namespace)}`, async () => {
        const encoder = new TextEncoder();
        let total = 0;
        for (const name of RANGED_STORES) {
          for await (const { keys, values } of chunksOf(live, name, namespace, 500)) {
            keys.forEach((key, i) => {
              total += approxBytes(key, encoder) + approxBytes(values[i], encoder);
            });
          }
        }
        const tx = live().transaction(['checkpoints', 'spaces'], 'readonly');
        const [checkpoint, space] = await Promise.all([tx.objectStore('checkpoints').get(namespace), tx.objectStore('spaces').get(namespace), tx.done]);
        if (total === 0) return 0; // only bookkeeping left: nothing of the namespace is stored
        for (const record of [checkpoint, space]) if (record !== undefined) total += approxBytes(namespace, encoder) + approxBytes(record, encoder);
        return total;
      });
    },

    async damaged(namespace) {
      checkExistingNamespaceName(namespace);
      if (!damage.verified(namespace)) {
        for await (const _ of nodeBatches(namespace, 500)) {
          // nodeBatches checks every record and logs the damaged ones
        }
        await adapter.readCheckpoint!(namespace).catch((e: unknown) => {
          if (!isJevMemError(e, 'STORE_DAMAGED')) throw e;
        });
        damage.markVerified(namespace);
      }
      return damage.report(namespace);
    },
    /** The memory keeps its own lexical index (in its checkpoint) for this store. */
    lexicalIndex: () => undefined,

    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
  return adapter;
}
