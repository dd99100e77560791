/**
 * LEGACY (v1): the store format of jev-mem before issue 13, kept to read and write old stores
 * (`createSqliteFileStorage` imports one at its first open). New stores use
 * `sqlite-file-storage.ts`. This format loads a namespace whole and keeps a deleted memory's text
 * in its journal until compaction.
 *
 * Directory storage adapter for Node (CLI, benchmarks): separate runs of the program see the same
 * memory. Node only (imports `node:fs`). SPEC 2, 3, 4.6.
 *
 * Layout under `dir`:
 * ```
 * format.json                      {"format":"jev-mem/file-store","version":1}
 * lock                             held by the one process that writes (pid, host)
 * ns/<folder>/journal.jsonl        one line per committed batch: "<seq>\t<sha256/16>\t<batch JSON>\n"
 * ns/<folder>/snapshot.json        "<header JSON>\n<state JSON>\n" (header: seq, sha256 of the state)
 * ns/<folder>/name                 the namespace's name, for folders named by hash (long names)
 * trash/                           dropped namespaces on their way out
 * ```
 * `<folder>` is `ns_` + the namespace's UTF-8 bytes with every byte outside `[a-z0-9_-]` written
 * as `%XX` (so it is safe and distinct on case-insensitive file systems, and `.`/`..` cannot
 * occur), or `nh_` + a SHA-256 prefix when that would be longer than {@link MAX_FOLDER_CHARS}.
 *
 * Durability: a commit is one `write` of one journal line followed by `fdatasync`; it costs
 * O(batch size). Load replays snapshot + journal; a torn or corrupt LAST line (a crash during the
 * append) is ignored and cut off by the next writer, while damage anywhere else is an error.
 * Compaction writes the state to a temporary file, syncs it, renames it over `snapshot.json`,
 * syncs the folder, and only then empties the journal; journal lines whose sequence number the
 * snapshot already covers are skipped, so a crash at any step loses nothing.
 *
 * @module
 */
import { takeStoreLock } from './store-lock.js';
import { createHash, randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open, readFile, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { JevMemError, describeValue } from '../../errors.js';
import { consoleLogger, errorText, type Logger } from '../../util/logger.js';
import {
  type NamespaceState,
  applyBatch,
  emptyNamespaceState,
  toSnapshot,
  validateBatch,
} from './memory-storage.js';
import { checkExistingNamespaceName } from './names.js';
import type { NamespaceSnapshot, StorageAdapter, StorageHealth, WriteBatch } from './storage.js';

/** Format tag written in `format.json`. */
export const FILE_STORE_FORMAT = 'jev-mem/file-store' as const;

/** Layout version this build writes and reads; a store with another version → `SCHEMA_MISMATCH`. */
export const FILE_STORE_VERSION = 1;

/** Format tag of a snapshot header. */
const SNAPSHOT_FORMAT = 'jev-mem/snapshot' as const;

/** Longest readable folder name before falling back to a hashed name. */
export const MAX_FOLDER_CHARS = 160;

export { LOCK_SETTLE_MS } from './store-lock.js';

/** Options of {@link createFileStorage}. */
export interface FileStorageOptions {
  /** The store directory. */
  dir: string;
  /**
   * Create the directory and `format.json` when missing. With `false`, a missing store fails
   * with `STORE_MISSING`.
   * @default true
   */
  create?: boolean;
  /**
   * Compact a namespace when its journal holds more than this many batches.
   * @default 2000
   */
  compactAfterBatches?: number;
  /**
   * Compact a namespace when its journal is larger than this many times its snapshot (and larger
   * than `compactMinBytes`).
   * @default 4
   */
  compactSizeFactor?: number;
  /**
   * Journal size in bytes under which the size rule never compacts (so that a small store is not
   * rewritten on every commit).
   * @default 1048576 (1 MiB)
   */
  compactMinBytes?: number;
  /**
   * Receives the failures the adapter recovers from without failing a call: a compaction that
   * failed (the commit stands, its batch is durable in the journal; retried once the journal has
   * doubled), a trash folder or file handle it could not clean up. Compaction failures are also
   * counted in {@link StorageAdapter.health} (and so in `Memory.stats()`).
   * @default consoleLogger (console.warn / console.error)
   */
  logger?: Logger;
}

interface ResolvedOptions {
  dir: string;
  create: boolean;
  compactAfterBatches: number;
  compactSizeFactor: number;
  compactMinBytes: number;
  logger: Logger;
}

/** The part of a namespace's files a writer keeps open between commits. */
interface Writer {
  handle: FileHandle;
  /** Bytes of the journal that hold complete, valid lines. */
  validBytes: number;
  /** Sequence number of the last committed batch (journal or snapshot). */
  lastSeq: number;
  /** Journal lines not yet folded into the snapshot. */
  journalBatches: number;
  /** Size of `snapshot.json` in bytes (0 when none). */
  snapshotBytes: number;
  /** After a failed compaction: no new attempt before the journal holds this many batches. */
  compactDeferredUntil: number;
}

interface JournalEntry {
  seq: number;
  batch: WriteBatch;
}

interface ParsedJournal {
  entries: JournalEntry[];
  /** Byte length of the valid prefix (everything before a torn last line). */
  validBytes: number;
  /** True when a torn or corrupt last line was ignored. */
  torn: boolean;
}

interface SnapshotHeader {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  seq: number;
  hash: string;
}

// ───────────────────────────── helpers ─────────────────────────────

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;
}

