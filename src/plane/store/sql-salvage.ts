/**
 * Salvage of a damaged SQLite store (issue 22, `jev-mem repair`): every record the damaged file
 * still gives back is copied into a fresh database, the damaged file is kept beside it as a
 * backup, and the fresh one takes its place. The derived data (the FTS5 index, the memory's
 * checkpoint) is not copied: the fresh store builds its FTS5 index at its first commit, and the
 * memory rebuilds its resident state and checkpoint from the rows at its next open.
 *
 * What is lost: the node records that fail their checksum or lie on pages SQLite cannot read
 * (named in the report) with their edges (counted as `edgesDropped`), and the edges after a
 * damaged edge page (`edgesLost`). The
 * change log is not copied (the fresh store has no checkpoint to replay it onto).
 *
 * The damaged file is the backup of the copy only: `jev-mem repair` removes it
 * ({@link removeSalvageBackup}) once the repaired store checks clean, since it would keep for good
 * the text of every memory erased after the repair (issue 22: erasure is exact).
 *
 * Node only.
 *
 * @module
 */
import { open, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isJevMemError } from '../../errors.js';
import type { Logger } from '../../util/logger.js';
import type { MemoryEdge } from '../../types.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from './sqlite-file-storage.js';
import type { StorageAdapter } from './storage.js';
import { releaseStoreLock, takeStoreLock } from './store-lock.js';

/** Records per commit of the copy. */
export const SALVAGE_BATCH = 500;

/** What the salvage kept and lost of one namespace. */
export interface SalvagedNamespace {
  namespace: string;
  /** Node records copied. */
  nodes: number;
  /** Edge records copied. */
  edges: number;
  /** Edges left out because an end of theirs is a node that was not copied (a damaged one). */
  edgesDropped: number;
  /** Ids of the node records left behind (damaged), sorted. */
  damaged: string[];
  /** True when an edge page could not be read: the edges after it were not copied. */
  edgesLost: boolean;
  /**
   * The damaged records other than node records (`DamageReport.records`: `adj:<id>`, `meta:<key>`,
   * `spaces:` …), left behind and rebuilt in the copy: an adjacency from the edges its other ends
   * keep, the counters by counting, a lost meta key not at all (a lost `schemaVersion` is version 1).
   * Absent when none.
   */
  records?: string[];
}

/** The result of {@link salvageSqliteStore}. */
export interface SalvageReport {
  /** The store directory. */
  dir: string;
  /** Path of the damaged database, kept as it was. */
  backup: string;
  namespaces: SalvagedNamespace[];
}

/** What a salvage leaves out on purpose: an erasure built as a copy (issue 22). */
export interface SalvageOmit {
  /** The namespace erased whole, or the one whose nodes `ids` are erased. */
  namespace: string;
  /** The node ids erased (their edges go with them); absent: the whole namespace. */
  ids?: readonly string[];
}

/**
 * Copies every readable record of the store at `dir` into a fresh database and puts it in place
 * of the damaged one, which is kept as `jev-mem.sqlite.damaged-<ISO time>` in the same directory.
 * Takes the store's writer lock for the whole copy (another process writing fails, as any write
 * does while a writer holds it).
 *
 * @param now - the time in the backup's name. @default new Date()
 * @param omit - records not copied (an erasure SQLite refused to run on the damaged file): the
 *   namespace, or its nodes `omit.ids` with their edges; they are in no report.
 * @throws JevMemError `STORE_MISSING` (no store at `dir`), `STORAGE_FAILED` / `STORE_DAMAGED` when
 *   the damaged file cannot be read at all (its list of namespaces or ids is on a damaged page);
 *   the damaged store is then left untouched.
 */
