/**
 * The shipped stores, for suites that run on each of them (issue 22): Node's SQLite file store
 * first, IndexedDB (fake-indexeddb), and the in-memory store. The legacy v1 file store is not
 * one of them (it only imports).
 *
 * A {@link StorePlace} is where one store's data lives: every `open()` of a place opens the same
 * data again (the same directory, the same IndexedDB factory and database, the same in-memory
 * store), as a process that restarts would.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import type { Logger } from '../../src/util/logger.js';
import { forwardPort } from './helpers.js';

/** Kinds of the shipped stores, in the order suites run them. */
export const SHIPPED_STORES = ['sqlite', 'indexeddb', 'memory'] as const;

/** One shipped store kind. */
export type ShippedStore = (typeof SHIPPED_STORES)[number];

/** Where one store's data lives; each `open()` opens that same data. */
export interface StorePlace {
  readonly kind: ShippedStore;
  /** The SQLite store's directory (undefined for the others). */
  readonly dir: string | undefined;
  /** Opens the store at this place (a new adapter; the memory store's close keeps its data). */
  open(): Promise<StorageAdapter>;
}

/** A logger that keeps what the store reports (a taken-over lock, an import) out of the test output. */
export const quietLogger: Logger = () => undefined;

/**
 * A new, empty place of store `kind`. `tempDir` makes a folder removed after the test file (the
 * SQLite store's directory).
 */
export function storePlace(kind: ShippedStore, tempDir: () => string): StorePlace {
  if (kind === 'sqlite') {
    const dir = tempDir();
    return { kind, dir, open: () => createSqliteFileStorage({ dir, logger: quietLogger }) };
  }
  if (kind === 'indexeddb') {
    const factory = new IDBFactory();
    return { kind, dir: undefined, open: () => createIdbStorage({ indexedDB: factory, persist: false }) };
  }
  const data = createMemoryStorage();
  // The in-memory store's data lives in the adapter: a reopen is the same adapter, whose close
  // a memory's close must not reach.
  return { kind, dir: undefined, open: async () => forwardPort(data, { close: async (): Promise<void> => undefined }) };
}
