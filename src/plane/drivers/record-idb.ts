/**
 * The IndexedDB record driver (issue 22), through `idb`: the tables of `record-driver.ts` are
 * object stores of the same names, keyed `[namespace, key]` (out of line), except `meta`, whose
 * records are `{ namespace, key, sealed }` (before version 5 `{ namespace, key, value }`) under the
 * in-line key path `['namespace', 'key']`, and
 * `checkpoints` / `spaces`, keyed by the namespace alone. This is the layout of database version
 * 2 and later, so a namespace is one key range and databases written before issue 22 open as
 * they are. Values of the tables but `node` and `checkpoints` are sealed with their CRC-32
 * (version 5, `record-idb-seal.ts`): a changed byte reads as a `DamagedRecord`. A transaction
 * awaits nothing but its own requests; a write transaction is aborted when its work throws, so
 * nothing of it is kept. The data steps of an upgrade are the store's
 * (`record-idb-upgrade.ts`); this module creates the object stores.
 *
 * @module
 */
import { type IDBPDatabase, type IDBPTransaction, wrap } from 'idb';
import { JevMemError } from '../../errors.js';
import type { KeyedRecord, RecordDriver, RecordKey, RecordTable, RecordTx } from './record-driver.js';
import { fromStored, toStored } from './record-idb-seal.js';

/** A raw `idb` transaction over any stores (a driver's, or the version change of an upgrade). */
export type RawTx = IDBPTransaction<any, string[], 'readonly' | 'readwrite' | 'versionchange'>;
/** A raw `idb` database of any schema. */
export type RawDb = IDBPDatabase<any>;

const SINGLE: ReadonlySet<RecordTable> = new Set(['checkpoints', 'spaces']);

/** Every key `[namespace, …]` of one namespace (arrays sort after strings, numbers and binary keys). */
export function namespaceRange(namespace: string): IDBKeyRange {
  return IDBKeyRange.bound([namespace], [namespace, []]);
}

/** The `name` of an error (a DOMException's `QuotaExceededError`, `AbortError`, …), or undefined. */
export function errorName(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string' ? (e as { name: string }).name : undefined;
}

/** Picks the most telling rejection: a request's own error over the AbortError it caused. */
export function firstFailure(results: PromiseSettledResult<unknown>[]): unknown {
  let fallback: unknown;
  for (const r of results) {
    if (r.status !== 'rejected') continue;
    if (errorName(r.reason) !== 'AbortError') return r.reason;
    fallback ??= r.reason;
  }
  return fallback;
}

/**
 * The {@link RecordTx} over a raw `idb` transaction. Write requests are pushed to `ops`, which
 * the caller awaits with the transaction ({@link RecordDriver.transaction}, or an upgrade step).
 */
export function idbRecordTx(tx: RawTx, ops: Promise<unknown>[]): RecordTx {
  const os = (table: RecordTable) => tx.objectStore(table);
  const fullKey = (table: RecordTable, namespace: string, key: RecordKey): IDBValidKey => (SINGLE.has(table) ? namespace : [namespace, key]);
  const after = (namespace: string, key: RecordKey | undefined): IDBKeyRange =>
    key === undefined ? namespaceRange(namespace) : IDBKeyRange.bound([namespace, key], [namespace, []], true, false);
  return {
    get(table, namespace, key) {
      return handled((async () => {
        return fromStored(table, key, await os(table).get(fullKey(table, namespace, key)));
      })());
    },
    put(table, namespace, key, value) {
      const store = os(table);
      const stored = toStored(table, namespace, key, value);
      if (table === 'meta') ops.push(store.put!(stored));
      else ops.push(store.put!(stored, fullKey(table, namespace, key)));
    },
    delete(table, namespace, key) {
      ops.push(os(table).delete!(fullKey(table, namespace, key)));
    },
    deleteRange(table, namespace, upTo) {
      if (SINGLE.has(table)) ops.push(os(table).delete!(namespace));
      else ops.push(os(table).delete!(upTo === undefined ? namespaceRange(namespace) : IDBKeyRange.bound([namespace], [namespace, upTo])));
    },
    scan(table, namespace, from, limit) {
      return handled(scanRange(table, namespace, from, limit));
    },
    namespaces(table) {
      return handled(namespacesOf(table));
    },
  };

  async function scanRange(table: RecordTable, namespace: string, from: RecordKey | undefined, limit: number): Promise<KeyedRecord[]> {
    if (SINGLE.has(table)) {
      const v: unknown = from === undefined ? await os(table).get(namespace) : undefined;
      return v === undefined ? [] : [['', fromStored(table, '', v)]];
    }
    const store = os(table);
    const range = after(namespace, from);
    const count = Number.isFinite(limit) ? limit : undefined;
    const [keys, values] = await Promise.all([store.getAllKeys(range, count), store.getAll(range, count)]);
    return keys.map((k, i): KeyedRecord => {
      const key = (k as [string, RecordKey])[1];
      return [key, fromStored(table, key, values[i])];
    });
  }

  async function namespacesOf(table: RecordTable): Promise<string[]> {
    const found: string[] = [];
    if (SINGLE.has(table)) return ((await os(table).getAllKeys()) as string[]).sort();
    // Skip scan: one key per namespace, then jump past the namespace's range.
    let cursor = await os(table).openKeyCursor();
    while (cursor) {
      const ns = (cursor.key as [string, unknown])[0];
      found.push(ns);
      cursor = await cursor.continue([ns, []]);
    }
    return found;
  }
}

