/**
 * The last resort of a salvage (issue 22, `jev-mem repair` on a truncated or partly overwritten
 * store file): when SQLite cannot open the damaged file or list its namespaces, its record table
 * (`jev_mem_rec`) is read page by page (`sqlite-pages.ts`), and every row whose pages are there
 * is written as it was into a fresh database in a temporary directory, which the salvage then
 * reads as it reads any damaged store: each record is checked against its seal and checksums
 * (a record cut short fails them, and is named), adjacency records are decoded, counts counted
 * again. Only the record table is read (the FTS5 index and the checkpoint are rebuilt from it).
 *
 * What is lost, and said: the pages past the end of the file (`pagesMissing`), the rows whose
 * overflow chain leaves the file (`rowsLost`); which memories those were is known only where a
 * surviving record names them (the ends of edges, `SalvagedNamespace.missing`) or counts them
 * (the kept node counter, `SalvagedNamespace.unreadable`).
 *
 * Node only.
 *
 * @module
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { JevMemError } from '../../errors.js';
import type { Logger } from '../../util/logger.js';
import { openNodeSqlDriver } from '../drivers/sqlite-node.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from './sqlite-file-storage.js';
import { type PageValue, readTablePages } from './sqlite-pages.js';
import { readPendingErasures } from './pending-erasures-file.js';
import { PENDING_ERASURES_FILE } from './sqlite-erasures.js';
import type { StorageAdapter } from './storage.js';

/** The record table of the Node store (`sql-record-store.ts`, default prefix). */
const RECORD_TABLE = 'jev_mem_rec';

/** What reading the damaged file page by page found (see the module). */
export interface PagesRead {
  /** Whole pages in the damaged file. */
  pages: number;
  /** Rows of the record table read (records and their chunks). */
  rows: number;
  /** Pages of the record table's tree that are past the end of the file or not tree pages. */
  pagesMissing: number;
  /** Rows that could not be read (their overflow chain leaves the file, or the cell is broken). */
  rowsLost: number;
  /**
   * False when the file's first page (SQLite's header and schema) was lost: the page size was
   * guessed and every leaf page of the record table's shape read; what was lost with the table's
   * tree cannot be counted (`pagesMissing` is 0 for want of it). Absent when the header was read.
   */
  header?: false;
}

/** A row of `jev_mem_rec (id INTEGER PRIMARY KEY, tbl, ns, k, chunk, v)` as read: `[rowid, NULL, tbl, ns, k, chunk, v]`. */
function isRecordRow(row: PageValue[]): boolean {
  return row.length === 7 && row[1] === null && typeof row[2] === 'number' && row[3] instanceof Uint8Array && (typeof row[4] === 'number' || row[4] instanceof Uint8Array) && typeof row[5] === 'number' && row[5] >= 0 && row[6] instanceof Uint8Array;
}

/**
 * How many rows of the record table of the store file in `root` a page-by-page read gives back
 * (0 when it is not a SQLite database of this layout or its first page is damaged): what
 * {@link storeFromPages} would salvage from.
 */
export function rowsReadableByPages(root: string): number {
  try {
    return readTablePages(join(root, SQLITE_FILE_NAME), RECORD_TABLE, isRecordRow, { headerless: true }).rows.length;
  } catch {
    return 0;
  }
}

/**
 * The refusal of a salvage of a file whose first page is lost while erasures are pending in it
 * (`<root>/erasures-pending` counts deletes and forgets the file was not yet rewritten after):
 * without the header neither the table's tree nor the free-list is known, so every leaf page of
 * the record table's shape is read, and one an erasure left behind would bring the erased
 * memories back. Undefined when nothing is pending (the last rewrite left no such page).
 */
export function headerlessRefusal(root: string): JevMemError | undefined {
  const pending = readPendingErasures(join(root, PENDING_ERASURES_FILE));
  if (pending === 0) return undefined;
  const file = join(root, SQLITE_FILE_NAME);
  return new JevMemError(
    'STORE_DAMAGED',
    `the first page of ${file} (SQLite's header and schema) is lost, and ${pending} erasure(s) are pending in it (memories deleted or forgotten since the file was last rewritten), so its records could only be read page by page without knowing which pages are still in use: ` +
      `that could bring back memories you erased, so jev-mem does not salvage it. Nothing was changed. Restore the store from your latest export (jev-mem import <file.json> --store <new dir>), then remove ${file}`,
    { field: 'store', ids: [], reason: 'erasures-pending', pending },
  );
}

/**
 * Reads the record table of the damaged store file in `root` page by page and writes the rows
 * into a fresh store in `dir` (replaced if present), opened read-only for the copy.
 * A file whose first page is lost is read without it (`sqlite-pages.ts`, `headerless`), unless
 * erasures are pending in the store ({@link headerlessRefusal}).
 * @returns the store over the rows, and what was read; undefined when the file is not a SQLite
 *   database of this layout or no row could be read (nothing to salvage).
 * @throws JevMemError `STORE_DAMAGED` (field `store`, `details.reason: 'erasures-pending'`) for a
 *   file whose first page is lost while erasures are pending; nothing is written then.
 */
export async function storeFromPages(root: string, dir: string, logger: Logger): Promise<{ store: StorageAdapter; read: PagesRead } | undefined> {
  let found;
  try {
    found = readTablePages(join(root, SQLITE_FILE_NAME), RECORD_TABLE, isRecordRow, { headerless: true });
  } catch {
    return undefined;
  }
  if (found.rows.length === 0) return undefined;
  if (found.header === false) {
    const refusal = headerlessRefusal(root);
    if (refusal !== undefined) throw refusal;
  }
  await rm(dir, { recursive: true, force: true });
  await (await createSqliteFileStorage({ dir, create: true, logger })).close();
  const db = openNodeSqlDriver(join(dir, SQLITE_FILE_NAME));
  try {
    db.transaction(() => {
      for (const r of found.rows) db.query(`INSERT OR IGNORE INTO ${RECORD_TABLE} (id, tbl, ns, k, chunk, v) VALUES (?, ?, ?, ?, ?, ?)`, [0, 2, 3, 4, 5, 6].map((i) => r[i] as NonNullable<PageValue>));
    });
  } finally {
    db.close();
  }
  const store = await createSqliteFileStorage({ dir, create: false, logger });
  return { store, read: { pages: found.pages, rows: found.rows.length, pagesMissing: found.pagesMissing, rowsLost: found.rowsLost, ...(found.header === false ? { header: false as const } : {}) } };
}
