/**
 * Salvage of a damaged SQLite store (issue 22, `jev-mem repair`): every record the damaged file
 * still gives back is copied into a fresh database, the damaged file is kept beside it as a
 * backup, and the fresh one takes its place. The derived data (the FTS5 index, the memory's
 * checkpoint) is not copied: the fresh store builds its FTS5 index at its first commit, and the
 * memory rebuilds its resident state and checkpoint from the rows at its next open.
 *
 * What is lost: the node records that fail their checksum or lie on pages SQLite cannot read
 * (named in the report) with their edges (counted as `edgesDropped`), and the edges after a
 * damaged edge page or that no read reaches (`edgesLost`, `edgesUnread` against the store's kept
 * edge counter). Every edge a read of the damaged store answers (`load`, `getEdges`, so
 * `export --skip-damaged`) is copied: a damaged adjacency record's edges are read from their
 * other ends. The
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
import { chmod, open, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { JevMemError, isJevMemError } from '../../errors.js';
import { shellQuote } from '../../util/shell-quote.js';
import type { Logger } from '../../util/logger.js';
import type { MemoryEdge } from '../../types.js';
import { type PagesRead, storeFromPages } from './sql-page-salvage.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from './sqlite-file-storage.js';
import { PENDING_ERASURES_FILE } from './sqlite-erasures.js';
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
  /**
   * True when any edge of the damaged store was not copied other than those in `edgesDropped`:
   * an edge page could not be read (the edges after it were not copied), or the store's kept edge
   * counter holds more edges than every read reached (`edgesUnread`).
   */
  edgesLost: boolean;
  /**
   * Edges the damaged store's kept counter holds that no read reached (a self-loop kept only on a
   * damaged adjacency record, an edge between two nodes lost with their pages); absent when none.
   */
  edgesUnread?: number;
  /**
   * Ids of memories that surviving edges name but whose records were not found at all (on pages
   * lost from the file: a truncated file read page by page), sorted; absent when none.
   */
  missing?: string[];
  /**
   * Node records the namespace's kept counter holds that were not found at all (lost pages),
   * when the counter itself was read; absent when none.
   */
  unreadable?: number;
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
  /**
   * Present when SQLite could not open the damaged file or list its namespaces (a truncated
   * file): its record table was then read page by page (`sql-page-salvage.ts`), and this says
   * how many pages it had and how many of the table's pages and rows were lost.
   */
  pages?: PagesRead;
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
 *   `STORE_DAMAGED` with `details.run` when `omit` is given and the copy would lose records it
 *   cannot name (lost pages, counted records unread: the erasure waits for a repair). The
 *   damaged store is then left untouched.
 */