/**
 * `p`, marked handled: a read the work issued and then dropped (it threw first, e.g. on a put
 * that cannot be cloned) is rejected with AbortError when the transaction is aborted; that
 * rejection is not a second failure and must not surface as an unhandled rejection. A caller
 * awaiting `p` still gets it.
 */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/** Creates the object stores of version 2 (and `meta` of version 1) that a database below it lacks. */
export function createRecordStores(db: RawDb, oldVersion: number): void {
  if (oldVersion < 1) db.createObjectStore('meta', { keyPath: ['namespace', 'key'] }).createIndex('by-namespace', 'namespace');
  if (oldVersion < 2) for (const name of ['node', 'adj', 'edge-ids', 'changes', 'checkpoints', 'spaces']) db.createObjectStore(name);
}

/** Awaits the requests of a write and the transaction; throws the most telling failure raw. */
async function settle(tx: RawTx, ops: Promise<unknown>[], failed: unknown, isFailed: boolean): Promise<void> {
  if (isFailed) {
    try {
      tx.abort();
    } catch {
      // already finished or aborted
    }
    const settled = await Promise.allSettled([...ops, tx.done]);
    throw errorName(failed) === 'AbortError' ? (firstFailure(settled) ?? failed) : failed;
  }
  const failure = firstFailure(await Promise.allSettled([...ops, tx.done]));
  if (failure !== undefined) throw failure;
}

/**
 * Opens database `dbName` at `version` and returns its record driver. In the version change,
 * the object stores are created ({@link createRecordStores}) and `upgrade` runs the data steps
 * from `oldVersion`; when it throws, the upgrade is aborted (the database stays as it was).
 * When another connection asks for a newer version, this one closes itself and later
 * transactions throw `STORAGE_FAILED`.
 * @throws the failure of `upgrade`, or the open request's error raw (a `VersionError` when the
 *   stored database is newer); the caller maps it.
 */
export async function openIdbRecordDriver(
  factory: IDBFactory,
  dbName: string,
  version: number,
  upgrade: (db: RawDb, tx: RawTx, oldVersion: number) => Promise<void>,
): Promise<RecordDriver> {
  const request = factory.open(dbName, version);
  let upgradeFailure: unknown;
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as RawDb;
    const tx = wrap(request.transaction as IDBTransaction) as unknown as RawTx;
    tx.done.catch(() => undefined); // an abort is reported through the open request
    const fail = (cause: unknown): void => {
      upgradeFailure = cause;
      try {
        request.transaction?.abort();
      } catch {
        // already finished
      }
    };
    try {
      createRecordStores(db, event.oldVersion); // while the version change is active
    } catch (cause) {
      fail(cause);
      return;
    }
    upgrade(db, tx, event.oldVersion).catch(fail);
  });
  const db = await (wrap(request) as unknown as Promise<RawDb>).catch((cause: unknown) => {
    throw upgradeFailure ?? cause;
  });
  let closed = false;
  let lost: string | undefined;
  db.addEventListener('versionchange', () => {
    lost = 'another tab or worker opened a newer version of the database; reload to continue';
    db.close();
  });
  db.addEventListener('close', () => {
    lost ??= 'the browser closed the database connection';
  });
  return {
    async transaction(tables, mode, work) {
      if (closed) throw new JevMemError('CLOSED', 'the IndexedDB storage adapter was used after close()');
      if (lost !== undefined) throw new JevMemError('STORAGE_FAILED', `IndexedDB: ${lost}`);
      // A write is acknowledged only once it is on disk: Chromium's default durability is `relaxed`
      // since 121 (complete fires while the data is still being written), and a real-Chromium
      // SIGKILL test (test/browser/idb-crash) lost an add the page had seen resolve.
      const tx = (mode === 'write' ? db.transaction([...tables], 'readwrite', { durability: 'strict' }) : db.transaction([...tables], 'readonly')) as unknown as RawTx;
      const ops: Promise<unknown>[] = [];
      if (mode === 'read') {
        const [result] = await Promise.all([work(idbRecordTx(tx, ops)), tx.done]);
        return result;
      }
      let result: Awaited<ReturnType<typeof work>> | undefined;
      let failed: unknown;
      let isFailed = false;
      try {
        result = await work(idbRecordTx(tx, ops));
      } catch (cause) {
        failed = cause;
        isFailed = true;
      }
      await settle(tx, ops, failed, isFailed);
      return result as Awaited<ReturnType<typeof work>>;
    },
    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
