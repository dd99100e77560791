/**
 * `jev-mem export --skip-damaged` on a store SQLite cannot read through (issue 22, hostile
 * review: 64 KiB of zeros mid-file made the export of a namespace fail `STORE_DAMAGED` although
 * most of its records were readable). The record table is then read page by page, as
 * `jev-mem repair` does (plane/store/sql-page-salvage.ts), into a temporary copy inside the store
 * directory (removed after), and the namespace is exported from that copy: what it can read is
 * exported, and what it left out is named on stderr (the damaged records by id, the memories the
 * store counted but no page gave back, the pages of the record table that could not be read).
 * The damaged file is only read, under the store's writer lock, and never changed.
 *
 * @module
 */
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Memory } from '../memory.js';
import type { MemoryExport } from '../plane/store/export.js';
import { storeFromPages } from '../plane/store/sql-page-salvage.js';
import { releaseStoreLock, takeStoreLock } from '../plane/store/store-lock.js';
import { quoteVisible } from '../util/invisible.js';
import type { CliIO } from './io.js';

/** The temporary copy of the readable rows, inside the store directory (same owner and permissions). */
export const EXPORT_PAGES_DIR = '.export-pages';

/**
 * Exports namespace `ns` of the damaged store at `store` from a page-by-page read of its record
 * table, saying on stderr what was read that way and what was left out.
 * @param open - Opens a memory over a store directory (the CLI's options otherwise).
 * @param cause - The error the export through SQLite failed with (rethrown when the pages give nothing back).
 * @returns the export, or throws `cause` when the file cannot be read page by page or the copy does
 *   not hold `ns`.
 */
export async function exportFromPages(store: string, ns: string, io: CliIO, open: (dir: string) => Promise<Memory>, cause: unknown): Promise<MemoryExport> {
  const root = resolve(store);
  const dir = join(root, EXPORT_PAGES_DIR);
  const lockPath = join(root, 'lock');
  let memory: Memory | undefined;
  try {
    // Nobody writes the damaged file while its pages are read.
    await takeStoreLock(root, lockPath);
    let read;
    try {
      read = await storeFromPages(root, dir, () => undefined);
    } finally {
      await releaseStoreLock(root, lockPath).catch(() => undefined);
    }
    if (read === undefined) throw cause;
    const held = await read.store.namespaces().catch(() => [] as string[]);
    const counted = held.includes(ns) ? await read.store.damaged(ns).catch(() => ({ ids: [] as string[], unreadable: undefined })) : undefined;
    await read.store.close();
    if (counted === undefined) throw cause;
    memory = await open(dir);
    const exported = await memory.export({ namespace: ns });
    const why = cause instanceof Error ? cause.message.replace(/; nothing was written.*$/s, '') : String(cause);
    const left = [
      exported.damaged !== undefined && exported.damaged.length > 0 ? `${exported.damaged.length} damaged node record(s) (${exported.damaged.join(', ')})` : '',
      (counted.unreadable ?? 0) > 0 ? `${counted.unreadable} memory record(s) the store counted but no readable page holds (their ids are not known)` : '',
      exported.edgesLeftOut ? `${exported.edgesLeftOut} edge(s) joining a memory left out` : '',
      read.read.pagesMissing > 0 || read.read.rowsLost > 0 ? `whatever else lay on the ${read.read.pagesMissing} unreadable page(s) of the record table${read.read.rowsLost > 0 ? ` and in ${read.read.rowsLost} broken row(s)` : ''}` : '',
    ].filter((x) => x !== '');
    io.err(
      `jev-mem: SQLite could not read namespace ${quoteVisible(ns)} through the damaged file (${why}); it was read page by page instead, as jev-mem repair reads it: ` +
        `${exported.nodes.length} memories and ${exported.edges.length} edges exported; left out: ${left.length > 0 ? left.join('; ') : 'nothing found missing'}. ` +
        `The store was not changed; run jev-mem repair to fix it`,
    );
    return exported;
  } finally {
    await memory?.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}
