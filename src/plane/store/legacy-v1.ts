/**
 * LEGACY (v1): a READ-ONLY reader of the store format of jev-mem before issue 13, used only to
 * import an old store into the current one (`createSqliteFileStorage` imports one at its first
 * open with {@link importLegacyV1Store}, then removes the v1 files: issue 22, the v1 journal
 * keeps a deleted memory's text until compaction, so no copy of it is left behind). This build
 * never writes the format.
 *
 * Layout under `dir`:
 * ```
 * format.json                      {"format":"jev-mem/file-store","version":1}
 * lock                             held by the one process that wrote (pid, host)
 * ns/<folder>/journal.jsonl        one line per committed batch: "<seq>\t<sha256/16>\t<batch JSON>\n"
 * ns/<folder>/snapshot.json        "<header JSON>\n<state JSON>\n" (header: seq, sha256 of the state)
 * ns/<folder>/name                 the namespace's name, for folders named by hash (long names)
 * trash/                           dropped namespaces on their way out
 * ```
 * `<folder>` is `ns_` + the namespace's UTF-8 bytes with every byte outside `[a-z0-9_-]` written
 * as `%XX`, or `nh_` + a SHA-256 prefix when that would be longer than {@link MAX_FOLDER_CHARS}.
 * A namespace loads as its snapshot plus the journal lines after it; a torn or corrupt LAST line
 * (a crash during an append) is ignored, damage anywhere else is an error.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { JevMemError } from '../../errors.js';
import { type NamespaceState, applyBatch, emptyNamespaceState, toSnapshot } from './memory-storage.js';
import { checkExistingNamespaceName } from './names.js';
import type { NamespaceSnapshot, StorageAdapter, WriteBatch } from './storage.js';

/** Format tag written in `format.json`. */
export const FILE_STORE_FORMAT = 'jev-mem/file-store' as const;

/** Layout version of the v1 store; a store with another version → `SCHEMA_MISMATCH`. */
export const FILE_STORE_VERSION = 1;

/** Format tag of a snapshot header. */
export const SNAPSHOT_FORMAT = 'jev-mem/snapshot' as const;

/** Longest readable folder name before falling back to a hashed name. */
export const MAX_FOLDER_CHARS = 160;

/** The entries of a store directory that belong to the v1 format (removed after an import). */
export const V1_ENTRIES: readonly string[] = ['format.json', 'ns', 'trash'];

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

/** Checks `format.json` of a v1 store (read only). */
async function checkFormat(dir: string): Promise<void> {
  const formatPath = join(dir, 'format.json');
  let text: Buffer | undefined;
  try {
    text = await readOptional(formatPath);
  } catch (cause) {
    throw fsError(`read ${formatPath}`, cause);
  }
  if (text === undefined) {
    throw new JevMemError('STORE_MISSING', `no v1 jev-mem store at ${dir} (format.json is missing)`, { field: 'store', dir, reason: 'format.json is missing' });
  }
  let format: { format?: unknown; version?: unknown };
  try {
    format = JSON.parse(text.toString('utf8')) as { format?: unknown; version?: unknown };
  } catch {
    throw corrupt(formatPath, 'not JSON');
  }
  if (format.format !== FILE_STORE_FORMAT) throw corrupt(formatPath, `format is ${JSON.stringify(format.format)}, expected ${FILE_STORE_FORMAT}`);
  if (format.version !== FILE_STORE_VERSION) {
    throw new JevMemError('SCHEMA_MISMATCH', `the v1 store at ${dir} has layout version ${String(format.version)}; this build imports version ${FILE_STORE_VERSION}`, {
      field: 'store',
      found: format.version,
      expected: FILE_STORE_VERSION,
    });
  }
}

/** A v1 store opened for reading: its namespaces, each loaded whole. */
export interface LegacyV1Store {
  /** Names of the namespaces with a non-empty journal or a snapshot, sorted. @throws JevMemError `STORAGE_FAILED`. */
  namespaces(): Promise<string[]>;
  /** One namespace whole (nodes by seq, edges by id, meta keys sorted). @throws JevMemError `STORAGE_FAILED`, `SCHEMA_MISMATCH`. */
  load(namespace: string): Promise<NamespaceSnapshot>;
}

/**
 * Opens the v1 store in `dir` for reading (nothing is written, no lock is taken: the caller holds
 * the store's writer lock while it imports).
 * @throws JevMemError `STORE_MISSING` (field `store`) when `format.json` is missing,
 *   `SCHEMA_MISMATCH` for another layout version, `STORAGE_FAILED` for a damaged `format.json`.
 */
