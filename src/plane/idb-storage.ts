/**
 * IndexedDB storage adapter (browsers, extensions; Node through fake-indexeddb), built on `idb`
 * with a typed schema. SPEC 2, 3, 4.6, 9.
 *
 * Layout (database version {@link DB_VERSION}):
 * - `nodes`: {@link MemoryNode} records, key `[namespace, id]`, index `by-namespace`;
 * - `edges`: {@link MemoryEdge} records, key `[namespace, id]`, index `by-namespace`;
 * - `meta`: {@link MetaRecord} records, key `[namespace, key]`, index `by-namespace`.
 *
 * @module
 */
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, wrap } from 'idb';
import { JevMemError } from '../errors.js';
import type { MemoryEdge, MemoryNode } from '../types.js';
import { emptyNamespaceState, toSnapshot, validateBatch, validateNamespace } from './memory-storage.js';
import type { NamespaceSnapshot, StorageAdapter, WriteBatch } from './storage.js';

/**
 * Schema version of the database (the IndexedDB version number). Raise it with a new step in
 * {@link upgradeSchema} when the layout changes.
 */
export const DB_VERSION = 1;

/** Default database name. */
export const DEFAULT_DB_NAME = 'jev-mem';

/** One namespace metadata entry as stored. */
export interface MetaRecord {
  namespace: string;
  key: string;
  /** JSON-safe value. */
  value: unknown;
}

/** The typed schema of the database (idb `DBSchema`). */
export interface JevMemDBSchema extends DBSchema {
  nodes: { key: [string, string]; value: MemoryNode; indexes: { 'by-namespace': string } };
  edges: { key: [string, string]; value: MemoryEdge; indexes: { 'by-namespace': string } };
  meta: { key: [string, string]; value: MetaRecord; indexes: { 'by-namespace': string } };
}

type StoreName = 'nodes' | 'edges' | 'meta';
const STORES: readonly StoreName[] = ['nodes', 'edges', 'meta'];

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
 * Brings the database from `oldVersion` to {@link DB_VERSION}, one step per version, inside the
 * version-change transaction. Steps never delete user data.
 */
function upgradeSchema(db: IDBPDatabase<JevMemDBSchema>, oldVersion: number): void {
  if (oldVersion < 1) {
    db.createObjectStore('nodes', { keyPath: ['namespace', 'id'] }).createIndex('by-namespace', 'namespace');
    db.createObjectStore('edges', { keyPath: ['namespace', 'id'] }).createIndex('by-namespace', 'namespace');
    db.createObjectStore('meta', { keyPath: ['namespace', 'key'] }).createIndex('by-namespace', 'namespace');
  }
  // if (oldVersion < 2) { ...next migration... }
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
  request.addEventListener('upgradeneeded', (event) => {
    upgradeSchema(wrap(request.result) as unknown as IDBPDatabase<JevMemDBSchema>, event.oldVersion);
  });
  return wrap(request) as unknown as Promise<IDBPDatabase<JevMemDBSchema>>;
}