/** ENOSPC / EDQUOT → `QUOTA_EXCEEDED`; a JevMemError passes through; anything else → `STORAGE_FAILED`. */
function fsError(what: string, cause: unknown): JevMemError {
  if (cause instanceof JevMemError) return cause;
  const code = errnoCode(cause);
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new JevMemError('QUOTA_EXCEEDED', `the disk refused to ${what} for lack of space (${code}); nothing was written`, {
      cause,
    });
  }
  return new JevMemError('STORAGE_FAILED', `could not ${what}: ${String(cause)}`, { cause });
}

function corrupt(file: string, detail: string): JevMemError {
  return new JevMemError('STORAGE_FAILED', `the store file ${file} is damaged: ${detail}`, { file });
}

async function readOptional(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/** fsync a directory so that a rename or a new entry in it is durable (best effort off Linux). */
async function syncDir(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch (e) {
    const code = errnoCode(e);
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw e;
  } finally {
    await handle?.close();
  }
}

/** Writes `text` to `path` atomically: temp file, fdatasync, rename, fsync of the folder. */
async function writeFileAtomic(dir: string, name: string, text: string): Promise<number> {
  const tmp = join(dir, `${name}.tmp`);
  const bytes = Buffer.from(text, 'utf8');
  const handle = await open(tmp, 'w');
  try {
    await writeAll(handle, bytes);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  await rename(tmp, join(dir, name));
  await syncDir(dir);
  return bytes.length;
}

async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}

/**
 * The folder name of a namespace (see the module comment). Injective: distinct namespaces get
 * distinct folders.
 */
export function namespaceFolder(namespace: string): string {
  let out = 'ns_';
  for (const byte of new TextEncoder().encode(namespace)) {
    const safe =
      (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x5f || byte === 0x2d; // a-z 0-9 _ -
    out += safe ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out.length <= MAX_FOLDER_CHARS ? out : `nh_${sha256(namespace).slice(0, 40)}`;
}

/** One journal line for batch `seq` (ends with `\n`). */
function journalLine(seq: number, json: string): string {
  const body = `${seq}\t${json}`;
  return `${seq}\t${sha256(body).slice(0, 16)}\t${json}\n`;
}

/** Parses one journal line (without its `\n`); `undefined` when it is malformed or fails its checksum. */
function parseJournalLine(line: string): JournalEntry | undefined {
  const tab1 = line.indexOf('\t');
  const tab2 = tab1 < 0 ? -1 : line.indexOf('\t', tab1 + 1);
  if (tab2 < 0) return undefined;
  const seqText = line.slice(0, tab1);
  const hash = line.slice(tab1 + 1, tab2);
  const json = line.slice(tab2 + 1);
  if (!/^[1-9][0-9]*$/.test(seqText)) return undefined;
  if (sha256(`${seqText}\t${json}`).slice(0, 16) !== hash) return undefined;
  try {
    const batch = JSON.parse(json) as unknown;
    if (typeof batch !== 'object' || batch === null || Array.isArray(batch)) return undefined;
    return { seq: Number(seqText), batch: batch as WriteBatch };
  } catch {
    return undefined;
  }
}

/**
 * Parses a journal. A last line without its `\n`, or that fails to parse, is a torn append and
 * is ignored; a bad line anywhere else, or sequence numbers that do not follow each other, throw.
 */
function parseJournal(bytes: Buffer, file: string): ParsedJournal {
  const entries: JournalEntry[] = [];
  let pos = 0;
  let torn = false;
  let lineNo = 0;
  while (pos < bytes.length) {
    lineNo++;
    const nl = bytes.indexOf(0x0a, pos);
    if (nl < 0) {
      torn = true; // crash mid-append: the line never got its newline
      break;
    }
    const entry = parseJournalLine(bytes.toString('utf8', pos, nl));
    if (entry === undefined) {
      if (nl + 1 === bytes.length) {
        torn = true; // the last line is damaged: also a crash mid-append
        break;
      }
      throw corrupt(file, `line ${lineNo} fails its checksum or does not parse, and it is not the last line`);
    }
    const prev = entries[entries.length - 1];
    if (prev !== undefined && entry.seq !== prev.seq + 1) {
      throw corrupt(file, `line ${lineNo} has sequence number ${entry.seq} after ${prev.seq}`);
    }
    entries.push(entry);
    pos = nl + 1;
  }
  return { entries, validBytes: pos, torn };
}

function parseSnapshotHeader(line: string, file: string): SnapshotHeader {
  let header: Partial<SnapshotHeader>;
  try {
    header = JSON.parse(line) as Partial<SnapshotHeader>;
  } catch {
    throw corrupt(file, 'the header line is not JSON');
  }
  if (header.format !== SNAPSHOT_FORMAT || typeof header.seq !== 'number' || typeof header.hash !== 'string') {
    throw corrupt(file, 'the header line is not a jev-mem snapshot header');
  }
  if (header.version !== FILE_STORE_VERSION) {
    throw new JevMemError(
      'SCHEMA_MISMATCH',
      `the snapshot ${file} has version ${String(header.version)}; this build reads version ${FILE_STORE_VERSION}`,
      { file, found: header.version, expected: FILE_STORE_VERSION },
    );
  }
  return header as SnapshotHeader;
}

/** Reads a whole snapshot file into a state; verifies its checksum. */
function parseSnapshot(bytes: Buffer, file: string): { seq: number; state: NamespaceState } {
  const text = bytes.toString('utf8');
  const nl = text.indexOf('\n');
  if (nl < 0) throw corrupt(file, 'no header line');
  const header = parseSnapshotHeader(text.slice(0, nl), file);
  const body = text.slice(nl + 1).replace(/\n$/, '');
  if (sha256(body).slice(0, 32) !== header.hash) throw corrupt(file, 'the state fails its checksum');
  let snap: NamespaceSnapshot;
  try {
    snap = JSON.parse(body) as NamespaceSnapshot;
  } catch {
    throw corrupt(file, 'the state is not JSON');
  }
  const state = emptyNamespaceState();
  for (const n of snap.nodes ?? []) state.nodes.set(n.id, n);
  for (const e of snap.edges ?? []) state.edges.set(e.id, e);
  for (const [k, v] of Object.entries(snap.meta ?? {})) state.meta.set(k, v);
  return { seq: header.seq, state };
}

/** Reads only the header of a snapshot (its sequence number) and the file size. */
async function snapshotInfo(path: string): Promise<{ seq: number; bytes: number } | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const { size } = await handle.stat();
    const chunk = Buffer.alloc(Math.min(size, 4096));
    await handle.read(chunk, 0, chunk.length, 0);
    const nl = chunk.indexOf(0x0a);
    if (nl < 0) throw corrupt(path, 'no header line');
    return { seq: parseSnapshotHeader(chunk.toString('utf8', 0, nl), path).seq, bytes: size };
  } finally {
    await handle.close();
  }
}

function positiveNumber(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new JevMemError('INVALID_OPTION', `option ${name}: expected a positive number, got ${describeValue(value)}`, { field: name });
  }
  return value;
}