export async function salvageSqliteStore(dir: string, logger?: Logger, now: Date = new Date(), omit?: SalvageOmit): Promise<SalvageReport> {
  const root = resolve(dir);
  const temp = join(root, '.repair');
  await rm(temp, { recursive: true, force: true });
  const quiet: Logger = logger ?? (() => undefined);
  const lockPath = join(root, 'lock');
  const pagesDir = join(root, '.repair-pages');
  // The store's writer lock for the whole copy and swap: nobody writes the damaged file meanwhile
  // (the adapter below only reads, so it never takes the lock itself).
  let from: StorageAdapter;
  let listed: string[] | undefined;
  let pages: PagesRead | undefined;
  try {
    from = await createSqliteFileStorage({ dir: root, create: false, logger: quiet });
  } catch (e) {
    if (!unreadable(e)) throw e;
    await takeStoreLock(root, lockPath);
    const read = await storeFromPages(root, pagesDir, quiet).catch(async (cause: unknown) => {
      await releaseStoreLock(root, lockPath).catch(() => undefined);
      throw cause;
    });
    if (read === undefined) {
      await releaseStoreLock(root, lockPath).catch(() => undefined);
      throw e;
    }
    ({ store: from, read: pages } = read);
  }
  if (pages === undefined) {
    try {
      await takeStoreLock(root, lockPath);
    } catch (e) {
      await from.close().catch(() => undefined);
      throw e;
    }
    // A file SQLite opens but cannot list: read page by page as well.
    listed = await from.namespaces().catch(async (e: unknown) => {
      if (!unreadable(e)) return undefined;
      const read = await storeFromPages(root, pagesDir, quiet);
      if (read === undefined) return undefined;
      await from.close().catch(() => undefined);
      ({ store: from, read: pages } = read);
      return undefined;
    });
  }
  let into: StorageAdapter | undefined;
  const namespaces: SalvagedNamespace[] = [];
  // Copied once through SQLite; when SQLite opened and listed the file but a page inside the
  // record table is unreadable (a run of zeroed pages mid-file: h-break7 finding 1, where the
  // whole repair then salvaged nothing), copied again from the page-by-page read.
  for (;;) {
  try {
    into = await createSqliteFileStorage({ dir: temp, create: true, logger: quiet });
    namespaces.length = 0;
    for (const namespace of listed ?? (await from.namespaces())) {
      if (omit?.namespace === namespace && omit.ids === undefined) continue;
      const erased = new Set(omit?.namespace === namespace ? omit.ids : []);
      const out: SalvagedNamespace = { namespace, nodes: 0, edges: 0, edgesDropped: 0, damaged: [], edgesLost: false };
      // The full pass first: the edges a damaged adjacency record held are then read from their other ends.
      await from.damaged(namespace);
      const copied = new Set<string>();
      const ends = new Set<string>();
      for await (const all of from.scanNodes(namespace, SALVAGE_BATCH)) {
        const nodes = erased.size === 0 ? all : all.filter((n) => !erased.has(n.id));
        if (nodes.length === 0) continue;
        await into.commit(namespace, { putNodes: nodes });
        for (const n of nodes) copied.add(n.id);
        out.nodes += nodes.length;
      }
      try {
        for await (const edges of pages === undefined ? from.scanEdges(namespace, SALVAGE_BATCH) : edgesFromEitherEnd(from, namespace, copied)) {
          // An edge of a node left behind would point at nothing: counts and exports would disagree.
          const pending: MemoryEdge[] = edges.filter((e) => copied.has(e.from) && copied.has(e.to));
          for (const e of edges) for (const end of [e.from, e.to]) if (!copied.has(end)) ends.add(end);
          out.edgesDropped += edges.length - pending.length;
          if (pending.length > 0) await into.commit(namespace, { putEdges: pending });
          out.edges += pending.length;
        }
      } catch (e) {
        if (!isJevMemError(e, 'STORE_DAMAGED')) throw e;
        out.edgesLost = true;
      }
      // Every edge read was copied or counted as dropped; what the kept counter holds beyond
      // that, no read reached: lost too, and said so.
      const unread = (await countedEdges(from, namespace)) - out.edges - out.edgesDropped;
      if (unread > 0) {
        out.edgesUnread = unread;
        out.edgesLost = true;
      }
      await into.commit(namespace, { meta: await from.loadMeta(namespace) });
      const damage = await from.damaged(namespace);
      out.damaged = damage.ids.filter((id) => !erased.has(id));
      if (damage.records !== undefined && damage.records.length > 0) out.records = damage.records;
      const missing = [...ends].filter((id) => !erased.has(id) && !damage.ids.includes(id)).sort();
      if (missing.length > 0) out.missing = missing;
      if (damage.unreadable !== undefined && damage.unreadable > 0) out.unreadable = damage.unreadable;
      namespaces.push(out);
    }
    await into.close();
    into = undefined;
    break;
  } catch (e) {
    await into?.close().catch(() => undefined);
    into = undefined;
    await rm(temp, { recursive: true, force: true });
    if (pages === undefined && unreadable(e)) {
      const read = await storeFromPages(root, pagesDir, quiet).catch(() => undefined);
      if (read !== undefined) {
        await from.close().catch(() => undefined);
        ({ store: from, read: pages } = read);
        listed = undefined;
        continue;
      }
    }
    await from.close().catch(() => undefined);
    await releaseStoreLock(root, lockPath).catch(() => undefined);
    await removePagesCopy(pagesDir);
    throw e;
  }
  }
  const refusal = omit === undefined ? undefined : erasureOverLostPages(root, omit, pages, namespaces);
  if (refusal !== undefined) {
    await from.close().catch(() => undefined);
    await releaseStoreLock(root, lockPath).catch(() => undefined);
    await rm(temp, { recursive: true, force: true });
    await removePagesCopy(pagesDir);
    throw refusal;
  }
  const backup = join(root, `${SQLITE_FILE_NAME}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`);
  // The fresh file keeps the damaged one's permissions (a store made 0600 stays private).
  await chmod(join(temp, SQLITE_FILE_NAME), (await stat(join(root, SQLITE_FILE_NAME))).mode & 0o777);
  // Swap while the damaged store's lock is still held, then release it.
  await rename(join(root, SQLITE_FILE_NAME), backup);
  await rename(join(temp, SQLITE_FILE_NAME), join(root, SQLITE_FILE_NAME));
  // The fresh file was only written into, so no page of it holds an erased record: no erasure is
  // pending in it (the damaged file's are the backup's, removed or kept by the caller).
  await rm(join(root, PENDING_ERASURES_FILE), { force: true });
  await from.close();
  await releaseStoreLock(root, lockPath);
  await rm(temp, { recursive: true, force: true });
  await removePagesCopy(pagesDir);
  return { dir: root, backup, namespaces, ...(pages !== undefined ? { pages } : {}) };
}

