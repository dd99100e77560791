/**
 * hnswlib's index file in and out of hnswlib-wasm (for `serialize()` / `restoreHnswVectorIndex`
 * of `vector-hnsw.ts`): the package does not export its emscripten `FS`, so the file travels
 * through the IDBFS mount at `/hnswlib-index` (written or read there, synced with its IndexedDB
 * store, then deleted from both). Operations of one realm queue behind each other, since a sync
 * reconciles the whole mount. Split out of `vector-hnsw.ts` (issue 22: modules under 400 lines).
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import { hnswlibIndexedDB, quietHnswlib, type HierarchicalNSW, type HnswlibModule } from './vector-hnsw-wasm.js';

/** Directory hnswlib-wasm mounts its IDBFS at; also the name of its IndexedDB database. */
const IDBFS_MOUNT = '/hnswlib-index';
/** The object store of that database (hnswlib-wasm's `IDBFS_STORE_NAME`). */
const IDBFS_STORE = 'FILE_DATA';

/** Tail of the queue of file-system operations: one at a time, since an IDBFS sync reconciles the whole mount. */
let fsQueue: Promise<unknown> = Promise.resolve();
let fileCounter = 0;

/** Runs `op` after every earlier file-system operation of this realm has settled. */
function withFileSystem<T>(op: () => Promise<T>): Promise<T> {
  const quietOp = async (): Promise<T> => {
    const loud = quietHnswlib();
    try {
      return await op();
    } finally {
      loud();
    }
  };
  const run = fsQueue.then(quietOp, quietOp);
  fsQueue = run.catch(() => undefined);
  return run;
}

/** How long an IDBFS sync may take before the operation fails. */
const SYNC_TIMEOUT_MS = 60_000;

/** Waits until no IDBFS sync is in flight (the one started at load included). */
async function settled(lib: HnswlibModule): Promise<void> {
  const fsm = lib.EmscriptenFileSystemManager;
  const start = Date.now();
  while (!fsm.isSynced()) {
    if (Date.now() - start > SYNC_TIMEOUT_MS) {
      throw new JevMemError('STORAGE_FAILED', `hnswlib-wasm's IDBFS sync did not finish within ${SYNC_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** One IDBFS sync: `read` = IndexedDB → in-memory files (removes files absent there), else the reverse. */
async function syncFiles(lib: HnswlibModule, read: boolean): Promise<void> {
  await settled(lib);
  lib.EmscriptenFileSystemManager.syncFS(read, () => undefined);
  await settled(lib);
}

/** Runs `body` on IDBFS's object store in one transaction; resolves when it commits. */
function fileStore<T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const factory = hnswlibIndexedDB();
  if (factory === undefined) return Promise.reject(new Error('no IndexedDB factory was seen while hnswlib-wasm loaded'));
  return new Promise<T>((resolve, reject) => {
    const open = factory.open(IDBFS_MOUNT);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      try {
        const tx = db.transaction(IDBFS_STORE, mode);
        const request = body(tx.objectStore(IDBFS_STORE));
        tx.oncomplete = () => {
          db.close();
          resolve(request.result);
        };
        tx.onerror = tx.onabort = () => {
          db.close();
          reject(tx.error ?? request.error);
        };
      } catch (error) {
        db.close();
        reject(error);
      }
    };
  });
}

/** IDBFS's record of a file (`contents` are the file's bytes). */
interface FileRecord {
  timestamp: Date;
  mode: number;
  contents: ArrayBufferView;
}

/** Regular file, rw-rw-rw- (what IDBFS records for a file hnswlib writes). */
const FILE_MODE = 0o100666;

/** A fresh file name under the mount; `path` is the IndexedDB key IDBFS files it under. */
function tempFile(): { name: string; path: string } {
  const name = `jev-mem-${++fileCounter}-${Math.random().toString(36).slice(2, 10)}.hnsw`;
  return { name, path: `${IDBFS_MOUNT}/${name}` };
}

/**
 * hnswlib's index file for `index`, read back through IDBFS: `writeIndex` into the in-memory
 * mount, sync to IndexedDB, read the record, then delete it and sync back so that neither copy
 * stays behind.
 */
export function writeIndexBytes(lib: HnswlibModule, index: HierarchicalNSW): Promise<Uint8Array> {
  return withFileSystem(async () => {
    const { name, path } = tempFile();
    await settled(lib);
    index.writeIndex(name);
    try {
      await syncFiles(lib, false);
      const record = await fileStore<FileRecord | undefined>('readonly', (store) => store.get(path) as IDBRequest<FileRecord | undefined>);
      if (record === undefined || !ArrayBuffer.isView(record.contents)) {
        throw new Error(`the index file ${path} is missing from IDBFS after the sync (another tab syncing at the same time?)`);
      }
      const c = record.contents;
      return new Uint8Array(c.buffer, c.byteOffset, c.byteLength).slice();
    } finally {
      await fileStore('readwrite', (store) => store.delete(path)).catch(() => undefined);
      await syncFiles(lib, true).catch(() => undefined);
    }
  });
}

/** Loads `file` (hnswlib's index file bytes) into `index` with `readIndex`, through IDBFS as above. */
export function readIndexBytes(lib: HnswlibModule, index: HierarchicalNSW, file: Uint8Array, maxElements: number): Promise<void> {
  return withFileSystem(async () => {
    const { name, path } = tempFile();
    const record: FileRecord = { timestamp: new Date(), mode: FILE_MODE, contents: new Int8Array(file.buffer, file.byteOffset, file.byteLength) };
    try {
      await fileStore('readwrite', (store) => store.put(record, path));
      await syncFiles(lib, true);
      index.readIndex(name, maxElements);
    } finally {
      await fileStore('readwrite', (store) => store.delete(path)).catch(() => undefined);
      await syncFiles(lib, true).catch(() => undefined);
    }
  });
}