/** Checks or creates `format.json`. */
async function openStoreDir(options: ResolvedOptions): Promise<void> {
  const { dir, create } = options;
  const missing = (why: string): JevMemError =>
    new JevMemError('STORE_MISSING', `no jev-mem store at ${dir} (${why}); pass create: true to make one`, { field: 'store', dir, reason: why });
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) {
      throw new JevMemError('INVALID_OPTION', `option dir: ${dir} exists and is not a directory`, { field: 'dir' });
    }
  } catch (e) {
    if (errnoCode(e) !== 'ENOENT') throw fsError(`open the store directory ${dir}`, e);
    if (!create) throw missing('the directory does not exist');
    try {
      await mkdir(dir, { recursive: true });
    } catch (cause) {
      throw fsError(`create the store directory ${dir}`, cause);
    }
  }
  const formatPath = join(dir, 'format.json');
  let text: Buffer | undefined;
  try {
    text = await readOptional(formatPath);
  } catch (cause) {
    throw fsError(`read ${formatPath}`, cause);
  }
  if (text === undefined) {
    if (!create) throw missing('format.json is missing');
    const entries = await readdir(dir);
    if (entries.some((name) => name !== 'format.json.tmp')) {
      throw new JevMemError(
        'INVALID_OPTION',
        `option dir: ${dir} is not empty and holds no format.json, so it is not a jev-mem store; choose an empty or new directory`,
        { field: 'dir' },
      );
    }
    try {
      await writeFileAtomic(dir, 'format.json', `${JSON.stringify({ format: FILE_STORE_FORMAT, version: FILE_STORE_VERSION })}\n`);
    } catch (cause) {
      throw fsError(`write ${formatPath}`, cause);
    }
    return;
  }
  let format: { format?: unknown; version?: unknown };
  try {
    format = JSON.parse(text.toString('utf8')) as { format?: unknown; version?: unknown };
  } catch {
    throw corrupt(formatPath, 'not JSON');
  }
  if (format.format !== FILE_STORE_FORMAT) throw corrupt(formatPath, `format is ${JSON.stringify(format.format)}, expected ${FILE_STORE_FORMAT}`);
  if (format.version !== FILE_STORE_VERSION) {
    throw new JevMemError(
      'SCHEMA_MISMATCH',
      `the store at ${dir} has layout version ${String(format.version)}; this build reads version ${FILE_STORE_VERSION}` +
        (typeof format.version === 'number' && format.version > FILE_STORE_VERSION ? ' (upgrade jev-mem)' : ''),
      { field: 'store', found: format.version, expected: FILE_STORE_VERSION },
    );
  }
}