export async function salvageSqliteStore(dir: string, logger?: Logger, now: Date = new Date(), omit?: SalvageOmit): Promise<SalvageReport> {
  const root = resolve(dir);
  const temp = join(root, '.repair');
  await rm(temp, { recursive: true, force: true });
  const quiet: Logger = logger ?? (() => undefined);
  const lockPath = join(root, 'lock');
  // The store's writer lock for the whole copy and swap: nobody writes the damaged file meanwhile
  // (the adapter below only reads, so it never takes the lock itself).
  const from = await createSqliteFileStorage({ dir: root, create: false, logger: quiet });
  try {
    await takeStoreLock(root, lockPath);
  } catch (e) {
    await from.close().catch(() => undefined);
    throw e;
  }
  let into: StorageAdapter | undefined;
  const namespaces: SalvagedNamespace[] = [];
  try {
    into = await createSqliteFileStorage({ dir: temp, create: true, logger: quiet });
    for (const namespace of await from.namespaces()) {
      if (omit?.namespace === namespace && omit.ids === undefined) continue;
      const erased = new Set(omit?.namespace === namespace ? omit.ids : []);
      const out: SalvagedNamespace = { namespace, nodes: 0, edges: 0, edgesDropped: 0, damaged: [], edgesLost: false };
      // The full pass first: the edges a damaged adjacency record held are then read from their other ends.
      await from.damaged(namespace);
      const copied = new Set<string>();
      for await (const all of from.scanNodes(namespace, SALVAGE_BATCH)) {
        const nodes = erased.size === 0 ? all : all.filter((n) => !erased.has(n.id));
        if (nodes.length === 0) continue;
        await into.commit(namespace, { putNodes: nodes });
        for (const n of nodes) copied.add(n.id);
        out.nodes += nodes.length;
      }
      try {
        for await (const edges of from.scanEdges(namespace, SALVAGE_BATCH)) {
          // An edge of a node left behind would point at nothing: counts and exports would disagree.
          const pending: MemoryEdge[] = edges.filter((e) => copied.has(e.from) && copied.has(e.to));
          out.edgesDropped += edges.length - pending.length;
          if (pending.length > 0) await into.commit(namespace, { putEdges: pending });
          out.edges += pending.length;
        }
      } catch (e) {
        if (!isJevMemError(e, 'STORE_DAMAGED')) throw e;
        out.edgesLost = true;
      }
      await into.commit(namespace, { meta: await from.loadMeta(namespace) });
      const damage = await from.damaged(namespace);
      out.damaged = damage.ids.filter((id) => !erased.has(id));
      if (damage.records !== undefined && damage.records.length > 0) out.records = damage.records;
      namespaces.push(out);
    }
    await into.close();
    into = undefined;
  } catch (e) {
    await into?.close().catch(() => undefined);
    await from.close().catch(() => undefined);
    await releaseStoreLock(root, lockPath).catch(() => undefined);
    await rm(temp, { recursive: true, force: true });
    throw e;
  }
  const backup = join(root, `${SQLITE_FILE_NAME}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`);
  // Swap while the damaged store's lock is still held, then release it.
  await rename(join(root, SQLITE_FILE_NAME), backup);
  await rename(join(temp, SQLITE_FILE_NAME), join(root, SQLITE_FILE_NAME));
  await from.close();
  await releaseStoreLock(root, lockPath);
  await rm(temp, { recursive: true, force: true });
  return { dir: root, backup, namespaces };
}

/** Bytes overwritten per write by {@link removeSalvageBackup}. */
const WIPE_CHUNK = 1 << 20;

/**
 * Removes the damaged file a salvage kept ({@link SalvageReport.backup}): its bytes are first
 * overwritten with zeros and synced (so that, on a file system that rewrites in place, its blocks
 * no longer hold the records once freed; a copy-on-write or wear-levelled disk may still keep old
 * blocks, which no file reaches), then it is unlinked. A missing file is not an error.
 * @throws the file system's error (the file may then still exist).
 */
export async function removeSalvageBackup(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r+');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    const { size } = await handle.stat();
    const zeros = Buffer.alloc(Math.min(WIPE_CHUNK, Math.max(1, size)));
    for (let at = 0; at < size; at += zeros.length) await handle.write(zeros, 0, Math.min(zeros.length, size - at), at);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rm(path, { force: true });
}