/**
 * The refusal of an erasure by copy (`omit`) that would lose records besides the erased ones
 * without being able to say which (h-break9 finding 5): pages of the file lost (read page by
 * page), or node records the store counts that no read reached. Nothing is then changed: the
 * user runs `jev-mem repair` first, which keeps the damaged file for what it could not read, and
 * then the erasure again. Undefined when the copy lost only records it names (`damaged`).
 */
function erasureOverLostPages(root: string, omit: SalvageOmit, pages: PagesRead | undefined, namespaces: SalvagedNamespace[]): JevMemError | undefined {
  const uncounted = namespaces.reduce((k, n) => k + (n.unreadable ?? 0) + (n.missing?.length ?? 0), 0);
  const lostPages = pages !== undefined && (pages.pagesMissing > 0 || pages.rowsLost > 0 || pages.header === false);
  if (!lostPages && uncounted === 0) return undefined;
  const what = omit.ids === undefined ? `namespace ${JSON.stringify(omit.namespace)}` : `${omit.ids.length} memory record(s) of namespace ${JSON.stringify(omit.namespace)}`;
  const lost = lostPages ? (pages!.header === false ? 'its first page (SQLite\'s header and schema) is lost' : `${pages!.pagesMissing} page(s) of its record table are lost and ${pages!.rowsLost} row(s) cut off`) : `${uncounted} memory record(s) it counts could not be read`;
  return new JevMemError(
    'STORE_DAMAGED',
    `the store at ${root} is too damaged to erase ${what} by a copy: ${lost}, so the copy would lose memories it cannot name. Nothing was changed or erased. Run jev-mem repair --store ${shellQuote(root)} first (it keeps the damaged file, since pages were lost), then the erasure again, and remove the kept file once checked`,
    { ids: omit.ids === undefined ? [] : [...omit.ids], run: [`jev-mem repair --store ${shellQuote(root)}`], stillStored: omit.ids === undefined ? { namespace: omit.namespace } : { namespace: omit.namespace, ids: [...omit.ids] } },
  );
}

/**
 * The edges touching the nodes `ids` of a store read page by page, in batches, each once: an
 * edge is read from the adjacency record of either end, since the record of one end may be on a
 * lost page (where it is absent, not damaged: `scanEdges` would read the edge from its start
 * only). Edges between two lost nodes are not reached.
 */
async function* edgesFromEitherEnd(from: StorageAdapter, namespace: string, ids: ReadonlySet<string>): AsyncGenerator<MemoryEdge[]> {
  const seen = new Set<string>();
  const all = [...ids];
  for (let i = 0; i < all.length; i += SALVAGE_BATCH) {
    const batch = (await from.getEdges(namespace, all.slice(i, i + SALVAGE_BATCH))).filter((e) => !seen.has(e.id));
    for (const e of batch) seen.add(e.id);
    if (batch.length > 0) yield batch;
  }
}

/** The edges the store's kept counter holds in `namespace` (0 when it cannot be read: nothing to compare with). */
async function countedEdges(from: StorageAdapter, namespace: string): Promise<number> {
  try {
    return (await from.counts(namespace)).edges;
  } catch (e) {
    if (unreadable(e)) return 0;
    throw e;
  }
}

/** Whether `e` says SQLite cannot read the store file (damaged, or failing as a damaged file does). */
function unreadable(e: unknown): boolean {
  return isJevMemError(e, 'STORE_DAMAGED') || isJevMemError(e, 'STORAGE_FAILED');
}

/** Removes the page-by-page copy of a damaged file (it holds the same text): zeroed, then unlinked. */
async function removePagesCopy(dir: string): Promise<void> {
  await removeSalvageBackup(join(dir, SQLITE_FILE_NAME));
  await rm(dir, { recursive: true, force: true });
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