// ───────────────────────────── adapter ─────────────────────────────

class FileStorage implements StorageAdapter {
  readonly kind = 'file';
  readonly #opts: ResolvedOptions;
  readonly #nsRoot: string;
  readonly #writers = new Map<string, Writer>();
  /** Per-namespace queue: operations on one namespace run one at a time. */
  readonly #queues = new Map<string, Promise<unknown>>();
  /** Recovered failures per namespace (see health()). */
  readonly #health = new Map<string, StorageHealth>();
  #lock: Promise<void> | undefined;
  #lockHeld = false;
  #closed = false;

  constructor(opts: ResolvedOptions) {
    this.#opts = opts;
    this.#nsRoot = join(opts.dir, 'ns');
  }

  async load(namespace: string): Promise<NamespaceSnapshot> {
    this.#live();
    checkExistingNamespaceName(namespace);
    return this.#serial(namespace, async () => {
      try {
        return toSnapshot((await this.#readState(namespace)).state);
      } catch (cause) {
        throw fsError(`load namespace ${JSON.stringify(namespace)}`, cause);
      }
    });
  }

  async commit(namespace: string, batch: WriteBatch): Promise<void> {
    this.#live();
    validateBatch(namespace, batch);
    let json: string;
    try {
      json = JSON.stringify(batch);
    } catch (cause) {
      throw new JevMemError('STORAGE_FAILED', `the batch cannot be stored as JSON: ${String(cause)}`, { cause });
    }
    await this.#acquireLock();
    await this.#serial(namespace, async () => {
      this.#live();
      const w = await this.#writer(namespace);
      const seq = w.lastSeq + 1;
      const bytes = Buffer.from(journalLine(seq, json), 'utf8');
      try {
        await writeAll(w.handle, bytes);
        await w.handle.datasync();
      } catch (cause) {
        await this.#undoAppend(namespace, w);
        throw fsError(`commit to namespace ${JSON.stringify(namespace)}`, cause);
      }
      w.validBytes += bytes.length;
      w.lastSeq = seq;
      w.journalBatches++;
      if (this.#shouldCompact(w)) {
        try {
          await this.#compact(namespace, w);
        } catch (cause) {
          // The batch is durable in the journal, so the commit stands (failing it would tell the
          // caller that nothing was written). The failure is counted in health() and logged; the
          // next attempt comes once the journal has doubled, which keeps the amortised cost of a
          // commit O(batch size).
          w.compactDeferredUntil = 2 * w.journalBatches;
          const h = this.health(namespace);
          h.compactionFailures++;
          h.lastCompactionError = errorText(cause);
          this.#health.set(namespace, h);
          this.#opts.logger('warn', `compaction of namespace ${JSON.stringify(namespace)} failed (${h.lastCompactionError}); every batch is kept in its journal, the next attempt comes after ${w.compactDeferredUntil} journal batches`, { code: 'COMPACTION_FAILED', namespace, error: cause });
        }
      }
    });
  }

  async namespaces(): Promise<string[]> {
    this.#live();
    let folders: string[];
    try {
      folders = await readdir(this.#nsRoot);
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') return [];
      throw fsError('list namespaces', e);
    }
    const names: string[] = [];
    for (const folder of folders) {
      try {
        const name = await this.#folderName(folder);
        if (name !== undefined && (await this.#holdsData(join(this.#nsRoot, folder)))) names.push(name);
      } catch (cause) {
        throw fsError(`read namespace folder ${folder}`, cause);
      }
    }
    return names.sort();
  }

  async dropNamespace(namespace: string): Promise<void> {
    this.#live();
    checkExistingNamespaceName(namespace);
    await this.#acquireLock();
    await this.#serial(namespace, async () => {
      const folder = namespaceFolder(namespace);
      const writer = this.#writers.get(namespace);
      this.#writers.delete(namespace);
      // Every commit was synced, so a handle that fails to close loses nothing: report, go on.
      await writer?.handle.close().catch((e: unknown) => this.#opts.logger('warn', `the journal of namespace ${JSON.stringify(namespace)} could not be closed (${errorText(e)})`, { code: 'HANDLE_NOT_CLOSED', namespace, error: e }));
      const trash = join(this.#opts.dir, 'trash');
      try {
        await mkdir(trash, { recursive: true });
        const target = join(trash, `${folder}.${randomUUID()}`);
        try {
          await rename(join(this.#nsRoot, folder), target); // atomic: the namespace is gone at once
        } catch (e) {
          if (errnoCode(e) === 'ENOENT') return;
          throw e;
        }
        await syncDir(this.#nsRoot);
        await rm(target, { recursive: true, force: true });
      } catch (cause) {
        throw fsError(`drop namespace ${JSON.stringify(namespace)}`, cause);
      }
    });
  }

  /** Compactions of `namespace` that failed since this adapter was opened (a copy). */
  health(namespace: string): StorageHealth {
    const h = this.#health.get(namespace);
    return h === undefined ? { compactionFailures: 0 } : { ...h };
  }

  async sizeBytes(namespace: string): Promise<number | undefined> {
    this.#live();
    checkExistingNamespaceName(namespace);
    const folder = join(this.#nsRoot, namespaceFolder(namespace));
    let total = 0;
    try {
      for (const name of await readdir(folder)) total += (await stat(join(folder, name))).size;
    } catch (e) {
      if (errnoCode(e) === 'ENOENT') return 0;
      throw fsError(`measure namespace ${JSON.stringify(namespace)}`, e);
    }
    return total;
  }

  /**
   * The v1 file store checks its files whole when it loads them (a damaged file fails the load
   * with `STORAGE_FAILED`) and keeps no per-record checksums: no damage to report record by record.
   */
  async damaged(_namespace: string): Promise<{ ids: string[]; checkpoint: boolean }> {
    return { ids: [], checkpoint: false };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#queues.values()]); // each operation's error went to its caller
    const failures: string[] = [];
    for (const [namespace, w] of this.#writers) {
      // Every commit was synced, so a handle that fails to close loses nothing: report, go on.
      await w.handle.close().catch((e: unknown) => this.#opts.logger('warn', `the journal of namespace ${JSON.stringify(namespace)} could not be closed (${errorText(e)})`, { code: 'HANDLE_NOT_CLOSED', namespace, error: e }));
    }
    this.#writers.clear();
    if (this.#lockHeld) {
      this.#lockHeld = false;
      const lock = join(this.#opts.dir, 'lock');
      try {
        await unlink(lock);
      } catch (e) {
        if (errnoCode(e) !== 'ENOENT') failures.push(`the lock file ${lock} could not be removed (${String(e)}); delete it before another process writes the store`);
      }
    }
    // A lock left behind blocks the next writer: the caller must hear of it.
    if (failures.length > 0) throw new JevMemError('STORAGE_FAILED', `the store at ${this.#opts.dir} was closed, but ${failures.join('; ')}`, { field: 'store' });
  }

  // ── internals ──

  #live(): void {
    if (this.#closed) throw new JevMemError('CLOSED', `the file storage adapter at ${this.#opts.dir} was used after close()`);
  }

  #serial<T>(namespace: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(namespace) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.#queues.set(namespace, tail);
    void tail.then(() => {
      if (this.#queues.get(namespace) === tail) this.#queues.delete(namespace);
    });
    return next;
  }

  #folderPath(namespace: string): string {
    return join(this.#nsRoot, namespaceFolder(namespace));
  }

  /** The namespace a folder holds, or `undefined` for a folder this adapter did not make. */
  async #folderName(folder: string): Promise<string | undefined> {
    let name: string | undefined;
    if (folder.startsWith('ns_')) {
      try {
        name = decodeURIComponent(folder.slice(3));
      } catch {
        return undefined;
      }
    } else if (folder.startsWith('nh_')) {
      name = (await readOptional(join(this.#nsRoot, folder, 'name')))?.toString('utf8');
    }
    return name !== undefined && name.length > 0 && namespaceFolder(name) === folder ? name : undefined;
  }

  async #holdsData(folder: string): Promise<boolean> {
    for (const file of ['snapshot.json', 'journal.jsonl']) {
      try {
        if ((await stat(join(folder, file))).size > 0) return true;
      } catch (e) {
        if (errnoCode(e) !== 'ENOENT') throw e;
      }
    }
    return false;
  }

  /**
   * Reads a namespace from disk: the journal first, then the snapshot (a compaction that happens
   * in between only makes the snapshot newer, and journal lines it covers are skipped).
   */
  async #readState(namespace: string): Promise<{ state: NamespaceState; seq: number }> {
    const folder = this.#folderPath(namespace);
    const journalPath = join(folder, 'journal.jsonl');
    const snapshotPath = join(folder, 'snapshot.json');
    const journalBytes = (await readOptional(journalPath)) ?? Buffer.alloc(0);
    const snapshotBytes = await readOptional(snapshotPath);
    const { state, seq: snapshotSeq } =
      snapshotBytes === undefined ? { state: emptyNamespaceState(), seq: 0 } : parseSnapshot(snapshotBytes, snapshotPath);
    const { entries } = parseJournal(journalBytes, journalPath);
    let seq = snapshotSeq;
    for (const entry of entries) {
      if (entry.seq <= snapshotSeq) continue; // already in the snapshot (crash before the journal was emptied)
      if (entry.seq !== seq + 1) {
        throw corrupt(journalPath, `batch ${entry.seq} follows ${seq}: batches are missing`);
      }
      applyBatch(state, entry.batch);
      seq = entry.seq;
    }
    return { state, seq };
  }

  /** The open writer of a namespace; the first call per namespace scans its journal once. */
  async #writer(namespace: string): Promise<Writer> {
    const existing = this.#writers.get(namespace);
    if (existing !== undefined) return existing;
    const folderName = namespaceFolder(namespace);
    const folder = join(this.#nsRoot, folderName);
    const journalPath = join(folder, 'journal.jsonl');
    let handle: FileHandle | undefined;
    try {
      let created = false;
      try {
        await stat(folder);
      } catch (e) {
        if (errnoCode(e) !== 'ENOENT') throw e;
        await mkdir(folder, { recursive: true });
        created = true;
      }
      if (created) {
        if (folderName.startsWith('nh_')) await writeFileAtomic(folder, 'name', namespace);
        await syncDir(this.#nsRoot);
      }
      const snapshot = await snapshotInfo(join(folder, 'snapshot.json'));
      const snapshotSeq = snapshot?.seq ?? 0;
      const journal = parseJournal((await readOptional(journalPath)) ?? Buffer.alloc(0), journalPath);
      const journalLast = journal.entries[journal.entries.length - 1]?.seq ?? 0;
      const first = journal.entries.find((e) => e.seq > snapshotSeq);
      if (first !== undefined && first.seq !== snapshotSeq + 1) {
        throw corrupt(journalPath, `batch ${first.seq} follows snapshot batch ${snapshotSeq}: batches are missing`);
      }
      handle = await open(journalPath, 'a');
      let validBytes = journal.validBytes;
      if (journal.entries.length > 0 && journalLast <= snapshotSeq) {
        validBytes = 0; // finish an interrupted compaction: every line is in the snapshot
      }
      if (validBytes !== (await handle.stat()).size) {
        await handle.truncate(validBytes); // cut off a torn last line before appending after it
        await handle.datasync();
      }
      if (created) await syncDir(folder);
      const writer: Writer = {
        handle,
        validBytes,
        lastSeq: Math.max(snapshotSeq, journalLast),
        journalBatches: journal.entries.filter((e) => e.seq > snapshotSeq).length,
        snapshotBytes: snapshot?.bytes ?? 0,
        compactDeferredUntil: 0,
      };
      this.#writers.set(namespace, writer);
      return writer;
    } catch (cause) {
      await handle?.close().catch(() => undefined);
      throw fsError(`open namespace ${JSON.stringify(namespace)} for writing`, cause);
    }
  }

  /** After a failed append: cut the journal back to its last valid line, or drop the writer. */
  async #undoAppend(namespace: string, w: Writer): Promise<void> {
    try {
      await w.handle.truncate(w.validBytes);
      await w.handle.datasync();
    } catch {
      // Could not cut it back: forget the writer; the next commit rescans and cuts the torn tail.
      this.#writers.delete(namespace);
      await w.handle.close().catch(() => undefined);
    }
  }

  #shouldCompact(w: Writer): boolean {
    const o = this.#opts;
    if (w.journalBatches < w.compactDeferredUntil) return false;
    return (
      w.journalBatches > o.compactAfterBatches ||
      (w.validBytes > o.compactMinBytes && w.validBytes > o.compactSizeFactor * w.snapshotBytes)
    );
  }

  async #compact(namespace: string, w: Writer): Promise<void> {
    const folder = this.#folderPath(namespace);
    const { state, seq } = await this.#readState(namespace);
    if (seq !== w.lastSeq) throw corrupt(join(folder, 'journal.jsonl'), `replay ends at batch ${seq}, expected ${w.lastSeq}`);
    const body = JSON.stringify(toSnapshot(state));
    const header: SnapshotHeader = { format: SNAPSHOT_FORMAT, version: FILE_STORE_VERSION, seq, hash: sha256(body).slice(0, 32) };
    const bytes = await writeFileAtomic(folder, 'snapshot.json', `${JSON.stringify(header)}\n${body}\n`);
    // Only now is it safe to empty the journal: every line in it has seq ≤ the snapshot's.
    await w.handle.truncate(0);
    await w.handle.datasync();
    w.validBytes = 0;
    w.journalBatches = 0;
    w.snapshotBytes = bytes;
    w.compactDeferredUntil = 0;
  }

  /** Takes the store's writer lock once (lazily, on the first write). */
  #acquireLock(): Promise<void> {
    this.#lock ??= this.#takeLock().catch((e: unknown) => {
      this.#lock = undefined;
      throw e;
    });
    return this.#lock;
  }

  async #takeLock(): Promise<void> {
    await takeStoreLock(this.#opts.dir, join(this.#opts.dir, 'lock'));
    this.#lockHeld = true;
    // Left-overs of dropped namespaces (already out of the store): a failure only costs disk space.
    await rm(join(this.#opts.dir, 'trash'), { recursive: true, force: true }).catch((e: unknown) =>
      this.#opts.logger('warn', `the trash folder ${join(this.#opts.dir, 'trash')} could not be emptied (${errorText(e)}); it holds only dropped namespaces and may be deleted by hand`, { code: 'TRASH_NOT_EMPTIED', error: e }),
    );
  }
}

/**
 * LEGACY (v1 format; use `createSqliteFileStorage` for new stores, which imports this format).
 * Opens (or creates) a store directory and returns a storage adapter (`kind: 'file'`). Node only.
 *
 * - `commit` appends one journal line and `fdatasync`s it: O(batch size). Every
 *   `compactAfterBatches` batches, or when the journal outgrows `compactSizeFactor` × the
 *   snapshot, the namespace is compacted (amortised O(batch size)). The first write to a
 *   namespace in a process reads its journal once.
 * - `load` replays `snapshot.json` + `journal.jsonl`; nodes come back by `seq`, edges by id.
 * - One process writes a store at a time: the first write takes `<dir>/lock` (released by
 *   `close()`; a lock left by a dead process on this host is taken over). Readers need no lock.
 * - `namespaces` lists the namespaces with a non-empty journal or a snapshot; `dropNamespace`
 *   removes that namespace's folder only; `sizeBytes` sums the sizes of its files.
 *
 * @throws JevMemError `STORE_MISSING` (field `store`; `details.dir` and `details.reason` say which
 *   folder and what is missing, for surfaces that give their own advice) when `create` is false
 *   and the directory or its `format.json` is missing; `SCHEMA_MISMATCH` when `format.json` has another layout version;
 *   `INVALID_OPTION` (field `dir`) when `dir` is a file or a non-empty directory that is not a
 *   store, or (field named) on a bad compaction option; `STORAGE_FAILED` / `QUOTA_EXCEEDED` on
 *   file-system errors. Methods throw `INVALID_INPUT` on a bad namespace or batch,
 *   `QUOTA_EXCEEDED` on ENOSPC / EDQUOT (nothing written), `STORAGE_FAILED` on damaged files, other
 *   I/O errors or a store locked by another process, and `CLOSED` after `close()`.
 */
export async function createFileStorage(options: FileStorageOptions): Promise<StorageAdapter> {
  if (typeof options?.dir !== 'string' || options.dir.length === 0) {
    throw new JevMemError('INVALID_OPTION', `option dir: expected a directory path, got ${JSON.stringify(options?.dir)}`, {
      field: 'dir',
    });
  }
  const resolved: ResolvedOptions = {
    dir: resolve(options.dir),
    create: options.create ?? true,
    compactAfterBatches: positiveNumber('compactAfterBatches', options.compactAfterBatches, 2000),
    compactSizeFactor: positiveNumber('compactSizeFactor', options.compactSizeFactor, 4),
    compactMinBytes: positiveNumber('compactMinBytes', options.compactMinBytes, 1024 * 1024),
    logger: options.logger ?? consoleLogger,
  };
  if (typeof resolved.logger !== 'function') {
    throw new JevMemError('INVALID_OPTION', `option logger: expected a function (level, message, entry), got ${typeof options.logger}`, { field: 'logger' });
  }
  await openStoreDir(resolved);
  return new FileStorage(resolved);
}