/**
 * Opens (and creates or upgrades) the IndexedDB database and returns a storage adapter
 * (`kind: 'indexeddb'`).
 *
 * - `load` reads the three stores in one read-only transaction; nodes come back by `seq`, edges
 *   by id.
 * - `commit` is ONE read-write transaction over the three stores; all requests are issued
 *   synchronously (no unrelated await inside), so a failing request, a value that cannot be
 *   cloned or a quota error aborts the whole batch and leaves the database as it was.
 * - `namespaces` lists namespaces with at least one node, edge or meta key.
 * - `sizeBytes` is an estimate: the UTF-8 length of the namespace's JSON.
 * - When another tab opens a newer schema version, this connection closes itself; further calls
 *   fail with `STORAGE_FAILED`.
 * - `loadMeta` reads one namespace's meta only (one index read).
 * - Unless `persist: false`, it asks once for persistent storage (see
 *   {@link IdbStorageOptions.persist}); the answer is in `persistence`.
 *
 * @throws JevMemError `INVALID_OPTION` (field `indexedDB`) when there is no IndexedDB (pass
 *   `options.indexedDB`, or use the file or memory adapter), `SCHEMA_MISMATCH` when the stored
 *   database has a version newer than {@link DB_VERSION}, `STORAGE_FAILED` when it cannot be
 *   opened. Methods throw `INVALID_INPUT` on a bad namespace or batch, `QUOTA_EXCEEDED`,
 *   `STORAGE_FAILED`, and `CLOSED` after `close()`.
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

  async function readNamespace(namespace: string): Promise<NamespaceSnapshot> {
    const tx = live().transaction(STORES as StoreName[], 'readonly');
    const [nodes, edges, meta] = await Promise.all([
      tx.objectStore('nodes').index('by-namespace').getAll(namespace),
      tx.objectStore('edges').index('by-namespace').getAll(namespace),
      tx.objectStore('meta').index('by-namespace').getAll(namespace),
      tx.done,
    ]);
    const state = emptyNamespaceState();
    for (const n of nodes) state.nodes.set(n.id, n);
    for (const e of edges) state.edges.set(e.id, e);
    for (const m of meta) state.meta.set(m.key, m.value);
    return toSnapshot(state);
  }

  function issueWrites(
    tx: IDBPTransaction<JevMemDBSchema, StoreName[], 'readwrite'>,
    namespace: string,
    batch: WriteBatch,
    ops: Promise<unknown>[],
  ): void {
    const nodes = tx.objectStore('nodes');
    const edges = tx.objectStore('edges');
    const meta = tx.objectStore('meta');
    for (const id of batch.deleteNodeIds ?? []) ops.push(nodes.delete([namespace, id]));
    for (const id of batch.deleteEdgeIds ?? []) ops.push(edges.delete([namespace, id]));
    for (const node of batch.putNodes ?? []) ops.push(nodes.put(node));
    for (const edge of batch.putEdges ?? []) ops.push(edges.put(edge));
    for (const [key, value] of Object.entries(batch.meta ?? {})) {
      if (value === null) ops.push(meta.delete([namespace, key]));
      else if (value !== undefined) ops.push(meta.put({ namespace, key, value }));
    }
  }

  return {
    kind: 'indexeddb',
    get persistence() {
      return persistence;
    },

    async load(namespace) {
      validateNamespace(namespace);
      try {
        return await readNamespace(namespace);
      } catch (cause) {
        throw storageError(`load namespace ${JSON.stringify(namespace)}`, cause);
      }
    },

    async commit(namespace, batch) {
      validateBatch(namespace, batch);
      let tx: IDBPTransaction<JevMemDBSchema, StoreName[], 'readwrite'>;
      try {
        tx = live().transaction(STORES as StoreName[], 'readwrite');
      } catch (cause) {
        throw storageError(`commit to namespace ${JSON.stringify(namespace)}`, cause);
      }
      const ops: Promise<unknown>[] = [];
      try {
        issueWrites(tx, namespace, batch, ops);
      } catch (cause) {
        // A synchronous failure (e.g. DataCloneError): undo the requests already issued.
        try {
          tx.abort();
        } catch {
          // already finished or aborted
        }
        await Promise.allSettled([...ops, tx.done]);
        throw storageError(`commit to namespace ${JSON.stringify(namespace)}`, cause);
      }
      const results = await Promise.allSettled([...ops, tx.done]);
      const failure = firstFailure(results);
      if (failure !== undefined) throw storageError(`commit to namespace ${JSON.stringify(namespace)}`, failure);
    },

    async loadMeta(namespace) {
      validateNamespace(namespace);
      try {
        const records = await live().getAllFromIndex('meta', 'by-namespace', namespace);
        const meta: Record<string, unknown> = {};
        for (const m of records.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) meta[m.key] = m.value;
        return meta;
      } catch (cause) {
        throw storageError(`load the meta of namespace ${JSON.stringify(namespace)}`, cause);
      }
    },

    async namespaces() {
      const found = new Set<string>();
      try {
        const tx = live().transaction(STORES as StoreName[], 'readonly');
        for (const name of STORES) {
          let cursor = await tx.objectStore(name).index('by-namespace').openKeyCursor(null, 'nextunique');
          while (cursor) {
            found.add(cursor.key);
            cursor = await cursor.continue();
          }
        }
        await tx.done;
      } catch (cause) {
        throw storageError('list namespaces', cause);
      }
      return [...found].sort();
    },

    async dropNamespace(namespace) {
      validateNamespace(namespace);
      try {
        const tx = live().transaction(STORES as StoreName[], 'readwrite');
        const keyLists = await Promise.all(STORES.map((name) => tx.objectStore(name).index('by-namespace').getAllKeys(namespace)));
        const ops: Promise<unknown>[] = [];
        STORES.forEach((name, i) => {
          for (const key of keyLists[i] ?? []) ops.push(tx.objectStore(name).delete(key));
        });
        const results = await Promise.allSettled([...ops, tx.done]);
        const failure = firstFailure(results);
        if (failure !== undefined) throw failure;
      } catch (cause) {
        throw storageError(`drop namespace ${JSON.stringify(namespace)}`, cause);
      }
    },

    async sizeBytes(namespace) {
      validateNamespace(namespace);
      let snapshot: NamespaceSnapshot;
      try {
        snapshot = await readNamespace(namespace);
      } catch (cause) {
        throw storageError(`measure namespace ${JSON.stringify(namespace)}`, cause);
      }
      if (snapshot.nodes.length === 0 && snapshot.edges.length === 0 && Object.keys(snapshot.meta).length === 0) return 0;
      // The UTF-8 length of JSON.stringify(snapshot), summed record by record: the whole string of
      // a 100k-node namespace is longer than a JS string may be (RangeError: Invalid string length).
      const encoder = new TextEncoder();
      const bytes = (value: unknown): number => encoder.encode(JSON.stringify(value)).length;
      const list = (records: readonly unknown[]): number => 2 + Math.max(0, records.length - 1) + records.reduce<number>((n, r) => n + bytes(r), 0);
      // {"nodes":[…],"edges":[…],"meta":{…}}
      return bytes({ nodes: [], edges: [], meta: {} }) - 4 - 2 + list(snapshot.nodes) + list(snapshot.edges) + bytes(snapshot.meta);
    },

    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
