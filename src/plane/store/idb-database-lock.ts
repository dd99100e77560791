/**
 * Who may use an IndexedDB database while it is rebuilt (issue 22). Every open IndexedDB store
 * (`createIdbStorage`) holds its database *shared* until it is closed; `compactIdbDatabase`
 * holds it *exclusive* for the whole rebuild, and refuses to start while any store holds it. So
 * no write of this page or of another tab of the origin can commit between the copy and the
 * deletion of the original (it would be lost), and a store opened during a rebuild waits for
 * its end instead of opening a half-copied database.
 *
 * The lock is a Web Lock (`navigator.locks`, shared by every tab, worker and extension page of
 * the origin) named {@link DATABASE_LOCK_PREFIX}`<dbName>` when the factory is the page's own
 * `indexedDB`; a Web Lock is released by the browser when its page or worker goes away, so a
 * closed tab never blocks a compaction. For another factory (fake-indexeddb in Node), or where
 * there are no Web Locks, the same rules hold within this JavaScript realm
 * ({@link LocalLocks}, one per factory).
 *
 * @module
 */

/** Prefix of the Web Lock of one IndexedDB database: `jev-mem-idb-database:<dbName>` (namespace write locks are `jev-mem:<namespace>`, so the names never meet). */
export const DATABASE_LOCK_PREFIX = 'jev-mem-idb-database:' as const;

/** Gives a held lock back; resolves once the lock manager has released it (so a request made next sees it free). Idempotent. */
export type Release = () => Promise<void>;

type LockMode = 'shared' | 'exclusive';

/** The part of the Web Locks API used here (`LockManager.request`). */
export interface LockManagerLike {
  request(name: string, options: { mode: LockMode; ifAvailable?: boolean }, callback: (lock: unknown) => Promise<void>): Promise<unknown>;
}

interface LocalState {
  mode: LockMode | undefined;
  holders: number;
  queue: Array<{ mode: LockMode; grant: () => void }>;
}

/**
 * Shared / exclusive locks by name within this realm, with the grant rules of the Web Locks
 * API: requests are granted in order; a shared request joins shared holders only when no
 * request waits before it; `ifAvailable` answers `null` instead of waiting.
 */
export class LocalLocks implements LockManagerLike {
  readonly #states = new Map<string, LocalState>();

  async request(name: string, options: { mode: LockMode; ifAvailable?: boolean }, callback: (lock: unknown) => Promise<void>): Promise<unknown> {
    const state = this.#states.get(name) ?? { mode: undefined, holders: 0, queue: [] };
    this.#states.set(name, state);
    const free = state.queue.length === 0 && (state.holders === 0 || (state.mode === 'shared' && options.mode === 'shared'));
    if (!free) {
      if (options.ifAvailable === true) return callback(null);
      await new Promise<void>((grant) => state.queue.push({ mode: options.mode, grant }));
    } else {
      state.mode = options.mode;
      state.holders++;
    }
    try {
      return await callback({ name, mode: options.mode });
    } finally {
      state.holders--;
      if (state.holders === 0) state.mode = undefined;
      this.#grantWaiting(name, state);
    }
  }

  #grantWaiting(name: string, state: LocalState): void {
    while (state.queue.length > 0) {
      const next = state.queue[0]!;
      if (state.holders > 0 && (state.mode === 'exclusive' || next.mode === 'exclusive')) break;
      state.queue.shift();
      state.mode = next.mode;
      state.holders++;
      next.grant();
    }
    if (state.holders === 0 && state.queue.length === 0) this.#states.delete(name);
  }
}

const local = new WeakMap<IDBFactory, LocalLocks>();

/** The lock manager that covers every user of `factory`'s databases (see the module). */
function locksOf(factory: IDBFactory): LockManagerLike {
  const g = globalThis as { indexedDB?: IDBFactory; navigator?: { locks?: LockManagerLike } };
  const web = g.navigator?.locks;
  if (factory === g.indexedDB && web !== undefined && web !== null && typeof web.request === 'function') return web;
  let locks = local.get(factory);
  if (locks === undefined) local.set(factory, (locks = new LocalLocks()));
  return locks;
}

/** Requests `name` and resolves once it is held (with its release), or to undefined when `ifAvailable` found it taken. */
function hold(locks: LockManagerLike, name: string, mode: LockMode, ifAvailable: boolean): Promise<Release | undefined> {
  return new Promise((resolve, reject) => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let granted = false;
    // The request settles once the callback has returned and the lock is given back.
    const request = locks.request(name, { mode, ifAvailable }, async (lock) => {
      if (lock === null) return resolve(undefined);
      granted = true;
      resolve(() => {
        release();
        return ended;
      });
      await released;
    });
    const ended = request.then(
      () => undefined,
      () => undefined,
    );
    request.catch((e: unknown) => {
      if (!granted) reject(e);
    });
  });
}

/**
 * Holds database `dbName` of `factory` shared (an open store), waiting while a compaction holds
 * it exclusive.
 * @returns the release (call and await it when the store closes).
 * @throws what the lock manager throws (a document that is no longer active).
 */
export async function holdDatabaseShared(factory: IDBFactory, dbName: string): Promise<Release> {
  return (await hold(locksOf(factory), DATABASE_LOCK_PREFIX + dbName, 'shared', false))!;
}

/**
 * Holds database `dbName` of `factory` exclusive when nothing holds it (no open store, no other
 * compaction, nothing waiting), without waiting.
 * @returns the release, or undefined when the database is in use.
 */
export function tryHoldDatabaseExclusive(factory: IDBFactory, dbName: string): Promise<Release | undefined> {
  return hold(locksOf(factory), DATABASE_LOCK_PREFIX + dbName, 'exclusive', true);
}

/** Prefix of the lock under which openers finish an interrupted compaction: `jev-mem-idb-recovery:<dbName>`. */
export const RECOVERY_LOCK_PREFIX = 'jev-mem-idb-recovery:' as const;

/**
 * Runs `fn` holding the recovery lock of `dbName` ({@link RECOVERY_LOCK_PREFIX}) exclusive,
 * waiting for it: openers of one database finish an interrupted compaction one at a time.
 * @returns what `fn` returns.
 * @throws what `fn` throws.
 */
export async function withRecoveryLock<T>(factory: IDBFactory, dbName: string, fn: () => Promise<T>): Promise<T> {
  const release = (await hold(locksOf(factory), RECOVERY_LOCK_PREFIX + dbName, 'exclusive', false))!;
  try {
    return await fn();
  } finally {
    await release();
  }
}