export async function openLegacyV1Store(dir: string): Promise<LegacyV1Store> {
  const root = resolve(dir);
  await checkFormat(root);
  const nsRoot = join(root, 'ns');
  const folderName = async (folder: string): Promise<string | undefined> => {
    let name: string | undefined;
    if (folder.startsWith('ns_')) {
      try {
        name = decodeURIComponent(folder.slice(3));
      } catch {
        return undefined;
      }
    } else if (folder.startsWith('nh_')) {
      name = (await readOptional(join(nsRoot, folder, 'name')))?.toString('utf8');
    }
    return name !== undefined && name.length > 0 && namespaceFolder(name) === folder ? name : undefined;
  };
  const holdsData = async (folder: string): Promise<boolean> => {
    for (const file of ['snapshot.json', 'journal.jsonl']) {
      try {
        if ((await stat(join(folder, file))).size > 0) return true;
      } catch (e) {
        if (errnoCode(e) !== 'ENOENT') throw e;
      }
    }
    return false;
  };
  return {
    async namespaces() {
      let folders: string[];
      try {
        folders = await readdir(nsRoot);
      } catch (e) {
        if (errnoCode(e) === 'ENOENT') return [];
        throw fsError('list namespaces', e);
      }
      const names: string[] = [];
      for (const folder of folders) {
        try {
          const name = await folderName(folder);
          if (name !== undefined && (await holdsData(join(nsRoot, folder)))) names.push(name);
        } catch (cause) {
          throw fsError(`read namespace folder ${folder}`, cause);
        }
      }
      return names.sort();
    },
    async load(namespace) {
      checkExistingNamespaceName(namespace);
      try {
        return toSnapshot(await readState(join(nsRoot, namespaceFolder(namespace))));
      } catch (cause) {
        throw fsError(`load namespace ${JSON.stringify(namespace)}`, cause);
      }
    },
  };
}

/** Reads a namespace folder: the snapshot, then the journal lines after it. */
async function readState(folder: string): Promise<NamespaceState> {
  const journalPath = join(folder, 'journal.jsonl');
  const snapshotPath = join(folder, 'snapshot.json');
  const journalBytes = (await readOptional(journalPath)) ?? Buffer.alloc(0);
  const snapshotBytes = await readOptional(snapshotPath);
  const { state, seq: snapshotSeq } = snapshotBytes === undefined ? { state: emptyNamespaceState(), seq: 0 } : parseSnapshot(snapshotBytes, snapshotPath);
  const { entries } = parseJournal(journalBytes, journalPath);
  let seq = snapshotSeq;
  for (const entry of entries) {
    if (entry.seq <= snapshotSeq) continue; // already in the snapshot (crash before the journal was emptied)
    if (entry.seq !== seq + 1) throw corrupt(journalPath, `batch ${entry.seq} follows ${seq}: batches are missing`);
    applyBatch(state, entry.batch);
    seq = entry.seq;
  }
  return state;
}

/** What {@link importLegacyV1Store} copied. */
export interface LegacyV1ImportCounts {
  namespaces: number;
  nodes: number;
  edges: number;
}

/**
 * Copies every namespace of the v1 store in `dir` into `into` (nodes, then edges, in commits of
 * `chunk` records, then the meta), and returns the counts. It neither changes nor removes the v1
 * files: {@link removeLegacyV1Files} does, once the import is durable.
 * @throws JevMemError as {@link openLegacyV1Store} and `into.commit`.
 */
export async function importLegacyV1Store(dir: string, into: StorageAdapter, chunk = 1000): Promise<LegacyV1ImportCounts> {
  const legacy = await openLegacyV1Store(dir);
  const counts: LegacyV1ImportCounts = { namespaces: 0, nodes: 0, edges: 0 };
  for (const namespace of await legacy.namespaces()) {
    const snap = await legacy.load(namespace);
    for (let i = 0; i < snap.nodes.length; i += chunk) await into.commit(namespace, { putNodes: snap.nodes.slice(i, i + chunk) });
    for (let i = 0; i < snap.edges.length; i += chunk) await into.commit(namespace, { putEdges: snap.edges.slice(i, i + chunk) });
    await into.commit(namespace, { meta: snap.meta });
    counts.namespaces++;
    counts.nodes += snap.nodes.length;
    counts.edges += snap.edges.length;
  }
  return counts;
}

/**
 * Removes the v1 files of a store directory ({@link V1_ENTRIES}: `format.json` last, so a crash
 * part-way leaves a directory that is still recognised as v1 and cleaned at the next open).
 * @throws JevMemError `STORAGE_FAILED` when a file cannot be removed.
 */
export async function removeLegacyV1Files(dir: string): Promise<void> {
  for (const name of [...V1_ENTRIES].reverse()) {
    try {
      await rm(join(dir, name), { recursive: true, force: true });
    } catch (cause) {
      throw fsError(`remove the v1 store file ${join(dir, name)}`, cause);
    }
  }
}

// ───────────────────────────── parsing ─────────────────────────────

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
